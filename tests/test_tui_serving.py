"""Pilot tests: serving asked as a serving question (issue 12.5, app side) and the KV cache choice
(issue 13): the serving section shows for an inference job only, and the answer shows the plan."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Static

from advisor.core.decision.headline import replica_layout
from advisor.present import numbers
from advisor.tui.widgets.choice_field import ChoiceField
from advisor.tui.widgets.drawn_when_shown import PENDING_NOTE, PendingNote
from advisor.tui.widgets.serving_view import plan_row
from tests.test_tui_helpers import (
    choose,
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    running,
    serve_70b_at_50k,
    settle,
    show_tab,
    type_into,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

SERVING_KEYS = (
    "target_tokens_per_second",
    "requests_per_second",
    "prompt_tokens",
    "output_tokens",
    "ttft_limit_ms",
    "tpot_limit_ms",
    "kv_cache_precision",
)


@pilot_test
async def test_the_serving_section_shows_for_inference_only():
    async with running() as (app, pilot):
        form = app.main.form
        titles = [plain(t).strip() for t in form.query(".section-title").results(Static) if t.display]
        assert not any("Serving" in t for t in titles)
        assert all(not form.row(key).display for key in SERVING_KEYS)
        await choose(pilot, "kind", "inf")
        assert app.main.scenario.workload.kind == "inference"
        assert all(form.row(key).display and not form.row(key).disabled for key in SERVING_KEYS)
        titles = [plain(t).strip() for t in form.query(".section-title").results(Static) if t.display]
        assert titles[:3] == ["1  Model", "2  Job", "3  Serving"]
        assert titles[3] == "4  Scale and time"
        await choose(pilot, "kind", "pre")
        assert not form.row("ttft_limit_ms").display
        titles = [plain(t).strip() for t in form.query(".section-title").results(Static) if t.display]
        assert titles[2] == "3  Scale and time", "the sections shown are numbered without a gap"


@pilot_test
async def test_the_kv_cache_choice_says_default_and_can_go_back_to_it():
    async with running(size=(80, 24), answers={"kind": "inf"}) as (app, pilot):
        field = app.main.form.row("kv_cache_precision").control
        assert isinstance(field, ChoiceField)
        assert field.label.startswith("default"), f"shows {field.label!r}"
        assert "default" in plain(field)
        field.focus()
        await pilot.press("right")
        await settle(pilot)
        assert app.main.scenario.workload.kv_cache_precision == "bf16"
        await pilot.press("left")
        await settle(pilot)
        assert app.main.scenario.workload.kv_cache_precision is None
        assert app.main.errors == {}


@pilot_test
async def test_a_target_rate_typed_gives_the_serving_plan_per_system():
    async with running(answers={"model": "llama 3 70", "kind": "inf"}) as (app, pilot):
        assert "Serving" not in [str(t.label) for t in app.screen.query("Tab") if not t.display]
        await type_into(pilot, "#input-target_tokens_per_second", "50k")
        await type_into(pilot, "#input-ttft_limit_ms", "2000")
        await settle(pilot)
        workload = app.main.scenario.workload
        assert workload.target_tokens_per_second == 50_000 and workload.ttft_limit_ms == 2000
        headline = plain(app.screen.query_one("#headline"))
        winner = app.main.advice.winner
        serving = winner.estimate.serving
        # One headline, about the fleet for the rate: no batch figures beside it to disagree with.
        layout = replica_layout(serving.replicas, serving.replica_gpus)
        fleet = f"{winner.estimate.gpus:,}× {winner.system} ({layout})"
        assert f"Rent {fleet} to serve 50k tokens/s · " in headline
        assert headline.count("/month") == 1 and headline.count("/1M") == 1
        assert "/1M output tokens" in headline and "to serve the tokens" not in headline
        assert f"{numbers.money(serving.usd_per_month)}/month" in headline
        assert "(limit 100 ms, the default for chat)" in headline
        await show_tab(pilot, "serving")
        note = plain(app.screen.query_one("#serving-note", Static))
        assert "Fleet for 50k generated tokens/s" in note
        assert "the cluster each system serves" not in note  # the job is the fleet: one GPU count
        spare = app.main.advice.recommendation.candidates[0].estimate.serving.headroom
        assert spare and f"Headroom: {numbers.percent(spare, 0)} of each fleet kept spare" in note
        table = app.screen.query_one("#serving-table", DataTable)
        assert table.row_count >= 5
        for candidate in app.main.advice.recommendation.candidates:
            serving = candidate.estimate.serving if candidate.estimate else None
            if serving is None:
                continue
            row = [str(cell) for cell in table.get_row(candidate.system)]
            replicas, _, per_replica = row[1].partition(" = ")[0].partition(" × ")
            assert int(replicas.replace(",", "")) * int(per_replica) == serving.gpus_for_target
            assert row[2].endswith("¢") or row[2].startswith("$")  # $/1M output tokens
            assert row[3].startswith("$")  # $/month
            assert row[5].split()[0] in ("memory", "TPOT", "TTFT", "throughput", "batch", "no")


@pilot_test
async def test_the_serving_tab_goes_when_the_job_is_not_inference():
    async with running() as (app, pilot):
        tabs = app.screen.query_one("#tabs")
        assert not tabs.get_tab("serving").display
        await choose(pilot, "kind", "inf")
        assert tabs.get_tab("serving").display
        app.main.show_tab("serving")
        await pilot.pause()
        await choose(pilot, "kind", "pre")
        assert not tabs.get_tab("serving").display and tabs.active != "serving"


@pilot_test
async def test_the_serving_questions_drive_the_one_headline():
    # A rate makes the headline the fleet's month; a TPOT limit typed replaces the default for chat;
    # the tokens may then be left blank (a month of serving), which a training job refuses.
    async with running() as (app, pilot):
        await serve_70b_at_50k(pilot)
        first = plain(app.screen.query_one("#headline"))
        assert "to serve 50k tokens/s · " in first and "(limit 100 ms, the default for chat)" in first
        await type_into(pilot, "#input-tpot_limit_ms", "40")
        await settle(pilot)
        tight = plain(app.screen.query_one("#headline"))
        assert "(limit 40 ms)" in tight and "default" not in tight.splitlines()[1]
        assert app.main.advice.winner.estimate.serving.tpot_ms <= 40
        await type_into(pilot, "#input-tokens", "")
        await settle(pilot)
        assert app.main.errors == {} and app.main.scenario.workload.tokens is None
        assert "Wh a month" in plain(app.screen.query_one("#headline"))
        await choose(pilot, "kind", "pre")
        await settle(pilot)
        assert any("Tokens to train on" in str(e) for e in app.main.errors.values()), app.main.errors


@pilot_test
async def test_the_serving_tab_says_computing_until_drawn_never_empty_or_stale():
    # The Serving tab appears with an inference job's answer; chosen, its view is drawn a frame or two
    # later. Those frames once showed the bare column headings (empty), or the plan of the answer
    # before (stale). Now they show the view's cover note, and every frame after shows this answer.
    async with running(answers={"kind": "inf"}) as (app, pilot):
        view = app.screen.query_one("#serving-view")
        table = app.screen.query_one("#serving-table", DataTable)

        async def frames_show_cover_or_this_answer() -> None:
            drawn = 0
            for _ in range(8):
                if not view.region.area:  # not laid out on screen yet
                    await pilot.pause(0)
                    continue
                widget, _ = app.screen.get_widget_at(view.region.x + 1, view.region.y + 1)
                if view.loading:
                    assert isinstance(widget, PendingNote) and plain(widget) == PENDING_NOTE
                else:
                    expected = [
                        plan_row(c.estimate, c.estimate.serving)[:2]
                        for c in app.main.advice.recommendation.candidates
                        if c.estimate and c.estimate.serving
                    ]
                    shown = [[str(cell) for cell in table.get_row_at(i)[:2]] for i in range(table.row_count)]
                    assert shown == expected
                    drawn += 1
                await pilot.pause(0)
            assert drawn, "the view was drawn"

        app.main.show_tab("serving")
        await frames_show_cover_or_this_answer()
        # A new answer while another tab is shown: back on Serving, not the plan before.
        app.main.show_tab("why")
        await pilot.pause()
        await type_into(pilot, "#input-target_tokens_per_second", "50k")
        await settle(pilot)
        assert app.main.scenario.workload.target_tokens_per_second == 50_000
        app.main.show_tab("serving")
        await frames_show_cover_or_this_answer()


@pilot_test
async def test_the_serving_headroom_asked_in_the_form_resizes_the_fleet():
    async with running() as (app, pilot):
        await serve_70b_at_50k(pilot)
        spared = app.main.advice.winner.estimate.serving
        await type_into(pilot, "#input-serving_headroom", "0")
        await settle(pilot)
        assert app.main.scenario.workload.serving_headroom == 0
        exact = app.main.advice.winner.estimate.serving
        assert exact.headroom == 0 and exact.utilisation > spared.utilisation
        await show_tab(pilot, "serving")
        assert "Headroom: none" in plain(app.screen.query_one("#serving-note", Static))


@pilot_test
async def test_the_weights_choice_says_the_released_format_and_a_precision_chosen_wins():
    async with running(answers={"model": "gpt-oss-120b", "kind": "inf"}) as (app, pilot):
        field = app.main.form.row("weight_precision").control
        assert isinstance(field, ChoiceField)
        assert field.label == "default: as released, FP4 (MXFP4)", f"shows {field.label!r}"
        assert "precision" not in app.main.scenario.workload.model_fields_set
        serving = app.main.advice.winner.estimate.serving
        assert serving.weight_precision == "fp4" and serving.weights_as_released
        # A precision chosen wins (BF16, already shown, is chosen for the weights in their own question)
        await choose(pilot, "precision", "FP8")
        assert "precision" in app.main.scenario.workload.model_fields_set
        assert app.main.form.row("weight_precision").control.label == "default: FP8 (as precision)"
        serving = app.main.advice.winner.estimate.serving
        assert serving.weight_precision == "fp8" and not serving.weights_as_released
        await choose(pilot, "weight_precision", "BF16")
        assert app.main.advice.winner.estimate.serving.weight_precision == "bf16"
