"""Issue 6, fuzzing: hostile frames never crash the server, get their documented answer, change no table.

Every frame goes to a real ``meja serve`` (fuzz_world.World) and is judged by
an oracle written from PROTOCOL.md alone (fuzz_oracle.py): section 2 says which
frames are malformed (close 4000) or too big (1009); section 5 which maps are
``protocol/bad_message``, ``protocol/unknown_type``, or requests to serve
(never ``internal``, never a protocol error, never a close). After each frame
the target table (Ann and Bob, playing, watched) must be unchanged; after each
test the server must still be running with no traceback in its log.

- **bombs and boundaries**: deep nesting, huge declared lengths (str, bin,
  array, map at 2^32-1), extension types, repeated keys, bytes after the map,
  text frames, and every limit of section 2 at and one past its bound;
- **raw bytes** and **random msgpack values** (hypothesis);
- **schema frames**: a valid message of every type with its fields mutated
  (dropped, retyped, out of range, unknown fields added, ``id`` and ``type``
  broken), from a stranger's connection;
- **a seated player's acts** with mutated actions and versions (never a legal
  move: those would rightly change the table), from Ann's own connection.

A server with a planted crash (tests/faults/planted_serve.py
``internal_on_bad``) is caught by the same judge.

CI size: 150-300 examples per hypothesis test, derandomized; about 30 s in
all. ``MEJA_LONG=1``: 3000 examples each, random.
"""

from __future__ import annotations

import string
from typing import Any

import fuzz_oracle as oracle
import msgpack
import pytest
from fuzz_world import FUZZ_ENV, LONG, ServerProcess, World, allowed_for, judge
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from meja.rules import get_game

EXAMPLES = 3000 if LONG else 200
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not LONG,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def check(world: World, frame: bytes | str, *, tally: bool = True) -> None:
    """Send one frame as a stranger; its outcome must be allowed and the target table unchanged.

    ``tally``: count the expected outcomes (``--hypothesis-show-statistics`` shows the mix).
    """
    allowed = allowed_for(frame)
    if tally:
        event(f"expected {'/'.join(sorted(allowed))}")
    obs = world.run(world.observe(frame))
    read = oracle.read_frame(frame)
    rid = oracle.message_id(read.value) if read.value is not None else None
    problem = judge(allowed, obs, rid)
    assert problem is None, f"{problem}\nframe: {frame[:200]!r}"
    changed = world.run(world.unchanged())
    assert changed is None, f"{changed}\nframe: {frame[:200]!r}"


def server_is_sound(server: ServerProcess) -> None:
    assert server.running, f"the server died:\n{server.log()}"
    assert not server.tracebacks(), server.tracebacks()[:2]


# --------------------------------------------------------------------------- the oracle itself


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        (pack({"type": "ping"}), {oracle.SERVED}),
        (pack({"type": "ping", "id": 7}), {oracle.SERVED}),
        (pack({"type": "ping", "x": 1}), {oracle.BAD}),
        (pack({"type": "dance"}), {oracle.UNKNOWN}),
        (pack({"type": 5}), {oracle.BAD}),
        (pack({"type": "hello", "protocol": 2}), {oracle.VERSION}),
        (pack({"type": "act", "table": "t", "version": True, "action": {}}), {oracle.BAD}),
        (pack({"type": "join", "name": "Zed"}), {oracle.BAD}),
        (pack({"type": "join", "name": "Zed", "code": "ABC", "table": "t"}), {oracle.BAD}),
        (pack({"type": "seat", "table": "t", "seat": 16, "to": "bot"}), {oracle.BAD}),
        (pack({"type": "host", "name": "   "}), {oracle.BAD, oracle.REFUSED}),
        (pack({"type": "watch", "code": "ABC", "since": -1}), {oracle.SERVED, oracle.BAD}),
        (pack([1, 2]), {"close4000"}),
        (pack({"a": b"bytes"}), {"close4000"}),
        (pack({1: 2}), {"close4000"}),
        (pack({"type": "ping"}) + b"\x00", {"close4000"}),
        ('{"type": "ping"}', {"close4000"}),
        (b"", {"close4000"}),
        (b"\x81\xa1a" + b"\x91" * 7 + b"\xc0", {oracle.BAD}),  # depth 8: allowed, but "a" is no field
        (b"\x81\xa1a" + b"\x91" * 8 + b"\xc0", {"close4000"}),  # depth 9
        (pack({"type": "ping", "id": "x" * 1024}), {oracle.BAD}),
        (pack({"type": "ping", "id": "x" * 1025}), {"close4000"}),
        (b"\x82\xa4type\xa4ping\xa4type\xa4ping", {"close4000"}),
        (b"\x00" * (32 * 1024 + 1), {"close1009"}),
    ],
)
def test_the_oracle_reads_the_document(frame: bytes | str, expected: set[str]) -> None:
    assert allowed_for(frame) == frozenset(expected)


