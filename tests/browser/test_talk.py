"""Talk at the table (PROTOCOL.md 16; server/meja/web/js/talk.js): reactions and the chat.

Three people at one table, one of them on a second ``meja serve`` sharing the same Redis, a
spectator and the shared screen: chat lines reach the seats (not the spectator until the host
lets spectators read), a reaction shows at its seat for a few seconds on every screen (the
spectator's and the shared screen's too), enters the move log and is announced; one person
hides another's messages for themselves; the host mutes a person, who is told so in plain
words; a reload draws the chat's history once. Then an Eighty-Three hand, whose rules allow
only the neutral reactions: the page offers those alone and says why, and the server's
refusal of another reads as plain words.

A new user's trial (three people, a phone among them, and the shared screen) found more, each
checked here: hide and mute say their state; the muted person is told once, and R says why it
does nothing; a line past the limit is counted, not cut; reactions-only tells guests so; the
reactions' menu stays in the window and closes on a tap elsewhere, on the chat and on Escape;
a reaction's bubble leaves the seat's name and count in sight; the chat's history goes to
the chat, not to the end of the move log; "hide addresses" is offered only with a relay.

Cost: about 35 s.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import assert_clean_in_every_language, host_table, open_chat, open_more_options, say
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


def chat_has(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => (document.getElementById('chat-lines') || {textContent: ''}).textContent.includes(t)",
        arg=text,
    )


#: The reactions' menu against the window: how far it passes the right edge, and the page's sideways scroll (px).
MENU_FITS = """() => {
    const r = document.getElementById('react-menu').getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    return {past: Math.max(0, r.right - width, -r.left), scroll: document.scrollingElement.scrollWidth - width};
}"""

#: How much of a seat's name and count (their text, px²) its reaction's bubble covers; null: no bubble.
BUBBLE_COVERS = """seat => {
    const box = document.querySelector(`.seat-box[data-seat="${seat}"]`);
    const bubble = box && box.querySelector(':scope > .talk-bubble');
    if (!bubble) return null;
    const b = bubble.getBoundingClientRect();
    let area = 0;
    for (const p of box.querySelectorAll('.seat-who, .seat-stats')) {
        const range = document.createRange();
        range.selectNodeContents(p);
        for (const r of range.getClientRects()) {
            const w = Math.min(b.right, r.right) - Math.max(b.left, r.left);
            const h = Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top);
            if (w > 0 && h > 0) area += w * h;
        }
    }
    return area;
}"""


#: A seat's reaction bubble has finished growing in (its animation is over).
BUBBLE_STILL = """seat => {
    const bubble = document.querySelector(`.seat-box[data-seat="${seat}"] > .talk-bubble`);
    return !!bubble && bubble.getAnimations().every(a => a.playState === 'finished');
}"""


def menu_fits(page: Any) -> None:
    got = page.evaluate(MENU_FITS)
    assert got["past"] <= 0.5 and got["scroll"] <= 0, got


def visible_count(page: Any, text: str) -> int:
    return sum(1 for n in page.get_by_text(text).all() if n.is_visible())


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
    idle = ani.evaluate("() => getComputedStyle(document.getElementById('talk-hide-1')).backgroundColor")
    ani.click("#talk-hide-1")
    # It says so: its words, its look, and a note in the chat.
    assert ani.inner_text("#talk-hide-1") == "Messages hidden · Show"
    assert ani.evaluate("() => getComputedStyle(document.getElementById('talk-hide-1')).backgroundColor") != idle
    assert ani.inner_text("#chat-hidden-note") == "Hidden for you: the messages of Budi."
    say(budi, "only for Cici")
    chat_has(cici, "Budi: only for Cici")
    say(cici, "after it")
    chat_has(ani, "Cici: after it")
    assert "only for Cici" not in ani.inner_text("#chat-lines")
    assert ani.evaluate("() => JSON.parse(localStorage.getItem('meja.talk.hidden'))") != {}
    ani.click("#talk-hide-1")
    assert "only for Cici" in ani.inner_text("#chat-lines")
    assert ani.inner_text("#talk-hide-1") == "Hide messages" and not ani.is_visible("#chat-hidden-note")

    # The host lets spectators read: Dewi gets the chat, without an input.
    ani.check("#live-talk-spectators")
    dewi.wait_for_selector("#chat-toggle:not([hidden])")
    open_chat(dewi)
    say(budi, "hello spectators")
    chat_has(dewi, "Budi: hello spectators")
    assert not dewi.is_visible("#chat-input")
    assert "read the chat but not write" in dewi.inner_text("#chat-note")

    # The host mutes Cici for everyone: she is told, her controls are off, the server refuses.
    ani.click("#talk-mute-2")
    ani.wait_for_selector("#talk-mute-2:has-text('Unmute for everyone')")
    cici.wait_for_function("() => (window.meja.table.talk.muted || []).includes(2)")
    cici.wait_for_selector("#talk-muted-note:has-text('The host muted you')")
    # Told once, the chat open or not (the chat's note and the call's status both said it).
    assert visible_count(cici, "The host muted you") == 1
    open_chat(cici)
    assert visible_count(cici, "The host muted you") == 1
    assert cici.is_disabled("#chat-input") and cici.is_disabled("#react-button")
    # R says why nothing opens.
    cici.evaluate("() => document.activeElement && document.activeElement.blur()")
    cici.keyboard.press("r")
    cici.wait_for_selector("#toast:has-text('You cannot react: the host muted you.')")
    assert refused(cici, {"type": "say", "text": "let me talk"}) == "The host muted you at this table."
    assert refused(cici, {"type": "react", "reaction": "hello"}) == "The host muted you at this table."
    shot(cici, "talk-muted")
    ani.click("#talk-mute-2")  # and back: the host's button says "Mute" again
    ani.wait_for_selector("#talk-mute-2:has-text('Mute for everyone')")
    cici.wait_for_function("() => !(window.meja.table.talk.muted || []).includes(2)")
    # A pasted line past the limit is kept whole and counted (it was cut to 200 without a word).
    budi.fill("#chat-input", "x" * 120)
    assert not budi.is_visible("#chat-count")
    budi.fill("#chat-input", "x" * 180)
    assert budi.inner_text("#chat-count") == "180/200"
    budi.fill("#chat-input", "y" * 250)
    assert budi.evaluate("() => document.getElementById('chat-input').value.length") == 250
    assert budi.inner_text("#chat-count").startswith("250/200: too long")
    assert budi.is_disabled("#chat-send")
    budi.fill("#chat-input", "")
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
    # The keys line lists R where it opens the reactions (a new user's trial found it missing);
    # the shared screen, where R sends nothing, does not.
    budi.wait_for_function("() => document.getElementById('keys-hint').textContent.includes('R React')")
    assert "R React" not in tv.evaluate("() => (document.getElementById('keys-hint') || {}).textContent || ''")
    # The menu stays in the window: in a laptop's side column it ran past the right edge.
    budi.click("#react-button")
    menu_fits(budi)
    cici.click("#react-button")
    menu_fits(cici)
    # On a phone it closes on a tap elsewhere, on opening the chat, and on Escape.
    cici.tap("#table-title")
    assert cici.is_hidden("#react-menu")
    for _ in range(2):  # the chat closed first (one open out of sight is brought into view, then closed)
        if cici.get_attribute("#chat-toggle", "aria-expanded") != "true":
            break
        cici.click("#chat-toggle")
    assert cici.get_attribute("#chat-toggle", "aria-expanded") == "false"
    cici.click("#react-button")
    assert cici.is_visible("#react-menu")
    cici.click("#chat-toggle")
    assert cici.is_hidden("#react-menu") and cici.is_visible("#chat-panel")
    cici.click("#react-button")
    cici.evaluate("() => document.activeElement.blur()")
    cici.keyboard.press("Escape")
    assert cici.is_hidden("#react-menu")
    budi.click("#react-thanks")
    for page in (ani, tv, cici):
        page.wait_for_selector('.seat-box[data-seat="1"] .talk-bubble[data-reaction="thanks"]')
        # Beside the seat's name and count, not over them (a phone's box, the shared screen's).
        # Measured at its full size: it grows in, and half grown it covered less.
        page.wait_for_function(BUBBLE_STILL, arg=1)
        assert page.evaluate(BUBBLE_COVERS, 1) <= 1
    ani.wait_for_function("() => document.getElementById('log').textContent.includes('Budi: Thanks')")
    budi.wait_for_selector('#my-area > .talk-bubble[data-reaction="thanks"]')
    shot(ani, "talk-table")
    shot(budi, "talk-table-budi")
    shot(cici, "talk-table-phone")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(SCREENSHOTS / "talk-tv-bubble-1920x1080.png"))
    # A move after the reaction, then a reload: the reaction comes back as history, in the
    # chat; appended to the move log it read as said after that move.
    mover = next(p for p in (ani, budi, cici) if p.evaluate("() => (window.meja.view.legal || []).length > 0"))
    version = ani.evaluate("() => window.meja.version")
    mover.evaluate("() => window.meja.act(window.meja.view.legal[0])")
    ani.wait_for_function("v => window.meja.version > v", arg=version)
    ani.reload()
    ani.wait_for_selector("#felt")
    ani.wait_for_selector('#chat-lines li.chat-reaction:has-text("Budi: Thanks")')
    assert "Thanks" not in ani.inner_text("#log")
    # The shared screen fits one screen at 1920x1080.
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tv.screenshot(path=str(SCREENSHOTS / "talk-tv-1920x1080.png"))
    assert tv.evaluate("() => document.scrollingElement.scrollHeight") <= 1080
    # Everything labelled and readable, with the chat open and the menu of reactions open.
    budi.click("#react-button")
    open_chat(budi)
    assert_clean_in_every_language(budi, "table with talk")


def test_a_hand_of_eighty_three_allows_neutral_reactions_only(server: Any, new_context: Any) -> None:
    ani = new_context().new_page()
    budi = new_context().new_page()
    ani.goto(server.origin + "/")
    ani.fill("#name", "Ani")
    ani.check("#game-eighty_three")
    open_more_options(ani)
    # No relay on this server (welcome.limits.call_relay): "hide addresses" is not offered.
    assert ani.evaluate("() => window.meja.conn.limits.call_relay") is False
    assert ani.locator("#host-talk-relay").count() == 0
    assert ani.is_checked("#host-talk-hints")
    ani.check("#host-talk-chat-reactions")  # the host form's talk: reactions only
    ani.click("#host")
    ani.wait_for_selector("#room-code")
    code = "".join(ani.inner_text("#room-code").split())
    assert ani.evaluate("() => window.meja.table.talk.chat") == "reactions"
    assert ani.inner_text('#table-rules dd[data-key="talk"]') == "Reactions only"
    join(budi, server.origin, code, "Budi")
    # Reactions only: a guest's chat says so (it vanished without a word).
    open_chat(budi)
    assert "The host allows reactions only" in budi.inner_text("#chat-note")
    assert not budi.is_visible("#chat-input")
    assert refused(budi, {"type": "say", "text": "hi"}) == "The host turned this off at this table."
    ani.click("#start")
    for page in (ani, budi):
        page.wait_for_selector(".e83-centre")
        page.wait_for_function("() => window.meja.table.talk.now === 'neutral'")
    budi.click("#react-button")
    menu_fits(budi)  # during a hand, in the side column of a laptop
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
