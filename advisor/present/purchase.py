"""What buying a system means, in the words and numbers every surface shows (CLI, reports, app)."""

from __future__ import annotations

from advisor.core.costing.results import Purchase
from advisor.present import numbers


def up_front(purchase: Purchase) -> str:
    """The capital paid up front for the nodes or racks bought: `$16M` (`$0` when all are owned)."""
    return numbers.money(purchase.capex_usd)
