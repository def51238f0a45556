"""Talk at the table (PROTOCOL.md 16; server/meja/web/js/talk.js): reactions and the chat.

Three people at one table, one of them on a second ``meja serve`` sharing the same Redis, a
spectator and the shared screen: chat lines reach the seats (not the spectator until the host
lets spectators read), a reaction shows at its seat for a few seconds on every screen (the
spectator's and the shared screen's too), enters the move log and is announced; one person
hides another's messages for themselves; the host mutes a person, who is told so in plain
words; a reload draws the chat's history once. Then an Eighty-Three hand, whose rules allow
only the neutral reactions: the page offers those alone and says why, and the server's
refusal of another reads as plain words.

Cost: about 30 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import assert_clean_in_every_language, host_table, open_more_options
from browser_server import Server
from conftest import SCREENSHOTS
from kt_helpers import join

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def second_server(redis_url: str, workdir: Path) -> Iterator[Server]:
    """Another ``meja serve`` process on the session's Redis: a table is one table across both."""
    srv = Server(redis_url, workdir)
    yield srv
    srv.close()


def say(page: Any, text: str) -> None:
    if not page.is_visible("#chat-input"):
        page.click("#chat-toggle")
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")


def chat_has(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.getElementById('chat-lines') || {textContent: ''}).textContent.includes(t)",
        arg=text,
    )


def refused(page: Any, message: dict[str, Any]) -> str:
    """What the page says when the server refuses ``message`` (sent as the page sends it)."""
    return page.evaluate(  # type: ignore[no-any-return]
        """m => window.meja.conn.request({...m, table: window.meja.tableId})
               .then(() => 'accepted', (e) => window.meja.talk.errorText(e))""",
        message,
    )


def test_chat_and_reactions_reach_the_table(server: Any, second_server: Server, new_context: Any, shot: Any) -> None:
    ani = new_context().new_page()
    budi = new_context().new_page()
    cici = new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    dewi = new_context().new_page()
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    code = host_table(ani, server.origin, name="Ani", seats=3)
    join(budi, second_server.origin, code, "Budi")  # the second process
    join(cici, server.origin, code, "Cici")
    dewi.goto(f"{second_server.origin}/?watch={code}")
    dewi.wait_for_selector("#room-code")
    tv.goto(f"{server.origin}/tv/{code}")
    tv.wait_for_selector("#room-code")

    # A chat line reaches the seats on both processes; a phone with the chat closed counts it.
    assert ani.is_visible("#chat-panel")  # a wide screen has it open
    assert not cici.is_visible("#chat-panel")
    say(ani, "Halo semua")
    chat_has(budi, "Ani: Halo semua")
    cici.wait_for_selector("#chat-unread")
    assert cici.inner_text("#chat-unread") == "1"
    assert "1 unread" in cici.inner_text("#chat-toggle")
    cici.click("#chat-toggle")
    chat_has(cici, "Ani: Halo semua")
    assert cici.locator("#chat-unread").count() == 0
    assert cici.evaluate("() => document.activeElement.id") == "chat-input"
    # The spectator reads nothing of it (the host has not let spectators read), and has no input.
    assert not dewi.is_visible("#chat-toggle") and not dewi.is_visible("#chat-input")
    assert "Halo semua" not in dewi.inner_text("body")
    assert not dewi.is_visible("#react-button")

    # A reaction by keyboard (R, then its number), at Budi's seat on every screen, for a few seconds.
    budi.click("#lobby-title")
    budi.keyboard.press("r")
    budi.wait_for_selector("#react-menu:not([hidden])")
    assert budi.evaluate("() => document.activeElement.id") == "react-hello"
    budi.keyboard.press("2")
    for page in (ani, cici, dewi, tv):
        page.wait_for_selector('li.seat[data-seat="1"] .talk-bubble[data-reaction="nice"]')
        assert page.inner_text('li.seat[data-seat="1"] .talk-bubble') == "Nice!"
    # Announced once in the lobby (no move log there to say it).
    ani.wait_for_function("() => document.getElementById('talk-live').textContent === 'Budi: Nice!'")
    shot(ani, "talk-lobby")
    shot(cici, "talk-lobby-phone")
    ani.wait_for_selector('li.seat[data-seat="1"] .talk-bubble', state="detached", timeout=7000)
    # The menu by mouse: a tap, the emoji's words for a screen reader.
    budi.click("#react-button")
    assert budi.locator("#react-laugh .visually-hidden").inner_text() == "Laughing"
    budi.click("#react-laugh")
    tv.wait_for_selector('li.seat[data-seat="1"] .talk-bubble[data-reaction="laugh"]')
    assert tv.inner_text('li.seat[data-seat="1"] .talk-bubble') == "😄"

    # Ani hides Budi's messages for herself: Cici still reads them, Ani does not.
    ani.click("#talk-people-box > summary")
    ani.click("#talk-hide-1")
    assert ani.get_attribute("#talk-hide-1", "aria-pressed") == "true"
    say(budi, "only for Cici")
    chat_has(cici, "Budi: only for Cici")
    say(cici, "after it")
    chat_has(ani, "Cici: after it")
    assert "only for Cici" not in ani.inner_text("#chat-lines")
    assert ani.evaluate("() => JSON.parse(localStorage.getItem('meja.talk.hidden'))") != {}
    ani.click("#talk-hide-1")
    assert "only for Cici" in ani.inner_text("#chat-lines")

    # The host lets spectators read: Dewi gets the chat, without an input.
    ani.check("#live-talk-spectators")
    dewi.wait_for_selector("#chat-toggle:not([hidden])")
    if not dewi.is_visible("#chat-panel"):
        dewi.click("#chat-toggle")
    say(budi, "hello spectators")
    chat_has(dewi, "Budi: hello spectators")
    assert not dewi.is_visible("#chat-input")
    assert "read the chat but not write" in dewi.inner_text("#chat-note")

    # The host mutes Cici for everyone: she is told, her controls are off, the server refuses.
    ani.click("#talk-mute-2")
    cici.wait_for_function("() => (window.meja.table.talk.muted || []).includes(2)")
    cici.wait_for_selector("#chat-note:has-text('The host muted you')")
    assert cici.is_disabled("#chat-input") and cici.is_disabled("#react-button")
    assert refused(cici, {"type": "say", "text": "let me talk"}) == "The host muted you at this table."
    assert refused(cici, {"type": "react", "reaction": "hello"}) == "The host muted you at this table."
    shot(cici, "talk-muted")
    # A line too long for the server reads as plain words, not as its code.
    assert "too long" in refused(budi, {"type": "say", "text": "x" * 300})

    # A reload draws the history once (a line that comes twice is drawn once).
    budi.reload()
    chat_has(budi, "Ani: Halo semua")
    assert budi.locator("#chat-lines li", has_text="Halo semua").count() == 1
    assert budi.locator("#chat-lines li", has_text="hello spectators").count() == 1

    # During play: a reaction at the seat's box, in the move log, on the shared screen.
    ani.click("#start")
    for page in (ani, budi, tv):
        page.wait_for_selector("#felt")
    budi.click("#react-button")
    budi.click("#react-thanks")
    for page in (ani, tv):
        page.wait_for_selector('.seat-box[data-seat="1"] .talk-bubble[data-reaction="thanks"]')
    ani.wait_for_function("() => document.getElementById('log').textContent.includes('Budi: Thanks')")
    budi.wait_for_selector('#my-area > .talk-bubble[data-reaction="thanks"]')
    shot(ani, "talk-table")
    shot(budi, "talk-table-budi")
    # The shared screen fits one screen at 1920x1080.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(SCREENSHOTS / "talk-tv-1920x1080.png"))
    assert tv.evaluate("() => document.scrollingElement.scrollHeight") <= 1080
    # Everything labelled and readable, with the chat open and the menu of reactions open.
    budi.click("#react-button")
    if not budi.is_visible("#chat-panel"):
        budi.click("#chat-toggle")
    assert_clean_in_every_language(budi, "table with talk")


