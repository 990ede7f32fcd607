"""Shared fixtures. Every test runs with its own empty config dir: no developer settings leak in."""

from __future__ import annotations

import atexit
import copy
import functools
import gc
import itertools
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from advisor.core.model.catalog import Catalog
from advisor.io.catalog_files import load_catalog

os.environ["ADVISOR_CACHE_DIR"] = "off"
"""Loads made while tests are collected skip the catalog cache; each test then gets the session's own cache."""

if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    # Where bytecode is not written (a sandbox sets PYTHONDONTWRITEBYTECODE), every `advisor` the tests
    # start in a subprocess compiled the package from source again (about 0.1 s of CPU of 0.35 each). The
    # test processes and their children write it under one temporary folder instead, never beside the
    # sources, removed when the run ends (the xdist workers inherit the variable and leave it alone).
    _PYC = tempfile.mkdtemp(prefix="advisor-tests-pyc-")
    os.environ["PYTHONPYCACHEPREFIX"] = _PYC
    del os.environ["PYTHONDONTWRITEBYTECODE"]
    atexit.register(shutil.rmtree, _PYC, ignore_errors=True)

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="session")
def _config_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One folder per test, numbered here: `tmp_path_factory.mktemp` lists the whole base folder to number
    each new one, so a test process's thousand config folders cost it about a second (and every test's
    `tmp_path` listed them again)."""
    parent = tmp_path_factory.mktemp("configs")
    return (parent / str(n) for n in itertools.count())


@pytest.fixture(autouse=True)
def _isolated_config(
    _config_dirs: Iterator[Path], monkeypatch: pytest.MonkeyPatch, _session_cache_dir: Path
) -> Path:
    config = next(_config_dirs)
    config.mkdir()
    monkeypatch.setenv("ADVISOR_CONFIG_DIR", str(config))
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(_session_cache_dir))
    return config


_CATALOG: Catalog | None = None


def shipped_catalog() -> Catalog:
    """The shipped catalog, loaded once per session (it is immutable)."""
    global _CATALOG
    if _CATALOG is None:
        _CATALOG = load_catalog(user_dir=False)
    return _CATALOG


@pytest.fixture
def catalog() -> Catalog:
    return shipped_catalog()


_COMPUTED: list[tuple[Callable[..., Any], tuple[Any, ...], Any]] = []


def computed_once(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)`, computed once per test process for equal arguments; each caller gets its own deep
    copy, so no test's change reaches another. For the leave-one-out fits behind `advisor validate`
    (seconds each), which several tests ask of the same shipped catalog and evidence."""
    for done, key, value in _COMPUTED:
        if done is function and key == args:
            return copy.deepcopy(value)
    value = function(*args)
    _COMPUTED.append((function, args, value))
    return copy.deepcopy(value)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what collection made (modules, catalogs, test items: about 180,000 objects) out of the garbage
    collector's reach: every full collection during the run, and the five pytest makes at the end, skip it.
    Objects of it that are freed are still freed; only reference cycles among them would be kept."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect the garbage once and freeze what is left before pytest's five last collections (each walked
    every object the tests kept: about a second apiece on a worker holding 370,000, and execnet interrupts a
    worker still busy 5 s after it was told to stop, which printed KeyboardInterrupt warnings from
    hypothesis's gc callback). Garbage found here still reports its unraisable exceptions to pytest."""
    _COMPUTED.clear()
    gc.collect()
    gc.freeze()


FITS_GROUP = "validation-fits"
"""The xdist group of the tests that share a `computed_once` fit: one worker computes it, not each."""


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto` starts two workers per core (at most four more than the cores): the app's tests spend
    about half their time waiting on the app's own timers (the typing pause, the ranges' delay), so a
    core left to one worker idles through them (`python benchmarks/suite_time.py`: 997 s of worker
    time, 481 s of CPU). PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number (xdist's own rule)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + min(cores, 4)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests of a module that shares a `computed_once` result, and tests that run `advisor validate` on
    it, go to one xdist worker (`--dist loadgroup`): the leave-one-out fits (seconds of CPU each) are
    then computed once per run instead of once per worker that draws one of them."""
    for item in items:
        module = getattr(item, "module", None)
        if getattr(module, "computed_once", None) is computed_once or "validations_once" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(pytest.mark.xdist_group(FITS_GROUP))


@pytest.fixture
def validations_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """`advisor validate` run in this test reuses the fits `computed_once` made on equal inputs (the CLI
    still loads the catalog and evidence itself, and renders the result)."""
    from advisor.core.analysis import serving_fit, validation

    for module, name in ((validation, "validate"), (serving_fit, "validate_serving")):
        monkeypatch.setattr(module, name, functools.partial(computed_once, getattr(module, name)))
