"""The inputs and assumptions tables: what the scenario asked for and every figure behind the answer."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.core import fmt
from advisor.core.model.catalog import ModelSpec
from advisor.core.scenario import Scenario, WorkloadSpec
from advisor.report.assumptions import AssumptionUsed, Value
from advisor.report.data import ReportData
from advisor.report.tables import DASH


def input_rows(report: ReportData) -> list[tuple[str, str]]:
    """The scenario's inputs as (label, value) rows, in the order a reader asks about them."""
    s: Scenario = report.scenario
    w = s.workload
    model = report.model
    rows = [
        ("Scenario", s.name),
        ("Objective", s.objective),
        ("Model", f"{model.name} ({model.id})" if w.model else f"{model.name} ({_custom_note(model)})"),
        ("Parameters", _params(model.params_total, model.params_active)),
        ("Sequence length", f"{model.seq_len:,}"),
        ("Tokens", fmt.count(w.tokens)),
        ("GPUs", f"{w.gpus:,}"),
        ("Precision", w.precision.upper() + ("" if w.fp8_stack else " (software stack without FP8)")),
        ("Job", _job(w)),
        ("Pricing", "rent by the GPU-hour" if w.pricing == "rent" else "own (total cost of ownership)"),
        ("Software release", w.software or "latest published"),
        (
            "Training stack",
            "production (a team's end-to-end run)"
            if w.efficiency == "production"
            else "reference (a vendor-tuned recipe)",
        ),
        ("Systems considered", ", ".join(s.systems) if s.systems else "every catalogued system"),
    ]
    if w.kind == "inference":
        serving = f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens, batch {w.serving_batch}"
        if w.target_tokens_per_second is not None:
            serving += f", target {w.target_tokens_per_second:,.0f} tokens/s"
        rows.append(("Serving", serving))
    c = s.constraints
    deadline = f"{c.deadline_days:g} days" if c.deadline_days is not None else "none"
    rows += [
        ("Deadline", deadline + (", each system sized to meet it" if s.size_to_deadline else "")),
        ("Budget", fmt.money(c.budget_usd) if c.budget_usd is not None else "none"),
        (
            "Capacity needed within",
            f"{c.need_within_days:g} days" if c.need_within_days is not None else "any time",
        ),
        ("Guaranteed capacity", "yes" if c.guaranteed_capacity else "no"),
        ("Risk appetite", c.risk),
        ("Iteration speed matters", "yes" if c.iteration_speed_matters else "no"),
    ]
    overrides = [a for a in report.assumptions if a.set_by_user and a.subject != "model"]
    rows.append(("Assumption overrides", "; ".join(override_text(a) for a in overrides) or "none"))
    return rows


def override_text(row: AssumptionUsed) -> str:
    """`pue = 1.2 (all systems)`."""
    return f"{values_text(row.values)} ({row.subject})"


INPUT_FIELDS = {
    "scenario": ("schema_", "name", "notes", "objective", "systems", "size_to_deadline"),
    "workload": (
        "model",
        "custom",
        "seq_len",
        "tokens",
        "gpus",
        "precision",
        "kind",
        "pricing",
        "software",
        "fp8_stack",
        "efficiency",
        "finetune_method",
        "lora_trainable_fraction",
        "prompt_tokens",
        "output_tokens",
        "serving_batch",
        "target_tokens_per_second",
    ),
}
"""Scenario and workload fields `input_rows` shows (a test fails when the schema gains one it lacks)."""


def _job(w: WorkloadSpec) -> str:
    if w.kind != "finetune":
        return w.kind
    if w.finetune_method == "lora":
        return f"finetune, LoRA training {fmt.percent(w.lora_trainable_fraction)} of the parameters"
    return "finetune, full"


def _custom_note(model: ModelSpec) -> str:
    return "given by size, architecture inferred" if model.inferred else "given by size and shape"


def _params(total: float, active: float) -> str:
    return fmt.count(total) if total == active else f"{fmt.count(total)} total, {fmt.count(active)} active"


def value_text(value: Value) -> str:
    """A catalog value as written: 45,565; 0.0862; 2.1; true; text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if value.is_integer() and abs(value) < 1e15 else f"{value:,.6g}"
    return str(value)


def values_text(values: Sequence[tuple[str, Value]]) -> str:
    """`gpu_tdp_w = 700, host_w_per_gpu = 575`."""
    return ", ".join(f"{key} = {value_text(value)}" for key, value in values)


def assumption_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The assumptions table: subject, topic, values, source, date and flags."""
    header = ["Subject", "Topic", "Values", "Source", "As of", "Flags"]
    rows = []
    for a in report.assumptions:
        flags = ", ".join(flag.label for flag in a.flags)
        rows.append([a.subject, a.topic, values_text(a.values), a.source, a.as_of or DASH, flags])
    return header, rows
