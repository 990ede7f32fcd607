"""`estimate()`: time, cost and energy of one workload on one system. Pure: no I/O."""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from advisor.core import fmt
from advisor.core.costing.cost import (
    HourlyCost,
    ownership_cost_per_gpu_hour,
    rental_cost_per_gpu_hour,
    run_cost_usd,
)
from advisor.core.costing.energy import (
    PowerDraw,
    co2_tonnes,
    household_years,
    joules_per_token,
    power_draw,
    run_energy_kwh,
    run_energy_kwh_by_part,
)
from advisor.core.costing.owned import Fleet, blended_cost_per_gpu_hour, fleet, owned_cost_per_gpu_hour
from advisor.core.costing.purchase import purchase
from advisor.core.costing.rental import (
    billed_rental_hours,
    needs_reservation,
    owned_rental_usd_per_gpu_hour,
    rental_choice,
    reservation_warnings,
)
from advisor.core.costing.results import (
    Estimate,
    GoodputDetail,
    ModelSummary,
    PriceOffer,
    Purchase,
    fit_message,
)
from advisor.core.costing.throughput import SpeedInputs, Throughput, run_precision, training_throughput
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import Catalog, Precision, System
from advisor.core.model.copying import from_attributes
from advisor.core.model.goodput import Goodput
from advisor.core.model.units import HOURS_PER_DAY, SECONDS_PER_HOUR
from advisor.core.model.workload import SERVING_PERIOD_HOURS, Workload

_NO_ASSUMPTIONS = Assumptions()


def _bought_cost(system: System, catalog: Catalog, assumptions: Assumptions) -> HourlyCost:
    """The owner's TCO of a GPU-hour of `system` bought new."""
    econ = catalog.economics
    return ownership_cost_per_gpu_hour(
        capex_usd_per_gpu=_capex_per_unit(system, assumptions) / system.interconnect.gpus_per_node,
        depreciation_years=econ.finance.depreciation_years,
        cost_of_capital=econ.finance.cost_of_capital,
        maintenance_fraction_per_year=econ.maintenance.fraction_of_capex_per_year,
        utilization=econ.utilization.owned_fleet_fraction,
        it_kw_per_gpu=system.power.it_w_per_gpu / 1000.0,
        pue=assumptions.pue or econ.facility.pue,
        electricity_usd_per_kwh=assumptions.electricity_usd_per_kwh or econ.electricity.usd_per_kwh,
        colocation_usd_per_kw_month=econ.colocation.usd_per_kw_month,
    )


def _capex_per_unit(system: System, assumptions: Assumptions) -> float:
    """The all-in price of one node or rack: the user's, else the catalog's."""
    return assumptions.for_system("capex_usd_per_node", system.id) or system.capex.all_in_usd_per_node


class _Owning(NamedTuple):
    """Owning: the GPUs owned and bought, a GPU-hour of each, and one over the whole fleet."""

    gpus: Fleet
    bought: HourlyCost
    owned: HourlyCost
    blended: HourlyCost


def _owning(workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions) -> _Owning:
    """The cluster on the GPUs already owned (`owned_gpus`) and whole nodes or racks bought for the rest."""
    bought = _bought_cost(system, catalog, assumptions)
    gpus = fleet(workload.gpus, assumptions.owned_gpus.get(system.id, 0), system.interconnect.gpus_per_node)
    if not gpus.gpus_owned:
        return _Owning(gpus, bought, bought, bought)
    owned = owned_cost_per_gpu_hour(
        bought,
        owned_rental_usd_per_gpu_hour(system, assumptions),
        catalog.economics.opportunity.rental_price_fraction,
    )
    return _Owning(gpus, bought, owned, blended_cost_per_gpu_hour(owned, bought, gpus))


def hourly_cost(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    offer: PriceOffer | None = None,
) -> HourlyCost:
    """What one GPU-hour costs under the workload's pricing mode (owned and bought GPUs blended); a
    rental pays `offer`, else the offer `rental_choice` picks for the hours known before the speed
    (`offer_hours`)."""
    if workload.pricing == "rent":
        offer = offer or rental_choice(system, workload.gpus, assumptions, offer_hours(workload, None))
        return rental_cost_per_gpu_hour(offer.price_usd_per_gpu_hour)
    return _owning(workload, system, catalog, assumptions).blended


