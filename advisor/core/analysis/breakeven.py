"""Break-even points: the value of one input at which the runner-up overtakes the winner.

Each threshold is found by bisection on `advise()` itself (restricted to the two systems), so rules
and constraints count exactly as in the recommendation. Fed back as an input just beyond the
threshold, the winner changes (a property test checks this). One input moves at a time: a catalog price
is moved in the catalog, so it stays what it was (a published quote or an assumption, with its date)
and the rules about where a price came from judge it as before. The runner-up's price in a close call
on cost is the one `advise` states (`Recommendation.price_to_win`), not found again here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from advisor.core import fmt
from advisor.core.analysis.speed_price import pays_idle_term
from advisor.core.costing.results import Estimate
from advisor.core.decision.advise import advise
from advisor.core.decision.recommendation import Recommendation
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import System


@dataclass(frozen=True)
class BreakEven:
    """The value of one input at which `challenger` overtakes `winner` (None: no flip in range)."""

    input: str
    system: str
    current: float
    threshold: float | None
    sentence: str


def _bisect(
    wins: Callable[[float], bool], current: float, direction: float, lower: float, upper: float
) -> float | None:
    """The value between `current` and the bound in `direction` where `wins` turns False."""
    inside, value = current, current
    for _ in range(14):
        value = min(max(value * (2.0 if direction > 0 else 0.5), lower), upper)
        if not wins(value):
            break
        inside = value
        if value in (lower, upper):
            return None
    else:
        return None
    outside = value
    for _ in range(30):
        mid = (inside * outside) ** 0.5
        if wins(mid):
            inside = mid
        else:
            outside = mid
        if abs(outside - inside) <= 1e-4 * abs(inside):
            break
    return outside


@dataclass(frozen=True)
class _Probe:
    """One input to move: whose, from where, which way, within what bounds, and how to say the result."""

    input: str
    system: str
    current: float
    direction: float
    bounds: tuple[float, float]
    move: Callable[[AdviceRequest, float], AdviceRequest]
    """The request with this input at a value."""
    say: Callable[[float], str]
    report_none: bool = True
    known: float | None = None
    """The threshold when `advise` already found it (the close call's price to win): not bisected."""


def _electricity_sentence(runner: str, side: str, now: float, threshold: float) -> str:
    return f"{runner} wins if electricity costs {side} ${threshold:.3f}/kWh (now ${now:.3f})"


def _wins_at(
    still_wins: Callable[[AdviceRequest], bool], pair: AdviceRequest, probe: _Probe, value: float
) -> bool:
    return still_wins(probe.move(pair, value))


def _per_system(assumptions: Assumptions, name: str, system: str, value: float) -> dict[str, Any]:
    """An `Assumptions` update that sets `name` for `system` only, keeping any other systems' values."""
    current = getattr(assumptions, name)
    mapping = dict(current) if isinstance(current, dict) else {}
    if isinstance(current, float):  # a single goodput for every system
        mapping = {"*": current}
    return {name: {**mapping, system: value}}


def _setter(field: str, system: str) -> Callable[[AdviceRequest, float], AdviceRequest]:
    """Moves the user's value of `field` for `system` (an assumption the user may set)."""

    def move(request: AdviceRequest, value: float) -> AdviceRequest:
        update = _per_system(request.assumptions, field, system, value)
        return replace(request, assumptions=request.assumptions.model_copy(update=update))

    return move


def repriced(system: System, rent: bool, current: float, value: float) -> System:
    """`system` with its catalog price at `value`: renting, every offer scaled alike (the same offer is
    chosen, on the same term); owning, the capex. Source, date and `assumption` stay as they are."""
    if not rent:
        return system.model_copy(
            update={"capex": system.capex.model_copy(update={"all_in_usd_per_node": value})}
        )
    scale = value / current

    def scaled(price: float | None) -> float | None:
        return price * scale if price is not None else None

    offers = tuple(
        offer.model_copy(
            update={
                "price_usd_per_gpu_hour": offer.price_usd_per_gpu_hour * scale,
                "low_usd_per_gpu_hour": scaled(offer.low_usd_per_gpu_hour),
                "high_usd_per_gpu_hour": scaled(offer.high_usd_per_gpu_hour),
            }
        )
        for offer in system.rental
    )
    return system.model_copy(update={"rental": offers})


def _catalog_price(
    system: str, rent: bool, current: float
) -> Callable[[AdviceRequest, float], AdviceRequest]:
    """Moves `system`'s catalog price (rental offers or capex) from `current`, keeping its provenance."""

    def move(request: AdviceRequest, value: float) -> AdviceRequest:
        catalog = request.catalog
        systems = {**catalog.systems, system: repriced(catalog.system(system), rent, current, value)}
        priced = catalog.rebuilt(systems=systems)
        # Prices feed no derived index (the MFU index reads compute peaks and calibration points only):
        # keep the built ones rather than rebuild them at every step of the bisection.
        priced.derived.update(catalog.derived)
        return replace(request, catalog=priced)

    return move


def _price_probes(
    rec: Recommendation, request: AdviceRequest, winner: Estimate, runner: Estimate
) -> list[_Probe]:
    """The winner's price (rent) or capex (own) rising, and the runner-up's falling."""
    catalog, assumptions = request.catalog, request.assumptions
    rent = request.workload.pricing == "rent"
    key = "price_usd_per_gpu_hour" if rent else "capex_usd_per_node"
    verb = "rents" if rent else "costs"

    def price_of(est: Estimate) -> float:
        set_value = assumptions.for_system(key, est.system)
        if set_value is not None:
            return set_value
        return est.price_usd_per_gpu_hour if rent else catalog.system(est.system).capex.all_in_usd_per_node

    def mover(est: Estimate) -> Callable[[AdviceRequest, float], AdviceRequest]:
        if assumptions.for_system(key, est.system) is not None:
            return _setter(key, est.system)
        return _catalog_price(est.system, rent, price_of(est))

    def show(value: float, system: str) -> str:
        if rent:
            return f"${value:.2f}/GPU-hour"
        return f"{fmt.money(value)} per {catalog.system(system).interconnect.node_name}"

    w, r = winner.system, runner.system
    w_price, r_price = price_of(winner), price_of(runner)
    name = "price" if rent else "capex"
    stated = rec.price_to_win
    known = stated.threshold_usd_per_gpu_hour if rent and stated is not None and stated.system == r else None
    return [
        _Probe(
            name,
            w,
            w_price,
            +1,
            (1e-6, 1e9),
            mover(winner),
            lambda t: (
                f"{r} becomes the better choice if {w} {verb} above {show(t, w)} (now {show(w_price, w)})"
            ),
        ),
        _Probe(
            name,
            r,
            r_price,
            -1,
            (1e-6, 1e9),
            mover(runner),
            lambda t: f"{r} wins if it {verb} below {show(t, r)} (now {show(r_price, r)})",
            known=known,
        ),
    ]


def _speed_probes(winner: Estimate, runner: Estimate) -> list[_Probe]:
    """Training only: the winner's goodput and MFU falling, and the runner-up's MFU rising."""
    w, r = winner.system, runner.system
    mfu = "reference MFU" if winner.mfu_effective < winner.mfu else "MFU"  # the input, before the overhead
    return [
        _Probe(
            "goodput",
            w,
            winner.goodput,
            -1,
            (0.01, 1.0),
            _setter("goodput", w),
            lambda t: (
                f"{w} stops being the better choice below {fmt.percent(t)} goodput "
                f"(now {fmt.percent(winner.goodput)})"
            ),
        ),
        _Probe(
            "mfu",
            w,
            winner.mfu,
            -1,
            (0.005, 1.0),
            _setter("mfu", w),
            lambda t: (
                f"{w} stops being the better choice below {fmt.percent(t)} {mfu} "
                f"(now {fmt.percent(winner.mfu)})"
            ),
        ),
        _Probe(
            "mfu",
            r,
            runner.mfu,
            +1,
            (0.005, 1.0),
            _setter("mfu", r),
            lambda t: f"{r} wins above {fmt.percent(t)} {mfu} (now {fmt.percent(runner.mfu)})",
        ),
    ]


def _electricity_probes(request: AdviceRequest, runner: str) -> list[_Probe]:
    """Owning, on cost: electricity for every system rising and falling (reported only if it flips)."""
    elec = request.assumptions.electricity_usd_per_kwh or request.catalog.economics.electricity.usd_per_kwh
    return [
        _Probe(
            "electricity",
            "all",
            elec,
            direction,
            (1e-4, 10.0),
            _electricity_at,
            partial(_electricity_sentence, runner, side, elec),
            report_none=False,
        )
        for direction, side in ((+1, "above"), (-1, "below"))
    ]


def _electricity_at(request: AdviceRequest, value: float) -> AdviceRequest:
    return replace(
        request, assumptions=request.assumptions.model_copy(update={"electricity_usd_per_kwh": value})
    )


def _life_sentence(runner: str, side: str, now: float, span: str, threshold: float) -> str:
    return (
        f"{runner} becomes the better choice if the depreciation life is {side} {threshold:.1f} years "
        f"(now {now:g} years{span})"
    )


def _rate_sentence(runner: str, side: str, now: float, span: str, threshold: float) -> str:
    return (
        f"{runner} becomes the better choice if the cost of capital is {side} {fmt.percent(threshold)} "
        f"a year (now {fmt.percent(now)}{span})"
    )


def _span(low: float | None, high: float | None, text: Callable[[float], str], unit: str = "") -> str:
    """`; the catalog's range 4–6 years`, so a threshold far outside it reads as one (empty without)."""
    if low is None or high is None:
        return ""
    return f"; the catalog's range {text(low)}–{text(high)}{unit}"


def _finance_at(field: str, request: AdviceRequest, value: float) -> AdviceRequest:
    """`request` with the catalog's `[finance]` `field` at `value` (its range and source kept)."""
    econ = request.catalog.economics
    finance = econ.finance.model_copy(update={field: value})
    catalog = request.catalog.rebuilt(economics=econ.model_copy(update={"finance": finance}))
    catalog.derived.update(request.catalog.derived)  # no derived index reads the economics
    return replace(request, catalog=catalog)


def _finance_probes(request: AdviceRequest, runner: str) -> list[_Probe]:
    """Owning, on cost: the depreciation life and the cost of capital of every system bought, each
    rising and falling (reported only if it flips): a shorter life or dearer money weighs on the system
    with more capital per unit of work."""
    finance = request.catalog.economics.finance
    life, rate = finance.depreciation_years, finance.cost_of_capital
    life_span = _span(
        finance.depreciation_years_low, finance.depreciation_years_high, "{:g}".format, " years"
    )
    rate_span = _span(finance.cost_of_capital_low, finance.cost_of_capital_high, fmt.percent)
    probes = []
    for direction, side in ((+1, "above"), (-1, "below")):
        probes.append(
            _Probe(
                "depreciation",
                "all",
                life,
                direction,
                (0.5, 20.0),
                partial(_finance_at, "depreciation_years"),
                partial(_life_sentence, runner, side, life, life_span),
                report_none=False,
            )
        )
        probes.append(
            _Probe(
                "cost_of_capital",
                "all",
                rate,
                direction,
                (1e-4, 0.99),
                partial(_finance_at, "cost_of_capital"),
                partial(_rate_sentence, runner, side, rate, rate_span),
                report_none=False,
            )
        )
    return probes


def _probes(rec: Recommendation, request: AdviceRequest, winner: str, runner: str) -> list[_Probe]:
    """Every input to move for this pair: price or capex, then MFU and goodput, then electricity, the
    depreciation life and the cost of capital."""
    w_est, r_est = rec.candidate(winner).estimate, rec.candidate(runner).estimate
    assert w_est is not None and r_est is not None
    probes = _price_probes(rec, request, w_est, r_est)
    if request.workload.kind != "inference":
        probes += _speed_probes(w_est, r_est)
    if request.workload.pricing != "rent" and rec.objective in ("cost", "balanced"):
        probes += _electricity_probes(request, runner)
        if (w_est.purchase and w_est.purchase.gpus_bought) or (r_est.purchase and r_est.purchase.gpus_bought):
            probes += _finance_probes(request, runner)
    return probes


def _no_flip(rec: Recommendation, probe: _Probe) -> str:
    """'no MFU of mi300x within range flips the answer', with why when a faster run costs no less."""
    said = f"no {fmt.input_label(probe.input)} of {probe.system} within range flips the answer"
    est = rec.candidate(probe.system).estimate if probe.system != "all" else None
    if probe.input in ("mfu", "goodput") and probe.direction > 0 and est is not None and pays_idle_term(est):
        said += f": {probe.system} pays its reservation's whole term however fast it runs"
    return said


def break_evens(rec: Recommendation, request: AdviceRequest) -> tuple[str | None, list[BreakEven]]:
    """Thresholds at which the runner-up overtakes the winner, one input at a time (same sizing as `rec`)."""
    ranked = [c for c in rec.candidates if c.feasible]
    if rec.winner is None or len(ranked) < 2:
        return None, []
    winner, runner = ranked[0].system, ranked[1].system
    pair = replace(request, systems=(winner, runner))

    def still_wins(varied: AdviceRequest) -> bool:
        return advise(varied).winner == winner

    found = []
    for probe in _probes(rec, request, winner, runner):
        threshold = probe.known
        if threshold is None:
            threshold = _bisect(
                partial(_wins_at, still_wins, pair, probe), probe.current, probe.direction, *probe.bounds
            )
        if threshold is None and not probe.report_none:
            continue
        sentence = probe.say(threshold) if threshold is not None else _no_flip(rec, probe)
        found.append(BreakEven(probe.input, probe.system, probe.current, threshold, sentence))
    return runner, found
