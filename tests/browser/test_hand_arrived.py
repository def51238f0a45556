"""A drawn card is marked in the hand (issue 20, point 13), by the shell for any game.

Crazy Eights (house rules: a player may draw up to three cards a turn): the deal marks
nothing; a draw marks the one card that came (a dot, and said after the card's name to a
screen reader); the player's next play clears the mark.

Cost: one start and a few moves (about 5 s).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from browser_helpers import hand, host_table, play_turn_mouse, start, version, wait_my_turn, wait_version_after

ARRIVED = "() => Array.from(document.querySelectorAll('#hand button.card.arrived')).map(b => b.dataset.card)"


def test_a_drawn_card_is_marked_until_the_hand_changes_again(new_context: Any, server: Any, shot: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    host_table(page, server.origin, name="Ana", seats=2)
    start(page)
    wait_my_turn(page)
    assert page.evaluate(ARRIVED) == [], "the deal marks nothing"
    before_hand = Counter(hand(page))
    before = version(page)
    page.click("#draw")
    wait_version_after(page, before)
    came = list((Counter(hand(page)) - before_hand).elements())
    assert len(came) == 1
    assert page.evaluate(ARRIVED) == came
    marked = f'#hand button.card.arrived[data-card="{came[0]}"]'
    assert page.get_attribute(marked, "aria-describedby") == "arrived-text"
    assert page.inner_text("#arrived-text") == "just came into your hand"
    # The mark shows: a dot at the foot of the card's strip, where no other card covers it.
    seen = page.evaluate(
        """s => { const m = document.querySelector(s + ' .arrived-mark'); const r = m.getBoundingClientRect();
                  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                  return r.width > 8 && !!hit && hit.closest('button.card') === m.parentElement; }""",
        marked,
    )
    assert seen, "the drawn card's mark is covered or missing"
    shot(page, "hand-arrived")
    done = play_turn_mouse(page)
    if done.startswith("play"):
        assert page.evaluate(ARRIVED) == [], "the next change of the hand clears the mark"
    elif done == "draw":
        assert len(page.evaluate(ARRIVED)) == 1, "a second draw marks the card it brought"
