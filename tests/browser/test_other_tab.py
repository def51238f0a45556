"""A second tab of the browser that holds a seat asks before it takes the seat (a new user's trial).

A player opened the home page in a new tab of the same phone: it went straight to the table, and
the first tab stopped ("This seat was opened in another tab"). Now a page that finds the seat
already played in another tab of the browser (its tabs answer on a BroadcastChannel) says so and
offers "Play here instead" (the other tab then stops, as before) or the home page; with no other
tab at the seat (a reload, a tab closed and opened again) it goes back to the seat as before.

Cost: one lobby of Crazy Eights, three tabs of one browser (about 5 s).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table


def test_a_second_tab_asks_before_it_takes_the_seat(server: Any, new_context: Any) -> None:
    ctx = new_context(viewport={"width": 1280, "height": 800})
    first = ctx.new_page()
    code = host_table(first, server.origin, name="Ana", seats=3)
    first.wait_for_selector("#room-code")

    second = ctx.new_page()
    second.goto(server.origin + "/")
    second.wait_for_selector("#other-tab-title")
    assert second.inner_text("#other-tab-title") == "Your game is open in another tab"
    assert code[:3] in second.inner_text("#other-tab-text")
    assert second.evaluate("() => document.activeElement.id") == "other-tab-here"
    second.wait_for_timeout(500)
    assert first.locator("#room-code").is_visible()  # the first tab plays on
    assert "another tab" not in first.inner_text("body")

    # Home: the home page, and the seat still offered there; the first tab still plays.
    second.click("#other-tab-home")
    second.wait_for_selector("#name")
    assert first.locator("#room-code").is_visible()
    second.close()

    # Play here instead: this tab takes the seat, and the first one stops, saying why.
    third = ctx.new_page()
    third.goto(server.origin + "/")
    third.click("#other-tab-here")
    third.wait_for_selector("#room-code")
    first.wait_for_selector("text=This seat was opened in another tab or window")

    # A reload of the tab that plays finds no other tab at the seat: it goes back to it at once.
    third.reload()
    third.wait_for_selector("#room-code")
    assert third.locator("#other-tab-title").count() == 0
