"""Shipped data is tested as data; bad catalog files give clear messages; overlays work."""

from __future__ import annotations

import shutil

import pytest
from pydantic import BaseModel

from advisor.core.model.catalog import Sourced
from advisor.errors import CatalogError
from advisor.io.catalog_files import load_catalog
from tests.conftest import DATA, ROOT

REQUIRED_SYSTEMS = {"a100", "h100", "h200", "b200", "gb200-nvl72"}
REQUIRED_MODELS = {
    "gpt3-175b",
    "llama2-7b",
    "llama2-13b",
    "llama2-70b",
    "llama3-8b",
    "llama3-70b",
    "llama3-405b",
    "mixtral-8x7b",
    "deepseek-v3",
    "llama4-maverick",
}


def test_shipped_catalog_loads_cleanly(catalog):
    assert catalog.load_warnings == ()
    assert REQUIRED_SYSTEMS <= set(catalog.systems)
    assert REQUIRED_MODELS <= set(catalog.models)


@pytest.mark.parametrize(
    "path", sorted((ROOT / "catalog").glob("*/*.toml")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_one_entry_per_file_named_by_its_id(path):
    import tomllib

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if path.name != "scaling.toml":
        assert data["id"] == path.stem


def _sourced_sections(obj):
    if isinstance(obj, Sourced):
        yield obj
    if isinstance(obj, BaseModel):
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            for item in value if isinstance(value, tuple) else (value,):
                yield from _sourced_sections(item)


def test_every_number_has_source_and_date(catalog):
    sections = [s for system in catalog.systems.values() for s in _sourced_sections(system)]
    sections += [
        s
        for name in type(catalog.economics).model_fields
        for s in _sourced_sections(getattr(catalog.economics, name))
    ]
    assert len(sections) > 40
    for section in sections:
        assert section.source and section.as_of
        if section.assumption:
            assert "assum" in (section.source + section.note).lower()
    for model in catalog.models.values():
        assert model.source and model.as_of


def test_model_presets_match_the_issue(catalog):
    assert catalog.model("deepseek-v3").params_total == 671e9
    assert catalog.model("deepseek-v3").params_active == 37e9
    assert catalog.model("llama4-maverick").params_total == 400e9
    assert catalog.model("llama4-maverick").params_active == 17e9


def test_systems_have_what_the_issue_lists(catalog):
    for system in catalog.systems.values():
        assert system.compute.bf16_dense_tflops > 0
        assert system.memory.hbm_gb > 0 and system.memory.hbm_bandwidth_tbps > 0
        assert system.interconnect.nvlink_domain_gpus >= 8
        assert system.power.it_w_per_gpu > system.power.gpu_tdp_w
        assert system.capex.all_in_usd_per_node > 0
        assert system.default_rental.price_usd_per_gpu_hour > 0
    assert catalog.system("a100").compute.fp8_dense_tflops is None
    assert catalog.system("gb200-nvl72").compute.fp4_dense_tflops == 10000


def test_unknown_ids_list_the_valid_ones(catalog):
    with pytest.raises(
        CatalogError,
        match="valid: a100, b200, b300, gb200-nvl72, gb300-nvl72, h100, h200, mi300x, mi325x, mi355x",
    ):
        catalog.system("tpu")
    with pytest.raises(CatalogError, match="llama3-70b"):
        catalog.model("llama9")


def test_every_system_names_the_basis_of_its_maturity(catalog):
    """A maturity label is a judgement a rule's 100% penalty can rest on: it names its publication (a URL)
    or says it is an assumption ([A]) and why."""
    for system in catalog.systems.values():
        basis = system.maturity
        assert basis.level in ("mature", "established", "new")
        assert basis.as_of and len(basis.source) > 40, system.id
        assert basis.url.startswith("https://") or (basis.assumption and "[A]" in basis.source), system.id


def test_explicit_path_loads_test_catalog():
    cat = load_catalog(DATA / "catalog_min", user_dir=False)
    assert list(cat.systems) == ["testgpu"] and list(cat.models) == ["tiny-1b"]


def test_bad_files_are_skipped_with_messages_and_the_rest_loads():
    cat = load_catalog(DATA / "bad_catalog", user_dir=False)
    assert set(cat.systems) == {"testgpu"}
    assert set(cat.models) == {"tiny-1b"}
    text = "\n".join(cat.load_warnings)
    assert (
        "typo-key.toml:6: compute.bf16_dense_tflop: unknown key 'bf16_dense_tflop' (did you mean 'bf16_dense_tflops'?)"
        in text
    )
    assert "negative-tdp.toml:25: power.gpu_tdp_w: must be above 0 (got -800)" in text
    assert "no-source.toml" in text and "memory.source: missing" in text
    assert 'text-number.toml:12: memory.hbm_gb: expected a number (got "' in text
    assert "should" not in text, "pydantic's words ('Input should be a valid number'), not ours"
    assert "broken-syntax.toml: not valid TOML" in text and "line 2" in text
    assert "unknown system 'tpu-v9'" in text
    assert (
        "maturity-bare.toml:3: maturity: maturity = 'new' needs its basis: write a [maturity] table" in text
    )
    assert "maturity-no-source.toml:63: maturity.source: missing (required)" in text


def test_user_overlay_overrides_and_adds(tmp_path):
    overlay = tmp_path / "mine"
    (overlay / "systems").mkdir(parents=True)
    h100 = (ROOT / "catalog/systems/h100.toml").read_text()
    (overlay / "systems/h100.toml").write_text(
        h100.replace("price_usd_per_gpu_hour = 3.90", "price_usd_per_gpu_hour = 5.95", 1)
    )
    (overlay / "systems/h100-cheap.toml").write_text(h100.replace('id = "h100"', 'id = "h100-cheap"'))
    (overlay / "economics.toml").write_text("[facility]\npue = 1.1\n")
    cat = load_catalog(user_dir=overlay)
    assert cat.system("h100").default_rental.price_usd_per_gpu_hour == 5.95
    assert "h100-cheap" in cat.systems
    assert cat.economics.facility.pue == 1.1
    assert cat.economics.facility.source  # the shipped source is kept for keys not overridden
    assert (ROOT / "catalog/systems/h100.toml").read_text() == h100


def test_platform_config_dir_overlay_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv("ADVISOR_CONFIG_DIR", str(tmp_path))
    (tmp_path / "catalog").mkdir()
    (tmp_path / "catalog/economics.toml").write_text("[electricity]\nusd_per_kwh = 0.2\n")
    assert load_catalog().economics.electricity.usd_per_kwh == 0.2
    assert load_catalog(user_dir=False).economics.electricity.usd_per_kwh == 0.0862


def test_missing_economics_is_an_error(tmp_path):
    shutil.copytree(DATA / "catalog_min", tmp_path / "cat")
    (tmp_path / "cat/economics.toml").unlink()
    with pytest.raises(CatalogError, match=r"economics\.toml: no such file"):
        load_catalog(tmp_path / "cat", user_dir=False)


def test_missing_folder_is_an_error(tmp_path):
    with pytest.raises(CatalogError, match="catalog folder not found"):
        load_catalog(tmp_path / "nope", user_dir=False)


def test_an_unreadable_catalog_folder_is_an_error_not_silently_empty(tmp_path, monkeypatch):
    # As root every folder is readable, so the refusal is simulated where the folder is listed.
    import os

    from advisor.errors import CatalogError
    from advisor.io import catalog_files

    real = os.scandir

    def refuse(path):
        if str(path).endswith("systems"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(catalog_files.os, "scandir", refuse)
    with pytest.raises(CatalogError, match=r"systems: cannot list the system files \(Permission denied\)"):
        catalog_files.load_catalog(user_dir=False, cache=False)
