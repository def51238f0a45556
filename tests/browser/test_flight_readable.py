"""A piece in flight never hides the words a player must read (issue 20, the table's second pass).

A card played travels from the hand to the pile (js/motion.js) for about 420 ms, and on its way it
crossed the caption ("You played 8♠") and the turn line, drawn over them at full strength. Now the
piece is faint (opacity 0.3) wherever it lies over words the page names as readable, and fades into
the place it lands on.

The test watches every piece that travels while the player plays a card in Crazy Eights, at
390x844 (touch) and at 1280x800: at each frame of each flight (requestAnimationFrame, from the
moment the piece is added to the layer until it is removed) it compares the piece's box with the
boxes of the caption's and the turn line's words. Some frames do cross them (else the test would
test nothing), and in every such frame the piece's opacity is 0.5 or less. With
prefers-reduced-motion nothing travels at all (the caption says the move).

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import find_deal, host_table, is_stuck, play_turn_mouse, start, wait_my_turn

#: Record each flight's frames: where the piece lies over the caption's or the turn line's words,
#: and how opaque it is there.
WATCH = """() => {
  window.__flight = {frames: 0, over: [], pieces: 0, flying: 0};
  const words = (sel) => {
    const e = document.querySelector(sel);
    if (!e || e.closest('[hidden]')) return [];
    const range = document.createRange();
    range.selectNodeContents(e);
    return Array.from(range.getClientRects()).filter((r) => r.width && r.height);
  };
  new MutationObserver((changes) => {
    for (const c of changes) {
      for (const holder of c.addedNodes) {
        window.__flight.pieces += 1;
        window.__flight.flying += 1;
        const frame = () => {
          if (!holder.isConnected) { window.__flight.flying -= 1; return; }
          window.__flight.frames += 1;
          const p = holder.getBoundingClientRect();
          const opacity = Number(getComputedStyle(holder).opacity);
          for (const sel of ['#move-caption', '#turn-status']) {
            for (const t of words(sel)) {
              if (p.left < t.right && p.right > t.left && p.top < t.bottom && p.bottom > t.top) {
                window.__flight.over.push({sel, opacity, text: document.querySelector(sel).textContent});
              }
            }
          }
          requestAnimationFrame(frame);
        };
        frame();
      }
    }
  }).observe(document.querySelector('.motion-layer'), {childList: true});
}"""


def _play_one(page: Any) -> dict[str, Any]:
    """Play one card by mouse and wait until every piece that set off has landed; what was seen."""
    wait_my_turn(page)
    page.evaluate(WATCH)
    play_turn_mouse(page)
    page.wait_for_function("() => window.__flight.pieces > 0 && window.__flight.flying === 0")
    return page.evaluate("() => window.__flight")  # type: ignore[no-any-return]


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_a_card_in_flight_leaves_the_caption_readable(server: Any, new_context: Any, size: tuple[int, int]) -> None:
    code = find_deal(3, lambda state: not is_stuck(state))
    phone = size[0] < 500
    page = new_context(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone).new_page()
    host_table(page, server.origin, name="Ana", seats=3, deal_code=code)
    start(page)
    seen = _play_one(page)
    # the card's path from the hand to the pile crosses the turn line or the caption's words
    assert seen["over"], seen
    assert all(o["opacity"] <= 0.5 for o in seen["over"]), seen


def test_nothing_travels_with_reduced_motion(server: Any, new_context: Any) -> None:
    code = find_deal(3, lambda state: not is_stuck(state))
    page = new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce").new_page()
    host_table(page, server.origin, name="Ana", seats=3, deal_code=code)
    start(page)
    wait_my_turn(page)
    page.evaluate(WATCH)
    play_turn_mouse(page)
    # the bots' answers come too: wait for this seat's turn again, then no piece was ever added
    wait_my_turn(page)
    assert page.evaluate("() => window.__flight.pieces") == 0
