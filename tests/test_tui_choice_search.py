"""Typing in a choice's list (app29, item 3). Typing `70` in the model list jumped to MPT 70B, the first
label with a word starting `70` in size order, where a user typing 70 on Llama 3 8B likely meant Llama 3
70B, and nothing showed the other 70B models. The list now filters to the options whose words start
with what is typed (shown in its border), highlights the current option's family among them, and
Backspace takes a character back."""

from __future__ import annotations

import pytest
from textual.widgets import OptionList

from advisor.tui.option_search import best_match, matching
from advisor.tui.questions import QUESTION_BY_KEY, QUESTIONS
from advisor.tui.screens.choice_picker import NO_MATCH, ChoicePicker
from tests.conftest import shipped_catalog
from tests.test_tui_helpers import fewer_collections, no_ranges, pilot_test, running, settle, until


def _models() -> tuple[tuple[str, str], ...]:
    from advisor.tui.widgets.questions_form import model_choices

    return model_choices(shipped_catalog())


def _values(found: list[int]) -> list[str]:
    models = _models()
    return [models[index][1] for index in found]


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("70", ["mpt-70b", "llama2-70b", "llama3-70b"]),
        ("llama 3 70", ["llama3-70b"]),
        ("llama3-70", ["llama3-70b"]),  # the id, punctuation ignored
        ("LLAMA 3 7", ["llama3-70b"]),  # case ignored; `3` starts only Llama 3's word
        ("8x", ["mixtral-8x7b", "mixtral-8x22b"]),
        ("oss", ["gpt-oss-20b", "gpt-oss-120b"]),  # a hyphenated part starts a word too
        ("a3b", ["qwen3-30b-a3b"]),
        ("cust", ["custom"]),
        ("zzz", []),
    ],
)
def test_typing_filters_to_the_options_whose_words_start_with_it(typed, expected):
    assert _values(matching(_models(), typed)) == expected


@pytest.mark.parametrize(
    ("current", "typed", "highlighted"),
    [
        ("llama3-8b", "70", "llama3-70b"),  # the family of the current model
        ("llama2-7b", "70", "llama2-70b"),
        ("mpt-7b", "70", "mpt-70b"),
        ("qwen3-8b", "70", "mpt-70b"),  # no 70B in the family: the first match
        ("llama3-70b", "7", "llama3-70b"),  # the current option, when it matches
        ("custom", "32", "qwen2.5-32b"),
    ],
)
def test_the_match_highlighted_is_the_current_option_or_its_family(current, typed, highlighted):
    models = _models()
    found = matching(models, typed)
    best = best_match(models, found, current)
    assert best is not None and models[best][1] == highlighted


def test_nothing_found_highlights_nothing():
    assert best_match(_models(), [], "llama3-8b") is None


def _shown(app) -> list[str]:  # type: ignore[no-untyped-def]
    choices = app.screen.query_one("#choices", OptionList)
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


@pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)
@pilot_test
async def test_typing_70_in_the_model_list_shows_the_70b_models_and_picks_llama_3_70b():
    async with running(size=(80, 24)) as (app, pilot):
        app.main.form.focus_question("model")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoicePicker), "the model list open")
        await pilot.press("7", "0")
        assert _shown(app) == ["MPT 70B (64.8B)", "Llama 2 70B (68.98B)", "Llama 3 70B (70.55B)"]
        assert "70" in str(app.screen.query_one("#choices", OptionList).border_title)
        await pilot.press("x")
        assert _shown(app) == [NO_MATCH]
        await pilot.press("enter")  # nothing to pick: the list stays open
        assert isinstance(app.screen, ChoicePicker)
        await pilot.press("backspace")
        await pilot.press("enter")
        await settle(pilot)
        assert app.main.scenario.workload.model == "llama3-70b"


@pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)
@pilot_test
async def test_markup_typed_in_a_list_is_shown_as_typed():
    async with running(size=(80, 24)) as (app, pilot):
        app.main.form.focus_question("model")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoicePicker), "the model list open")
        await pilot.press(*"[b]x[/]")
        title = app.screen.query_one("#choices", OptionList)._border_title
        assert title is not None and title.plain.startswith("[b]x[/]")
        await pilot.press("escape")
        assert app.main.scenario.workload.model == "llama3-8b"


@pytest.mark.parametrize(
    ("key", "typed", "expected"),
    [
        ("kind", "serv", "inference"),  # app30, item 2: serving is inference
        ("kind", "serving", "inference"),
        ("kind", "sft", "finetune"),
        ("kind", "train", "pretrain"),
        ("pricing", "buy", "own"),
        ("pricing", "cloud", "rent"),
        ("objective", "cheap", "cost"),
        ("objective", "fast", "time"),
    ],
)
def test_a_choice_is_found_by_the_words_declared_for_it(key, typed, expected):
    question = QUESTION_BY_KEY[key]
    found = matching(question.choices, typed, question.choice_words)
    assert [question.choices[index][1] for index in found] == [expected]


def test_every_declared_choice_word_names_a_choice_of_its_question():
    for question in QUESTIONS:
        values = {value for _, value in question.choices}
        assert set(question.choice_words) <= values, f"{question.key}: {set(question.choice_words) - values}"


@pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)
@pilot_test
async def test_typing_serv_in_the_job_list_picks_inference():
    async with running(size=(80, 24), answers={"kind": "serv"}) as (app, _pilot):
        assert app.main.scenario.workload.kind == "inference"
