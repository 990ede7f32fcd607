"""The validated-catalog cache: any change to a file read makes the next load see it; a bad cache is ignored."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from advisor.io import catalog_cache, catalog_files
from advisor.io.catalog_files import load_catalog
from advisor.io.paths import shipped_dir


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def base(tmp_path) -> Path:
    folder = tmp_path / "catalog"
    shutil.copytree(shipped_dir("catalog"), folder)
    return folder


def builds(monkeypatch) -> list[int]:
    """Count the loads that read and validate the files (cache misses)."""
    calls: list[int] = []
    real = catalog_files._build

    def counting(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(catalog_files, "_build", counting)
    return calls


def test_a_second_load_comes_from_the_cache_and_equals_a_fresh_one(base, cache_dir, monkeypatch):
    calls = builds(monkeypatch)
    first = load_catalog(base, user_dir=False)
    second = load_catalog(base, user_dir=False)
    assert len(calls) == 1 and len(list(cache_dir.glob("catalog-*.json"))) == 1
    assert second == first == load_catalog(base, user_dir=False, cache=False)
    # Equal to the last type too: a default of int 0 in a float field came back 0.0 from the cache, so
    # a report's JSON read "term_days": 0 or 0.0 as the cache was cold or warm (a flaky golden, stop 27).
    same_types = repr(second) == repr(load_catalog(base, user_dir=False, cache=False))
    assert same_types, "a value read back from the cache has another type than when built"


def test_an_edited_system_file_is_seen(base, cache_dir):
    load_catalog(base, user_dir=False)
    path = base / "systems" / "h100.toml"
    path.write_text(path.read_text().replace("setup_minutes = 34", "setup_minutes = 35"))
    assert load_catalog(base, user_dir=False).systems["h100"].setup.setup_minutes == 35


def test_an_added_and_a_removed_file_are_seen(base, cache_dir):
    assert "llama3-8b-copy" not in load_catalog(base, user_dir=False).models
    text = (
        (base / "models" / "llama3-8b.toml").read_text().replace('id = "llama3-8b"', 'id = "llama3-8b-copy"')
    )
    (base / "models" / "llama3-8b-copy.toml").write_text(text)
    assert "llama3-8b-copy" in load_catalog(base, user_dir=False).models
    (base / "models" / "llama3-8b-copy.toml").unlink()
    assert "llama3-8b-copy" not in load_catalog(base, user_dir=False).models


def test_an_overlay_edit_and_its_prices_are_seen(base, cache_dir, tmp_path):
    overlay = tmp_path / "mine"
    overlay.mkdir()
    shipped = load_catalog(base, user_dir=False).systems["h100"].default_rental.price_usd_per_gpu_hour
    assert shipped != 1.5
    assert (
        load_catalog(base, user_dir=overlay).systems["h100"].default_rental.price_usd_per_gpu_hour == shipped
    )
    (overlay / "prices.toml").write_text(
        '[[offer]]\nsystem = "h100"\noffer = "mine"\nprice_usd_per_gpu_hour = 1.5\ndefault = true\n'
        'source = "my sheet"\nas_of = "2026-11"\nimported_from = "sheet.csv"\n'
    )
    assert load_catalog(base, user_dir=overlay).systems["h100"].default_rental.price_usd_per_gpu_hour == 1.5
    (overlay / "prices.toml").unlink()
    assert (
        load_catalog(base, user_dir=overlay).systems["h100"].default_rental.price_usd_per_gpu_hour == shipped
    )


def test_a_new_package_version_or_schema_misses(base, cache_dir, monkeypatch, tmp_path):
    code = tmp_path / "__init__.py"
    code.write_text('__version__ = "0.1.0"\n')
    monkeypatch.setattr(catalog_cache, "code_files", lambda: [code])
    calls = builds(monkeypatch)
    load_catalog(base, user_dir=False)
    load_catalog(base, user_dir=False)
    code.write_text('__version__ = "0.2.0"\n')
    load_catalog(base, user_dir=False)
    assert len(calls) == 2


def test_the_key_covers_the_version_schema_and_loader():
    names = {path.name for path in catalog_cache.code_files()}
    assert {"__init__.py", "catalog.py", "economics.py", "catalog_files.py", "price_overlay.py"} <= names
    assert all(path.is_file() for path in catalog_cache.code_files())


CORRUPTIONS = {
    "garbage": lambda data: b"\x00\xff not a cache",
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "flipped byte": lambda data: data[:-50] + bytes([data[-50] ^ 1]) + data[-49:],
    "wrong key": lambda data: data.replace(
        data[len(catalog_cache.MAGIC) : len(catalog_cache.MAGIC) + 8], b"00000000"
    ),
}


@pytest.mark.parametrize("corrupt", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_cache_is_ignored_and_rebuilt(corrupt, base, cache_dir, monkeypatch):
    expected = load_catalog(base, user_dir=False)
    (path,) = cache_dir.glob("catalog-*.json")
    path.write_bytes(corrupt(path.read_bytes()))
    calls = builds(monkeypatch)
    assert load_catalog(base, user_dir=False) == expected
    assert len(calls) == 1
    assert load_catalog(base, user_dir=False) == expected and len(calls) == 1


def test_a_cache_with_a_valid_digest_but_bad_content_is_ignored(base, cache_dir, monkeypatch):
    import hashlib

    expected = load_catalog(base, user_dir=False)
    (path,) = cache_dir.glob("catalog-*.json")
    data = path.read_bytes()
    header = len(catalog_cache.MAGIC) + 65
    payload = b'{"systems": "not a catalog"}'
    path.write_bytes(data[:header] + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
    assert load_catalog(base, user_dir=False) == expected


def test_an_unusable_cache_dir_still_loads(base, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ADVISOR_CACHE_DIR", str(blocker / "cache"))
    assert load_catalog(base, user_dir=False).systems
    monkeypatch.setenv("ADVISOR_CACHE_DIR", "off")
    assert load_catalog(base, user_dir=False).systems


@pytest.mark.parametrize("size", [0, 1, 999, 1000, 1001, 5000])
def test_read_bytes_returns_every_byte_up_to_the_limit_and_refuses_more(tmp_path, size):
    # The cache key and every catalog file go through read_bytes, which reads the file's size, not the limit.
    from advisor.io.toml_read import read_bytes

    path = tmp_path / "file.toml"
    data = bytes(index % 251 for index in range(size))
    path.write_bytes(data)
    if size <= 1000:
        assert read_bytes(path, ValueError, limit=1000) == data
    else:
        with pytest.raises(ValueError, match="too large"):
            read_bytes(path, ValueError, limit=1000)


def test_read_bytes_reads_a_file_that_grew_after_its_size_was_taken(tmp_path, monkeypatch):
    import os

    from advisor.io import toml_read

    path = tmp_path / "file.toml"
    path.write_bytes(b"x" * 900)
    real = os.fstat

    def stale(fd):  # the size as it was before the last 600 bytes were written
        fields = list(real(fd))
        fields[6] -= 600  # st_size
        return os.stat_result(fields)

    monkeypatch.setattr(toml_read.os, "fstat", stale)
    assert toml_read.read_bytes(path, ValueError, limit=1000) == b"x" * 900
    path.write_bytes(b"x" * 1200)
    with pytest.raises(ValueError, match="too large"):
        toml_read.read_bytes(path, ValueError, limit=1000)
