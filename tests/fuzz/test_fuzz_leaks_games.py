"""The leak fuzzer over every registered game: each frame to each seat and spectator checked against the truth.

For every game in :mod:`meja.games` (the test-only one too), seeded games on a
real server (in this process, embedded store, fast bots) over real websockets,
with a random number of people (the rest bots) playing random legal actions, a
spectator watching, and every frame recorded. Then the table's log is read from
the store and replayed through the game's rules (its ``act`` events), which
gives, at every table version, where every card is and who may see it
(``State.locations``). Each frame a connection got must:

- carry only the fields the protocol lists: the core's messages, table map and
  seat entries (tests/fuzz/fuzz_leaks.py's allow-lists), and only view fields and
  event kinds the game's own PROTOCOL.md section names (a field nobody wrote
  down is a field nobody decided who may see);
- name only cards its seat (or a spectator) may see in the states of the
  versions it covers, before or after;
- never hold another connection's seat or host token, nor a round's deal code
  or salt before the round's end (fuzz_leaks.check_secrets);
- and a one-seat event (``Event.only``) reaches its seat alone.

A planted leak (every event shown to everyone) must be caught for every game
that has a one-seat event, so the check can fail.

CI size: 8 games per registered game, to the end of round 1; ``MEJA_LONG=1``: 300.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fuzz_leaks import COMMITMENT_KEYS, MESSAGE_KEYS, SEAT_KEYS, TABLE_KEYS, Leak, check_secrets, messages_of
from fuzz_world import LONG
from meja import games
from meja.rules.game import Event
from meja.server.app import MejaServer
from meja.server.records import Table, decode_entry
from meja.server.settings import Settings
from meja.server.tables import TABLE_EVENTS
from meja_client import Client, Player, connect, decode, is_match_over, random_policy
from table_truth import Truth, strings_in

GAMES_PER_GAME = 300 if LONG else 8
BATCH = 4
COMMON_VIEW = frozenset({"game", "seat", "seats", "version", "phase", "round", "legal"})

FAST: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 0,
    "bot_delay_min_ms": 2,
    "bot_delay_max_ms": 8,
    "bot_react_min_ms": 2,
    "bot_react_max_ms": 10,
    "hold_delay_ms": 2,
    "ready_delay_ms": 2,
    "due_poll_s": 0.02,
    "rate_per_s": 10_000.0,
    "private_steps_per_s": 100_000.0,
    "rate_burst": 10_000,
    "hosts_per_window": 1_000_000,
    "code_attempts": 1_000_000,
    "table_changes_burst": 1000,
    "shutdown_timeout_s": 3.0,
    "close_timeout_s": 1.0,
    "bot_workers": 0,
    # The judge replays each table's whole log from its first version: keep all of it (a
    # random game at 10 seats can pass the default 2,000 entries, and a trimmed log cannot
    # be replayed from the deal).
    "log_keep": 1_000_000,
}


@pytest.fixture
async def server() -> AsyncIterator[MejaServer]:
    s = MejaServer(Settings(**FAST))
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


def documented(name: str) -> frozenset[str]:
    """The backticked words of the game's PROTOCOL.md section (its fields and kinds)."""
    plugin = games.get(name)
    if plugin.protocol is None or not plugin.protocol.is_file():
        return frozenset()
    return frozenset(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", plugin.protocol.read_text(encoding="utf-8")))


def game_of(name: str, n: int) -> dict[str, Any]:
    """What game ``n`` of ``name`` plays: preset, options, seats, people."""
    rand = random.Random(f"{name}/{n}")
    info = games.get_game(name).info
    preset = rand.choice(info.presets)
    seats = rand.randint(preset.min_seats, preset.max_seats)
    options: dict[str, Any] = {"preset": preset.name}
    for spec in preset.options:
        if spec.type == "bool" and rand.random() < 0.5:
            options[spec.name] = not spec.default
        elif spec.type == "choice" and rand.random() < 0.3:
            options[spec.name] = rand.choice(spec.choices)
    # short matches: a small target where the game has one
    for spec in preset.options:
        if spec.type == "int" and spec.name in ("target",):
            options[spec.name] = spec.min
    return {"preset": preset.name, "seats": seats, "humans": rand.randint(1, min(seats, 3)), "options": options,
            "policy_seed": rand.getrandbits(30)}


async def play_game(url: str, name: str, n: int) -> tuple[str, list[tuple[Client, str, int | None]]]:
    """Play game ``n`` of ``name`` to its end; the table id and the connections (the spectator's seat None)."""
    g = game_of(name, n)
    opened: list[Client] = []
    try:
        host = await connect(url, record=True)
        opened.append(host)
        joined = await host.host(name="P0", game=name, seats=g["seats"], options=g["options"], grace_s=600)
        humans = [host]
        for k in range(1, g["humans"]):
            client = await connect(url, record=True, diffs=k % 2 == 0)  # both forms of updates are judged
            opened.append(client)
            await client.join(table=joined["table"], name=f"P{k}")
            humans.append(client)
        spectator = await connect(url, record=True, diffs=n % 2 == 0)
        opened.append(spectator)
        await spectator.watch(table=joined["table"])
        await host.start()
        def done(c: Client) -> bool:
            # the match's end, or its first round (random play may never reach a target: Eighty-Three)
            view = c.view
            return is_match_over(c) or (view is not None and view.get("round", 1) > 1)

        players = [Player(c, random_policy(g["policy_seed"] + i), turn_timeout=60, until=done,
                          tolerate=("action/stale_version", "action/illegal", "table/not_playing"))
                   for i, c in enumerate(humans)]
        await asyncio.gather(*(p.run() for p in players))
        await spectator.wait_for(done, timeout=60)
        for c in (*humans, spectator):
            await c.ping()  # every update queued for it has arrived
        label = f"{name} game {n} ({g['preset']}, {g['seats']} seats, {g['humans']} people)"
        connections = [(c, f"{label} seat {i}", i) for i, c in enumerate(humans)]
        return str(joined["table"]), [*connections, (spectator, f"{label} spectator", None)]
    except BaseException:
        for c in opened:
            with contextlib.suppress(Exception):
                await c.close()
        raise


def check_frames(client: Client, who: str, seat: int | None, truth: Truth, allowed: frozenset[str]) -> int:
    """The module docstring's checks for one connection; the number of frames checked."""
    checked = 0
    for message in messages_of(client, who):  # a patch: judged as the whole update it stands for
        kind = message.get("type")
        if kind not in MESSAGE_KEYS:
            raise Leak(f"{who}: a message of unknown type {kind!r}")
        if set(message) - MESSAGE_KEYS[kind]:
            raise Leak(f"{who}: {kind} fields {sorted(set(message) - MESSAGE_KEYS[kind])}")
        table = message.get("table")
        if isinstance(table, dict):
            if set(table) - TABLE_KEYS:
                raise Leak(f"{who}: table map fields {sorted(set(table) - TABLE_KEYS)}")
            for s in table.get("seats", []):
                if set(s) - SEAT_KEYS:
                    raise Leak(f"{who}: seat entry fields {sorted(set(s) - SEAT_KEYS)}")
            if isinstance(table.get("commitment"), dict) and set(table["commitment"]) - COMMITMENT_KEYS:
                raise Leak(f"{who}: commitment fields")
        view = message.get("view")
        if isinstance(view, dict):
            extra = set(view) - COMMON_VIEW - allowed
            if extra:
                raise Leak(f"{who}: view fields {sorted(extra)} that the game's protocol section does not name")
            if seat is None and (view.get("hand") is not None or view.get("legal")):
                raise Leak(f"{who}: a spectator's view with a hand or legal actions")
        if kind in ("state", "update") and message.get("seat") != seat:
            raise Leak(f"{who}: a {kind} for seat {message.get('seat')!r}")
        if kind == "update":
            first, last = message["since"], message["version"]
            for event in message["events"]:
                if event["kind"] not in TABLE_EVENTS and event["kind"] not in allowed:
                    raise Leak(f"{who}: an event of kind {event['kind']!r} its protocol section does not name")
        elif kind == "state":
            first = last = message["version"]
        else:
            first = last = None
        if first is not None:
            named = {s for s in strings_in({k: v for k, v in message.items() if k != "table"}) if s in truth.names}
            leaked = named - truth.seen(seat, first, last)
            if leaked:
                raise Leak(f"{who} was sent {sorted(leaked)} in a {kind} at version {last}")
        checked += 1
    return checked


def check_audiences(table_id: str, connections: list[tuple[Client, str, int | None]], truth: Truth) -> None:
    """An event for some seats only reaches those seats (and never a spectator)."""
    for client, who, seat in connections:
        received = {
            json.dumps(event, sort_keys=True)
            for f in client.frames
            if isinstance(f, bytes)
            for event in (decode(f).get("events") or [])
        }
        for version, events in truth.only.items():
            for e in events:
                if e.only == () or (seat is not None and seat in (e.only or ())):
                    continue
                wire = json.dumps(e.to_wire(), sort_keys=True)
                if wire in received and any(c in truth.names for c in strings_in(e.to_wire())):
                    raise Leak(f"{who}: got seat {e.only}'s {e.kind} of version {version}")


async def check_game(server: MejaServer, name: str, n: int) -> int:
    url = f"ws://127.0.0.1:{server.port}/ws"
    table_id, connections = await play_game(url, name, n)
    try:
        loaded = await server.store.load(table_id)
        assert loaded is not None
        record = Table.from_bytes(loaded[1])
        log = [(v, decode_entry(e)) for v, e in await server.store.log_since(table_id, -1)]
        truth = Truth(record, log)
        allowed = documented(name)
        checked = sum(check_frames(c, who, seat, truth, allowed) for c, who, seat in connections)
        check_audiences(table_id, connections, truth)
        spectator = connections[-1][0]
        alone = {0} if len(connections) == 2 else set()
        check_secrets(connections, spectator, alone)
        return checked
    finally:
        for c, _, _ in connections:
            with contextlib.suppress(Exception):
                await c.close()


async def run(server: MejaServer, name: str, count: int) -> int:
    total = 0
    for start in range(0, count, BATCH):
        done = await asyncio.gather(*(check_game(server, name, n) for n in range(start, min(count, start + BATCH))))
        total += sum(done)
    return total


@pytest.mark.parametrize("name", games.names())
async def test_no_frame_shows_a_connection_what_it_may_not_see(server: MejaServer, name: str) -> None:
    checked = await run(server, name, GAMES_PER_GAME)
    print(f"\nleak fuzzer, {name}: {GAMES_PER_GAME} games, {checked} frames checked")
    assert checked > 10 * GAMES_PER_GAME


@pytest.mark.parametrize("name", games.names())
async def test_a_planted_leak_is_caught(server: MejaServer, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event shown to everyone: a game with a one-seat event must be caught leaking it."""
    monkeypatch.setattr(Event, "is_seen_by", lambda self, seat: self.only != ())
    with pytest.raises(Leak):
        await run(server, name, 2)
