"""The HTML reports' stylesheet (inline in each file): a page that fits 360 to 1920 px and prints on A4.

A table wider than the page scrolls in its own box (`.scroll`), which shades the side where more of
it is hidden; a chart scales to its box (the wide layout, or on a phone the narrow one).
"""

from __future__ import annotations

from advisor.report.svg import NARROW_WIDTH, WIDTH

PHONE_PX = 640
"""At or below this window width the page takes its phone layout (narrow charts, less padding)."""
STACK_PX = 900
"""At or below this window width a table of sentences (`table.stack`: the rules, the assumptions, the
sizing) stacks each row's cells, each under its column's name: side by side, a sentence's column would be
squeezed to a few words a line."""


def stacked(selector: str, px: int) -> str:
    """At or below `px` wide, each row of `selector`'s tables a block, a line per cell with the column's
    name beside it (`data-label`); the header stays for screen readers. Print keeps the table."""
    return f"""
@media screen and (max-width: {px}px) {{
  {selector}, {selector} tbody, {selector} tr {{ display: block; width: 100%; }}
  {selector} thead {{ position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip: rect(0 0 0 0); white-space: nowrap; }}
  {selector} tr {{ border-bottom: 1px solid var(--line); padding: .35rem 0; }}
  {selector} td:nth-child(n) {{ display: grid; grid-template-columns: 6rem minmax(0, 1fr); gap: .6rem;
    width: auto; min-width: 0; border: 0; padding: .12rem .5rem; text-align: left; white-space: normal; }}
  {selector} td::before {{ content: attr(data-label); font-weight: 600; color: var(--muted);
    overflow-wrap: anywhere; }}
  {selector} td:empty {{ display: none; }}
}}
"""


STACKED = (
    stacked("table.stack", STACK_PX)
    + stacked("table.stack-phone", PHONE_PX)
    + f"""@media screen and (max-width: {PHONE_PX}px) {{
  table.stack-phone td:nth-child(n) {{ grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }}
  table.stack-phone td:first-child {{ display: block; font-weight: 600; overflow-wrap: anywhere; }}
  table.stack-phone td:first-child::before {{ content: none; }}
}}
"""
)
"""A table of sentences on a narrow screen (`table.stack`), and a table with a column per scenario on a
phone's (`table.stack-phone`, each row's first cell its heading)."""

SCROLL_CUE = """
.scroll { overflow-x: auto; max-width: 100%; margin: .4rem 0 1rem;
  background-color: #fff;
  background-image: linear-gradient(to right, #fff 30%, rgba(255,255,255,0)),
    linear-gradient(to left, #fff 30%, rgba(255,255,255,0)),
    radial-gradient(farthest-side at 0 50%, rgba(27,31,36,.35), rgba(27,31,36,0)),
    radial-gradient(farthest-side at 100% 50%, rgba(27,31,36,.35), rgba(27,31,36,0));
  background-position: left center, right center, left center, right center;
  background-size: 2.5rem 100%, 2.5rem 100%, 1.1rem 100%, 1.1rem 100%;
  background-repeat: no-repeat;
  background-attachment: local, local, scroll, scroll; }
"""
"""The cue that a table scrolls sideways: a shadow on each side with more of it out of view. The white
covers move with the table (`local`) and hide a shadow (fixed to the box) at the table's own edge; the
cells' backgrounds are translucent so the shadow shows through them."""

COMPACT_PX = 1100
"""At or below this window width the tables of figures (a column per figure, ten or more) tighten their type
and padding, so that on a laptop's half screen (900 px) they fit the page instead of scrolling."""

COMPACT = f"""
@media screen and (max-width: {COMPACT_PX}px) {{
  table {{ font-size: .8rem; }}
  th, td {{ padding: .3rem .25rem; }}
  .tag {{ padding: 0 .25rem; }}
}}
"""

