"""Focus in the lobby (issue 20, point 4): a phone that joins before the start can choose it.

Focus (the hand alone, big cards, for a phone beside the shared screen) was a button under the
hand, drawn only after Start. A game that offers it (its strings have "table.focus") now has the
same choice in a seat's lobby, kept where the game keeps it; after the start that phone's table
is the hand alone. A game without it shows no such button, nor does the shared screen.

Cost: about 8 s.
"""

from __future__ import annotations

import re
from typing import Any

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def phone_hosts(
    new_context: Any, origin: str, game: str, seats: int | None = None, name: str = "Ana", context: Any = None
) -> tuple[Any, str]:
    """A 390x844 phone (or a ``context`` of that kind) that hosts ``game`` from the home page: the
    page and the room code."""
    page = new_context(**(context or PHONE)).new_page()
    page.goto(origin + "/")
    page.fill("#name", name)
    page.check(f"#game-{game}")
    if seats is not None:
        page.check(f"#seats-{seats}")
    page.click("#host")
    page.wait_for_selector("#room-code")
    return page, re.sub(r"\s", "", page.inner_text("#room-code"))


def phone_joins(new_context: Any, origin: str, room: str, name: str) -> Any:
    """A 390x844 phone that joins ``room`` by its link: the page, in the lobby."""
    page = new_context(**PHONE).new_page()
    page.goto(f"{origin}/?join={room}")
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_selector("#room-code")
    return page


def test_a_phone_chooses_focus_in_the_lobby(server: Any, new_context: Any) -> None:
    host, room = phone_hosts(new_context, server.origin, "kartu_terakhir", 3)
    guest = phone_joins(new_context, server.origin, room, "Budi")
    guest.wait_for_selector("#lobby-focus")
    assert guest.get_attribute("#lobby-focus", "aria-pressed") == "false"
    assert guest.inner_text("#lobby-focus") == "Focus: hand only"
    # The line beside it says what it does once turned on, not "Focus on:" while it is off (a new
    # user's trial read it as on already).
    assert guest.inner_text(".lobby-focus .hint").startswith("Turned on, this screen shows your hand alone")
    guest.click("#lobby-focus")
    assert guest.get_attribute("#lobby-focus", "aria-pressed") == "true"
    # Drawn again (another seat fills), the choice stays.
    host.wait_for_selector("#start:not([disabled])")
    host.click("#start")
    guest.wait_for_selector("#hand button.card")
    guest.wait_for_selector(".table-screen.hand-only")
    assert guest.get_attribute(".focus-toggle", "aria-pressed") == "true"  # the table's own button agrees
    assert host.locator(".table-screen.hand-only").count() == 0  # the host did not choose it


def test_no_focus_button_where_the_game_has_none(server: Any, new_context: Any) -> None:
    host, _ = phone_hosts(new_context, server.origin, "crazy_eights")
    assert host.locator("#seats-title").count() == 1
    assert host.locator("#lobby-focus").count() == 0
