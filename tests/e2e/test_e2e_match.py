"""Issue 3, "Done when" 1: a whole match to 100 over websockets, two humans and one bot.

Two Python clients play seats 0 and 1 with seeded random policies, seat 2 is
the server's bot, a spectator watches; once on the Redis store and once on the
memory store. What must hold, from the wire alone:

- the match ends for everyone with the same result, a total at or past 100 and
  the lowest total winning (docs/rules/crazy-eights.md 1.6.5-1.6.7);
- the bot played (its plays are in the events) and every round was dealt fairly
  (each ``reveal`` opens its ``commitment``, PROTOCOL.md 7);
- every connection got every table version once, in order.

Cost: about 5-15 s per store with the fast bot pauses of e2e_harness.FAST_ENV.
"""

from __future__ import annotations

import pytest
from e2e_helpers import (
    assert_contiguous,
    assert_fair_deals,
    assert_match_result,
    kinds,
    open_table,
    play_out,
    seat_events,
    seeded,
    start,
)
from meja_client import ServerError


@pytest.mark.parametrize("store", ["redis", "memory"])
async def test_whole_match_two_humans_one_bot(store, request, clients):
    server = request.getfixturevalue(f"{store}_server")
    table = await open_table(clients, server.url, humans=2, bots=1)
    spectator = await clients(server.url)
    await spectator.watch(code=table.code.lower())  # room codes are read in any case
    assert spectator.seat is None and spectator.table["seats"][2]["kind"] == "bot"
    await start(table)

    await play_out(table.humans, seeded(2, base=1))
    await spectator.wait_for(lambda c: c.view is not None and c.view["phase"] == "match_over")

    final = [c.view for c in (*table.humans, spectator)]
    for view in final:
        assert_match_result(view)
        assert view["scores"] == final[0]["scores"] and view["winners"] == final[0]["winners"]
    assert spectator.view["hand"] is None
    assert [v["seat"] for v in final] == [0, 1, None]
    rounds = final[0]["round"]

    # The bot (seat 2) played its seat: plays or draws of its own, and its ready between rounds.
    assert seat_events(spectator, "play", 2), "the bot never played a card"
    assert "match_over" in kinds(spectator.events)
    assert assert_fair_deals(spectator.events) == rounds
    for client in (*table.humans, spectator):
        assert_contiguous(client)
        assert not client.bad_frames
    assert spectator.status == "finished" or spectator.view["phase"] == "match_over"


async def test_rematch_starts_a_new_match_at_the_same_table(memory_server, clients):
    table = await open_table(clients, memory_server.url, humans=2, bots=1, options={"preset": "house", "target": 10})
    await start(table)
    await play_out(table.humans, seeded(2, base=2))
    ann, bob = table.humans
    assert ann.status == "finished"
    with pytest.raises(ServerError) as refused:
        await bob.rematch()
    assert refused.value.code == "auth/not_host"
    answer = await ann.rematch()
    assert answer["table"]["status"] == "playing" and answer["view"]["round"] == 1
    assert answer["view"]["scores"] == [0, 0, 0]
    await bob.wait_for(lambda c: c.status == "playing" and c.view["round"] == 1 and c.view["phase"] == "play")
    assert [e["kind"] for e in ann.events].count("rematch") == 1
    await play_out(table.humans, seeded(2, base=3))
    assert_match_result(ann.view)
