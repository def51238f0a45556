"""Client message parsing (meja.protocol.messages): strict fields, types, limits; server builders."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from meja.protocol import errors, messages
from meja.protocol.messages import (
    CLIENT_FIELDS,
    CLIENT_MESSAGES,
    SERVER_FIELDS,
    Act,
    Host,
    Join,
    Watch,
    parse_client,
)


def test_every_message_class_matches_its_field_list() -> None:
    assert set(CLIENT_FIELDS) == set(CLIENT_MESSAGES)
    for kind, cls in CLIENT_MESSAGES.items():
        names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        assert names == {f.name for f in CLIENT_FIELDS[kind]} | {"id"}, kind
        assert kind == cls.TYPE


#: A table id as the server makes them (32 lowercase hex characters).
T = "4f2a9c1e7b3d4e5fa0b1c2d3e4f50617"


def test_parse_a_valid_message_of_each_type() -> None:
    samples: dict[str, dict[str, Any]] = {
        "hello": {"protocol": 1, "client": "x"},
        "host": {"name": "Ann", "seats": 3, "options": {"preset": "house"}, "turn_limit_s": None},
        "join": {"code": "abc123", "name": "Bob"},
        "watch": {"table": T, "since": 4},
        "resume": {"table": T, "token": "tok", "since": 0, "host_token": "h"},
        "seat": {"table": T, "seat": 2, "to": "bot", "level": "normal"},
        "sit": {"table": T, "seat": 3},
        "start": {"table": T},
        "act": {"table": T, "version": 5, "action": {"kind": "draw"}},
        "rematch": {"table": T},
        "leave": {"table": T},
        "ping": {},
        "say": {"table": T, "text": "nice one"},
        "react": {"table": T, "reaction": "good_game"},
        "talk_policy": {"table": T, "chat": "reactions", "spectators": True},
        "mute": {"table": T, "seat": 2, "muted": True},
        "call": {"table": T, "join": True, "mic": True, "cam": False},
        "signal": {"table": T, "to": 1, "peer": "a1b2", "kind": "offer", "sdp": ["v=0\r\n"]},
        "hint": {"table": T},
        "host_to": {"table": T, "seat": None},
        "learn": {"game": "g", "step": 2},
        "learn_try": {"game": "g", "step": 0, "card": "KC"},
        "replay": {"archive": "q3VmSk1ELqPXSdDsHIvG7w", "seat": 1, "open": False, "first": 0, "count": 20},
        "deal_board": {"code": "rxs43x2ge8"},
    }
    assert set(samples) == set(CLIENT_FIELDS)
    for kind, fields in samples.items():
        msg = parse_client({"type": kind, "id": "r1", **fields})
        assert kind == msg.TYPE and msg.id == "r1"
        for name, value in fields.items():
            assert getattr(msg, name) == value


def test_defaults() -> None:
    host = parse_client({"type": "host", "name": "Ann"})
    assert isinstance(host, Host)
    # No game named: the server's default (welcome.games[0]); the protocol core names no game.
    assert (host.game, host.seats, host.options, host.turn_limit_s, host.id) == (None, None, None, None, None)


@pytest.mark.parametrize(
    ("raw", "error", "match"),
    [
        ({"id": 1}, errors.BadMessage, "needs a string 'type'"),
        ({"type": 7}, errors.BadMessage, "needs a string 'type'"),
        ({"type": "dance"}, errors.UnknownType, "unknown message type 'dance'"),
        ({"type": "ping", "extra": True}, errors.BadMessage, r"unknown field\(s\) \['extra'\]"),
        ({"type": "act", "table": T, "version": "7", "action": {}}, errors.BadMessage, "'version' must be int"),
        ({"type": "act", "table": T, "version": True, "action": {}}, errors.BadMessage, "'version' must be int"),
        ({"type": "act", "table": T, "version": 1.0, "action": {}}, errors.BadMessage, "'version' must be int"),
        ({"type": "act", "table": T, "version": -1, "action": {}}, errors.BadMessage, "at least 0"),
        ({"type": "act", "table": T, "version": 1}, errors.BadMessage, "needs field 'action'"),
        ({"type": "act", "table": T, "version": 1, "action": "draw"}, errors.BadMessage, "'action' must be map"),
        ({"type": "act", "table": T, "version": 1, "action": None}, errors.BadMessage, "may not be nil"),
        (
            {"type": "act", "table": T, "version": 1, "action": {str(i): i for i in range(17)}},
            errors.BadMessage,
            "more than 16 entries",
        ),
        ({"type": "join", "code": "K7M2QX", "name": "x" * 25}, errors.BadMessage, "longer than 24"),
        ({"type": "join", "code": "K7M2QX", "name": ""}, errors.BadMessage, "at least 1"),
        ({"type": "join", "name": "Bob"}, errors.BadMessage, "exactly one of 'code' and 'table'"),
        ({"type": "join", "code": "a", "table": T, "name": "Bob"}, errors.BadMessage, "exactly one"),
        ({"type": "watch"}, errors.BadMessage, "exactly one"),
        ({"type": "seat", "table": T, "seat": 1, "to": "human"}, errors.BadMessage, "must be one of"),
        ({"type": "seat", "table": T, "seat": 16, "to": "bot"}, errors.BadMessage, "at most 15"),
        ({"type": "hello"}, errors.BadMessage, "needs field 'protocol'"),
        ({"type": "ping", "id": 1.5}, errors.BadMessage, "'id' must be int or str"),
        ({"type": "ping", "id": True}, errors.BadMessage, "'id' must be int or str"),
        ({"type": "ping", "id": "x" * 65}, errors.BadMessage, "'id' is longer than 64"),
        ({"type": "ping", "id": 2**60}, errors.BadMessage, "'id' is out of range"),
        ({"type": "resume", "table": T, "token": "x" * 65}, errors.BadMessage, "longer than 64"),
        ({"type": "hello", "protocol": 2**31}, errors.BadMessage, "at most 2147483647"),
        # A table id is 32 lowercase hex characters: braces (a Redis hash tag), case, length.
        ({"type": "start", "table": "{" + T[1:]}, errors.BadMessage, "32 lowercase hex characters"),
        ({"type": "watch", "table": T.upper()}, errors.BadMessage, "32 lowercase hex characters"),
        ({"type": "leave", "table": T[:-1]}, errors.BadMessage, "32 lowercase hex characters"),
        ({"type": "join", "table": T + "0", "name": "Bob"}, errors.BadMessage, "32 lowercase hex characters"),
        ({"type": "act", "table": "t", "version": 0, "action": {}}, errors.BadMessage, "32 lowercase hex characters"),
    ],
)
def test_bad_messages(raw: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match) as refused:
        parse_client(raw)
    assert refused.value.code in ("protocol/bad_message", "protocol/unknown_type")  # type: ignore[attr-defined]


def test_message_id_is_echoed_only_when_valid() -> None:
    assert messages.message_id({"type": "x", "id": 7}) == 7
    assert messages.message_id({"type": "x", "id": "a"}) == "a"
    assert messages.message_id({"type": "x", "id": [1]}) is None
    assert messages.message_id({"type": "x"}) is None


def test_join_and_watch_by_code_or_table() -> None:
    assert parse_client({"type": "join", "code": "k7m2qx", "name": "B"}) == Join(name="B", code="k7m2qx")
    assert parse_client({"type": "watch", "table": T}) == Watch(table=T)
    act = parse_client({"type": "act", "table": T, "version": 0, "action": {"kind": "draw"}})
    assert act == Act(table=T, version=0, action={"kind": "draw"})


def _conforms(message: dict[str, Any]) -> None:
    fields = {f.name: f for f in SERVER_FIELDS[message["type"]]}
    assert set(message) - {"type"} <= set(fields), message
    for name, field in fields.items():
        if name in message:
            field.check(message[name])
        else:
            assert not field.required, (message["type"], name)


def test_server_builders_conform_to_their_field_lists() -> None:
    table = {"id": "t"}
    built = [
        messages.welcome(server="meja/x", limits={"a": 1}, catalog=[{"name": "g"}], re=1),
        messages.joined(table="t", code="K7M2QX", link="l", seat=0, token="tok", host_token="h", re="r"),
        messages.joined(table="t", code="K7M2QX", link="l", seat=1, token="tok"),
        messages.state(table=table, version=3, seat=None, is_host=False, view=None),
        messages.update(table=table, version=4, since=3, events=[{"kind": "x"}], seat=0, is_host=True, view={}),
        messages.patch(table="t", version=5, since=4, events=[], seat=0, is_host=False, ops=[["d", ["x"]]], re=7),
        messages.error("action/illegal", "no", re=5),
        messages.pong(),
        messages.talk(table="t", lines=[{"id": "a", "seat": 0, "name": "Ann", "at": 1, "text": "hi"}], history=True),
        messages.call(table="t", peers=[{"seat": 1, "id": "c1", "mic": True, "cam": False, "speaking": False}], re=2),
        messages.ice(table="t", id="c1", servers=[{"urls": ["turn:127.0.0.1:3478"]}], relay=False),
        messages.signal(table="t", sender=1, peer="c1", kind="answer", sdp=["v=0"]),
        messages.hint(table="t", version=7, action={"kind": "draw"}, re=3),
        messages.learn(game="g", step=0, steps=5, seat=0, table={"game": "g"}, view={"legal": []}, ask="learn.a.ask"),
        messages.learn_try(game="g", step=0, right=False, why="learn.why.x", view=None, re=6),
        messages.replay(archive="a", match={"steps": 1}, seat=None, open=False, steps=[{"n": 0}], re=4),
        messages.deal_board(code="RXS43-X2GE8", deal_code="X", game="g", plays=[{"at": 1, "seats": []}], re=8),
    ]
    assert {m["type"] for m in built} == set(SERVER_FIELDS)
    for message in built:
        _conforms(message)
    assert "re" not in messages.pong() and messages.pong(9)["re"] == 9
    assert "host_token" not in built[2]


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "offer"},  # no sdp
        {"kind": "offer", "sdp": []},
        {"kind": "offer", "sdp": ["x" * 1001]},
        {"kind": "offer", "sdp": [3]},
        {"kind": "answer", "sdp": ["v"], "candidates": [{"candidate": ""}]},
        {"kind": "candidates"},
        {"kind": "candidates", "candidates": []},
        {"kind": "candidates", "candidates": [{"candidate": "c"}] * 33},
        {"kind": "candidates", "candidates": [{"mid": "0"}]},
        {"kind": "candidates", "candidates": [{"candidate": "c", "extra": 1}]},
        {"kind": "candidates", "candidates": [{"candidate": "c", "mline": True}]},
        {"kind": "candidates", "candidates": [{"candidate": "c", "mline": 64}]},
        {"kind": "candidates", "candidates": ["c"]},
        {"kind": "bye"},
    ],
)
def test_a_signal_carries_exactly_what_its_kind_does(fields: dict[str, Any]) -> None:
    with pytest.raises(errors.BadMessage):
        parse_client({"type": "signal", "table": T, "to": 1, "peer": "p", **fields})


def test_talk_fields_are_checked() -> None:
    for bad in (
        {"type": "react", "table": T, "reaction": "wink"},  # not one of the fixed set
        {"type": "say", "table": T, "text": ""},
        {"type": "say", "table": T, "text": "x" * (messages.MAX_CHAT_CHARS + 1)},
        {"type": "talk_policy", "table": T, "chat": "loud"},
        {"type": "host", "name": "Ann", "talk": {"chat": "on", "volume": 11}},
        {"type": "host", "name": "Ann", "talk": {"spectators": "yes"}},
    ):
        with pytest.raises(errors.BadMessage):
            parse_client(bad)
    host = parse_client({"type": "host", "name": "Ann", "talk": {"chat": "reactions", "relay": True}})
    assert isinstance(host, Host) and host.talk == {"chat": "reactions", "relay": True}
    assert set(messages.NEUTRAL_REACTIONS) < set(messages.REACTIONS)
