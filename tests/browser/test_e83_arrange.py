"""Eighty-Three's helpers for a newcomer (issue 20, point 13): what a hand is worth in the auction,
and an Auto-arrange ("Hand in for me") that keeps a player's own picks and shows what it adds first.

A table of one person and three bots, to the discard phase. In the auction the bid panel says
in plain words what the hand is worth: the game's yardstick estimate of the best trump suit
(meja.games.eighty_three.bots.yardstick), from the seat's own cards. Before anything is pressed the
discard box shows what Auto-arrange would hand in (the view's ``arranged``); the player picks
one discard by hand that Auto-arrange would not have chosen; the arrangement then holds that card
(completed around it, never replaced) and the preview lists only what the button adds; pressing
"Hand in for me" hands in the pick and what it showed, at once.

Cost: one auction and one discard phase against bots (about 10 s).
"""

from __future__ import annotations

import math
import time
from typing import Any

from browser_helpers import click_card, set_language
from e83_browser import (
    SUITS,
    auction_mouse,
    find_deal,
    host_e83,
    legal,
    mine,
    trump_mouse,
    view,
    wait_decision,
    wait_mine_after,
)
from meja.games.eighty_three.bots.yardstick import best_suit, estimate
from meja.games.eighty_three.rules import NAMES

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
NB_SUIT_WORDS = {"S": "spar", "H": "hjerter", "D": "ruter", "C": "kløver"}

PREVIEW_CHIPS = "() => document.querySelectorAll('#auto-preview .chip').length"


def _to_the_discard(new_context: Any, server: Any) -> Any:
    """A new table of Putu and three bots, played to Putu's discard phase (the auction checked)."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_e83(page, server.origin, name="Putu")
    page.click("#start")
    deadline = time.monotonic() + 90
    worth_seen = False
    while True:
        assert time.monotonic() < deadline, "no discard phase"
        decision = wait_decision(page)
        if decision == "auction":
            hand = [NAMES.index(c) for c in view(page)["hand"]]
            suit = best_suit(hand)
            n = math.floor(estimate(hand, suit) + 0.5)
            said = page.inner_text("#bid-worth")
            assert said.startswith(f"Your hand is worth about {n} with {SUIT_WORDS[SUITS[suit]]} as trumps"), said
            assert page.get_attribute("#bid-value", "aria-describedby") == "bid-worth"
            # "sound to bid" only where the worth reaches the lowest bid the picker offers
            low = min(a["value"] for a in legal(page, "bid"))
            assert ("sound to bid" in said) == (n >= low), said
            assert (f"below the lowest bid, {low}" in said) == (n < low), said
            # the suit in lower case mid-sentence in every language (Norwegian read "med Kløver som trumf")
            set_language(page, "nb")
            said = page.inner_text("#bid-worth")
            assert f"med {NB_SUIT_WORDS[SUITS[suit]]} som trumf" in said, said
            set_language(page, "en")
            worth_seen = True
            auction_mouse(page)
        elif decision == "trump":
            trump_mouse(page)
        elif decision == "discard":
            break
        else:
            raise AssertionError(f"unexpected decision {decision}")
    assert worth_seen, "the player never bid"
    return page


def _picks(v: dict[str, Any]) -> list[str]:
    """The cards Auto-arrange would keep that may be discarded by hand (a discard step, no give)."""
    steps: dict[str, set[str]] = {}
    for a in v["legal"]:
        if a["kind"] in ("discard", "give"):
            steps.setdefault(a["card"], set()).add(a["kind"])
    return [c for c, kinds in steps.items() if kinds == {"discard"} and c not in v["arranged"]["discards"]]


def test_auto_arrange_keeps_a_pick_and_shows_its_decision_first(new_context: Any, server: Any, shot: Any) -> None:
    # A deal where every card that may be shed is one Auto-arrange sheds leaves no pick to keep
    # (CI met one: six discardable cards, six to shed): another table is dealt then.
    for _ in range(4):
        page = _to_the_discard(new_context, server)
        if _picks(view(page)):
            break
    v = view(page)
    shown = v["arranged"]
    assert page.is_visible("#auto-preview")
    assert page.evaluate(PREVIEW_CHIPS) == len(shown["discards"]) + len(shown["gives"])
    # A card Auto-arrange would keep, discarded by hand.
    picks = _picks(v)
    assert picks, f"no card to pick by hand in four deals: {v['legal']}, auto {shown}"
    pick = picks[0]
    before = mine(page)
    click_card(page, pick)
    wait_mine_after(page, before)
    v = view(page)
    assert v["selected"]["discards"] == [pick]
    after = v["arranged"]
    assert pick in after["discards"], "Auto-arrange would throw the player's pick away"
    # The preview lists only what the button adds to the pick (h6 F14: it listed the pick again,
    # more cards than "Pick 3 more"), and the words say the button hands the cards in itself.
    added = len(after["discards"]) - 1 + len(after["gives"])
    assert page.evaluate(PREVIEW_CHIPS) == added, (page.inner_text("#auto-preview"), after)
    assert page.inner_text("#auto-preview").startswith("Hand in for me would add:")
    assert page.inner_text("#auto-arrange") == "Hand in for me"
    left = len(v["hand"]) - 6
    assert page.inner_text("#discard-status") == f"Pick {left} more to shed, or Hand in for me."
    shot(page, "e83-auto-preview")
    before = mine(page)
    page.click("#auto-arrange")
    wait_mine_after(page, before)
    # Handed in: what the preview showed leaves the hand (after the exchange too).
    page.wait_for_function("() => window.meja.view.phase !== 'discard'")
    gone = set(after["discards"]) | set(after["gives"])
    assert not gone & set(view(page)["hand"]), (gone, view(page)["hand"])


def _weak_first_caller(state: Any) -> bool:
    """Seat 0 calls first (dealer 3) with a hand the yardstick values under 30 in every suit."""
    hand = list(state.hands[0])
    return math.floor(estimate(hand, best_suit(hand)) + 0.5) < 30


def test_a_hand_below_the_lowest_bid_is_not_called_sound(new_context: Any, server: Any) -> None:
    """A new user's trial: a hand worth 27 where the lowest bid was 35 was "sound to bid on these
    twelve cards alone". Below the lowest bid the panel says so, in every language."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_e83(page, server.origin, name="Putu", deal_code=find_deal(_weak_first_caller))
    page.click("#start")
    assert wait_decision(page) == "auction"
    hand = [NAMES.index(c) for c in view(page)["hand"]]
    n = math.floor(estimate(hand, best_suit(hand)) + 0.5)
    said = page.inner_text("#bid-worth")
    assert said.startswith(f"Your hand is worth about {n} ") and "below the lowest bid, 30" in said, said
    assert "sound to bid" not in said
    set_language(page, "id")
    assert "di bawah tawaran terendah, 30" in page.inner_text("#bid-worth")
