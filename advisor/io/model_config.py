"""Read a Hugging Face `config.json` into an `Architecture` (no network: a local file only).

Understood: the Llama/Mistral/Qwen keys (`num_hidden_layers`, `hidden_size`, `num_attention_heads`,
`num_key_value_heads`, `head_dim`, `intermediate_size`, `vocab_size`, `max_position_embeddings`,
`tie_word_embeddings`), Mixtral's `num_local_experts`, Qwen2-MoE/Qwen3-MoE's `num_experts`,
`moe_intermediate_size`, `shared_expert_intermediate_size`, `decoder_sparse_step`, and DeepSeek-V3's
`n_routed_experts`, `n_shared_experts`, `first_k_dense_replace` and latent attention ranks. A
multimodal config's `text_config` is read in its place. Every error names the file and the key.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.core.model.architecture import Architecture, Experts, LatentAttention, model_from_architecture
from advisor.core.model.catalog import ModelSpec
from advisor.errors import ScenarioError
from advisor.io.toml_read import read_text

QKV_BIAS_TYPES = ("qwen2", "qwen2_moe")
"""Model types whose query, key and value projections carry a bias (Qwen2's attention)."""
QK_NORM_TYPES = ("qwen3", "qwen3_moe")
"""Model types with an RMSNorm on each query and key head (Qwen3)."""


class _Keys:
    """The config's keys, read with messages that name the file and the key."""

    def __init__(self, data: dict[str, Any], path: Path) -> None:
        self.data = data
        self.path = path

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def count(self, key: str, default: int | None = None, *, low: int = 1) -> int:
        """A whole number >= `low`; missing without a default raises naming the key."""
        value = self.data.get(key)
        if value is None:
            if default is None:
                raise ScenarioError(
                    f"{self.path}: missing key {key!r} (a whole number; see a model's config.json)"
                )
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ScenarioError(f"{self.path}: key {key!r} must be a whole number >= {low}, not {value!r}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise ScenarioError(f"{self.path}: key {key!r} must be true or false, not {value!r}")
        return value


def read_model_config(path: Path | str) -> Architecture:
    """The architecture a `config.json` describes; a missing file, bad JSON or key raises ScenarioError."""
    path = Path(path)
    text = read_text(path, ScenarioError)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a model config is a JSON object, not {type(data).__name__}")
    if "hidden_size" not in data and isinstance(data.get("text_config"), dict):
        data = {**data["text_config"], "_name_or_path": data.get("_name_or_path")}
    return _architecture(_Keys(data, path))


def _architecture(keys: _Keys) -> Architecture:
    hidden = keys.count("hidden_size")
    heads = keys.count("num_attention_heads")
    if "num_hidden_layers" not in keys.data and "hidden_size" not in keys.data:
        raise ScenarioError(
            f"{keys.path}: not a transformer config (no 'num_hidden_layers' or 'hidden_size')"
        )
    model_type = str(keys.data.get("model_type", ""))
    experts = _experts(keys)
    intermediate_default = experts.intermediate if experts is not None else None
    return Architecture(
        name=_name(keys),
        layers=keys.count("num_hidden_layers"),
        hidden=hidden,
        heads=heads,
        kv_heads=keys.count("num_key_value_heads", heads),
        head_dim=keys.count("head_dim", max(1, hidden // heads)),
        intermediate=keys.count("intermediate_size", intermediate_default),
        vocab=keys.count("vocab_size"),
        context=keys.count("max_position_embeddings", 4096),
        tied_embeddings=keys.flag("tie_word_embeddings", False),
        qkv_bias=keys.flag("attention_bias", model_type in QKV_BIAS_TYPES),
        qk_norm=model_type in QK_NORM_TYPES,
        experts=experts,
        latent=_latent(keys),
    )


def _name(keys: _Keys) -> str:
    named = keys.data.get("_name_or_path")
    if isinstance(named, str) and named.strip():
        return named.strip()
    parent = keys.path.resolve().parent.name
    return f"{parent or keys.path.stem} (config.json)"


def _experts(keys: _Keys) -> Experts | None:
    """The MoE layers: Mixtral's `num_local_experts`, Qwen's `num_experts`, DeepSeek's `n_routed_experts`."""
    key = next((k for k in ("num_local_experts", "num_experts", "n_routed_experts") if keys.has(k)), None)
    if key is None:
        return None
    routed = keys.count(key)
    per_token = keys.count("num_experts_per_tok")
    if per_token > routed:
        raise ScenarioError(
            f"{keys.path}: key 'num_experts_per_tok' ({per_token}) exceeds {key!r} ({routed})"
        )
    width_key = "moe_intermediate_size" if keys.has("moe_intermediate_size") else "intermediate_size"
    shared_width = keys.count("shared_expert_intermediate_size", 0, low=0)
    return Experts(
        routed=routed,
        per_token=per_token,
        intermediate=keys.count(width_key),
        shared=keys.count("n_shared_experts", 1 if shared_width else 0, low=0),
        shared_intermediate=shared_width,
        shared_gate=shared_width > 0,
        dense_layers=keys.count("first_k_dense_replace", 0, low=0),
        every=keys.count("decoder_sparse_step", keys.count("moe_layer_freq", 1)),
    )


def _latent(keys: _Keys) -> LatentAttention | None:
    """DeepSeek's multi-head latent attention, when `kv_lora_rank` is given."""
    if not keys.has("kv_lora_rank"):
        return None
    return LatentAttention(
        q_lora_rank=keys.count("q_lora_rank") if keys.has("q_lora_rank") else None,
        kv_lora_rank=keys.count("kv_lora_rank"),
        qk_nope_head_dim=keys.count("qk_nope_head_dim"),
        qk_rope_head_dim=keys.count("qk_rope_head_dim"),
        v_head_dim=keys.count("v_head_dim"),
    )


def load_model_config(path: Path | str, *, seq_len: int | None = None) -> ModelSpec:
    """The `ModelSpec` of the model a `config.json` describes (total and active parameters counted)."""
    arch = read_model_config(path)
    if arch.heads % arch.kv_heads:
        raise ScenarioError(
            f"{path}: key 'num_key_value_heads' ({arch.kv_heads}) must divide "
            f"'num_attention_heads' ({arch.heads})"
        )
    return model_from_architecture(arch, source=f"Hugging Face config {Path(path).name}", seq_len=seq_len)
