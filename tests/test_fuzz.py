"""Fuzzing: random and mutated scenario, catalog and rule files, and random command lines.

Marked `fuzz` so the default run stays fast: `pytest -m fuzz` runs 12,000+ cases. The promise under
test: never a traceback; a bad input raises the advisor's own error naming what was wrong, and the
CLI exits with status 2 for usage errors.
"""

from __future__ import annotations

import io
import random
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from advisor.cli import commands, loading
from advisor.cli.main import main
from advisor.core.decision.advise import advise
from advisor.core.decision.request import AdviceRequest
from advisor.core.model.catalog import MfuTable, ModelSpec, System
from advisor.core.scenario import Scenario
from advisor.errors import AdvisorError
from advisor.io.catalog_files import _validate
from advisor.io.rule_files import check_rule_files
from advisor.io.scenario_files import load_scenario, scenario_toml
from tests.conftest import ROOT, shipped_catalog

pytestmark = pytest.mark.fuzz

CATALOG = shipped_catalog()
RULES = check_rule_files(sorted((ROOT / "rules").glob("*.toml")))
TOKENS = [
    "0",
    "-1",
    "1e400",
    "nan",
    "inf",
    "true",
    "false",
    '""',
    '"h100"',
    '"70B"',
    '"15T"',
    "[]",
    "{}",
    '"x" * 3',
    "1.5",
    "2048",
    '"2024-13"',
    '"conservative"',
    "[[x]]",
    "=",
    "'",
    '"',
    "\\u0000",
    "é",
    "#",
]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits: drop, duplicate or swap lines, replace a value, truncate, inject bytes."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [rng.choice(TOKENS)]
        i = rng.randrange(len(lines))
        op = rng.randrange(7)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(TOKENS)}"
        elif op == 4:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif op == 5:
            pos = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:pos] + rng.choice(TOKENS) + lines[i][pos:]
        else:
            lines.insert(
                i, f"{rng.choice(['extra', 'schema', 'gpus', 'modle', 'id'])} = {rng.choice(TOKENS)}"
            )
    return "\n".join(lines) + "\n"


def _seed_scenarios() -> list[str]:
    base = [
        {
            "workload": {
                "model": "llama3-70b",
                "tokens": "15T",
                "gpus": 2048,
                "precision": "fp8",
                "pricing": "own",
            },
            "constraints": {"risk": "conservative", "deadline_days": 90},
        },
        {
            "workload": {"custom": {"params": "13B"}, "tokens": 26e9, "gpus": 8},
            "objective": "time",
            "assumptions": {"goodput": 1.0, "price_usd_per_gpu_hour": {"h100": 2.5}},
        },
        {
            "workload": {"model": "llama2-7b", "tokens": 5e7, "kind": "inference", "serving_batch": 8},
            "systems": ["a100", "h100"],
            "constraints": {"budget_usd": 1000, "guaranteed_capacity": True},
        },
    ]
    texts = [
        scenario_toml(Scenario.model_validate({"schema": 1, "name": f"seed {i}", **b}))
        for i, b in enumerate(base)
    ]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.toml"))]
    return texts


def _check_scenario_text(text: str, path: Path) -> str:
    """Load a (mutated) scenario file as the CLI does, then advise on it: only AdvisorErrors may escape."""
    path.write_text(text, encoding="utf-8")
    try:
        scenario = load_scenario(path, CATALOG)
        workload = scenario.workload.workload(CATALOG)
        advise(
            AdviceRequest(
                workload,
                CATALOG,
                RULES,
                constraints=scenario.constraints,
                objective=scenario.objective,
                assumptions=scenario.assumptions,
                systems=scenario.system_ids(CATALOG),
            )
        )
    except AdvisorError as exc:
        assert str(path) in str(exc), "an error names the file"
        return "not TOML" if "not valid TOML" in str(exc) else "rejected"
    return "ok"


def test_fuzz_scenario_files(tmp_path):
    rng = random.Random(1)
    seeds = _seed_scenarios()
    outcomes: dict[str, int] = {}
    for _ in range(4000):
        outcome = _check_scenario_text(mutate(rng.choice(seeds), rng), tmp_path / "fuzz.toml")
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    print(f"scenario files: {outcomes}")
    assert outcomes.get("rejected", 0) > 100 and outcomes.get("ok", 0) > 100, outcomes


def test_fuzz_catalog_files():
    rng = random.Random(2)
    files = [(p, System) for p in (ROOT / "catalog/systems").glob("*.toml")]
    files += [(p, ModelSpec) for p in (ROOT / "catalog/models").glob("*.toml")]
    files += [(p, MfuTable) for p in (ROOT / "catalog/mfu").glob("*.toml") if p.name != "scaling.toml"]
    texts = [(p, model, p.read_text(encoding="utf-8")) for p, model in files]
    rejected = 0
    for _ in range(3000):
        path, model, text = rng.choice(texts)
        mutated = mutate(text, rng)
        try:
            data = tomllib.loads(mutated)
        except tomllib.TOMLDecodeError:
            continue
        try:
            _validate(model, data, path, mutated)
        except AdvisorError as exc:
            assert path.name in str(exc)
            rejected += 1
    print(f"catalog files: 3000 cases, {rejected} rejected with a message")
    assert rejected > 500


