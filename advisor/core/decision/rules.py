"""Decision rules as data: parsing with a closed vocabulary, and evaluation with a full trace.

A rule is `id`, `title`, `source`, `because` (a sentence that may quote facts, e.g. "{params_b:.0f}B"),
a condition tree `when` (`all` / `any` / `not` over `{fact, op, value}` leaves) and `effects`
(`exclude`, `prefer`, `penalize` with a `weight`, `warn`, `note`). Nothing is evaluated as code: the
tree is compiled by `advisor.core.decision.conditions` from the operator table there.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from advisor.core.decision.conditions import (
    COMPARE,
    OPERATORS,
    ORDERING,
    All,
    AnyOf,
    Check,
    ConditionTrace,
    Leaf,
    Node,
    Not,
    compile_condition,
    leaves,
    show_value,
)
from advisor.core.decision.facts import Fact
from advisor.core.decision.vocabulary import Vocabulary, did_you_mean
from advisor.core.model.sourced import AS_OF_PATTERN, url_in
from advisor.errors import RuleError

EffectKind = Literal["exclude", "prefer", "penalize", "warn", "note"]
EFFECT_KINDS: tuple[EffectKind, ...] = ("exclude", "prefer", "penalize", "warn", "note")
RANKING_EFFECTS = ("exclude", "prefer", "penalize")

_OP_ALIASES = {"=": "==", "=>": ">=", "=<": "<=", "<>": "!=", "not in": "not_in", "notin": "not_in"}
_RULE_KEYS = (
    "id",
    "title",
    "source",
    "url",
    "as_of",
    "assumption",
    "because",
    "summary",
    "when",
    "effects",
    "enabled",
)
_URL = re.compile(r"^https?://\S+$")
MAX_FORMAT_WIDTH = 40
"""The widest width or precision a `because` placeholder may ask for (`{x:>999999999}` would build 1 GB)."""
_SPEC_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Effect:
    kind: EffectKind
    weight: float = 0.0


@dataclass(frozen=True)
class Rule:
    """One parsed, checked rule."""

    id: str
    title: str
    source: str
    because: str
    when: Node
    effects: tuple[Effect, ...]
    file: str
    scope: Literal["workload", "candidate"]
    url: str = ""
    """Where the source can be read (empty only for an assumption)."""
    as_of: str = ""
    """Date of the source (YYYY, YYYY-MM or YYYY-MM-DD; the access date for an undated page)."""
    assumption: bool = False
    """True where no followable publication backs the rule."""
    summary: str = ""
    """One sentence for every system the rule fired on (`{systems}` lists them), shown once instead
    of a reason per system; only for `warn` and `note` rules."""
    check: Check = field(compare=False, repr=False, default=lambda facts, trace: False)
    """`when` compiled by `compile_condition`."""

    @property
    def effect_names(self) -> str:
        """`penalize 0.2, warn` for display."""
        return ", ".join(f"{e.kind} {e.weight:g}" if e.weight else e.kind for e in self.effects)


class _Where:
    """Error location: file, rule id, path in the rule."""

    def __init__(self, file: str, rule_id: str) -> None:
        self.file, self.rule_id = file, rule_id

    def fail(self, path: str, message: str) -> RuleError:
        return RuleError(f"{self.file}: rule {self.rule_id!r}: {path}: {message}")


def _parse_node(raw: Any, where: _Where, path: str, facts: Vocabulary) -> Node:
    if not isinstance(raw, Mapping):
        raise where.fail(path, "a condition is a table: {fact = ..., op = ..., value = ...} or all/any/not")
    keys = set(raw)
    branch = keys & {"all", "any"}
    if branch:
        if len(keys) != 1:
            raise where.fail(path, f"a table with 'all' or 'any' holds nothing else (found {sorted(keys)})")
        key = branch.pop()
        items = raw[key]
        if not isinstance(items, list) or not items:
            raise where.fail(f"{path}.{key}", "must be a non-empty list of conditions")
        parsed = tuple(_parse_node(item, where, f"{path}.{key}[{i}]", facts) for i, item in enumerate(items))
        return All(parsed) if key == "all" else AnyOf(parsed)
    if "not" in keys:
        if keys != {"not"}:
            raise where.fail(path, f"a 'not' table holds nothing else (found {sorted(keys)})")
        return Not(_parse_node(raw["not"], where, f"{path}.not", facts))
    unknown = keys - {"fact", "op", "value"}
    if unknown:
        name = sorted(unknown)[0]
        raise where.fail(
            path, f"unknown key {name!r}{did_you_mean(name, ['fact', 'op', 'value', 'all', 'any', 'not'])}"
        )
    for needed in ("fact", "op", "value"):
        if needed not in raw:
            raise where.fail(path, f"missing {needed!r}")
    fact_name, op, value = raw["fact"], raw["op"], raw["value"]
    if not isinstance(fact_name, str) or fact_name not in facts:
        raise where.fail(f"{path}.fact", f"unknown fact {fact_name!r}{did_you_mean(str(fact_name), facts)}")
    if not isinstance(op, str) or op not in COMPARE:
        hint = (
            f"; did you mean {_OP_ALIASES[op]!r}?" if op in _OP_ALIASES else did_you_mean(str(op), OPERATORS)
        )
        raise where.fail(f"{path}.op", f"unknown operator {op!r}{hint}")
    _check_value(facts[fact_name], op, value, where, path)
    return Leaf(fact_name, op, tuple(value) if isinstance(value, list) else value)


def _check_value(fact: Fact, op: str, value: Any, where: _Where, path: str) -> None:
    values = value if op in ("in", "not_in") else [value]
    if op in ("in", "not_in") and (not isinstance(value, list) or not value):
        raise where.fail(f"{path}.value", f"'{op}' needs a non-empty list")
    if op not in ("in", "not_in") and isinstance(value, list):
        raise where.fail(f"{path}.value", f"a list needs op 'in' or 'not_in', not {op!r}")
    for item in values:
        if fact.type == "number":
            if isinstance(item, bool) or not isinstance(item, int | float):
                raise where.fail(f"{path}.value", f"{fact.name} is a number ({fact.unit}); got {item!r}")
        elif fact.type == "bool":
            if not isinstance(item, bool):
                raise where.fail(f"{path}.value", f"{fact.name} is true or false; got {item!r}")
            if op in ORDERING:
                raise where.fail(f"{path}.op", f"{fact.name} is true or false: use == or !=")
        else:
            if not isinstance(item, str):
                raise where.fail(f"{path}.value", f"{fact.name} is text; got {item!r}")
            if op in ORDERING:
                raise where.fail(f"{path}.op", f"{fact.name} is text: use ==, !=, in or not_in")
            if fact.choices and item not in fact.choices:
                raise where.fail(
                    f"{path}.value", f"{item!r} is not a {fact.name}{did_you_mean(item, fact.choices)}"
                )


def _facts_in(node: Node) -> set[str]:
    if isinstance(node, Leaf):
        return {node.fact}
    if isinstance(node, Not):
        return _facts_in(node.item)
    return set().union(*(_facts_in(item) for item in node.items))


def _parse_effects(raw: Any, where: _Where) -> tuple[Effect, ...]:
    if not isinstance(raw, list) or not raw:
        raise where.fail("effects", 'must be a non-empty list, e.g. [{ kind = "warn" }]')
    effects = []
    for i, item in enumerate(raw):
        path = f"effects[{i}]"
        if not isinstance(item, Mapping):
            raise where.fail(path, 'an effect is a table: { kind = "prefer", weight = 0.1 }')
        unknown = set(item) - {"kind", "weight"}
        if unknown:
            name = sorted(unknown)[0]
            raise where.fail(path, f"unknown key {name!r}{did_you_mean(name, ['kind', 'weight'])}")
        kind = item.get("kind")
        if kind not in EFFECT_KINDS:
            raise where.fail(
                f"{path}.kind", f"unknown effect {kind!r}{did_you_mean(str(kind), EFFECT_KINDS)}"
            )
        weight = item.get("weight", 0.0)
        if kind in ("prefer", "penalize"):
            high = 0.9 if kind == "prefer" else 10.0
            if isinstance(weight, bool) or not isinstance(weight, int | float) or not 0 < weight <= high:
                raise where.fail(f"{path}.weight", f"{kind} needs a weight in (0, {high:g}]; got {weight!r}")
        elif "weight" in item:
            raise where.fail(f"{path}.weight", f"{kind} takes no weight")
        effects.append(Effect(kind, float(weight)))
    return tuple(effects)


def _check_because(text: str, where: _Where, facts: Vocabulary) -> None:
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise where.fail("because", f"bad placeholder: {exc}") from None
    for _, name, spec, conversion in fields:
        if name is None:
            continue
        if name not in facts:
            raise where.fail("because", f"unknown fact {{{name}}}{did_you_mean(name, facts)}")
        if conversion:
            raise where.fail("because", f"{{{name}!{conversion}}}: conversions are not allowed")
        if any(len(n.lstrip("0")) > 2 or int(n) > MAX_FORMAT_WIDTH for n in _SPEC_NUMBER.findall(spec or "")):
            raise where.fail(
                "because", f"{{{name}:{spec}}}: widths and precisions are at most {MAX_FORMAT_WIDTH}"
            )
        sample = {"number": 1.5, "bool": True, "text": "x"}[facts[name].type]
        try:
            format(sample, spec or "")
        except (ValueError, TypeError):
            raise where.fail(
                "because", f"{{{name}:{spec}}}: format {spec!r} does not suit a {facts[name].type}"
            ) from None


def _check_summary(raw: Mapping[str, Any], effects: Iterable[Effect], where: _Where) -> str:
    """`summary`: text whose only placeholder is `{systems}`, on a rule that only warns or notes."""
    text = raw.get("summary", "")
    if not isinstance(text, str):
        raise where.fail("summary", "must be text")
    if not text:
        return ""
    try:
        names = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except ValueError as exc:
        raise where.fail("summary", f"bad placeholder: {exc}") from None
    if names != ["systems"]:
        raise where.fail("summary", "must hold {systems} once, and no other placeholder")
    spec = next(spec for _, name, spec, _ in string.Formatter().parse(text) if name == "systems")
    try:
        text.format(systems="a100, h100")
    except (ValueError, TypeError):
        raise where.fail(
            "summary", f"{{systems:{spec}}}: format {spec!r} does not suit a list of names"
        ) from None
    if any(e.kind in RANKING_EFFECTS for e in effects):
        raise where.fail("summary", "only a warn or note rule can be summarised")
    return text


def _check_provenance(raw: Mapping[str, Any], where: _Where) -> None:
    """`url` (http or https), `as_of` (a date) and `assumption` (true or false), where given."""
    url = raw.get("url", "")
    if not isinstance(url, str) or (url and not _URL.match(url)):
        raise where.fail("url", "must be an http:// or https:// address")
    as_of = raw.get("as_of", "")
    if not isinstance(as_of, str) or (as_of and not AS_OF_PATTERN.match(as_of)):
        raise where.fail("as_of", "must be a date: YYYY, YYYY-MM or YYYY-MM-DD")
    if not isinstance(raw.get("assumption", False), bool):
        raise where.fail("assumption", "must be true or false")


def parse_rule(raw: Any, file: str, index: int, facts: Vocabulary) -> Rule | None:
    """Check one `[[rule]]` table against the vocabulary `facts`; None if it sets `enabled = false`."""
    rule_id = raw.get("id") if isinstance(raw, Mapping) else None
    where = _Where(file, rule_id if isinstance(rule_id, str) else f"#{index + 1}")
    if not isinstance(raw, Mapping):
        raise where.fail("rule", "must be a table")
    unknown = set(raw) - set(_RULE_KEYS)
    if unknown:
        name = sorted(unknown)[0]
        raise where.fail(name, f"unknown key{did_you_mean(name, _RULE_KEYS)}")
    for key in ("id", "title", "source", "because", "when", "effects"):
        if key not in raw:
            raise where.fail(key, "missing (required)")
    for key in ("id", "title", "source", "because"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise where.fail(key, "must be non-empty text")
    enabled = raw.get("enabled", True)
    if not isinstance(enabled, bool):
        raise where.fail("enabled", "must be true or false")
    _check_provenance(raw, where)
    when = _parse_node(raw["when"], where, "when", facts)
    effects = _parse_effects(raw["effects"], where)
    _check_because(raw["because"], where, facts)
    summary = _check_summary(raw, effects, where)
    scope: Literal["workload", "candidate"] = (
        "candidate" if any(facts[f].scope == "candidate" for f in _facts_in(when)) else "workload"
    )
    if scope == "workload" and any(e.kind in RANKING_EFFECTS for e in effects):
        raise where.fail(
            "effects", "exclude/prefer/penalize need a condition on a candidate fact such as 'system'"
        )
    if not enabled:
        return None
    return Rule(
        raw["id"],
        raw["title"],
        raw["source"],
        raw["because"],
        when,
        effects,
        file,
        scope,
        raw.get("url") or url_in(raw["source"]),
        raw.get("as_of", ""),
        raw.get("assumption", False),
        summary,
        compile_condition(when),
    )


def parse_rule_file(data: Mapping[str, Any], file: str, facts: Vocabulary) -> list[Rule]:
    """Every rule of one file's data (`[[rule]]` tables), checked against the vocabulary `facts`."""
    unknown = set(data) - {"rule"}
    if unknown:
        raise RuleError(f"{file}: unknown top-level key {sorted(unknown)[0]!r}; rules go in [[rule]] tables")
    raw_rules = data.get("rule", [])
    if not isinstance(raw_rules, list):
        raise RuleError(f"{file}: 'rule' must be an array of tables ([[rule]])")
    return [rule for i, raw in enumerate(raw_rules) if (rule := parse_rule(raw, file, i, facts)) is not None]


