"""The hostile-input corpus (tests/data/hostile/, issue 16) over every command, as a user runs them.

Each case runs `advisor` in a subprocess with a generous timeout (a hang is the failure, not a slow
run) and asserts: the exit status (2; 1 for `rules check`; 0 where hostile text is valid data that
must only be shown safely), a message naming the input, no escape byte or traceback on the terminal,
and nothing in the work folder replaced. Special files (FIFOs, devices) and large inputs are made here.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

HOSTILE = Path(__file__).parent / "data" / "hostile"
TIMEOUT_S = 60.0
"""Far above the 2 s each case takes on a loaded machine: only a hang reaches it."""
ESC = "\x1b]2;PWNED\x07"


@dataclass(frozen=True)
class Case:
    """One hostile input: its category, the command line, and what the user must be told."""

    category: str
    argv: tuple[str, ...]
    message: str
    """Text the terminal output must hold (it names the file, line or flag at fault)."""
    status: int = 2

    @property
    def id(self) -> str:
        return f"{self.category}:{' '.join(self.argv)[:70]}"


def _c(category: str, message: str, *argv: str, status: int = 2) -> Case:
    return Case(category, argv, message, status)


EST = ("estimate", "--model", "llama3-8b", "--tokens", "1T")
S = "{H}/scenarios/"
CASES = [
    # terminal: control characters, markup and bidi overrides from outside are shown, never obeyed
    _c("terminal", "control-in-precision.toml:6", "estimate", S + "control-in-precision.toml"),
    _c("terminal", "control-in-system-id.toml:2", "recommend", S + "control-in-system-id.toml"),
    _c("terminal", "\\x1b]2;PWNED\\x07[/]", "estimate", S + "control-and-markup-in-name.toml", status=0),
    _c("terminal", "\\u001b", "report", S + "control-and-markup-in-name.toml", status=0),
    _c("terminal", "", "recommend", S + "control-and-markup-in-name.toml", status=0),
    _c("terminal", "", "sensitivity", S + "control-and-markup-in-name.toml", "--samples", "20", status=0),
    _c("terminal", "", "compare", S + "control-and-markup-in-name.toml", S + "bidi-in-name.toml", status=0),
    _c("terminal", "\\u202e", "report", S + "bidi-in-name.toml", status=0),
    _c("terminal", "[/]", "--catalog", "{H}/catalog/markup-names", "systems", status=0),
    _c("terminal", "[/]", "--catalog", "{H}/catalog/markup-names", "models", status=0),
    _c("terminal", "markup.toml:1", "--catalog", "{H}/catalog/markup-id", "systems", status=0),
    _c("terminal", "unknown model", *EST[:2], ESC + "[/]", *EST[3:]),
    _c("terminal", "[/]", "--rules", "{tmp}/markup-rules", "rules", "list", status=0),
    _c("terminal", "ok:", "rules", "check", "{H}/rules/control-in-because.toml", status=0),
    _c(
        "terminal",
        "control-in-system.csv: line 2",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "{H}/prices/control-in-system.csv",
    ),
    _c("terminal", "run.toml:1: id", "validate", "--evidence", "{H}/evidence/control-in-id"),
    # numbers: finite and in the input's declared range, at every boundary
    _c(
        "numbers",
        "inf-wait.toml:7: assumptions.wait_hours: inf is not a finite number",
        "estimate",
        S + "inf-wait.toml",
        "--json",
    ),
    _c("numbers", "nan-pue.toml:7", "recommend", S + "nan-pue.toml", "--json"),
    _c("numbers", "huge-tokens.toml:4: workload.tokens", "estimate", S + "huge-tokens.toml", "--json"),
    _c("numbers", "tiny-mfu.toml:6", "sensitivity", S + "tiny-mfu.toml"),
    _c("numbers", "huge-price.toml:6", "report", S + "huge-price.toml", "--format", "json"),
    _c("numbers", "tiny-price.toml:6", "recommend", S + "tiny-price.toml"),
    _c("numbers", "serving-batch-over.toml:7", "estimate", S + "serving-batch-over.toml"),
    # a serving rate whose month of tokens is past the tokens' range (a traceback before, stop 27)
    _c(
        "numbers",
        "--target-tokens-per-second",
        *EST[:3],
        "--kind",
        "inference",
        "--target-tokens-per-second",
        "1e12",
    ),
    _c(
        "numbers",
        "requests_per_second x output_tokens",
        "recommend",
        S + "serving-rate-product-over.toml",
    ),
    _c("numbers", "huge-params.toml:6", "estimate", S + "huge-params.toml"),
    _c("numbers", "boolean-tokens.toml:4", "estimate", S + "boolean-tokens.toml"),
    _c("numbers", "--tokens", *EST[:4], "1e300", "--json"),
    _c("numbers", "--tokens", *EST[:3], "--tokens=-inf"),
    _c("numbers", "--mfu", *EST, "--mfu", "1e-300", "--json"),
    _c("numbers", "--goodput", *EST, "--goodput", "1e-300", "--json"),
    _c(
        "numbers",
        "--mfu",
        "sensitivity",
        "--model",
        "llama2-7b",
        "--tokens",
        "1T",
        "--gpus",
        "64",
        "--mfu",
        "1e-200",
    ),
    _c("numbers", "--price-per-gpu-hour", "sensitivity", *EST[1:], "--price-per-gpu-hour", "1e-200"),
    _c("numbers", "--budget-usd", *EST, "--budget-usd=-$2"),
    _c(
        "numbers",
        "tiny-mtbf/systems/testgpu.toml:48",
        "--catalog",
        "{H}/catalog/tiny-mtbf",
        *EST,
        "--system",
        "testgpu",
        "--mfu",
        "0.4",
    ),
    _c(
        "numbers",
        "huge-tflops/systems/testgpu.toml:6",
        "--catalog",
        "{H}/catalog/huge-tflops",
        *EST,
        "--system",
        "testgpu",
    ),
    _c(
        "numbers",
        "huge-params/models/huge.toml:3",
        "--catalog",
        "{H}/catalog/huge-params",
        "estimate",
        "--model",
        "huge",
        "--tokens",
        "1T",
    ),
    _c(
        "numbers",
        "depreciation_years",
        "--catalog",
        "{H}/catalog/tiny-depreciation",
        *EST,
        "--pricing",
        "own",
    ),
    _c("numbers", "inf-economics/economics.toml:2", "--catalog", "{H}/catalog/inf-economics", "systems"),
    _c("numbers", "inf-weight.toml:1", "rules", "check", "{H}/rules/inf-weight.toml", status=1),
    _c("numbers", "nan-weight.toml:1", "rules", "check", "{H}/rules/nan-weight.toml", status=1),
    _c("numbers", "nan.json: NaN", "--catalog", "{tmp}/user", "prices", "import", "{H}/prices/nan.json"),
    _c("numbers", "infinity.json", "--catalog", "{tmp}/user", "prices", "import", "{H}/prices/infinity.json"),
    _c(
        "numbers",
        "huge-price.csv: line 2",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "{H}/prices/huge-price.csv",
    ),
    _c("numbers", "run.toml:10: tokens", "validate", "--evidence", "{H}/evidence/inf-tokens"),
    _c("numbers", "run.toml:7: gpus", "validate", "--evidence", "{H}/evidence/huge-gpus"),
    # nesting: deep tables and arrays in every kind of file
    _c("nesting", "deep-array.toml:6", "estimate", S + "deep-array.toml"),
    _c("nesting", "deep-tables.toml:6", "report", S + "deep-tables.toml"),
    _c("nesting", "deep-2000.toml", "estimate", "{tmp}/deep-2000.toml"),
    _c("nesting", "deep/economics.toml:2", "--catalog", "{H}/catalog/deep", "systems"),
    _c("nesting", "deep-not.toml:1", "rules", "check", "{H}/rules/deep-not.toml", status=1),
    _c("nesting", "not-1000.toml", "rules", "check", "{tmp}/not-1000.toml", status=1),
    _c("nesting", "not-1000.toml", "--rules", "{tmp}/deep-rules", "recommend", *EST[1:]),
    _c("nesting", "deep.json", "--catalog", "{tmp}/user", "prices", "import", "{H}/prices/deep.json"),
    _c("numbers", "more than 250 rules", "--rules", "{tmp}/many-rules", "recommend", *EST[1:]),
    # strings and sizes: long values are refused or cut, never echoed whole or built
    _c("strings", "long-string.toml:2: name: text too long", "estimate", "{tmp}/long-string.toml"),
    _c("strings", "echo.toml:3: workload.model: text too long", "estimate", "{tmp}/echo.toml"),
    _c("strings", "--tokens", *EST[:3], "--tokens", "1" * 20_000),
    _c("strings", "too large", "estimate", "{tmp}/big.toml"),
    _c("strings", "more problems", "estimate", "{tmp}/many-errors.toml"),
    _c(
        "strings",
        "widths and precisions are at most 40",
        "rules",
        "check",
        "{H}/rules/format-width.toml",
        status=1,
    ),
    _c(
        "strings",
        "widths and precisions are at most 40",
        "rules",
        "check",
        "{H}/rules/format-precision.toml",
        status=1,
    ),
    # special files: FIFOs, devices and folders are refused without blocking
    _c("special", "fifo.toml: is not a regular file", "estimate", "{tmp}/fifo.toml"),
    _c("special", "fifo.toml: is not a regular file", "compare", "{tmp}/fifo.toml", S + "bom.toml"),
    _c("special", "/dev/zero: is not a regular file", "report", "/dev/zero"),
    _c("special", "a-folder: is a folder", "sensitivity", "{tmp}/a-folder"),
    _c(
        "special",
        "fifo-catalog/economics.toml: is not a regular file",
        "--catalog",
        "{tmp}/fifo-catalog",
        "systems",
    ),
    _c("special", "x.toml: is not a regular file", "--catalog", "{tmp}/fifo-systems", *EST, "--system", "x"),
    _c("special", "fifo.toml: is not a regular file", "rules", "check", "{tmp}/fifo.toml", status=1),
    _c(
        "special",
        "fifo-rules/a.toml: is not a regular file",
        "--rules",
        "{tmp}/fifo-rules",
        "recommend",
        *EST[1:],
    ),
    _c(
        "special",
        "fifo.csv: is not a regular file",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "{tmp}/fifo.csv",
    ),
    _c(
        "special",
        "/dev/zero: is not a regular file",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "/dev/zero",
    ),
    _c(
        "special",
        "fifo-evidence/run.toml: is not a regular file",
        "validate",
        "--evidence",
        "{tmp}/fifo-evidence",
    ),
    # writes: only a regular file (or a new name) is ever replaced, and only with --force
    _c("writes", "fifo.md: is a FIFO", "report", S + "bom.toml", "-o", "{tmp}/fifo.md", "--force"),
    _c("writes", "null.md: is a device", "report", S + "bom.toml", "-o", "{tmp}/null.md", "--force"),
    _c("writes", "folder.md: is a folder", "report", S + "bom.toml", "-o", "{tmp}/folder.md", "--force"),
    _c("writes", "dangling.md: already exists", "report", S + "bom.toml", "-o", "{tmp}/dangling.md"),
    _c("writes", "existing.md: already exists", "report", S + "bom.toml", "-o", "{tmp}/existing.md"),
    _c("writes", "the file name is too long", "report", S + "bom.toml", "-o", "{tmp}/" + "x" * 300 + ".md"),
    _c("writes", "a-file: is a file, not a folder", "report", S + "bom.toml", "-o", "{tmp}/a-file/r.md"),
    _c(
        "writes",
        "a-file is a file, not a folder",
        "compare",
        S + "bom.toml",
        S + "bidi-in-name.toml",
        "-o",
        "{tmp}/a-file/x/r.md",
    ),
    _c("writes", "fifo.toml: is a FIFO", "recommend", S + "bom.toml", "--save", "{tmp}/fifo.toml", "--force"),
    _c("writes", "existing.md: already exists", "recommend", S + "bom.toml", "--save", "{tmp}/existing.md"),
    # duplicates: in lists, keys and rule ids
    _c(
        "duplicates",
        "duplicate-system.toml:2: systems: 'h100' is listed twice",
        "recommend",
        S + "duplicate-system.toml",
    ),
    _c(
        "duplicates",
        "duplicate-key.toml: not valid TOML: Cannot overwrite a value (at line 6",
        "estimate",
        S + "duplicate-key.toml",
    ),
    _c("duplicates", "dup", "rules", "check", "{tmp}/dup-a.toml", "{tmp}/dup-b.toml", status=1),
    # digits: ASCII only, everywhere
    _c("digits", "arabic-digits.toml:5: workload.gpus", "estimate", S + "arabic-digits.toml"),
    _c("digits", "fullwidth-software.toml:6", "estimate", S + "fullwidth-software.toml"),
    _c("digits", "--gpus", *EST, "--gpus", "١٢"),
    _c("digits", "--software", *EST, "--software", "２０２０-０１"),
    _c(
        "digits",
        "arabic-digits.csv: line 2",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "{H}/prices/arabic-digits.csv",
    ),
    _c(
        "digits",
        "skypilot-arabic-count.csv: line 2: AcceleratorCount",
        "--catalog",
        "{tmp}/user",
        "prices",
        "import",
        "{H}/prices/skypilot-arabic-count.csv",
    ),
    _c(
        "messages",
        "unknown-top-key.toml:2: bogus: unknown key 'bogus' (valid: assumptions, constraints, "
        "name, notes, objective, schema, ",
        "estimate",
        S + "unknown-top-key.toml",
    ),
    # encodings
    _c("encoding", "not-utf8.toml: not UTF-8 text", "estimate", S + "not-utf8.toml"),
    _c("encoding", "", "estimate", S + "bom.toml", status=0),
]


def _rule(rule_id: str, when: str = '{ fact = "system", op = "==", value = "h100" }') -> str:
    return (
        f'[[rule]]\nid = "{rule_id}"\ntitle = "t"\nsource = "test"\nbecause = "b"\nwhen = {when}\n'
        'effects = [{ kind = "prefer", weight = 0.9 }]\n'
    )


def _make_inputs(root: Path) -> None:
    """The special files and large inputs the corpus cannot hold in git."""
    w = '[workload]\nmodel = "llama3-8b"\ntokens = "1T"\ngpus = 8\n'
    (root / "a-folder").mkdir()
    (root / "folder.md").mkdir()
    (root / "a-file").write_text("a file, not a folder\n")
    (root / "existing.md").write_text("keep me\n")
    (root / "user").mkdir()
    for name in ("fifo.toml", "fifo.md", "fifo.csv"):
        os.mkfifo(root / name)
    (root / "null.md").symlink_to("/dev/null")  # a device behind a link; replacing would replace the link
    (root / "dangling.md").symlink_to(root / "nowhere")
    for folder, name in (("fifo-catalog", "economics.toml"), ("fifo-systems/systems", "x.toml")):
        (root / folder).mkdir(parents=True)
        os.mkfifo(root / folder / name)
    for folder, name in (("fifo-rules", "a.toml"), ("fifo-evidence", "run.toml")):
        (root / folder).mkdir()
        os.mkfifo(root / folder / name)
    (root / "deep-2000.toml").write_text("schema = 1\nnotes = " + "[" * 2000 + "]" * 2000 + "\n" + w)
    chain = "{ not = " * 1000 + '{ fact = "system", op = "==", value = "h100" }' + " }" * 1000
    (root / "not-1000.toml").write_text(_rule("deep", chain))
    (root / "deep-rules").mkdir()
    (root / "deep-rules" / "not-1000.toml").write_text(_rule("deep", chain))
    (root / "markup-rules").mkdir()
    title = 'title = "\\u001b]2;PWNED\\u0007[/]"'
    (root / "markup-rules" / "r.toml").write_text(_rule("[/]").replace('title = "t"', title))
    (root / "many-rules").mkdir()  # 2,000 prefers of weight 0.9 once underflowed a score to 0
    (root / "many-rules" / "r.toml").write_text("".join(_rule(f"p{i}") for i in range(2000)))
    (root / "dup-a.toml").write_text(_rule("dup"))
    (root / "dup-b.toml").write_text(_rule("dup"))
    (root / "long-string.toml").write_text(f'schema = 1\nname = "{"x" * 70_000}"\n' + w)
    (root / "echo.toml").write_text(f'schema = 1\n[workload]\nmodel = "{"m" * 100_000}"\ntokens = "1T"\n')
    with (root / "big.toml").open("w") as big:
        big.write("schema = 1\n" + w + "# " + "x" * (9 * 2**20) + "\n")
    bad = "".join(f"  {i},  # {'v' * 200}\n" for i in range(2000))  # 2,000 bad ids in 400 KB
    (root / "many-errors.toml").write_text(f"schema = 1\nsystems = [\n{bad}]\n" + w)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    _make_inputs(root)
    return root


def _snapshot(root: Path) -> dict[str, tuple[int, bytes | str]]:
    """What is at each name under `root`: its type, and a file's bytes or a link's target."""
    found: dict[str, tuple[int, bytes | str]] = {}
    for path in root.rglob("*"):
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            content: bytes | str = os.readlink(path)
        elif stat.S_ISREG(mode) and path.stat().st_size < 2**20:
            content = path.read_bytes()
        else:
            content = ""
        found[str(path.relative_to(root))] = (stat.S_IFMT(mode), content)
    return found


def run_advisor(argv: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    """`advisor ARGV` in a subprocess with its own config and cache folders; a hang fails the test."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    cache = home.parent / f"{home.name}-cache"  # beside the work folder: a cache write is no replacement
    env |= {"ADVISOR_CONFIG_DIR": str(home / "config"), "ADVISOR_CACHE_DIR": str(cache), "COLUMNS": "200"}
    try:
        return subprocess.run(
            [sys.executable, "-m", "advisor.cli.main", *argv],
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT_S,
            env=env,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"advisor {' '.join(argv)[:200]} hung (no answer in {TIMEOUT_S:.0f} s)")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_hostile_input_gets_a_clear_message_and_nothing_else(case: Case, work: Path):
    argv = [arg.replace("{H}", str(HOSTILE)).replace("{tmp}", str(work)) for arg in case.argv]
    before = _snapshot(work)
    done = run_advisor(argv, work)
    shown = done.stdout + done.stderr
    assert done.returncode == case.status, shown[-2000:]
    assert case.message in shown, shown[-2000:]
    assert "\x1b" not in shown and "\u202e" not in shown
    assert "Traceback" not in shown
    assert len(done.stderr) < 20_000  # nothing echoed whole
    assert _snapshot(work) == before  # nothing replaced, nothing left behind


