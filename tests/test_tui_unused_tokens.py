"""The Tokens answer at a target rate (item 2 of app24): a rate makes the job a month of serving, so the
Tokens given are not used. The app dims the answer and says so (it stays editable: clearing the rate uses
it again); the command line warns when --tokens and a rate are both given for inference."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from advisor.cli.main import main
from advisor.tui.answers import UNUSED_TOKENS
from tests.test_tui_helpers import (
    choose,
    fewer_collections,
    no_ranges,
    pilot_test,
    plain,
    running,
    serve_70b_at_50k,
    settle,
    type_into,
)

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


def _note(app) -> str:  # type: ignore[no-untyped-def]
    """The note under the Tokens question, if it is shown."""
    row = app.main.form.row("tokens")
    note = row.query_one(".note", Static)
    return plain(note) if note.display and note.styles.display != "none" else ""


@pilot_test
async def test_tokens_are_dimmed_with_a_note_at_a_target_rate():
    async with running() as (app, pilot):
        row = app.main.form.row("tokens")
        await serve_70b_at_50k(pilot)
        assert row.has_class("-unused") and row.unused == UNUSED_TOKENS
        app.main.form.row("model").control.focus()  # the note shows without the focus
        await pilot.pause()
        assert "not used: a target rate sizes the fleet" in _note(app)
        assert row.control.value == "1T", "the answer is kept (clearing the rate uses it again)"
        await type_into(pilot, "#input-target_tokens_per_second", "")
        await settle(pilot)
        assert not row.has_class("-unused") and row.unused == ""
        assert app.main.scenario.workload.tokens == 1e12
        await choose(pilot, "kind", "pre")
        assert not row.has_class("-unused")


SERVE = ["estimate", "--model", "llama3-70b", "--kind", "inference", "--system", "h100"]


@pytest.mark.parametrize(
    ("extra", "warned"),
    [
        (["--tokens", "1T", "--target-tokens-per-second", "50k"], True),
        (["--tokens", "1T", "--requests-per-second", "100"], True),
        (["--target-tokens-per-second", "50k"], False),
        (["--tokens", "1T"], False),
    ],
    ids=["tokens and tokens/s", "tokens and requests/s", "rate alone", "tokens alone"],
)
def test_the_cli_warns_that_tokens_are_unused_at_a_rate(capsys, extra, warned):
    assert main([*SERVE, *extra]) == 0
    err = capsys.readouterr().err
    assert ("--tokens is not used: a target rate sizes the fleet" in err) is warned
