"""The columns of every listing and table `--format csv|tsv|json` prints: models, systems, rules, offers,
estimates and the ranked candidates of a recommendation. Keys carry their units; values stay raw."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from advisor.cli.tabular import Column
from advisor.present import numbers


def _dash(value: float | None) -> str:
    """A catalog figure as every surface writes it (2,250), or a dash where the system has none."""
    return "–" if value is None else numbers.catalog_value(value)


MODEL_COLUMNS = (
    Column("id", lambda m: m.id),
    Column("name", lambda m: m.name, optional=True),
    Column("family", lambda m: m.family),
    Column(
        "params_total", lambda m: m.params_total, "params", lambda m: numbers.params(m.params_total), "right"
    ),
    Column(
        "params_active",
        lambda m: m.params_active,
        "active",
        lambda m: numbers.params(m.params_active),
        "right",
    ),
    Column("layers", lambda m: m.layers, justify="right"),
    Column("hidden", lambda m: m.hidden, show=lambda m: numbers.catalog_value(m.hidden), justify="right"),
    Column("seq_len", lambda m: m.seq_len, "seq len", lambda m: f"{m.seq_len:,}", "right"),
    Column("source", lambda m: m.source, optional=True),
)

SYSTEM_COLUMNS = (
    Column("id", lambda s: s.id),
    Column("name", lambda s: s.name, optional=True),
    Column(
        "bf16_dense_tflops",
        lambda s: s.compute.bf16_dense_tflops,
        "BF16 TFLOPS",
        lambda s: _dash(s.compute.bf16_dense_tflops),
        "right",
    ),
    Column(
        "fp8_dense_tflops",
        lambda s: s.compute.fp8_dense_tflops,
        "FP8",
        lambda s: _dash(s.compute.fp8_dense_tflops),
        "right",
    ),
    Column(
        "fp4_dense_tflops",
        lambda s: s.compute.fp4_dense_tflops,
        "FP4",
        lambda s: _dash(s.compute.fp4_dense_tflops),
        "right",
    ),
    Column("hbm_gb", lambda s: s.memory.hbm_gb, "HBM GB", lambda s: f"{s.memory.hbm_gb:g}", "right"),
    Column(
        "nvlink_domain_gpus", lambda s: s.interconnect.nvlink_domain_gpus, "NVLink domain", justify="right"
    ),
    Column(
        "rent_usd_per_gpu_hour",
        lambda s: s.default_rental.price_usd_per_gpu_hour,
        "rent/GPU-h",
        lambda s: numbers.price_per_gpu_hour(s.default_rental.price_usd_per_gpu_hour),
        "right",
    ),
    Column("maturity", lambda s: s.maturity.level),
)

RULE_COLUMNS = (
    Column("id", lambda r: r.id),
    Column("title", lambda r: r.title),
    Column("effects", lambda r: r.effect_names),
    Column("source", lambda r: r.source),
)

OFFER_KEYS = (
    "system",
    "offer",
    "price_usd_per_gpu_hour",
    "low_usd_per_gpu_hour",
    "high_usd_per_gpu_hour",
    "default",
    "default_reserved",
    "term_days",
    "as_of",
    "age_days",
    "origin",
    "source",
)


def _item(key: str) -> Any:
    return lambda row: row[key]


OFFER_COLUMNS = tuple(Column(key, _item(key)) for key in OFFER_KEYS)


def _attributes(*names: str) -> tuple[Column, ...]:
    """A column per attribute, keyed by its name and holding its raw value."""
    return tuple(Column(name, attrgetter(name)) for name in names)


ESTIMATE_COLUMNS = (
    *_attributes(
        "system",
        "gpus",
        "precision",
        "mfu",
        "tokens_per_second_per_gpu",
        "goodput",
        "time_to_train_hours",
    ),
    Column("wait_hours", lambda e: e.time_breakdown_hours.get("wait", 0.0)),
    *_attributes(
        "time_to_result_hours",
        "gpu_hours",
        "price_usd_per_gpu_hour",
        "cost_usd",
        "cost_per_million_tokens_usd",
        "power_w_per_gpu_all_in",
        "energy_kwh",
        "joules_per_token",
        "household_years",
        "co2_tonnes",
    ),
    Column("memory_fits", lambda e: e.memory.fits),
    Column("memory_required_gib", lambda e: e.memory.required_gib),
)


def _est(attribute: str) -> Any:
    return lambda c: getattr(c.estimate, attribute) if c.estimate is not None else None


CANDIDATE_COLUMNS = (
    *_attributes("rank", "system", "feasible"),
    *(
        Column(name, _est(name))
        for name in (
            "gpus",
            "time_to_train_hours",
            "time_to_result_hours",
            "cost_usd",
            "cost_per_million_tokens_usd",
            "energy_kwh",
        )
    ),
    Column("score", lambda c: c.score),
)


def _range_columns(output: str) -> tuple[Column, ...]:
    def stat_of(stat: str) -> Any:
        return lambda r: getattr(getattr(r, output), stat)

    return tuple(Column(f"{output}_{stat}", stat_of(stat)) for stat in ("p10", "expected", "p90"))


RANGE_COLUMNS = (
    Column("system", lambda r: r.system),
    *_range_columns("time_to_result_hours"),
    *_range_columns("cost_usd"),
    *_range_columns("cost_per_million_tokens_usd"),
    *_range_columns("energy_kwh"),
)
