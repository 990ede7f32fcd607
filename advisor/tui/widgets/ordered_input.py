"""A text field whose own editing keys take effect in the order they were typed."""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class OrderedInput(Input):
    """An `Input` whose bound keys (Backspace, Delete, Ctrl+U, ←/→, Home/End, Enter) run when they arrive,
    between the characters typed before and after them.

    Textual's `Input` inserts a typed character in its own key handler, but a bound key runs only once
    the key has bubbled up to the app, which checks the bindings. When keys come in a burst (a busy app,
    a fast typist, keys sent by a script), the characters behind a bound key are inserted first: "1 2
    Backspace 3" gave "12", and "Ctrl+U 1 2 8" an empty field, each a valid answer the user did not type
    (Textualize/textual#6605). This runs the field's own bindings in its key handler, as the open fix
    (Textualize/textual#6631) does; priority bindings were checked before the key reached the field, and
    keys the field does not bind still bubble up to the screen and the app."""

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable or not await self._run_own_binding(event.key):
            return  # Input's own handler (next in the method order) types it, or the key bubbles up
        event.stop()
        event.prevent_default()

    async def _run_own_binding(self, key: str) -> bool:
        """Run this field's non-priority binding of `key`, as the app would once the key reached it."""
        try:  # Textual's binding map and keymap, as its app reads them; a Textual without them bubbles
            bindings = self._bindings.copy()
            keymap = self.app._keymap
        except AttributeError:
            return False
        if keymap:
            bindings.apply_keymap(keymap)
        for binding in bindings.key_to_bindings.get(key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False
