"""A Wild in a seat's short note names the card in words (a new-user trial on the shared screen).

The seats' boxes say each seat's last move in a few characters ("played +2■"). A Wild played with
a colour read "played W■": the "W" of its face, alone in a line of words, looked like a code. It
now reads "played Wild ■" (the Wild's word in the page's language, then the chosen colour's
shape), whole on the 1920x1080 shared screen and in a 390x844 phone's narrow seat box, in the
four languages (Indonesian's "Ganti Warna ■" without its verb: "memainkan Ganti Warna ■" was cut
in the phone's box even drawn at 60 %).

A deal where Ana (seat 0 of 4, Budi's phone beside her) plays first and holds a Wild; she plays
it, naming green.
Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, set_language, version
from kt_helpers import find_deal, host_kt, join

#: The Wild's word in each language (strings.js "symbol.W"), and the short note around a card.
WILD = {"en": "Wild", "id": "Ganti Warna", "vi": "Đổi Màu", "nb": "Fargevalg"}
PLAYED = {"en": "played {}", "id": "{}", "vi": "đánh {}", "nb": "la {}"}  # "move.short.play_wild"

NOTE = """() => {
  const e = document.querySelector('#opponents .seat-box[data-seat="0"] .seat-last');
  return {text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1};
}"""


def test_a_wild_in_a_seats_note_is_named_in_words(server: Any, new_context: Any) -> None:
    def ok(state: Any) -> bool:
        v = state.view(0).to_wire()
        return any(a["kind"] == "play" and a["card"] == "W" for a in v["legal"])

    phone = new_context().new_page()
    room = host_kt(phone, server.origin, name="Ana", seats=4, deal_code=find_deal(4, 3, ok))
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{server.origin}/tv/{room}")
    tv.wait_for_selector("#room-code")
    budi = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    join(budi, server.origin, room, "Budi")
    phone.wait_for_selector("#start:not([disabled])")
    phone.click("#start")
    phone.wait_for_selector("#hand button.card")
    v = phone.evaluate("() => window.meja.view")
    assert v["turn"] == 0, v
    wild = next(a for a in v["legal"] if a["kind"] == "play" and a["card"] == "W" and a.get("colour") == "G")
    before = version(phone)
    phone.evaluate("a => window.meja.act(a)", wild)
    tv.wait_for_function("v => window.meja.version > v", arg=before)
    tv.wait_for_function(f"() => ({NOTE})().text.length > 0")
    budi.wait_for_function(f"() => ({NOTE})().text.length > 0")
    for lang in LANGUAGES:
        for screen in (tv, budi):
            set_language(screen, lang)
            note = screen.evaluate(NOTE)
            assert note["text"] == PLAYED[lang].format(f"{WILD[lang]} ■"), (lang, note)
            assert not note["cut"], (lang, screen.viewport_size, note)