def check_systems(rules: Iterable[Rule], system_ids: Iterable[str]) -> None:
    """Every system a rule names exists in the catalog (a typo would otherwise never match)."""
    known = sorted(system_ids)
    for rule in rules:
        for leaf in leaves(rule.when):
            if leaf.fact != "system":
                continue
            for value in leaf.value if isinstance(leaf.value, tuple) else (leaf.value,):
                if value not in known:
                    raise RuleError(
                        f"{rule.file}: rule {rule.id!r}: when: system {value!r} is not in the catalog"
                        f"{did_you_mean(value, known)}"
                    )


def check_unique(rules: Iterable[Rule]) -> tuple[Rule, ...]:
    """Rule ids are unique across files."""
    seen: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in seen:
            raise RuleError(f"{rule.file}: rule {rule.id!r}: id already used in {seen[rule.id].file}")
        seen[rule.id] = rule
    return tuple(seen.values())


# --- evaluation ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuleResult:
    """A rule checked against one candidate (or the workload): fired or not, with its trace."""

    rule: Rule
    system: str | None
    fired: bool
    conditions: tuple[ConditionTrace, ...]
    because: str


def render_because(text: str, facts: Mapping[str, Any]) -> str:
    """The rule's sentence with actual values; an unset fact reads 'n/a'."""
    out = []
    for literal, name, spec, _ in string.Formatter().parse(text):
        out.append(literal)
        if name is None:
            continue
        value = facts.get(name)
        if value is None:
            out.append("n/a")
            continue
        try:
            out.append(format(value, spec or ""))
        except (ValueError, TypeError):
            out.append(show_value(value))
    return "".join(out)


def evaluate(rule: Rule, facts: Mapping[str, Any], system: str | None) -> RuleResult:
    """Check `rule` against `facts`; a rule that fired gets its because sentence with actual values
    (one that did not is shown by its title and its conditions)."""
    trace: list[ConditionTrace] = []
    fired = rule.check(facts, trace)
    return RuleResult(rule, system, fired, tuple(trace), render_because(rule.because, facts) if fired else "")
