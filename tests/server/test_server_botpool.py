"""Issue 12, finding 7: bots that search think in worker processes (meja.server.botplay).

What a worker decides is what the bot decides in the server process, and a
table of ``hard`` bots plays through the pool. How much it spares the other
tables is a benchmark's to say (``meja bench server --search-tables``), not a
timed assert's.
"""

from __future__ import annotations

from typing import Any

from meja import games
from meja.bots import decision_rng
from meja.server import botplay
from server_helpers import host, play


def test_a_worker_decides_as_the_bot_does_here() -> None:
    plugin = games.get("crazy_eights")
    game = plugin.game
    state = game.new_match(game.options_from_wire({"preset": "house"}), 3, 2024).state
    for _ in range(12):
        seat = state.awaiting()[0]
        bot = plugin.bot("hard")
        here = bot.choose(state.view(seat), [], decision_rng(state, seat))
        there = botplay.decide("crazy_eights", "hard", state.to_data(), seat, [])
        assert there == here.to_wire()
        state = state.apply(seat, here).state


async def test_a_table_of_searching_bots_plays_through_the_pool(serve: Any, connect: Any) -> None:
    # (at the server's own priority: at the default lower one a worker on a machine saturated by
    # other work got too little CPU to finish the round within the wait, 2026-12-07)
    server = await serve(bot_workers=1, bot_nice=0)
    ann = await connect(server)
    joined = await host(ann, seats=3, bots="hard", options={"preset": "house", "target": 30})
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})

    def round_done(w: Any) -> bool:
        return w.view is not None and (w.view["round"] >= 2 or w.view["phase"] in ("round_over", "match_over"))

    await play(ann, table, until=round_done, timeout=240)
    pool = server.service.bot_pool
    assert pool is not None and pool._pool is not None, "the hard bots never went through the pool"


def test_a_worker_thinks_at_a_lower_priority_than_the_server() -> None:
    """``bot_nice``: where the machine has no spare core, people's moves go before a search."""
    import os

    import pytest
    from meja.server.settings import Settings, SettingsError

    Settings(bot_nice=10).check()
    with pytest.raises(SettingsError, match="bot_nice"):
        Settings(bot_nice=20).check()
    here = os.getpriority(os.PRIO_PROCESS, 0)
    pool = botplay.BotPool(1, (), nice=5)
    try:
        there = pool._executor().submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=60)
    finally:
        pool._executor().shutdown()
    assert there == min(here + 5, 19)
