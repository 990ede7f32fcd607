"""The HTML reports fit the page: rendered in headless Chromium at 360 (a small phone) to 1920 px, nothing
but a table's own scroll box is wider than the window, a table that scrolls shows the cue, and charts scale
to their box with their text still legible. Skipped where Chromium is not installed.

Chromium's headless window is at least 500 px wide, so each page is measured in an iframe of the width
wanted (media queries follow the iframe), all widths of a document in one run."""

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
from advisor.report.html_style import STYLE
from advisor.report.svg import NARROW_WIDTH, WIDTH, nice_ticks
from tests.conftest import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
BROWSER = next((found for name in BROWSERS if (found := shutil.which(name))), None)
needs_chromium = pytest.mark.skipif(
    BROWSER is None, reason="headless Chromium not installed (Debian: apt-get install chromium)"
)
WIDTHS = (360, 420, 500, 640, 641, 820, 1280, 1920)
"""Phones, either side of the phone layout's edge (640 px), a tablet, a laptop, a desktop."""
DESKTOP = 1280
"""From this width on every table fits the page (none scrolls)."""
TABLET = 900
"""Up to this width a table of sentences stacks its rows, so no sentence is squeezed to a few words."""
SENTENCE_PX = 160
"""The least width of a sentence in a table: about 25 characters a line."""
LEGIBLE = 0.75
"""The least a chart may be scaled: its 12-unit text is then 9 px."""

# Per element outside a scroll box, its right edge against the window; per scroll box, whether it
# scrolls and carries the cue; per shown chart, its right edge and scale; per section, the narrowest text
# of a cell holding a sentence (60 characters or more). Posted to the harness page.
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
const scrolling = boxes.filter(b => b.scrollWidth > b.clientWidth + 1);
const cued = scrolling.filter(b => getComputedStyle(b).backgroundAttachment.includes("local")).length;
const charts = [...document.querySelectorAll("svg.chart")].filter(s => s.getBoundingClientRect().width > 0)
  .map(s => ({cls: s.getAttribute("class"), right: s.getBoundingClientRect().right,
    scale: s.getBoundingClientRect().width / s.viewBox.baseVal.width}));
const svgs = document.querySelectorAll("svg.chart").length;
const prose = {};
for (const td of document.querySelectorAll("td:not(.num)")) {
  if (td.textContent.length < 60) continue;
  const where = (td.closest("section") || {}).id || "?";
  const text = document.createRange();
  text.selectNodeContents(td);
  const wide = Math.round(text.getBoundingClientRect().width);
  if (!(where in prose) || wide < prose[where]) prose[where] = wide;
}
const scrolled = scrolling.map(b => (b.closest("section") || {}).id || "?");
parent.postMessage(JSON.stringify({width, over, prose, boxes: boxes.length, scrolling: scrolling.length, cued,
  charts, svgs, scrolled}), "*");
