"""Hugging Face config.json files: parameter counts against the model cards, and clear errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from advisor import load_catalog
from advisor.cli.main import main
from advisor.core.model.architecture import parameter_counts
from advisor.errors import ScenarioError
from advisor.io.model_config import load_model_config, read_model_config
from advisor.io.scenario_files import load_scenario

# The architecture keys of each model's config.json on the Hugging Face Hub (tokenizer ids, dropout,
# RoPE and initialisation keys left out: they do not change the parameter count).
LLAMA3_8B = {
    "_name_or_path": "meta-llama/Meta-Llama-3-8B",
    "architectures": ["LlamaForCausalLM"],
    "model_type": "llama",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "vocab_size": 128256,
    "max_position_embeddings": 8192,
    "tie_word_embeddings": False,
}
MIXTRAL_8X7B = {
    "_name_or_path": "mistralai/Mixtral-8x7B-v0.1",
    "model_type": "mixtral",
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "num_attention_heads": 32,
    "num_hidden_layers": 32,
    "num_key_value_heads": 8,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
    "vocab_size": 32000,
    "max_position_embeddings": 32768,
    "tie_word_embeddings": False,
}
QWEN15_MOE_A27B = {
    "_name_or_path": "Qwen/Qwen1.5-MoE-A2.7B",
    "model_type": "qwen2_moe",
    "hidden_size": 2048,
    "intermediate_size": 5632,
    "moe_intermediate_size": 1408,
    "shared_expert_intermediate_size": 5632,
    "num_experts": 60,
    "num_experts_per_tok": 4,
    "decoder_sparse_step": 1,
    "num_attention_heads": 16,
    "num_key_value_heads": 16,
    "num_hidden_layers": 24,
    "vocab_size": 151936,
    "max_position_embeddings": 8192,
    "tie_word_embeddings": False,
}
QWEN3_30B_A3B = {
    "_name_or_path": "Qwen/Qwen3-30B-A3B",
    "model_type": "qwen3_moe",
    "hidden_size": 2048,
    "intermediate_size": 6144,
    "moe_intermediate_size": 768,
    "num_experts": 128,
    "num_experts_per_tok": 8,
    "decoder_sparse_step": 1,
    "head_dim": 128,
    "num_attention_heads": 32,
    "num_key_value_heads": 4,
    "num_hidden_layers": 48,
    "vocab_size": 151936,
    "max_position_embeddings": 40960,
    "tie_word_embeddings": False,
}
DEEPSEEK_V3 = {
    "_name_or_path": "deepseek-ai/DeepSeek-V3",
    "model_type": "deepseek_v3",
    "hidden_size": 7168,
    "intermediate_size": 18432,
    "moe_intermediate_size": 2048,
    "num_hidden_layers": 61,
    "num_attention_heads": 128,
    "num_key_value_heads": 128,
    "n_shared_experts": 1,
    "n_routed_experts": 256,
    "num_experts_per_tok": 8,
    "first_k_dense_replace": 3,
    "moe_layer_freq": 1,
    "q_lora_rank": 1536,
    "kv_lora_rank": 512,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "vocab_size": 129280,
    "max_position_embeddings": 163840,
    "num_nextn_predict_layers": 1,
    "tie_word_embeddings": False,
}


def write(tmp_path: Path, data: Any, name: str = "config.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return path


# (config, card total, card active or None, card URL). Each card's figure within 1%.
CARDS = [
    # https://huggingface.co/meta-llama/Meta-Llama-3-8B (2024-04): "8B" (the Hub lists 8.03B params)
    (LLAMA3_8B, 8.03e9, None),
    # https://huggingface.co/mistralai/Mixtral-8x7B-v0.1 and https://mistral.ai/news/mixtral-of-experts
    # (2023-12): "46.7B total parameters but only uses 12.9B parameters per token"
    (MIXTRAL_8X7B, 46.7e9, 12.9e9),
    # https://huggingface.co/Qwen/Qwen1.5-MoE-A2.7B (2024-03): "14.3B parameters in total and 2.7B
    # activated parameters during runtime"
    (QWEN15_MOE_A27B, 14.3e9, 2.7e9),
    # https://huggingface.co/Qwen/Qwen3-30B-A3B (2025-04): "30.5B in total" (activated: see below)
    (QWEN3_30B_A3B, 30.5e9, None),
    # https://huggingface.co/deepseek-ai/DeepSeek-V3 (2024-12): "671B of the Main Model weights" (the
    # 14B of the multi-token prediction module are not part of the model that is trained and served)
    (DEEPSEEK_V3, 671e9, None),
]


@pytest.mark.parametrize(("config", "total", "active"), CARDS, ids=[c[0]["model_type"] for c in CARDS])
def test_parameter_count_matches_the_model_card(
    tmp_path: Path, config: dict, total: float, active: float | None
) -> None:
    spec = load_model_config(write(tmp_path, config))
    assert spec.params_total == pytest.approx(total, rel=0.01)
    if active is not None:
        assert spec.params_active == pytest.approx(active, rel=0.01)
    assert spec.family == ("moe" if active or spec.experts else "dense")
    assert spec.name == config["_name_or_path"]


def test_deepseek_v3_active_and_latent_cache(tmp_path: Path) -> None:
    # https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/README_WEIGHTS.md (2024-12): main model
    # "Activation parameters: 36.6B (including 0.9B for the output Head)", i.e. without the input
    # embedding table (a lookup, not a matrix product); our active count includes it.
    arch = read_model_config(write(tmp_path, DEEPSEEK_V3))
    active = parameter_counts(arch)[1]
    assert active - arch.vocab * arch.hidden == pytest.approx(36.6e9, rel=0.01)
    spec = load_model_config(write(tmp_path, DEEPSEEK_V3))
    assert spec.kv_dim == 512 + 64  # MLA caches the 512-wide latent and the 64-wide RoPE key
    assert (spec.experts, spec.experts_per_token, spec.layers, spec.hidden) == (256, 8, 61, 7168)


def test_qwen3_moe_non_embedding_and_active(tmp_path: Path) -> None:
    # https://huggingface.co/Qwen/Qwen3-30B-A3B (2025-04): "Number of Parameters (Non-Embedding): 29.9B",
    # "3.3B activated" (one decimal: the card rounds, so 2%).
    arch = read_model_config(write(tmp_path, QWEN3_30B_A3B))
    total, active = parameter_counts(arch)
    assert total - 2 * arch.vocab * arch.hidden == pytest.approx(29.9e9, rel=0.01)
    assert active == pytest.approx(3.3e9, rel=0.02)
    assert arch.qk_norm and not arch.qkv_bias


def test_dense_config_sets_the_shape_used_by_the_cost_model(tmp_path: Path) -> None:
    spec = load_model_config(write(tmp_path, LLAMA3_8B))
    assert (spec.layers, spec.hidden, spec.vocab, spec.kv_dim) == (32, 4096, 128256, 2 * 8 * 128)
    assert spec.seq_len == 4096  # the default training sequence, within the 8,192 context
    assert spec.params_active == spec.params_total and spec.family == "dense"


def test_tied_embeddings_count_once(tmp_path: Path) -> None:
    untied = parameter_counts(read_model_config(write(tmp_path, LLAMA3_8B)))[0]
    tied = parameter_counts(read_model_config(write(tmp_path, {**LLAMA3_8B, "tie_word_embeddings": True})))[0]
    assert untied - tied == 128256 * 4096


def test_multimodal_text_config_is_read(tmp_path: Path) -> None:
    wrapped = {"model_type": "llava", "_name_or_path": "llava", "text_config": LLAMA3_8B}
    assert load_model_config(write(tmp_path, wrapped)).params_total == pytest.approx(8.03e9, rel=0.01)


BAD = [
    ("{", "config.json:1: not valid JSON"),
    ("[1, 2]", "a model config is a JSON object"),
    ({**LLAMA3_8B, "hidden_size": None}, "missing key 'hidden_size'"),
    ({k: v for k, v in LLAMA3_8B.items() if k != "num_hidden_layers"}, "missing key 'num_hidden_layers'"),
    ({**LLAMA3_8B, "vocab_size": "big"}, "key 'vocab_size' must be a whole number >= 1, not 'big'"),
    ({**LLAMA3_8B, "num_attention_heads": 0}, "key 'num_attention_heads' must be a whole number >= 1"),
    ({**LLAMA3_8B, "tie_word_embeddings": "yes"}, "key 'tie_word_embeddings' must be true or false"),
    ({**LLAMA3_8B, "num_key_value_heads": 5}, "'num_key_value_heads' (5) must divide"),
    ({**MIXTRAL_8X7B, "num_experts_per_tok": 9}, "'num_experts_per_tok' (9) exceeds 'num_local_experts' (8)"),
    ({**DEEPSEEK_V3, "v_head_dim": 1.5}, "key 'v_head_dim' must be a whole number"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_config_names_the_file_and_key(tmp_path: Path, data: Any, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(ScenarioError) as info:
        load_model_config(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_scenario_names_a_config_relative_to_its_folder(tmp_path: Path) -> None:
    write(tmp_path, MIXTRAL_8X7B, "mixtral.json")
    scenario_path = tmp_path / "plan.toml"
    scenario_path.write_text('schema = 1\n[workload]\nmodel_config = "mixtral.json"\ntokens = "1T"\n')
    scenario = load_scenario(scenario_path)
    spec = scenario.workload.model_spec(load_catalog())
    assert spec.params_active == pytest.approx(12.9e9, rel=0.01)
    assert scenario.to_data()["workload"]["model_config"] == str((tmp_path / "mixtral.json").resolve())


def test_scenario_with_a_missing_config_says_which(tmp_path: Path) -> None:
    scenario_path = tmp_path / "plan.toml"
    scenario_path.write_text('schema = 1\n[workload]\nmodel_config = "gone.json"\ntokens = "1T"\n')
    with pytest.raises(ScenarioError, match=r"gone\.json: no such file"):
        load_scenario(scenario_path)


def test_scenario_may_not_name_two_models(tmp_path: Path) -> None:
    scenario_path = tmp_path / "plan.toml"
    scenario_path.write_text(
        'schema = 1\n[workload]\nmodel = "llama3-8b"\nmodel_config = "c.json"\ntokens = "1T"\n'
    )
    with pytest.raises(ScenarioError, match="give exactly one of"):
        load_scenario(scenario_path)


def test_cli_model_flag_takes_a_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, QWEN15_MOE_A27B)
    code = main(
        ["estimate", "--model", str(path), "--tokens", "1T", "--gpus", "8", "--system", "h100", "--json"]
    )
    assert code == 0
    model = json.loads(capsys.readouterr().out)["model"]
    assert model["name"] == "Qwen/Qwen1.5-MoE-A2.7B"
    assert model["params_total"] == pytest.approx(14.3e9, rel=0.01)
    assert model["params_active"] == pytest.approx(2.7e9, rel=0.01)


def test_cli_bad_config_exits_2_with_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {**LLAMA3_8B, "hidden_size": -1})
    assert main(["estimate", "--model", str(path), "--tokens", "1T"]) == 2
    assert "key 'hidden_size' must be a whole number >= 1, not -1" in capsys.readouterr().err


def test_app_answers_keep_a_config_model(tmp_path: Path) -> None:
    # The app re-validates the scenario on every answer: the config is read again, not lost, and
    # choosing a preset replaces it.
    from advisor.tui.answers import apply_answer, read_answers

    write(tmp_path, MIXTRAL_8X7B, "mixtral.json")
    scenario_path = tmp_path / "plan.toml"
    scenario_path.write_text('schema = 1\n[workload]\nmodel_config = "mixtral.json"\ntokens = "1T"\n')
    catalog = load_catalog()
    scenario = load_scenario(scenario_path, catalog)
    changed = apply_answer(scenario, catalog, "gpus", "64")
    assert changed.workload.gpus == 64
    assert changed.workload.model_spec(catalog).params_active == pytest.approx(12.9e9, rel=0.01)
    assert read_answers(changed, catalog)["gpus"] == "64"
    preset = apply_answer(changed, catalog, "model", "llama3-8b")
    assert preset.workload.model == "llama3-8b" and preset.workload.config_file is None
