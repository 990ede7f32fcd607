"""Shared fixtures. Every test runs with its own empty config dir: no developer settings leak in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from advisor.core.model.catalog import Catalog
from advisor.io.catalog_files import load_catalog

os.environ["ADVISOR_CACHE_DIR"] = "off"
"""Loads made while tests are collected skip the catalog cache; each test then gets the session's own cache."""

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent


@pytest.fixture(scope="session")
def _session_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def _isolated_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, _session_cache_dir: Path
) -> Path:
    config = tmp_path_factory.mktemp("config")
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
