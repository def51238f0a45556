"""The table chat on a 390x844 phone: its input's hint whole, and Focus with the chat open (a new-user trial).

* **The input's placeholder** ("Write a message, Enter sends", Vietnamese "Viết tin nhắn, Enter để
  gửi") lies whole in its box, beside Send, in the lobby and at the table, in the four languages:
  its words, drawn in the input's own font and language, are no wider than the box's text area.
* **Focus (the hand alone) with the chat opened by hand**: the page scrolls down to the input
  (the panel is under the felt: 959 px of page on an 844 px screen), and the hand's cards, the
  turn's buttons and the input all lie wholly on the screen after it; only the page's header and
  the caption's line go above.

Cost: about 20 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, set_language
from test_shell_lobby_focus import phone_hosts, phone_joins

#: The placeholder's width in the input's font (a span in the input's place, so in its language's
#: font too) against the room the input gives its text.
PLACEHOLDER = """() => {
  const i = document.getElementById('chat-input');
  const s = getComputedStyle(i);
  const probe = document.createElement('span');
  probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
  probe.style.font = s.font;
  probe.textContent = i.placeholder;
  i.parentElement.append(probe);
  const width = probe.getBoundingClientRect().width;
  probe.remove();
  const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  return {text: i.placeholder, width, room};
}"""

#: What must stay on the screen in Focus with the chat open: (what, top, bottom) of each part off it.
OFF_SCREEN = """() => {
  const parts = [...document.querySelectorAll('#hand button.card, #draw, #chat-input')];
  const off = [];
  for (const e of parts) {
    const r = e.getBoundingClientRect();
    const name = e.id || e.dataset.card;
    if (r.top < -0.5 || r.bottom > window.innerHeight + 0.5) off.push([name, Math.round(r.top), Math.round(r.bottom)]);
  }
  return {count: parts.length, scrollY: window.scrollY, off};
}"""


def placeholder_whole(page: Any, where: str) -> None:
    page.wait_for_selector("#chat-input")
    for lang in LANGUAGES:
        set_language(page, lang)
        found = page.evaluate(PLACEHOLDER)
        assert found["text"] and found["width"] <= found["room"] + 0.5, (where, lang, found)
    set_language(page, "en")


def test_the_chat_inputs_hint_is_whole_on_a_phone(server: Any, new_context: Any) -> None:
    ana, room = phone_hosts(new_context, server.origin, "kartu_terakhir", 3)
    budi = phone_joins(new_context, server.origin, room, "Budi")
    budi.click("#chat-toggle")
    placeholder_whole(budi, "the lobby")
    ana.wait_for_selector("#start:not([disabled])")
    ana.click("#start")
    budi.wait_for_selector("#hand button.card")
    if budi.is_hidden("#chat-panel"):
        budi.click("#chat-toggle")
    placeholder_whole(budi, "the table")


def test_focus_with_the_chat_open_keeps_the_hand_and_the_input_in_view(server: Any, new_context: Any) -> None:
    ana, room = phone_hosts(new_context, server.origin, "kartu_terakhir", 3)
    phone_joins(new_context, server.origin, room, "Budi")  # a second person: the chat is open to talk
    ana.wait_for_selector("#start:not([disabled])")
    ana.click("#lobby-focus")
    ana.click("#start")
    ana.wait_for_selector(".table-screen.hand-only #hand button.card")
    ana.click("#chat-toggle")
    ana.wait_for_function("() => document.activeElement && document.activeElement.id === 'chat-input'")
    found = ana.evaluate(OFF_SCREEN)
    assert found["count"] >= 3 and found["off"] == [], found
