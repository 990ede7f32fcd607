"""The note that other systems' MFU figures are of a newer release belongs where systems are compared
(recommend, compare, an estimate of several systems), never on an estimate of one system."""

from __future__ import annotations

import json

from advisor.cli.main import main
from advisor.core.model.mfu import resolve_mfu

NOTE = "other systems have dense figures up to release"
RUN = ["--model", "llama3-70b", "--tokens", "1T", "--gpus", "256", "--precision", "fp8"]


def _estimates(capsys, *flags: str) -> list[dict]:
    assert main(["estimate", *RUN, *flags, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return data.get("estimates", [data])


def test_the_mfu_of_one_system_alone_has_no_note_on_other_systems(catalog):
    model = catalog.model("llama3-70b")
    assert NOTE in resolve_mfu(catalog, "b200", "fp8", model, 256).basis
    assert NOTE not in resolve_mfu(catalog, "b200", "fp8", model, 256, compared=False).basis


def test_an_estimate_of_one_system_has_no_note_and_of_all_systems_has_it(capsys):
    [alone] = _estimates(capsys, "--system", "b200")
    assert NOTE not in alone["mfu_basis"]["basis"]
    assert main(["estimate", *RUN, "--system", "b200"]) == 0
    assert NOTE not in capsys.readouterr().out
    side_by_side = {e["system"]: e for e in _estimates(capsys, "--system", "all")}
    assert NOTE in side_by_side["b200"]["mfu_basis"]["basis"]


def test_a_recommendation_compares_systems_and_keeps_the_note(capsys):
    assert main(["recommend", *RUN, "--json"]) in (0, 1)
    candidates = {c["system"]: c for c in json.loads(capsys.readouterr().out)["candidates"]}
    assert NOTE in candidates["b200"]["estimate"]["mfu_basis"]["basis"]


def test_the_python_api_s_estimate_of_one_system_has_no_note():
    import advisor

    est = advisor.estimate(model="llama3-70b", tokens="1T", gpus=256, precision="fp8", system="b200")
    assert NOTE not in est.mfu_basis.basis