def test_fuzz_catalog_folders(tmp_path):
    # Whole-catalog loads with one mutated file: the others still load, or the message names the file.
    import shutil

    from advisor.io.catalog_files import load_catalog

    rng = random.Random(3)
    source = ROOT / "catalog"
    files = sorted(source.rglob("*.toml"))
    for case in range(200):
        target = tmp_path / f"c{case}"
        shutil.copytree(source, target)
        victim = rng.choice(files)
        mutated_path = target / victim.relative_to(source)
        mutated_path.write_text(mutate(victim.read_text(encoding="utf-8"), rng), encoding="utf-8")
        try:
            cat = load_catalog(target, user_dir=False)
        except AdvisorError as exc:
            assert victim.name in str(exc) or "catalog" in str(exc)
            continue
        assert cat.systems
        shutil.rmtree(target)


def test_fuzz_rule_files(tmp_path):
    rng = random.Random(4)
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "rules").glob("*.toml"))]
    rejected = 0
    for case in range(2500):
        path = tmp_path / f"r{case % 10}.toml"
        path.write_text(mutate(rng.choice(texts), rng), encoding="utf-8")
        try:
            check_rule_files([path])
        except AdvisorError as exc:
            assert str(path) in str(exc)
            rejected += 1
    print(f"rule files: 2500 cases, {rejected} rejected with a message")
    assert rejected > 300


FLAGS = {
    "--model": ["llama3-70b", "gpt3-175b", "nope", "", "deepseek-v3"],
    "--params": ["13e9", "70B", "0", "-5", "abc", "1e300"],
    "--prompt-tokens": ["500", "0", "x"],
    "--active-params": ["1e9", "2e14", "x"],
    "--layers": ["32", "0", "x"],
    "--tokens": ["15T", "1", "0", "1e400", "lots", "-3"],
    "--gpus": ["8", "2048", "0", "2.5", "1e9", "many"],
    "--precision": ["bf16", "fp8", "fp4", "int4"],
    "--kind": ["pretrain", "finetune", "inference", "serve"],
    "--pricing": ["rent", "own", "lease"],
    "--software": ["2024-01", "2025-13", "latest"],
    "--system": ["all", "h100", "tpu", "gb200-nvl72"],
    "--goodput": ["1", "0.5", "0", "2"],
    "--mfu": ["0.4", "1.5", "-0.1"],
    "--price-per-gpu-hour": ["$2.10", "0", "free"],
    "--pue": ["1.3", "0.9", "4"],
    "--deadline-days": ["30", "0", "-1", "1e9"],
    "--budget-usd": ["250k", "0", "x"],
    "--risk": ["conservative", "balanced", "yolo"],
    "--objective": ["cost", "time", "energy", "balanced", "vibes"],
    "--seq-len": ["4096", "0", "1e8"],
    "--samples": ["10", "5", "x"],
}
SWITCHES = [
    "--json",
    "--no-fp8-stack",
    "--guaranteed-capacity",
    "--iteration-speed",
    "--size-to-deadline",
    "--bogus",
    "-x",
]
COMMANDS = ["estimate", "recommend", "sensitivity", "rules", "models", "systems", "estimate", "recommend"]


def test_fuzz_command_lines(monkeypatch, tmp_path):
    cached = CATALOG
    for module in (commands, loading):
        monkeypatch.setattr(module, "load_catalog", lambda args: cached)
        monkeypatch.setattr(module, "load_rules", lambda args, catalog: RULES)
    rng = random.Random(5)
    codes: dict[int, int] = {}
    for _ in range(3000):
        argv = [rng.choice(COMMANDS)]
        if argv[0] == "rules":
            argv.append(rng.choice(["list", "check", "bogus"]))
            if argv[-1] == "check":
                argv.append(str(rng.choice([ROOT / "rules/checks.toml", tmp_path / "missing.toml"])))
        if rng.random() < 0.6:  # a valid core, so the success paths are fuzzed too
            argv += ["--model", rng.choice(["llama3-70b", "llama2-7b", "deepseek-v3"]), "--tokens", "1e11"]
        for flag in rng.sample(sorted(FLAGS), rng.randint(0, 4)):
            # The first listed value of each flag is valid; pick it most of the time.
            value = FLAGS[flag][0] if rng.random() < 0.7 else rng.choice(FLAGS[flag])
            argv += [flag, value]
        argv += rng.sample(SWITCHES, rng.randint(0, 2)) if rng.random() < 0.3 else []
        if argv[0] == "sensitivity" and "--samples" not in argv:
            argv += ["--samples", "10"]
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # --help / --version print and exit 0
                code = int(exc.code or 0)
        assert "Traceback" not in err.getvalue(), argv
        assert code in (0, 1, 2), argv
        if code == 2:
            assert err.getvalue().strip(), argv
        codes[code] = codes.get(code, 0) + 1
    print(f"command lines: exit codes {codes}")
    assert codes.get(0, 0) > 100 and codes.get(2, 0) > 100, codes
