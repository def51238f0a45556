"""The bar's note on a chosen deal, whole on a phone (issue 20's new-user trial).

A table dealt from a host's deal code says so in the bar ("Round 1 is a deal the host chose"). On
a 390x844 phone the note was kept to one line by an ellipsis ("Hand 1 is a deal the ho…"), so the
player read half a sentence. Now a phone shows the note's short words, whole and on one line (the
round is beside it in the bar), in the four languages; the Rules dialog keeps the long words.

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import TWO_FRAMES, set_language
from kt_helpers import find_deal, host_kt

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: The note's box: its text cut (wider than its box, or an ellipsis), or past the screen's edge;
#: and the words it shows (the style sheet's short ones on a phone).
NOTE = """() => {
  const e = document.getElementById('chosen-note');
  const r = e.getBoundingClientRect();
  const cut = e.scrollWidth > e.clientWidth + 1 || getComputedStyle(e).textOverflow === 'ellipsis'
    || r.right > innerWidth + 0.5 || r.left < -0.5;
  const lines = Math.round(r.height / parseFloat(getComputedStyle(e).lineHeight));
  return {cut, lines, shown: getComputedStyle(e, '::before').content, text: e.textContent};
}"""


def test_a_phone_shows_the_chosen_deals_note_whole(server: Any, new_context: Any) -> None:
    page = new_context(**PHONE).new_page()
    host_kt(page, server.origin, name="Ani", seats=2, deal_code=find_deal(2, 0, lambda state: True))
    page.click("#start")
    page.wait_for_selector("#chosen-note:not([hidden])")
    for lang in ("id", "vi", "nb", "en"):
        set_language(page, lang)
        page.evaluate(TWO_FRAMES)
        note = page.evaluate(NOTE)
        assert not note["cut"] and note["lines"] <= 1, (lang, note)
        assert note["shown"] not in ("none", "normal", '""'), (lang, note)
    assert note["text"] == "Round 1 is a deal the host chose"
    page.click("#rules-button")
    assert page.inner_text("#rules-chosen-note") == "Round 1 is a deal the host chose"