def test_a_hand_of_eighty_three_allows_neutral_reactions_only(server: Any, new_context: Any) -> None:
    ani = new_context().new_page()
    budi = new_context().new_page()
    ani.goto(server.origin + "/")
    ani.fill("#name", "Ani")
    ani.check("#game-eighty_three")
    open_more_options(ani)
    ani.check("#host-talk-chat-reactions")  # the host form's talk: reactions only
    ani.click("#host")
    ani.wait_for_selector("#room-code")
    code = "".join(ani.inner_text("#room-code").split())
    assert ani.evaluate("() => window.meja.table.talk.chat") == "reactions"
    assert ani.inner_text('#table-rules dd[data-key="talk"]') == "Reactions only"
    join(budi, server.origin, code, "Budi")
    assert not budi.is_visible("#chat-toggle")  # reactions only: no chat for a guest
    assert refused(budi, {"type": "say", "text": "hi"}) == "The host turned this off at this table."
    ani.click("#start")
    for page in (ani, budi):
        page.wait_for_selector(".e83-centre")
        page.wait_for_function("() => window.meja.table.talk.now === 'neutral'")
    budi.click("#react-button")
    assert "During a hand only these reactions: partners may not signal each other." in budi.inner_text("#react-note")
    for reaction in ("nice", "oops", "good_game", "rematch", "laugh", "wow", "clap", "heart"):
        assert budi.get_attribute(f"#react-{reaction}", "aria-disabled") == "true", reaction
    for reaction in ("hello", "one_moment", "thanks", "your_turn"):
        assert budi.get_attribute(f"#react-{reaction}", "aria-disabled") is None, reaction
    budi.click("#react-nice", force=True)  # shown but not allowed: nothing is sent, the menu stays
    budi.click("#react-one_moment")
    ani.wait_for_selector('.seat-box[data-seat="1"] .talk-bubble[data-reaction="one_moment"]')
    assert ani.locator('.talk-bubble[data-reaction="nice"]').count() == 0
    ani.wait_for_function("() => document.getElementById('log').textContent.includes('Budi: One moment')")
    # The server says no too, in plain words.
    not_now = "Not now: the game's rules allow less talk at this moment."
    assert refused(budi, {"type": "react", "reaction": "nice"}) == not_now
