"""Write the golden frames of client-protocol/fixtures/ from the protocol layer's own encoder.

Usage: ``python client-protocol/tools/make_fixtures.py [--check]``

Every client and server message type gets at least one frame, built with
:mod:`meja.protocol` (the server's message builders and encoder) around real
data: a table taken from the lobby through the start to a first play by the
server's own table functions (:mod:`meja.server.tables`, with a fixed match
seed and commitment salt), and written as
``fixtures/<direction>/<name>.msgpack``. ``fixtures/index.json`` describes each:
direction, message type, what it shows, and the decoded value. A second set,
``fixtures/invalid/``, holds client frames the server must refuse, each with the
documented answer (a close code or an error code).

The output is a pure function of the code (no clock, no randomness), so
``--check`` (and tests/protocol_fixtures) can tell when the committed fixtures
no longer match the protocol layer: regenerate them and review the diff.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from meja.protocol import encode
from meja.protocol import messages as m
from meja.rules import dealcode
from meja.server import tables
from meja.server.rooms import token_hash
from meja.server.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"

TABLE_ID = "4f2a9c1e7b3d4e5fa0b1c2d3e4f50617"
CODE = "K7M2QX"
ORIGIN = "https://meja.example"
LINK = f"{ORIGIN}/?join={CODE}"
SEAT_TOKEN = "q1xV9f0bZ2c8Yt4mLr7WnA"
HOST_TOKEN = "H8dPz3kR5uNw1sEa6jTgCg"
BOB_TOKEN = "b0bT0kenAAAAAAAAAAAAAA"
#: the commitment salt (normally 16 random bytes from ``secrets``), fixed so the output is stable
SALT = "5a" * 16
#: a classic 2-seat deal (seat 1 leads, round seed 12345), as a host would type it
DEAL_CODE = dealcode.encode(dealcode.DealSpec("classic", 2, 1, 12345))


@dataclass
class Scene:
    """A real table taken through lobby -> start -> one play by the server's own table functions."""

    lobby: dict[str, Any]  #: the table map in the lobby (after Bob joined and seat 2 became a bot)
    playing: dict[str, Any]  #: the table map after the first play
    lobby_update: list[dict[str, Any]]  #: events of version 2 (seat 2 becomes a bot), as Bob sees them
    start_events: list[dict[str, Any]]  #: events of version 3 (the start), as seat 0 sees them
    start_view: dict[str, Any]  #: seat 0's view after the start
    play_events: list[dict[str, Any]]  #: events of version 4 (seat 0's first legal play), as seat 1 sees them
    play_view: dict[str, Any]  #: seat 1's view after it


def _scene() -> Scene:
    """House rules, 3 seats, match seed 2024, and a fixed commitment salt: a pure function of the code."""
    settings = Settings(public_origin=ORIGIN)
    now = 1_767_225_600_000  # 2026-01-01T00:00:00Z
    table = tables.new_table(
        settings,
        table_id=TABLE_ID,
        code=CODE,
        name="Ann",
        game="crazy_eights",
        options={"preset": "house"},
        seats=3,
        bots=None,
        deal_code=None,
        grace_s=None,
        turn_limit_s=None,
        host_token=token_hash(HOST_TOKEN),
        seat_token=token_hash(SEAT_TOKEN),
        conn=("p1", "c1"),
        seed=2024,
        now=now,
    )
    joined, _ = tables.join(table, name="Bob", seat=None, token=token_hash(BOB_TOKEN), conn=("p1", "c2"))
    bot = tables.set_seat(joined.table, seat=2, to="bot", level=None)
    with patch.object(tables.secrets, "token_hex", return_value=SALT):
        started = tables.start(bot.table, version=3, now=now)
        first = started.table.state.legal_actions(0)[0].to_wire()
        played = tables.act(started.table, seat=0, action=first, client_version=3, version=4, now=now)
    return Scene(
        lobby=tables.summary(bot.table, settings),
        playing=tables.summary(played.table, settings),
        lobby_update=[e.to_wire() for e in bot.events if e.is_seen_by(1)],
        start_events=[e.to_wire() for e in started.events if e.is_seen_by(0)],
        start_view=tables.view_for(started.table, 0) or {},
        play_events=[e.to_wire() for e in played.events if e.is_seen_by(1)],
        play_view=tables.view_for(played.table, 1) or {},
    )


