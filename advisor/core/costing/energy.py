"""Energy: all-in power per GPU, the run's kWh, joules per token, household-years and CO2."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.core.model.catalog import Power
from advisor.core.model.units import JOULES_PER_KWH


@dataclass(frozen=True)
class PowerDraw:
    """Utility power per GPU in watts: IT parts plus the facility overhead (PUE − 1)."""

    gpu_w: float
    host_w: float
    network_storage_w: float
    pue_overhead_w: float

    @property
    def it_w(self) -> float:
        return self.gpu_w + self.host_w + self.network_storage_w

    @property
    def all_in_w(self) -> float:
        return self.it_w + self.pue_overhead_w

    def parts(self) -> dict[str, float]:
        return {
            "gpu": self.gpu_w,
            "host": self.host_w,
            "network_storage": self.network_storage_w,
            "pue_overhead": self.pue_overhead_w,
        }


def power_draw(power: Power, pue: float) -> PowerDraw:
    """All-in watts per GPU: (GPU + host share + network/storage share) × PUE.

    SemiAnalysis's energy method (Aug 2025): the whole cluster's power at full load times the PUE of a
    typical colocation data center, divided among its GPUs.
    """
    it_w = power.it_w_per_gpu
    return PowerDraw(
        power.gpu_tdp_w, power.host_w_per_gpu, power.network_storage_w_per_gpu, it_w * (pue - 1.0)
    )


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
