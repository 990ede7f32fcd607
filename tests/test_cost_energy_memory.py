"""TCO, rental, energy and memory arithmetic."""

from __future__ import annotations

from typing import get_args

import pytest

from advisor.core.costing.cost import (
    CostDriver,
    CostPart,
    DriverCost,
    capital_recovery_factor,
    cost_by_driver,
    ownership_cost_per_gpu_hour,
    run_cost_usd,
    scaled_cost_usd,
)
from advisor.core.costing.estimate import estimate
from advisor.core.model.assumptions import Assumptions
from advisor.core.model.flops import custom_model, infer_architecture, training_flops_per_token
from advisor.core.model.workload import Workload
from advisor.present.numbers import memory_per_gpu


def test_capital_recovery_factor():
    # A textbook annuity: $1 over 6 years at 10% is 0.2296 a year.
    assert capital_recovery_factor(0.10, 6) == pytest.approx(0.229607, rel=1e-5)
    assert capital_recovery_factor(0.0, 5) == pytest.approx(0.2)


def test_ownership_cost_parts_add_up():
    hourly = ownership_cost_per_gpu_hour(
        capex_usd_per_gpu=87600,
        depreciation_years=10,
        cost_of_capital=0.0,
        maintenance_fraction_per_year=0.0,
        utilization=1.0,
        it_kw_per_gpu=1.0,
        pue=1.5,
        electricity_usd_per_kwh=0.1,
        colocation_usd_per_kw_month=73,
    )
    parts = hourly.usd_per_gpu_hour()
    assert parts["capex_amortisation"] == pytest.approx(1.0)
    assert parts["cost_of_capital"] == pytest.approx(0.0)
    assert parts["power"] == pytest.approx(0.15)
    assert parts["hosting"] == pytest.approx(0.1)
    assert hourly.total == pytest.approx(1.25)
    drivers = {part.name: (part.driver, part.paid_by) for part in hourly.parts}
    assert drivers == {
        "capex_amortisation": ("capex", "paid"),
        "cost_of_capital": ("capex", "paid"),
        "maintenance": ("capex", "paid"),
        "hosting": ("hosting", "paid"),
        "power": ("energy", "running"),
    }


def test_run_cost_pays_each_part_on_its_gpus_and_scales_by_its_driver():
    parts = (
        CostPart("capex_amortisation", 1.0, "capex", "paid"),
        CostPart("maintenance", 0.125, "capex", "paid"),
        CostPart("hosting", 0.5, "hosting", "paid"),
        CostPart("power", 0.25, "energy", "running"),
    )
    usd = run_cost_usd(parts, 10.0, gpus_running=8, gpus_paid=72)
    assert usd == {"capex_amortisation": 720.0, "maintenance": 90.0, "hosting": 360.0, "power": 20.0}
    by_driver = cost_by_driver(parts, usd)
    assert by_driver == DriverCost(capex=810.0, hosting=360.0, energy=20.0, rental=0.0)
    assert scaled_cost_usd(by_driver, 1.0) == sum(usd.values())
    assert scaled_cost_usd(by_driver, 2.0, capex=1.5, energy=3.0) == 2 * (810 * 1.5 + 360 + 20 * 3)


def test_every_cost_driver_has_a_column():
    # A driver added to CostDriver without a DriverCost field (or the other way round) fails here.
    assert DriverCost._fields == get_args(CostDriver)


def test_lower_utilization_raises_fixed_costs_only():
    args = dict(
        capex_usd_per_gpu=30000,
        depreciation_years=6,
        cost_of_capital=0.1,
        maintenance_fraction_per_year=0.02,
        it_kw_per_gpu=1.4,
        pue=1.3,
        electricity_usd_per_kwh=0.09,
        colocation_usd_per_kw_month=196,
    )
    full = ownership_cost_per_gpu_hour(utilization=1.0, **args)
    half = ownership_cost_per_gpu_hour(utilization=0.5, **args)
    half_parts, full_parts = half.usd_per_gpu_hour(), full.usd_per_gpu_hour()
    assert half_parts["capex_amortisation"] == pytest.approx(2 * full_parts["capex_amortisation"])
    assert half_parts["power"] == pytest.approx(full_parts["power"])


def test_rent_is_price_times_gpu_hours(catalog):
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e10, gpus=8, precision="fp8", pricing="rent")
    est = estimate(w, "h100", catalog, Assumptions(price_usd_per_gpu_hour={"h100": 2.5}))
    assert est.cost_usd == pytest.approx(2.5 * est.gpu_hours)
    assert est.cost_breakdown_usd == {"rental": pytest.approx(est.cost_usd)}


