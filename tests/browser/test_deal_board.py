"""The deal board (issue 21, part 3; seed 000) in Chromium: two people in two browser contexts
play the same deal, one from the other's short link, each against a bot; each round summary
shows the other's result, and `/deal/<code>` lists both. axe-core finds nothing on the summary's
board and on `/deal/<code>` in the four languages.

Cost: two Crazy Eights rounds played by mouse (about a minute on the 2-core machine).
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import (
    TWO_FRAMES,
    assert_clean_in_every_language,
    host_table,
    play_turn_mouse,
    play_until_round_over,
    start,
)

#: The `/deal/<code>` screen has said that no round has this code.
NOBODY = "() => /Nobody has finished/.test(document.getElementById('deal-board-status').textContent)"


def board_names(page: Any) -> str:
    return page.inner_text("#deal-board-plays")


def test_two_people_play_one_deal_from_a_short_link_and_compare(server: Any, new_context: Any, shot: Any) -> None:
    ann = new_context().new_page()
    host_table(ann, server.origin, name="Ann", seats=2, target=10)
    start(ann)
    play_until_round_over([(ann, play_turn_mouse)])
    # Ann's summary: the short code first, with its link, and her own result on the board.
    ann.wait_for_selector("#deal-short-code", timeout=20_000)
    short = ann.inner_text("#deal-short-code")
    assert re.fullmatch(r"[0-9A-Z]{5}-[0-9A-Z]{5}", short), short
    link = ann.get_attribute("#copy-short-deal", "data-link")
    assert link == f"{server.origin}/deal/{short}"
    ann.wait_for_function("() => /Ann/.test(document.getElementById('deal-board-plays')?.textContent || '')")
    long_code = ann.text_content("#deal-code-shown") or ""
    assert short.replace("-", "") not in long_code.replace("-", "")

    # Bea opens the short link: the deal's page lists Ann's round, and plays the deal from it.
    bea = new_context().new_page()
    bea.goto(link)
    bea.wait_for_selector("#deal-board-plays")
    assert "Ann" in board_names(bea) and "Bea" not in board_names(bea)
    assert bea.inner_text("#deal-board-title") == f"Deal {short}"
    bea.click("#play-deal")
    bea.wait_for_selector("#host")
    # The form shows the deal's game, rules and seats (Ann's two seats, not the form's default
    # three: a new user's Eighty-Three deal opened a Crazy Eights form), from its deal code.
    assert bea.input_value("#deal-code").replace("-", "") == long_code.replace("-", "")
    assert bea.is_checked("#game-crazy_eights") and bea.is_checked("#seats-2")
    bea.fill("#name", "Bea")
    bea.click("#host")
    bea.wait_for_selector("#room-code")
    start(bea)
    play_until_round_over([(bea, play_turn_mouse)])
    # The same deal: Bea's round reveals Ann's deal code.
    bea.wait_for_selector("#deal-code-shown", state="attached")
    assert bea.text_content("#deal-code-shown") == long_code
    # Each summary shows the other's result (Ann's page asks again while it shows its summary).
    bea.wait_for_function("() => /Ann/.test(document.getElementById('deal-board-plays')?.textContent || '')")
    ann.wait_for_function(
        "() => /Bea/.test(document.getElementById('deal-board-plays')?.textContent || '')", timeout=30_000
    )
    assert re.search(r"Bea: \d+", board_names(ann)) and re.search(r"Ann: \d+", board_names(bea))
    assert_clean_in_every_language(ann, "round summary with the deal board")
    ann.locator("#deal-board").scroll_into_view_if_needed()
    shot(ann, "deal_board_summary")

    # `/deal/<code>` lists both, newest first.
    other = new_context().new_page()
    other.goto(f"{server.origin}/deal/{short.lower().replace('-', '')}")
    other.wait_for_selector("#deal-board-plays li >> nth=1")
    items = other.locator("#deal-board-plays li").all_inner_texts()
    assert "Bea" in items[0] and "Ann" in items[1], items
    assert_clean_in_every_language(other, "deal board")
    shot(other, "deal_board")
    # A short code no round here has: said in words, nothing listed.
    other.goto(f"{server.origin}/deal/00000-00000")
    other.wait_for_function(NOBODY)
    assert other.locator("#deal-board-plays").count() == 0


#: A board of two plays drawn by the page's own `/deal/<code>` screen (a board the server would send:
#: a person's negative score and a bot's seat), in a given language.
FAKE_BOARD = """lang => {
  const s = document.getElementById('lang'); s.value = lang; s.dispatchEvent(new Event('change'));
  const screen = window.meja.dealBoard;
  screen.error = null;
  screen.board = {game: 'crazy_eights', code: 'ABCDE-FGHIJ', plays: [
    {at: 1700000000000, lower_wins: null,
     seats: [{seat: 0, name: 'Dewi', points: -83}, {seat: 1, bot: true, points: 12}]},
  ]};
  screen.relabel();
  return document.getElementById('deal-board-plays').textContent;
}"""


def test_the_board_names_bots_and_minus_signs_as_the_summary_does(server: Any, new_context: Any) -> None:
    """A new-user trial (issue 20): the board said "Dewi: -83" with a hyphen while the score table
    uses U+2212 ("−83"), and in Vietnamese "Máy 2" for the seat the summary calls "Bot 2"."""
    page = new_context().new_page()
    page.goto(f"{server.origin}/deal/00000-00000")
    page.wait_for_function(NOBODY)
    for lang in ("en", "id", "vi", "nb"):
        text = page.evaluate(FAKE_BOARD, lang)
        assert "Dewi: \u221283" in text and "-83" not in text, (lang, text)
        assert "Bot 2: 12" in text and "Máy" not in text, (lang, text)


def test_a_round_summary_with_its_board_fits_a_desktop(server: Any, new_context: Any) -> None:
    """Issue 20's trial: a 2-seat Crazy Eights round summary at 1280x800, its deal board drawn as a
    page-wide panel, scrolled 68 px (868 in 800). Now it fits, board and plays included."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Rina", seats=2)
    start(page)
    play_until_round_over([(page, play_turn_mouse)])
    page.wait_for_selector("#deal-board-plays li")
    page.evaluate(TWO_FRAMES)
    height = page.evaluate("() => document.scrollingElement.scrollHeight")
    assert height <= 800, f"the round summary scrolls: {height} px in 800"
