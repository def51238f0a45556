"""A phone's seat boxes say the points and an away seat's countdown whole; the host form says
which rules seat more (a new-user trial, h10 findings 2 and 5).

* At 390x844, Crazy Eights with three other seats, every other seat's "0 pts" had 3 px of its
  box (a stray "(" or a lone digit on screen) and "away · bot in 0:57" ended in an ellipsis. Here
  each seat's points lie whole in its box, in the four languages, and so do an away seat's
  countdown words.
* The default rules seat two or three, another preset up to eight, and nothing said so: the form
  now names the rules that seat the most, and says nothing where the rules chosen seat as many.

Cost: about 25 s (one table: a phone hosts, a desktop joins and leaves).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, set_language, start
from kt_helpers import join

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: Each other seat's points and away words: the text, whether it is cut, and whether it lies
#: inside its seat box.
SEAT_WORDS = """async () => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  return Array.from(document.querySelectorAll('#opponents .seat-score, #opponents .presence')).map((e) => {
    const r = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
    const box = e.closest('.seat-box').getBoundingClientRect();
    const before = getComputedStyle(e, '::before').content;
    const shown = before && before !== 'none' ? before.replace(/^"|"$/g, '') : '';
    return {text: e.innerText || shown, cut: e.scrollWidth > e.clientWidth + 0.5 || r.width < 1,
            inside: r.left >= p.left - 0.5 && r.right <= p.right + 0.5 && r.left >= box.left
              && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5};
  });
}"""


def test_seat_boxes_say_points_and_countdown_whole(server: Any, new_context: Any) -> None:
    page = new_context(**PHONE).new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Ana")
    # The default rules seat few, and the form says which seat more, in every language.
    assert not page.is_visible("#seats-4")
    for lang in LANGUAGES:
        set_language(page, lang)
        more = page.inner_text("#seats-more")
        party = page.inner_text("#preset option[value='party']")
        assert page.is_visible("#seats-more") and "8" in more and party in more, (lang, more, party)
    set_language(page, "en")
    page.select_option("#preset", "party")
    assert page.is_hidden("#seats-more")
    page.select_option("#preset", "classic")
    assert "8" in page.inner_text("#seats-more")
    page.check("#seats-4")
    page.click("#host")
    page.wait_for_selector("#room-code")
    room = "".join(page.inner_text("#room-code").split())
    friend = new_context(viewport={"width": 1280, "height": 800}).new_page()
    join(friend, server.origin, room, "Budi")
    page.wait_for_function("() => document.getElementById('seats').textContent.includes('Budi')")
    start(page)
    for lang in LANGUAGES:
        set_language(page, lang)
        seen = page.evaluate(SEAT_WORDS)
        assert len([s for s in seen if s["text"]]) == 3, (lang, seen)
        assert all(not s["cut"] and s["inside"] for s in seen), (lang, seen)
    set_language(page, "en")
    friend.close()
    page.wait_for_selector("#opponents .away-countdown")
    for lang in LANGUAGES:
        set_language(page, lang)
        seen = page.evaluate(SEAT_WORDS)
        away = [s for s in seen if any(ch.isdigit() for ch in s["text"]) and ":" in s["text"]]
        assert away and all(s["inside"] for s in seen), (lang, seen)
