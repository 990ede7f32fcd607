"""Each model preset's parameter counts match the figure its publisher states, within 1%.

The table is the stated figure (total, and active for MoE) with where it is stated. A preset whose
count drifts from its card, or a typo in a new preset, fails here.
"""

from __future__ import annotations

import pytest

from tests.conftest import shipped_catalog

B = 1e9
PUBLISHED: dict[str, tuple[float, float | None, str]] = {
    # id: (total, active for MoE, where the figures are stated)
    "qwen2.5-7b": (7.61 * B, None, "https://huggingface.co/Qwen/Qwen2.5-7B"),
    "qwen2.5-32b": (32.5 * B, None, "https://huggingface.co/Qwen/Qwen2.5-32B"),
    "qwen2.5-72b": (72.7 * B, None, "https://huggingface.co/Qwen/Qwen2.5-72B"),
    "qwen3-8b": (8.2 * B, None, "https://huggingface.co/Qwen/Qwen3-8B"),
    "qwen3-32b": (32.8 * B, None, "https://huggingface.co/Qwen/Qwen3-32B"),
    "qwen3-30b-a3b": (30.5 * B, 3.3 * B, "https://huggingface.co/Qwen/Qwen3-30B-A3B"),
    "qwen3-235b-a22b": (235 * B, 22 * B, "https://huggingface.co/Qwen/Qwen3-235B-A22B"),
    # Mistral's announcement says 7.3B; the model page counts 7.24B.
    "mistral-7b": (7.24 * B, None, "https://huggingface.co/mistralai/Mistral-7B-v0.1"),
    "mistral-large-2": (123 * B, None, "https://huggingface.co/mistralai/Mistral-Large-Instruct-2407"),
    "mixtral-8x7b": (46.7 * B, 12.9 * B, "https://arxiv.org/abs/2401.04088"),
    "mixtral-8x22b": (141 * B, 39 * B, "https://mistral.ai/news/mixtral-8x22b"),
    # Gemma 2 paper, Table 2: embedding + non-embedding parameters.
    "gemma2-9b": ((917_504_000 + 8_324_201_984), None, "https://arxiv.org/abs/2408.00118"),
    "gemma2-27b": ((1_179_648_000 + 26_047_480_320), None, "https://arxiv.org/abs/2408.00118"),
    # Gemma 3 report, Table 1: vision encoder + embedding + non-embedding (millions).
    "gemma3-27b": ((417 + 1_416 + 25_600) * 1e6, None, "https://arxiv.org/abs/2503.19786"),
    "phi-4": (14.7 * B, None, "https://huggingface.co/microsoft/phi-4"),
    "llama3.2-1b": (1.23 * B, None, "https://huggingface.co/meta-llama/Llama-3.2-1B"),
    "llama3.2-3b": (3.21 * B, None, "https://huggingface.co/meta-llama/Llama-3.2-3B"),
    "llama3-8b": (8 * B, None, "https://arxiv.org/abs/2407.21783"),
    "llama3-70b": (70 * B, None, "https://arxiv.org/abs/2407.21783"),
    "llama3-405b": (405 * B, None, "https://arxiv.org/abs/2407.21783"),
    "llama4-scout": (109 * B, 17 * B, "https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E"),
    "llama4-maverick": (400 * B, 17 * B, "https://huggingface.co/meta-llama/Llama-4-Maverick-17B-128E"),
    "gpt-oss-20b": (20.9 * B, 3.6 * B, "https://huggingface.co/openai/gpt-oss-20b"),
    "gpt-oss-120b": (116.8 * B, 5.1 * B, "https://huggingface.co/openai/gpt-oss-120b"),
    "kimi-k2": (1000 * B, 32 * B, "https://huggingface.co/moonshotai/Kimi-K2-Base"),
    "deepseek-v3": (671 * B, 37 * B, "https://arxiv.org/abs/2412.19437"),
    "olmo2-7b": (7.3 * B, None, "https://huggingface.co/allenai/OLMo-2-1124-7B"),
    "olmo2-13b": (13.7 * B, None, "https://huggingface.co/allenai/OLMo-2-1124-13B"),
    "nemotron4-340b": (340 * B, None, "https://arxiv.org/abs/2406.11704"),
    "gpt3-175b": (175 * B, None, "https://arxiv.org/abs/2005.14165"),
}
NOT_CHECKED = {
    "llama2-7b": "the paper states 7B; the preset keeps the checkpoint's 6.74B",
    "llama2-13b": "the paper states 13B (the preset's figure); no finer published count",
    "llama2-70b": "the paper states 70B; the preset keeps the checkpoint's 68.98B",
    "mpt-7b": "the benchmark configuration's count, not a model card figure",
    "mpt-30b": "the benchmark configuration's count, not a model card figure",
    "mpt-70b": "llm-foundry's benchmark-only configuration; no released model",
}
"""Presets whose count rests on a checkpoint or configuration rather than a stated figure."""

ROUTING: dict[str, tuple[int, int]] = {
    # MoE id: (routed experts, experts each token uses), as each preset's source states them.
    "mixtral-8x7b": (8, 2),
    "mixtral-8x22b": (8, 2),
    "llama4-scout": (16, 1),
    "llama4-maverick": (128, 1),
    "gpt-oss-20b": (32, 4),
    "gpt-oss-120b": (128, 4),
    "qwen3-30b-a3b": (128, 8),
    "qwen3-235b-a22b": (128, 8),
    "deepseek-v3": (256, 8),
    "kimi-k2": (384, 8),
}
"""Serving reads only the experts a decode batch touches, so a MoE preset without its experts per
token would be costed as if every token read every expert."""


def test_every_preset_is_checked_or_says_why_not():
    assert set(shipped_catalog().models) == set(PUBLISHED) | set(NOT_CHECKED)


@pytest.mark.parametrize("model_id", sorted(PUBLISHED))
def test_preset_parameters_match_the_published_figure(model_id):
    total, active, where = PUBLISHED[model_id]
    preset = shipped_catalog().model(model_id)
    assert preset.params_total == pytest.approx(total, rel=0.01), f"{model_id}: total vs {where}"
    if active is None:
        assert preset.family == "dense"
    else:
        assert preset.family == "moe"
        assert preset.params_active == pytest.approx(active, rel=0.01), f"{model_id}: active vs {where}"
    assert preset.url and preset.as_of, f"{model_id}: a preset names its config or card and its date"


def test_every_moe_preset_states_its_routing():
    catalog = shipped_catalog()
    moe = {m.id: (m.experts, m.experts_per_token) for m in catalog.models.values() if m.family == "moe"}
    assert moe == ROUTING