</script>"""
HARNESS = """<!DOCTYPE html><html><body><script>
const results = {};
window.addEventListener("message", e => {
  const fit = JSON.parse(e.data);
  results[fit.width] = fit;
  document.body.setAttribute("data-fit", JSON.stringify(results));
});
</script>FRAMES</body></html>"""


@cache
def documents() -> dict[str, str]:
    catalog = shipped_catalog()
    rules = load_rules()
    today = date(2026, 6, 1)
    docs = {}
    for stem in ("llama3-70b-pretrain", "13b-from-scratch-8-gpus", "deepseek-v3-moe", "llama3-70b-serving"):
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


def measure(html: str, widths: tuple[int, ...], tmp_path: Path) -> dict[int, dict]:
    """Load `html` (its no-script policy lifted for the probe) in an iframe per width and return the
    probe's result per width."""
    probed = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    (tmp_path / "page.html").write_text(probed.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    frames = "".join(
        f'<iframe src="page.html" style="display:block;border:0;width:{w}px;height:600px"></iframe>'
        for w in widths
    )
    harness = tmp_path / "harness.html"
    harness.write_text(HARNESS.replace("FRAMES", frames), encoding="utf-8")
    assert BROWSER is not None
    result = subprocess.run(
        [
            BROWSER,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={max(widths) + 40},900",
            "--virtual-time-budget=5000",
            "--dump-dom",
            harness.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    found = re.search(r'data-fit="([^"]*)"', result.stdout)
    assert found, f"the probe did not run: {result.stderr[-1500:]}"
    fits = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert sorted(int(w) for w in fits) == sorted(widths), f"not every frame reported: {list(fits)}"
    return {int(w): fit for w, fit in fits.items()}


@needs_chromium
@pytest.mark.parametrize(
    "name",
    ["llama3-70b-pretrain", "13b-from-scratch-8-gpus", "deepseek-v3-moe", "llama3-70b-serving", "compare"],
)
def test_tables_and_charts_fit_or_scroll_visibly(tmp_path: Path, name: str) -> None:
    for width, fit in measure(documents()[name], WIDTHS, tmp_path).items():
        where = f"{name} at {width}px"
        assert fit["over"] == [], f"{where}: {fit['over'][:10]}"
        assert fit["boxes"] > 3, where  # every table sits in a scroll box
        assert fit["cued"] == fit["scrolling"], f"{where}: a table scrolls without the cue"
        if width >= DESKTOP:
            assert fit["scrolling"] == 0, f"{where}: {fit['scrolling']} tables scroll"
        layout = "narrow" if width <= 640 else "wide"
        assert len(fit["charts"]) * 2 == fit["svgs"] >= 6, where  # one layout of each chart shown
        for chart in fit["charts"]:
            assert layout in chart["cls"], f"{where}: {chart}"
            assert chart["right"] <= width + 0.5 and chart["scale"] >= LEGIBLE, f"{where}: {chart}"


@needs_chromium
@pytest.mark.parametrize("name", ["llama3-70b-pretrain", "13b-from-scratch-8-gpus", "llama3-70b-serving"])
def test_sentences_in_tables_are_not_squeezed_on_a_narrow_screen(tmp_path: Path, name: str) -> None:
    # A rule's "Because", side by side with four other columns, was 73-88 px of text on a phone (a few
    # words a line) and 96-118 px on an 820 px tablet; an assumption's source 147 px: at or below TABLET
    # the rows of such tables stack, each cell under its column's name.
    narrow = tuple(w for w in WIDTHS if w <= TABLET)
    for width, fit in measure(documents()[name], narrow, tmp_path).items():
        assert fit["prose"], f"{name} at {width}px: no sentence in a table"
        squeezed = {where: px for where, px in fit["prose"].items() if px < SENTENCE_PX}
        assert squeezed == {}, f"{name} at {width}px: sentences squeezed to {squeezed} px"


@needs_chromium
def test_wide_tables_scroll_inside_their_box_on_a_phone(tmp_path: Path) -> None:
    # The systems, buying and ranges tables are wider than a 360 px phone: they scroll, the page does not.
    fit = measure(documents()["llama3-70b-pretrain"], (360,), tmp_path)[360]
    assert fit["scrolling"] >= 3 and fit["over"] == []


@needs_chromium
def test_what_differs_does_not_scroll_on_a_phone(tmp_path: Path) -> None:
    # The comparison's "What differs" (a column per scenario) scrolled sideways at 420 px: 448 px of table
    # in a 381 px box. On a phone its rows stack, each input over a line per scenario.
    for width, fit in measure(documents()["compare"], (360, 420, 640), tmp_path).items():
        assert "differences" not in fit["scrolled"], f"at {width}px: {fit['scrolled']}"
    assert 'class="stack-phone"' in documents()["compare"]


@needs_chromium
def test_the_probe_sees_an_overflow(tmp_path: Path) -> None:
    # A control: an element wider than the window outside any scroll box is reported.
    html = documents()["13b-from-scratch-8-gpus"].replace(
        "</header>", '</header><div id="wide" style="width: 2000px">x</div>', 1
    )
    fit = measure(html, (820,), tmp_path)[820]
    assert any("div#wide" in line for line in fit["over"]), fit["over"]


# --- the page's structure, without a browser -----------------------------------------------------------


@pytest.mark.parametrize("name", ["llama3-70b-pretrain", "llama3-70b-serving", "compare"])
def test_every_table_scrolls_in_its_box_and_every_chart_scales(name: str) -> None:
    html = documents()[name]
    tables = re.findall(r"(.{0,40})<table", html)
    assert tables and all(before.endswith('<div class="scroll">') for before in tables), tables
    charts = re.findall(r"<svg[^>]*>", html)
    assert len(charts) >= 6
    for chart in charts:
        assert re.search(r'viewBox="0 0 \d+ \d+"', chart) and not re.search(r"\s(width|height)=", chart), (
            chart
        )
    figures = re.findall(r"<figure>(.*?)</figure>", html, flags=re.S)
    assert len(figures) * 2 == len(charts)
    for figure in figures:
        assert re.findall(r'<svg class="chart (\w+)"', figure) == ["wide", "narrow"]
        assert f'viewBox="0 0 {WIDTH} ' in figure and f'viewBox="0 0 {NARROW_WIDTH} ' in figure


def test_the_stylesheet_cues_scrolling_and_prints_the_wide_charts() -> None:
    screen, printing = STYLE.split("@media print")
    assert "background-attachment: local, local, scroll, scroll" in screen
    assert "svg.chart { display: block; width: 100%; height: auto; }" in screen
    assert "svg.chart.wide { display: block; max-width: 100%; }" in printing
    assert "svg.chart.narrow { display: none; }" in printing


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
    assert len(charts) == 6  # three, each wide and narrow
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
    assert ".scroll { overflow: visible; background: none; }" in printing  # printed tables are not cut


@needs_chromium
@pytest.mark.parametrize(
    "name",
    ["llama3-70b-pretrain", "13b-from-scratch-8-gpus", "deepseek-v3-moe", "llama3-70b-serving", "compare"],
)
def test_no_table_scrolls_in_a_900_px_window(tmp_path: Path, name: str) -> None:
    # At 900 px (885 px inside the window's scroll bar) the comparison scrolled 41-69 px sideways and the
    # serving table 103 px; below 1100 px the tables of figures tighten their type and padding.
    fit = measure(documents()[name], (885,), tmp_path)[885]
    assert fit["over"] == [] and fit["scrolling"] == 0, f"{name}: {fit['scrolled']}"
