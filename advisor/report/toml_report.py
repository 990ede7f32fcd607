"""The report as TOML: the scenario, loadable again as one, plus its results under `[results]`."""

from __future__ import annotations

from typing import Any

from advisor.io.scenario_files import scenario_toml
from advisor.report.data import ReportData
from advisor.report.json_report import BREAKDOWN_KEYS, report_header
from advisor.report.tables import COLUMNS, RANGE_COLUMNS, status


def results_data(report: ReportData) -> dict[str, Any]:
    """The `[results]` table: the answer, every system's figures and breakdowns, the assumptions used."""
    rec = report.recommendation
    systems = []
    for cand in rec.candidates:
        entry: dict[str, Any] = {
            "system": cand.system,
            "system_name": cand.system_name,
            "status": status(cand, rec.winner),
            "feasible": cand.feasible,
            "rank": cand.rank,
            "score": cand.score,
            "reasons": [f"{r.kind}: {r.text}" for r in cand.reasons],
        }
        est = cand.estimate
        if est is not None:
            entry.update({column.json_key: column.raw(est) for column in COLUMNS})
            entry["mfu"] = est.mfu  # the reference MFU, beside the one the time works at
            entry["co2_tonnes"] = est.co2_tonnes
            entry["warnings"] = list(est.warnings)
            entry["breakdowns"] = {name: dict(getattr(est, attr)) for name, attr in BREAKDOWN_KEYS.items()}
        rng = report.sensitivity.ranges.get(cand.system)
        if rng is not None:
            entry["ranges"] = {key: getattr(rng, key).to_dict() for _, key, _ in RANGE_COLUMNS}
        systems.append(entry)
    return {
        "report": report_header(report),
        "winner": rec.winner,
        "objective": rec.objective,
        "headline": rec.headline,
        "verdict": rec.verdict.kind,
        "why": rec.verdict.why,
        "verdict_sentence": rec.verdict.sentence(),
        "cheaper_option": rec.cheaper_option.sentence if rec.cheaper_option else None,
        "warnings": list(rec.warnings),
        "what_would_change": list(rec.what_would_change),
        "robustness": report.sensitivity.robustness.verdict if report.sensitivity.robustness else None,
        "break_evens": [b.sentence for b in report.sensitivity.break_evens],
        "systems": systems,
        "rules_fired": [
            {"id": r.id, "system": r.system, "effect": r.effect, "because": r.because}
            for r in rec.rules_fired
        ],
        "assumptions": [a.to_dict() for a in report.assumptions],
    }


def render_toml(report: ReportData) -> str:
    """The report as TOML text; `advisor recommend` reads it back as the same scenario."""
    header = (
        f"# advisor {report.version} report, {report.today.isoformat()}: the scenario, then its results.\n"
        "# Load it as a scenario again: the [results] table is ignored on load.\n\n"
    )
    return header + scenario_toml(report.scenario, results_data(report))