# --------------------------------------------------------------------------- bombs and boundaries


def _deep(n: int, opener: bytes) -> bytes:
    return b"\x81\xa1a" + opener * n + b"\xc0"


def _map_entries(n: int) -> bytes:
    head = bytes([0x80 | n]) if n < 16 else b"\xde" + n.to_bytes(2, "big")
    return head + b"".join(pack(f"k{i}") + b"\xc0" for i in range(n))


def _sized(total: int) -> bytes:
    """A well-formed map of exactly ``total`` bytes (strings within their limit)."""
    for last in range(1025):
        frame = pack({"type": "ping", "a": ["x" * 1024] * 31 + ["y" * last]})
        if len(frame) == total:
            return frame
    raise AssertionError(f"no frame of {total} bytes")


BOMBS: list[tuple[str, bytes | str]] = [
    ("array nesting 30000 deep", _deep(30000, b"\x91")),
    ("map nesting 20000 deep", b"\x81\xa1a" * 20000 + b"\xc0"),
    ("str32 of 2^32-1 bytes announced", b"\x81\xa4type\xdb\xff\xff\xff\xff" + b"x" * 16),
    ("bin32 of 2^32-1 bytes announced", b"\x81\xa1a\xc6\xff\xff\xff\xff" + b"x" * 16),
    ("array32 of 2^32-1 items announced", b"\x81\xa1a\xdd\xff\xff\xff\xff" + b"\xc0" * 16),
    ("map32 of 2^32-1 entries announced", b"\xdf\xff\xff\xff\xff" + b"\xa1a\xc0" * 16),
    ("top-level array32 announced", b"\xdd\xff\xff\xff\xff"),
    ("ext32 of 2^32-1 bytes", b"\x81\xa1a\xc9\xff\xff\xff\xff\x01"),
    ("timestamp extension", b"\x81\xa1a\xd6\xff\x00\x00\x00\x01"),
    ("never-used byte 0xc1", b"\x81\xa1a\xc1"),
    ("truncated float64", b"\x81\xa1a\xcb\x00\x00"),
    ("invalid UTF-8 key", b"\x81\xa2\xff\xfe\xc0"),
    ("surrogate in UTF-8", b"\x81\xa4type\xa3\xed\xa0\x80"),
    ("array of 257", b"\x81\xa1a\xdc\x01\x01" + b"\xc0" * 257),
    ("array of 256", b"\x82\xa4type\xa4ping\xa1a\xdc\x01\x00" + b"\xc0" * 256),
    ("map of 65", _map_entries(65)),
    ("map of 64", _map_entries(64)),
    ("string of 1025 bytes", pack({"type": "ping", "id": "é" * 512 + "x"})),
    ("frame of 32 KiB exactly", _sized(32 * 1024)),
    ("frame one byte over 32 KiB", _sized(32 * 1024 + 1)),
    ("text frame", '{"type": "act"}'),
    ("empty binary frame", b""),
    ("two maps in one frame", pack({"type": "ping"}) * 2),
]


