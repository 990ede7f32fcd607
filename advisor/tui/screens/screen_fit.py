"""The main screen fitted to the terminal: below the smallest size a message instead of the layout, and a
footer whose key hints fit at 80 and 100 columns."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer, Static

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""Smallest terminal the layout is made for; below it the screen says so instead."""
COMPACT_FOOTER_WIDTH, SHORT_FOOTER_WIDTH = 120, 100
"""Narrower than the first, the footer's key hints are drawn compact (they were cut at 80: "f2 Set");
narrower than the second, Esc's hint is shorter and the palette's hint is left out."""


def fit_screen(screen: Screen[None], width: int, height: int) -> None:
    """Show the layout, or below MIN_WIDTH × MIN_HEIGHT the message `#too-small`; fit the footer."""
    too_small = width < MIN_WIDTH or height < MIN_HEIGHT
    for widget in screen.query("#body, Header, Footer"):
        widget.display = not too_small
    # narrow: the key hints lose their padding, then the palette's hint (Ctrl+P, also the header's ⭘
    # and in Help) and Esc says less, so every hint fits at 80 and 100 columns
    footer = screen.query_one(Footer)
    footer.compact = width < COMPACT_FOOTER_WIDTH
    footer.show_command_palette = width >= SHORT_FOOTER_WIDTH
    screen.refresh_bindings()
    message = screen.query_one("#too-small", Static)
    message.display = too_small
    message.update(
        f"advisor needs a terminal of at least {MIN_WIDTH} × {MIN_HEIGHT}; "
        f"this one is {width} × {height}.\nMake the window larger, or press Ctrl+Q to quit."
    )
