"""The inputs and assumptions tables: what the scenario asked for and every figure behind the answer."""

from __future__ import annotations

from collections.abc import Sequence

from advisor.core import fmt
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.catalog import ModelSpec
from advisor.core.model.inputs import ALL_SYSTEMS, DeclaredInput
from advisor.core.model.serving_plan import as_released
from advisor.core.model.units import SECONDS_PER_HOUR
from advisor.core.model.workload import SERVING_PERIOD_HOURS, Constraints, target_rate
from advisor.core.scenario import INPUTS, Scenario, WorkloadSpec
from advisor.core.unused import unused_inputs
from advisor.present import numbers
from advisor.report.assumptions import FLAGS, NOT_USED, AssumptionUsed, Value
from advisor.report.data import ReportData
from advisor.report.tables import DASH


def input_rows(report: ReportData) -> list[tuple[str, str]]:
    """The scenario's inputs as (label, value) rows, in the order a reader asks about them."""
    s: Scenario = report.scenario
    w = s.workload
    model = report.model
    unused = unused_inputs(s)
    no_stack = "workload.fp8_stack" in unused  # at BF16 the stack's FP8 support changes nothing
    rows = [
        ("Scenario", s.name),
        ("Objective", s.objective),
        ("Model", _model_text(model, model.id if w.model else _custom_note(w, model))),
        ("Parameters", _params(model.params_total, model.params_active)),
        ("Sequence length", f"{model.seq_len:,}"),
        ("Tokens", _tokens_text(w)),
        ("GPUs", _gpus_text(report)),
        ("Precision", _precision_text(w, model, no_stack)),
        ("Job", _job(w)),
        ("Pricing", "rent by the GPU-hour" if w.pricing == "rent" else "own (total cost of ownership)"),
        ("Software release", w.software or "latest published"),
        *declared_rows(s),
        ("Systems considered", ", ".join(s.systems) if s.systems else "every catalogued system"),
    ]
    if w.kind == "inference":
        rows.append(("Serving", _serving_text(w)))
    c = s.constraints
    deadline = f"{c.deadline_days:g} days" if c.deadline_days is not None else "none"
    rows.append(
        (
            "Deadline",
            deadline
            + (
                ", each system sized to meet it"
                if s.size_to_deadline and "size_to_deadline" not in unused
                else ""
            ),
        )
    )
    if c.deadline_days is not None:  # a margin of no deadline does not apply
        margin = f"{c.sizing_margin:.0%} of the deadline kept as slack when sizing to it"
        rows.append(("Sizing margin", margin))
    rows += [
        ("Budget", fmt.money(c.budget_usd) if c.budget_usd is not None else "none"),
        (
            "Capacity needed within",
            f"{c.need_within_days:g} days" if c.need_within_days is not None else "any time",
        ),
        ("Guaranteed capacity", "yes" if c.guaranteed_capacity else "no"),
        ("Risk appetite", c.risk),
        ("Iteration speed matters", "yes" if c.iteration_speed_matters else "no"),
    ]
    # these have rows of their own, but an unused per-system map has none: it is noted here, unused
    own_row = {"model", *(name for name in PER_SYSTEM_ROWS if f"assumptions.{name}" not in unused)}
    overrides = [a for a in report.assumptions if a.set_by_user and own_row.isdisjoint((a.subject, a.topic))]
    rows.append(("Assumption overrides", "; ".join(override_text(a) for a in overrides) or "none"))
    return [row for row in rows if ROW_INPUTS.get(row[0]) not in unused]


ROW_INPUTS = {
    "Sequence length": "workload.seq_len",
    "Software release": "workload.software",
    "Sizing margin": "constraints.sizing_margin",
}
"""The rows above that show one declared input: left out where the other answers leave it unused, as
`declared_rows` leaves out the rest (a serving job's training sequence length)."""


