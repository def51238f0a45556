"""A hint's reason and the leak judge (issue 23 point 4, PROTOCOL.md 16.1 ``hint.why``).

The leak judge (fuzz_leaks.check_connection) reads every frame a seat got in a round where it
asked for a hint at each of its turns, from the default game's searching level (whose reason
names the closest other move: a card): nothing in ``why`` is a card the seat may not see, and
``why`` holds only the fields the protocol lists. A reason planted with a card of the other
hand is caught, so the check can fail. (The reason of each game's default level over the
wire: tests/server/test_server_hint_why.py.)
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fuzz_leaks import Leak, check_connection
from meja import games
from meja.server.app import MejaServer
from meja.server.service import TableService as Service
from meja.server.settings import Settings
from meja_client import Client, connect

#: the talk budget out of the way: a hint at every turn
TALKATIVE = {"talk_per_s": 1000.0, "talk_burst": 1000}


@pytest.fixture
async def searching_hints(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[MejaServer]:
    """A server whose hints come from the default game's searching level (its reason names a card:
    the closest other move), with bots of the default level in the empty seats."""
    real = Service.plugin

    def plugin(self: Service, table: Any) -> games.GamePlugin:
        found = real(self, table)
        return dataclasses.replace(found, default_level="hard") if "hard" in found.levels else found

    monkeypatch.setattr(Service, "plugin", plugin)
    settings = Settings(
        host="127.0.0.1", port=0, bot_delay_min_ms=1, bot_delay_max_ms=4, hold_delay_ms=2, ready_delay_ms=2,
        due_poll_s=0.02, rate_per_s=1000.0, rate_burst=1000, private_steps_per_s=100_000.0, bot_workers=0,
        shutdown_timeout_s=3.0, close_timeout_s=1.0, **TALKATIVE,
    )  # fmt: skip
    server = MejaServer(settings)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def deal_of(seed: int) -> str:
    """The deal code of the default game's first round for 2 seats and ``seed`` (so that a failure
    replays with the same cards)."""
    game = games.plugins()[0].game
    code = game.new_match(game.options_from_wire({}), 2, seed).state.deal_code
    assert code is not None, "the default game gives its deals a code"
    return str(code)


async def hinted_round(url: str, seed: int) -> tuple[Client, int]:
    """One round against a bot on the deal of ``seed`` (:func:`deal_of`), a hint asked and played at
    each of the seat's turns; the seat's connection (recording every frame) and the reasons that
    named a move."""
    client = await connect(url, record=True)
    named = 0
    await client.host(name="Ann", seats=2, options={"match_mode": "wins", "rounds": 1}, deal_code=deal_of(seed))
    assert client.table is not None and client.table["deal_code_given"] is True, "the seed's deal is dealt"
    await client.start()
    with contextlib.suppress(TimeoutError):
        while not (client.view and client.view["phase"] in ("round_over", "match_over")):
            await client.wait_for(
                lambda c: bool(c.view and (c.view["legal"] or c.view["phase"] in ("round_over", "match_over"))),
                timeout=20,
            )
            view = client.view
            assert view is not None
            if not view["legal"] or view["phase"] in ("round_over", "match_over"):
                break
            hint = await client.hint()
            named += "alt" in (hint.get("why") or {})
            try:
                await client.act(hint["action"], version=hint["version"])
            except Exception as err:  # the table moved on (a bot's move): look again
                assert "stale" in str(err), err
    await client.ping()
    return client, named


async def test_a_reason_names_no_card_the_seat_may_not_see(searching_hints: MejaServer) -> None:
    url = f"ws://127.0.0.1:{searching_hints.port}/ws"
    named = checked = 0
    assert len({deal_of(seed) for seed in range(3)}) == 3
    for seed in range(3):
        client, n = await hinted_round(url, seed)
        try:
            named += n
            checked += check_connection(client, f"game {seed} seat 0", 0)
        finally:
            await client.close()
    assert named > 0, "no reason named a move: the judge had nothing to judge"
    assert checked > 20, checked


async def test_a_reason_with_another_hands_card_is_caught(
    searching_hints: MejaServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Service.hint

    async def leaky(self: Service, table_id: str, *, seat: int) -> Any:
        version, action, _ = await real(self, table_id, seat=seat)
        current = await self.hub.current(table_id)
        assert current is not None and current[1].state is not None
        other = current[1].state.view(1 - seat).to_wire()["hand"]
        return version, action, {"kind": "search", "deals": 9, "won": 50, "alt": {"kind": "play", "card": other[0]}}

    monkeypatch.setattr(Service, "hint", leaky)
    client, _ = await hinted_round(f"ws://127.0.0.1:{searching_hints.port}/ws", 0)
    try:
        with pytest.raises(Leak, match="was sent"):
            check_connection(client, "planted", 0)
    finally:
        await client.close()
