"""Pilot tests: a blank serving field says what applies to it (issue app24, item 1). Serving at a target
rate, a blank TPOT limit is held to the catalog's default and a blank headroom keeps the catalog's share
spare; the fields say so, with the catalog's numbers (a user catalog that changes them changes the text)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from tests.test_tui_helpers import (
    choose,
    fewer_collections,
    no_ranges,
    pilot_test,
    running,
    serve_70b_at_50k,
    settle,
    type_into,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


def _shown(app, key: str) -> str:  # type: ignore[no-untyped-def]
    """What a text field shows: its value, else its greyed placeholder."""
    field = app.main.form.row(key).control
    assert isinstance(field, Input)
    return field.value or str(field.placeholder)


@pilot_test
async def test_blank_serving_fields_say_the_default_that_applies_at_a_rate():
    async with running(answers={"kind": "inf"}) as (app, pilot):
        # a batch job (no rate): no TPOT limit applies, and there is no fleet to keep spare
        assert _shown(app, "tpot_limit_ms") == "none"
        assert _shown(app, "serving_headroom") == "none: no rate"
        assert _shown(app, "target_tokens_per_second") == "none: batch job"
        assert _shown(app, "ttft_limit_ms") == "none"
        await type_into(pilot, "#input-target_tokens_per_second", "50k")
        await settle(pilot)
        assert _shown(app, "tpot_limit_ms") == "default: 100 ms"
        assert _shown(app, "serving_headroom") == "default: 0.25"
        assert _shown(app, "ttft_limit_ms") == "none", "no TTFT limit applies by default"
        await type_into(pilot, "#input-tpot_limit_ms", "40")
        await settle(pilot)
        assert app.main.scenario.workload.tpot_limit_ms == 40
        await type_into(pilot, "#input-tpot_limit_ms", "")
        await settle(pilot)
        assert _shown(app, "tpot_limit_ms") == "default: 100 ms", "cleared, the default applies again"


@pilot_test
async def test_requests_per_second_show_the_rate_they_make():
    async with running(answers={"kind": "inf"}) as (app, pilot):
        await type_into(pilot, "#input-requests_per_second", "100")
        await settle(pilot)
        # 100 requests/s x 500 output tokens each
        assert _shown(app, "target_tokens_per_second") == "50k from req/s"
        assert _shown(app, "tpot_limit_ms") == "default: 100 ms"


@pilot_test
async def test_the_defaults_shown_are_the_catalogs(tmp_path: Path):
    (tmp_path / "economics.toml").write_text(
        '[serving]\ndefault_tpot_limit_ms = 80\ndefault_headroom = 0.1\nsource = "test [A]"\n'
        'as_of = "2026-01"\nassumption = true\n'
    )
    async with running(catalog_dir=tmp_path) as (app, pilot):
        await serve_70b_at_50k(pilot)
        assert _shown(app, "tpot_limit_ms") == "default: 80 ms"
        assert _shown(app, "serving_headroom") == "default: 0.1"


@pilot_test
async def test_the_kv_cache_default_says_which_format_applies():
    async with running(answers={"kind": "inf"}) as (app, pilot):
        field = app.main.form.row("kv_cache_precision").control
        assert field.value == "" and field.label == "default: BF16 (as weights)"
        await choose(pilot, "precision", "fp4")
        assert app.main.scenario.workload.precision == "fp4"
        assert field.label == "default: FP8 where the GPU has FP4", "the cache follows FP4 weights at FP8"
        await choose(pilot, "kv_cache_precision", "bf16")
        assert app.main.scenario.workload.kv_cache_precision == "bf16"
        assert field.label == "BF16"