Fixture = tuple[str, str, str, dict[str, Any]]  # (direction, name, description, message)


def fixtures() -> list[Fixture]:
    scene = _scene()
    out: list[Fixture] = [
        (
            "client",
            "hello",
            "opens every connection",
            {"type": "hello", "id": 1, "protocol": 1, "client": "meja-web/0.1"},
        ),
        (
            "client",
            "host",
            "host a 3-seat house table, bots for empty seats",
            {
                "type": "host",
                "id": 2,
                "game": "crazy_eights",
                "options": {"preset": "house"},
                "seats": 3,
                "name": "Ann",
                "bots": "normal",
                "grace_s": 60,
                "turn_limit_s": None,
            },
        ),
        (
            "client",
            "host_deal_code",
            "host a table whose round 1 is a given deal",
            {
                "type": "host",
                "id": "h-1",
                "name": "Ann",
                "options": {"preset": "classic", "target": 50},
                "deal_code": DEAL_CODE,
            },
        ),
        (
            "client",
            "join_code",
            "join by room code (any case)",
            {"type": "join", "id": 3, "code": CODE.lower(), "name": "Bob"},
        ),
        (
            "client",
            "join_table_seat",
            "join by table id, asking for a seat",
            {"type": "join", "id": 4, "table": TABLE_ID, "name": "Cat", "seat": 2},
        ),
        ("client", "watch", "watch as a spectator", {"type": "watch", "id": 5, "code": CODE}),
        (
            "client",
            "resume",
            "take a seat back after a cut, with the events missed since version 41",
            {"type": "resume", "id": 6, "table": TABLE_ID, "token": SEAT_TOKEN, "since": 41},
        ),
        (
            "client",
            "resume_host",
            "the host takes its seat and host rights back",
            {"type": "resume", "id": 7, "table": TABLE_ID, "token": SEAT_TOKEN, "host_token": HOST_TOKEN},
        ),
        (
            "client",
            "seat_bot",
            "host: seat 2 becomes a bot",
            {"type": "seat", "id": 8, "table": TABLE_ID, "seat": 2, "to": "bot", "level": "normal"},
        ),
        (
            "client",
            "seat_empty",
            "host: seat 2 is emptied",
            {"type": "seat", "id": 9, "table": TABLE_ID, "seat": 2, "to": "empty"},
        ),
        ("client", "start", "host: deal round 1", {"type": "start", "id": 10, "table": TABLE_ID}),
        (
            "client",
            "act_play",
            "play the 8 of hearts and name spades",
            {
                "type": "act",
                "id": 11,
                "table": TABLE_ID,
                "version": 42,
                "action": {"kind": "play", "card": "8H", "suit": "S"},
            },
        ),
        (
            "client",
            "act_draw",
            "draw a card",
            {"type": "act", "id": 12, "table": TABLE_ID, "version": 43, "action": {"kind": "draw"}},
        ),
        (
            "client",
            "act_pass",
            "pass (only when stuck)",
            {"type": "act", "table": TABLE_ID, "version": 44, "action": {"kind": "pass"}},
        ),
        (
            "client",
            "act_ready",
            "ready for the next round",
            {"type": "act", "id": 13, "table": TABLE_ID, "version": 80, "action": {"kind": "ready"}},
        ),
        ("client", "rematch", "host: a new match at the same table", {"type": "rematch", "id": 14, "table": TABLE_ID}),
        ("client", "leave", "give up the seat", {"type": "leave", "id": 15, "table": TABLE_ID}),
        ("client", "ping", "keepalive / latency", {"type": "ping", "id": 16}),
        (
            "server",
            "welcome",
            "the answer to hello",
            m.welcome(
                server="meja/0.1.0",
                limits={"max_frame_bytes": 65536, "messages_per_s": 20, "burst": 40, "max_name_chars": 24},
                games=["crazy_eights"],
                re=1,
            ),
        ),
        (
            "server",
            "joined_host",
            "the answer to host: seat 0, the seat token and the host token",
            m.joined(table=TABLE_ID, code=CODE, link=LINK, seat=0, token=SEAT_TOKEN, host_token=HOST_TOKEN, re=2),
        ),
        (
            "server",
            "joined",
            "the answer to join: the seat and its token",
            m.joined(table=TABLE_ID, code=CODE, link=LINK, seat=1, token=SEAT_TOKEN, re=3),
        ),
        (
            "server",
            "state_lobby",
            "the host's picture in the lobby (no view yet)",
            m.state(table=scene.lobby, version=2, seat=0, is_host=True, view=None, re=2),
        ),
        (
            "server",
            "update_lobby",
            "Bob (seat 1) sees the host make seat 2 a bot",
            m.update(
                table=scene.lobby, version=2, since=1, events=scene.lobby_update, seat=1, is_host=False, view=None
            ),
        ),
        (
            "server",
            "update_start",
            "the answer to start: the deal's commitment, round 1, the host's hand",
            m.update(
                table=scene.playing,
                version=3,
                since=2,
                events=scene.start_events,
                seat=0,
                is_host=True,
                view=scene.start_view,
                re=10,
            ),
        ),
        (
            "server",
            "state_playing",
            "seat 0's whole picture in round 1 (after a resume or a reload)",
            m.state(table=scene.playing, version=3, seat=0, is_host=True, view=scene.start_view, re=7),
        ),
        (
            "server",
            "update_play",
            "what seat 1 gets after seat 0's first play",
            m.update(
                table=scene.playing,
                version=4,
                since=3,
                events=scene.play_events,
                seat=1,
                is_host=False,
                view=scene.play_view,
            ),
        ),
        (
            "server",
            "error_illegal",
            "an action refused by the rules (the connection stays open)",
            m.error("action/illegal", "'KS' does not match the active suit 'hearts' or the rank of '7H'", re=11),
        ),
        (
            "server",
            "error_stale",
            "the table moved on since the version acted on",
            m.error("action/stale_version", "the table is at version 44, not 42: act on the latest update", re=12),
        ),
        ("server", "pong", "the answer to ping", m.pong(re=16)),
    ]
    return out


