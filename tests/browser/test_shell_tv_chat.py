"""The room's chat on the shared screen (issue 20, point 3).

The choice (docs/talk.md): the shared screen is a spectator, so it shows the chat exactly when the
host lets spectators read it; a room the TV hosts from its own form lets them by default (a box
on that form, ticked: friends around a TV expect the chat there), a room a phone hosts keeps the
default (off) unless its host turns it on. Nothing else changes for the server: the TV receives
only what any spectator would, so the chat it shows is what the host chose to share.

Checked here: a TV-hosted room shows a phone's line on the TV, in full; every frame the TV
received is judged by the leak judge (truth.py) and holds no card of a hand; a TV-hosted room
whose host unticked the box shows no chat, and no frame to the TV carried the line.

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import say
from test_shell_lobby_focus import phone_joins
from truth import Truth, leaks, read_table

TV = {"viewport": {"width": 1920, "height": 1080}}


def record_frames(page: Any) -> list[Any]:
    frames: list[Any] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    return frames


def tv_room(server: Any, new_context: Any, *, chat: bool) -> tuple[Any, list[Any], Any]:
    tv = new_context(**TV).new_page()
    frames = record_frames(tv)
    tv.goto(server.origin + "/tv/")
    tv.wait_for_selector("#tv-host-form")
    assert tv.is_checked("#tv-host-chat"), "the TV's form shows the chat on the TV by default"
    if not chat:
        tv.uncheck("#tv-host-chat")
    tv.click("#tv-host")
    tv.wait_for_selector("#room-code")
    phone = phone_joins(new_context, server.origin, tv.evaluate("() => window.meja.tvRoom"), "Ana")
    return tv, frames, phone


def test_the_tv_shows_the_chat_of_a_room_it_hosts(server: Any, redis_url: str, new_context: Any) -> None:
    tv, frames, phone = tv_room(server, new_context, chat=True)
    line = "Who brought the snacks? The long line wraps on the TV and is never cut with an ellipsis"
    say(phone, line)
    tv.wait_for_selector("#tv-chat:not([hidden])")
    assert tv.inner_text("#tv-chat-lines li:last-child") == f"Ana: {line}"
    cut = tv.evaluate(
        "() => [...document.querySelectorAll('#tv-chat li')].filter(e => e.scrollWidth > e.clientWidth).length"
    )
    assert cut == 0
    # The table too: the chat stays beside it, and the TV never scrolls.
    tv.wait_for_selector("#start:not([disabled])")
    tv.click("#start")
    tv.wait_for_selector("#opponents .seat-box")
    say(phone, "good luck")
    tv.wait_for_function("() => document.getElementById('tv-chat').innerText.includes('Ana: good luck')")
    assert tv.is_visible("#tv-chat")
    assert tv.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
    table_id = tv.evaluate("() => window.meja.tableId")
    tv.evaluate("() => window.meja.conn.request({type: 'ping'})")
    record, log = read_table(redis_url, table_id)
    assert leaks(frames, Truth(record, log), None) == []


def test_the_tv_shows_no_chat_when_its_host_said_no(server: Any, new_context: Any) -> None:
    tv, frames, phone = tv_room(server, new_context, chat=False)
    say(phone, "only for the players")
    say(phone, "and this")
    tv.evaluate("() => window.meja.conn.request({type: 'ping'})")  # what the server sent has arrived
    assert tv.locator("#tv-chat").is_hidden()
    assert not any(b"only for the players" in f for f in frames if isinstance(f, bytes))
