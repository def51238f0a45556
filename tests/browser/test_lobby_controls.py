"""The host's turn timer and each bot's level, chosen on the page and kept by the server.

Cost: about 10 s (one 15-second turn timer is not waited out: its count is read, not run down).
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import open_more_options


def test_the_turn_timer_is_chosen_shown_and_counted(server: Any, new_context: Any, shot: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Ann")
    page.check("#seats-2")
    open_more_options(page)
    # Off by default; the choices are what the server's limits allow.
    assert page.input_value("#turn-limit") == ""
    labels = page.eval_on_selector_all("#turn-limit option", "os => os.map(o => o.textContent)")
    assert labels == ["Off", "15 seconds a turn", "30 seconds a turn", "60 seconds a turn", "120 seconds a turn"]
    page.select_option("#turn-limit", "15")
    page.click("#host")
    page.wait_for_selector("#room-code")
    assert page.evaluate("() => window.meja.table.turn_limit_s") == 15
    # The lobby says so beside the other rules, before the start.
    assert "15 seconds a turn" in page.inner_text("#about-title >> xpath=..")
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    # The house preset deals seat 0 the lead: the clock counts the host's seconds down.
    page.wait_for_function("() => window.meja.view && window.meja.view.turn === window.meja.seat")
    page.wait_for_selector("#turn-clock:not([hidden])")
    first = int(re.search(r"\d+", page.inner_text("#turn-clock")).group())
    assert 10 <= first <= 15
    page.wait_for_function(f"() => parseInt(document.getElementById('turn-clock').textContent) < {first}")
    shot(page, "turn-clock")


def test_a_table_without_a_timer_shows_no_clock(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Bea")
    page.check("#seats-2")
    page.focus("#host")
    page.keyboard.press("Enter")  # by keyboard: the focus then starts the lobby, not the page's top
    page.wait_for_selector("#room-code")
    page.wait_for_function("() => document.activeElement.id === 'lobby-title'")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "copy-code"
    assert page.evaluate("() => window.meja.table.turn_limit_s") is None
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    assert page.locator("#turn-clock").is_hidden()


def test_the_host_sets_each_bots_level(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Cy")
    page.check("#seats-3")
    page.click("#host")
    page.wait_for_selector("#room-code")
    # An empty seat gets a bot of the table's level; the host then picks that bot's level alone.
    page.click("#seat-control-1")
    page.wait_for_selector("#seat-level-1")
    assert page.input_value("#seat-level-1") == "normal"
    assert page.get_attribute("#seat-level-1", "aria-label") == "Bot level: Seat 2"
    page.select_option("#seat-level-1", "hard")
    page.wait_for_function("() => window.meja.table.seats[1].level === 'hard'")
    assert page.input_value("#seat-level-1") == "hard"
    assert "Hard bot" in page.inner_text('li.seat[data-seat="1"]')
    # The other seat is still empty and fills at the start with the table's level.
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    levels = page.evaluate("() => window.meja.table.seats.map(s => s.level || null)")
    assert levels == [None, "hard", "normal"]


def test_an_option_shows_only_where_it_means_something(server: Any, new_context: Any) -> None:
    # Crazy Eights: a match to a points target, or to a number of rounds won (its specs' `when`).
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Dee")
    page.check("#seats-2")
    open_more_options(page)
    assert page.is_visible("#opt-target") and page.locator("#opt-rounds").is_hidden()
    page.check("#opt-match_mode-wins")
    assert page.is_visible("#opt-rounds") and page.locator("#opt-target").is_hidden()
    page.fill("#opt-rounds", "3")
    page.click("#host")
    page.wait_for_selector("#room-code")
    about = page.inner_text("#about-title >> xpath=..")
    assert "Rounds" in about and "Match ends at" not in about
    page = new_context().new_page()  # (this page would go back to its table)
    page.goto(server.origin + "/")
    page.fill("#name", "Eve")
    page.check("#seats-2")
    page.click("#host")
    page.wait_for_selector("#room-code")
    about = page.inner_text("#about-title >> xpath=..")
    assert "Match ends at" in about and "Rounds" not in about


def test_a_link_only_this_machine_can_open_says_so(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.fill("#name", "Fay")
    page.click("#host")
    page.wait_for_selector("#room-code")
    # The test server is reached on 127.0.0.1, so its invite links are of no use to a friend.
    assert page.inner_text("#invite-link").startswith("http://127.0.0.1:")
    assert "only on this computer" in page.inner_text("#loopback-note")
    # A guest is told nothing of how to run the server: that is for the host.
    guest = new_context().new_page()
    guest.goto(page.inner_text("#invite-link"))
    guest.fill("#name", "Gus")
    guest.click("#join")
    guest.wait_for_selector("#room-code")
    assert guest.locator("#loopback-note").count() == 0
    checks = page.evaluate(
        """async () => {
            const {isLoopback} = await import('/js/app.js');
            return ['http://127.0.0.1:8000/?join=K', 'http://localhost/', 'http://[::1]:80/', 'http://192.168.1.5:8000/',
                    'https://meja.example/?join=K', 'not a link'].map(isLoopback);
        }"""
    )
    assert checks == [True, True, True, False, False, False]
