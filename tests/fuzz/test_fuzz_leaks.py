"""Issue 6, the leak fuzzer: seeded games with random players; every frame to every seat and spectator checked.

Each seed picks a preset, a seat count (2 to 8, as the preset allows), how
many seats are people (the rest bots), whether round 1 comes from a deal code,
and the players' random policies. The game runs on a real server (in this
process, embedded store, fast bots) over real websockets; every human and a
spectator record every frame, and fuzz_leaks.check_connection judges each one
by what that connection may see (see its docstring), then check_secrets looks
for deal codes, salts and tokens where they must not be.

Planted leaks prove the checker can fail: events meant for one seat sent to
everyone (``Event.is_seen_by`` always true), and a card of the next seat's
hand slipped into a view's ``drawn`` field; each must be reported.

CI size: 150 games, one round each (about 25 s). ``MEJA_LONG=1``: 5000 games, a fifth
of them whole matches.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from fuzz_leaks import Leak, check_connection, check_secrets
from fuzz_world import LONG
from meja.games.crazy_eights import dealcode
from meja.games.crazy_eights.rules import PRESETS
from meja.server.app import MejaServer
from meja.server.settings import Settings
from meja_client import Client, Player, connect, is_match_over, random_policy

GAMES = 5000 if LONG else 150
BATCH = 6

FAST: dict[str, Any] = {
    "host": "127.0.0.1",
    "port": 0,
    "bot_delay_min_ms": 2,
    "bot_delay_max_ms": 8,
    "hold_delay_ms": 2,
    "ready_delay_ms": 2,
    "due_poll_s": 0.02,
    "rate_per_s": 10_000.0,
    "private_steps_per_s": 100_000.0,
    "rate_burst": 10_000,
    "hosts_per_window": 1_000_000,
    "code_attempts": 1_000_000,
    "shutdown_timeout_s": 3.0,
    "close_timeout_s": 1.0,
}


@pytest.fixture
async def server() -> AsyncIterator[MejaServer]:
    s = MejaServer(Settings(**FAST))
    await s.start()
    try:
        yield s
    finally:
        await s.stop()


def game_of(seed: int) -> dict[str, Any]:
    """The game seed ``seed`` plays: preset, seats, people, options, deal code."""
    rand = random.Random(seed)
    preset = rand.choice(sorted(PRESETS))
    opts = PRESETS[preset]
    seats = rand.randint(opts.min_seats, min(opts.max_seats, 8))
    humans = rand.randint(1, min(seats, 4))
    if LONG and rand.random() < 0.2:
        options = {"preset": preset, "target": rand.choice([30, 60, 100])}
    else:
        options = {"preset": preset, "match_mode": "wins", "rounds": 1}
    code = None
    if rand.random() < 0.5:
        code = dealcode.encode(dealcode.DealSpec(preset, seats, rand.randrange(seats), rand.getrandbits(40)))
    return {
        "preset": preset,
        "seats": seats,
        "humans": humans,
        "options": options,
        "deal_code": code,
        "policy_seed": rand.getrandbits(30),
    }


async def play_game(url: str, seed: int) -> list[tuple[Client, str, int | None]]:
    """Play game ``seed`` to its end; the connections with their names and seats (the spectator's seat None)."""
    g = game_of(seed)
    opened: list[Client] = []
    try:
        host = await connect(url, record=True)
        opened.append(host)
        joined = await host.host(
            name="P0", seats=g["seats"], options=g["options"], deal_code=g["deal_code"], grace_s=600
        )
        humans = [host]
        for n in range(1, g["humans"]):
            client = await connect(url, record=True, diffs=n % 2 == 0)  # both forms of updates are judged
            opened.append(client)
            await client.join(table=joined["table"], name=f"P{n}")
            humans.append(client)
        spectator = await connect(url, record=True, diffs=seed % 2 == 0)
        opened.append(spectator)
        await spectator.watch(table=joined["table"])
        await host.start()
        await talk(humans, random.Random(g["policy_seed"]))
        players = [Player(c, random_policy(g["policy_seed"] + i), turn_timeout=60) for i, c in enumerate(humans)]
        await asyncio.gather(*(p.run() for p in players))
        await spectator.wait_for(is_match_over, timeout=60)
        await spectator.ping()
        for c in humans:
            await c.ping()  # every update queued for it has arrived
        name = f"seed {seed} ({g['preset']}, {g['seats']} seats, {g['humans']} people)"
        return [(c, f"{name} seat {i}", i) for i, c in enumerate(humans)] + [(spectator, f"{name} spectator", None)]
    except BaseException:
        for c in opened:
            with contextlib.suppress(Exception):
                await c.close()
        raise


async def talk(humans: list[Client], rand: random.Random) -> None:
    """Everyone talks (a reaction, maybe a chat line); the first two join the call and signal each
    other: the leak checks then judge every talk frame by its audience (fuzz_leaks.check_talk)."""
    for n, client in enumerate(humans):
        await client.react(rand.choice(("hello", "nice", "wow")))
        if rand.random() < 0.7:
            await client.say(f"hello from P{n}")
    if len(humans) >= 2:
        first, second = humans[0], humans[1]
        ice = await first.call(mic=True)
        other = await second.call(mic=True, cam=rand.random() < 0.5)
        await first.signal(1, other["id"], "offer", sdp=["v=0\r\n"])
        await second.signal(0, ice["id"], "candidates", candidates=[{"candidate": "", "mid": "0", "mline": 0}])
        await second.wait_for(lambda c: any(m["type"] == "signal" for m in c.messages), timeout=10)
        await first.wait_for(lambda c: any(m["type"] == "signal" for m in c.messages), timeout=10)


async def check_game(url: str, seed: int) -> int:
    connections = await play_game(url, seed)
    try:
        checked = sum(check_connection(c, who, seat) for c, who, seat in connections)
        spectator = connections[-1][0]
        g = game_of(seed)
        alone = {0} if g["humans"] == 1 else set()
        rounds = check_secrets(connections, spectator, alone)
        assert rounds >= 1, "no round was revealed"
        return checked
    finally:
        for c, _, _ in connections:
            with contextlib.suppress(Exception):
                await c.close()


async def run_games(url: str, seeds: range, batch: int = BATCH) -> int:
    total = 0
    for start in range(seeds.start, seeds.stop, batch):
        results = await asyncio.gather(*(check_game(url, s) for s in range(start, min(seeds.stop, start + batch))))
        total += sum(results)
    return total


def url_of(server: MejaServer) -> str:
    return f"ws://127.0.0.1:{server.port}/ws"


async def test_no_frame_shows_a_connection_what_it_may_not_see(server: MejaServer) -> None:
    checked = await run_games(url_of(server), range(GAMES))
    print(f"\nleak fuzzer: {GAMES} games, {checked} messages checked")
    assert checked > 20 * GAMES


# --------------------------------------------------------------------------- the checker can fail


def _first_leaking_seed(check: Callable[[str, int], Awaitable[int]]) -> Callable[[str], Awaitable[None]]:
    async def run(url: str) -> None:
        for seed in range(20):  # a few games: the plant shows in the first that can show it
            await check(url, seed)

    return run


async def test_private_events_sent_to_everyone_are_caught(server: MejaServer, monkeypatch) -> None:
    from meja.rules import game

    monkeypatch.setattr(game.Event, "is_seen_by", lambda self, seat: True)
    with pytest.raises(Leak, match=r"private|was sent"):
        await _first_leaking_seed(check_game)(url_of(server))


async def test_a_card_of_another_hand_in_a_view_is_caught(server: MejaServer, monkeypatch) -> None:
    from meja.server import hub  # (the hub builds every frame, live and on resume alike)

    real = hub.view_for

    def leaky(t: Any, seat: int | None) -> dict[str, Any] | None:
        view = real(t, seat)
        if view is None or seat is None or t.state is None:
            return view
        other = t.state.view((seat + 1) % len(t.seats)).to_wire()["hand"]
        return {**view, "drawn": other[0]} if other else view

    monkeypatch.setattr(hub, "view_for", leaky)
    with pytest.raises(Leak, match="was sent"):
        await _first_leaking_seed(check_game)(url_of(server))


async def test_a_card_of_another_hand_in_a_patch_only_is_caught(server: MejaServer, monkeypatch) -> None:
    """The patch form is judged too: another seat's card planted in the patches alone (whole views
    stay clean) is caught once the judge applies them."""
    from meja.server import hub

    real = hub.Hub._patch_frame

    def leaky(t: Any, member: Any, sent: Any, table_map: Any, view: Any, *rest: Any) -> bytes:
        if view is not None and member.seat is not None and t.state is not None:
            other = t.state.view((member.seat + 1) % len(t.seats)).to_wire()["hand"]
            if other and isinstance(view, hub._Parts):  # a view in two parts: planted in the seat's own
                view = hub._Parts(view.public, {**view.own, "drawn": other[0]})
            elif other:
                view = {**view, "drawn": other[0]}
        return real(t, member, sent, table_map, view, *rest)

    monkeypatch.setattr(hub.Hub, "_patch_frame", staticmethod(leaky))
    with pytest.raises(Leak, match="was sent"):
        await _first_leaking_seed(check_game)(url_of(server))


async def test_chat_sent_to_spectators_is_caught(server: MejaServer, monkeypatch) -> None:
    from meja.server import talk

    monkeypatch.setattr(talk, "hears_line", lambda t, seat, line: True)
    with pytest.raises(Leak, match="spectator was sent chat"):
        await _first_leaking_seed(check_game)(url_of(server))


async def test_a_signal_to_every_seat_is_caught(server: MejaServer, monkeypatch) -> None:
    from meja.server.hub import Hub

    real = Hub.note

    def broadcast(self: Hub, note: Any) -> None:
        data = talk_note(note.data)
        if data.get("k") != "signal":
            return real(self, note)
        cached = self.tables.get(note.table_id)
        for member in list(cached.members.values()) if cached is not None else []:
            member.session.send_frame(bytes(data["frame"]))
        return None

    from meja.server.talk import decode_note as talk_note

    monkeypatch.setattr(Hub, "note", broadcast)
    with pytest.raises(Leak, match="signal"):
        await _first_leaking_seed(check_game)(url_of(server))
