"""Break-even points: the value of one input at which the runner-up overtakes the winner.

Each threshold is found by bisection on `advise()` itself (restricted to the two systems), so rules
and constraints count exactly as in the recommendation. Fed back as an input just beyond the
threshold, the winner changes (a property test checks this).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import Any

from advisor.core import fmt
from advisor.core.advise import advise
from advisor.core.catalog import Catalog
from advisor.core.recommendation import Recommendation
from advisor.core.rules import Rule
from advisor.core.workload import Assumptions, Workload


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


def _electricity_sentence(runner: str, side: str, now: float, threshold: float) -> str:
    return f"{runner} wins if electricity costs {side} ${threshold:.3f}/kWh (now ${now:.3f})"


def break_evens(
    rec: Recommendation,
    workload: Workload,
    catalog: Catalog,
    rules: Sequence[Rule],
    *,
    assumptions: Assumptions,
    today: date | None,
) -> tuple[str | None, list[BreakEven]]:
    """Thresholds at which the runner-up overtakes the winner, one input at a time."""
    ranked = [c for c in rec.candidates if c.feasible]
    if rec.winner is None or len(ranked) < 2:
        return None, []
    winner, runner = ranked[0].system, ranked[1].system
    w_est, r_est = ranked[0].estimate, ranked[1].estimate
    assert w_est is not None and r_est is not None

    def still_wins(update: dict[str, Any]) -> bool:
        trial = assumptions.model_copy(update=update)
        result = advise(
            workload,
            catalog,
            rules,
            constraints=rec.constraints,
            objective=rec.objective,
            assumptions=trial,
            systems=[winner, runner],
            today=today,
        )
        return result.winner == winner

    def per_system(name: str, system: str, value: float) -> dict[str, Any]:
        current = getattr(assumptions, name)
        mapping = dict(current) if isinstance(current, dict) else {}
        if name == "goodput" and isinstance(current, float):
            mapping = {"*": current}
        return {name: {**mapping, system: value}}

    found: list[BreakEven] = []

    def probe(
        input_name: str,
        system: str,
        current: float,
        direction: float,
        lower: float,
        upper: float,
        update: Callable[[float], dict[str, Any]],
        say: Callable[[float], str],
        report_none: bool = True,
    ) -> None:
        threshold = _bisect(lambda v: still_wins(update(v)), current, direction, lower, upper)
        if threshold is None and not report_none:
            return
        sentence = (
            say(threshold)
            if threshold is not None
            else (f"no {input_name} of {system} within range flips the answer")
        )
        found.append(BreakEven(input_name, system, current, threshold, sentence))

    rent = workload.pricing == "rent"
    price_key = "price_usd_per_gpu_hour" if rent else "capex_usd_per_node"
    w_price = w_est.price_usd_per_gpu_hour if rent else catalog.system(winner).capex.all_in_usd_per_node
    r_price = r_est.price_usd_per_gpu_hour if rent else catalog.system(runner).capex.all_in_usd_per_node
    if assumptions.for_system(price_key, winner) is not None:
        w_price = assumptions.for_system(price_key, winner) or w_price
    if assumptions.for_system(price_key, runner) is not None:
        r_price = assumptions.for_system(price_key, runner) or r_price
    noun = "rents" if rent else "costs"

    def unit_of(system: str) -> str:
        return "/GPU-hour" if rent else f" per {catalog.system(system).interconnect.node_name}"

    def money(v: float) -> str:
        return f"${v:.2f}" if rent else fmt.money(v)

    probe(
        "price" if rent else "capex",
        winner,
        w_price,
        +1,
        1e-6,
        1e9,
        lambda v: per_system(price_key, winner, v),
        lambda t: (
            f"{runner} becomes the better choice if {winner} {noun} above {money(t)}{unit_of(winner)} "
            f"(now {money(w_price)})"
        ),
    )
    probe(
        "price" if rent else "capex",
        runner,
        r_price,
        -1,
        1e-6,
        1e9,
        lambda v: per_system(price_key, runner, v),
        lambda t: f"{runner} wins if it {noun} below {money(t)}{unit_of(runner)} (now {money(r_price)})",
    )
    if workload.kind != "inference":
        probe(
            "goodput",
            winner,
            w_est.goodput,
            -1,
            0.01,
            1.0,
            lambda v: per_system("goodput", winner, v),
            lambda t: (
                f"{winner} stops being the better choice below {fmt.percent(t)} goodput "
                f"(now {fmt.percent(w_est.goodput)})"
            ),
        )
        probe(
            "mfu",
            winner,
            w_est.mfu,
            -1,
            0.005,
            1.0,
            lambda v: per_system("mfu", winner, v),
            lambda t: (
                f"{winner} stops being the better choice below {fmt.percent(t)} MFU "
                f"(now {fmt.percent(w_est.mfu)})"
            ),
        )
        probe(
            "mfu",
            runner,
            r_est.mfu,
            +1,
            0.005,
            1.0,
            lambda v: per_system("mfu", runner, v),
            lambda t: f"{runner} wins above {fmt.percent(t)} MFU (now {fmt.percent(r_est.mfu)})",
        )
    if not rent and rec.objective in ("cost", "balanced"):
        elec = assumptions.electricity_usd_per_kwh or catalog.economics.electricity.usd_per_kwh
        for direction in (+1, -1):
            probe(
                "electricity",
                "all",
                elec,
                direction,
                1e-4,
                10.0,
                lambda v: {"electricity_usd_per_kwh": v},
                partial(_electricity_sentence, runner, "above" if direction > 0 else "below", elec),
                report_none=False,
            )
    return runner, found
