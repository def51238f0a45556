"""The connection: the reconnect banner, automatic reconnection to a restarted server, spectating.

Cost: about 10 s (a server of its own, stopped and started again).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browser_helpers import hand, host_table, start, version, wait_version_after
from browser_server import Server


def test_reconnects_by_itself_after_the_server_restarts(
    redis_url: str, workdir: Path, new_context: Any, shot: Any
) -> None:
    server = Server(redis_url, workdir)
    try:
        page = new_context().new_page()
        host_table(page, server.origin, name="Mira", seats=2)
        start(page)
        page.wait_for_function("() => window.meja.view.turn === window.meja.seat")
        before = version(page)
        page.click("#draw")
        wait_version_after(page, before)
        cards = hand(page)
        port = server.port
        server.close()  # SIGTERM: the server closes its connections with 1001

        banner = page.locator("#banner")
        banner.wait_for(state="visible")
        page.wait_for_selector("#banner:has-text('Connection lost. Reconnecting in')")
        assert banner.get_attribute("role") == "status"
        shot(page, "reconnect-banner")

        # The same Redis keeps the table: the client finds the new process by itself.
        server = Server(redis_url, workdir, port=port)
        banner.wait_for(state="hidden", timeout=30_000)
        page.wait_for_function("v => window.meja.version >= v", arg=before + 1)
        assert hand(page) == cards
        assert page.inner_text("#draw") == "Draw (2 left)"
    finally:
        server.close()


def test_backoff_is_capped_and_jittered(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    delays = page.evaluate(
        """async () => {
            const {backoffDelay} = await import('/js/net.js');
            const out = [];
            for (let a = 0; a < 12; a++) out.push([backoffDelay(a, () => 0), backoffDelay(a, () => 0.999999)]);
            return out;
        }"""
    )
    lows = [lo for lo, _ in delays]
    highs = [hi for _, hi in delays]
    assert highs[0] == 500 and lows[0] == 250  # between half and all of the step
    assert highs == sorted(highs) and max(highs) == 10_000  # doubling, capped at 10 s
    assert all(hi == 2 * lo for lo, hi in delays)


def test_client_helpers_agree_with_the_server(server: Any, new_context: Any) -> None:
    import hashlib

    from meja.games.crazy_eights.dealcode import DealSpec, encode

    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    text = "88EHW-HSV97H:" + "ab" * 16
    got = page.evaluate("async t => (await import('/js/fair.js')).sha256Hex(t)", text)
    assert got == hashlib.sha256(text.encode()).hexdigest()
    long_text = "ünï ♣" * 40
    assert page.evaluate("async t => (await import('/js/fair.js')).sha256Hex(t)", long_text) == (
        hashlib.sha256(long_text.encode()).hexdigest()
    )
    # The fair-deal check itself: the revealed code and salt must hash to the commitment.
    salt = "cd" * 16
    deal = "5BSQQ-G28T5-CY4TQ-KFF04-HMASW-9PW6P"
    fair = {"hash": hashlib.sha256(f"{deal}:{salt}".encode()).hexdigest(), "deal_code": deal, "salt": salt}
    check = "async ([f, shown]) => (await import('/js/fair.js')).checkDeal(f, shown)"
    assert page.evaluate(check, [fair, deal]) == "ok"
    assert page.evaluate(check, [{**fair, "salt": "ce" * 16}, deal]) == "bad"
    assert page.evaluate(check, [fair, "another code"]) == "bad"
    assert page.evaluate(check, [{"hash": fair["hash"]}, None]) == "wait"
    assert page.evaluate(check, [{}, None]) == "none"
    # The game's module reads its deal codes as the server does (to fill the host form).
    seed = (1 << 127) + 123456789
    code = encode(DealSpec("house", 3, 2, seed))
    read = "async c => (await import('/games/crazy_eights/page.js')).readDealCode(c)"
    assert page.evaluate(read, code.lower()) == {"preset": "house", "seats": 3, "leader": 2}
    assert page.evaluate(read, encode(DealSpec("party", 7, 6, 5))) == {"preset": "party", "seats": 7, "leader": 6}
    typo = code[:-1] + ("0" if code[-1] != "0" else "1")
    assert page.evaluate(read, typo) is None  # the check character catches a typo
    # Every game's module reads its own codes (the shared format in /js/dealcode.js) and no other's.
    from meja.games.eighty_three import dealcode as e83
    from meja.games.kartu_terakhir import dealcode as kt

    read_kt = "async c => (await import('/games/kartu_terakhir/page.js')).readDealCode(c)"
    read_83 = "async c => (await import('/games/eighty_three/page.js')).readDealCode(c)"
    kt_code = kt.encode(kt.DealSpec(10, 9, seed))
    e83_code = e83.encode(e83.DealSpec(3, seed))
    assert page.evaluate(read_kt, kt_code) == {"preset": "standard", "seats": 10, "dealer": 9}
    assert page.evaluate(read_83, e83_code) == {"preset": "standard", "seats": 4, "dealer": 3}
    assert page.evaluate(read_kt, code) is None and page.evaluate(read_83, kt_code) is None
    assert page.evaluate(read, kt_code) is None and page.evaluate(read, e83_code) is None
    assert page.evaluate("async () => (await import('/js/app.js')).normalizeRoomCode(' ab-1o2l ')") == "AB1021"


def test_a_deal_link_opens_the_host_form_with_that_deal(server: Any, new_context: Any) -> None:
    from meja.games.crazy_eights.dealcode import DealSpec, encode

    code = encode(DealSpec("house", 2, 0, 42))
    page = new_context().new_page()
    page.goto(f"{server.origin}/play?deal={code}")
    page.wait_for_selector("#host")
    assert page.input_value("#deal-code") == code
    assert page.is_checked("#seats-2")  # the seat count the code was made for
    assert page.input_value("#preset") == "house"


def test_spectator_sees_the_table_but_no_hand(server: Any, new_context: Any, shot: Any) -> None:
    host = new_context().new_page()
    room = host_table(host, server.origin, name="Nina", seats=2)
    watcher = new_context().new_page()
    watcher.goto(server.origin + "/")
    watcher.fill("#code", room.lower())
    watcher.click("#watch")
    watcher.wait_for_selector("#room-code")
    assert watcher.locator("#start").count() == 0
    start(host)
    watcher.wait_for_selector("#spectator-note:has-text('watching')")
    assert watcher.locator("#hand button.card").count() == 0
    assert watcher.locator(".my-area").is_hidden()
    assert watcher.locator("#opponents li").count() == 2  # both seats, with their card counts
    assert watcher.inner_text("#indicator") in ("Spades", "Hearts", "Diamonds", "Clubs")
    shot(watcher, "spectator")


def test_every_string_is_translated(server: Any, new_context: Any) -> None:
    # strings.js holds every string of the shell, and each game module's strings.js every
    # string of its game, one table per language of the page's language menu. Every table must
    # have every key of the English one (and no other), each a non-empty value of the same
    # shape (a list of lines where English has one; a function must say something for any
    # parameters); and the game's own Indonesian words follow seed 000.
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    found = page.evaluate(
        """async () => {
            const {STRINGS, LANGUAGES} = await import('/js/strings.js');
            const tables = {shell: STRINGS};
            for (const g of window.meja.games.list) if (g.page) tables[g.name] = (await import(g.page)).strings;
            const params = {n: 2, max: 3, left: 1, s: 5, p: 1, names: 'A, B', name: 'A', level: 'Normal', who: 'A',
                            card: 'X', suit: 'Spades', rank: 'Ace', decks: 1, round: 1, rounds: 5, target: 100,
                            code: 'ABC', game: 'G', title: 'T', key: 'D', label: 'L', word: 'w', order: 'o',
                            hash: 'h', link: 'l', preset: 'P', message: 'm', spelled: 'A B C'};
            const check = (tables) => {
            const problems = [];
            for (const [name, table] of Object.entries(tables)) {
                const english = table.en;
                for (const lang of Object.keys(LANGUAGES)) {
                    const here = table[lang];
                    if (!here) { problems.push(`${name}: no ${lang} table`); continue; }
                    for (const key of Object.keys(english)) {
                        const value = here[key];
                        if (value === undefined) { problems.push(`${name}.${lang}: missing ${key}`); continue; }
                        const where = `${name}.${lang}: ${key}`;
                        if (Array.isArray(english[key]) !== Array.isArray(value)) problems.push(`${where} is no list`);
                        const text = typeof value === 'function' ? value(params) : value;
                        if (!text || (Array.isArray(text) && !text.every(x => x))) problems.push(`${where} is empty`);
                    }
                    for (const key of Object.keys(here)) {
                        if (!(key in english)) problems.push(`${name}.${lang}: ${key} is not an English key`);
                    }
                }
            }
            return problems;
            };
            // The check can fail: a Vietnamese table with one key taken out is reported.
            const vi = {...STRINGS.vi};
            delete vi['summary.next'];
            const planted = check({shell: {...STRINGS, vi}});
            const ce = tables.crazy_eights.id;
            return {problems: check(tables), planted, languages: Object.keys(LANGUAGES), games: Object.keys(tables),
                    words: [STRINGS.id['lobby.start'], ce['table.draw.one'], ce['table.pass'], ce['table.stock'],
                            ce['rank.Q']]};
        }"""
    )
    assert found["languages"] == ["en", "id", "vi", "nb"]
    assert "crazy_eights" in found["games"]
    assert found["problems"] == []
    assert found["planted"] == ["shell.vi: missing summary.next"]
    assert found["words"] == ["Mulai", "Ambil", "Lewat", "Tumpukan tertutup", "Queen"]


def test_a_failed_resume_backs_off_and_asks_for_the_state_alone(server: Any, new_context: Any) -> None:
    # A far-behind resume can make the server close with 4004 (its outbox overflowed) every
    # time: the page must not retry the same resume every quarter second for ever. The
    # page's websocket goes through Playwright to the real server; the first three resumes
    # after a cut are closed with 4004 before the server sees them.
    import msgpack

    resumes: list[Any] = []
    failures = {"left": 0}

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: Any) -> None:
            data = msgpack.unpackb(message) if isinstance(message, bytes) else None
            if isinstance(data, dict) and data.get("type") == "resume":
                resumes.append(data.get("since", "absent"))
                if failures["left"] > 0:
                    failures["left"] -= 1
                    ws.close(code=4004, reason="too slow")
                    upstream.close()
                    return
            upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    page = new_context().new_page()
    page.route_web_socket(re.compile(r"/ws$"), route)
    host_table(page, server.origin, name="Omar", seats=2)
    start(page)
    page.wait_for_function("() => window.meja.view && window.meja.conn.attempt === 0")
    seen = version(page)

    failures["left"] = 3
    page.evaluate("() => window.meja.conn.ws.close()")
    # Each failure waits longer than the one before: the welcome between them resets nothing.
    page.wait_for_function("() => window.meja.conn.attempt === 3 && window.meja.lastStatus.state === 'waiting'")
    assert page.evaluate("() => window.meja.lastStatus.delayMs") >= 1000  # backoffDelay(2): 1-2 s
    page.wait_for_function("() => window.meja.lastStatus.state === 'open' && window.meja.conn.attempt === 0")
    page.wait_for_selector("#hand button.card")
    assert failures["left"] == 0
    # The first resume asked for what it missed; after it failed, every retry asks for the state alone.
    assert resumes[0] is not None and resumes[0] != "absent" and resumes[0] >= seen
    assert resumes[1:] == ["absent", "absent", "absent"], resumes


def test_an_away_player_shows_the_time_until_a_bot_plays_for_them(server: Any, new_context: Any, shot: Any) -> None:
    """Issue 20, point 9: a friend whose connection dropped was "away", with no word of how long
    the table waits for them: their box counts the table's grace time down to the bot taking over,
    to the moment the table map gives (``bot_at``), so every page agrees, after a reload too."""
    host = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_table(host, server.origin, name="Ana", seats=3)
    guest_context = new_context()
    guest = guest_context.new_page()
    guest.goto(f"{server.origin}/?join={room}")
    guest.fill("#name", "Budi")
    guest.click("#join")
    host.wait_for_selector('#seats li[data-seat="1"] .person-name')
    start(host)
    guest.wait_for_selector("#hand button.card")
    watcher = new_context().new_page()
    watcher.goto(server.origin + "/")
    watcher.fill("#code", room)
    watcher.click("#watch")
    watcher.wait_for_selector('#opponents .seat-box[data-seat="1"]')
    grace = host.evaluate("() => window.meja.table.grace_s")
    assert grace >= 10
    guest_context.close()  # the tab is gone: the seat is away
    box = '#opponents .seat-box[data-seat="1"] .presence.away'
    host.wait_for_selector(box)
    first = host.inner_text(box)
    m = re.fullmatch(r"away · bot in (\d+):(\d\d)", first)
    assert m, first
    left = int(m.group(1)) * 60 + int(m.group(2))
    assert grace - 5 <= left <= grace
    host.wait_for_function("([s, t]) => document.querySelector(s).textContent !== t", arg=[box, first], timeout=3000)
    m = re.fullmatch(r"away · bot in (\d+):(\d\d)", host.inner_text(box))
    assert m and int(m.group(1)) * 60 + int(m.group(2)) < left  # it counts down
    shot(host, "away-countdown")

    # A reload keeps the count (it said "away" alone), and the host's page and a spectator's agree.
    host.reload()
    host.wait_for_selector(f"{box}.away-countdown")
    shown = [page.evaluate("s => document.querySelector(s).textContent", box) for page in (host, watcher)]
    secs = []
    for text in shown:
        m = re.fullmatch(r"away · bot in (\d+):(\d\d)", text)
        assert m, shown
        secs.append(int(m.group(1)) * 60 + int(m.group(2)))
    assert abs(secs[0] - secs[1]) <= 1 and 0 < secs[0] < left, (shown, left)
