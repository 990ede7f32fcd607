"""`advisor recommend` ranges, `advisor sensitivity`, sizing to a deadline, serving flags."""

from __future__ import annotations

import json

from advisor.cli.main import main
from tests.golden.shown import agrees

BASE = ["--model", "llama2-13b", "--tokens", "26e9", "--gpus", "8", "--precision", "fp8"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_recommend_json_has_ranges_and_robustness(capsys):
    code, out, _ = run(capsys, "recommend", *BASE, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data["ranges"]) == {c["system"] for c in data["candidates"]}
    h100 = data["ranges"]["h100"]["cost_usd"]
    assert h100["low"] <= h100["p10"] <= h100["expected"] <= h100["p90"] <= h100["high"]
    assert data["robustness"]["winner"] == data["winner"] and "samples" in data["robustness"]["verdict"]


def test_recommend_human_output_shows_ranges(capsys):
    code, out, _ = run(capsys, "recommend", *BASE)
    assert code == 0 and "P10–P90" in out and "robustness" in out


def test_sensitivity_human_and_json(capsys):
    code, out, _ = run(capsys, "sensitivity", *BASE, "--samples", "200", "--json")
    data = json.loads(out)
    winner = data["robustness"]["winner"]
    code, out, _ = run(capsys, "sensitivity", *BASE, "--samples", "200")
    assert code == 0
    assert f"what moves {winner}'s cost most" in out and "break-even points" in out
    assert "rents above $" in out
    assert {"ranges", "robustness", "tornado", "break_evens", "speed_for_price"} <= set(data)
    assert data["break_evens"][0]["threshold"] > data["break_evens"][0]["current"]


def test_widen_flag_widens(capsys):
    _, narrow, _ = run(capsys, "sensitivity", *BASE, "--samples", "100", "--json")
    _, wide, _ = run(capsys, "sensitivity", *BASE, "--samples", "100", "--widen", "2", "--json")
    n, w = json.loads(narrow)["ranges"]["h100"]["cost_usd"], json.loads(wide)["ranges"]["h100"]["cost_usd"]
    assert w["high"] > n["high"] and w["low"] < n["low"]


def test_size_to_deadline(capsys):
    code, out, _ = run(
        capsys,
        "recommend",
        "--model",
        "llama3-70b",
        "--tokens",
        "15T",
        "--precision",
        "fp8",
        "--deadline-days",
        "60",
        "--size-to-deadline",
        "--json",
    )
    data = json.loads(out)
    assert code == 0
    assert any(cand["feasible"] for cand in data["candidates"])
    for cand in data["candidates"]:
        est = cand["estimate"]
        assert est["gpus"] > 8 and est["gpus_paid"] <= est["capacity_gpus"]
        if cand["feasible"]:  # sized with the default 10% margin: by 90% of the deadline, or at capacity
            assert est["time_to_result_hours"] <= 60 * 24
            assert est["time_to_result_hours"] <= 0.9 * 60 * 24 or est["gpus"] == est["capacity_gpus"]
        else:  # compared at the most GPUs that can be rented, which still miss the deadline
            assert est["gpus"] == est["capacity_gpus"] and est["time_to_result_hours"] > 60 * 24
    code, _, err = run(capsys, "recommend", *BASE, "--size-to-deadline")
    assert code == 2 and "size_to_deadline needs constraints.deadline_days (--deadline-days)" in err


def test_serving_flags(capsys):
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        "llama3-70b",
        "--kind",
        "inference",
        "--tokens",
        "1e9",
        "--gpus",
        "16",
        "--target-tokens-per-second",
        "50k",
        "--system",
        "h100",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["serving"]["gpus_for_target"] % data["serving"]["replica_gpus"] == 0
    assert "range" in data and data["range"]["cost_usd"]["low"] <= data["cost_usd"]
    code, out, _ = run(
        capsys,
        "estimate",
        "--model",
        "llama3-70b",
        "--kind",
        "inference",
        "--tokens",
        "1e9",
        "--gpus",
        "16",
        "--target-tokens-per-second",
        "50k",
        "--system",
        "h100",
    )
    assert "GPUs for target rate" in out


def test_recommend_for_a_target_rate_gives_each_systems_fleet_and_prices(capsys):
    # Serving a 70B model at 50k tokens/s: replicas x GPUs, $/1M tokens and $/month per system.
    argv = ("--model", "llama3-70b", "--kind", "inference", "--tokens", "1e9", "--precision", "fp8")
    code, out, _ = run(capsys, "recommend", *argv, "--target-tokens-per-second", "50k")
    assert code == 0
    table = out.split("\nserving\n", 1)[1].split("fleet: the GPUs to rent to sustain 50k tokens/s")[0]
    header, _, *rows = [line.split() for line in table.strip().splitlines()]
    assert header[:2] == ["system", "fleet"] and header[-3:] == ["$/month", "$/1M", "out"]
    # one GPU count: the job at a target rate is the fleet, so the headline and the table agree
    lines = out.splitlines()
    assert lines[0].startswith("Rent ") and " to serve 50k tokens/s: " in lines[0]
    assert not any(line.startswith(("To serve", "GPUs: the cluster")) for line in lines)
    code, out, _ = run(capsys, "recommend", *argv, "--target-tokens-per-second", "50k", "--json")
    plans = {c["system"]: c["estimate"]["serving"] for c in json.loads(out)["candidates"]}
    assert {row[0] for row in rows} == set(plans)
    for row in rows:
        plan = plans[row[0]]
        replicas, gpus_each = plan["gpus_for_target"] // plan["replica_gpus"], plan["replica_gpus"]
        total = ["=", f"{replicas * gpus_each:,}"] if gpus_each > 1 else []
        assert row[1 : 4 + len(total)] == [f"{replicas:,}", "×", f"{gpus_each}", *total]
        assert row[-2].startswith("$")
    # $/1M out is the headline's price, the estimate's cost per 1M (output) tokens
    per_million = {
        c["system"]: c["estimate"]["cost_per_million_tokens_usd"] for c in json.loads(out)["candidates"]
    }
    for row in rows:
        assert agrees(row[-1], per_million[row[0]]), row
