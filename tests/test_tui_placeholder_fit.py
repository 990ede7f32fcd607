"""Pilot test: every greyed placeholder fits its field at the smallest sizes the app is made for. At 80
columns a text field is 16 wide, and "required, e.g. 2048" showed as "required, e.g." (app29, item 1);
"none: no target rate" and "50k: requests × output" were cut the same way."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Input

from advisor.core.scenario import Scenario
from tests.test_tui_helpers import fewer_collections, no_ranges, pilot_test, running, until

pytestmark = pytest.mark.usefixtures(fewer_collections.__name__, no_ranges.__name__)


def _scenario(**workload: object) -> Scenario:
    given = {"model": "llama3-8b", "tokens": "1T", "gpus": 64, **workload}
    return Scenario.model_validate(
        {"schema": 1, "name": "t", "workload": {k: v for k, v in given.items() if v is not None}}
    )


SCENARIOS = {
    "pretrain": _scenario(),
    "finetune": _scenario(kind="finetune", tokens="2B"),
    "batch serving": _scenario(kind="inference", tokens="300B"),
    "serving at requests/s": _scenario(kind="inference", tokens=None, requests_per_second=3.3),
    "custom MoE": _scenario(model=None, custom={"params": "70B", "active_params": "7B"}),
}


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("name", list(SCENARIOS))
@pilot_test
async def test_every_placeholder_fits_its_field(name, size):
    async with running(size=size, scenario=SCENARIOS[name]) as (app, pilot):
        form = app.main.form
        await until(pilot, lambda: form.complete, "every question mounted")
        cut = {}
        for row in form.rows:
            field = row.control
            if isinstance(field, Input) and row.display and field.placeholder:
                room = field.content_region.width
                if cell_len(str(field.placeholder)) > room:
                    cut[row.question.key] = (str(field.placeholder), room)
        assert not cut, f"placeholders wider than their field: {cut}"
