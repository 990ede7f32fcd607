"""Load `rules/*.toml` into checked `Rule`s (shipped folder, or one the user names), against the fact
vocabulary of `rules/vocabulary/facts.toml` (always the shipped one: it names what the code computes)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import MappingProxyType

from advisor.core.decision.rules import Rule, check_unique, parse_rule_file
from advisor.core.decision.vocabulary import Vocabulary, parse_vocabulary
from advisor.errors import RuleError, shown
from advisor.io.paths import not_a_folder, shipped_dir
from advisor.io.toml_read import read_toml

FACTS_FILE = Path("vocabulary", "facts.toml")
"""The fact vocabulary, under the shipped rules folder (in a folder of its own, so that no `*.toml`
of rules, nor `advisor rules check rules/*.toml`, takes it for a rule file)."""


def load_vocabulary(path: Path | None = None) -> Vocabulary:
    """The facts rules may use: the inputs' and those of the facts file (default: the shipped one)."""
    return _vocabulary(path or shipped_dir("rules") / FACTS_FILE)


@cache
def _vocabulary(path: Path) -> Vocabulary:
    data, _ = read_toml(path, RuleError)
    return MappingProxyType(parse_vocabulary(data, str(path)))


def load_rule_file(path: Path, facts: Vocabulary | None = None) -> list[Rule]:
    """The rules of one file, checked against `facts` (default: the shipped vocabulary)."""
    data, _ = read_toml(path, RuleError)
    return parse_rule_file(data, str(path), facts if facts is not None else load_vocabulary())


MAX_RULES = 250
"""The most rules loaded together. Each prefer multiplies a score by at least 0.1 and each penalize by at
most 11, so past about 300 rules firing on one system a score could underflow to 0 or overflow to inf."""


def check_rule_files(paths: Iterable[Path | str]) -> tuple[Rule, ...]:
    """Parse and check `paths` together (ids unique across them); the first problem raises RuleError."""
    facts = load_vocabulary()
    rules: list[Rule] = []
    for path in paths:
        rules.extend(load_rule_file(Path(path), facts))
        if len(rules) > MAX_RULES:
            raise RuleError(f"{shown(path)}: more than {MAX_RULES} rules in all (at most {MAX_RULES} load)")
    return check_unique(rules)


def load_rules(folder: Path | str | None = None) -> tuple[Rule, ...]:
    """Every rule in `folder/*.toml` (default: the shipped rules), in file then rule order."""
    base = Path(folder) if folder is not None else shipped_dir("rules")
    if not base.is_dir():
        raise RuleError(not_a_folder(base, "rules folder"))
    files = sorted(base.glob("*.toml"))
    if not files:
        raise RuleError(f"{base}: no rule files (*.toml)")
    return check_rule_files(files)
