"""Write the golden frames of the protocol core and of every game, from the protocol layer's own encoder.

Usage: ``python client-protocol/tools/make_fixtures.py [--check]``

The core (``client-protocol/fixtures/``): every client and server message type
gets at least one frame, built with :mod:`meja.protocol` (the server's message
builders and encoder) around real data: a table of the default game taken from
the lobby through the start to a first play by the server's own table functions
(:mod:`meja.server.tables`, with a fixed match seed and commitment salt), and
written as ``fixtures/<direction>/<name>.msgpack``. ``fixtures/index.json``
describes each: direction, message type, what it shows, and the decoded value.
A second set, ``fixtures/invalid/``, holds client frames the server must
refuse, each with the documented answer (a close code or an error code).

Each game (``meja/games/<name>/fixtures/``): the frames of its own section of
the protocol, its actions and what the rules answer, from the game's
``fixtures`` module (:attr:`meja.games.GamePlugin.fixtures`): ``frames(table_id)``
gives ``(direction, name, description, message)`` entries.

The output is a pure function of the code (no clock, no randomness), so
``--check`` (and tests/protocol_fixtures) can tell when the committed fixtures
no longer match the protocol layer: regenerate them and review the diff.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from meja import games
from meja.bots.base import choose_why, decision_rng
from meja.protocol import encode
from meja.protocol import messages as m
from meja.protocol.patch import diff as patch_of
from meja.server import archive, tables, talk
from meja.server.records import archive_id, encode_entry, seed_screen_token
from meja.server.rooms import token_hash
from meja.server.settings import Settings

REPO = Path(__file__).resolve().parents[2]
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
#: the game of the core's frames: the default one (whichever it is; the core names none)
GAME = games.built_in()[0].name


@dataclass
class Scene:
    """A real table taken through lobby -> start -> one play by the server's own table functions."""

    lobby: dict[str, Any]  #: the table map in the lobby (after Bob joined and seat 2 became a bot)
    started: dict[str, Any]  #: the table map right after the start (version 3)
    playing: dict[str, Any]  #: the table map after the first play (version 4)
    lobby_update: list[dict[str, Any]]  #: events of version 2 (seat 2 becomes a bot), as Bob sees them
    start_events: list[dict[str, Any]]  #: events of version 3 (the start), as seat 0 sees them
    start_view: dict[str, Any]  #: seat 0's view after the start
    start_view_1: dict[str, Any]  #: seat 1's view after the start (what the patch form's fixture patches)
    play_events: list[dict[str, Any]]  #: events of version 4 (the first legal action), as seat 1 sees them
    play_view: dict[str, Any]  #: seat 1's view after it
    action: dict[str, Any]  #: that first action
    #: the default bot level's suggestion for that seat at version 3 and its reason (``hint.why``)
    suggested: tuple[dict[str, Any], dict[str, Any] | None]
    #: the table map after Bob moved from seat 1 to the empty seat 2 (``sit``, a version 2 of its own)
    sat: dict[str, Any]
    sit_events: list[dict[str, Any]]  #: that version's events, as the host sees them