#: Frames the server must refuse, with the documented answer (PROTOCOL.md 5, 6).
INVALID: list[tuple[str, str, Callable[[], bytes], dict[str, Any]]] = [
    ("not_msgpack", "random bytes", lambda: bytes.fromhex("c1c1c1c1"), {"close": 4000}),
    ("not_a_map", "a msgpack array", lambda: b"\x92\x01\x02", {"close": 4000}),
    ("ext_type", "a msgpack extension (timestamp)", lambda: b"\x81\xa4type\xd6\xff\x00\x00\x00\x01", {"close": 4000}),
    ("bin_value", "a binary string value", lambda: b"\x82\xa4type\xa4ping\xa2id\xc4\x01\x00", {"close": 4000}),
    ("int_key", "a map with an integer key", lambda: b"\x82\xa4type\xa4ping\x01\x02", {"close": 4000}),
    ("duplicate_key", "a map that repeats a key", lambda: b"\x82\xa4type\xa4ping\xa4type\xa4ping", {"close": 4000}),
    ("trailing_bytes", "one map then more bytes", lambda: encode({"type": "ping"}) + b"\x00", {"close": 4000}),
    (
        "too_deep",
        "nesting deeper than the limit",
        lambda: encode({"type": "act", "table": TABLE_ID, "version": 1, "action": _nest(12)}),
        {"close": 4000},
    ),
    (
        "huge_announced_array",
        "an array header announcing 2^32-1 elements",
        lambda: b"\x81\xa4type\xdd\xff\xff\xff\xff",
        {"close": 4000},
    ),
    ("no_type", "a map without type", lambda: encode({"id": 1}), {"error": "protocol/bad_message"}),
    (
        "unknown_type",
        "a type no one knows",
        lambda: encode({"type": "dance", "id": 1}),
        {"error": "protocol/unknown_type"},
    ),
    (
        "unknown_field",
        "a field the message does not have",
        lambda: encode({"type": "ping", "id": 1, "extra": True}),
        {"error": "protocol/bad_message"},
    ),
    (
        "wrong_type",
        "version as a string",
        lambda: encode({"type": "act", "id": 1, "table": TABLE_ID, "version": "7", "action": {"kind": "draw"}}),
        {"error": "protocol/bad_message"},
    ),
    (
        "bool_for_int",
        "a bool where an int goes",
        lambda: encode({"type": "act", "id": 1, "table": TABLE_ID, "version": True, "action": {"kind": "draw"}}),
        {"error": "protocol/bad_message"},
    ),
    (
        "name_too_long",
        "a 25-character name",
        lambda: encode({"type": "join", "id": 1, "code": CODE, "name": "x" * 25}),
        {"error": "protocol/bad_message"},
    ),
    (
        "code_and_table",
        "join with both code and table",
        lambda: encode({"type": "join", "id": 1, "code": CODE, "table": TABLE_ID, "name": "Bob"}),
        {"error": "protocol/bad_message"},
    ),
]


