"""Choosing a system: rule facts and conditions, rules, `advise()` and the recommendation it returns."""
