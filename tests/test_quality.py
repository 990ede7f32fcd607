"""Quality gates that the suite enforces: the core/UI fence, types, lint, no eval."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

BIN = Path(sys.executable).parent
PACKAGE = ROOT / "advisor"


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_import_contracts_hold():
    result = subprocess.run([str(BIN / "lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-2000:]
    assert "0 broken" in result.stdout


def _import_cycles(graph) -> list[list[str]]:
    """Each strongly connected component of more than one module (Tarjan's algorithm), as a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return cycles


def _cycle_path(graph, component: list[str]) -> str:
    """One import chain around `component`, e.g. `a -> b -> a`."""
    first, members = component[0], set(component)
    for imported in sorted(graph.find_modules_directly_imported_by(first) & members):
        back = graph.find_shortest_chain(importer=imported, imported=first)
        if back:
            return " -> ".join((first, *back))
    return ", ".join(component)


def test_no_import_cycles():
    import grimp

    graph = grimp.build_graph("advisor")
    cycles = _import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(_cycle_path(graph, c) for c in cycles)


def test_core_and_reports_never_import_textual():
    # The same fence without import-linter: every module of the pure packages, every import statement.
    for folder in ("core", "report"):
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = {
                name
                for name in _imports(path)
                if name.split(".")[0] == "textual" or name.startswith("advisor.tui")
            }
            assert not bad, f"{path} imports {bad}"


def test_only_the_app_imports_textual():
    # The shells reach Textual (and textual-serve) only through advisor.tui.launch.
    for path in PACKAGE.rglob("*.py"):
        if "tui" in path.relative_to(PACKAGE).parts:
            continue
        bad = {name for name in _imports(path) if name.split(".")[0] in ("textual", "textual_serve")}
        assert not bad, f"{path} imports {bad}"


def test_no_eval_or_exec_anywhere():
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in ("eval", "exec", "compile"), f"{path}:{node.lineno}"


def test_public_api_type_checks():
    targets = ["advisor"]  # the core's public API and every shell
    result = subprocess.run(
        [str(BIN / "mypy"), "--no-incremental", *targets], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout[-3000:]


def test_ruff_is_clean():
    result = subprocess.run(
        [str(BIN / "ruff"), "check", "advisor", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:]


MAX_FUNCTION_LINES = 60
"""The longest a function in `advisor/core/` may be, def and docstring included."""


def _long_functions(source: str, name: str) -> list[str]:
    """`file:line function (N lines)` for each function (nested ones too) over `MAX_FUNCTION_LINES`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_functions_are_short():
    # Long functions are split into named stages (issue 10), in the core and the shells alike.
    offenders = [
        offender
        for path in sorted(PACKAGE.rglob("*.py"))
        for offender in _long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not offenders, "functions over 60 lines:\n" + "\n".join(offenders)


MAX_MODULE_LINES = 400
"""The longest a module in `advisor/` may be, in lines."""


def test_modules_are_short():
    # A module over 400 lines is split by role (issue 10).
    offenders = [
        f"{path.relative_to(ROOT)} ({lines} lines)"
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert not offenders, f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(offenders)


def test_the_length_check_counts_def_and_docstring():
    def source(body_lines: int) -> str:
        body = "".join(f"    x{i} = {i}\n" for i in range(body_lines))
        return f'def outer():\n    """Doc."""\n    async def inner():\n{body.replace("    ", "        ")}'

    # outer = def + docstring + inner; inner = def + body
    assert _long_functions(source(MAX_FUNCTION_LINES - 3), "m.py") == []
    assert _long_functions(source(MAX_FUNCTION_LINES - 2), "m.py") == ["m.py:1 outer (61 lines)"]
    assert _long_functions(source(MAX_FUNCTION_LINES), "m.py") == [
        "m.py:1 outer (63 lines)",
        "m.py:3 inner (61 lines)",
    ]