def offer_hours(workload: Workload, billed_hours: float | None) -> float | None:
    """The hours a rental's offer is chosen for (`rental_choice`): a training run's billed hours; a serving
    fleet at a target rate runs its month around the clock (`SERVING_PERIOD_HOURS`), known before its
    speed; a batch serving job's hours follow from its speed, so its size alone decides (None)."""
    if workload.kind != "inference":
        return billed_hours
    return SERVING_PERIOD_HOURS if workload.serving_rate is not None else None


def capacity_wait_hours(workload: Workload, system: System, assumptions: Assumptions) -> float:
    """Hours before the capacity exists: the on-demand wait when renting a cluster that size can be had on
    demand, a reservation's lead time beyond it, the purchase lead time when buying (or the days until
    the hardware is running, `hardware_in_days`, 0 when it is on hand); none on GPUs already owned."""
    override = assumptions.for_system("wait_hours", system.id)
    if override is not None:
        return override
    availability = system.availability
    if workload.pricing == "own":
        if workload.gpus <= assumptions.owned_gpus.get(system.id, 0):
            return 0.0
        on_hand = assumptions.hardware_in_days
        return (availability.purchase_lead_days if on_hand is None else on_hand) * HOURS_PER_DAY
    if needs_reservation(workload, system):
        return availability.reserved_lead_days * HOURS_PER_DAY
    return availability.on_demand_wait_hours


def _capacity_gpus(workload: Workload, system: System, assumptions: Assumptions) -> int:
    """The most GPUs to be had: the catalog's capacity for the pricing, plus those owned when owning."""
    owned = assumptions.owned_gpus.get(system.id, 0) if workload.pricing == "own" else 0
    return system.availability.capacity_gpus(workload.pricing) + owned


def production_overhead(workload: Workload, catalog: Catalog) -> float:
    """Extra hours of a production run per hour of reference compute (0 for reference runs and serving).

    A team's end-to-end run loses time that benchmarks leave out (evaluations, checkpoints, data stalls,
    batch ramp-up, stragglers); the factor is fitted on published runs (`catalog/mfu/scaling.toml`).
    """
    if workload.efficiency == "reference" or workload.kind == "inference":
        return 0.0
    return 1.0 / catalog.mfu_scaling.production.factor_for(workload.model.params_total) - 1.0


def _speed(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    warnings: list[str],
    compared: bool = True,
) -> Throughput:
    """Throughput at the precision that runs (serving or training model); warns if it does not fit."""
    peak_tflops = system.compute.peak_tflops(precision)
    assert peak_tflops is not None  # run_precision falls back to BF16, which every system has
    stage = SpeedInputs(workload, system, catalog, assumptions, precision, peak_tflops, warnings, compared)
    if workload.kind == "inference":
        from advisor.core.costing.serving import serving_throughput  # a training run never loads it

        speed = serving_throughput(stage, hourly_cost(workload, system, catalog, assumptions).total)
    else:
        speed = training_throughput(stage)
    if not speed.memory.fits:
        warnings.append(fit_message(speed.memory, workload.gpus, system.id, workload.kind))
    return speed


class _Hours(NamedTuple):
    """The run's hours: waiting for capacity, setting up, computing, and computing again after failures."""

    wait: float
    setup: float
    compute: float
    overhead: float
    """What a production run adds to the reference compute (0 at reference efficiency)."""
    downtime: float
    """Lost to failures and restarts: (compute + overhead) x (1 / goodput - 1)."""
    billed: float
    """Hours paid for: setup, compute, overhead and downtime."""

    def breakdown(self) -> dict[str, float]:
        """The `time_breakdown_hours` object: every part of the time (not `billed`, a sum of them)."""
        return {part: hours for part, hours in self._asdict().items() if part != "billed"}


def _hours(
    workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions, speed: Throughput
) -> _Hours:
    """Hours to process the workload's tokens at `speed`, plus setup and the wait for capacity."""
    compute_hours = workload.tokens / (speed.tokens_per_s_per_gpu * speed.working_gpus) / SECONDS_PER_HOUR
    overhead_hours = compute_hours * production_overhead(workload, catalog)
    downtime_hours = (compute_hours + overhead_hours) * (1.0 / speed.goodput.fraction - 1.0)
    # A serving fleet's setup is a one-off over its life: its month at a target rate is a steady month.
    setup_hours = 0.0 if workload.serving_rate is not None else system.setup.setup_minutes / 60.0
    return _Hours(
        wait=capacity_wait_hours(workload, system, assumptions),
        setup=setup_hours,
        compute=compute_hours,
        overhead=overhead_hours,
        downtime=downtime_hours,
        billed=setup_hours + compute_hours + overhead_hours + downtime_hours,
    )


