"""The HTML reports fit the page: rendered in headless Chromium at 500 (a phone; headless Chromium goes no narrower), 820, 1280 and 1600 px, nothing but a
table's own scroll box is wider than the window. Skipped where Chromium is not installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from advisor.io.rule_files import load_rules
from advisor.io.scenario_files import load_scenario
from advisor.report import build_comparison, build_report, render_comparison, render_report
from advisor.report.svg import nice_ticks
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((found for name in BROWSERS if (found := shutil.which(name))), None)
needs_chromium = pytest.mark.skipif(
    BROWSER is None, reason="headless Chromium not installed (Debian: apt-get install chromium)"
)
WIDTHS = (500, 820, 1280, 1600)

# Every element's right edge against the window, except inside a table's scroll box (which scrolls);
# the result is written into the DOM, which --dump-dom prints after the script ran.
PROBE = """<script>
const width = document.documentElement.clientWidth;
const over = [];
if (document.documentElement.scrollWidth > width) {
  over.push("page scrolls sideways: " + document.documentElement.scrollWidth + " > " + width);
}
for (const el of document.body.querySelectorAll("*")) {
  const box = el.parentElement && el.parentElement.closest(".scroll");
  if (box) continue;
  const right = el.getBoundingClientRect().right;
  if (right > width + 0.5) over.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.className && typeof el.className === "string" ? "." + el.className : "") + " ends at " + Math.round(right));
}
const boxes = [...document.querySelectorAll(".scroll")];
const scrolling = boxes.filter(b => b.scrollWidth > b.clientWidth + 1).length;
document.body.setAttribute("data-fit", JSON.stringify({width, over, boxes: boxes.length, scrolling}));
</script>"""


@cache
def documents() -> dict[str, str]:
    catalog = shipped_catalog()
    rules = load_rules()
    today = date(2026, 6, 1)
    docs = {}
    for stem in ("llama3-70b-pretrain", "13b-from-scratch-8-gpus", "deepseek-v3-moe"):
        scenario = load_scenario(ROOT / "examples" / f"{stem}.toml", catalog)
        docs[stem] = render_report(
            build_report(scenario, catalog, rules, today=today, version="test"), "html"
        )
    pair = sorted((ROOT / "examples" / "compare").glob("*.toml"))
    scenarios = [load_scenario(path, catalog) for path in pair]
    comparison = build_comparison(
        scenarios, catalog, rules, today=today, version="test", sources=[p.name for p in pair]
    )
    docs["compare"] = render_comparison(comparison, "html")
    return docs


def measure(html: str, width: int, tmp_path: Path) -> dict:
    """Load `html` (its no-script policy lifted for the probe) at `width` px and return the probe's result."""
    probed = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    page = tmp_path / f"page-{width}.html"
    page.write_text(probed.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    assert BROWSER is not None
    result = subprocess.run(
        [
            BROWSER,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={width},900",
            "--virtual-time-budget=3000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'data-fit="([^"]*)"', result.stdout)
    assert found, f"the probe did not run: {result.stderr[-1500:]}"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(
    "name", ["llama3-70b-pretrain", "13b-from-scratch-8-gpus", "deepseek-v3-moe", "compare"]
)
def test_nothing_overflows_the_page(tmp_path: Path, name: str, width: int) -> None:
    fit = measure(documents()[name], width, tmp_path)
    assert fit["width"] == width
    assert fit["over"] == [], f"{name} at {width}px: {fit['over'][:10]}"
    assert fit["boxes"] > 3  # every table sits in a scroll box


@needs_chromium
def test_wide_tables_scroll_inside_their_box_at_820(tmp_path: Path) -> None:
    # The Ranges and assumptions tables are wider than an 820 px window: they scroll, the page does not.
    fit = measure(documents()["llama3-70b-pretrain"], 820, tmp_path)
    assert fit["scrolling"] >= 1 and fit["over"] == []


@needs_chromium
def test_the_probe_sees_an_overflow(tmp_path: Path) -> None:
    # A control: an element wider than the window outside any scroll box is reported.
    html = documents()["13b-from-scratch-8-gpus"].replace(
        "</header>", '</header><div id="wide" style="width: 2000px">x</div>', 1
    )
    fit = measure(html, 820, tmp_path)
    assert any("div#wide" in line for line in fit["over"]), fit["over"]


# --- what the page says, without a browser ------------------------------------------------------------


@pytest.mark.parametrize(
    ("maximum", "units", "ticks"),
    [
        (1.0, (1,), [0, 0.25, 0.5, 0.75, 1.0]),
        (7.3, (1,), [0, 2, 4, 6]),
        (13e6, (1,), [0, 5e6, 10e6]),
        (100, (1,), [0, 25, 50, 75, 100]),
        (0.0042, (1,), [0, 0.002, 0.004]),
        (0, (1,), [0]),
        (7500, (1, 24), [0, 2400, 4800, 7200]),  # hours, ticked on round days (100, 200, 300)
        (30, (1, 24), [0, 10, 20, 30]),  # under four days: round hours
    ],
)
def test_axis_ticks_are_round_and_within_the_scale(
    maximum: float, units: tuple[float, ...], ticks: list[float]
) -> None:
    assert nice_ticks(maximum, units=units) == pytest.approx(ticks)


def test_charts_have_axis_ticks_and_human_legends() -> None:
    html = documents()["llama3-70b-pretrain"]
    charts = re.findall(r"<svg.*?</svg>", html, flags=re.S)
    assert len(charts) == 3
    for chart in charts:
        ticks = re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', chart)
        assert len(ticks) >= 3 and ticks[0].startswith(("$0", "0")), ticks
        assert all(re.fullmatch(r"\$?[\d,.]+[kMG]?( \w+)?", tick) for tick in ticks), ticks
    legends = " ".join(re.findall(r"<text x=\"\d+\" y=\"\d+\">([^<]*)</text>", html))
    assert "PUE overhead" in legends and "network, storage" in legends and "capex (amortised)" in legends
    assert "pue_overhead" not in legends and "pue overhead" not in legends


@pytest.mark.parametrize(
    ("stem", "title"), [("llama3-70b-pretrain", "Cost (TCO)"), ("13b-from-scratch-8-gpus", "Cost (rental)")]
)
def test_cost_title_follows_the_pricing(stem: str, title: str) -> None:
    other = "Cost (rental)" if title == "Cost (TCO)" else "Cost (TCO)"
    html = documents()[stem]
    assert f"<h2>{title} breakdown</h2>" in html and other not in html
    catalog = shipped_catalog()
    scenario = load_scenario(ROOT / "examples" / f"{stem}.toml", catalog)
    report = build_report(scenario, catalog, load_rules(), today=date(2026, 6, 1), version="test")
    markdown = render_report(report, "md")
    assert f"## {title} breakdown" in markdown and other not in markdown


def test_print_keeps_headings_with_what_follows() -> None:
    html = documents()["compare"]
    printing = html[html.index("@media print") :]
    assert "h2, h3, .blurb { break-after: avoid" in printing
    assert "h2 + .scroll, h3 + .scroll, .blurb + .scroll, h3 + figure { break-before: avoid" in printing
    assert ".scroll { overflow: visible; }" in printing  # printed tables are not cut at the box
