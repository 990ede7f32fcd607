"""Condition trees of decision rules: `all` / `any` / `not` over `{fact, op, value}` leaves.

Evaluated by walking the tree with the operator table below, compiled once per rule into closures;
nothing is evaluated as code. Every leaf is checked (no short cuts), so the trace is complete.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "in": lambda actual, expected: actual in expected,
    "not_in": lambda actual, expected: actual not in expected,
}
OPERATORS = tuple(COMPARE)
ORDERING = ("<", "<=", ">", ">=")


@dataclass(frozen=True)
class Leaf:
    """`{fact, op, value}`: the fact compared with a value by one of OPERATORS."""

    fact: str
    op: str
    value: Any


@dataclass(frozen=True)
class All:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    item: Node


Node = Leaf | All | AnyOf | Not


def leaves(node: Node) -> Iterable[Leaf]:
    if isinstance(node, Leaf):
        yield node
    elif isinstance(node, Not):
        yield from leaves(node.item)
    else:
        for item in node.items:
            yield from leaves(item)


class ConditionTrace(NamedTuple):
    """One leaf as checked: what was expected, what the fact was, whether it held."""

    fact: str
    op: str
    expected: Any
    actual: Any
    passed: bool

    def describe(self) -> str:
        expected = list(self.expected) if isinstance(self.expected, tuple) else self.expected
        actual = "not set" if self.actual is None else show_value(self.actual)
        verdict = "yes" if self.passed else "no"
        return f"{self.fact} {self.op} {show_value(expected)} (actual {actual}): {verdict}"


def show_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


Check = Callable[[Mapping[str, Any], list[ConditionTrace]], bool]


def compile_condition(node: Node) -> Check:
    """The condition tree as nested closures (built once per rule; no eval): each call checks every leaf,
    without short cuts, so the trace is complete."""
    if isinstance(node, Leaf):
        fact, op, expected, compare = node.fact, node.op, node.value, COMPARE[node.op]

        def leaf(facts: Mapping[str, Any], trace: list[ConditionTrace]) -> bool:
            actual = facts.get(fact)
            passed = actual is not None and compare(actual, expected)
            trace.append(ConditionTrace(fact, op, expected, actual, passed))
            return passed

        return leaf
    if isinstance(node, Not):
        inner = compile_condition(node.item)
        return lambda facts, trace: not inner(facts, trace)
    parts = [compile_condition(item) for item in node.items]
    combine = all if isinstance(node, All) else any
    return lambda facts, trace: combine([part(facts, trace) for part in parts])