@pytest.mark.parametrize(("name", "frame"), BOMBS, ids=[b[0] for b in BOMBS])
def test_bombs_and_boundaries(world: World, fuzz_server: ServerProcess, name: str, frame: bytes | str) -> None:
    check(world, frame, tally=False)
    server_is_sound(fuzz_server)


# --------------------------------------------------------------------------- random bytes and values

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=True)
    | st.text(max_size=30)
    | st.binary(max_size=10)
)
values = st.recursive(
    scalars,
    lambda kids: st.lists(kids, max_size=6)
    | st.dictionaries(st.text(max_size=8) | st.integers(0, 3), kids, max_size=6),
    max_leaves=25,
)


@FUZZ
@given(data=st.binary(max_size=200))
def test_random_bytes(world: World, fuzz_server: ServerProcess, data: bytes) -> None:
    check(world, data)


@FUZZ
@given(value=values)
def test_random_msgpack_values(world: World, fuzz_server: ServerProcess, value: Any) -> None:
    check(world, pack(value))


# --------------------------------------------------------------------------- schema frames


def field_values(world: World) -> dict[str, st.SearchStrategy[Any]]:
    """Plausible values of each field: mostly valid, with the world's real ids and codes."""
    text = st.text(alphabet=string.ascii_letters + string.digits + " -_é", min_size=0, max_size=30)
    tables = st.sampled_from([world.target_id, world.other_id, "0" * 32]) | text
    codes = st.sampled_from([world.target_code, world.target_code.lower(), "ZZZZZZ"]) | text
    actions = st.sampled_from([{"kind": "draw"}, {"kind": "pass"}, {"kind": "ready"}, {"kind": "play", "card": "7H"},
                               {"kind": "play", "card": "8S", "suit": "H"}, {"kind": "suit", "suit": "D"}]) | \
        st.dictionaries(st.sampled_from(["kind", "card", "suit", "x"]), scalars, max_size=4)
    return {
        "protocol": st.sampled_from([1, 1, 1, 0, 2]),
        "client": text,
        "name": st.text(min_size=1, max_size=24),
        "game": st.sampled_from(["crazy_eights", "poker"]) | text,
        "options": st.none() | st.sampled_from([{"preset": "house"}, {"preset": "party", "target": 50},
                                                {"preset": "nope"}, {"target": 5}]),
        "seats": st.integers(-2, 20),
        "bots": st.sampled_from(["normal", "casual", "nope"]),
        "deal_code": text,
        "grace_s": st.integers(-5, 5000),
        "turn_limit_s": st.none() | st.integers(-5, 700),
        "code": codes,
        "table": tables,
        "seat": st.integers(-1, 17),
        "since": st.integers(-3, 50),
        "token": text,
        "host_token": text,
        "to": st.sampled_from(["bot", "empty", "human"]),
        "level": st.sampled_from(["normal", "nope"]),
        "version": st.integers(-3, 60),
        "action": actions,
    }


@st.composite
def schema_frames(draw: st.DrawFn, world: World) -> bytes:
    kind = draw(st.sampled_from(sorted(oracle.SCHEMA)))
    plausible = field_values(world)
    message: dict[str, Any] = {"type": kind}
    if draw(st.booleans()):
        message["id"] = draw(st.integers(-5, 10**6) | st.text(max_size=10))
    for name, spec in oracle.SCHEMA[kind].items():
        if spec.required or draw(st.booleans()):
            message[name] = draw(plausible[name])
    for _ in range(draw(st.integers(0, 3))):
        mutation = draw(st.sampled_from(["drop", "retype", "extra", "id", "type", "long"]))
        names = [k for k in message if k != "type"]
        if mutation == "drop" and names:
            del message[draw(st.sampled_from(names))]
        elif mutation == "retype" and names:
            message[draw(st.sampled_from(names))] = draw(scalars.filter(lambda v: not isinstance(v, bytes)))
        elif mutation == "extra":
            message[draw(st.text(min_size=1, max_size=8))] = draw(st.integers(-(2**63), 2**63) | st.text(max_size=5))
        elif mutation == "id":
            message["id"] = draw(st.booleans() | st.floats() | st.integers(2**53 - 2, 2**60) | st.text(max_size=70))
        elif mutation == "type":
            message["type"] = draw(st.text(max_size=8) | st.integers(-(2**63), 2**63) | st.none())
        elif mutation == "long" and names:
            message[draw(st.sampled_from(names))] = draw(st.text(min_size=25, max_size=80))
    return pack(message)


