"""A decimal comma (`0,1`, `1,5`) is refused on every surface with the same words, never read as 1 or 15."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.cli.args import scenario_data_from_args
from advisor.cli.main import build_parser, main
from advisor.errors import ScenarioError
from advisor.io.scenario_files import load_scenario, scenario_from_data

ARGS = ["--model", "llama2-7b", "--tokens", "1B", "--gpus", "8", "--system", "h100"]
ADVICE = "use a dot for decimals"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("flag", "value", "dotted"),
    [
        ("--gpus", "0,1", "0.1"),
        ("--tokens", "1,5T", "1.5T"),
        ("--pue", "1,3", "1.3"),
        ("--mfu", "0,4", "0.4"),
        ("--price-per-gpu-hour", "h100=2,5", "2.5"),
        ("--price-per-gpu-hour", "h100=2,5, b200=3.9", "2.5"),
    ],
)
def test_a_flag_with_a_decimal_comma_is_refused_with_the_dotted_reading(flag, value, dotted, capsys):
    code, out, err = run(capsys, "estimate", *ARGS, flag, value)
    assert code == 2 and not out and "Traceback" not in err
    assert f"argument {flag}" in err and ADVICE in err and f"({dotted}?)" in err


@pytest.mark.parametrize(
    ("value", "owned"),
    [
        ("h100=2,048", {"h100": 2048}),
        ("h100=2,048,a100=1,000", {"h100": 2048, "a100": 1000}),
        ("h100=1,024, a100=8", {"h100": 1024, "a100": 8}),
    ],
)
def test_a_per_system_value_in_thousands_reads_as_one_number(value, owned):
    args = build_parser().parse_args(["recommend", *ARGS[:4], "--owned", value])
    assert scenario_from_data(scenario_data_from_args(args, {}, system=None)).assumptions.owned_gpus == owned


def test_a_scenario_value_with_a_decimal_comma_names_the_file_line_and_key(tmp_path: Path):
    path = tmp_path / "plan.toml"
    path.write_text(
        'schema = 1\n[workload]\nmodel = "llama2-7b"\ntokens = "1,5T"\ngpus = 8\n', encoding="utf-8"
    )
    with pytest.raises(ScenarioError) as refused:
        load_scenario(path)
    assert str(refused.value) == (
        f"{path}:4: workload.tokens: '1,5T': use a dot for decimals (1.5T?); a comma only separates "
        "thousands, in groups of three (2,048 or 1,000,000)"
    )


def test_a_price_file_with_a_decimal_comma_is_refused(capsys, tmp_path: Path):
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    sky = tmp_path / "vms.csv"
    sky.write_text('InstanceType,AcceleratorName,AcceleratorCount,Price\nx,H100,8,"12,5"\n', encoding="utf-8")
    code, _, err = run(capsys, "--catalog", str(overlay), "prices", "import", str(sky))
    assert code == 2 and "line 2: Price '12,5': use a dot for decimals (12.5?)" in err
    assert not (overlay / "prices.toml").exists()
