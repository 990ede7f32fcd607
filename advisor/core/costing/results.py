"""What `estimate()` returns: plain frozen dataclasses, fast to build, JSON-ready via `to_dict()`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from typing import Any, ClassVar

from advisor.core.costing.cost import CostPart, run_cost_usd
from advisor.core.costing.energy import PowerDraw
from advisor.core.model.catalog import Precision
from advisor.core.model.units import HOURS_PER_DAY, HOURS_PER_MONTH

# Computed results are plain frozen dataclasses: built from already-checked values, fast to make.


class JsonFields:
    """Mixin for a dataclass whose JSON object (`to_dict()`) is its fields as `dataclasses.asdict` gives
    them, but for the fields named in `NOT_IN_JSON`."""

    __slots__ = ()
    NOT_IN_JSON: ClassVar[frozenset[str]] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: every field but those in `NOT_IN_JSON`."""
        names = _JSON_FIELDS.get(type(self))
        if names is None:
            names = _JSON_FIELDS[type(self)] = _json_fields(self)
        return {name: _plain(getattr(self, name)) for name in names}


_JSON_FIELDS: dict[type[JsonFields], tuple[str, ...]] = {}
"""Each JsonFields class's JSON fields, in declaration order (found on its first `to_dict()`)."""


def _json_fields(result: Any) -> tuple[str, ...]:
    return tuple(f.name for f in fields(result) if f.name not in result.NOT_IN_JSON)


@dataclass(frozen=True, slots=True)
class ModelSummary:
    id: str
    name: str
    family: str
    params_total: float
    params_active: float
    seq_len: int
    layers: int
    hidden: int
    inferred: bool


@dataclass(frozen=True, slots=True)
class MemorySummary:
    required_gib: float
    available_gib: float
    min_gpus: int | None
    fits: bool
    state_gib: float
    activation_gib_per_gpu: float


@dataclass(frozen=True, slots=True)
class MfuBasis:
    exact: bool
    basis: str
    sources: tuple[str, ...]
    overridden: bool
    transferred: bool = False
    other_release: bool = False
    """Published for this configuration, but in a release other than the requested software month."""
    same_model: bool = False
    """Interpolated along the cluster size of this model's own published configuration only."""


@dataclass(frozen=True, slots=True)
class GoodputDetail:
    interruptions_per_day: float
    checkpoint_interval_minutes: float | None
    overridden: bool


@dataclass(frozen=True, slots=True)
class ServingSummary:
    """Inference only: the replica, and the fleet a target rate needs."""

    replica_gpus: int
    replicas: int
    tokens_per_second: float
    decode_bound: str
    target_tokens_per_second: float | None
    gpus_for_target: int | None
    batch: int = 0
    """Requests decoded together per replica, as chosen."""
    binding_limit: str = ""
    """What set the batch: memory, TPOT, TTFT, batch limit or throughput."""
    ttft_ms: float = 0.0
    tpot_ms: float = 0.0
    weight_precision: str = ""
    weights_as_released: bool = False
    """True when the weights are served in the format the model is released in, no precision given."""
    kv_cache_precision: str = ""
    activation_precision: str = ""
    utilisation: float = 1.0
    """Target rate over the capacity of the GPUs sized for it (1 without a target)."""
    headroom: float | None = None
    """Share of the fleet's capacity kept spare at the target rate (None without a target)."""
    usd_per_million_input_tokens_at_full_load: float = 0.0
    """Prefill's share of a replica's GPU time with every replica busy, per 1M prompt tokens: an
    engineering figure; the buyer's price per 1M output tokens is `Estimate.cost_per_million_tokens_usd`."""
    usd_per_million_output_tokens_at_full_load: float = 0.0
    """Decode's share of that GPU time per 1M generated tokens, every replica busy (not the buyer's price,
    which pays for prompts and spare capacity too: `Estimate.cost_per_million_tokens_usd`)."""
    usd_per_month: float = 0.0
    """The GPUs for the target (else the cluster) for a month at the hourly cost parts, on the GPUs that
    pay them (idle GPUs of a whole node or rack bought included, as in the ranking's cost)."""
    meets_limits: bool = True
    tpot_limit_ms: float | None = None
    """The time-per-output-token limit the layout was held to (None: none)."""
    tpot_limit_default: bool = False
    """True when that limit is the default for serving at a target rate, not one the user set."""
    period_hours: float | None = None
    """Serving at a target rate: the hours of serving the job is costed for (a month, 730)."""

    def month_paid(self, parts: Sequence[CostPart], gpus_running: int, gpus_paid: int) -> ServingSummary:
        """This summary with `usd_per_month`: a month of the cost `parts` on the GPUs that pay them (an
        owner pays for the idle GPUs of a whole node or rack; a rental's term, used whole, adds nothing)."""
        month = run_cost_usd(parts, HOURS_PER_MONTH, gpus_running, gpus_paid)
        return replace(self, usd_per_month=sum(month.values()))

    def to_dict(self) -> dict[str, Any]:
        """Its fields, and under their schema-1 names the full-load prices (`DEPRECATED_ALIASES`)."""
        data = asdict(self)
        for old, new in DEPRECATED_ALIASES.items():
            data[old] = data[new]
        return data


