"""`advisor prices import` and `prices list`: imported offers reach the answer, bad files are refused."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from advisor.cli.main import main
from advisor.io.catalog_files import load_catalog

SKYPILOT = """\
InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Region,AvailabilityZone,Price,SpotPrice
gpu_8x_h100,H100,8,208,1800,,us-east-1,,12.00,6.00
gpu_8x_h100,H100,8,208,1800,,us-west-1,,16.00,
gpu_1x_h100,H100,1,26,200,,eu-west-1,,1.75,
gpu_1x_a10,A10,1,30,200,,us-east-1,,0.75,
cpu_4x,,,4,16,,us-east-1,,0.10,
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def recommend_price(capsys, system: str) -> tuple[float, str]:
    code, out, _ = run(capsys, "report", "--model", "llama3-70b", "--tokens", "1T", "--format", "json")
    assert code == 0
    rows = json.loads(out)["assumptions"]
    row = next(r for r in rows if r["subject"] == system and r["topic"] == "rental")
    return row["values"]["price_usd_per_gpu_hour"], row


def test_a_skypilot_import_sets_the_price_the_answer_uses(capsys, tmp_path):
    before, row = recommend_price(capsys, "h100")
    assert not row["user_price"]
    vms = write(tmp_path, "vms.csv", SKYPILOT)

    code, out, _ = run(capsys, "prices", "import", str(vms), "--provider", "lambda", "--as-of", "2026-11-20")

    assert code == 0, out
    assert "skipped: A10 (1 row(s))" in out
    # Per GPU-hour: 12/8 = 1.50, 16/8 = 2.00, 1.75/1: the median is 1.75, the range 1.50-2.00.
    after, row = recommend_price(capsys, "h100")
    assert before != after and after == pytest.approx(1.75)
    assert row["user_price"] and row["as_of"] == "2026-11-20"
    offer = load_catalog().systems["h100"].default_rental
    assert (offer.low_usd_per_gpu_hour, offer.high_usd_per_gpu_hour) == (1.5, 2.0)
    assert "Spot median $0.75" in offer.note

    code, out, _ = run(capsys, "report", "--model", "llama3-70b", "--tokens", "1T")
    line = next(line for line in out.splitlines() if "your imported price" in line)
    assert "h100" in line and "2026-11-20" in line
    code, out, _ = run(capsys, "recommend", "--model", "llama3-70b", "--tokens", "1T")
    assert "h100: $1.75/GPU-h is your imported price" in out and "as of 2026-11-20" in out


def test_our_csv_and_json_merge_into_the_overlay_without_losing_entries(capsys, tmp_path):
    overlay = tmp_path / "mine"
    (overlay / "systems").mkdir(parents=True)
    csv_file = write(
        tmp_path,
        "a.csv",
        "system,offer,price,low,high,as_of,source\n"
        "a100,broker A,1.40,1.20,1.60,2026-10-01,broker A price sheet\n",
    )
    json_file = write(
        tmp_path,
        "b.json",
        json.dumps(
            [{"system": "h200", "offer": "broker B", "price": 3.1, "as_of": "2026-09", "source": "broker B"}]
        ),
    )
    assert run(capsys, "--catalog", str(overlay), "prices", "import", str(csv_file))[0] == 0
    assert run(capsys, "--catalog", str(overlay), "prices", "import", str(json_file), "--no-default")[0] == 0

    catalog = load_catalog(user_dir=overlay)
    assert catalog.systems["a100"].default_rental.offer == "broker A"
    assert catalog.systems["h200"].default_rental.offer != "broker B"
    assert any(o.offer == "broker B" for o in catalog.systems["h200"].rental)

    # Re-importing replaces the offer of the same name, and keeps the other file's.
    write(tmp_path, "a.csv", "system,offer,price,as_of,source\na100,broker A,1.30,2026-11-01,sheet\n")
    assert run(capsys, "--catalog", str(overlay), "prices", "import", str(csv_file))[0] == 0
    catalog = load_catalog(user_dir=overlay)
    assert [o.price_usd_per_gpu_hour for o in catalog.systems["a100"].rental if o.offer == "broker A"] == [
        1.3
    ]
    assert any(o.offer == "broker B" for o in catalog.systems["h200"].rental)
    assert (overlay / "systems").is_dir()


