"""Serving at a target rate with a deadline: the deadline is when serving starts (the month served is not
counted), in the constraint, the verdict's words and the sampled share that meets it alike."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.cli.main import main

SERVING = str(Path(__file__).resolve().parent.parent / "examples/llama3-70b-serving.toml")


def _recommend(capsys, *flags: str) -> dict:
    main(["recommend", SERVING, *flags, "--json"])
    return json.loads(capsys.readouterr().out)


def test_a_deadline_on_serving_at_a_rate_is_judged_at_the_start_everywhere(capsys):
    # A 10-day deadline left over from a training job: every system starts serving within it, so the
    # month served must not make the samples miss it (it said "meets the 10-day deadline in only about 0%
    # of samples" beside "both within the 10-day deadline", and no system won half the samples).
    free = _recommend(capsys)
    timed = _recommend(capsys, "--deadline-days", "10")
    assert timed["winner"] == free["winner"]
    assert "start serving within the 10-day deadline" in timed["why"]
    assert timed["robustness"]["deadline_share"] > 0.9
    # Only the systems whose wait for capacity passes 10 days drop out (mi325x waits 14 days).
    assert abs(timed["robustness"]["share"] - free["robustness"]["share"]) < 0.02
    assert "deadline in only about" not in timed["why"]