DEPRECATED_ALIASES = {
    "usd_per_million_input_tokens": "usd_per_million_input_tokens_at_full_load",
    "usd_per_million_output_tokens": "usd_per_million_output_tokens_at_full_load",
}
"""Serving keys kept for readers of JSON schema 1 (old name: the field it repeats); drop at schema 2."""


@dataclass(frozen=True, slots=True)
class Purchase:
    """Buying: the whole nodes or racks bought, what they cost up front and to own, and the run's share."""

    unit: str
    """What is bought whole: `node` or `rack`."""
    units: int
    gpus_bought: int
    gpus_idle: int
    """Bought to complete the last node or rack but not running: paid for, idle."""
    capex_usd: float
    """The up-front capital outlay: all-in capex per node or rack x units."""
    monthly_usd: float
    """Owning the units for a month at the fleet's utilisation: capital, maintenance, hosting and power."""
    run_share: float
    """The run's billed hours over the hours the units are used in their depreciation life."""
    runs_per_year: float
    """Runs like this one the units do in a year at the fleet's utilisation (the fleet view)."""
    gpus_owned: int = 0
    """GPUs already owned that the run uses: their capex is sunk and they need no lead time."""
    cost_per_run_usd: float = 0.0
    """The fleet view's cash cost per run: a year of owning the GPUs the run uses over `runs_per_year`."""


@dataclass(frozen=True, slots=True)
class PriceOffer:
    """Renting: the catalog offer the price is (None: the user's own price), and why it applies."""

    offer: str | None
    price_usd_per_gpu_hour: float
    reserved: bool
    """A reservation: its term is committed to and paid in full."""
    term_days: float
    """The reservation's shortest term (0 on demand)."""
    why: str
    """Why this offer: e.g. 'reserved 30-day price: 2,048 GPUs is beyond on-demand capacity (64)'."""


