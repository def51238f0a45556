"""A seat's points show whole in every language on a phone (a new user's trial, 2026-12-07: in
Indonesian a phone's seat boxes read "104 …" and "39 p…": the boxes were wide enough for
"104 pts", and whether the points go on a line of their own is chosen by the box's width alone,
so that the boxes keep their height through a hand). Points too long for their room are now
drawn smaller to fit, never cut. A round is played to its end (its points in every language),
then three-figure points are written into the boxes and the page's own fitting run again, as
a later round would. Cost: about 40 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, host_table, play_turn_mouse, play_until_round_over, set_language, start

CUT = """() => Array.from(document.querySelectorAll('#opponents .seat-score'))
  .filter((n) => n.getClientRects().length && n.scrollWidth > n.clientWidth + 1)
  .map((n) => n.textContent)"""


def test_seat_points_are_whole_on_a_phone_in_every_language(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    host_table(page, server.origin, name="Ani", seats=3, target=500)
    start(page)
    play_until_round_over([(page, play_turn_mouse)])
    page.wait_for_function("() => document.querySelectorAll('#opponents .seat-score').length === 2")
    for lang in LANGUAGES:
        set_language(page, lang)
        page.wait_for_timeout(100)  # (the boxes are measured again after the words change)
        assert page.evaluate(CUT) == [], lang
    # Later in a match the points have three figures (and the boxes the same width): the
    # Indonesian words of "104 points" put in the boxes, and the layout asked to fit them again.
    set_language(page, "id")
    page.evaluate("""() => {
      for (const n of document.querySelectorAll('#opponents .seat-score')) n.textContent = '104 poin';
      window.meja.tableScreen.fitLabels();
    }""")
    assert page.evaluate(CUT) == []
