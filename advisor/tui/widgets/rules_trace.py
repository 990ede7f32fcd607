"""Rules: every rule checked, fired ones first, with each condition's actual value and the source."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from advisor.core.decision.rules import RuleResult
from advisor.present.styles import FAILED, PASSED
from advisor.tui.widgets.drawn_when_shown import AdviceView

if TYPE_CHECKING:
    from advisor.tui.advice import Advice  # the core's answer: imported once the first one is computed


def _grouped(results: tuple[RuleResult, ...]) -> list[list[RuleResult]]:
    """Results by rule, rules that fired anywhere first, otherwise in file order."""
    by_rule: dict[str, list[RuleResult]] = {}
    for result in results:
        by_rule.setdefault(result.rule.id, []).append(result)
    return sorted(by_rule.values(), key=lambda group: not any(r.fired for r in group))


def _rule_label(group: list[RuleResult]) -> Text:
    rule = group[0].rule
    fired_on = [r.system or "workload" for r in group if r.fired]
    status = (f"  fired: {', '.join(fired_on)}", PASSED) if fired_on else ("  not fired", "dim")
    return Text.assemble(("✓ " if fired_on else "· "), (rule.id, "bold"), f"  {rule.title}", status)


class RulesTrace(AdviceView, Tree[str]):
    """The rules trace as a tree: rule, then each system it was checked for, then its conditions."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("Rules", **kwargs)  # type: ignore[arg-type]
        self.guide_depth = 3

    def draw_advice(self, advice: Advice) -> None:
        expanded = {node.data for node in self._walk(self.root) if node.is_expanded and node.data}
        rec = advice.recommendation
        self.clear()
        groups = _grouped(rec.rules_checked)
        self.root.set_label(
            f"{len(groups)} rules, {len(rec.rules_checked)} checks, {len(rec.rules_fired)} fired "
            "(Enter or Space opens a rule)"
        )
        for group in groups:
            rule = group[0].rule
            node = self.root.add(_rule_label(group), data=rule.id, expand=rule.id in expanded)
            node.add_leaf(Text.assemble(("effects  ", "dim"), rule.effect_names))
            node.add_leaf(Text.assemble(("source   ", "dim"), rule.source))
            node.add_leaf(Text.assemble(("file     ", "dim"), rule.file))
            for result in group:
                self._add_result(node, result, expanded)
        self.root.expand()

    def _add_result(self, node: TreeNode[str], result: RuleResult, expanded: set[str]) -> None:
        key = f"{result.rule.id}/{result.system}"
        verdict = ("fired", PASSED) if result.fired else ("not fired", "dim")
        label = Text.assemble(verdict, f" for {result.system or 'the workload'}")
        if result.fired:
            label.append(f": {result.because}")
        child = node.add(label, data=key, expand=key in expanded)
        for condition in result.conditions:
            style = PASSED if condition.passed else FAILED
            child.add_leaf(Text(condition.describe(), style=style))

    def _walk(self, node: TreeNode[str]) -> list[TreeNode[str]]:
        found = [node]
        for child in node.children:
            found.extend(self._walk(child))
        return found
