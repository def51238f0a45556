"""An invite link to another table, opened while this browser holds a seat: the page asks
(a new user's trial, h6 F2: a friend's link silently took them back to their old table)."""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import host_table, play_turn_mouse, play_until_match_over, start


def room_code(page: Any) -> str:
    page.wait_for_selector("#room-code")
    return re.sub(r"\s", "", page.inner_text("#room-code"))


def test_an_invite_to_another_table_asks_before_leaving_the_seat(server: Any, new_context: Any, shot: Any) -> None:
    friend = new_context().new_page()
    theirs = host_table(friend, server.origin, name="Budi", seats=3)
    mine_context = new_context(viewport={"width": 390, "height": 844})
    me = mine_context.new_page()
    mine = host_table(me, server.origin, name="Ani", seats=2)
    assert mine != theirs

    # The friend's link, opened in the same browser: the page names both tables and asks.
    page = mine_context.new_page()
    page.goto(f"{server.origin}/?join={theirs}")
    page.wait_for_selector("#invite-choice-title")
    spaced = f"{theirs[:3]} {theirs[3:]}"
    assert spaced in page.inner_text("#invite-choice-title")
    assert f"{mine[:3]} {mine[3:]}" in page.inner_text("#invite-choice-text")
    assert page.evaluate("() => document.activeElement.id") == "invite-join"
    shot(page, "invite-elsewhere")

    # Back to the seat held: its table again.
    page.click("#invite-back")
    assert room_code(page) == mine

    # The new table: the join form with the invite's code, the old seat still offered.
    page.goto(f"{server.origin}/?join={theirs}")
    page.click("#invite-join")
    page.wait_for_selector("#join-form")
    assert re.sub(r"\s", "", page.input_value("#code")).upper() == theirs
    assert page.is_visible("#continue")
    page.fill("#name", "Ani")
    page.click("#join")
    assert room_code(page) == theirs
    friend.wait_for_selector('#seats li[data-seat="1"] .person-name:has-text("Ani")')

    # A link to the table whose seat is held resumes it, as before (once no other tab plays there:
    # one that does is asked about first, test_other_tab.py).
    page.close()
    again = mine_context.new_page()
    again.goto(f"{server.origin}/?join={theirs}")
    assert room_code(again) == theirs
    assert again.locator("#invite-choice-title").count() == 0


def test_a_watch_link_to_another_table_asks_before_leaving_the_seat(server: Any, new_context: Any) -> None:
    """h7 left it: a watch link (?watch=CODE) to another table took a seated player back to their
    seat, silently, as a join link once did. It asks the same way; a watch link to the held table
    (the table's own address during play) still resumes the seat at once."""
    friend = new_context().new_page()
    theirs = host_table(friend, server.origin, name="Budi", seats=3)
    mine_context = new_context(viewport={"width": 390, "height": 844})
    me = mine_context.new_page()
    mine = host_table(me, server.origin, name="Ani", seats=2)

    # A watch link to the held table: the seat, at once (no other tab plays there now).
    me.close()
    own = mine_context.new_page()
    own.goto(f"{server.origin}/?watch={mine}")
    assert room_code(own) == mine
    assert own.locator("#invite-choice-title").count() == 0
    assert own.evaluate("() => window.meja.spectating") is False

    page = mine_context.new_page()
    page.goto(f"{server.origin}/?watch={theirs}")
    page.wait_for_selector("#invite-choice-title")
    spaced = f"{theirs[:3]} {theirs[3:]}"
    assert page.inner_text("#invite-choice-title") == f"A link to watch table {spaced}"
    assert f"{mine[:3]} {mine[3:]}" in page.inner_text("#invite-choice-text")
    assert page.inner_text("#invite-join") == f"Watch table {spaced}"

    # Back to the seat held: its table again.
    page.click("#invite-back")
    assert room_code(page) == mine
    assert page.evaluate("() => window.meja.spectating") is False

    # The other table, watched; the seat stays offered on the home screen.
    page.goto(f"{server.origin}/?watch={theirs}")
    page.click("#invite-join")
    page.wait_for_function(
        "code => window.meja.spectating && window.meja.table && window.meja.table.code === code", arg=theirs
    )
    assert room_code(page) == theirs
    home = mine_context.new_page()
    home.goto(server.origin + "/")
    home.wait_for_selector("#continue")


def test_an_invite_after_a_match_that_is_over_goes_to_the_invite(server: Any, new_context: Any) -> None:
    """A new user's trial (2026-12-07): an invite opened after their match had ended asked "You
    still have a seat at table ...", about a match long over. A match seen over goes straight to
    the invite; its rematch is still offered by "Continue your game"."""
    friend = new_context().new_page()
    theirs = host_table(friend, server.origin, name="Budi", seats=3)
    mine_context = new_context()
    me = mine_context.new_page()
    host_table(me, server.origin, name="Ani", seats=2, target=10)
    start(me)
    play_until_match_over([(me, play_turn_mouse)])
    me.wait_for_function("() => window.meja.table && window.meja.table.status === 'finished'")

    page = mine_context.new_page()
    page.goto(f"{server.origin}/?join={theirs}")
    page.wait_for_selector("#join-form")
    assert page.locator("#invite-choice-title").count() == 0
    assert re.sub(r"\s", "", page.input_value("#code")).upper() == theirs
    assert page.is_visible("#continue")
    # The home panel says the match is over rather than offering to "continue" it (a new user's
    # trial, 2026-12-07), and its button still leads to that table's result.
    mine = me.evaluate("() => window.meja.table.code")
    assert page.inner_text("#continue-title") == "Your last match"
    assert "is over" in page.inner_text(".panel.continue p")
    assert page.inner_text("#continue") == f"Back to table {mine[:3]} {mine[3:]}"
    page.click("#continue")
    page.wait_for_function("code => window.meja.table && window.meja.table.code === code", arg=mine)
    page.wait_for_function("() => window.meja.table.status === 'finished'")