def _scene() -> Scene:
    """The default game's first preset at its default seat count, match seed 2024, and a fixed
    commitment salt: a pure function of the code."""
    settings = Settings(public_origin=ORIGIN)
    preset = games.get_game(GAME).info.presets[0]
    now = 1_767_225_600_000  # 2026-01-01T00:00:00Z
    table = tables.new_table(
        settings,
        table_id=TABLE_ID,
        code=CODE,
        name="Ann",
        game=GAME,
        options={"preset": preset.name},
        seats=preset.default_seats,
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
    sat = tables.sit(joined.table, seat=1, to=2)  # (another lobby, where Bob moves instead)
    with patch.object(tables.secrets, "token_hex", return_value=SALT):
        started = tables.start(bot.table, version=3, now=now)
        seat = started.table.state.awaiting()[0]
        first = started.table.state.legal_actions(seat)[0].to_wire()
        suggested = _suggested(started.table.state, seat, started.events)
        played = tables.act(started.table, seat=seat, action=first, client_version=3, version=4, now=now)
    return Scene(
        lobby=tables.summary(bot.table, settings),
        started=tables.summary(started.table, settings),
        playing=tables.summary(played.table, settings),
        lobby_update=[e.to_wire() for e in bot.events if e.is_seen_by(1)],
        start_events=[e.to_wire() for e in started.events if e.is_seen_by(0)],
        start_view=tables.view_for(started.table, 0) or {},
        start_view_1=tables.view_for(started.table, 1) or {},
        play_events=[e.to_wire() for e in played.events if e.is_seen_by(1)],
        play_view=tables.view_for(played.table, 1) or {},
        action=first,
        suggested=suggested,
        sat=tables.summary(sat.table, settings),
        sit_events=[e.to_wire() for e in sat.events if e.is_seen_by(0)],
    )


def _suggested(state: Any, seat: int, events: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What a hint answers ``seat`` (the default level's move and reason), as the server asks it."""
    plugin = games.get(GAME)
    history = [e.to_wire() for e in events if e.kind not in tables.TABLE_EVENTS and e.is_seen_by(seat)]
    action, why = choose_why(plugin.bot(plugin.default_level), state.view(seat), history, decision_rng(state, seat))
    return action.to_wire(), why


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
            "host a table of the default game, bots for empty seats",
            {
                "type": "host",
                "id": 2,
                "game": GAME,
                "options": {"preset": games.get_game(GAME).info.presets[0].name},
                "seats": games.get_game(GAME).info.presets[0].default_seats,
                "name": "Ann",
                "bots": "normal",
                "grace_s": 60,
                "turn_limit_s": None,
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
        (
            "client",
            "sit",
            "a seated person moves to the empty seat 2 (lobby only)",
            {"type": "sit", "id": 17, "table": TABLE_ID, "seat": 2},
        ),
        ("client", "start", "host: deal round 1", {"type": "start", "id": 10, "table": TABLE_ID}),
        (
            "client",
            "act",
            "act: the first legal action of the default game's first deal (each game's own are in its folder)",
            {"type": "act", "id": 11, "table": TABLE_ID, "version": 3, "action": scene.action},
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
                limits=Settings().limits(),
                catalog=[p.describe() for p in games.built_in()],
                re=1,
            ),
        ),
        (
            "server",
            "joined_host",
            "the answer to host: seat 0, the seat token, the host token and the shared screen's token",
            m.joined(
                table=TABLE_ID,
                code=CODE,
                link=LINK,
                seat=0,
                token=SEAT_TOKEN,
                host_token=HOST_TOKEN,
                screen_token=seed_screen_token(2024),
                re=2,
            ),
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
            "the host's picture in the lobby (no view yet): the state after `joined` that answers the host's"
            " `resume` (request 2) at version 2 (Bob seated, seat 2 a bot)",
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
            "update_sit",
            "the host sees Bob move from seat 1 to the empty seat 2: the old seat's `seat_changed`"
            " (`moved_to`), then the new one's (`moved_from`)",
            m.update(table=scene.sat, version=2, since=1, events=scene.sit_events, seat=0, is_host=True, view=None),
        ),
        (
            "server",
            "update_start",
            "the answer to start: the deal's commitment, round 1, the host's hand",
            m.update(
                table=scene.started,
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
            m.state(table=scene.started, version=3, seat=0, is_host=True, view=scene.start_view, re=7),
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
            "client",
            "hello_diffs",
            "opens a connection that takes updates in the patch form (section 7.5)",
            {"type": "hello", "id": 1, "protocol": 1, "client": "meja-web/1", "diffs": True},
        ),
        (
            "server",
            "state_seat1",
            "seat 1's whole picture at version 3 (after the start): what `patch_play` applies to",
            m.state(table=scene.started, version=3, seat=1, is_host=False, view=scene.start_view_1, re=5),
        ),
        (
            "server",
            "patch_play",
            "`update_play` in the patch form: applied to `state_seat1`'s table and view, it gives"
            " `update_play`'s",
            m.patch(
                table=TABLE_ID,
                version=4,
                since=3,
                events=scene.play_events,
                seat=1,
                is_host=False,
                ops=patch_of(
                    {"table": scene.started, "view": scene.start_view_1},
                    {"table": scene.playing, "view": scene.play_view},
                ),
            ),
        ),
        (
            "server",
            "error_stale",
            "the table moved on since the version acted on",
            m.error(
                "action/stale_version",
                "the game moved on at version 44; you acted on version 42: act on the latest update",
                re=12,
            ),
        ),
        ("server", "pong", "the answer to ping", m.pong(re=16)),
        *_talk(),
        *_learn(),
        *_archive(),
        *_deal_board(),
    ]
    return out


def _two_seats(seed: int, now: int) -> Any:
    """A lobby of the default game's first preset, two seats, Ann hosting, dealt from ``seed``."""
    preset = games.get_game(GAME).info.presets[0]
    return tables.new_table(
        Settings(public_origin=ORIGIN), table_id=TABLE_ID, code=CODE, name="Ann", game=GAME,
        options={"preset": preset.name}, seats=2, bots=None, deal_code=None, grace_s=None, turn_limit_s=None,
        host_token=token_hash(HOST_TOKEN), seat_token=token_hash(SEAT_TOKEN), conn=("p1", "c1"), seed=seed, now=now,
    )  # fmt: skip


def _archive() -> list[Fixture]:
    """The archive of finished matches (PROTOCOL.md 18): the default game's first preset, two seats,
    match seed 2024, every seat playing its first legal action to the end; the answer's first two steps."""
    now = 1_767_225_600_000
    table = _two_seats(2024, now)
    log: list[tuple[int, bytes]] = []
    with patch.object(tables.secrets, "token_hex", return_value=SALT):
        mutation = tables.start(table, version=1, now=now)
        log.append((1, encode_entry(mutation.events)))
        t = mutation.table
        while t.state.outcome() is None:
            seat = t.state.awaiting()[0]
            mutation = tables.play(t, seat, t.state.legal_actions(seat)[0], version=len(log) + 1, now=now)
            log.append((len(log) + 1, encode_entry(mutation.events)))
            t = mutation.table
    data = archive.build(t, log, now=now + 3_600_000)
    assert data is not None
    rebuilt = archive.rebuild(data)
    key = archive_id(t.seed)
    steps = archive.steps_wire(rebuilt, first=0, count=2, seat=0, open_=False)
    return [
        (
            "client",
            "replay",
            "ask for an archived match's first two steps, from seat 0's view",
            {"type": "replay", "id": 28, "archive": key, "seat": 0, "first": 0, "count": 2},
        ),
        (
            "server",
            "replay",
            "the answer: the match's public record and its deal and first move as seat 0 saw them",
            m.replay(archive=key, match=archive.public(rebuilt), seat=0, open=False, steps=steps, re=28),
        ),
        (
            "server",
            "error_archive_not_found",
            "a replay of an id no finished match has (guessed, malformed, expired, or a match not over)",
            m.error("archive/not_found", "no finished match 'AAAAAAAAAAAAAAAAAAAAAA' in the archive", re=29),
        ),
    ]


def _deal_board() -> list[Fixture]:
    """The deal board (PROTOCOL.md 19): the default game's first preset, two seats (Ann and a bot),
    round seed 2025, each seat playing its first legal action until the round ends; its one play."""
    from meja.server import dealboard

    now = 1_767_225_600_000
    t = _two_seats(2025, now)
    with patch.object(tables.secrets, "token_hex", return_value=SALT):
        mutation = tables.start(t, version=1, now=now)
        version = 1
        while not any(e.kind == "reveal" for e in mutation.events):
            t = mutation.table
            seat = t.state.awaiting()[0]
            version += 1
            mutation = tables.play(t, seat, t.state.legal_actions(seat)[0], version=version, now=now)
    end = next(e for e in mutation.events if e.kind == games.get_game(GAME).info.round_end)
    code = next(e for e in mutation.events if e.kind == "reveal").data["deal_code"]
    entry = dealboard.play(mutation.table, end, code, now_ms=now + 600_000)
    assert entry is not None
    short = dealboard.short_code(code)
    return [
        (
            "client",
            "deal_board",
            "ask for the board of a deal by its short code (typed in lower case, without its hyphen)",
            {"type": "deal_board", "id": 30, "code": short.replace("-", "").lower()},
        ),
        (
            "server",
            "deal_board",
            "the answer: the deal's short and long codes and the one round of it played here",
            m.deal_board(code=short, deal_code=code, game=GAME, plays=dealboard.plays_wire([entry]), re=30),
        ),
        (
            "server",
            "error_deal_not_found",
            "a short code no finished round has here (guessed, expired, or not played yet)",
            m.error("deal/not_found", "no finished round of deal 'ABCDEABCDE' on this server", re=31),
        ),
    ]


def _learn() -> list[Fixture]:
    """The guide (PROTOCOL.md 17): a step of the default game's guide, a wrong card and a right move."""
    from meja.server.learn import learn_answer, learn_step

    shown = learn_step(m.Learn(game=GAME, step=0, id=40))
    legal = shown["view"]["legal"]
    plays = [a for a in legal if "card" in a]
    unplayable = next(c for c in shown["view"]["hand"] if all(a.get("card") != c for a in legal))
    wrong = learn_answer(m.LearnTry(game=GAME, step=0, card=unplayable, id=41))
    right = learn_answer(m.LearnTry(game=GAME, step=0, action=plays[0], id=42))
    return [
        (
            "client",
            "learn",
            "ask for the first step of a game's guide",
            {"type": "learn", "id": 40, "game": GAME, "step": 0},
        ),
        ("server", "learn", "the step: the learner's seat view, a table map, the question's key", shown),
        (
            "client",
            "learn_try",
            "a card of the hand that no legal action plays",
            {"type": "learn_try", "id": 41, "game": GAME, "step": 0, "card": unplayable},
        ),
        ("server", "learn_try_wrong", "the engine's answer: wrong, and the reason's key", wrong),
        (
            "client",
            "learn_try_action",
            "a legal move, as act sends it",
            {"type": "learn_try", "id": 42, "game": GAME, "step": 0, "action": plays[0]},
        ),
        ("server", "learn_try", "right: the reason's key, the view after the move and its events", right),
    ]


def _talk() -> list[Fixture]:
    """Talk at the table (PROTOCOL.md 16): each message in both directions."""
    line = {"id": "a1b2c3d4e5f6", "seat": 1, "name": "Bob", "at": 1_767_225_660_000}
    offer = ["v=0\r\no=- 4611731400430051336 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n", "a=group:BUNDLE 0 1\r\n"]
    candidates = [
        {"candidate": "candidate:842163049 1 udp 1677729535 127.0.0.1 50001 typ host", "mid": "0", "mline": 0},
        {"candidate": "", "mid": "0", "mline": 0},
    ]
    return [
        ("client", "say", "a chat line", {"type": "say", "id": 20, "table": TABLE_ID, "text": "nice one!"}),
        ("client", "react", "a reaction", {"type": "react", "id": 21, "table": TABLE_ID, "reaction": "good_game"}),
        (
            "client",
            "talk_policy",
            "host: reactions only, and spectators read the chat",
            {"type": "talk_policy", "id": 22, "table": TABLE_ID, "chat": "reactions", "spectators": True},
        ),
        ("client", "mute", "host: mute seat 2", {"type": "mute", "id": 23, "table": TABLE_ID, "seat": 2, "muted": True}),
        (
            "client",
            "call_join",
            "join the call, microphone on, camera off",
            {"type": "call", "id": 24, "table": TABLE_ID, "join": True, "mic": True, "cam": False},
        ),
        (
            "client",
            "signal_offer",
            "seat 0 offers a connection to seat 1's call id (the SDP in pieces)",
            {"type": "signal", "table": TABLE_ID, "to": 1, "peer": "9f8e7d6c", "kind": "offer", "sdp": offer},
        ),
        (
            "client",
            "signal_candidates",
            "trickled candidates, the last one empty (the end of candidates)",
            {"type": "signal", "table": TABLE_ID, "to": 1, "peer": "9f8e7d6c", "kind": "candidates",
             "candidates": candidates},
        ),  # fmt: skip
        (
            "server",
            "talk_line",
            "a chat line said by Bob (seat 1)",
            m.talk(table=TABLE_ID, lines=[{**line, "text": "nice one!"}]),
        ),
        (
            "server",
            "talk_history",
            "after the state: what was said before this connection came",
            m.talk(
                table=TABLE_ID,
                lines=[{**line, "text": "hi all"}, {**line, "id": "f6e5d4c3b2a1", "seat": 0, "name": "Ann",
                                                     "reaction": "hello"}],
                history=True,
            ),
        ),  # fmt: skip
        (
            "server",
            "call",
            "the call's roster: Ann on camera and speaking, Bob's camera off",
            m.call(
                table=TABLE_ID,
                peers=[
                    {"seat": 0, "id": "1a2b3c4d", "mic": True, "cam": True, "speaking": True},
                    {"seat": 1, "id": "9f8e7d6c", "mic": True, "cam": False, "speaking": False},
                ],
            ),
        ),
        (
            "server",
            "ice",
            "the answer to call (joining): the call id and TURN credentials for this connection alone",
            m.ice(
                table=TABLE_ID,
                id="1a2b3c4d",
                # the secret "fixture-secret", an hour from 2026-01-01T00:00:00Z
                servers=talk.ice_servers(
                    ["turn:turn.meja.example:3478?transport=udp"], "fixture-secret", "1a2b3c4d", 3600, 1_767_225_600
                ),
                relay=False,
                re=24,
            ),
        ),
        (
            "server",
            "signal_offer",
            "what seat 1 gets of seat 0's offer",
            m.signal(table=TABLE_ID, sender=0, peer="1a2b3c4d", kind="offer", sdp=offer),
        ),
        ("client", "hint", "ask for a suggested move", {"type": "hint", "id": 25, "table": TABLE_ID}),
        (
            "client",
            "host_seatless",
            "host a table without a seat (a shared screen that hosts the room)",
            {"type": "host", "id": 26, "name": "Living room", "game": GAME, "seated": False},
        ),
        (
            "client",
            "host_to",
            "hand the host's rights to the person at seat 1 (nil: take them back)",
            {"type": "host_to", "id": 27, "table": TABLE_ID, "seat": 1},
        ),
        (
            "server",
            "joined_seatless",
            "the answer to a host without a seat: no seat, no seat token; the host and screen tokens",
            m.joined(
                table=TABLE_ID, code=CODE, link=LINK, seat=None, token=None, host_token=HOST_TOKEN,
                screen_token=seed_screen_token(2024), re=26,
            ),
        ),  # fmt: skip
        (
            "server",
            "hint",
            "a suggested move: the first play of the default game's deal, at version 3",
            m.hint(table=TABLE_ID, version=3, action=_scene().action, re=25),
        ),
        (
            "server",
            "hint_why",
            "a suggested move with the bot's reason (`why`): the default level's own answer at version 3",
            m.hint(table=TABLE_ID, version=3, action=_scene().suggested[0], why=_scene().suggested[1], re=25),
        ),
        (
            "server",
            "error_restricted",
            "a chat line during a hand of a game whose rules forbid table talk",
            m.error(
                "talk/restricted",
                "the game's rules allow only these reactions now: hello, one_moment, thanks, your_turn",
                re=20,
            ),
        ),
    ]


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
        "reaction_unknown",
        "a reaction outside the fixed set",
        lambda: encode({"type": "react", "id": 1, "table": TABLE_ID, "reaction": "wink"}),
        {"error": "protocol/bad_message"},
    ),
    (
        "signal_sdp_piece_too_long",
        "an offer whose SDP piece is over 1,000 characters",
        lambda: encode(
            {"type": "signal", "id": 1, "table": TABLE_ID, "to": 1, "peer": "p", "kind": "offer", "sdp": ["v" * 1001]}
        ),
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


def _frames(entries: list[Fixture], folder: Path, about: str) -> tuple[dict[Path, bytes], list[dict[str, Any]]]:
    files: dict[Path, bytes] = {}
    index: list[dict[str, Any]] = []
    for direction, name, description, message in entries:
        path = f"{direction}/{name}.msgpack"
        frame = encode(message)
        files[folder / path] = frame
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
    return files, index


def _index(about: str, frames: list[dict[str, Any]], invalid: list[dict[str, Any]] | None = None) -> bytes:
    doc: dict[str, Any] = {"about": about, "protocol": m.PROTOCOL_VERSION, "frames": frames}
    if invalid is not None:
        doc["invalid"] = invalid
    return (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode()


def game_folders() -> dict[str, Path]:
    """Each game's fixtures folder, for the games that have a fixtures module."""
    out = {}
    for plugin in games.built_in():
        if plugin.fixtures is not None and plugin.protocol is not None:
            out[plugin.name] = plugin.protocol.parent / "fixtures"
    return out


def build() -> dict[Path, bytes]:
    """Every fixture file (absolute path -> bytes), each folder's index.json included."""
    files, index = _frames(fixtures(), FIXTURES, "")
    invalid: list[dict[str, Any]] = []
    for name, description, make, answer in INVALID:
        path = f"invalid/{name}.bin"
        frame = make()
        files[FIXTURES / path] = frame
        invalid.append(
            {"file": path, "direction": "client", "description": description, "hex": frame.hex(), "expect": answer}
        )
    files[FIXTURES / "index.json"] = _index(
        "Golden frames of the Meja wire protocol v1, its game-independent core (client-protocol/PROTOCOL.md). "
        "Generated by client-protocol/tools/make_fixtures.py from meja.protocol; do not edit by hand.",
        index,
        invalid,
    )
    for name, folder in game_folders().items():
        plugin = games.get(name)
        assert plugin.fixtures is not None
        module = importlib.import_module(plugin.fixtures)
        game_files, game_index = _frames(module.frames(TABLE_ID), folder, "")
        files.update(game_files)
        files[folder / "index.json"] = _index(
            f"Golden frames of the {plugin.game.info.title} section of the Meja wire protocol v1 "
            f"({plugin.protocol.relative_to(REPO) if plugin.protocol else ''}). Generated by "
            "client-protocol/tools/make_fixtures.py; do not edit by hand.",
            game_index,
        )
    return files


def _folders() -> list[Path]:
    return [FIXTURES, *game_folders().values()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if a fixture is out of date")
    args = parser.parse_args(argv)
    files = build()
    stale = [p for p, data in files.items() if not p.is_file() or p.read_bytes() != data]
    extra = [p for folder in _folders() if folder.is_dir() for p in folder.rglob("*") if p.is_file() and p not in files]
    if args.check:
        for p in stale + extra:
            print(f"out of date: {p.relative_to(REPO)}")
        return 1 if stale or extra else 0
    for p in extra:
        p.unlink()
    for p, data in files.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    print(f"wrote {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
