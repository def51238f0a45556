"""Leaving a table during a round, from the table screen (a new user's trial, h6 F3: Leave table
was only between rounds; Home, then "Forget this seat", was the one way out)."""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table, join_by_link, start, watch_by_code


def test_a_player_leaves_mid_round_after_saying_yes(server: Any, new_context: Any, shot: Any) -> None:
    host = new_context().new_page()
    room = host_table(host, server.origin, name="Ani", seats=2)
    guest = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    join_by_link(guest, server.origin, room, "Budi")
    host.wait_for_selector('#seats li[data-seat="1"] .person-name')
    start(host)
    guest.wait_for_selector("#hand button.card")
    # A phone's bar keeps to its two lines: its Leave is in the Rules dialog (a desktop's in the bar).
    assert host.is_visible("#leave-button")
    assert not guest.is_visible("#leave-button")

    # Asked first; Stay keeps the seat.
    guest.tap("#rules-button")
    guest.tap("#rules-leave")
    guest.wait_for_selector("#leave-dialog[open]")
    assert "bot" in guest.inner_text("#choice-text")
    shot(guest, "leave-mid-round")
    guest.tap("#choice-cancel")
    guest.wait_for_selector("#leave-dialog", state="hidden")
    assert guest.is_visible("#hand button.card")

    # Yes: home, the seat forgotten, and a bot sits in it at the table.
    guest.tap("#rules-button")
    guest.tap("#rules-leave")
    guest.tap("#leave-dialog .leave-confirm")
    guest.wait_for_function("() => window.meja.screen === 'home'")
    guest.wait_for_selector("#join-form")
    assert guest.locator("#continue").count() == 0
    host.wait_for_selector('#opponents .seat-box.seat-bot[data-seat="1"]')
    assert host.is_visible("#hand button.card")  # the round goes on
    # The others read who left, in the move log (a new user saw the seat turn into a bot without a word).
    left = r"/Budi\W? left the table; a bot plays that seat from now on/"
    host.wait_for_function(f"() => {left}.test(document.getElementById('log').textContent)")

    # The host leaves from the bar: asked too.
    host.click("#leave-button")
    host.click("#leave-dialog .leave-confirm")
    host.wait_for_function("() => window.meja.screen === 'home'")


def test_the_last_player_leaving_is_told_the_match_stops_and_a_watcher_sees_it(
    server: Any, new_context: Any, shot: Any
) -> None:
    """With nobody seated the bots wait (README), so the match stops: the last person is told so
    before leaving, and a spectator reads that everyone left instead of a turn that never ends
    (reviewer h8: a watcher read "<bot>'s turn" for good)."""
    host = new_context().new_page()
    room = host_table(host, server.origin, name="Ani", seats=2)
    start(host)
    host.wait_for_selector("#hand button.card")
    watcher = new_context().new_page()
    watch_by_code(watcher, server.origin, room)
    watcher.wait_for_selector('#opponents .seat-box[data-seat="0"]')
    assert "Everyone has left" not in watcher.inner_text("#turn-status")

    host.click("#leave-button")
    host.wait_for_selector("#leave-dialog[open]")
    assert "last player" in host.inner_text("#choice-text")
    host.click("#leave-dialog .leave-confirm")
    host.wait_for_function("() => window.meja.screen === 'home'")
    watcher.wait_for_selector("#turn-status:has-text('Everyone has left: the match has stopped')")
    shot(watcher, "everyone-left")
