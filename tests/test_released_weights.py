"""The format a model's weights are released in (`released_weights` in its catalog file), and the bytes
the serving model counts for them: gpt-oss publishes MXFP4 MoE weights with every other tensor in BF16
(model card, arXiv 2508.10925; openai/gpt-oss README, "Precision format"); DeepSeek-V3 and Kimi K2 FP8
weights throughout (their READMEs)."""

from __future__ import annotations

import pytest

from advisor.core.model.catalog import ModelSpec
from advisor.core.model.inference import BYTES_PER_VALUE, weight_bytes
from advisor.core.model.units import BYTES_PER_GIB
from tests.conftest import shipped_catalog

CATALOG = shipped_catalog()
RELEASED = {"gpt-oss-120b": "fp4", "gpt-oss-20b": "fp4", "deepseek-v3": "fp8", "kimi-k2": "fp8"}


def test_the_release_formats_stated_by_their_publishers():
    found = {m.id: m.released_weights.precision for m in CATALOG.models.values() if m.released_weights}
    assert found == RELEASED
    for model in RELEASED:
        released = CATALOG.model(model).released_weights
        assert released is not None and released.url.startswith("https://") and released.as_of
    assert CATALOG.model("gpt-oss-120b").released_weights.label == "FP4 (MXFP4)"  # type: ignore[union-attr]


# Model card: checkpoints of 60.8 GiB (gpt-oss-120b) and 12.8 GiB (gpt-oss-20b), MoE weights at 4.25 bits.
# The serving model counts FP4 at 4 bits and splits experts from the rest by the active parameters, so it
# lands under the checkpoint: 56.5 GiB (-7%) and 11.3 GiB (-12%). At FP4 throughout it was 54.4 and 9.7.
@pytest.mark.parametrize(
    ("model", "low", "high"), [("gpt-oss-120b", 0.90, 0.95), ("gpt-oss-20b", 0.85, 0.90)]
)
def test_released_bytes_against_the_published_checkpoint(model, low, high):
    spec = CATALOG.model(model)
    released = spec.released_weights
    assert released is not None and released.checkpoint_gib is not None
    counted = weight_bytes(spec, "fp4") / BYTES_PER_GIB
    assert low < counted / released.checkpoint_gib < high
    assert counted > spec.params_total * BYTES_PER_VALUE["fp4"] / BYTES_PER_GIB  # the BF16 rest counted


def test_only_the_released_format_keeps_the_bf16_rest():
    spec = CATALOG.model("gpt-oss-120b")
    assert weight_bytes(spec, "bf16") == spec.params_total * 2  # every weight BF16
    assert weight_bytes(spec, "fp8") == spec.params_total * 1  # re-quantised throughout
    # DeepSeek-V3 is released in FP8 throughout: FP8 is one byte a weight
    assert weight_bytes(CATALOG.model("deepseek-v3"), "fp8") == CATALOG.model("deepseek-v3").params_total


def test_experts_only_needs_routed_experts():
    data = CATALOG.model("llama3-8b").model_dump()
    data["released_weights"] = {"precision": "fp4", "layers": "experts", "source": "a test", "as_of": "2025"}
    with pytest.raises(ValueError, match=r"released_weights\.layers = 'experts' needs experts"):
        ModelSpec.model_validate(data)