def _nest(depth: int) -> Any:
    value: Any = {"kind": "draw"}
    for _ in range(depth):
        value = {"x": value}
    return value


def build() -> dict[str, bytes]:
    """Every file of fixtures/ (relative path -> bytes), index.json included."""
    files: dict[str, bytes] = {}
    index: list[dict[str, Any]] = []
    for direction, name, description, message in fixtures():
        path = f"{direction}/{name}.msgpack"
        frame = encode(message)
        files[path] = frame
        index.append(
            {
                "file": path,
                "direction": direction,
                "type": message["type"],
                "description": description,
                "hex": frame.hex(),
                "value": message,
            }
        )
    invalid: list[dict[str, Any]] = []
    for name, description, make, answer in INVALID:
        path = f"invalid/{name}.bin"
        frame = make()
        files[path] = frame
        invalid.append(
            {"file": path, "direction": "client", "description": description, "hex": frame.hex(), "expect": answer}
        )
    doc = {
        "about": "Golden frames of the Meja wire protocol v1 (client-protocol/PROTOCOL.md). Generated by "
        "client-protocol/tools/make_fixtures.py from meja.protocol; do not edit by hand.",
        "protocol": m.PROTOCOL_VERSION,
        "frames": index,
        "invalid": invalid,
    }
    files["index.json"] = (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if fixtures/ is out of date")
    args = parser.parse_args(argv)
    files = build()
    stale = [p for p, data in files.items() if not (FIXTURES / p).is_file() or (FIXTURES / p).read_bytes() != data]
    extra = (
        [
            str(p.relative_to(FIXTURES))
            for p in FIXTURES.rglob("*")
            if p.is_file() and str(p.relative_to(FIXTURES)) not in files
        ]
        if FIXTURES.is_dir()
        else []
    )
    if args.check:
        for p in stale + extra:
            print(f"out of date: fixtures/{p}")
        return 1 if stale or extra else 0
    for p in extra:
        (FIXTURES / p).unlink()
    for p, data in files.items():
        (FIXTURES / p).parent.mkdir(parents=True, exist_ok=True)
        (FIXTURES / p).write_bytes(data)
    print(f"wrote {len(files)} files to {FIXTURES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
