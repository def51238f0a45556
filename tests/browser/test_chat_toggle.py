"""The Chat button brings an open chat that is out of sight to the person (a new user's trial).

On a laptop (1280 x 800) the chat panel opens by itself, at the foot of the lobby and below the
fold; a person who scrolled down to Chat and pressed it to write closed it. Now a press on an open
panel out of sight scrolls it into view with the line box focused; a press on one in view closes
it, as before.

Cost: one lobby of Kartu Terakhir (about 3 s).
"""

from __future__ import annotations

from typing import Any

from kt_helpers import host_kt

#: the chat line box: whether it lies whole inside the window
IN_VIEW = """() => { const r = document.getElementById('chat-input').getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight; }"""


def test_chat_brings_an_open_panel_out_of_sight_into_view(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_kt(page, server.origin, name="Ana", seats=4)
    page.wait_for_selector("#chat-panel", state="visible")
    page.evaluate("() => scrollTo(0, 0)")
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "true"
    assert not page.evaluate(IN_VIEW), "the premise: at 1280 x 800 the lobby's open chat lies below the fold"
    # Scrolled until the button shows at the window's foot (the panel under it does not), focused.
    page.evaluate(
        "() => { const b = document.getElementById('chat-toggle'); b.scrollIntoView({block: 'end'}); b.focus(); }"
    )
    assert not page.evaluate(IN_VIEW)
    page.keyboard.press("Enter")
    page.wait_for_function(IN_VIEW)
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "true"
    assert page.evaluate("() => document.activeElement.id") == "chat-input"
    page.click("#chat-toggle")  # in view now: the press closes it
    page.wait_for_selector("#chat-panel", state="hidden")
    assert page.get_attribute("#chat-toggle", "aria-expanded") == "false"
