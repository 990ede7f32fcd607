"""A mixin for result views: redraw after the next screen refresh while on screen, else once shown.

Every edit recomputes the advice; redrawing the hidden result tabs each time would cost more than the
computation (the rules tree alone has hundreds of nodes), so they wait until they are shown. A view on
screen redraws right after the refresh that paints the new headline, so the headline is never held
up by the new layout a longer view needs. A view hidden with a draw pending is covered by
`PENDING_NOTE` until it is drawn: shown (its tab chosen, or the Serving tab appearing for an
inference job), its first frame says it is being computed rather than showing nothing, or the
answer before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.console import RenderableType
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

if TYPE_CHECKING:
    from advisor.tui.advice import Advice  # the core's answer: imported once the first one is computed

PENDING_NOTE = "computing…"
"""What a result view shows in the frames between being shown and being drawn for the latest answer."""


class DrawnWhenShown:
    """Mix into a widget (first base): implement `draw()`, call `request_draw()` when the data changes.

    A plain mixin, not a Widget subclass, so the widget's own CSS component classes are kept.
    """

    _draw_pending = False

    def draw(self) -> None:
        """Render the current data into the view."""
        raise NotImplementedError

    def request_draw(self) -> None:
        """Draw after the next refresh if the view is displayed, else when it next is."""
        assert isinstance(self, Widget)
        self._draw_pending = True
        if self.is_mounted and self._displayed():
            self.call_after_refresh(self._draw_if_pending)
        else:
            _cover(self, True)  # PENDING_NOTE until drawn (see `get_loading_widget`)

    def draw_now(self) -> None:
        """Draw now if a draw is pending (the view is about to take the focus)."""
        self._draw_if_pending()

    def _draw_if_pending(self) -> None:
        assert isinstance(self, Widget)
        if self._draw_pending and self.is_attached:
            self._draw_pending = False
            self.draw()
        if not self._draw_pending:
            _cover(self, False)

    def get_loading_widget(self) -> Widget:
        """The cover over a view not yet drawn for the latest answer: says so, in words."""
        return PendingNote(PENDING_NOTE)

    def _displayed(self) -> bool:
        assert isinstance(self, Widget)
        node: Widget | None = self
        while isinstance(node, Widget):
            if not node.display:
                return False
            node = node.parent if isinstance(node.parent, Widget) else None
        return True

    def on_show(self, event: events.Show) -> None:
        assert isinstance(self, Widget)
        if self._draw_pending:
            self.call_after_refresh(self._draw_if_pending)


def _cover(view: DrawnWhenShown, covered: bool) -> None:
    """Cover `view` with its pending note (Textual's `loading` state, with `get_loading_widget`), or not."""
    widget = cast(Widget, view)
    if widget.loading != covered:
        widget.loading = covered


class PendingNote(Static):
    """Covers a result view until it is drawn; shown (the view's tab chosen), it has the view drawn."""

    def on_show(self, _event: events.Show) -> None:
        view = self.parent
        if isinstance(view, DrawnWhenShown):
            view.call_after_refresh(view._draw_if_pending)


class AdviceView(DrawnWhenShown):
    """A result view of the advice (first base): redrawn whenever the advice bound to it changes."""

    advice: reactive[Advice | None] = reactive(None)
    """The latest computed advice (bound to the screen's)."""

    def watch_advice(self) -> None:
        self.request_draw()

    def draw(self) -> None:
        assert isinstance(self, Widget)
        advice = self.advice
        if advice is not None:
            self.draw_advice(advice)

    def draw_advice(self, advice: Advice) -> None:
        """Render `advice` into the view (called only once there is advice)."""
        raise NotImplementedError


class AdviceText(AdviceView, VerticalScroll):
    """A scrollable view of one text made from the advice: `content(advice)`."""

    def content(self, advice: Advice) -> RenderableType:
        """The text to show for `advice`."""
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield Static()

    def draw_advice(self, advice: Advice) -> None:
        self.query_one(Static).update(self.content(advice))