def _gpus_text(report: ReportData) -> str:
    """The scenario's GPU count, or how each system was sized when it was (the count asked is then unused)."""
    w = report.scenario.workload
    if _serving_rate(w):
        return "sized per system to the target rate"
    if not report.scenario.size_to_deadline:
        return f"{w.gpus:,}"
    winner = report.winner_estimate
    used = f"; the recommended uses {winner.gpus:,}" if winner is not None else ""
    return f"sized to the deadline (each system its own count{used})"


def _tokens_text(w: WorkloadSpec) -> str:
    """`15T`, or for serving at a target rate what a month of it generates."""
    rate = _serving_rate(w)
    if rate is None:
        return fmt.count(w.tokens or 0)
    month = fmt.count(rate * SERVING_PERIOD_HOURS * SECONDS_PER_HOUR)
    return f"a month of serving at the target rate: {month} output tokens"


def _serving_rate(w: WorkloadSpec) -> float | None:
    """The generated tokens/s a serving scenario targets (None: a batch job)."""
    return target_rate(w.kind, w.target_tokens_per_second, w.requests_per_second, w.output_tokens)


def _serving_text(w: WorkloadSpec) -> str:
    """The serving inputs in one line: shape, batch, rate target, latency limits, precisions."""
    batch = f"batch {w.serving_batch}" if w.serving_batch else "batch chosen"
    parts = [f"{w.prompt_tokens:,} prompt + {w.output_tokens:,} output tokens", batch]
    if w.target_tokens_per_second is not None:
        parts.append(f"target {w.target_tokens_per_second:,.0f} tokens/s")
    if w.requests_per_second is not None:
        parts.append(f"target {w.requests_per_second:,.6g} requests/s")
    for name, label in (("ttft_limit_ms", "TTFT"), ("tpot_limit_ms", "TPOT")):
        if getattr(w, name) is not None:
            parts.append(f"{label} at most {getattr(w, name):,.6g} ms")
    if w.serving_headroom is not None:
        parts.append(f"{w.serving_headroom:.0%} of the fleet kept spare")
    for name, label in (("weight_precision", "weights"), ("kv_cache_precision", "KV cache")):
        if getattr(w, name) is not None:
            parts.append(f"{label} {getattr(w, name).upper()}")
    if w.activation_precision is not None:
        parts.append(f"activations {w.activation_precision.upper()}")
    return ", ".join(parts)


def _precision_text(w: WorkloadSpec, model: ModelSpec, no_stack: bool) -> str:
    """`BF16`; a serving job given no precision: the weights' format as the model is released."""
    if (released := as_released(model, w)) is not None:
        return f"{released.label} weights as released (no precision given)"
    return w.precision.upper() + ("" if w.fp8_stack or no_stack else " (software stack without FP8)")


def override_text(row: AssumptionUsed) -> str:
    """`pue = 1.2 (all systems)`; `goodput = 0.9 (all systems; not used: ...)` where the job leaves it
    unused."""
    return f"{values_text(row.values)} ({row.subject}{'; ' + row.note if row.note else ''})"


PER_SYSTEM_ROWS = frozenset(item.name for item in INPUTS.values() if item.kind == "per_system")
"""Per-system maps (`owned_gpus`): each has a row of its own when set, not a part of the overrides row."""

SHOWN_ABOVE = frozenset(
    {
        "objective",
        "size_to_deadline",
        *(f"workload.{name}" for name in ("seq_len", "tokens", "gpus", "precision", "fp8_stack", "kind")),
        *(
            f"workload.{name}"
            for name in ("finetune_method", "lora_trainable_fraction", "pricing", "software")
        ),
        *(f"workload.{name}" for name in ("prompt_tokens", "output_tokens", "serving_batch")),
        "workload.target_tokens_per_second",
        *(f"workload.{name}" for name in ("requests_per_second", "ttft_limit_ms", "tpot_limit_ms")),
        "workload.serving_headroom",
        *(f"workload.{name}" for name in ("weight_precision", "kv_cache_precision", "activation_precision")),
        *(f"constraints.{name}" for name in Constraints.model_fields),
        *(f"assumptions.{name}" for name in Assumptions.model_fields if name not in PER_SYSTEM_ROWS),
    }
)
"""Declared inputs `input_rows` shows in rows of its own wording; every other one gets a row from its
declaration (`declared_rows`)."""