@FUZZ
@given(data=st.data())
def test_schema_frames_from_a_stranger(world: World, fuzz_server: ServerProcess, data: st.DataObject) -> None:
    check(world, data.draw(schema_frames(world)))


def test_the_server_took_it_all(fuzz_server: ServerProcess) -> None:
    server_is_sound(fuzz_server)


# --------------------------------------------------------------------------- a seated player's acts


def legal_moves(view: dict[str, Any]) -> set[Any]:
    game = get_game("crazy_eights")
    return {game.decode_action(a) for a in view["legal"]}


def is_legal(action: Any, view: dict[str, Any]) -> bool:
    try:
        return get_game("crazy_eights").decode_action(action) in legal_moves(view)
    except Exception:
        return False


def test_mutated_acts_from_the_seated_player(world: World, fuzz_server: ServerProcess) -> None:
    ann = world.ann
    cards = [f"{r}{s}" for r in ("A", "2", "7", "8", "10", "Q") for s in "SHDC"] + ["7h", "ten of hearts", "8H.2", ""]
    actions = st.fixed_dictionaries(
        {"kind": st.sampled_from(["play", "draw", "pass", "suit", "ready", "fold", "PLAY", ""])},
        optional={
            "card": st.sampled_from(cards) | st.integers(-(2**63), 2**63) | st.none(),
            "suit": st.sampled_from(["S", "H", "D", "C", "X", "hearts", ""]) | st.integers(-5, 5),
            "extra": st.integers(-(2**63), 2**63),
        },
    ) | st.dictionaries(st.text(max_size=6), scalars.filter(lambda v: not isinstance(v, bytes)), max_size=5)

    @FUZZ
    @given(action=actions, version=st.sampled_from(["now", "stale", "ahead", "huge", "negative"]),
           rid=st.integers(1, 10**6))
    def run(action: dict[str, Any], version: str, rid: int) -> None:
        view = ann.view
        assert view is not None
        if is_legal(action, view):
            return  # a legal move rightly changes the table: not this test's business
        now = ann.version
        assert now is not None
        v = {"now": now, "stale": now - 1, "ahead": now + 5, "huge": 2**60, "negative": -1}[version]
        message = {"type": "act", "id": rid, "table": world.target_id, "version": v, "action": action}
        frame = pack(message)
        allowed = allowed_for(frame)
        if oracle.SERVED in allowed:
            allowed = allowed | {oracle.REFUSED}  # an act that is not a legal move must be refused
            allowed = allowed - {oracle.SERVED} | ({oracle.BAD} if version == "ahead" else set())
        obs = world.run(world.observe(frame, client=ann))
        problem = judge(allowed, obs, rid)
        assert problem is None, f"{problem}\nmessage: {message}"
        assert not [m for m in obs.replies if m.get("type") == "update"], "a refused act produced an update"
        changed = world.run(world.unchanged())
        assert changed is None, f"{changed}\nmessage: {message}"

    run()
    server_is_sound(fuzz_server)


# --------------------------------------------------------------------------- the judge can fail


def test_a_planted_crash_is_caught() -> None:
    planted = ServerProcess("memory", name="planted-fuzz", env=FUZZ_ENV, plant="internal_on_bad")
    planted.start()
    world = World.open(planted)
    try:
        frame = pack({"type": "act", "id": 5, "table": world.target_id, "version": world.ann.version,
                      "action": {"kind": "draw", "x": 1}})
        allowed = allowed_for(frame) - {oracle.SERVED} | {oracle.REFUSED}
        obs = world.run(world.observe(frame, client=world.ann))
        problem = judge(allowed, obs, 5)
        assert problem is not None and "internal" in problem, problem
    finally:
        world.close()
        planted.close()