STYLE = (
    """
:root { --ink: #1b1f24; --muted: #59636e; --line: #d8dde3; --accent: #0b5cad; --warn: #7a4d00; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--ink); background: #fff; max-width: 1120px; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.65rem; margin: 0 0 .25rem; line-height: 1.25; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; padding-bottom: .2rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1rem; margin: 1.2rem 0 .4rem; overflow-wrap: anywhere; }
p, li { max-width: 75ch; overflow-wrap: anywhere; }
.meta, .blurb { color: var(--muted); }
nav { font-size: .9rem; margin: .75rem 0 1.25rem; display: flex; flex-wrap: wrap; gap: .2rem .9rem; }
nav a { color: var(--accent); text-decoration: none; }
.notes { border-left: 3px solid var(--line); padding: .1rem 0 .1rem 1rem; }
.notes p { margin: .3rem 0; }
.answer { border: 1px solid #b6cfe8; background: #f2f7fc; border-radius: 6px; padding: .9rem 1.2rem; }
.answer .headline { font-size: 1.12rem; font-weight: 600; margin: 0 0 .5rem; }
.answer .fleet { font-weight: 600; margin: 0 0 .5rem; }
.answer ul { margin: .3rem 0; padding-left: 1.2rem; }
"""
    + SCROLL_CUE
    + """
table { border-collapse: collapse; width: 100%; font-size: .88rem; margin: 0; }
th, td { border-bottom: 1px solid var(--line); padding: .32rem .5rem; text-align: left; vertical-align: top; }
th { background: rgba(27,31,36,.045); font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.num, td.pair { white-space: normal; }
td.pair > span { white-space: nowrap; }
tr.win td { background: rgba(0,128,0,.07); font-weight: 600; }
table.inputs { width: auto; min-width: 60%; }
table.inputs th { width: 14rem; background: none; }
table.assumptions { font-size: .78rem; }
table.assumptions td:nth-child(3) { min-width: 16rem; }
table.assumptions td:nth-child(4) { width: 38%; min-width: 12rem; overflow-wrap: anywhere; }
td { overflow-wrap: break-word; }
table.assumptions td:nth-child(1), table.assumptions td:nth-child(5) { white-space: nowrap; }
.tag { display: inline-block; font-size: .72rem; padding: 0 .4rem; border-radius: 3px;
  margin: 0 .2rem .1rem 0; background: #eceff2; white-space: nowrap; }
.tag.stale, .tag.infeasible, .tag.excluded { background: #fbe7c6; color: var(--warn); }
.tag.recommended { background: #d5ecd5; }
.warnings li { color: var(--warn); }
.reason-kind { font-weight: 600; }
figure { margin: .8rem 0 1rem; break-inside: avoid; }
svg.chart { display: block; width: 100%; height: auto; }
"""
    + f"svg.chart.wide {{ max-width: {WIDTH}px; }}\n"
    + f"svg.chart.narrow {{ max-width: {NARROW_WIDTH * 6 // 5}px; display: none; }}\n"
    + """svg.chart text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  fill: #1b1f24; }
svg.chart text.win { font-weight: 700; }
svg.chart text.tick { fill: var(--muted); font-size: 11px; }
footer { margin-top: 2.5rem; padding-top: .6rem; border-top: 1px solid var(--line); color: var(--muted);
  font-size: .85rem; }
"""
    + COMPACT
    + STACKED
    + f"@media (max-width: {PHONE_PX}px) {{"
    + """
  body { margin: 1rem auto; padding: 0 .75rem; }
  td:not(.num) { min-width: 7rem; }
  table.inputs { width: 100%; }
  table.inputs th:first-child, table.inputs td:first-child { width: 7rem; }
  .answer { padding: .7rem .8rem; }
  svg.chart.wide { display: none; }
  svg.chart.narrow { display: block; }
}
@media print {
  @page { size: A4; margin: 14mm; }
  body { font-size: 10pt; max-width: none; margin: 0; padding: 0; }
  nav { display: none; }
  h2, h3, .blurb { break-after: avoid; page-break-after: avoid; }
  h2 + .scroll, h3 + .scroll, .blurb + .scroll, h3 + figure { break-before: avoid; page-break-before: avoid; }
  tr, thead, figure, .answer, .keep { break-inside: avoid; }
  .scroll { overflow: visible; background: none; }
  table { font-size: 8.5pt; }
  th, td { padding: .2rem .3rem; }
  table.assumptions td:nth-child(3) { overflow-wrap: anywhere; }
  table.assumptions { font-size: 7.5pt; }
  table.assumptions td:nth-child(3) { width: 30%; min-width: 0; }
  .tag { white-space: normal; }
  td:not(.num) { min-width: 0; }
  svg.chart.wide { display: block; max-width: 100%; }
  svg.chart.narrow { display: none; }
  .answer { background: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""
)
"""The whole stylesheet."""
