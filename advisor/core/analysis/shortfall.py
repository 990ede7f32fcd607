"""GPUs already owned that are too few for the deadline: the shortfall rented on the same system.

The run uses every owned GPU and rents whole nodes of the same system beside them, as one cluster
(which assumes the rented nodes join the owned ones on one fabric: a provider hosting both, or renting
in the same facility). Its cost is the owned GPUs' marginal hours (maintenance, hosting, power and the
opportunity cost, no capex: `costing.owned`) plus the rental, both over the run's billed hours (a
reservation's term paid in full when longer); it starts when the rented capacity arrives. It is sized as
the deadline sizing sizes (`analysis.deadline`): the fewest rented nodes whose time to result, at the
team's deadline quantile, meets the deadline with the one risk allowance
(`AdviceRequest.sizing_margin`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from advisor.core import fmt
from advisor.core.analysis.deadline import GpuCount, fewest
from advisor.core.costing.cost import run_cost_usd
from advisor.core.costing.estimate import estimate
from advisor.core.costing.results import Estimate
from advisor.core.decision.constraints import DeadlineBasis, judged_hours
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.units import HOURS_PER_DAY
from advisor.errors import AdvisorError


@dataclass(frozen=True)
class OwnedPlusRented:
    """A run on the GPUs already owned of one system plus rented nodes of it, sized to the deadline."""

    system: str
    owned_gpus: int
    rented_gpus: int
    time_to_result_hours: float
    """The wait for the rented capacity, then the run on all the GPUs (expected)."""
    judged_hours: float
    """The time to result as the deadline judges it (at the team's quantile)."""
    owned_cost_usd: float
    rental_cost_usd: float
    owned_usd_per_gpu_hour: float
    rental_usd_per_gpu_hour: float
    energy_kwh: float
    rental_wait_hours: float
    """The wait for the rented capacity, before the run can start."""

    @property
    def cost_usd(self) -> float:
        return self.owned_cost_usd + self.rental_cost_usd

    @property
    def sentence(self) -> str:
        """`304 h100 rented beside the 128 you own (432 in one cluster, which needs both on one network
        fabric) meet it: 54.0 days to result, the rented nodes arriving after 7.0 days, $937.8k ($144.8k of
        owned hours at $1.18/GPU-hour, $793k of rental at $2.72/GPU-hour, $0 up front)`."""
        total = self.owned_gpus + self.rented_gpus
        arrive = (
            f", the rented nodes arriving after {fmt.duration(self.rental_wait_hours)}"
            if self.rental_wait_hours > 0
            else ""
        )
        owned = (
            f"{fmt.money(self.owned_cost_usd)} of owned hours at ${self.owned_usd_per_gpu_hour:.2f}/GPU-hour"
        )
        rented = (
            f"{fmt.money(self.rental_cost_usd)} of rental at ${self.rental_usd_per_gpu_hour:.2f}/GPU-hour"
        )
        return (
            f"{self.rented_gpus:,} {self.system} rented beside the {self.owned_gpus:,} you own ({total:,} in "
            f"one cluster, which needs both on one network fabric) meet it: "
            f"{fmt.duration(self.time_to_result_hours)} to result{arrive}, {fmt.money(self.cost_usd)} "
            f"({owned}, {rented}, $0 up front)"
        )


@dataclass(frozen=True)
class _Mixer:
    """One system's owned GPUs and the request they serve."""

    request: AdviceRequest
    system: str
    owned: int

    def run(self, rented: int) -> OwnedPlusRented | None:
        """The run on the owned GPUs plus `rented` rented ones, or None when it cannot be estimated."""
        request, total = self.request, self.owned + rented
        waits = request.capacity_assumptions()
        try:
            on_owned = estimate(
                request.workload.model_copy(update={"pricing": "own", "gpus": total}),
                self.system,
                request.catalog,
                waits.model_copy(update={"owned_gpus": {self.system: total}}),
            )
            rental = estimate(
                request.workload.model_copy(update={"pricing": "rent", "gpus": rented}),
                self.system,
                request.catalog,
                waits,
            )
        except AdvisorError:
            return None
        if not on_owned.memory.fits or rental.gpus_paid > rental.capacity_gpus:
            return None
        return _mixed(on_owned, rental, self.owned, request.deadline_basis)


def _mixed(on_owned: Estimate, rental: Estimate, owned: int, basis: DeadlineBasis | None) -> OwnedPlusRented:
    """The two estimates combined: the run's hours on all the GPUs (`on_owned`, every one owned), the
    owned share of its marginal cost, and the rental's price over those hours (`rental`)."""
    billed = on_owned.time_to_train_hours
    rented_usd = sum(
        run_cost_usd(rental.cost_parts, max(billed, rental.term_hours), rental.gpus, rental.gpus).values()
    )
    owned_usd = sum(run_cost_usd(on_owned.cost_parts, billed, owned, owned).values())
    wait = rental.time_breakdown_hours["wait"]
    return OwnedPlusRented(
        system=on_owned.system,
        owned_gpus=owned,
        rented_gpus=rental.gpus,
        time_to_result_hours=wait + on_owned.time_to_result_hours,
        judged_hours=wait + judged_hours(on_owned, basis),
        owned_cost_usd=owned_usd,
        rental_cost_usd=rented_usd,
        owned_usd_per_gpu_hour=on_owned.price_usd_per_gpu_hour,
        rental_usd_per_gpu_hour=rental.price_usd_per_gpu_hour,
        energy_kwh=on_owned.energy_kwh,
        rental_wait_hours=wait,
    )


def owned_plus_rented(request: AdviceRequest, system: str, owned: int) -> OwnedPlusRented | None:
    """The fewest whole rented nodes of `system` that, beside the `owned` GPUs of it, meet the deadline
    with the sizing's risk allowance; None without a deadline or when no rentable count meets it."""
    deadline = request.constraints.deadline_days
    if deadline is None or owned <= 0 or request.workload.pricing != "own":
        return None
    mixer = _Mixer(request, system, owned)
    spec = request.catalog.system(system)
    node = spec.interconnect.gpus_per_node
    target_hours = deadline * (1 - request.sizing_margin) * HOURS_PER_DAY

    def meets(nodes: int) -> OwnedPlusRented | None:
        found = mixer.run(nodes * node)
        return found if found is not None and found.judged_hours <= target_hours else None

    top = max(1, spec.availability.capacity_gpus("rent") // node)
    best = meets(top)
    if best is None:
        return None
    return fewest(meets, top, best)[1]


@dataclass(frozen=True)
class OwnedShortfall:
    """GPUs already owned that alone miss the deadline, and the ways to meet it, in one sentence."""

    system: str
    owned_gpus: int
    sentence: str
    mixed: OwnedPlusRented | None
    """The owned GPUs plus the shortfall rented, when some rentable count meets the deadline."""


def _alone_words(alone: Estimate, request: AdviceRequest) -> str:
    """`131.2 days for $475.5k`, at a quantile `131.2 days (140.3 at P90) for $475.5k`."""
    basis = request.deadline_basis
    at = f" ({judged_hours(alone, basis) / HOURS_PER_DAY:.1f} at {basis.label})" if basis else ""
    return f"{fmt.duration(alone.time_to_result_hours)}{at} for {fmt.money(alone.cost_usd)}"


def _buying_words(found: GpuCount, owned: int) -> str:
    """Buying the shortfall: the count that meets the deadline and what it takes."""
    if found.gpus is not None and found.estimate is not None:
        sized = found.estimate
        return (
            f"buying the shortfall: {found.gpus - owned:,} more (to {found.gpus:,}) meet it: "
            f"{fmt.duration(sized.time_to_result_hours)} to result, {fmt.money(sized.cost_usd)}"
        )
    if found.on_hand is not None:
        wait = found.estimate.time_breakdown_hours["wait"] if found.estimate else None
        more, total = found.on_hand.gpus - owned, found.on_hand.gpus
        text = f"buying the shortfall: {more:,} more (to {total:,}) would meet it if on hand"
        return text + (f", but buying them takes {fmt.duration(wait)}" if wait else "")
    return ""


def owned_shortfalls(sizing: Sequence[GpuCount], request: AdviceRequest) -> list[OwnedShortfall]:
    """Owning GPUs that alone miss the deadline (at the team's quantile): say so, and the options with
    their numbers: a later deadline (what they do alone), buying the shortfall, renting the shortfall
    beside them (`owned_plus_rented`), renting all."""
    deadline = request.constraints.deadline_days
    found_all = []
    for found in sizing:
        owned = request.assumptions.owned_gpus.get(found.system, 0)
        if deadline is None or owned <= 0 or request.workload.pricing != "own":
            continue
        workload = request.workload.model_copy(update={"gpus": owned})
        try:
            alone = estimate(workload, found.system, request.catalog, request.capacity_assumptions())
        except AdvisorError:
            continue
        if judged_hours(alone, request.deadline_basis) <= deadline * HOURS_PER_DAY:
            continue
        options = [f"a later deadline: they alone finish in {_alone_words(alone, request)}"]
        if buying := _buying_words(found, owned):
            options.append(buying)
        mixed = owned_plus_rented(request, found.system, owned)
        if mixed is not None:
            options.append(f"renting the shortfall: {mixed.sentence}")
        if found.rental is not None:
            rent = found.rental
            options.append(
                f"renting all: {rent.gpus:,} {found.system} finish in "
                f"{fmt.duration(rent.time_to_result_hours)} for {fmt.money(rent.cost_usd)}"
            )
        sentence = (
            f"the {owned:,} {found.system} you own are too few for the {deadline:g}-day deadline; "
            + "; ".join(options)
        )
        found_all.append(OwnedShortfall(found.system, owned, sentence, mixed))
    return found_all