def test_price_override_star_applies_to_every_system(catalog):
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e10, gpus=8, pricing="rent")
    est = estimate(w, "a100", catalog, Assumptions(price_usd_per_gpu_hour={"*": 3.0}))
    assert est.price_usd_per_gpu_hour == 3.0


def test_breakdowns_sum_to_totals(catalog):
    w = Workload(model=catalog.model("llama3-70b"), tokens=2e12, gpus=512, precision="fp8", pricing="own")
    est = estimate(w, "gb200-nvl72", catalog)
    assert sum(est.cost_breakdown_usd.values()) == pytest.approx(est.cost_usd)
    assert sum(est.energy_breakdown_kwh.values()) == pytest.approx(est.energy_kwh)
    assert sum(est.power_breakdown_w.values()) == pytest.approx(est.power_w_per_gpu_all_in)
    hours = est.time_breakdown_hours
    parts = ("setup", "compute", "overhead", "downtime")
    assert sum(hours[part] for part in parts) == pytest.approx(est.time_to_train_hours)
    assert set(hours) == {*parts, "wait"}
    assert est.time_to_result_hours == pytest.approx(est.time_to_train_hours + hours["wait"])


def test_pue_and_electricity_overrides(catalog):
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e10, gpus=8, pricing="own")
    base = estimate(w, "h100", catalog)
    worse = estimate(w, "h100", catalog, Assumptions(pue=1.6, electricity_usd_per_kwh=0.2))
    assert worse.energy_kwh > base.energy_kwh
    assert worse.price_breakdown_usd_per_gpu_hour["power"] > base.price_breakdown_usd_per_gpu_hour["power"]


def test_all_in_power_h100(catalog):
    # 700 W GPU + 575 W host share + 100 W network/storage = 1,375 W IT; x PUE 1.3 = 1,787.5 W.
    w = Workload(model=catalog.model("llama3-8b"), tokens=1e9, gpus=8)
    assert estimate(w, "h100", catalog).power_w_per_gpu_all_in == pytest.approx(1787.5)


def test_flops_per_token_formula():
    # 6N + 12·L·h·s: GPT-3 175B at 2,048 is 1.05e12 + 2.90e10 (+3%, as throughput-benchmarks.md says).
    flops = training_flops_per_token(175e9, 96, 12288, 2048)
    assert flops == pytest.approx(1.05e12 + 12 * 96 * 12288 * 2048)
    assert flops / 1.05e12 == pytest.approx(1.0276, rel=1e-3)


@pytest.mark.parametrize(
    ("params", "layers", "hidden"), [(7e9, 32, 4096), (70e9, 80, 8192), (175e9, 96, 12288)]
)
def test_inferred_architecture_is_close_to_real_models(params, layers, hidden):
    got_layers, got_hidden = infer_architecture(params)
    assert got_layers == pytest.approx(layers, rel=0.15)
    assert got_hidden == pytest.approx(hidden, rel=0.15)
    assert got_hidden % 128 == 0
    assert 12 * got_layers * got_hidden**2 == pytest.approx(params, rel=0.1)


def test_custom_model_is_moe_when_active_is_smaller():
    model = custom_model(100e9, 20e9)
    assert model.family == "moe" and model.params_active == 20e9 and model.inferred


# STYLE.md example: "405B needs 6.5 TB of training state; 8x A100 hold 640 GB".
def test_405b_does_not_fit_on_8_a100(catalog):
    w = Workload(model=catalog.model("llama3-405b"), tokens=1e12, gpus=8)
    est = estimate(w, "a100", catalog)
    assert not est.memory.fits
    assert est.memory.state_gib * 2**30 == pytest.approx(6.49e12, rel=0.01)
    assert est.memory.min_gpus is not None and est.memory.min_gpus > 8 and est.memory.min_gpus % 8 == 0
    assert any("does not fit" in warning for warning in est.warnings)
    at_min = estimate(w.model_copy(update={"gpus": est.memory.min_gpus}), "a100", catalog)
    assert at_min.memory.fits


def test_7b_fits_on_one_node(catalog):
    w = Workload(model=catalog.model("llama2-7b"), tokens=1e9, gpus=8)
    assert estimate(w, "a100", catalog).memory.fits


def test_lora_needs_far_less_memory_than_full_finetune(catalog):
    base = dict(model=catalog.model("llama3-70b"), tokens=1e8, gpus=8, kind="finetune")
    full = estimate(Workload(**base), "h100", catalog)
    lora = estimate(Workload(**base, finetune_method="lora"), "h100", catalog)
    assert lora.memory.state_gib < full.memory.state_gib / 4
    assert lora.flops_per_token < full.flops_per_token


