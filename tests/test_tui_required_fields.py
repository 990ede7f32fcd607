"""Pilot tests: a required field emptied says so in the app's words (new-user walk, app27 item 3). A
pretrain's Tokens emptied showed the serving placeholder ("a month at the target rate") and the core's
message, which names scenario keys (`kind = inference`, `target_tokens_per_second`); each message now
names the field as labelled on screen and says what to type."""

from __future__ import annotations

import re

import pytest

from advisor.core.scenario import INPUTS, Scenario
from advisor.tui.questions import QUESTION_BY_KEY
from advisor.tui.required import examples
from tests.test_tui_helpers import (
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    running,
    screen_lines,
    settle,
    type_into,
    until,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)

SCENARIO_WORDS = re.compile(
    "|".join(
        [r"\bworkload\.", r"\bkind =", *(re.escape(key.rsplit(".", 1)[-1]) for key in INPUTS if "_" in key)]
    )
)
"""What a scenario file or a flag calls an input (`workload.tokens`, `target_tokens_per_second`): words
the app never shows a user, who sees the question's label."""


def _scenario(**workload: object) -> Scenario:
    given = {"model": "llama3-8b", "tokens": "1T", "gpus": 64, **workload}
    return Scenario.model_validate(
        {"schema": 1, "name": "t", "workload": {k: v for k, v in given.items() if v is not None}}
    )


def _note(app, key: str) -> str:  # type: ignore[no-untyped-def]
    return plain(app.main.form.row(key).query_one(".note")).strip()


CASES = {
    # field emptied: (starting job, the words the message must hold)
    "tokens": ({}, ("Tokens to train on: enter a number such as 15T",)),
    "gpus": ({}, ("GPUs: enter a whole number from 1 to 1M", "2048")),
    "params": (
        {"model": None, "custom": {"params": "7B"}},
        ("Parameters: enter a number from 1M to 100T", "70B"),
    ),
    "target_tokens_per_second": (
        {"kind": "inference", "tokens": None, "target_tokens_per_second": "50k"},
        ("Tokens to generate", "Target tokens/s", "Target requests/s"),
    ),
    "output_tokens": ({"kind": "inference"}, ("Output tokens: enter a whole number from 1 to 10M",)),
}


@pytest.mark.parametrize("key", list(CASES))
@pilot_test
async def test_a_required_field_emptied_says_what_to_type_in_the_apps_words(key):
    workload, words = CASES[key]
    async with running(scenario=_scenario(**workload)) as (app, pilot):
        await until(pilot, lambda: key in app.main.form._rows, f"the {key} question mounted")
        await type_into(pilot, f"#input-{key}", "")
        await until(pilot, lambda: key in app.main.errors, f"{key} emptied refused")
        note = _note(app, key)
        for word in words:
            assert word in note, (word, note)
        assert not SCENARIO_WORDS.search(note), f"a scenario key in {note!r}"
        title = QUESTION_BY_KEY[key].title
        assert f"{title}: not accepted" in "\n".join(screen_lines(app)), "the headline names the field too"


@pytest.mark.parametrize("key", ["deadline_days", "budget_usd"])
@pilot_test
async def test_an_optional_field_emptied_is_none(key):
    async with running(scenario=_scenario()) as (app, pilot):
        await until(pilot, lambda: key in app.main.form._rows, f"the {key} question mounted")
        await type_into(pilot, f"#input-{key}", "30")
        await settle(pilot)
        await type_into(pilot, f"#input-{key}", "")
        await settle(pilot)
        assert key not in app.main.errors
        assert app.main.form.row(key).control.placeholder == "none"


@pilot_test
async def test_an_empty_tokens_field_of_a_training_job_does_not_show_the_serving_placeholder():
    async with running(scenario=_scenario()) as (app, pilot):
        await type_into(pilot, "#input-tokens", "")
        await until(pilot, lambda: "tokens" in app.main.errors, "Tokens emptied refused")
        placeholder = str(app.main.form.row("tokens").control.placeholder)
        assert "target rate" not in placeholder and "15T" in placeholder, placeholder


@pytest.mark.parametrize("key", list(CASES))
@pilot_test
async def test_every_required_field_emptied_shows_required_in_it(key):
    """Tokens emptied read "required, e.g. 15T" in the field; GPUs (and every other required field)
    emptied stayed blank, as if blank were an answer. Each field the app refuses blank now says so, in
    words that fit at 80 columns ("enter e.g. 2048"; `test_tui_placeholder_fit`)."""
    workload, _words = CASES[key]
    async with running(scenario=_scenario(**workload)) as (app, pilot):
        await until(pilot, lambda: key in app.main.form._rows, f"the {key} question mounted")
        await type_into(pilot, f"#input-{key}", "")
        await until(pilot, lambda: key in app.main.errors, f"{key} emptied refused")
        placeholder = str(app.main.form.row(key).control.placeholder)
        such = examples(QUESTION_BY_KEY[key].hint)
        assert placeholder.startswith("enter e.g. " if such or key == "tokens" else "required"), placeholder
        if such and key != "tokens":  # Tokens gives the job's own example (tested above)
            assert placeholder == f"enter e.g. {such.split(' or ')[0]}", placeholder


@pilot_test
async def test_the_headline_names_a_refused_field_as_the_form_labels_it():
    """Letters in Deadline: the form's row reads "Deadline (days)" but the headline said "Deadline, days:
    not accepted" (new-user walk), the declaration's label; two refused fields read as three."""
    async with running(scenario=_scenario()) as (app, pilot):
        await until(pilot, lambda: "deadline_days" in app.main.form._rows, "the Deadline question mounted")
        await type_into(pilot, "#input-deadline_days", "abc")
        await until(pilot, lambda: "deadline_days" in app.main.errors, "letters in Deadline refused")
        title = QUESTION_BY_KEY["deadline_days"].title
        assert title == "Deadline (days)"
        await until(pilot, lambda: f"{title}: not accepted" in "\n".join(screen_lines(app)), "the headline")
        assert "Deadline, days" not in "\n".join(screen_lines(app))
