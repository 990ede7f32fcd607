"""Which answers a scenario's other answers leave unused, and why, from each input's declared
`applies` conditions (`advisor.core.model.inputs.Input`). One list for every surface: the CLI warns of
a flag given for an unused input, the app greys its question, the reports leave its row out."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

from advisor.core.model.inputs import Condition
from advisor.core.model.serving_rate import target_rate
from advisor.core.scenario import INPUTS, Scenario


def _maybe_released(s: Scenario) -> bool:
    """A serving job given no precision: its weights may be served in a low released format (the model's
    `released_weights`, which needs the catalog), so the FP8-stack and release inputs may be used."""
    w = s.workload
    return w.kind == "inference" and w.weight_precision is None and "precision" not in w.model_fields_set


def _rate(s: Scenario) -> bool:
    w = s.workload
    return target_rate(w.kind, w.target_tokens_per_second, w.requests_per_second, w.output_tokens) is not None


CONDITIONS: dict[Condition, tuple[Callable[[Scenario], bool], str]] = {
    "training": (
        lambda s: s.workload.kind != "inference",
        "it applies to training (job: pretrain or finetune)",
    ),
    "finetune": (lambda s: s.workload.kind == "finetune", "it applies to a fine-tune (job: finetune)"),
    "lora": (
        lambda s: s.workload.kind == "finetune" and s.workload.finetune_method == "lora",
        "it applies to a LoRA fine-tune (fine-tune method: lora)",
    ),
    "inference": (lambda s: s.workload.kind == "inference", "it applies to serving (job: inference)"),
    "rate": (_rate, "it applies at a target rate (target tokens/s or requests/s)"),
    "no_rate": (
        lambda s: not _rate(s),
        "a target rate sizes the fleet, and the job is a month of serving at that rate",
    ),
    "no_token_rate": (
        lambda s: s.workload.target_tokens_per_second is None,
        "the target tokens/s is set, and it is the rate served (requests/s are not added to it)",
    ),
    "rent": (
        lambda s: s.workload.pricing == "rent" or (s.constraints.deadline_days is not None and not _rate(s)),
        "it applies when renting (pricing: rent), or beside a purchase with a deadline (the rental that "
        "meets it)",
    ),
    "own": (lambda s: s.workload.pricing == "own", "it applies when buying (pricing: own)"),
    "deadline": (lambda s: s.constraints.deadline_days is not None, "it applies with a deadline"),
    "fixed_gpus": (
        lambda s: not s.size_to_deadline or _rate(s),
        "sizing to the deadline gives each system its own GPU count",
    ),
    "low_precision": (
        lambda s: s.workload.precision != "bf16" or _maybe_released(s),
        "it applies at FP8 or FP4 (precision: fp8 or fp4); BF16 needs no FP8 support",
    ),
    "release_month": (
        lambda s: (
            s.workload.kind != "inference"
            or (s.workload.weight_precision or s.workload.precision) == "fp8"
            or _maybe_released(s)
        ),
        "it applies to training, and to serving FP8 weights (early FP8 releases served slower); these "
        "weights are not FP8",
    ),
    "no_wait": (
        lambda s: not s.assumptions.wait_hours,
        "the wait for capacity is set, and it says when the GPUs are yours",
    ),
}
"""Each condition an input may declare: whether the scenario meets it, and why the input is unused if not.
Sizing to the deadline counts only where it is used (not at a target rate, which sizes the fleet), so an
input it and a rate both leave unused gets the rate's reason, as `size_to_deadline` itself does."""
assert set(CONDITIONS) == set(get_args(Condition)), "every declared condition has a meaning"


UNDECLARED: dict[str, tuple[str, Condition]] = {
    "assumptions.goodput": ("--goodput", "training"),
}
"""Inputs not declared with an `Input` (goodput is one value or a per-system map), by scenario key: their
flag and the condition under which the answer uses them. Goodput is the failure model of a synchronous
training job (checkpoints and restarts); a serving fleet keeps spare capacity instead (its headroom)."""


def unused_inputs(scenario: Scenario) -> dict[str, str]:
    """Every declared input the scenario's answers leave unused (set or not), by scenario key
    (`workload.tokens`), with the reason of the first condition not met."""
    unused: dict[str, str] = {}
    for key, item in INPUTS.items():
        for condition in item.meta.applies:
            holds, why = CONDITIONS[condition]
            if not holds(scenario):
                unused[key] = why
                break
    return unused


def unused_answers(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """Every input the scenario leaves unused, declared or not (`UNDECLARED`), by scenario key: its
    flag and why, for the warnings of a flag or a file key given in vain."""
    found = {key: (INPUTS[key].meta.flag, why) for key, why in unused_inputs(scenario).items()}
    for key, (flag, condition) in UNDECLARED.items():
        holds, why = CONDITIONS[condition]
        if not holds(scenario):
            found[key] = (flag, why)
    return found