def test_every_corpus_file_is_used_by_a_case():
    named = " ".join(" ".join(c.argv) for c in CASES).replace("{H}/", "")
    unused = [
        str(path.relative_to(HOSTILE))
        for path in HOSTILE.rglob("*.*")
        if path.is_file() and path.name != "README.md"
        if str(path.relative_to(HOSTILE)) not in named
        and not any(
            str(folder.relative_to(HOSTILE)) in named.split()
            for folder in path.parents
            if HOSTILE in folder.parents
        )
    ]
    assert not unused


def test_a_report_file_holds_no_raw_bidi_override_or_control_character(tmp_path: Path):
    for fmt in ("md", "html", "json", "toml"):
        out = tmp_path / f"r.{fmt}"
        done = run_advisor(["report", str(HOSTILE / "scenarios/bidi-in-name.toml"), "-o", str(out)], tmp_path)
        assert done.returncode == 0, done.stderr
        text = out.read_text(encoding="utf-8")
        assert "\u202e" not in text and "\u2066" not in text and "\\u202e" in text


def test_concurrent_writers_to_one_new_name_one_wins(tmp_path: Path):
    target = tmp_path / "r.md"
    code = (
        "import sys\nfrom advisor.io.atomic import write_atomic\nfrom advisor.errors import ReportError\n"
        "try:\n    write_atomic(sys.argv[1], sys.argv[2])\n    print('wrote')\n"
        "except ReportError:\n    print('refused')\n"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(target), str(i)], stdout=subprocess.PIPE, text=True)
        for i in range(12)
    ]
    outcomes = [p.communicate(timeout=TIMEOUT_S)[0].strip() for p in procs]
    assert outcomes.count("wrote") == 1 and outcomes.count("refused") == 11
    assert sorted(os.listdir(tmp_path)) == ["r.md"]  # no temporary file left
