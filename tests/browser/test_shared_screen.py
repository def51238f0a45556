"""The shared screen (seed 002): /tv/<code> shows a table's public view for a TV or a shared tab.

Two people on phones and a bot play; a fourth browser opens /tv/<code>. The shared screen
watches as a spectator: in the lobby it shows the room code, a QR code of the invite link and
the seats; during play every seat's count, the pile, the active suit and whose turn it is,
updated live (checked against a player's own view at the same version) and large enough to
read across a room. Every websocket frame it received is judged against the truth: the
table's log read from the test's Redis and replayed through the game's rules (truth.py): no
frame holds a card of any hand. The same judge, given a seated player's frames as if they
were a spectator's, finds that player's hand: it is able to fail. axe-core finds nothing on
the shared screen in any of the four languages.

Cost: about 25 s.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import assert_clean_in_every_language, host_table, phase, play_turn_mouse, start, version
from browser_server import Server
from truth import Truth, leaks, read_table


def record_frames(page: Any) -> list[Any]:
    frames: list[Any] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    return frames


def tv_matches(tv: Any, player: Any) -> None:
    """The shared screen shows what the player's view says of the table, at the same version
    (called while the table waits for that player, so that neither moves on)."""
    tv.wait_for_function("v => window.meja.version === v", arg=version(player))
    view = player.evaluate("() => window.meja.view")
    for seat, count in enumerate(view["hand_counts"]):
        shown = tv.inner_text(f'#opponents .seat-box[data-seat="{seat}"] .opp-count')
        assert shown == f"{count} {'card' if count == 1 else 'cards'}", (seat, shown, count)
    assert tv.get_attribute("#top-card .card", "data-card") == view["top"]
    assert tv.get_attribute("#indicator", "data-suit") == view["active_suit"]
    if view["phase"] == "play":
        on_turn = tv.eval_on_selector_all("#opponents .seat-box.on-turn", "els => els.map(e => Number(e.dataset.seat))")
        assert on_turn == [view["turn"]]


def test_the_shared_screen_shows_the_table_and_never_a_hand(
    server: Any, redis_url: str, new_context: Any, shot: Any
) -> None:
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    host = new_context(**phone).new_page()
    host_frames = record_frames(host)
    room = host_table(host, server.origin, name="Ana", seats=3)
    guest = new_context(**phone).new_page()
    guest.goto(f"{server.origin}/?join={room}")
    guest.fill("#name", "Budi")
    guest.click("#join")
    guest.wait_for_selector("#room-code")

    tv = new_context(viewport={"width": 1280, "height": 720}).new_page()
    tv_frames = record_frames(tv)
    tv.goto(f"{server.origin}/tv/{room.lower()}")
    # The lobby: how to join (the code, a QR code of the invite link, the link), who sits where.
    tv.wait_for_selector("#room-code")
    assert tv.inner_text("#room-code") == f"{room[:3]} {room[3:]}"
    link = f"{server.origin}/?join={room}"
    assert tv.inner_text("#invite-link") == link
    assert tv.get_attribute("#qr", "src") == f"/qr/{room}.svg"
    assert tv.get_attribute("#qr", "alt") == f"QR code to join: {link}"
    tv.wait_for_function("() => document.getElementById('qr').naturalWidth > 0")
    tv.wait_for_selector('#seats li[data-seat="1"]:has-text("Budi")')
    # An empty seat says so; that a bot takes it is said once, under the list (ten times, it made a
    # 10-seat lobby scroll).
    assert "Empty seat" in tv.inner_text('#seats li[data-seat="2"]')
    assert "a bot (Normal) takes every empty seat" in tv.inner_text("#bots-fill")
    assert tv.locator("#start").count() == 0 and tv.locator("#leave").count() == 0
    assert tv.title() == "Meja: Crazy Eights (shared screen)"
    assert_clean_in_every_language(tv, "shared screen, lobby")
    shot(tv, "tv-lobby")

    start(host)
    guest.wait_for_selector("#hand button.card")
    tv.wait_for_selector("#top-card .card")
    # A spectator's table: every seat around it, no hand, no buttons of a seat.
    assert tv.locator("#opponents .seat-box").count() == 3
    assert tv.locator("#hand button.card").count() == 0 and tv.locator("#my-area").is_hidden()
    assert tv.locator("#draw").count() == 0 or tv.locator("#draw").is_hidden()
    tv_matches(tv, host)
    # Large enough to read across a room.
    size = tv.evaluate(
        """() => ({count: parseFloat(getComputedStyle(document.querySelector('#opponents .opp-count')).fontSize),
                   card: document.querySelector('#top-card .card').getBoundingClientRect().height,
                   turn: parseFloat(getComputedStyle(document.getElementById('turn-status')).fontSize)})"""
    )
    assert size["count"] >= 24 and size["turn"] >= 28 and size["card"] >= 180, size

    # Live: after each move the shared screen shows the new counts, pile, suit and turn.
    moves = 0
    while moves < 8 and phase(host) == "play":
        for page in (host, guest):
            if phase(page) == "play" and page.evaluate("() => window.meja.view.turn === window.meja.seat"):
                # A person's turn: nothing moves until they do, so both screens show one version.
                tv_matches(tv, page)
                play_turn_mouse(page)
                moves += 1
        host.wait_for_timeout(30)
    tv.wait_for_function("v => window.meja.version >= v", arg=version(host))
    assert tv.locator("#move-caption .latest").inner_text()
    shot(tv, "tv-table")
    assert_clean_in_every_language(tv, "shared screen, table")

    # Every frame the shared screen got, judged against the log replayed through the rules.
    table_id = host.evaluate("() => window.meja.tableId")
    host.evaluate("() => window.meja.conn.request({type: 'ping'})")
    tv.evaluate("() => window.meja.conn.request({type: 'ping'})")
    record, log = read_table(redis_url, table_id)
    truth = Truth(record, log)
    assert len(tv_frames) > 10
    assert leaks(tv_frames, truth, None) == []
    # The judge can fail: a seated player's frames, judged as a spectator's, hold that player's hand.
    assert leaks(host_frames, truth, None), "the judge found nothing in a seat's frames: it checks nothing"
    assert leaks(host_frames, truth, 0) == []


def test_the_hosts_tv_link_opens_the_table_when_the_stands_are_full(
    redis_url: str, workdir: Path, new_context: Any
) -> None:
    """The host's lobby links its shared screen with the table's screen token (PROTOCOL.md 5,
    `watch.screen`): with the spectator places of this browser's address taken by other watchers,
    the host's TV still opens the table. Nobody else is shown the token, and no address bar keeps it."""
    server = Server(redis_url, workdir, env={"MEJA_MAX_SPECTATORS_PER_ADDRESS": "1"})
    try:
        host = new_context().new_page()
        room = host_table(host, server.origin, name="Ana", seats=3)
        link = host.get_attribute("#tv-link", "href")
        assert re.fullmatch(rf"/tv/{room}\?screen=[^&]+", link), link
        assert "screen" not in host.url
        guest = new_context().new_page()
        guest.goto(f"{server.origin}/?join={room}")
        guest.fill("#name", "Budi")
        guest.click("#join")
        guest.wait_for_selector("#room-code")
        assert guest.get_attribute("#tv-link", "href") == f"/tv/{room}"  # a guest's link has no token
        # Another watcher from the same address takes the only place in the stands: the guest's
        # own link, which opens the table's shared screen as one of the stands (h6 F16 asked what
        # it opens): the room code and the seats, never a hand.
        stands = new_context().new_page()
        stands.goto(server.origin + guest.get_attribute("#tv-link", "href"))
        stands.wait_for_selector("#room-code")
        stands.wait_for_function("() => document.querySelectorAll('#seats li').length === 3")
        assert stands.evaluate("() => window.meja.tv && window.meja.seat === null")
        crowd = new_context().new_page()
        crowd.goto(f"{server.origin}/tv/{room}")
        crowd.wait_for_function("() => /limit/i.test((document.getElementById('message') || {}).textContent || '')")
        # ... and the host's TV still opens the table, in a place of its own.
        tv = new_context().new_page()
        tv.goto(server.origin + link)
        tv.wait_for_selector("#room-code")
        assert tv.url == f"{server.origin}/tv/{room}"  # the token left the address bar
        tv.reload()  # and this tab keeps it
        tv.wait_for_selector("#room-code")
    finally:
        server.close()
