"""The typed Python API (advisor.api, docs/api.md) and `advisor examples`."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import advisor
from advisor import api
from advisor.cli.main import main
from advisor.errors import AdvisorError, ScenarioError, UsageError

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ("estimate", "recommend", "report", "build_scenario", "advise")


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.mark.parametrize("index", range(len(python_blocks((ROOT / "docs/api.md").read_text()))))
def test_docs_examples_run(tmp_path: Path, index: int) -> None:
    code = python_blocks((ROOT / "docs/api.md").read_text())[index]
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip()


@pytest.mark.parametrize("name", PUBLIC)
def test_public_signatures_are_typed_without_any(name: str) -> None:
    function = getattr(api, name)
    hints = typing.get_type_hints(function)
    parameters = inspect.signature(function).parameters
    assert set(parameters) <= set(hints) and "return" in hints, name
    assert all(hint is not typing.Any and "Any" not in repr(hint) for hint in hints.values()), hints


def test_report_is_callable_once_the_report_package_is_imported(tmp_path: Path) -> None:
    # `advisor.report` is also the renderers' package: imported, it takes the attribute's place, and
    # forwards calls to `advisor.api.report`.
    import advisor.report.formats

    written = advisor.report(advisor.build_scenario("llama3-8b", "1T"), tmp_path / "r.md")
    assert written.read_text().startswith("#")


def test_import_is_cheap() -> None:
    code = (
        "import sys, advisor; print(sorted(m for m in sys.modules if m.startswith(('advisor.', 'pydantic'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_estimate_matches_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--model", "llama3-70b", "--tokens", "15T", "--gpus", "2048", "--precision", "fp8"]
    assert main(["estimate", *flags, "--system", "h100", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    est = advisor.estimate(model="llama3-70b", tokens="15T", gpus=2048, precision="fp8", system="h100")
    assert est.cost_usd == pytest.approx(cli["cost_usd"])
    assert est.time_to_train_hours == pytest.approx(cli["time_to_train_hours"])


def test_human_inputs_and_per_system_overrides() -> None:
    est = advisor.estimate(
        "llama3-8b", "1T", system="h100", gpus="2k", price_usd_per_gpu_hour="$2.10", mfu=0.4, pue="1.2"
    )
    assert (est.gpus, est.price_usd_per_gpu_hour, est.mfu) == (2000, 2.10, 0.4)


def test_custom_model_by_size() -> None:
    est = advisor.estimate(params="13B", tokens="26B", system="a100", gpus=8)
    assert est.model.params_total == 13e9 and est.model.id == "custom"


def test_scenario_file_with_overrides(tmp_path: Path) -> None:
    path = ROOT / "examples" / "llama3-70b-pretrain.toml"
    scenario = advisor.build_scenario(scenario=path, gpus=1024)
    assert scenario.workload.gpus == 1024 and scenario.workload.model == "llama3-70b"
    rec = advisor.recommend(scenario=path, gpus=1024)
    assert rec.winner is not None


@pytest.mark.parametrize(
    ("inputs", "error", "message"),
    [
        ({"gpu": 8}, UsageError, "unknown input 'gpu'; did you mean 'gpus'?"),
        ({"tokens": "-5T"}, ScenarioError, "workload.tokens"),
        ({"precision": "fp16"}, ScenarioError, "workload.precision"),
        ({"model": "llama3-7b"}, AdvisorError, "unknown model 'llama3-7b'"),
        ({"system": "h1000"}, AdvisorError, "h1000"),
    ],
)
def test_bad_input_names_the_key(inputs: dict, error: type[Exception], message: str) -> None:
    kwargs = {"model": "llama3-8b", "tokens": "1T", "system": "h100", **inputs}
    with pytest.raises(error, match=re.escape(message)):
        advisor.estimate(**kwargs)


def test_report_writes_by_extension_and_never_clobbers(tmp_path: Path) -> None:
    scenario = advisor.build_scenario("llama3-8b", "1T", gpus=64)
    written = advisor.report(scenario, tmp_path / "plan.json")
    assert json.loads(written.read_text())["scenario"]["workload"]["gpus"] == 64
    with pytest.raises(AdvisorError, match="already exists"):
        advisor.report(scenario, written)
    assert advisor.report(ROOT / "examples" / "7b-finetune.toml", written, force=True) == written
    with pytest.raises(UsageError, match="unknown report format 'pdf'"):
        advisor.report(scenario, tmp_path / "plan.pdf")


def test_advise_takes_a_core_workload() -> None:
    catalog = advisor.load_catalog(user_dir=False)
    workload = advisor.Workload(model=catalog.model("llama2-13b"), tokens=26e9, gpus=8)
    assert api.advise(workload, catalog).winner in catalog.systems


# --- advisor examples -----------------------------------------------------------------------------


def test_examples_lists_every_shipped_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples"]) == 0
    names = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    shipped = sorted(
        p.relative_to(ROOT / "examples").with_suffix("").as_posix()
        for p in (ROOT / "examples").rglob("*.toml")
    )
    assert names == shipped


def test_examples_copies_and_never_clobbers(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["examples", "llama3-70b-pretrain"]) == 0
    copied = tmp_path / "llama3-70b-pretrain.toml"
    assert copied.read_bytes() == (ROOT / "examples" / "llama3-70b-pretrain.toml").read_bytes()
    copied.write_text("mine")
    assert main(["examples", "llama3-70b-pretrain"]) == 2
    assert "already exists; use --force" in capsys.readouterr().err and copied.read_text() == "mine"
    assert main(["examples", "llama3-70b-pretrain", "--force"]) == 0
    assert copied.read_text().startswith("# Scenario file")
    assert main(["examples", "compare/rent-h100-4-day-run", "other.toml"]) == 0
    assert (tmp_path / "other.toml").is_file()
    assert main(["examples", "llama3-70b-pretrian"]) == 2
    assert "did you mean 'llama3-70b-pretrain'?" in capsys.readouterr().err
