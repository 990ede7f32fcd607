"""A currency sign is read on money only and a percent sign on a fraction only (50% is 0.5), by the one
parser (`parse_number` with the number's kind), on every surface: flags, scenario files and the app's
answers. `$5` tokens or days were read as 5; `50%` was refused as not a number even for a fraction."""

from __future__ import annotations

import re

import pytest

from advisor.cli.main import main
from advisor.core.model.units import UnreadNumber, parse_number
from advisor.io.scenario_files import load_scenario
from advisor.tui.answers import AnswerError, apply_answer, new_scenario
from advisor.tui.settings import Settings

JOB = ["recommend", "--model", "llama3-8b", "--json"]
MONEY = "a currency sign ($) on a number that is not money"
SHARE = "a percent sign (%) on a number that is not a share"


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("$2.10", "money", 2.1),
        ("$250k", "money", 250e3),
        ("50%", "fraction", 0.5),
        ("12.5 %", "fraction", 0.125),
    ],
)
def test_a_sign_the_number_takes_is_read(text, kind, value):
    assert parse_number(text, kind) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "kind", "said"),
    [("$5", "count", MONEY), ("$0.5", "fraction", MONEY), ("50%", "count", SHARE), ("50%", "money", SHARE)],
)
def test_a_sign_the_number_does_not_take_is_refused(text, kind, said):
    with pytest.raises(UnreadNumber, match=re.escape(said)):
        parse_number(text, kind)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--tokens", "$5"], f"--tokens: '$5': {MONEY}"),
        (["--tokens", "1T", "--deadline-days", "$30"], f"--deadline-days: '$30': {MONEY}"),
        (["--tokens", "1T", "--gpus", "50%"], f"--gpus: '50%': {SHARE}"),
        (["--tokens", "1T", "--budget-usd", "5%"], f"--budget-usd: '5%': {SHARE}"),
    ],
)
def test_a_flag_refuses_a_sign_its_number_does_not_take(argv, said, capsys):
    code = main([*JOB, *argv])
    out, err = capsys.readouterr()
    assert code == 2 and not out and f"argument {said}" in err


def test_a_fraction_flag_reads_a_percentage(tmp_path, capsys):
    saved = tmp_path / "saved.toml"
    argv = [*JOB, "--tokens", "1T", "--deadline-days", "60", "--sizing-margin", "20%", "--mfu", "h100=45%"]
    code = main([*argv, "--price-per-gpu-hour", "$2.10", "--goodput", "90%", "--save", str(saved)])
    assert code in (0, 1)
    scenario = load_scenario(saved)
    assert scenario.constraints.sizing_margin == 0.2 and scenario.assumptions.mfu == {"h100": 0.45}
    assert scenario.assumptions.goodput == 0.9 and scenario.assumptions.price_usd_per_gpu_hour == {"*": 2.1}


def test_a_scenario_file_refuses_a_sign_at_its_key_and_reads_a_percentage(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('schema = 1\n[workload]\nmodel = "llama3-8b"\ntokens = "$5"\n')
    assert main(["estimate", str(path)]) == 2
    assert f"{path}:4: workload.tokens: '$5': {MONEY}" in capsys.readouterr().err
    path.write_text(
        'schema = 1\n[workload]\nmodel = "llama3-8b"\ntokens = "1T"\nkind = "finetune"\n'
        'finetune_method = "lora"\nlora_trainable_fraction = "2%"\n[assumptions]\nmfu = { h100 = "40%" }\n'
    )
    scenario = load_scenario(path)
    assert scenario.workload.lora_trainable_fraction == 0.02 and scenario.assumptions.mfu == {"h100": 0.4}


@pytest.mark.parametrize(
    ("key", "answer", "said"),
    [("tokens", "$5", MONEY), ("deadline_days", "$30", MONEY), ("gpus", "50%", SHARE)],
)
def test_the_app_refuses_a_sign_its_question_does_not_take(catalog, key, answer, said):
    with pytest.raises(AnswerError, match=re.escape(f"'{answer}': {said}")):
        apply_answer(new_scenario(catalog, Settings()), catalog, key, answer)


def test_the_app_reads_a_percentage_for_a_fraction(catalog):
    scenario = apply_answer(new_scenario(catalog, Settings()), catalog, "deadline_days", "60")
    assert apply_answer(scenario, catalog, "sizing_margin", "20%").constraints.sizing_margin == 0.2
    assert apply_answer(scenario, catalog, "mfu", "45%").assumptions.mfu == {"*": 0.45}
