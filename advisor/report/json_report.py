"""The report as JSON: the `recommend --json` object plus the scenario, breakdowns and assumptions.

Numbers stay raw floats (no rounding); the keys are documented in docs/json.md ("Report JSON").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from advisor.core.analysis.sensitivity import recommendation_data as with_ranges
from advisor.report.data import REPORT_FORMAT_VERSION, ReportData
from advisor.schemas import SCHEMA_VERSION

BREAKDOWN_KEYS = {
    "cost_usd": "cost_breakdown_usd",
    "time_hours": "time_breakdown_hours",
    "energy_kwh": "energy_breakdown_kwh",
    "price_usd_per_gpu_hour": "price_breakdown_usd_per_gpu_hour",
    "power_w_per_gpu": "power_breakdown_w",
}
"""Report JSON breakdown name -> the estimate attribute it copies."""


def report_header(report: ReportData) -> dict[str, Any]:
    """Provenance: report format, tool version, date, title."""
    return {
        "format": REPORT_FORMAT_VERSION,
        "advisor_version": report.version,
        "generated": report.today.isoformat(),
        "title": report.title,
    }


def recommendation_data(report: ReportData) -> dict[str, Any]:
    """The `recommend --json` object, with each fired rule's file given by name (not a local path)."""
    data = with_ranges(report.recommendation, report.sensitivity)
    data["rules_fired"] = [{**rule, "file": Path(rule["file"]).name} for rule in data["rules_fired"]]
    return data


def breakdowns(report: ReportData) -> dict[str, dict[str, dict[str, float]]]:
    """Per system with an estimate: each breakdown, part -> value."""
    return {
        cand.system: {name: dict(getattr(cand.estimate, attr)) for name, attr in BREAKDOWN_KEYS.items()}
        for cand in report.estimated
    }


def report_data(report: ReportData) -> dict[str, Any]:
    """The whole report as JSON-ready data: `recommend --json`'s keys, then the report's own."""
    return {
        "schema_version": SCHEMA_VERSION,
        "report": report_header(report),
        "scenario": report.scenario.to_data(),
        **recommendation_data(report),
        "sizing": [
            {
                "system": s.system,
                "deadline_days": s.deadline_days,
                "margin": s.margin,
                "gpus": s.gpus,
                "sized_gpus": s.sized_gpus,
                "binding": s.binding,
                "reason": s.reason,
            }
            for s in report.sizing
        ],
        "breakdowns": breakdowns(report),
        "assumptions": [a.to_dict() for a in report.assumptions],
    }


def dumps(data: Any) -> str:
    """Indented JSON, UTF-8 kept, no NaN or infinity (they are not JSON)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def render_json(report: ReportData) -> str:
    """The report as JSON text."""
    return dumps(report_data(report))
