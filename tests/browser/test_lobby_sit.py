"""A person chooses where to sit in the lobby ("Sit here" on an empty seat: `sit`, PROTOCOL.md 5).

A guest who follows an invite link lands in the first free seat; at Eighty-Three (partners
across: seats 1 and 3 against 2 and 4 as the page numbers them) choosing a seat is choosing a
partner, and the button says who the partner there would be. The guest moves by keyboard, the
focus lands on their new seat and the page's alert says where they sit now; the host's page
shows them there; a closed tab comes back to the new seat; after the start the guest's hand is
the new seat's, as the rules dealt it from the host's deal code.

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import hand, join_by_link, say, start
from e83_browser import find_deal, host_e83
from meja.games.eighty_three.rules import GAME, NAMES

FOCUSED = "() => document.activeElement && document.activeElement.id"


def test_a_guest_sits_beside_the_host_and_gets_that_seats_hand(server: Any, new_context: Any, shot: Any) -> None:
    deal = find_deal(lambda state: True)
    dealt = GAME.new_match(GAME.options("standard"), 4, 1, deal_code=deal).state
    host = new_context().new_page()
    code = host_e83(host, server.origin, name="Ana", deal_code=deal)
    # Seats 0 and 2 play together: the host holds seat 0 ("Seat 1").
    assert host.locator(".sit-here").count() == 3, "the host may move too"

    guest_context = new_context()
    guest = guest_context.new_page()
    join_by_link(guest, server.origin, code, "Budi")
    guest.wait_for_function("() => window.meja.seat === 1")
    guest.wait_for_selector("#sit-2")
    # Every empty seat offers "Sit here" (none on one's own seat nor on the host's), named by seat,
    # with the partner it brings.
    assert guest.locator(".sit-here").count() == 2
    assert guest.locator("#sit-0, #sit-1").count() == 0
    sit = guest.get_by_role("button", name="Sit here: Seat 3")
    assert sit.get_attribute("aria-describedby") == "sit-partner-2"
    assert guest.inner_text("#sit-partner-2") == "Your partner there: Ana"
    # Seat 4's partner is the seat the guest would leave: open.
    assert guest.inner_text("#sit-partner-3") == "Your partner there: nobody yet"
    shot(guest, "lobby-sit-here")

    # By keyboard: the button, Enter.
    guest.focus("#sit-2")
    guest.keyboard.press("Enter")
    guest.wait_for_function("() => window.meja.seat === 2")
    guest.wait_for_function(f"() => ({FOCUSED})() === 'lobby-seat-2'")
    assert "you" in guest.inner_text("#lobby-seat-2")
    assert guest.inner_text("#toast") == "You sit at Seat 3 now. Your partner there: Ana."
    # The seat left offers "Sit here" again.
    guest.wait_for_selector("#sit-1")
    assert guest.locator("#lobby-seat-1.seat-empty").count() == 1

    # The host's page shows the guest at seat 3 and seat 2 empty.
    host.wait_for_selector("#lobby-seat-2 .person-name:has-text('Budi')")
    assert host.locator("#lobby-seat-1.seat-empty").count() == 1
    assert host.inner_text("#sit-partner-1") == "Your partner there: nobody yet"

    # A closed tab comes back to the new seat (the stored token opens it).
    guest.close()
    guest = guest_context.new_page()
    guest.goto(server.origin + "/")
    guest.wait_for_function("() => window.meja.seat === 2 && window.meja.table && window.meja.table.status === 'lobby'")
    guest.wait_for_selector("#lobby-seat-2[tabindex]")

    # Start: the guest's hand is seat 2's, as the deal code deals it.
    start(host)
    guest.wait_for_function("() => document.querySelectorAll('#hand button.card').length === 12")
    assert guest.evaluate("() => window.meja.view.seat") == 2
    assert sorted(hand(guest)) == sorted(NAMES[c] for c in dealt.hands[2])
    assert sorted(hand(guest)) != sorted(NAMES[c] for c in dealt.hands[1])


def test_a_remove_armed_for_one_who_moved_does_not_fall_on_the_next(server: Any, new_context: Any) -> None:
    """The host's Remove, clicked once, waits for a second click (a kick sticks). Armed for Budi at
    seat 2; Budi moves to seat 3 and Cici joins seat 2: the button there is not armed for Cici (a
    hostile review: the second click would have kicked Cici for good)."""
    host, budi, code = _ana_hosts_budi_joins(server, new_context)
    host.click("#seat-control-1")
    assert host.inner_text("#seat-control-1") == "Remove Budi for good? Click again"
    budi.wait_for_selector("#sit-2")
    budi.click("#sit-2")
    _joins(new_context, server.origin, code, "Cici")
    host.wait_for_selector("#lobby-seat-1 .person-name:has-text('Cici')")
    assert host.inner_text("#seat-control-1") == "Remove"
    assert host.inner_text("#seat-control-2") == "Remove"


def test_hidden_messages_follow_a_person_who_moves(server: Any, new_context: Any) -> None:
    """Ana hides Budi's messages (kept by seat in her browser); Budi moves: still hidden at his new
    seat, and Cici, who joins his old one, is not (a hostile review: Budi showed again, and the
    next one at seat 2 was hidden unawares)."""
    host, budi, code = _ana_hosts_budi_joins(server, new_context)
    host.click("#talk-people-box > summary")
    host.click("#talk-hide-1")
    assert host.inner_text("#talk-hide-1") == "Messages hidden · Show"
    budi.wait_for_selector("#sit-2")
    budi.click("#sit-2")
    host.wait_for_selector("#lobby-seat-2 .person-name:has-text('Budi')")
    _joins(new_context, server.origin, code, "Cici")
    host.wait_for_selector("#lobby-seat-1 .person-name:has-text('Cici')")
    host.wait_for_selector("#talk-hide-1")
    assert host.inner_text("#talk-hide-2") == "Messages hidden · Show"
    assert host.inner_text("#talk-hide-1") != "Messages hidden · Show"
    assert host.inner_text("#chat-hidden-note") == "Hidden for you: the messages of Budi."


def test_a_person_who_moved_is_still_you_in_the_chat(server: Any, new_context: Any) -> None:
    """Budi says a line from seat 2 and moves to seat 3: on his page the line is still his ("You"),
    and the host's line is still hers (a hostile review: "You" went by the seat a line was said
    from, so his own earlier line took his name, and a line said from his new seat became his)."""
    host, budi, _code = _ana_hosts_budi_joins(server, new_context)
    say(budi, "halo dari kursi dua")
    budi.wait_for_selector("#sit-2")
    budi.click("#sit-2")
    host.wait_for_selector("#lobby-seat-2 .person-name:has-text('Budi')")
    say(host, "selamat datang")
    budi.wait_for_selector("#chat-lines li:has-text('selamat datang')")
    lines = budi.locator("#chat-lines li")
    said = {lines.nth(i).inner_text() for i in range(lines.count())}
    assert "You: halo dari kursi dua" in said and "Ana: selamat datang" in said, said


def _joins(new_context: Any, origin: str, code: str, name: str) -> Any:
    """A page of its own that joins the room ``code`` as ``name``."""
    page = new_context().new_page()
    join_by_link(page, origin, code, name)
    return page


def _ana_hosts_budi_joins(server: Any, new_context: Any) -> tuple[Any, Any, str]:
    """Ana hosts Eighty-Three; Budi joins (seat 2, as the page numbers it) and Ana sees him."""
    host = new_context().new_page()
    code = host_e83(host, server.origin, name="Ana", deal_code=find_deal(lambda state: True))
    budi = _joins(new_context, server.origin, code, "Budi")
    host.wait_for_selector("#lobby-seat-1 .person-name:has-text('Budi')")
    return host, budi, code