def _purchase_warnings(workload: Workload, system: System, money: _Money) -> list[str]:
    """GPUs already owned and those bought beside them, idle GPUs paid for in whole nodes, or a rented
    GPU count that splits a node (priced per GPU; what whole nodes would cost)."""
    bought = money.purchase
    unit = system.interconnect.gpus_per_node
    node = system.interconnect.node_name
    owned = bought.gpus_owned if bought else 0
    warnings = []
    if bought and owned and bought.gpus_bought:
        warnings.append(
            f"{owned:,} of the {workload.gpus:,} {system.id} GPUs are already owned: the other "
            f"{workload.gpus - owned:,} are bought, and the run waits for their delivery"
        )
    if bought and bought.gpus_idle:
        warnings.append(
            f"{workload.gpus - owned:,} GPUs means buying {bought.units:,} whole {unit}-GPU {node}(s): "
            f"the {bought.gpus_idle:,} idle GPUs are paid for"
        )
    elif not owned and workload.gpus > unit and workload.gpus % unit:
        whole = -(-workload.gpus // unit) * unit
        warnings.append(
            f"{workload.gpus:,} GPUs is not a whole number of {unit}-GPU {node}s: priced per GPU, as where "
            f"GPUs are rented singly; where only whole {node}s are, {whole:,} GPUs cost "
            f"{fmt.money(money.cost_usd * whole / workload.gpus)} ({whole / workload.gpus:.2f}x)"
        )
    return warnings


def _goodput_detail(goodput: Goodput, kind: str, set_goodput: float | None) -> GoodputDetail:
    """How goodput was found; a goodput set counts as overridden for training (serving runs at 1)."""
    return GoodputDetail(
        interruptions_per_day=goodput.interruptions_per_day,
        checkpoint_interval_minutes=goodput.checkpoint_interval_minutes
        if goodput.interruptions_per_day
        else None,
        overridden=kind != "inference" and set_goodput is not None,
    )


class _Money(NamedTuple):
    """What the run costs: the GPUs paid for, one GPU-hour's typed parts, and dollars by part."""

    gpus_paid: int
    hourly: HourlyCost
    cost_breakdown_usd: dict[str, float]
    purchase: Purchase | None
    """When buying: the nodes or racks bought, the outlay and the monthly cost (the run pays its share)."""
    offer: PriceOffer | None
    """When renting: the offer paid and why."""

    @property
    def cost_usd(self) -> float:
        """The run's cost, all parts."""
        return sum(self.cost_breakdown_usd.values())

    def effective_usd_per_gpu_hour(self, billed_hours: float, gpus_running: int) -> float:
        """The run's cost per running GPU-hour: idle GPUs of a partial node or rack included."""
        return self.cost_usd / (billed_hours * gpus_running)


def _money(
    workload: Workload, system: System, catalog: Catalog, assumptions: Assumptions, hours: _Hours
) -> _Money:
    """The run's cost: each part of a GPU-hour over the billed hours, on the GPUs that pay it."""
    if workload.pricing == "rent":
        offer = rental_choice(system, workload.gpus, assumptions, offer_hours(workload, hours.billed))
        hourly = hourly_cost(workload, system, catalog, assumptions, offer)
        paid_hours = billed_rental_hours(offer, hours.billed)
        cost = run_cost_usd(hourly.parts, paid_hours, workload.gpus, workload.gpus)
        return _Money(workload.gpus, hourly, cost, None, offer)
    owning = _owning(workload, system, catalog, assumptions)
    gpus = owning.gpus
    bought = purchase(
        gpus,
        system,
        _capex_per_unit(system, assumptions),
        (owning.bought, owning.owned),
        catalog.economics,
        hours.billed,
    )
    cost = run_cost_usd(owning.blended.parts, hours.billed, workload.gpus, gpus.gpus_paid)
    return _Money(gpus.gpus_paid, owning.blended, cost, bought, None)


def estimate(
    workload: Workload,
    system_id: str,
    catalog: Catalog,
    assumptions: Assumptions | None = None,
    *,
    compared: bool = True,
) -> Estimate:
    """Time, cost and energy of `workload` on `system_id`: the cost model end to end. `compared`: one of
    several systems' estimates, whose MFU basis says when the others' figures are of a newer release."""
    assumptions = assumptions or _NO_ASSUMPTIONS
    system = catalog.system(system_id)
    precision, warnings = run_precision(workload, system)
    if workload.kind == "inference":
        from advisor.core.costing.serving import sized_for_rate  # a training run never loads it

        workload = sized_for_rate(workload, system, catalog, precision)
    speed = _speed(workload, system, catalog, assumptions, precision, warnings, compared)
    if speed.serving is not None:  # the precision the products run at (BF16 for FP4 weights on Hopper)
        precision = cast(Precision, speed.serving.activation_precision)
    hours = _hours(workload, system, catalog, assumptions, speed)
    money = _money(workload, system, catalog, assumptions, hours)
    warnings.extend(_purchase_warnings(workload, system, money))
    warnings.extend(reservation_warnings(workload, system, assumptions, money.offer, hours.billed))
    return _result(workload, system, catalog, assumptions, precision, speed, hours, money, warnings)


def _result(
    workload: Workload,
    system: System,
    catalog: Catalog,
    assumptions: Assumptions,
    precision: Precision,
    speed: Throughput,
    hours: _Hours,
    money: _Money,
    warnings: list[str],
) -> Estimate:
    """The `Estimate`: the stages' figures, with energy and its equivalents from the power parts."""
    power, billed = power_draw(system.power, assumptions.pue or catalog.economics.facility.pue), hours.billed
    return Estimate(
        system=system.id,
        system_name=system.name,
        gpus=workload.gpus,
        precision=precision,
        precision_requested=workload.precision,
        pricing=workload.pricing,
        kind=workload.kind,
        software=workload.software,
        efficiency="reference" if workload.kind == "inference" else workload.efficiency,
        model=from_attributes(ModelSummary, workload.model),
        tokens=workload.tokens,
        flops_per_token=speed.flops_per_token,
        total_flops=speed.flops_per_token * workload.tokens,
        mfu=speed.mfu,
        mfu_basis=speed.mfu_basis,
        mfu_effective=speed.mfu * hours.compute / (hours.compute + hours.overhead)
        if hours.compute
        else speed.mfu,
        tokens_per_second_per_gpu=speed.tokens_per_s_per_gpu,
        goodput=speed.goodput.fraction,
        goodput_detail=_goodput_detail(speed.goodput, workload.kind, assumptions.goodput_for(system.id)),
        time_to_train_hours=billed,
        time_to_result_hours=hours.wait + billed,
        time_breakdown_hours=hours.breakdown(),
        gpu_hours=billed * workload.gpus,
        gpus_paid=money.gpus_paid,
        purchase_usd=money.purchase.capex_usd if money.purchase else None,
        purchase=money.purchase,
        capacity_gpus=_capacity_gpus(workload, system, assumptions),
        price_usd_per_gpu_hour=money.hourly.total,
        effective_price_usd_per_gpu_hour=money.effective_usd_per_gpu_hour(hours.billed, workload.gpus),
        price_offer=money.offer,
        price_breakdown_usd_per_gpu_hour=money.hourly.usd_per_gpu_hour(),
        cost_usd=money.cost_usd,
        cost_per_million_tokens_usd=money.cost_usd / workload.tokens * 1e6,
        cost_breakdown_usd=money.cost_breakdown_usd,
        power_w_per_gpu_all_in=power.all_in_w,
        power_breakdown_w=power.w_per_gpu(),
        **_energy(power, billed, workload, catalog),
        memory=speed.memory,
        warnings=tuple(dict.fromkeys(warnings)),
        cost_parts=money.hourly.parts,
        power_draw=power,
        serving=speed.serving
        and speed.serving.month_paid(money.hourly.parts, workload.gpus, money.gpus_paid),
    )


def _energy(power: PowerDraw, billed_hours: float, workload: Workload, catalog: Catalog) -> dict[str, Any]:
    """The run's energy, by part, per token, and in household-years and tonnes of CO2."""
    kwh = run_energy_kwh(power, billed_hours, workload.gpus)
    return {
        "energy_kwh": kwh,
        "energy_breakdown_kwh": run_energy_kwh_by_part(power, billed_hours, workload.gpus),
        "joules_per_token": joules_per_token(kwh, workload.tokens),
        "household_years": household_years(kwh, catalog.economics.household.kwh_per_year),
        "co2_tonnes": co2_tonnes(kwh, catalog.economics.carbon.grid_gco2_per_kwh),
    }
