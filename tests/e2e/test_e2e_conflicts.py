"""Issue 3, "Done when" 4: two conflicting actions for one seat, at the same moment, through two processes.

Ann's seat token is presented on a second connection, on the other process
(``resume``), and at once both connections send a different action for her seat
at the same table version. Whatever the interleaving (the old connection may
not yet know it was replaced; the two processes commit with compare-and-set on
one Redis), exactly one applies: exactly one answer is the ``update`` that
applied it, the other is refused (an error, or the 4001 close of the replaced
connection), and the store's log holds exactly one action of that seat after
that version. Repeated a few times, alternating which process holds the seat.

Cost: about 3-6 s.
"""

from __future__ import annotations

import asyncio

from e2e_harness import ServerProcess, servers
from e2e_helpers import contradicted_replies, open_table, play_out, start
from e2e_log import replay_log
from meja_client import ClientError, Player, first_legal

TRIALS = 6


def anns_turn(client) -> bool:
    view = client.view
    return view is not None and view["phase"] == "play" and view["turn"] == 0


async def test_conflicting_actions_for_one_seat_exactly_one_applies(fresh_redis, clients):
    async with servers(ServerProcess(fresh_redis, name="a"), ServerProcess(fresh_redis, name="b")) as (a, b):
        table = await open_table(clients, a.url, humans=2, bots=0, grace_s=600)
        await start(table)
        holder, bob = table.humans
        urls = [b.url, a.url]
        applied_total = 0
        for trial in range(TRIALS):
            if not anns_turn(holder):
                # Bob plays (and both say ready after a round) until it is seat 0's turn again.
                await asyncio.gather(
                    Player(bob, first_legal, until=anns_turn).run(),
                    Player(holder, first_legal, until=anns_turn).run(),
                )
            taker = await clients(urls[trial % 2])
            await taker.resume(table=table.id, token=holder.token)
            version = taker.version
            legal = taker.view["legal"]
            mine, theirs = legal[0], legal[-1]  # e.g. a play and a draw: they conflict
            results = await asyncio.gather(
                holder.act(mine, version=version),
                taker.act(theirs, version=version),
                return_exceptions=True,
            )
            applied = [r for r in results if not isinstance(r, BaseException)]
            refused = [r for r in results if isinstance(r, BaseException)]
            assert len(applied) == 1, f"trial {trial}: {results!r}"
            assert all(isinstance(r, ClientError) for r in refused), refused
            applied_total += 1

            replay = await replay_log(fresh_redis, table.id)
            after = [(v, s, m) for v, s, m in replay.actions if v > version and s == 0]
            assert len(after) == 1, f"trial {trial}: seat 0 acted {len(after)} times after {version}"
            assert after[0][0] == version + 1
            await holder.wait_closed()
            assert holder.close_code == 4001
            holder = taker
        assert applied_total == TRIALS


async def test_each_request_is_answered_once_accepted_or_refused(fresh_redis, clients):
    """PROTOCOL.md 8: the ``update`` carrying a request's ``re`` is the change *that request* made.

    Between rounds every seat says ``ready`` at the same version, so the commits
    race: one applies, the others are refused as stale. A refused request must get
    only its ``error``, never also another change's ``update`` with its ``re``. The
    seats are on two processes, so the winning commit reaches the losers' process
    (through Redis) while their own commits are in flight.
    """
    async with servers(ServerProcess(fresh_redis, name="a"), ServerProcess(fresh_redis, name="b")) as (a, b):
        # Six rounds counted by wins (2.3.5): five waits for three simultaneous readies.
        table = await open_table(clients, [a.url, b.url], humans=3, bots=0,
                                 options={"preset": "house", "match_mode": "wins", "rounds": 6})
        await start(table)
        await play_out(table.humans)
        readies = sum(1 for e in table.host.events if e["kind"] == "ready")
        assert readies >= 15
        for client in table.humans:
            bad = contradicted_replies(client)
            assert not bad, (
                f"seat {client.seat}: request ids {sorted(bad)} got an update and an error: "
                + repr([{k: m.get(k) for k in ('type', 'version', 're', 'code')} for m in client.messages
                        if m.get('re') in bad])
            )
