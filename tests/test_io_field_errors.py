"""A bad value in a scenario, catalog, settings or price file, or a flag checked against a field's type,
is described in the project's words (what is expected, the value given), never pydantic's."""

from __future__ import annotations

import datetime
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from advisor.cli.main import main
from advisor.io.toml_read import validation_messages


class Sample(BaseModel):
    model_config = ConfigDict(extra="forbid")

    share: float = Field(default=0.5, gt=0, le=1)
    power_w: float = Field(default=700, ge=1e-9)
    gpus: int = Field(default=8, ge=1, le=1_000_000)
    objective: Literal["cost", "time"] = "cost"
    name: str = Field(default="x", min_length=1, max_length=10)
    flag: bool = False
    table: dict[str, float] = {}
    items: list[str] = []
    day: datetime.date = datetime.date(2026, 1, 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"share": "lots"}, 'share: expected a number (got "lots")'),
        ({"share": [1]}, "share: expected a number (got a list)"),
        ({"share": {"a": 1}}, "share: expected a number (got a table)"),
        ({"share": datetime.date(2027, 1, 1)}, "share: expected a number (got 2027-01-01)"),
        ({"share": 0}, "share: must be above 0 (got 0)"),
        ({"share": 2}, "share: must be at most 1 (got 2)"),
        ({"power_w": -700}, "power_w: must be above 0 (got -700)"),
        ({"gpus": 8.5}, "gpus: expected a whole number (got 8.5)"),
        ({"gpus": "eight"}, 'gpus: expected a whole number (got "eight")'),
        ({"gpus": 2_000_000}, "gpus: must be at most 1M (got 2000000)"),
        ({"objective": "cheap"}, "objective: must be 'cost' or 'time' (got \"cheap\")"),
        ({"name": ""}, 'name: must not be empty (got "")'),
        ({"name": "x" * 11}, "name: too long (at most 10 characters)"),
        ({"name": 5}, 'name: expected text in quotes ("...") (got 5)'),
        ({"flag": "maybe"}, 'flag: expected true or false (got "maybe")'),
        ({"table": 3}, "table: expected a table ([name] or {key = value}) (got 3)"),
        ({"items": "h100"}, 'items: expected a list ([...]) (got "h100")'),
        ({"day": "soon"}, 'day: expected a date (YYYY-MM-DD) (got "soon")'),
    ],
)
def test_each_kind_of_bad_value_is_said_in_the_project_s_words(data, message):
    with pytest.raises(ValidationError) as refused:
        Sample.model_validate(data)
    [line] = validation_messages(refused.value, "plan.toml", "", Sample)
    assert line.startswith(f"plan.toml: {message}"), line
    assert "should" not in line and "Input" not in line


def test_a_long_bad_value_is_cut_in_the_message():
    with pytest.raises(ValidationError) as refused:
        Sample.model_validate({"share": "9" * 100_000})
    [line] = validation_messages(refused.value, "plan.toml", "", Sample)
    assert len(line) < 300 and "100,002 characters" in line


def test_a_flag_checked_against_its_field_s_type_is_said_in_the_same_words(capsys):
    argv = ["estimate", "--model", "llama2-7b", "--tokens", "1B", "--system", "h100", "--rental-offer", ""]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert 'argument --rental-offer: must not be empty (got "")' in err and "should" not in err


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("h100,x,2,lots,2026,src", 'line 2: low_usd_per_gpu_hour: expected a number (got "lots")'),
        ("h100,x,-2,,2026,src", 'line 2: price_usd_per_gpu_hour: must be above 0 (got "-2")'),
    ],
)
def test_a_bad_price_in_an_imported_file_is_said_in_the_same_words(row, said, capsys, tmp_path):
    (tmp_path / "overlay").mkdir()
    prices = tmp_path / "quotes.csv"
    prices.write_text(f"system,offer,price,low,as_of,source\n{row}\n", encoding="utf-8")
    assert main(["--catalog", str(tmp_path / "overlay"), "prices", "import", str(prices)]) == 2
    err = capsys.readouterr().err
    assert said in err and "should" not in err


@pytest.mark.parametrize("value", [1_000_000, 10_000_000, 36_500, 0.5, 1e13, 1e18, 3_600_000])
def test_a_file_s_range_reads_as_the_command_line_and_the_app_write_it(value):
    # A scenario file said "at most 1,000,000" where --gpus and the app said "up to 1M": one writer now.
    from advisor.core.model.inputs import format_bound
    from advisor.io.field_errors import bound

    assert bound(value) == format_bound(value)


def test_a_table_s_own_check_is_not_followed_by_got_a_table(capsys):
    # "... is 1e+14 tokens/s, more than the 1e+11 a serving rate may be (got a table)".
    from advisor.cli.main import main

    argv = ["estimate", "--model", "llama3-8b", "--kind", "inference", "--system", "h100"]
    assert main([*argv, "--requests-per-second", "1e7", "--output-tokens", "10M"]) == 2
    err = capsys.readouterr().err
    assert "more than the" in err and "got a table" not in err
