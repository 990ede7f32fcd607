"""Model FLOPs per token, and the architecture rule for a custom model given only its size."""

from __future__ import annotations

from advisor.core.model.catalog import ModelSpec

ASPECT_RATIO = 128
"""hidden / layers for an inferred architecture (GPT-3 175B: 12,288 / 96 = 128; Llama 3 8B: 4,096 / 32)."""
HIDDEN_MULTIPLE = 128
DEFAULT_SEQ_LEN = 4096
"""Training sequence length of a custom model when none is given (Llama 2's; an assumption)."""


def training_flops_per_token(params_active: float, layers: int, hidden: int, seq_len: int) -> float:
    """Forward + backward model FLOPs per token: 6·N_active + 12·layers·hidden·seq_len.

    Kaplan et al. 2020 (6N) and the attention term of Narayanan et al. 2021, as in
    `throughput-benchmarks.md` (the convention behind published MFU).
    """
    return 6.0 * params_active + 12.0 * layers * hidden * seq_len


def lora_flops_per_token(
    params_active: float, layers: int, hidden: int, seq_len: int, trainable: float
) -> float:
    """LoRA fine-tuning: forward (2N) and activation gradients (2N) through frozen weights, no weight
    gradients except for the adapters (6 × trainable), plus attention (Hu et al. 2021, §4.2: the frozen
    weights need no gradient computation)."""
    return 4.0 * params_active + 6.0 * trainable + 12.0 * layers * hidden * seq_len


def model_flops_per_token(model: ModelSpec, seq_len: int | None = None) -> float:
    """Training FLOPs per token of a catalogued or custom model (at its own sequence length by default)."""
    return training_flops_per_token(model.params_active, model.layers, model.hidden, seq_len or model.seq_len)


def infer_architecture(params_active: float) -> tuple[int, int]:
    """Layers and hidden size for a model of `params_active` parameters.

    Rule: a transformer block holds about 12·hidden² parameters, and hidden ≈ 128·layers, so
    layers = round((N / (12·128²))^(1/3)) and hidden = sqrt(N / (12·layers)) rounded to a multiple of 128.
    """
    layers = max(1, round((params_active / (12 * ASPECT_RATIO**2)) ** (1 / 3)))
    hidden = (params_active / (12 * layers)) ** 0.5
    hidden = max(HIDDEN_MULTIPLE, round(hidden / HIDDEN_MULTIPLE) * HIDDEN_MULTIPLE)
    return layers, int(hidden)


def custom_model(
    params_total: float,
    params_active: float | None = None,
    *,
    layers: int | None = None,
    hidden: int | None = None,
    seq_len: int | None = None,
    name: str | None = None,
) -> ModelSpec:
    """A model given by its parameter count; the architecture is inferred where not given.

    With only one of `layers` and `hidden`, the other is chosen so that 12·layers·hidden² ≈ N.
    """
    active = params_active if params_active is not None else params_total
    inferred_layers, inferred_hidden = infer_architecture(active)
    if layers is not None and hidden is None:  # keep 12·layers·hidden² ≈ N with the layers given
        inferred_hidden = max(
            HIDDEN_MULTIPLE, round((active / (12 * layers)) ** 0.5 / HIDDEN_MULTIPLE) * HIDDEN_MULTIPLE
        )
    elif hidden is not None and layers is None:
        inferred_layers = max(1, round(active / (12 * hidden**2)))
    family = "moe" if active < params_total else "dense"
    label = f"{params_total / 1e9:.4g}B" + (f" ({active / 1e9:.4g}B active)" if family == "moe" else "")
    return ModelSpec(
        id="custom",
        name=name or f"custom {label}",
        family=family,
        params_total=params_total,
        params_active=active,
        layers=layers or inferred_layers,
        hidden=hidden or inferred_hidden,
        seq_len=seq_len or DEFAULT_SEQ_LEN,
        inferred=layers is None or hidden is None,
        source="user input; architecture inferred by advisor.core.model.flops.infer_architecture"
        if layers is None or hidden is None
        else "user input",
    )
