"""The app's headline, line by line: the recommended run and its figures (composed once, with the
core's `Recommendation.headline`, by `headline_figures`), its range, why it won and its top reasons."""

from __future__ import annotations

from rich.text import Text

from advisor.core.analysis.sensitivity import Sensitivity, settled
from advisor.core.decision.headline import HeadlineFigures, ServingFigures, headline_figures, replica_layout
from advisor.core.decision.recommendation import Candidate, Reason, Recommendation
from advisor.core.scenario import Scenario
from advisor.present import numbers
from advisor.present.reasons import reason_text
from advisor.present.styles import (
    EMPHASIS,
    FAILED,
    PASSED,
    PENDING,
    REASON_ORDER,
    STALE_STYLE,
    WARNING,
)

TOP_REASONS = 1
"""How many of the winner's reasons the headline shows."""
COMPUTING_RANGES = Text("ranges: computing…", style=PENDING)


def stale_line(status: str) -> Text:
    """` STALE  why` over a result that no longer matches the answers."""
    return Text.assemble((" STALE ", STALE_STYLE), " ", status)


def run_label(f: HeadlineFigures, fleet: str) -> Text:
    """`Rent 8× h100` standing out, then what buying it costs up front, if anything: `(512 already owned,
    $16M up front)`."""
    return Text.assemble((f"{f.verb} {fleet}", "bold reverse"), f" ({f.outlay})" if f.outlay else "")


def figures(*parts: tuple[str, str]) -> Text:
    """The headline's figures, each emphasised and followed by its words, between ` · `: `$12.3k · 54.2¢/1M
    tokens` from `("$12.3k", "")` and `("54.2¢", "/1M tokens")` (a part without a figure is words only)."""
    return Text(" · ").join(Text.assemble((figure, EMPHASIS), words) for figure, words in parts)


def figure_lines(winner: Candidate, scenario: Scenario) -> list[Text]:
    """`Rent 8× h100  5.2 days to train · $12.3k · 54.2¢/1M tokens`, then energy and time to result."""
    est = winner.estimate
    assert est is not None
    f = headline_figures(est, scenario.workload.pricing)
    if f.serving is not None:
        return serving_lines(f, f.serving)
    return [
        Text.assemble(
            run_label(f, f"{f.gpus:,}× {winner.system}"),
            " ",
            figures((f.train, f" {f.to_do}"), (f.cost, ""), (f.per_million_tokens, "/1M tokens")),
        ),
        figures(
            (f.energy, f" = {numbers.significant(est.household_years)} household-years"),
            ("", f"{numbers.duration(est.time_to_result_hours)} to result incl. wait"),
        ),
    ]


def serving_lines(f: HeadlineFigures, s: ServingFigures) -> list[Text]:
    """`Rent 30× mi325x (15 replicas of 2 GPUs) to serve 50k tokens/s · $42.7k/month · 32.5¢/1M output
    tokens`, then the time per output token against its limit and a month's energy (the core's headline,
    styled and shorter)."""
    starts = [("", f"starts in {s.starts}")] if s.starts else []
    layout = replica_layout(s.replicas, s.replica_gpus)
    return [
        Text.assemble(
            run_label(f, f"{f.gpus:,}× {f.system}"),
            f" ({layout})" if layout else "",
            f" to serve {s.rate} · ",
            figures((s.per_month, "/month"), (s.per_million_output_tokens, "/1M output tokens")),
        ),
        figures((s.tpot, f" per output token ({s.tpot_limit})"), (f.energy, " a month"), *starts),
    ]


def range_line(sens: Sensitivity, system: str, *, per_month: bool = False) -> Text | None:
    """`P10–P90 $1.2M–$1.5M · 30.1–35.2 days · wins 94% of samples` for `system`, if it has ranges; for
    a serving fleet's month (`per_month`), `P10–P90 $36.9k–$50.1k a month · wins 60% of samples`."""
    found = sens.ranges.get(system)
    if found is None:
        return None
    cost, time = found.cost_usd, found.time_to_result_hours
    text = Text.assemble(("P10–P90 ", PENDING), f"{numbers.money(cost.p10)}–{numbers.money(cost.p90)}")
    text.append(" a month" if per_month else f" · {numbers.duration_span(time.p10, time.p90)}")
    if sens.robustness is not None:
        text.append(f" · wins {numbers.percent(sens.robustness.share, 0)} of samples", style=PENDING)
    return text


VERDICT_STYLES = {"clear": PASSED, "close_call": WARNING, "none_feasible": FAILED}
"""How each verdict is marked in the app and the CLI."""


def verdict_line(rec: Recommendation, sens: Sensitivity | None, *, checking: bool = False) -> Text:
    """Why it won and how decisively: the verdict, settled by the robustness once `sens` is computed.

    While the ranges are still `checking`, a clear verdict reads as provisional ("Clear on expected
    values: …; checking ranges…"): the ranges can turn it into a close call, never the other way.
    """
    verdict = settled(rec, sens).verdict if sens is not None else rec.verdict
    label, _, rest = verdict.short_sentence().partition(": ")
    if checking and sens is None and verdict.kind == "clear" and verdict.runner_up is not None:
        return Text.assemble(
            "• ",
            (f"{label} on expected values", f"bold {PENDING}"),
            ": ",
            rest,
            ("; checking ranges…", PENDING),
        )
    return Text.assemble("• ", (label, f"bold {VERDICT_STYLES[verdict.kind]}"), ": ", rest)


def top_reasons(winner: Candidate) -> list[Reason]:
    """The winner's rule reasons that explain it best: preferences, penalties, warnings, then notes."""
    return sorted(winner.reasons, key=lambda r: REASON_ORDER.get(r.kind, 9))[:TOP_REASONS]


def reason_lines(winner: Candidate) -> list[Text]:
    """`• bonus 10% ...` for each of the winner's top reasons."""
    return [Text.assemble("• ", reason_text(r)) for r in top_reasons(winner)]


def no_winner_lines(rec: Recommendation, sized_elsewhere: bool) -> list[Text]:
    """Nothing is feasible: the core's headline, a pointer to Sizing, and what would change it."""
    lines = [Text(rec.headline, style=f"bold {FAILED}")]
    if sized_elsewhere:
        lines.append(Text("Sizing lists GPU counts that meet the deadline."))
    lines.extend(Text(f"• {line}") for line in rec.what_would_change[:2])
    return lines
