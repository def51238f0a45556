"""Talk at the table (issue 19; PROTOCOL.md 16): reactions, chat, the host's policy and mutes, and
the call's signalling, over real websockets.

On Redis the people sit on two server processes' worth of servers (two ``MejaServer`` sharing one
real redis-server under one prefix, as two ``meja serve`` processes do), so every line, reaction,
roster and signal crosses the store's pub/sub. Each refusal is checked to change nothing: no line
reaches anyone, no table version moves.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import time
from typing import Any

import pytest
from server_helpers import host, join
from server_wire import Wire

STORES = ["memory", "redis"]


def lines(wire: Wire, *, since: int = 0) -> list[dict[str, Any]]:
    """Every talk line this connection was sent (history included), from message ``since`` on."""
    return [line for m in wire.seen[since:] if m["type"] == "talk" for line in m["lines"]]


async def heard(wire: Wire, count: int, timeout: float = 10.0) -> None:
    """Read until this connection has been sent ``count`` lines (then a moment more, for extras)."""
    if len(lines(wire)) < count:
        await wire.until(lambda m: len(lines(wire)) >= count, timeout)
    await settle(wire)


async def settle(*wires: Wire, quiet: float = 0.3) -> None:
    """Read what is on its way to each connection (the lines published on another process)."""
    for wire in wires:
        try:
            while True:
                await wire.recv(quiet)
        except TimeoutError:
            pass


async def two_servers(serve: Any, store: str, **settings: Any) -> tuple[Any, Any]:
    first = await serve(redis=store == "redis", **settings)
    second = await serve(redis=True, **settings) if store == "redis" else first
    return first, second


@pytest.mark.parametrize("store", STORES)
async def test_chat_and_reactions_reach_their_audience(store: str, serve: Any, connect: Any) -> None:
    a, b = await two_servers(serve, store)
    ann, bob, cat, sam = await connect(a), await connect(b), await connect(a), await connect(b)
    joined = await host(ann, seats=3)
    table = joined["table"]
    await join(bob, table=table, name="Bob")
    await join(cat, table=table, name="Cat")
    await sam.ok({"type": "watch", "table": table})
    await settle(ann, cat)
    assert ann.table is not None and ann.table["talk"] == {
        "chat": "on", "spectators": False, "table_talk": False, "relay": False, "hints": True, "muted": [],
        "now": "free",
    }  # fmt: skip
    version = ann.version

    reply = await ann.ok({"type": "say", "table": table, "text": "  nice\u3000 one  "})
    assert reply["type"] == "talk" and len(reply["lines"]) == 1
    said = reply["lines"][0]
    assert (said["seat"], said["name"], said["text"]) == (0, "Ann", "nice one")  # NFKC, spaces folded
    await bob.ok({"type": "react", "table": table, "reaction": "good_game"})
    for wire, count in ((ann, 2), (bob, 2), (cat, 2), (sam, 1)):
        await heard(wire, count)
    assert [(x["seat"], x.get("text") or x.get("reaction")) for x in lines(cat)] == [(0, "nice one"), (1, "good_game")]
    # The same lines (a sender has its own at once, as the answer: it may come before a line said
    # a moment earlier on another process, so only the others are sure to share one order).
    assert sorted(x["id"] for x in lines(bob)) == sorted(x["id"] for x in lines(cat))
    # The spectator sees the reaction (beside the seat) but not the chat, until the host allows it.
    assert [x.get("reaction") for x in lines(sam)] == ["good_game"]
    assert not any("text" in x for x in lines(sam))
    # Nothing said is a change of the table.
    assert ann.version == version == cat.version

    await ann.ok({"type": "talk_policy", "table": table, "spectators": True})
    mark = len(sam.seen)
    await cat.ok({"type": "say", "table": table, "text": "hi all"})
    await heard(sam, 2)
    assert [x["text"] for x in lines(sam, since=mark)] == ["hi all"]

    # A spectator never writes; a reload gets the history (what it may read: not the chat said
    # while spectators could not read it, though the host allows them now).
    await sam.error({"type": "say", "table": table, "text": "me too"}, "auth/not_seated")
    await sam.error({"type": "react", "table": table, "reaction": "wow"}, "auth/not_seated")
    late = await connect(b)
    await late.ok({"type": "watch", "table": table})
    history = await late.until(lambda m: m["type"] == "talk")
    assert history.get("history") is True
    assert [x.get("text") or x.get("reaction") for x in history["lines"]] == ["good_game", "hi all"]
    # A seat's reload reads it all.
    again = await connect(a)
    await again.ok({"type": "resume", "table": table, "token": joined["token"]})
    history = await again.until(lambda m: m["type"] == "talk")
    assert [x.get("text") or x.get("reaction") for x in history["lines"]] == ["nice one", "good_game", "hi all"]


@pytest.mark.parametrize("store", STORES)
async def test_refusals_say_why_and_change_nothing(store: str, serve: Any, connect: Any) -> None:
    a, b = await two_servers(serve, store, chat_max_chars=20, talk_keep=3)
    ann, bob, cat = await connect(a), await connect(b), await connect(a)
    joined = await host(ann, seats=3)
    table = joined["table"]
    bobs = await join(bob, table=table, name="Bob")
    await join(cat, table=table, name="Cat")

    await bob.error({"type": "say", "table": table, "text": "x" * 21}, "talk/bad_text")
    for blank in ("\u200b", "\u3164", "a\u0301\u0302\u0303\u0304", "\u202eevil"):
        await bob.error({"type": "say", "table": table, "text": blank}, "talk/bad_text")
    await bob.error({"type": "react", "table": table, "reaction": "wink"}, "protocol/bad_message")
    # Emoji joined into one picture are words at a table (a hostile player found them refused).
    await bob.ok({"type": "say", "table": table, "text": "ok \U0001f469\u200d\U0001f4bb"})

    # The host mutes Bob: for the whole table, across a reconnect.
    await ann.ok({"type": "mute", "table": table, "seat": 1, "muted": True})
    await ann.error({"type": "mute", "table": table, "seat": 0, "muted": True}, "seat/bad_seat")
    await bob.error({"type": "mute", "table": table, "seat": 2, "muted": True}, "auth/not_host")
    assert ann.table is not None and ann.table["talk"]["muted"] == [1]
    # (Bob's server holds once the mute reaches it through the store: his own update says when.)
    if (bob.table or {})["talk"]["muted"] != [1]:
        await bob.until(lambda m: m["type"] == "update" and m["table"]["talk"]["muted"] == [1])
    await bob.error({"type": "react", "table": table, "reaction": "oops"}, "talk/muted")
    again = await connect(b)
    await again.ok({"type": "resume", "table": table, "token": bobs["token"]})
    await again.until(lambda m: m["type"] == "state")
    await again.error({"type": "say", "table": table, "text": "let me talk"}, "talk/muted")
    await again.error({"type": "call", "table": table, "join": True}, "talk/muted")
    await ann.ok({"type": "mute", "table": table, "seat": 1, "muted": False})
    if (again.table or {})["talk"]["muted"] != []:
        await again.until(lambda m: m["type"] == "update" and m["table"]["talk"]["muted"] == [])
    await again.ok({"type": "react", "table": table, "reaction": "thanks"})

    # Reactions only, then no talk at all.
    await ann.ok({"type": "talk_policy", "table": table, "chat": "reactions"})
    await cat.error({"type": "say", "table": table, "text": "hello?"}, "talk/off")
    await cat.ok({"type": "react", "table": table, "reaction": "hello"})
    await ann.ok({"type": "talk_policy", "table": table, "chat": "off"})
    assert ann.table is not None and ann.table["talk"]["now"] == "none"
    await cat.error({"type": "react", "table": table, "reaction": "hello"}, "talk/off")
    await heard(ann, 3)
    said = [x.get("text") or x.get("reaction") for x in lines(ann)]
    assert said == ["ok \U0001f469\u200d\U0001f4bb", "thanks", "hello"], said

    # A seat handed to a bot holds no person: its old connection only watches now.
    await ann.ok({"type": "talk_policy", "table": table, "chat": "on"})
    await ann.ok({"type": "seat", "table": table, "seat": 2, "to": "bot"})
    await cat.error({"type": "say", "table": table, "text": "still here"}, "auth/not_seated")


@pytest.mark.parametrize("store", STORES)
async def test_a_flood_of_talk_is_refused(store: str, serve: Any, connect: Any) -> None:
    a, b = await two_servers(serve, store, talk_per_s=1.0, talk_burst=5)
    ann, bob = await connect(a), await connect(b)
    table = (await host(ann, seats=2))["table"]
    await join(bob, table=table, name="Bob")
    codes = []
    for _ in range(12):
        reply = await bob.request({"type": "react", "table": table, "reaction": "clap"})
        codes.append(reply.get("code", "ok"))
    assert codes[:5] == ["ok"] * 5 and set(codes[5:]) == {"limit/exceeded"}, codes
    await heard(ann, 5)
    assert len(lines(ann)) == 5, "a refused reaction reached someone"
    await ann.ok({"type": "react", "table": table, "reaction": "clap"})  # another seat's budget
    # Each call message goes to everyone at the table: its own budget (call_burst, 10).
    codes = []
    for n in range(14):
        reply = await bob.request({"type": "call", "table": table, "join": True, "mic": True, "speaking": n % 2 == 0})
        codes.append(reply["code"] if reply["type"] == "error" else "ok")
    assert codes[:10] == ["ok"] * 10 and set(codes[10:]) == {"limit/exceeded"}, codes


async def test_a_hand_of_a_partnership_game_allows_only_neutral_reactions(serve: Any, connect: Any) -> None:
    server = await serve(bot_delay_min_ms=60_000, bot_delay_max_ms=60_000)
    ann = await connect(server)
    joined = await host(ann, game="eighty_three", seats=4)
    table = joined["table"]
    await ann.ok({"type": "react", "table": table, "reaction": "nice"})  # the lobby: anything
    await ann.ok({"type": "start", "table": table})
    assert ann.table is not None and ann.table["talk"]["now"] == "neutral"
    reply = await ann.error({"type": "say", "table": table, "text": "I have trumps"}, "talk/restricted")
    assert "thanks" in reply["message"]
    await ann.error({"type": "react", "table": table, "reaction": "nice"}, "talk/restricted")
    await ann.ok({"type": "react", "table": table, "reaction": "one_moment"})
    # A friendly table lifts the game's limits.
    await ann.ok({"type": "talk_policy", "table": table, "table_talk": True})
    assert ann.table is not None and ann.table["talk"]["now"] == "free"
    await ann.ok({"type": "say", "table": table, "text": "we play for fun"})


def _call_peers(wire: Wire) -> list[tuple[int, bool, bool]]:
    roster = [m for m in wire.seen if m["type"] == "call"][-1]
    return [(p["seat"], p["mic"], p["cam"]) for p in roster["peers"]]


@pytest.mark.parametrize("store", STORES)
async def test_the_call_signals_reach_only_the_addressee(store: str, serve: Any, connect: Any) -> None:
    secret = "s3cret"
    settings = {"ice_servers": "turn:127.0.0.1:3478?transport=udp", "turn_secret": secret, "turn_ttl_s": 600}
    a, b = await two_servers(serve, store, **settings)
    ann, bob, cat, sam = await connect(a), await connect(b), await connect(b), await connect(a)
    table = (await host(ann, seats=3, talk={"relay": True}))["table"]
    await join(bob, table=table, name="Bob")
    await join(cat, table=table, name="Cat")
    await sam.ok({"type": "watch", "table": table})

    await cat.error(
        {"type": "signal", "table": table, "to": 0, "peer": "x", "kind": "offer", "sdp": ["v=0"]}, "call/not_in_call"
    )
    ice = await ann.ok({"type": "call", "table": table, "join": True, "mic": True, "cam": True})
    assert ice["type"] == "ice" and ice["relay"] is True
    (server,) = ice["servers"]
    assert server["urls"] == ["turn:127.0.0.1:3478?transport=udp"]
    expiry, _, user = server["username"].partition(":")
    assert user == ice["id"] and int(expiry) > 0
    digest = hmac.new(secret.encode(), server["username"].encode(), hashlib.sha1).digest()
    assert server["credential"] == base64.b64encode(digest).decode()  # coturn's use-auth-secret
    bobs = await bob.ok({"type": "call", "table": table, "join": True, "mic": True, "cam": False})
    assert bobs["id"] != ice["id"] and bobs["servers"][0]["username"] != server["username"]
    both = [(0, True, True), (1, True, False)]
    for wire in (ann, bob, cat, sam):  # everyone at the table sees who is in the call
        if not any(m["type"] == "call" for m in wire.seen) or _call_peers(wire) != both:
            await wire.until(lambda m, w=wire: m["type"] == "call" and _call_peers(w) == both)

    offer = ["v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n", "s=-\r\n"]
    await ann.send({"type": "signal", "table": table, "to": 1, "peer": bobs["id"], "kind": "offer", "sdp": offer})
    got = await bob.until(lambda m: m["type"] == "signal")
    assert (got["from"], got["peer"], got["kind"], got["sdp"]) == (0, ice["id"], "offer", offer)
    candidates = [{"candidate": "candidate:1 1 udp 1 127.0.0.1 50000 typ host", "mid": "0", "mline": 0}]
    await bob.send(
        {"type": "signal", "table": table, "to": 0, "peer": ice["id"], "kind": "candidates", "candidates": candidates}
    )
    back = await ann.until(lambda m: m["type"] == "signal")
    assert back["candidates"] == candidates and back["from"] == 1
    await ann.error(
        {"type": "signal", "table": table, "to": 1, "peer": "stale", "kind": "answer", "sdp": ["v"]},
        "call/not_in_call",
    )
    await ann.error(
        {"type": "signal", "table": table, "to": 2, "peer": "x", "kind": "answer", "sdp": ["v"]}, "call/not_in_call"
    )
    big = ["x" * 1000] * 20
    await ann.error(
        {"type": "signal", "table": table, "to": 1, "peer": bobs["id"], "kind": "offer", "sdp": big}, "limit/exceeded"
    )
    await cat.ok({"type": "ping"})  # the signals sent before it were handled before it
    await settle(cat, sam, quiet=0.5)
    for wire in (cat, sam):
        assert not any(m["type"] == "signal" for m in wire.seen), "a signal reached someone it was not for"

    # Muting mic is said to everyone; a closed connection leaves the call.
    await bob.send({"type": "call", "table": table, "join": True, "mic": False, "cam": False})
    await ann.until(lambda m: m["type"] == "call" and [p["mic"] for p in m["peers"]] == [True, False])
    await bob.close()
    await ann.until(lambda m: m["type"] == "call" and [p["seat"] for p in m["peers"]] == [0])
    await ann.ok({"type": "call", "table": table, "join": False})
    await sam.until(lambda m: m["type"] == "call" and m["peers"] == [])


@pytest.mark.parametrize("store", STORES)
async def test_the_joiner_gets_its_ice_before_any_roster_that_names_it(store: str, serve: Any, connect: Any) -> None:
    """PROTOCOL.md 16.5: ``ice``, then the roster. The lower seat offers, so a page that joins after
    a higher seat makes its offers on the first roster that names it: sent before the ``ice``,
    that roster came while the page was not yet in the call, and the pair never connected."""
    a, b = await two_servers(serve, store)
    ann, bob = await connect(a), await connect(b)
    table = (await host(ann, seats=2))["table"]
    await join(bob, table=table, name="Bob")
    await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    await ann.until(lambda m: m["type"] == "call" and len(m["peers"]) == 1)
    start = len(ann.seen)
    ice = await ann.ok({"type": "call", "table": table, "join": True, "mic": False})
    await ann.until(lambda m: m["type"] == "call" and len(m["peers"]) == 2)
    order = [m["type"] for m in ann.seen[start:] if m["type"] in ("ice", "call")]
    assert order == ["ice", "call"], order
    assert [p["id"] for p in ann.seen[-1]["peers"] if p["seat"] == 0] == [ice["id"]]
    # A change once in the call is answered with the roster that holds it.
    roster = await ann.ok({"type": "call", "table": table, "join": True, "mic": True})
    assert roster["type"] == "call" and [p["mic"] for p in roster["peers"]] == [True, True]


@pytest.mark.parametrize("store", STORES)
async def test_a_flood_of_signals_never_drowns_the_addressee(store: str, serve: Any, connect: Any) -> None:
    """Each sender's budget is its own; what one connection receives has one too
    (``signal_in_bytes_per_s``, bursts of four times as much): past it signals are dropped, so that
    people in the call sending the largest signals cannot back up a slow link until its keepalive
    gives out (a hostile player's finding: dropped after about a minute at 640 kbit/s)."""
    a, b = await two_servers(serve, store, signal_in_bytes_per_s=2_000, signal_per_s=1000.0, signal_burst=1000)
    ann, bob = await connect(a), await connect(b)
    table = (await host(ann, seats=2))["table"]
    await join(bob, table=table, name="Bob")
    await ann.ok({"type": "call", "table": table, "join": True, "mic": True})
    bobs = await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    await ann.until(lambda m: m["type"] == "call" and len(m["peers"]) == 2)
    offer = {"type": "signal", "table": table, "to": 1, "peer": bobs["id"], "kind": "offer", "sdp": ["x" * 900]}
    start = time.monotonic()
    for _ in range(30):  # 30 signals of more than 900 bytes at once: 27 KB against a burst of 8 KB
        await ann.send(offer)
    await ann.ok({"type": "ping"})  # each was taken (none refused: the sender is within its own budget)
    elapsed = time.monotonic() - start
    assert not any(m["type"] == "error" for m in ann.seen)
    await settle(bob, quiet=0.5)
    got = sum(1 for m in bob.seen if m["type"] == "signal")
    # the burst's worth (8,000 bytes), and what refilled while they were sent (2,000 bytes a second)
    assert 5 <= got <= (8_000 + 2_000 * elapsed) // 900 + 1, (got, elapsed)
    # The budget refills: a signal a while later reaches Bob.
    await asyncio.sleep(1.0)
    await ann.send(offer)
    await bob.until(lambda m: m["type"] == "signal" and sum(1 for x in bob.seen if x["type"] == "signal") > got)


async def test_a_reload_leaves_the_call_and_rejoins_with_a_new_id(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    table = (await host(ann, seats=2))["table"]
    bobs = await join(bob, table=table, name="Bob")
    await ann.ok({"type": "call", "table": table, "join": True, "mic": True})
    first = await bob.ok({"type": "call", "table": table, "join": True, "mic": True})
    await ann.until(lambda m: m["type"] == "call" and [p["id"] for p in m["peers"]][1:] == [first["id"]])
    # Bob reloads: the new connection takes the seat before the old one is noticed closed.
    again = await connect(server)
    await again.ok({"type": "resume", "table": table, "token": bobs["token"]})
    await ann.until(lambda m: m["type"] == "call" and [p["seat"] for p in m["peers"]] == [0])
    second = await again.ok({"type": "call", "table": table, "join": True, "mic": True})
    assert second["id"] != first["id"]
    roster = await ann.until(lambda m: m["type"] == "call" and len(m["peers"]) == 2)
    assert roster["peers"][1]["id"] == second["id"]
    await asyncio.sleep(0.2)  # the old connection's close comes after: it must not take Bob out
    await bob.closed(5)
    await asyncio.sleep(0.2)
    assert [p["seat"] for p in [m for m in ann.seen if m["type"] == "call"][-1]["peers"]] == [0, 1]


@pytest.mark.parametrize("game", ["crazy_eights", "kartu_terakhir", "eighty_three"])
async def test_a_suggested_move_is_one_of_the_seats_legal_actions(game: str, serve: Any, connect: Any) -> None:
    """Issue 20: "Suggest a move" asks the game's default bot for the seat's own view; the host
    can turn hints off; nobody else, and no seat off turn, gets one."""
    server = await serve()
    ann, sam = await connect(server), await connect(server)
    table = (await host(ann, game=game, seats=4 if game == "eighty_three" else 2))["table"]
    await sam.ok({"type": "watch", "table": table})
    await ann.error({"type": "hint", "table": table}, "action/not_your_turn")  # the lobby: nothing to decide
    await ann.ok({"type": "start", "table": table})
    while ann.view is None or not ann.view["legal"]:
        await ann.until(lambda m: m["type"] == "update")
    hint = await ann.ok({"type": "hint", "table": table})
    assert hint["type"] == "hint" and hint["version"] == ann.version
    assert hint["action"] in ann.view["legal"], (hint, ann.view["legal"])
    await sam.error({"type": "hint", "table": table}, "auth/not_seated")
    await ann.ok({"type": "talk_policy", "table": table, "hints": False})
    await ann.error({"type": "hint", "table": table}, "hint/off")
