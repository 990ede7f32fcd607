"""What a user of the package index checks first: the name, the license, typing, the changelog, --version."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import advisor

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_distribution_name_is_free_and_the_command_stays_advisor():
    # `advisor` on PyPI is an unrelated 2018 project: the distribution is gpu-advisor.
    assert PROJECT["name"] == "gpu-advisor"
    assert PROJECT["scripts"] == {"advisor": "advisor.cli.entry:run"}


def test_ctrl_c_while_the_command_loads_is_status_130_not_a_traceback(monkeypatch):
    # A person pressing Ctrl-C just after Enter interrupts the imports, before `main` can catch it.
    import types

    from advisor.cli import entry

    class Loading(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            # Only the name the entry point imports: any other lookup (tools walking sys.modules for
            # `__spec__`, `__file__`) is a plain miss, or the interrupt escapes into them.
            if name == "main":
                raise KeyboardInterrupt
            raise AttributeError(name)

    monkeypatch.setitem(sys.modules, "advisor.cli.main", Loading("advisor.cli.main"))
    assert entry.run() == entry.INTERRUPTED


def test_license_is_mit_in_the_repository_and_the_metadata():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    sdist = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["hatch"]["build"]
    assert {"LICENSE", "CHANGELOG.md"} <= set(sdist["targets"]["sdist"]["include"])


def test_metadata_has_keywords_and_classifiers():
    assert "gpu" in PROJECT["keywords"] and "tco" in PROJECT["keywords"]
    classifiers = PROJECT["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert (
        f"Programming Language :: Python :: {sys.version_info.major}.{sys.version_info.minor}" in classifiers
    )


def test_package_is_typed():
    assert (Path(advisor.__file__).parent / "py.typed").is_file()


def test_changelog_follows_keep_a_changelog_and_has_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "[Keep a Changelog](https://keepachangelog.com/" in text and "## [Unreleased]" in text
    entry = re.search(rf"^## \[{re.escape(advisor.__version__)}\] - (\d{{4}}-\d{{2}}-\d{{2}})$", text, re.M)
    assert entry, f"CHANGELOG.md has no entry for {advisor.__version__}"
    assert "### Added" in text[entry.end() :]


def test_version_flag_and_python_dash_m():
    for argv in (["-m", "advisor", "--version"], ["-m", "advisor.cli.main", "--version"]):
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.strip() == f"advisor {advisor.__version__}"


def test_shtab_is_a_declared_dependency():
    assert any(dep.startswith("shtab") for dep in PROJECT["dependencies"])
