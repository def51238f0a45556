"""A game registered from tests/ alone plays whole matches through two real server processes.

The game is Snap (tests/toy_game): it uses every part of the game contract
(a phase where every seat acts in any order, an event for one seat only, an
out-of-turn action that bots take, an action the game takes by itself after a
delay, teams). The servers load it with ``MEJA_GAMES=toy_game`` and tests/ on
their ``PYTHONPATH``: no file outside tests/ knows it exists.

What the match must show, on a real redis-server, two humans (the Python client,
each on its own process) and two bots:

- picks in the simultaneous phase are never refused as stale when another seat
  picked first (at least one is accepted after an intervening pick);
- a bot snaps out of turn, a human snaps, and a window closes by itself (the
  game's timed action);
- a human's own events (hand, own pick, the card taken) reach that human alone;
- a resume on the other process mid-match picks up where it left;
- the match ends with the winning team in the table map, and the store's log
  replays through the game's rules to exactly the stored state.

Cost: about 10 s (two server starts, a few short matches' worth of timers).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from e2e_harness import ServerProcess, servers
from e2e_helpers import assert_contiguous
from e2e_log import replay_log
from meja_client import Client, ServerError

TESTS = Path(__file__).resolve().parents[1]
ENV = {
    "MEJA_GAMES": "toy_game",
    "PYTHONPATH": str(TESTS),
    "MEJA_BOT_REACT_MIN_MS": "40",
    "MEJA_BOT_REACT_MAX_MS": "150",
}
#: the game's timed close: long enough for a reflex, short enough for a test
WINDOW_MS = 250


class Human:
    """Plays a seat: picks its highest card, takes, is ready; snaps from round 2 on only.

    With the bots in seat 2 (``normal``: always snaps, after its reflex pause) and seat 3
    (``hard``: never snaps), round 1 then has a bot's snap for every take but seat 2's, and a
    window that closes by itself after seat 2's take; from round 2 on the humans snap first.
    """

    def __init__(self, client: Client) -> None:
        self.client = client
        self.late_picks = 0  # picks accepted although another seat picked after the version sent
        self.refused: list[tuple[str, str]] = []  # (action kind, error code)
        self.snaps = 0

    def decide(self, view: dict[str, Any]) -> dict[str, Any] | None:
        legal = view["legal"]
        kinds = [a["kind"] for a in legal]
        if kinds == ["snap"]:
            if view["round"] < 2:
                return None  # let this one go (a bot or the clock takes it)
            self.snaps += 1
            return legal[0]
        if "pick" in kinds:
            return max(legal, key=lambda a: int(a["card"][1:]))
        for kind in ("take", "ready"):
            if kind in kinds:
                return legal[kinds.index(kind)]
        return legal[0]

    async def play(self, until: Any) -> None:
        client = self.client
        decided_at: int | None = None
        while not until(client):
            await client.wait_for(
                lambda c, seen=decided_at: until(c) or (bool(c.view and c.view["legal"]) and c.version != seen)
            )
            if until(client):
                return
            view, version = client.view, client.version
            assert view is not None and version is not None
            decided_at = version
            action = self.decide(view)
            if action is None:
                continue
            try:
                answer = await client.act(action, version=version)
            except ServerError as exc:
                self.refused.append((action["kind"], exc.code))
                continue
            if action["kind"] == "pick" and answer is not None and answer["version"] > version + 1:
                self.late_picks += 1


def over(client: Client) -> bool:
    return client.view is not None and client.view["phase"] == "match_over"


async def test_a_test_only_game_plays_through_two_processes(fresh_redis: str, clients: Any) -> None:
    a = ServerProcess(fresh_redis, name="a", env=ENV)
    b = ServerProcess(fresh_redis, name="b", env=ENV)
    async with servers(a, b) as (a, b):
        hello = await (await clients(a.url)).hello()
        assert "snap" in hello["games"]
        ann = await clients(a.url)
        joined = await ann.host(
            name="Ann", game="snap", options={"preset": "pairs", "target": 8, "window_ms": WINDOW_MS}, seats=4
        )
        bob = await clients(b.url)
        await bob.join(code=joined["code"], name="Bob")
        watcher = await clients(b.url)
        await watcher.watch(code=joined["code"])
        await ann.seat_to(2, "bot", level="normal")
        await ann.seat_to(3, "bot", level="hard")
        table_id = joined["table"]
        assert ann.table is not None and ann.table["teams"] == [[0, 2], [1, 3]]
        await ann.start()
        await bob.wait_for(lambda c: c.view is not None)

        humans = [Human(ann), Human(bob)]

        def round_two(c: Client) -> bool:
            return over(c) or (c.view is not None and c.view["round"] >= 2)

        await asyncio.gather(humans[0].play(round_two), humans[1].play(round_two))
        # Bob's connection is cut; he comes back on the other process with what he missed.
        since = bob.version
        bob.cut()
        bob2 = await clients(a.url)
        await bob2.resume(table=table_id, token=bob.token, since=since)
        assert bob2.seat == 1 and bob2.view is not None and bob2.view["hand"] is not None
        humans[1] = Human(bob2)
        await asyncio.gather(humans[0].play(over), humans[1].play(over))
        await watcher.wait_for(over)

        events = watcher.events
        snaps = [e["seat"] for e in events if e["kind"] == "snap"]
        assert any(s in (2, 3) for s in snaps), "no bot snapped out of turn"
        assert any(s in (0, 1) for s in snaps), "no human snapped"
        assert any(e["kind"] == "close" for e in events), "no window closed by itself (the game's timed action)"
        assert sum(h.late_picks for h in humans) >= 1, "no pick was accepted after another seat's pick"
        # A snap may lose the race to another seat's (stale: the window it saw is gone); a pick never.
        refused = [r for h in humans for r in h.refused]
        assert all(kind == "snap" for kind, _ in refused), refused
        # One seat's own events reach that seat alone.
        for client, seat in ((ann, 0), (bob, 1), (bob2, 1)):
            for e in client.events:
                if e["kind"] in ("hand", "you_picked") or (e["kind"] == "took" and "card" in e):
                    assert e["seat"] == seat, (seat, e)
        private = [
            e for e in watcher.events if e["kind"] in ("hand", "you_picked") or ("card" in e and e["kind"] == "took")
        ]
        assert not private, private
        table = watcher.table
        assert table is not None and table["status"] == "finished"
        outcome = table["outcome"]
        assert outcome["teams"] and max(outcome["team_scores"]) >= 8
        won = outcome["teams"][0]
        assert outcome["winners"] == table["teams"][won]
        for client in (ann, bob2, watcher):
            assert_contiguous(client)
        replay = await replay_log(fresh_redis, table_id)
        assert replay.count_by_seat()[2] > 0 and replay.count_by_seat()[3] > 0, "a bot never acted"
