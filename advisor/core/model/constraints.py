"""The limits on a job and the preferences that decide between systems (`Constraints`)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, field_validator

from advisor.core.model.catalog import Frozen
from advisor.core.model.input_types import Days, HumanPositive
from advisor.core.model.inputs import Input, read_signs
from advisor.core.model.units import human_number

Risk = Literal["conservative", "balanced", "early-adopter"]


class Constraints(Frozen):
    """Limits and preferences that decide between systems (used by `advise`)."""

    _signs = field_validator("*", mode="before")(read_signs)

    deadline_days: Annotated[
        Annotated[Days, Field(gt=0)] | None,
        Input(
            "Deadline, days",
            "Optional: the run must finish within; Sizing then proposes GPUs",
            "days",
            blank="none",
            fact="The run must finish within this many days (unset: no deadline).",
        ),
    ] = None
    sizing_margin: Annotated[
        float,
        BeforeValidator(human_number),
        Field(ge=0, le=0.5, description="Sizing to the deadline: the share of it kept as slack."),
        Input(
            "Sizing margin",
            "Sizing to the deadline keeps this share of it as slack: 0.1 finishes by 90%",
            "fraction",
            applies=("deadline", "no_rate"),
        ),
    ] = 0.1
    budget_usd: Annotated[
        Annotated[HumanPositive, Field(le=1e13)] | None,
        Input(
            "Budget",
            "Optional: the most the run may cost, e.g. $250k",
            "USD",
            blank="none",
            fact="The run must cost at most this (unset: no budget).",
        ),
    ] = None
    need_within_days: Annotated[
        Annotated[Days, Field(ge=0)] | None,
        Input(
            "Needed within",
            "Optional days until capacity must be running",
            "days",
            blank="any time",
            fact="Capacity is needed within this many days (unset: no limit).",
        ),
    ] = None
    guaranteed_capacity: Annotated[
        bool,
        Input(
            "Guaranteed",
            "Capacity must be reserved or owned, not on demand",
            check_label="must be guaranteed",
            fact="Capacity must be guaranteed (reserved or owned).",
        ),
    ] = False
    risk: Annotated[
        Risk,
        Input(
            "Risk appetite",
            "Conservative avoids systems unproven at scale",
            choice_labels={"early-adopter": "early adopter"},
            fact="The team's risk appetite.",
        ),
    ] = "balanced"
    iteration_speed_matters: Annotated[
        bool,
        Input(
            "Iteration speed",
            "Finishing sooner matters more than the last dollar",
            flag="--iteration-speed",
            check_label="matters most",
            fact="Iteration speed matters more than marginal cost.",
        ),
    ] = False
