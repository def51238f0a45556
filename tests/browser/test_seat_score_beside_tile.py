"""A seat's points stay whole beside a call's tile (a new user's trial, h6 F7: on the shared screen
"27 pts" was cut to "2" beside a tile, and a desktop seat with a video lost its points). The
tile comes from the call's own painting, given a roster by hand (a real call: test_call.py)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import host_table, start

#: The call's roster with seat 1 in it, painted; then what seat 1's points show.
TILE_AND_MEASURE = """async () => {
  const app = window.meja;
  app.call.roster = [{ seat: 1, speaking: false, mic: true, cam: false }];
  app.call.refresh();
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  const box = document.querySelector('#opponents .seat-box[data-seat="1"]');
  const score = box.querySelector(".seat-score");
  const b = box.getBoundingClientRect(), s = score.getBoundingClientRect();
  return {
    tile: !!box.querySelector(".call-tile"),
    text: score.textContent,
    whole: score.scrollWidth <= score.clientWidth + 1 && s.width > 0,
    inside: s.left >= b.left - 1 && s.right <= b.right + 1 && s.bottom <= b.bottom + 1,
  };
}"""


@pytest.mark.parametrize("where", ["desk", "tv"])
def test_a_seats_points_stay_whole_beside_a_call_tile(server: Any, new_context: Any, shot: Any, where: str) -> None:
    host = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_table(host, server.origin, name="Ana", seats=3)
    start(host)
    host.wait_for_selector("#hand button.card")
    page = host
    if where == "tv":
        page = new_context(viewport={"width": 1920, "height": 1080}).new_page()
        page.goto(f"{server.origin}/tv/{room}")
        page.wait_for_selector('#opponents .seat-box[data-seat="1"] .seat-score')
    # Points to show: seat 1's box says "0 pts" (a game's score line), whole beside the tile.
    got = page.evaluate(TILE_AND_MEASURE)
    assert got["tile"] and got["text"], got
    assert got["whole"] and got["inside"], got
    shot(page, f"score-beside-tile-{where}")
