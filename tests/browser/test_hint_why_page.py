"""A suggested move's reason on the page (issue 23 point 4, PROTOCOL.md 16.1 ``hint.why``).

"Suggest a move" rings the move and, under the hand and the game's controls, says why in the
player's language: the tip the default bot followed, from the shell's words (or the game's).
The screen reader hears it after the move (a live region of its own). Changing the language words it again; the next
update takes it away with the ring, and the move log's line of the move keeps it (this seat's
page alone). Never the tip's wire name.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import ask_hint, find_deal, host_table, press_hinted, set_language, start, wait_my_turn
from meja.games.crazy_eights.rules import CrazyEightsState

WORDS = "async ([lang, key]) => (await import('/js/strings.js')).STRINGS[lang][key]"


def test_a_suggested_move_says_why_in_the_players_language(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Ana", seats=2)
    start(page)
    wait_my_turn(page)
    shown = ask_hint(page)
    page.wait_for_selector("#hint-why", state="visible")
    why = page.evaluate("() => window.meja.tableScreen.hint.why")
    assert why["kind"] == "tip", why
    key = f"why.tip.{why['tip']}"
    english = page.evaluate(WORDS, ["en", key])
    assert english and page.inner_text("#hint-why").strip() == english
    assert english not in shown["said"], shown  # the move's region says the move alone...
    page.wait_for_function("t => document.getElementById('hint-why-live').textContent === t", arg=english)
    assert page.get_attribute("#hint-why-live", "aria-live") == "polite"  # ...and this one the reason
    assert why["tip"] not in page.inner_text("#my-area")  # the words, never the wire name

    # A searching level's figures, as the page words them: the closest other move named by its
    # control on screen, never its wire form; without one, the figures alone.
    other = next((a for a in page.evaluate("() => window.meja.view.legal") if a != shown["action"]), shown["action"])
    search = {"kind": "search", "deals": 240, "won": 62, "alt": other, "alt_won": 48}
    said = page.evaluate("w => window.meja.tableScreen.whyText(w)", search)
    assert said.startswith("In 240 deals that fit what you can see, this won 62% of the time; ") and said.endswith(
        ", the closest other move, 48%."
    ), said
    assert other.get("card", "§") not in said, said
    search["alt"] = {"kind": "play", "card": "no such card"}
    said = page.evaluate("w => window.meja.tableScreen.whyText(w)", search)
    assert said == "In 240 deals that fit what you can see, this won 62% of the time.", said

    set_language(page, "vi")
    vietnamese = page.evaluate(WORDS, ["vi", key])
    assert vietnamese and vietnamese != english
    page.wait_for_function("t => document.getElementById('hint-why').textContent === t", arg=vietnamese)
    assert page.is_visible(".hint-target"), "the ring stays with a language change"

    press_hinted(page)
    page.wait_for_selector("#hint-why", state="hidden")
    assert page.inner_text("#hint-why") == ""
    # The move log's line of the move says why too (this page's own: docs/talk.md 3).
    page.wait_for_function(
        "t => [...document.querySelectorAll('#log li.mine')].some(li => li.textContent.endsWith(t))",
        arg=f"(gợi ý: {vietnamese})",
    )
    set_language(page, "en")
    page.wait_for_function(
        "t => [...document.querySelectorAll('#log li.mine')].some(li => li.textContent.endsWith(t))",
        arg=f"(suggested: {english})",
    )

    # Asking again keeps the earlier line's reason (a later hint, then a language switch that
    # draws the log again, once wiped it).
    wait_my_turn(page)
    ask_hint(page)
    set_language(page, "vi")
    page.wait_for_function(
        "t => [...document.querySelectorAll('#log li.mine')].some(li => li.textContent.endsWith(t))",
        arg=f"(gợi ý: {vietnamese})",
    )


def _eights_only(state: CrazyEightsState) -> bool:
    """Seat 0 can play only 8s, and holds more of one suit other than spades (the chooser's first
    choice) than of any other, so the suggested suit is, by the tips, not the first one."""
    plays = [a for a in state.legal_actions(0) if a.kind.wire == "play"]
    if not plays or any(not a.to_wire()["card"].startswith("8") for a in plays):
        return False
    counts: dict[str, int] = {}
    for card in state.view(0).to_wire()["hand"]:
        if not card.startswith("8"):
            counts[card[-1]] = counts.get(card[-1], 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    return len(ranked) >= 2 and ranked[0][1] > ranked[1][1] and ranked[0][0] != "S"


def test_following_a_suggested_eight_takes_its_suit_too(server: Any, new_context: Any) -> None:
    """An 8 suggested with a suit: the card is ringed, and when it asks for its suit the chooser
    rings and focuses the suggested suit, so Enter twice plays the suggestion whole (a full run
    once took the first suit instead, and the move log lost its reason)."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Ana", seats=2, deal_code=find_deal(2, _eights_only))
    start(page)
    wait_my_turn(page)
    shown = ask_hint(page)
    action = shown["action"]
    reason = page.evaluate("() => window.meja.tableScreen.whyText(window.meja.tableScreen.hint.why)")
    assert reason, "the suggestion says why"
    assert action["kind"] == "play" and action["card"].startswith("8") and action["suit"] != "S", action
    page.keyboard.press("Enter")
    page.wait_for_selector("#suit-dialog[open]")
    focused = page.evaluate(
        "() => [document.activeElement.dataset.suit, document.activeElement.classList.contains('hint-target')]"
    )
    assert focused == [action["suit"], True], focused
    assert page.locator("#suit-dialog button.hint-target").count() == 1
    before = page.evaluate("() => window.meja.version")
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.meja.version > v", arg=before)
    page.wait_for_function(
        "t => [...document.querySelectorAll('#log li.mine')].some(li => li.textContent.endsWith(t))",
        arg=f"(suggested: {reason})",
    )
