"""Home during a match stays home (a new user's trial, 2026-12-07: pressing Home mid-round took
the player back to the table within a second at a fast bot's turn, its move log cut short).

The page kept the table's connection after going home, so the server went on sending it the
table's changes and the next one drew the table over the home screen. Home now leaves the
table's connection: the seat is away, as when a tab closes (the others see it), and "Continue
your game" takes it back with the table as it is.

Cost: about 15 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table, is_my_turn, join_by_link, play_turn_mouse, start, version


def test_home_during_a_match_stays_home_and_continue_takes_the_seat_back(server: Any, new_context: Any) -> None:
    host = new_context().new_page()
    room = host_table(host, server.origin, name="Ani", seats=3)
    guest = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    join_by_link(guest, server.origin, room, "Budi")
    host.wait_for_selector('#seats li[data-seat="1"] .person-name')
    start(host)
    host.wait_for_selector("#hand button.card")
    guest.wait_for_selector("#hand button.card")

    # (Ani plays first if the round starts with her: the table would wait out her grace.)
    for _ in range(6):  # a play ends the turn; a draw may not
        if not is_my_turn(host):
            break
        play_turn_mouse(host)
    assert not is_my_turn(host)
    host.click("#home-link")
    host.wait_for_function("() => window.meja.screen === 'home'")
    # The others see Ani away: her page holds no connection to the table any more.
    guest.wait_for_selector('#opponents .seat-box[data-seat="0"]:has-text("away")')
    # The table moves on without her page: Budi plays when his turn comes, the bot plays its own.
    before = version(guest)
    guest.wait_for_function(
        f"() => window.meja.version > {before} || (window.meja.view && window.meja.view.turn === window.meja.seat)"
    )
    if is_my_turn(guest):
        play_turn_mouse(guest)
    guest.wait_for_function(f"() => window.meja.version > {before}")
    assert host.evaluate("() => window.meja.screen") == "home"
    assert host.evaluate("() => window.meja.tableId") is None

    # Continue: back at the table, in her seat, with the table as it is now.
    host.click("#continue")
    host.wait_for_selector("#hand button.card")
    host.wait_for_function(f"() => window.meja.version >= {version(guest)}")
    assert host.evaluate("() => window.meja.seat") == 0
    guest.wait_for_selector('#opponents .seat-box[data-seat="0"]:not(:has-text("away"))')