@dataclass(frozen=True, slots=True)
class Estimate(JsonFields):
    """Everything `advisor estimate --json` prints for one system. Times in hours, money in USD."""

    NOT_IN_JSON: ClassVar[frozenset[str]] = frozenset({"cost_parts", "power_draw"})

    system: str
    system_name: str
    gpus: int
    precision: Precision
    precision_requested: Precision
    pricing: str
    kind: str
    software: str | None
    efficiency: str
    """`reference` (benchmark throughput) or `production` (a team's end-to-end run: time part `overhead`)."""
    model: ModelSummary
    tokens: float
    flops_per_token: float
    total_flops: float
    mfu: float
    """The MFU the throughput (`tokens_per_second_per_gpu`) is at: the reference, published (or the
    user's); for serving, the serving model's."""
    mfu_basis: MfuBasis
    mfu_effective: float
    """The MFU the time to train works at: `mfu` over the compute plus a production run's overhead
    (`mfu` itself at reference efficiency and for serving)."""
    tokens_per_second_per_gpu: float
    goodput: float
    goodput_detail: GoodputDetail
    time_to_train_hours: float
    time_to_result_hours: float
    time_breakdown_hours: dict[str, float]
    gpu_hours: float
    gpus_paid: int
    """GPUs paid for: the cluster when renting, whole nodes or racks when buying."""
    purchase_usd: float | None
    """When buying: the up-front capital outlay for the nodes or racks bought (None when renting)."""
    purchase: Purchase | None
    """When buying: what is bought and what owning it costs (None when renting)."""
    capacity_gpus: int
    """The most GPUs to be had for this pricing: delivered within the lead time, or rented by reservation."""
    price_usd_per_gpu_hour: float
    effective_price_usd_per_gpu_hour: float
    """The run's cost per running GPU-hour: above the price when idle GPUs of a partial node are paid."""
    price_offer: PriceOffer | None
    """Renting: which offer the price is and why (None when owning)."""
    price_breakdown_usd_per_gpu_hour: dict[str, float]
    cost_usd: float
    cost_per_million_tokens_usd: float
    cost_breakdown_usd: dict[str, float]
    power_w_per_gpu_all_in: float
    power_breakdown_w: dict[str, float]
    energy_kwh: float
    energy_breakdown_kwh: dict[str, float]
    joules_per_token: float
    household_years: float
    co2_tonnes: float
    memory: MemorySummary
    warnings: tuple[str, ...]
    cost_parts: tuple[CostPart, ...] = field(repr=False)
    """The typed parts behind `price_breakdown_usd_per_gpu_hour` (what each scales with); not in JSON."""
    power_draw: PowerDraw = field(repr=False)
    """The typed parts behind `power_breakdown_w`; not in JSON."""
    serving: ServingSummary | None = None

    @property
    def serves_a_rate(self) -> bool:
        """Serving at a target rate: a month of serving, the fleet sized to the rate (not a batch job)."""
        return self.serving is not None and self.serving.target_tokens_per_second is not None

    @property
    def term_hours(self) -> float:
        """A reservation's term in hours, paid in full however short the run (0 on demand or owning)."""
        return self.price_offer.term_days * HOURS_PER_DAY if self.price_offer is not None else 0.0


def _plain(value: Any) -> Any:
    """A field's value as `dataclasses.asdict` would give it: dataclasses as dicts, dicts copied."""
    if isinstance(value, ServingSummary):
        return value.to_dict()
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def fit_message(memory: MemorySummary, gpus: int, system: str, kind: str) -> str:
    """Why a run does not fit: what it needs against what the GPUs hold, and the fewest GPUs that do."""
    serving = kind == "inference"
    what = "weights and KV cache" if serving else "training state and activations"
    state = "weights" if serving else "training state"
    if memory.min_gpus is None:
        need = (
            "no GPU count holds one sequence's activations: shorten the sequence or use context parallelism"
        )
    elif serving:
        need = f"one replica needs {memory.min_gpus} GPUs"
    else:
        need = f"the minimum is {memory.min_gpus} GPUs"
    return (
        f"does not fit: {what} need {memory.required_gib:,.0f} GiB ({state} {memory.state_gib:,.0f} GiB), "
        f"{gpus}x {system} hold {memory.available_gib:,.0f} GiB usable; {need}"
    )


def capacity_message(est: Estimate) -> str | None:
    """Why a size cannot be had (None when it can): GPUs paid for against the catalog's capacity."""
    if est.gpus_paid <= est.capacity_gpus:
        return None
    if est.pricing == "own":
        return (
            f"beyond what can be bought: {est.gpus_paid:,} {est.system} GPUs > the {est.capacity_gpus:,} one "
            "buyer can have delivered within the lead time (availability.purchase_max_gpus)"
        )
    return (
        f"beyond what can be rented: {est.gpus_paid:,} {est.system} GPUs > the {est.capacity_gpus:,} in one "
        "provider's largest reserved cluster (availability.reserved_max_gpus)"
    )


def served_after_deadline(est: Estimate) -> float:
    """The hours of `est`'s time to result that a deadline does not count: serving at a target rate, the
    month served (its deadline is when serving starts); else none."""
    return est.time_to_train_hours if est.serves_a_rate else 0.0