UNDECLARED_FIELDS = {
    "scenario": ("schema_", "name", "notes", "systems"),
    "workload": ("model", "custom", "config_file"),
}
"""Scenario and workload fields that are not declared inputs; `input_rows` shows them by name."""


def declared_rows(scenario: Scenario) -> list[tuple[str, str]]:
    """A row for each declared input not shown above that the other answers use (`advisor.core.unused`):
    its label and its value."""
    rows = []
    unused = unused_inputs(scenario)
    for item in INPUTS.values():
        table = getattr(scenario, item.table) if item.table else scenario
        value = getattr(table, item.name)
        shown = item.key not in SHOWN_ABOVE and item.key not in unused
        if shown and not (item.kind == "per_system" and not value):
            rows.append((item.meta.label, declared_value_text(item, value)))
    return rows


def declared_value_text(item: DeclaredInput, value: object) -> str:
    """`yes`, `production`, `2,048 GPUs`, `h100: 1,024 GPUs, a100: 256 GPUs`, or what blank means."""
    if value is None:
        return item.meta.blank or "none"
    if isinstance(value, dict):
        others = "every other system" if len(value) > 1 else "every system"
        return ", ".join(
            f"{others if key == ALL_SYSTEMS else key}: {declared_value_text(item, number)}"
            for key, number in sorted(value.items(), key=lambda pair: pair[0] == ALL_SYSTEMS)
        )
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float) and item.meta.unit.startswith("USD"):
        return fmt.money(value) + item.meta.unit.removeprefix("USD")  # $250k, $2.10/GPU-hour
    if isinstance(value, int | float):
        return f"{value:,g}" + (f" {item.meta.unit}" if item.meta.unit else "")
    return str(value)


def _job(w: WorkloadSpec) -> str:
    if w.kind != "finetune":
        return w.kind
    if w.finetune_method == "lora":
        return f"finetune, LoRA training {fmt.percent(w.lora_trainable_fraction)} of the parameters"
    return "finetune, full"


def _model_text(model: ModelSpec, note: str) -> str:
    """`Llama 3 70B (llama3-70b)`; after a name that ends in a parenthesis, `13B dense (custom), given by
    size, architecture inferred` rather than two parentheses in a row."""
    return f"{model.name}, {note}" if model.name.endswith(")") else f"{model.name} ({note})"


def _custom_note(w: WorkloadSpec, model: ModelSpec) -> str:
    if w.config_file is not None:
        return f"from {w.config_file}"
    return "given by size, architecture inferred" if model.inferred else "given by size and shape"


def _params(total: float, active: float) -> str:
    shown = numbers.params
    return shown(total) if total == active else f"{shown(total)} total, {shown(active)} active"


def value_text(value: Value) -> str:
    """A catalog value as written: 45,565; 0.0862; 70.55B; true; text (as the app's assumptions show it)."""
    return numbers.catalog_value(value)


def values_text(values: Sequence[tuple[str, Value]]) -> str:
    """`gpu_tdp_w = 700, host_w_per_gpu = 575`."""
    return ", ".join(f"{key} = {value_text(value)}" for key, value in values)


def assumption_rows(report: ReportData) -> tuple[list[str], list[list[str]]]:
    """The assumptions table: subject, topic, values, source, date and flags."""
    header = ["Subject", "Topic", "Values", "Source", "As of", "Flags"]
    rows = []
    for a in report.assumptions:
        flags = [flag.label for flag in FLAGS if getattr(a, flag.field)]
        source = f"{a.source}; {a.note}" if a.set_by_user and a.note.startswith(NOT_USED) else a.source
        rows.append([a.subject, a.topic, values_text(a.values), source, a.as_of or DASH, ", ".join(flags)])
    return header, rows
