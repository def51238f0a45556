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
