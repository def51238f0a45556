"""Eighty-Three's trick says who led only once the lead is played (a new user's trial, 2026-12-07:
before the first card of the hand, the bidder's slot read "You · led").

Cost: one auction, the trumps and the discard (about 10 s).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import start
from e83_browser import auction_mouse, auto_arrange_mouse, find_deal, host_e83, trump_mouse, view, wait_decision


def test_the_leader_is_said_to_have_led_only_after_its_card(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    # Seat 3 deals, so Ann (seat 0) calls first: her 83, the highest bid, is the contract
    host_e83(page, server.origin, name="Ann", deal_code=find_deal(lambda state: True, dealer=3))
    start(page)
    while (decision := wait_decision(page)) != "play":
        if decision == "auction":
            auction_mouse(page, 83)  # the bidder leads the first trick
        elif decision == "trump":
            trump_mouse(page)
        elif decision in ("discard", "trim"):
            auto_arrange_mouse(page)
        else:
            raise AssertionError(decision)
    v = view(page)
    assert v["trick"] == [] and not v.get("last_trick") and v["leader"] == page.evaluate("() => window.meja.seat")
    tags = page.eval_on_selector_all("#trick .slot-tag, .trick-slot .slot-tag", "els => els.map(e => e.textContent)")
    assert tags == [], tags
