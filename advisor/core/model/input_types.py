"""Number types of the inputs as a person writes them ("250k", "$2.10", "15T"), each with its range."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field

from advisor.core.model.units import human_integer, human_number

HumanPositive = Annotated[float, BeforeValidator(human_number), Field(gt=0, allow_inf_nan=False)]
"""A positive number that may be written "250k", "$2.10", "15T" in a scenario file."""
HumanNonNegative = Annotated[float, BeforeValidator(human_number), Field(ge=0, allow_inf_nan=False)]
HumanCount = Annotated[int, BeforeValidator(human_integer)]
"""A whole number that may be written "2k" or "2048.0"; the field adds its range."""
Days = Annotated[float, BeforeValidator(human_number), Field(le=36_500, allow_inf_nan=False)]
"""Days, up to a century."""
RequestTokens = Annotated[HumanCount, Field(gt=0, le=10_000_000)]
"""Tokens of one serving request (its prompt or its output), up to 10M."""
LatencyLimitMs = Annotated[HumanPositive | None, Field(le=3_600_000)]
"""A serving latency limit in milliseconds, up to an hour (None: no limit)."""
