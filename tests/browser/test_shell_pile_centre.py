"""The centre pile is laid out once, by the shell (style.css), for every game that builds on pile.js.

Crazy Eights' and Kartu Terakhir's stylesheets each held the same forty lines for the centre (the
pile to draw from, its count, the top card's column, the indicator and their labels, at a phone's,
a laptop's and the shared screen's sizes). The shell now draws it behind the game-free classes
pile.js sets (``pile-centre``, ``draw-box``, ``draw-pile``, ``draw-cards``, ``draw-count``), and
a game's stylesheet keeps only what is its own (the indicator's colours, a margin).

Here, on each game's table (a 390x844 phone, a 1280x800 laptop, a 1920x1080 shared screen):

* the centre carries the game-free classes;
* no rule of the game's own stylesheet selects the parts the shell lays out (the box and the pile
  to draw from, its cards and count, the grid of the centre);
* the pile, its cards and its count have the same size and place in both games (and grow with the
  screen), and the top card keeps the middle column.

Cost: about 15 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table
from kt_helpers import host_kt

#: The rules of the game's own stylesheet that select the parts the shell lays out.
GAME_RULES = """() => {
  const found = [];
  const parts = /\\.(stock-(pile|cards|count|box)|centre|kt-centre|pile|draw-[a-z]+|pile-centre)(?![\\w-])/;
  const walk = (rules, href) => {
    for (const r of rules) {
      if (r.cssRules && !r.selectorText) walk(r.cssRules, href);
      else if (r.selectorText && parts.test(r.selectorText)) found.push(`${href}: ${r.selectorText}`);
    }
  };
  for (const sheet of document.styleSheets) {
    if (sheet.href && /\\/games\\/(crazy_eights|kartu_terakhir)\\//.test(sheet.href)) walk(sheet.cssRules, sheet.href);
  }
  return found;
}"""

#: The centre's parts: their classes, and the pile's size and place against the centre.
CENTRE = """() => {
  const c = document.querySelector('#top-card').closest('.centre');
  const box = (s) => {
    const r = c.querySelector(s).getBoundingClientRect();
    return [Math.round(r.width), Math.round(r.height)];
  };
  const pile = c.querySelector('.draw-pile'), count = c.querySelector('.draw-count');
  const p = pile.getBoundingClientRect(), n = count.getBoundingClientRect();
  const top = c.querySelector('.pile').getBoundingClientRect(), r = c.getBoundingClientRect();
  return {
    classes: c.className, box: !!c.querySelector(':scope > .draw-box > .draw-pile > .draw-cards'),
    grid: getComputedStyle(c).display, pile: box('.draw-pile'), back: box('.draw-cards .card.back'),
    count: [Math.round(n.right - p.right), Math.round(n.bottom - p.bottom), getComputedStyle(count).fontSize],
    middle: Math.abs((top.left + top.right) / 2 - (r.left + r.right) / 2) < 2,
  };
}"""


def table(server: Any, new_context: Any, game: str) -> tuple[Any, Any]:
    """A laptop's table of ``game`` with bots, and a shared screen watching it."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    if game == "kartu_terakhir":
        room = host_kt(page, server.origin, name="Ana", seats=3)
    else:
        room = host_table(page, server.origin, name="Ana", seats=3)
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{server.origin}/tv/{room}")
    tv.wait_for_selector("#room-code")
    page.click("#start")
    page.wait_for_selector("#top-card .card")
    tv.wait_for_selector("#top-card .card")
    return page, tv


def test_the_shell_lays_out_the_centre_pile(server: Any, new_context: Any) -> None:
    seen: dict[str, dict[str, Any]] = {}
    for game in ("crazy_eights", "kartu_terakhir"):
        page, tv = table(server, new_context, game)
        assert page.evaluate(GAME_RULES) == [], game
        for size in ((390, 844), (1280, 800)):
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_function("w => window.innerWidth === w", arg=size[0])
            seen[f"{game} {size[0]}"] = page.evaluate(CENTRE)
        seen[f"{game} tv"] = tv.evaluate(CENTRE)
    for name, centre in seen.items():
        assert "pile-centre" in centre["classes"].split() and centre["box"], (name, centre)
        assert centre["grid"] == "grid" and centre["middle"], (name, centre)
    for screen in ("390", "1280", "tv"):
        ce, kt = seen[f"crazy_eights {screen}"], seen[f"kartu_terakhir {screen}"]
        assert (ce["pile"], ce["back"], ce["count"]) == (kt["pile"], kt["back"], kt["count"]), (screen, ce, kt)
    # it grows with the screen: 4.7rem, 6.4rem, 8.4rem wide
    assert (
        seen["crazy_eights 390"]["pile"][0] < seen["crazy_eights 1280"]["pile"][0] < seen["crazy_eights tv"]["pile"][0]
    )
