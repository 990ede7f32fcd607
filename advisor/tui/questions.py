"""The questions the app asks, in the order of the guided flow: label, one-line hint, control.

This is vocabulary, not logic: `answers.py` reads and applies the answers against a `Scenario`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Control = Literal["text", "choice", "check"]

SECTIONS = ("Model", "Job", "Scale and time", "Money", "Availability and risk")
"""Section titles, numbered 1-5 in the form."""


@dataclass(frozen=True)
class Question:
    """One question: what it asks, how it is answered, and a hint with examples and the valid range."""

    key: str
    section: int
    label: str
    hint: str
    control: Control = "text"
    choices: tuple[tuple[str, str], ...] = ()
    """(label, value) pairs of a choice; the model question takes its choices from the catalog."""
    placeholder: str = ""
    check_label: str = ""
    """A checkbox's label: what ticking it says."""


def _q(key: str, section: int, label: str, hint: str, **extra: object) -> Question:
    return Question(key, section, label, hint, **extra)  # type: ignore[arg-type]


QUESTIONS: tuple[Question, ...] = (
    _q("model", 0, "Model", "A catalogued model (size shown), or Custom size", control="choice"),
    _q("params", 0, "Parameters", "Custom: total parameters, 1M-100T, e.g. 70B or 1.5e12"),
    _q(
        "family",
        0,
        "Architecture",
        "Custom: dense, or mixture of experts (fewer active parameters)",
        control="choice",
        choices=(("dense", "dense"), ("mixture of experts", "moe")),
    ),
    _q("active_params", 0, "Active params", "MoE: parameters used per token, at most the total"),
    _q(
        "kind",
        1,
        "Job",
        "Pretrain, fine-tune, or serve (inference: tokens generated)",
        control="choice",
        choices=(("pretrain", "pretrain"), ("fine-tune", "finetune"), ("inference", "inference")),
    ),
    _q(
        "finetune_method",
        1,
        "Fine-tune how",
        "Fine-tune: all weights, or LoRA adapters (1% trainable)",
        control="choice",
        choices=(("full", "full"), ("LoRA", "lora")),
    ),
    _q("tokens", 1, "Tokens", "At least 1: 15T, 1.5e12, or dataset x epochs: 5T x 3"),
    _q(
        "precision",
        1,
        "Precision",
        "Training number format; FP8/FP4 run BF16 where unsupported",
        control="choice",
        choices=(("BF16", "bf16"), ("FP8", "fp8"), ("FP4", "fp4")),
    ),
    _q(
        "fp8_stack",
        1,
        "FP8 stack",
        "Ticked: our software stack runs FP8 (else FP8 runs as BF16)",
        control="check",
        check_label="we support FP8",
    ),
    _q("gpus", 2, "GPUs", "Whole number, 1-1,000,000, e.g. 2048 or 2k"),
    _q(
        "deadline_days",
        2,
        "Deadline, days",
        "Optional, up to 36,500: Sizing proposes a GPU count per system",
        placeholder="none",
    ),
    _q(
        "size_to_deadline",
        2,
        "Size to it",
        "Ticked: each system gets the smallest GPU count that meets the deadline",
        control="check",
        check_label="per system",
    ),
    _q(
        "pricing",
        3,
        "Rent or own",
        "Rent by the GPU-hour, or buy and own (TCO)",
        control="choice",
        choices=(("rent", "rent"), ("own", "own")),
    ),
    _q(
        "budget_usd",
        3,
        "Budget",
        "Optional, above $0: the most the run may cost, e.g. $250k",
        placeholder="none",
    ),
    _q(
        "electricity",
        3,
        "Electricity",
        "USD per kWh, above 0 up to 10; blank: the catalog's (see Assumptions)",
    ),
    _q("pue", 3, "PUE", "Facility power over IT power, 1-3; blank: the catalog's (see Assumptions)"),
    _q(
        "price_override",
        3,
        "Rent price",
        "Optional $/GPU-hour, 0-1000: $2.10 for all, or h100=2.1, b200=3.9",
        placeholder="catalog",
    ),
    _q(
        "capex_override",
        3,
        "Capex/node",
        "Optional USD per node or rack: $250k for all, or h100=250k",
        placeholder="catalog",
    ),
    _q(
        "need_within_days",
        4,
        "Needed within",
        "Optional days, 0-36,500, until capacity must be running",
        placeholder="any time",
    ),
    _q(
        "guaranteed",
        4,
        "Guaranteed",
        "Ticked: capacity must be reserved or owned, not on demand",
        control="check",
        check_label="must be guaranteed",
    ),
    _q(
        "risk",
        4,
        "Risk appetite",
        "Conservative avoids systems unproven at scale",
        control="choice",
        choices=(
            ("conservative", "conservative"),
            ("balanced", "balanced"),
            ("early adopter", "early-adopter"),
        ),
    ),
    _q(
        "iteration_speed",
        4,
        "Iteration speed",
        "Ticked: finishing sooner matters more than the last dollar",
        control="check",
        check_label="matters most",
    ),
    _q(
        "objective",
        4,
        "Optimise for",
        "What the ranking minimises; balanced = cost and time together",
        control="choice",
        choices=(("cost", "cost"), ("time", "time"), ("energy", "energy"), ("balanced", "balanced")),
    ),
)

QUESTION_BY_KEY = {q.key: q for q in QUESTIONS}
