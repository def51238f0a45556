"""Eighty-Three's words on a phone, as a new-user trial read them (390x844, touch), in the four languages.

* **Naming trumps**: each suit's button says what it gives ("4 trumps, 15 pts") on lines that break
  after the comma only: a number and its word stay together (it wrapped "4 trumps, 15 / pts").
* **The kitty's cards** (the line "From the kitty:" while trumps are named): the joker reads as the
  hand shows it, by its word and its star, not the server's "JK" ("JK★").
* **The round summary's team names** in their narrow column: the team's word, its seats in their
  brackets and its bid each on one line ("Them / (Bot 2 + Bot 4)"), not a word a line
  ("Them / (Bot 2 + / Bot 4)"), and the table within the summary's box.

A deal with the joker in the kitty; the player, the dealer, bids 83 last and so takes the kitty.
Screenshots: ``e83-phone-words-*``. Cost: about 40 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, set_language
from e83_browser import auction_mouse, find_deal, finish_hand_mouse, host_e83, trump_mouse, wait_decision
from meja.games.eighty_three.rules import NAMES

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
JOKER = NAMES.index("JK")

#: Each trump button's count: its text, and how many lines each of its comma-separated parts takes.
COUNTS = """() => Array.from(document.querySelectorAll('.trump-choice .suit-count'), (e) => {
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  const at = (i, end) => {
    for (const n of nodes) {
      if (i < n.length || (end && i === n.length)) return [n, i];
      i -= n.length;
    }
    return null;
  };
  const text = e.textContent, parts = [];
  let from = 0;
  for (const part of text.split(', ')) {
    const r = document.createRange(); r.setStart(...at(from, false)); r.setEnd(...at(from + part.length, true));
    parts.push(new Set(Array.from(r.getClientRects(), (q) => Math.round(q.top))).size);
    from += part.length + 2;
  }
  return {text, parts};
})"""

#: The summary's team cells: the lines of each part (the team's word, its seats, each seat's name,
#: its bid), and whether the table lies within the summary's box.
TEAMS = """() => {
  const lines = (e) => e ? new Set(Array.from(e.getClientRects(), (q) => Math.round(q.top))).size : null;
  const table = document.getElementById('hand-scores').getBoundingClientRect();
  const box = document.getElementById('summary').getBoundingClientRect();
  return {
    cells: Array.from(document.querySelectorAll('#hand-scores tbody th'), (th) => {
      return {text: th.textContent, word: lines(th.querySelector('.team-label')),
              seats: lines(th.querySelector('.team-seats')), bid: lines(th.querySelector('.bid-tag')),
              names: Array.from(th.querySelectorAll('.team-seat'), lines)};
    }),
    inside: table.left >= box.left - 0.5 && table.right <= box.right + 0.5,
  };
}"""


def test_e83_words_on_a_phone(server: Any, new_context: Any, shot: Any) -> None:
    page = new_context(**PHONE).new_page()
    host_e83(page, server.origin, name="Dewi", deal_code=find_deal(lambda s: JOKER in s.kitty, dealer=0))
    page.click("#start")
    assert wait_decision(page) == "auction"
    assert auction_mouse(page, 83) == "bid 83"

    # ---- naming trumps: the counts, the kitty's joker
    assert wait_decision(page) == "trump"
    for lang in LANGUAGES:
        set_language(page, lang)
        for count in page.evaluate(COUNTS):
            assert len(count["parts"]) == 2 and count["parts"] == [1, 1], (lang, count)
        joker = page.locator("#kitty-line .chip.joker")
        assert joker.count() == 1, lang
        # (the joker's word is "Joker" in the four languages: strings.js "card.joker")
        assert joker.inner_text().strip() == "Joker" and "JK" not in page.inner_text("#kitty-line"), (
            lang,
            joker.inner_text(),
        )
        assert joker.locator(".suit-icon").count() == 1  # the star, as on the hand's joker
        shot(page, f"e83-phone-words-trumps-{lang}")
    set_language(page, "en")
    assert page.inner_text(".trump-choice .suit-count >> nth=0").count(" pt") == 1
    trump_mouse(page)

    # ---- to the summary
    finish_hand_mouse(page)
    for lang in LANGUAGES:
        set_language(page, lang)
        teams = page.evaluate(TEAMS)
        assert teams["inside"], (lang, teams)
        for cell in teams["cells"]:
            # the word, each seat's name and the bid whole; the seats on one line where the headings
            # leave the room (Norwegian's "Poengkort", "Endring", "Totalt" leave 93 px: there they
            # break at the "+")
            assert cell["word"] == 1 and cell["bid"] in (None, 1) and cell["names"] == [1, 1], (lang, cell)
            assert cell["seats"] == 1 or (lang == "nb" and cell["seats"] == 2), (lang, cell)
        shot(page, f"e83-phone-words-summary-{lang}")