def test_prices_list_shows_every_offer_with_age_and_origin(capsys, tmp_path):
    csv_file = write(
        tmp_path, "p.csv", "system,offer,price,as_of,source\nb200,broker,4.00,2026-01-10,sheet\n"
    )
    run(capsys, "prices", "import", str(csv_file))
    code, out, _ = run(capsys, "prices", "list", "--json")
    rows = json.loads(out)["prices"]
    mine = next(r for r in rows if r["offer"] == "broker")
    assert mine["age_days"] == (date.today() - date(2026, 1, 10)).days
    assert mine["origin"] == f"imported from {csv_file.resolve()}" and mine["default"]
    assert {r["origin"] for r in rows if r["offer"] != "broker"} == {"shipped"}
    code, out, _ = run(capsys, "prices", "list")
    assert code == 0 and "days" in out and f"imported from {csv_file.resolve()}" in out


BAD = [
    ("no-columns.csv", "a,b\n1,2\n", "missing column(s) system"),
    (
        "bad-price.csv",
        "system,offer,price,as_of,source\nh100,x,cheap,2026,src\n",
        "line 2: price_usd_per_gpu_hour",
    ),
    ("unknown.csv", "system,offer,price,as_of,source\nh999,x,2,2026,src\n", "line 2: unknown system 'h999'"),
    ("range.csv", "system,offer,price,low,as_of,source\nh100,x,2,3,2026,src\n", "line 2: need low_usd"),
    ("date.csv", "system,offer,price,as_of,source\nh100,x,2,last week,src\n", "line 2: as_of"),
    ("cells.csv", "system,offer,price,as_of,source\nh100,x,2,2026,src,extra\n", "line 2: more cells"),
    ("bad.json", '[{"system": "h100",', "bad.json:1: not valid JSON"),
    ("shape.json", '{"offers": 3}', "expected a list of offer objects"),
    (
        "sky-count.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Price\nx,H100,eight,10\n",
        "line 2: AcceleratorCount 'eight'",
    ),
    (
        "sky-price.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Price\nx,H100,8,-1\n",
        "line 2: Price must be above 0",
    ),
    (
        "sky-none.csv",
        "InstanceType,AcceleratorName,AcceleratorCount,Price\nx,TPU-v5,8,10\n",
        "no rows for a catalogued",
    ),
    ("sky-cols.csv", "InstanceType,AcceleratorName,Price\nx,H100,10\n", "without column(s) AcceleratorCount"),
    ("empty.csv", "", "empty file"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_price_files_are_refused_and_nothing_is_written(name, text, message, capsys, tmp_path):
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    good = write(tmp_path, "good.csv", "system,offer,price,as_of,source\nh100,kept,2,2026,src\n")
    run(capsys, "--catalog", str(overlay), "prices", "import", str(good))
    before = (overlay / "prices.toml").read_bytes()

    code, _, err = run(
        capsys, "--catalog", str(overlay), "prices", "import", str(write(tmp_path, name, text))
    )

    assert code == 2 and "Traceback" not in err
    assert message in err and name in err
    assert (overlay / "prices.toml").read_bytes() == before
    assert sorted(p.name for p in overlay.iterdir()) == ["prices.toml"]


def test_a_malformed_prices_file_is_skipped_on_load_and_refused_on_import(capsys, tmp_path):
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    (overlay / "prices.toml").write_text(
        '[[offer]]\nsystem = "h100"\noffer = "x"\nprice_usd_per_gpu_hour = -2\n'
    )
    catalog = load_catalog(user_dir=overlay)
    assert any("skipped imported prices" in w and "prices.toml:4" in w for w in catalog.load_warnings)
    good = write(tmp_path, "good.csv", "system,offer,price,as_of,source\nh100,new,2,2026,src\n")
    code, _, err = run(capsys, "--catalog", str(overlay), "prices", "import", str(good))
    assert code == 2 and "prices.toml:4" in err
    assert "price_usd_per_gpu_hour = -2" in (overlay / "prices.toml").read_text()
