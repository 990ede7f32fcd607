"""How proven a system is for training at scale: its maturity label and the evidence for it.

The three labels, defined here once (rules key on them through the `maturity` fact):

- `mature`: two years or more in production, with published multi-week training runs on thousands of
  its GPUs (e.g. Llama 3 on 16,384 H100).
- `established`: published training at scale (512 GPUs or more, e.g. an MLPerf Training submission or
  a published run) on the system, or on a system with the same GPU and software stack (say which,
  and mark it an assumption), but under two years of production behind it.
- `new`: no published training run at that scale yet, on it or on a sibling with the same GPU.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from advisor.core.model.sourced import Sourced

Maturity = Literal["mature", "established", "new"]
MATURITY_LEVELS: tuple[Maturity, ...] = ("mature", "established", "new")
"""Most proven first."""


class MaturityBasis(Sourced):
    """A system's maturity label and the publication it rests on (or [A] and why)."""

    level: Maturity = Field(description="mature, established or new (see the module's definitions).")

    @model_validator(mode="before")
    @classmethod
    def _a_table(cls, data: object) -> object:
        if isinstance(data, str):
            raise ValueError(
                f"maturity = {data!r} needs its basis: write a [maturity] table with level = {data!r}, "
                "source (the publication and its URL, or [A] and why) and as_of"
            )
        return data
