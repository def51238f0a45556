"""Scripted deals: what Draw, Pass and the active-suit indicator show, against the rules engine.

Each deal is found by searching seeds with the rules engine (browser_helpers.find_deal),
and the engine says what the buttons must show after each step (engine_after), so the
page is checked against the rules, not against itself.

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    deal_state,
    engine_after,
    find_deal,
    hand,
    host_table,
    is_stuck,
    open_more_options,
    start,
    tab_to,
    version,
    wait_version_after,
)
from meja.games.crazy_eights.rules import DRAW
from meja.rules.cards import Card

# What the page says for each reason code of the view (strings.js, English).
REASONS = {
    "must_draw": "Draw first: pass is allowed after 3 draws with no playable card.",
    "has_playable": "You hold a playable card.",
    "draw_limit": "No draws left this turn.",
    "nothing_to_draw": "Nothing left to draw.",
}


def _stuck_for_three_draws(state: Any) -> bool:
    if not is_stuck(state):
        return False
    for _ in range(3):
        state = state.apply(0, DRAW).state
    return bool(state.view(0).to_wire()["can_pass"])


def _stuck_then_a_playable_draw(state: Any) -> bool:
    if not is_stuck(state):
        return False
    after_one = state.apply(0, DRAW).state
    return not is_stuck(after_one)


def check_buttons(page: Any, expected: dict[str, Any]) -> None:
    assert page.is_enabled("#pass") == expected["can_pass"]
    assert page.is_enabled("#draw") == expected["can_draw"]
    assert page.inner_text("#draw") == f"Draw ({expected['draws_left']} left)"
    pass_reason = page.inner_text("#pass-reason")
    assert pass_reason == ("" if expected["can_pass"] else REASONS[expected["pass_blocked"]])
    draw_reason = page.inner_text("#draw-reason")
    assert draw_reason == ("" if expected["can_draw"] else REASONS[expected["draw_blocked"]])
    # The reason is tied to the button for screen readers.
    assert page.get_attribute("#pass", "aria-describedby") == "pass-reason"


def draw(page: Any, by: str = "#draw") -> None:
    before = version(page)
    page.click(by)
    wait_version_after(page, before)


@pytest.mark.parametrize(
    ("name", "predicate", "draws"),
    [
        # No playable card in hand nor in the three cards drawn: Pass opens after the third (1.4.5).
        ("stuck-three-draws", _stuck_for_three_draws, 3),
        # No playable card, but the first card drawn fits: Pass stays closed (1.4.5 (a)).
        ("stuck-then-playable", _stuck_then_a_playable_draw, 1),
    ],
)
def test_pass_follows_the_rules(
    server: Any, new_context: Any, shot: Any, name: str, predicate: Any, draws: int
) -> None:
    code = find_deal(2, predicate)
    state = deal_state(code, 2)
    page = new_context().new_page()
    host_table(page, server.origin, name="Eka", seats=2, deal_code=code)
    start(page)
    page.wait_for_function("() => window.meja.view.turn === window.meja.seat")
    check_buttons(page, engine_after(state, 0))
    assert page.inner_text("#pass-reason") == REASONS["must_draw"]
    for k in range(1, draws + 1):
        # The stock is a pile one can click to draw, as well as the Draw button.
        draw(page, "#stock" if k == 2 else "#draw")
        check_buttons(page, engine_after(state, k))
    if name == "stuck-three-draws":
        assert page.is_enabled("#pass") and not page.is_enabled("#draw")
        assert page.inner_text("#draw-reason") == REASONS["draw_limit"]
        shot(page, "table-pass-enabled")
        before = version(page)
        page.click("#pass")
        wait_version_after(page, before)
        assert "You passed." in page.inner_text("#log")
    else:
        assert not page.is_enabled("#pass")
        assert page.inner_text("#pass-reason") == REASONS["has_playable"]
        assert page.is_enabled("#draw")  # a voluntary draw is still allowed (1.4.3)
        shot(page, "table-pass-disabled")


def _eight_to_name_clubs(state: Any) -> bool:
    # Seat 0 holds an 8 that is not a club, and neither is the starter: naming clubs changes the suit.
    hand = [str(c) for c in state.hands[0]]
    return state.top.suit.letter != "C" and any(c.startswith("8") and not c.endswith("C") for c in hand)


@pytest.mark.parametrize("by", ["mouse", "keyboard"])
def test_after_an_eight_the_indicator_names_the_called_suit(
    server: Any, new_context: Any, shot: Any, by: str
) -> None:
    code = find_deal(2, _eight_to_name_clubs)
    state = deal_state(code, 2)
    eight = next(str(c) for c in state.hands[0] if str(c).startswith("8") and not str(c).endswith("C"))
    page = new_context().new_page()
    room = host_table(page, server.origin, name="Fajar", seats=2, deal_code=code)
    # A person, not a bot, takes the other seat: nothing moves after the 8 until they act,
    # so the checks below see the table as the 8 left it (a bot could answer within 60 ms).
    guest = new_context().new_page()
    guest.goto(server.origin + f"/?join={room}")
    guest.fill("#name", "Kiki")
    guest.click("#join")
    guest.wait_for_selector("#room-code")
    page.wait_for_function("() => window.meja.table.seats.every(s => s.kind === \"human\")")
    start(page)
    page.wait_for_function("() => window.meja.view.turn === window.meja.seat")
    starter_suit = state.top.suit
    # The indicator is there from the start, by shape and word, even when it is the top card's suit.
    assert page.inner_text("#indicator") == starter_suit.word
    assert page.get_attribute("#indicator use", "href") == f"#suit-{starter_suit.letter}"

    dialog = page.locator("#suit-dialog")
    before = version(page)
    if by == "mouse":
        page.click(f'#hand button.card[data-card="{eight}"]')
        assert dialog.evaluate("d => d.open && d.matches(':modal')")
        assert page.evaluate("() => document.activeElement.dataset.suit") == "S"  # focus moved into it
        # Each suit says how many of the hand's cards (its 8s aside) are of it (the shell's `held`).
        for suit in "SHDC":
            n = sum(1 for c in map(str, state.hands[0]) if c.endswith(suit) and not c.startswith("8"))
            held = page.inner_text(f'#suit-dialog button[data-suit="{suit}"] .choice-held')
            assert held == f"{n} in your hand", (suit, held)
        shot(page, "suit-dialog")
        page.click('#suit-dialog button[data-suit="C"]')
    else:
        tab_to(page, "#hand button.card")
        page.keyboard.press("Home")
        for _ in range(hand(page).index(eight)):
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        assert dialog.evaluate("d => d.open && d.matches(':modal')")
        # Escape takes the card back: nothing is sent, focus returns to the card.
        page.keyboard.press("Escape")
        assert not dialog.evaluate("d => d.open")
        assert page.evaluate("() => document.activeElement.dataset.card") == eight
        assert version(page) == before
        page.keyboard.press("Enter")
        assert page.evaluate("() => document.activeElement.dataset.suit") == "S"
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.suit") == "C"
        page.keyboard.press("Enter")
    wait_version_after(page, before)
    assert not dialog.evaluate("d => d.open")
    assert page.inner_text("#indicator") == "Clubs"
    assert page.get_attribute("#indicator use", "href") == "#suit-C"
    assert page.get_attribute("#indicator", "data-suit") == "C"
    # The top card still shows the 8's printed suit; the indicator is what counts (1.3.3).
    printed = Card.parse(eight).suit
    assert page.get_attribute("#top-card .card", "aria-label") == f"8 of {printed.word.lower()}"
    assert "You played 8 of" in page.inner_text("#log") and "named clubs" in page.inner_text("#log")
    shot(page, f"table-after-eight-{by}")
    if by == "keyboard":
        assert page.evaluate("() => document.getElementById('hand').contains(document.activeElement)")


def test_one_draw_rules_speak_of_one_draw(server: Any, new_context: Any, shot: Any) -> None:
    # Classic (seed 001): one draw, only when stuck; the page never says "3 draws" or "0 draws left".
    code = find_deal(2, is_stuck, preset="classic")
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    page.fill("#name", "Vy")
    open_more_options(page)
    page.click(".deal-box summary")
    page.fill("#deal-code", code)
    assert page.input_value("#preset") == "classic"
    page.click("#host")
    page.wait_for_selector("#room-code")
    start(page)
    page.wait_for_function("() => window.meja.view.turn === window.meja.seat")
    assert page.inner_text("#draw") == "Draw"
    assert page.inner_text("#pass-reason") == "Draw first: pass is only for when nothing is left to draw."
    draw(page)
    log = page.inner_text("#log")
    assert "You drew " in log and "left" not in log, log
    page.click("#rules-button")
    rules = page.locator("#rules-list li").all_inner_texts()
    assert rules[0] == "Draws: only when you cannot play, one card; if it fits, it is played at once."
    shot(page, "classic-rules-panel")
