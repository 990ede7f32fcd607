"""Energy: all-in power per GPU, the run's kWh, joules per token, household-years and CO2."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from advisor.core.model.catalog import Power
from advisor.core.model.units import JOULES_PER_KWH

PowerDriver = Literal["it", "facility"]
"""What a power part is: IT equipment drawing its own watts, or the facility's overhead on it (PUE - 1)."""


@dataclass(frozen=True, slots=True)
class PowerPart:
    """Watts per running GPU for one part of the load; energy scales with GPUs running x billed hours."""

    name: str
    w_per_gpu: float
    driver: PowerDriver


def it_w(parts: Sequence[PowerPart]) -> float:
    """Watts of the IT equipment (GPU, host share, network and storage share)."""
    return sum(part.w_per_gpu for part in parts if part.driver == "it")


def all_in_w(parts: Sequence[PowerPart]) -> float:
    """Watts at the utility meter: every part."""
    return sum(part.w_per_gpu for part in parts)


def power_parts(power: Power, pue: float) -> tuple[PowerPart, ...]:
    """All-in watts per GPU by part: GPU, host share, network/storage share, and their x (PUE - 1).

    SemiAnalysis's energy method (Aug 2025): the whole cluster's power at full load times the PUE of a
    typical colocation data center, divided among its GPUs.
    """
    return (
        PowerPart("gpu", power.gpu_tdp_w, "it"),
        PowerPart("host", power.host_w_per_gpu, "it"),
        PowerPart("network_storage", power.network_storage_w_per_gpu, "it"),
        PowerPart("pue_overhead", power.it_w_per_gpu * (pue - 1.0), "facility"),
    )


def run_energy_kwh(
    parts: Sequence[PowerPart], billed_hours: float, gpus_running: int, pue: float | None = None
) -> float:
    """Utility kWh of the run: all-in watts over the GPU-hours running (billed hours x GPUs running).

    With `pue`, the facility overhead is taken at that PUE instead: IT watts x `pue`.
    """
    watts = all_in_w(parts) if pue is None else it_w(parts) * pue
    return energy_kwh(watts, billed_hours * gpus_running)


def run_energy_kwh_by_part(
    parts: Sequence[PowerPart], billed_hours: float, gpus_running: int
) -> dict[str, float]:
    """Utility kWh of the run by power part (the `energy_breakdown_kwh` object)."""
    gpu_hours = billed_hours * gpus_running
    return {part.name: energy_kwh(part.w_per_gpu, gpu_hours) for part in parts}


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
