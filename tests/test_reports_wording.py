"""Words a buyer reads in the reports: a serving plan's are serving's, not a training run's."""

from __future__ import annotations

from advisor.report.breakdowns import BREAKDOWNS, breakdown_blurb


def test_a_serving_plans_cost_breakdown_is_not_a_runs():
    # The serving example's cost breakdown read "What the run costs, by part" under a month of serving.
    cost = next(b for b in BREAKDOWNS if b.key == "cost_breakdown_usd")
    assert breakdown_blurb(cost, "inference").startswith("What serving the tokens costs, by part")
    assert breakdown_blurb(cost, "pretrain").startswith("What the run costs, by part")
