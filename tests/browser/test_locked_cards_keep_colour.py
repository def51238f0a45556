"""A card that may not be played now keeps its colour (a new user's trial, 2026-12-07: locked
cards were drawn grey, so a Kartu Terakhir player could not see which colours they held, nor a
Crazy Eights player red suits from black). They stay dulled, dashed and veiled, but red stays red.

The card's own pixels are read back (its screenshot decoded in the page): the reddest pixel of a
locked heart or diamond is far redder than green or blue. Cost: about 10 s.
"""

from __future__ import annotations

import base64
from typing import Any

from browser_helpers import deal_state, find_deal, host_table, start, wait_my_turn

REDDEST = """async (b64) => {
  const img = new Image();
  img.src = 'data:image/png;base64,' + b64;
  await img.decode();
  const c = document.createElement('canvas');
  c.width = img.width; c.height = img.height;
  const g = c.getContext('2d');
  g.drawImage(img, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let best = 0;
  for (let i = 0; i < d.length; i += 4) best = Math.max(best, d[i] - Math.max(d[i + 1], d[i + 2]));
  return best;
}"""


def _locked_red(state: Any) -> bool:
    view = state.view(0).to_wire()
    plays = {a["card"] for a in view["legal"] if a["kind"] == "play"}
    return bool(plays) and any(c[-1] in "HD" and c not in plays for c in view["hand"])


def test_a_locked_red_card_stays_red(server: Any, new_context: Any) -> None:
    code = find_deal(2, _locked_red)
    view = deal_state(code, 2).view(0).to_wire()
    plays = {a["card"] for a in view["legal"] if a["kind"] == "play"}
    red = next(c for c in view["hand"] if c[-1] in "HD" and c not in plays)
    page = new_context().new_page()
    host_table(page, server.origin, name="Ani", seats=2, deal_code=code)
    start(page)
    wait_my_turn(page)
    card = page.locator(f'.hand.choosing button.card[data-card="{red}"][aria-disabled="true"]')
    card.wait_for()
    redness = page.evaluate(REDDEST, base64.b64encode(card.screenshot()).decode())
    assert redness > 60, redness
