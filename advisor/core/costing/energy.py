"""Energy: all-in power per GPU, the run's kWh, joules per token, household-years and CO2."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal, NamedTuple

from advisor.core.model.catalog import Power
from advisor.core.model.units import JOULES_PER_KWH

PowerDriver = Literal["it", "facility"]
"""What a power part is: IT equipment drawing its own watts, or the facility's overhead on it (PUE - 1)."""


class PowerPart(NamedTuple):
    """Watts per running GPU for one part of the load; energy scales with GPUs running x billed hours."""

    name: str
    """The key in `power_breakdown_w` and `energy_breakdown_kwh`."""
    w_per_gpu: float
    driver: PowerDriver
    """IT equipment, or the facility's overhead on it."""


class PowerDraw(NamedTuple):
    """Watts per running GPU by part, with the IT and all-in sums."""

    parts: tuple[PowerPart, ...]
    it_w: float
    """GPU, host share, network and storage share."""
    all_in_w: float
    """Every part, at the utility meter."""
    w_by_part: tuple[tuple[str, float], ...]
    """(part name, watts) pairs."""

    def w_per_gpu(self) -> dict[str, float]:
        """Watts by part name, a fresh dict (the `power_breakdown_w` object)."""
        return dict(self.w_by_part)


@lru_cache(maxsize=1024)
def power_draw(power: Power, pue: float) -> PowerDraw:
    """All-in watts per GPU by part: GPU, host share, network/storage share, and their x (PUE - 1).

    SemiAnalysis's energy method (Aug 2025): the whole cluster's power at full load times the PUE of a
    typical colocation data center, divided among its GPUs. Cached: the result is immutable.
    """
    parts = (
        PowerPart("gpu", power.gpu_tdp_w, "it"),
        PowerPart("host", power.host_w_per_gpu, "it"),
        PowerPart("network_storage", power.network_storage_w_per_gpu, "it"),
        PowerPart("pue_overhead", power.it_w_per_gpu * (pue - 1.0), "facility"),
    )
    it_w = sum([part.w_per_gpu for part in parts if part.driver == "it"])
    all_in_w = sum([part.w_per_gpu for part in parts])
    return PowerDraw(parts, it_w, all_in_w, tuple((part.name, part.w_per_gpu) for part in parts))


def run_energy_kwh(
    draw: PowerDraw, billed_hours: float, gpus_running: int, pue: float | None = None
) -> float:
    """Utility kWh of the run: all-in watts over the GPU-hours running (billed hours x GPUs running).

    With `pue`, the facility overhead is taken at that PUE instead: IT watts x `pue`.
    """
    watts = draw.all_in_w if pue is None else draw.it_w * pue
    return energy_kwh(watts, billed_hours * gpus_running)


def run_energy_kwh_by_part(draw: PowerDraw, billed_hours: float, gpus_running: int) -> dict[str, float]:
    """Utility kWh of the run by power part (the `energy_breakdown_kwh` object)."""
    gpu_hours = billed_hours * gpus_running
    return {part.name: energy_kwh(part.w_per_gpu, gpu_hours) for part in draw.parts}


def energy_kwh(all_in_w_per_gpu: float, gpu_hours: float) -> float:
    """Utility energy of `gpu_hours` at `all_in_w_per_gpu`."""
    return all_in_w_per_gpu * gpu_hours / 1000.0


def joules_per_token(kwh: float, tokens: float) -> float:
    return kwh * JOULES_PER_KWH / tokens


def household_years(kwh: float, household_kwh_per_year: float) -> float:
    """Years of an average US household's electricity (EIA: 10,791 kWh in 2022)."""
    return kwh / household_kwh_per_year


def co2_tonnes(kwh: float, grid_gco2_per_kwh: float) -> float:
    return kwh * grid_gco2_per_kwh / 1e6
