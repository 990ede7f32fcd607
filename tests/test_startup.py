"""Start-up stays lean: the CLI's estimate path imports no app, table or schema machinery it does not use.

Not timed (time depends on the machine; see benchmarks/bench_catalog.py and docs/performance.md):
these check, in a fresh interpreter, which modules importing the CLI and building a command's parser
load, so a top-level import that drags in Textual, Rich tables or pydantic's TypeAdapter fails here.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from benchmarks.bench_catalog import ESTIMATE

UNWANTED = ("textual", "rich", "pydantic.type_adapter", "advisor.tui", "advisor.report")
"""Modules the estimate path must not import: the app, Rich (its tables and console are for text
output, imported when a table is printed, not for JSON), TypeAdapter (built only when a validated-text
flag is given) and the report package."""


def loaded_after(code: str) -> set[str]:
    """The modules in sys.modules after running `code` in a fresh interpreter."""
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def offending(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == u or m.startswith(f"{u}.") for u in UNWANTED))


def test_importing_the_cli_loads_nothing_heavy() -> None:
    modules = loaded_after("import advisor.cli.main")
    assert offending(modules) == []
    assert "pydantic" not in modules  # `advisor --version` and usage errors need no pydantic


@pytest.mark.parametrize("command", ["estimate", "recommend", "sensitivity"])
def test_building_a_command_parser_loads_nothing_heavy(command: str) -> None:
    modules = loaded_after(f"from advisor.cli.main import build_parser\nbuild_parser({command!r})")
    assert offending(modules) == []


def test_estimate_parser_builds_only_its_command() -> None:
    """`advisor estimate` registers (and imports) only its own command; `advisor --help` lists all."""
    from advisor.cli.main import COMMANDS, build_parser

    def commands(parser: object) -> list[str]:
        action = next(a for a in parser._actions if a.dest == "command")  # type: ignore[attr-defined]
        return list(action.choices)

    assert commands(build_parser("estimate")) == ["estimate"]
    assert sorted(commands(build_parser())) == sorted(COMMANDS)
    assert sorted(commands(build_parser("completion"))) == sorted(COMMANDS)


def test_estimate_json_run_loads_no_app_or_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The whole `estimate --json` command, run in a fresh interpreter."""
    argv = ESTIMATE
    code = (
        "import contextlib, io, os\n"
        f"os.environ['ADVISOR_CACHE_DIR'] = {str(tmp_path / 'cache')!r}\n"
        f"os.environ['ADVISOR_CONFIG_DIR'] = {str(tmp_path / 'cfg')!r}\n"
        "from advisor.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main({argv!r}) == 0\n"
    )
    modules = loaded_after(code)
    assert "advisor.core.costing.estimate" in modules  # it did run the estimate
    assert offending(modules) == []
    assert "advisor.core.costing.serving" not in modules  # a training run needs no serving model
    cached = loaded_after(code)  # the catalog now comes from the cache: no TOML read, no id misspelt
    assert "advisor.core.costing.estimate" in cached
    assert {"tomllib", "tomli_w", "difflib"} & cached == set()


TEARDOWN_MARK = (
    "import sys\n"
    "class Mark:\n"
    "    def __del__(self):\n"
    "        sys.stderr.write('teardown ran\\n')\n"
    "mark = Mark()\n"  # a module global: freed only by the interpreter's teardown
)
"""Code whose object says so on stderr when the interpreter's teardown frees it."""


def run_python(code: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_exit_now_flushes_and_ends_the_process_with_its_status_skipping_teardown() -> None:
    done = run_python(
        TEARDOWN_MARK + "from advisor.cli.main import exit_now\nsys.stdout.write('no newline')\nexit_now(3)"
    )
    assert (done.returncode, done.stdout, done.stderr) == (3, "no newline", "")


@pytest.mark.parametrize(
    "owed",
    [
        "import atexit\natexit.register(lambda: sys.stderr.write('handler ran\\n'))",
        "import threading, time\nthreading.Thread(target=time.sleep, args=(0.2,)).start()",
        "import tempfile\nfolder = tempfile.TemporaryDirectory()",
        "from concurrent.futures import ThreadPoolExecutor as Pool\nwith Pool(1) as pool:\n    pool.submit(int)",
    ],
    ids=["atexit handler", "another thread", "temporary folder", "thread pool"],
)
def test_exit_now_leaves_the_normal_exit_when_something_is_owed_at_exit(owed: str) -> None:
    done = run_python(
        TEARDOWN_MARK + owed + "\nfrom advisor.cli.main import exit_now\nexit_now(3)\nsys.exit(4)"
    )
    assert done.returncode == 4 and "teardown ran" in done.stderr


def test_the_advisor_process_prints_every_byte_and_its_status_then_skips_teardown(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`main()` as the process's entry (argv None) ends with `exit_now`; `main(argv)` returns."""
    env = {
        **__import__("os").environ,
        "ADVISOR_CACHE_DIR": str(tmp_path / "c"),
        "ADVISOR_CONFIG_DIR": str(tmp_path),
    }
    entry = (
        TEARDOWN_MARK + "from advisor.cli.main import main\nsys.argv[0] = 'advisor'\nraise SystemExit(main())"
    )
    args = tuple(ESTIMATE)
    done = run_python(entry, *args, env=env)
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["system"] == "h100"
    too_small = run_python(entry, *args[:-2], "8", "--json", env=env)  # 70B does not fit on 8 H100s: status 1
    assert too_small.returncode == 1 and too_small.stderr.startswith("advisor: ")
    assert "teardown ran" not in too_small.stderr + done.stderr
    returned = run_python(
        TEARDOWN_MARK + "from advisor.cli.main import main\nsys.exit(main(['systems']))", env=env
    )
    assert returned.returncode == 0 and "teardown ran" in returned.stderr
