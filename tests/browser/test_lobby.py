"""The lobby: the room code, copying it, the invite link and its QR code.

Cost: about 5 s.
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import host_table
from meja.qr import qr_svg


def test_copy_link_uses_the_clipboard_or_shows_the_text(server: Any, new_context: Any, shot: Any) -> None:
    ctx = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    code = host_table(page, server.origin, name="Joko", seats=3)
    link = f"{server.origin}/?join={code}"
    assert page.inner_text("#invite-link") == link
    # The code is shown large and spaced, and spelled out for screen readers.
    assert page.inner_text("#room-code") == f"{code[:3]} {code[3:]}"
    assert page.get_by_text(f"Room code {' '.join(code)}").count() == 1
    page.click("#copy-link")
    page.wait_for_selector("#copy-status:has-text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    page.click("#copy-code")
    page.wait_for_selector("#copy-status:has-text('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == code

    # Where there is no clipboard (plain http on a LAN address), the text is shown, selected.
    other = new_context().new_page()
    other.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    other.goto(server.origin + f"/?join={code.lower()}")
    other.fill("#name", "Kiki")
    other.click("#join")
    other.wait_for_selector("#room-code")
    other.click("#copy-link")
    fallback = other.locator("#copy-fallback")
    assert fallback.is_visible()
    assert fallback.input_value() == link
    assert other.evaluate("() => document.activeElement.id") == "copy-fallback"
    assert "select the text" in other.inner_text("#copy-status")
    shot(other, "lobby-copy-fallback")


def test_lobby_invite_qr_code(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    code = host_table(page, server.origin, name="Lina", seats=2)
    src = page.get_attribute("img.qr", "src")
    assert src == f"/qr/{code}.svg"
    assert page.get_attribute("img.qr", "alt") == "QR code of the invite link"
    response = page.request.get(server.origin + src)
    assert response.status == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    body = response.text()
    link = f"{server.origin}/?join={code}"
    assert body == qr_svg(link)
    assert re.search(r"<title>(.*?)</title>", body).group(1) == link  # type: ignore[union-attr]
    assert page.evaluate("() => document.querySelector('img.qr').naturalWidth") > 0


def test_a_joiner_sees_the_game_and_its_house_rules_before_the_start(server: Any, new_context: Any, shot: Any) -> None:
    # Seed 000's three questions (how many cards you may draw, when you may pass, whether an 8
    # may go out) are answered on every seat's screen before the deal, in words fitting the preset.
    host = new_context().new_page()
    host.goto(server.origin + "/")
    host.fill("#name", "Maya")
    host.select_option("#preset", "classic")
    host.check("#seats-3")
    host.click("#host")
    host.wait_for_selector("#room-code")
    code = host.inner_text("#room-code").replace(" ", "")
    # The address bar names the table: copied from there, it is the invite link (a new user
    # looked for a link to send in the address bar, and found "/").
    assert host.url == f"{server.origin}/?join={code}"
    guest = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    guest.goto(host.url)
    # The invite link filled the code in: the name is what is left to type (focused, selected).
    guest.wait_for_function("() => document.activeElement && document.activeElement.id === 'name'")
    assert guest.input_value("#code") == code
    # Hosting is folded away (another game's host form read as the invited table's), one click off.
    assert not guest.is_visible("#host") and guest.get_attribute("#host-instead", "open") is None
    assert guest.inner_text("#host-instead > summary") == "Or host a table of your own"
    guest.keyboard.type("Nico")
    assert guest.input_value("#name") == "Nico"
    guest.click("#join")
    guest.wait_for_selector("#lobby-rules li")
    terms = guest.locator("#table-rules dt").all_inner_texts()
    rules = dict(zip(terms, guest.locator("#table-rules dd").all_inner_texts(), strict=True))
    assert rules["Game"] == "Crazy Eights" and rules["Rules"] == "Classic"
    lines = guest.locator("#lobby-rules li").all_inner_texts()
    assert lines[:3] == [
        "Draws: only when you cannot play, one card; if it fits, it is played at once.",
        "Pass: only when nothing is left to draw (after a draw the turn moves on by itself).",
        "Going out: an 8 may be your last card.",
    ]
    assert "5 cards each, from one deck of 52." in lines
    assert not any("3 draws" in line for line in lines)  # a one-draw preset never speaks of three
    # The empty seat says that a bot takes it at the start, and who that bot is.
    assert "a bot takes it at the start" in guest.inner_text('#seats li[data-seat="2"]')
    assert guest.inner_text("#bots-fill") == "At the start, a bot (Normal) takes every empty seat."
    assert guest.inner_text("#start-wait") == "Only the host can start the game."
    shot(guest, "lobby-joiner-classic")
    # Once it has started, the address is a watch link (joining is over), and reloading it
    # brings the seat back, not a spectator's view.
    host.click("#start")
    host.wait_for_selector("#hand button.card")
    assert host.url == f"{server.origin}/?watch={code}"
    host.reload()
    host.wait_for_selector("#hand button.card")
    assert host.evaluate("() => window.meja.seat") == 0


def test_bots_are_badges_names_are_names_and_a_kick_sticks(server: Any, new_context: Any) -> None:
    host = new_context().new_page()
    code = host_table(host, server.origin, name="Oka", seats=3)
    # A name that could pass for a bot's is refused, in words.
    other = new_context().new_page()
    other.goto(f"{server.origin}/?join={code}")
    other.fill("#name", "Bot 7")
    other.click("#join")
    other.wait_for_selector("#join-status:has-text('looks like a bot')")
    assert other.inner_text("#join-status") == (
        "That name looks like a bot's: only bots are called Bot. Please choose a name without the word bot."
    )
    # A bot is a badge: its words are the style sheet's (no text to copy or imitate), its name is for screen readers.
    host.click('#seats li[data-seat="2"] button')
    badge = host.locator('#seats li[data-seat="2"] .bot-badge')
    badge.wait_for()
    assert badge.get_attribute("role") == "img"
    assert badge.get_attribute("aria-label") == "Bot 3, a bot (Normal)"
    assert badge.evaluate("e => e.textContent") == ""
    assert "Bot 3" in badge.evaluate("e => getComputedStyle(e, '::before').content")
    # A person's name is in its own element.
    guest = new_context().new_page()
    guest.goto(f"{server.origin}/?join={code}")
    guest.fill("#name", "Putu")
    guest.click("#join")
    guest.wait_for_selector("#room-code, #join-status:not(:empty)")
    assert guest.locator("#room-code").count() == 1, guest.inner_text("#join-status")
    host.wait_for_selector('#seats li[data-seat="1"] .person-name:text-is("Putu")')
    # The host removes Putu (a second click confirms): Putu is told, watches on, and is offered no join.
    host.click('#seats li[data-seat="1"] button')
    host.wait_for_selector('#seats li[data-seat="1"] button.danger:has-text("Remove Putu for good?")')
    host.click('#seats li[data-seat="1"] button')
    guest.wait_for_selector("#lobby-notice")
    assert guest.inner_text("#lobby-notice") == (
        "The host took your seat at this table. You can keep watching, but you cannot join this table again."
    )
    assert guest.locator("#leave").count() == 0 and guest.locator("#join").count() == 0
    assert guest.inner_text("#start-wait") == "You are watching: the host starts the game."
    assert guest.evaluate("() => window.meja.seat") is None
    # Trying again from the home page: the server refuses, and the page says why.
    guest.click("#home-link")
    guest.fill("#code", code)
    guest.fill("#name", "Putu")
    guest.click("#join")
    guest.wait_for_selector("#join-status:has-text('removed you')")
    assert guest.inner_text("#join-status") == (
        "The host removed you from this table, so you cannot join it again. You can still spectate."
    )