def test_partial_node_warns(catalog):
    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=100)
    est = estimate(w, "gb200-nvl72", catalog)
    warning = next(warning for warning in est.warnings if "not a whole number" in warning)
    # Rented per GPU (the cost is 100 GPUs'); the warning names what two whole 72-GPU racks would cost.
    assert est.cost_usd == pytest.approx(est.price_usd_per_gpu_hour * est.gpu_hours)
    assert "priced per GPU" in warning and "144 GPUs cost" in warning and "(1.44x)" in warning


@pytest.mark.parametrize(("given", "value"), [("layers", 40), ("hidden", 4096)])
def test_custom_model_with_one_dimension_keeps_its_size(given, value):
    model = custom_model(70e9, **{given: value})
    assert getattr(model, given) == value
    assert 12 * model.layers * model.hidden**2 == pytest.approx(70e9, rel=0.05)


def test_owning_pays_for_whole_racks(catalog):
    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=128, precision="fp8", pricing="own")
    est = estimate(w, "gb200-nvl72", catalog)
    assert est.gpus_paid == 144
    hours = est.time_to_train_hours
    parts = est.price_breakdown_usd_per_gpu_hour
    assert est.cost_breakdown_usd["capex_amortisation"] == pytest.approx(
        parts["capex_amortisation"] * hours * 144
    )
    assert est.cost_breakdown_usd["power"] == pytest.approx(parts["power"] * hours * 128)
    assert any("16 idle GPUs are paid for" in warning for warning in est.warnings)
    rent = estimate(w.model_copy(update={"pricing": "rent"}), "gb200-nvl72", catalog)
    assert rent.gpus_paid == 128


@pytest.mark.parametrize("kind", ["pretrain", "inference"])
def test_estimate_json_is_asdict_without_the_typed_parts(catalog, kind):
    import dataclasses

    w = Workload(model=catalog.model("llama3-8b"), tokens=1e10, gpus=12, pricing="own", kind=kind)
    est = estimate(w, "h100", catalog)
    full = dataclasses.asdict(est)
    if full["serving"] is not None:  # with the schema-1 names of the full-load prices beside their own
        from advisor.core.costing.results import DEPRECATED_ALIASES

        full["serving"] |= {old: full["serving"][new] for old, new in DEPRECATED_ALIASES.items()}
    assert est.to_dict() == {k: v for k, v in full.items() if k not in ("cost_parts", "power_draw")}
    assert list(est.to_dict()) == [k for k in full if k not in ("cost_parts", "power_draw")]


def test_buying_shows_the_purchase_outlay_of_whole_racks(catalog):
    # 2,048 GB200 GPUs are 29 NVL72 racks (2,088 GPUs): the outlay is 29 racks' capex, not the run's share.
    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=2048, precision="fp8", pricing="own")
    est = estimate(w, "gb200-nvl72", catalog)
    rack = catalog.system("gb200-nvl72").capex.all_in_usd_per_node
    assert est.gpus_paid == 29 * 72 and est.purchase_usd == pytest.approx(29 * rack)
    assert est.purchase_usd > est.cost_usd
    assert estimate(w.model_copy(update={"pricing": "rent"}), "gb200-nvl72", catalog).purchase_usd is None


def test_a_buy_headline_names_the_outlay(catalog):
    from advisor.core.decision.headline import headline_figures, headline_sentence

    w = Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=64, precision="fp8", pricing="own")
    est = estimate(w, "h100", catalog)
    sentence = headline_sentence(headline_figures(est, "own"), "cost")
    assert sentence.startswith("Buy 64x h100 (8 nodes, $2M up front): ")


def test_training_and_serving_count_the_same_usable_memory_in_gib(catalog):
    # An H100's "80 GB" of HBM is 80 GiB (nvidia-smi: 81,559 MiB); 90% of it is usable. Training and
    # serving once disagreed: 67.1 for training (80 x 10^9 bytes shown in GiB), 72.0 for serving.
    training = estimate(Workload(model=catalog.model("llama3-70b"), tokens=1e12, gpus=64), "h100", catalog)
    serving_workload = Workload(
        model=catalog.model("llama3-70b"), gpus=64, kind="inference", target_tokens_per_second=5000
    )
    serving = estimate(serving_workload, "h100", catalog)
    usable_gib = 80 * catalog.economics.memory.usable_hbm_fraction
    for est in (training, serving):
        assert est.memory.available_gib / est.gpus == pytest.approx(usable_gib)
        assert "of 72.0 GiB per GPU" in memory_per_gpu(est)
    # The serving plan's replica holds its weights and KV cache within its GPUs' usable GiB.
    assert serving.memory.required_gib <= serving.memory.min_gpus * usable_gib
