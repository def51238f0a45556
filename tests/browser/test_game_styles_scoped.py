"""A game's stylesheet styles its own screens only (a new-user trial found Crazy Eights' unscoped).

Every game's page.css stays in the page once its module is loaded: a page that played Crazy
Eights and then opened another game had Crazy Eights' ``.card``, ``.pts`` ("= " before a
card's points), ``.chip``, ``.actions`` and ``.reason`` rules on that game's table too. Here
every style rule of each game's stylesheet names its own screen (``[data-game="<name>"]``,
the root the table, the replay and the lesson screens carry), and an element of another
game's screen is untouched by Crazy Eights' rules.

Cost: about 3 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table

GAMES = ("crazy_eights", "eighty_three", "kartu_terakhir")

#: The selectors of a game's stylesheet (every style rule, in @media and @container rules too)
#: that do not name that game's screen.
UNSCOPED = """(game) => {
  const sheet = [...document.styleSheets].find((s) => s.href && s.href.includes(`/games/${game}/`));
  if (!sheet) return null;
  const root = `[data-game="${game}"]`;
  const out = [];
  // The selector list's own commas (not those inside :is(...), :has(...)).
  const parts = (text) => {
    const list = [''];
    let depth = 0;
    for (const ch of text) {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (ch === ',' && depth === 0) list.push('');
      else list[list.length - 1] += ch;
    }
    return list.map((x) => x.trim());
  };
  const walk = (rules) => {
    for (const r of rules) {
      if (r instanceof CSSStyleRule) {
        for (const part of parts(r.selectorText)) if (!part.includes(root)) out.push(part);
      } else if (r.cssRules) walk(r.cssRules);
    }
  };
  walk(sheet.cssRules);
  return out;
}"""

#: What Crazy Eights' rules did to another game's screen: a ``.pts``, a ``.card`` and an ``.actions``.
OTHER_SCREEN = """() => {
  const root = document.createElement('div');
  root.dataset.game = 'kartu_terakhir_test';
  root.innerHTML = '<span class="pts">3</span><div class="card"></div><div class="actions"></div>'
    + '<p class="reason">why</p>';
  document.body.append(root);
  const s = (sel, pseudo) => getComputedStyle(root.querySelector(sel), pseudo || null);
  const out = {before: s('.pts', '::before').content, card: s('.card').display, actions: s('.actions').display,
               reason: s('.reason').fontSize === getComputedStyle(root).fontSize};
  root.remove();
  return out;
}"""


def test_crazy_eights_rules_stay_on_its_own_screen(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    host_table(page, server.origin, name="Ana", seats=2)
    page.click("#start")
    page.wait_for_selector('.table-screen[data-game="crazy_eights"] #hand button.card')
    page.wait_for_function(
        "() => [...document.styleSheets].some((s) => s.href && s.href.includes('/games/crazy_eights/'))"
    )
    assert page.evaluate(UNSCOPED, "crazy_eights") == []
    assert page.evaluate(OTHER_SCREEN) == {"before": "none", "card": "block", "actions": "block", "reason": True}
    # On its own screen the rules still apply: a card's points are "= 3".
    own = page.evaluate(
        """() => {
            const pts = Object.assign(document.createElement('span'), {className: 'pts', textContent: '3'});
            document.querySelector('.table-screen[data-game="crazy_eights"]').append(pts);
            const before = getComputedStyle(pts, '::before').content;
            pts.remove();
            return before;
        }"""
    )
    assert own == '"= "'


def test_every_games_stylesheet_names_its_screen(server: Any, new_context: Any) -> None:
    """The other two games' sheets were scoped already: kept so (each is loaded with its module)."""
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    for game in GAMES:
        page.evaluate(
            "async (game) => { const m = await import(`/games/${game}/page.js`); await new Promise((ok) => {"
            " const l = Object.assign(document.createElement('link'), {rel: 'stylesheet', href: m.stylesheet});"
            " l.onload = ok; document.head.append(l); }); }",
            game,
        )
        assert page.evaluate(UNSCOPED, game) == [], game
