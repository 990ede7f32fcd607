"""Parameter counts of a decoder-only transformer described layer by layer (as a Hugging Face
`config.json` describes it): total and active parameters, and the `ModelSpec` the cost model uses.

Counted: token embeddings and the output head (once when tied), attention (multi-head, grouped-query,
or DeepSeek's multi-head latent attention), the SwiGLU MLP of dense layers, and of MoE layers the
router, the routed experts and any shared experts; RMSNorm weights and attention biases. Active
parameters count the experts a token is routed to (plus the shared ones) instead of all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.model.catalog import ModelSpec
from advisor.core.model.flops import DEFAULT_SEQ_LEN

SWIGLU_MATRICES = 3
"""Gate, up and down projections of a SwiGLU MLP (Shazeer 2020; Llama, Mixtral, Qwen, DeepSeek)."""


@dataclass(frozen=True)
class LatentAttention:
    """DeepSeek-V2/V3 multi-head latent attention (arXiv 2405.04434, section 2.1): low-rank query
    and key-value projections; the KV cache holds the latent and the RoPE key."""

    q_lora_rank: int | None
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int


@dataclass(frozen=True)
class Experts:
    """The MoE part of a layer: routed experts, how many a token uses, and shared experts."""

    routed: int
    per_token: int
    intermediate: int
    shared: int = 0
    shared_intermediate: int = 0
    """Hidden width of all shared experts together (0: `shared` experts of width `intermediate`)."""
    shared_gate: bool = False
    """Qwen2-MoE: a sigmoid gate (hidden -> 1) on the shared expert's output."""
    dense_layers: int = 0
    """Leading layers with a dense MLP instead of experts (DeepSeek `first_k_dense_replace`)."""
    every: int = 1
    """MoE in every `every`-th layer (Qwen2-MoE `decoder_sparse_step`); dense in the others."""


@dataclass(frozen=True)
class Architecture:
    """What a config file says about a decoder-only transformer's shape."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    context: int
    tied_embeddings: bool = False
    qkv_bias: bool = False
    qk_norm: bool = False
    experts: Experts | None = None
    latent: LatentAttention | None = None

    def moe_layer_count(self) -> int:
        """Layers whose MLP is a mixture of experts."""
        if self.experts is None:
            return 0
        e = self.experts
        return sum(1 for i in range(e.dense_layers, self.layers) if (i + 1) % e.every == 0)


def attention_params(arch: Architecture) -> int:
    """Weights of one attention block (projections, biases and any query/key norms)."""
    h = arch.hidden
    if arch.latent is not None:
        m = arch.latent
        q_width = arch.heads * (m.qk_nope_head_dim + m.qk_rope_head_dim)
        query = (
            h * q_width
            if m.q_lora_rank is None
            else h * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * q_width
        )
        key_value = h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank
        key_value += m.kv_lora_rank * arch.heads * (m.qk_nope_head_dim + m.v_head_dim)
        return query + key_value + arch.heads * m.v_head_dim * h
    q_width = arch.heads * arch.head_dim
    kv_width = arch.kv_heads * arch.head_dim
    params = h * (q_width + 2 * kv_width) + q_width * h
    if arch.qkv_bias:
        params += q_width + 2 * kv_width
    if arch.qk_norm:
        params += 2 * arch.head_dim
    return params


def mlp_params(hidden: int, intermediate: int) -> int:
    """A SwiGLU MLP: three hidden x intermediate matrices."""
    return SWIGLU_MATRICES * hidden * intermediate


def moe_params(arch: Architecture, experts: Experts, *, active: bool) -> int:
    """One MoE layer's MLP: router, the routed experts (all, or a token's share) and shared experts."""
    h = arch.hidden
    routed = experts.per_token if active else experts.routed
    shared_width = experts.shared_intermediate or experts.shared * experts.intermediate
    params = h * experts.routed + routed * mlp_params(h, experts.intermediate) + mlp_params(h, shared_width)
    return params + (h if experts.shared_gate else 0)


def parameter_counts(arch: Architecture) -> tuple[int, int]:
    """(total, active) parameters: embeddings, head, every layer's attention, MLP and norms."""
    embeddings = arch.vocab * arch.hidden * (1 if arch.tied_embeddings else 2)
    moe_layers = arch.moe_layer_count()
    dense_layers = arch.layers - moe_layers
    shared = embeddings + arch.hidden  # the final norm
    per_layer = attention_params(arch) + 2 * arch.hidden  # two norms per layer
    if arch.latent is not None:
        per_layer += arch.latent.kv_lora_rank + (arch.latent.q_lora_rank or 0)  # the latents' norms
    shared += arch.layers * per_layer + dense_layers * mlp_params(arch.hidden, arch.intermediate)
    if arch.experts is None:
        return shared, shared
    total = shared + moe_layers * moe_params(arch, arch.experts, active=False)
    active = shared + moe_layers * moe_params(arch, arch.experts, active=True)
    return total, active


def kv_values_per_token(arch: Architecture) -> int:
    """Values the KV cache holds per token per layer: K and V of each KV head, or MLA's latent + RoPE key."""
    if arch.latent is not None:
        return arch.latent.kv_lora_rank + arch.latent.qk_rope_head_dim
    return 2 * arch.kv_heads * arch.head_dim


def model_from_architecture(arch: Architecture, *, source: str, seq_len: int | None = None) -> ModelSpec:
    """The cost model's `ModelSpec` for `arch`; training sequence `seq_len` (default: 4,096 within the
    model's context)."""
    total, active = parameter_counts(arch)
    moe = arch.experts is not None
    return ModelSpec(
        id="custom",
        name=arch.name,
        family="moe" if moe and active < total else "dense",
        params_total=total,
        params_active=active if moe else total,
        layers=arch.layers,
        hidden=arch.hidden,
        seq_len=seq_len or min(DEFAULT_SEQ_LEN, arch.context),
        vocab=arch.vocab,
        experts=arch.experts.routed if arch.experts else None,
        experts_per_token=arch.experts.per_token if arch.experts else None,
        kv_dim=kv_values_per_token(arch),
        source=source,
        note=f"context {arch.context:,} tokens",
    )
