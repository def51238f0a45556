"""Issue 12, finding 2: a deal chosen by the host is said to be one, to every seat, before the first card.

A host who supplies a deal code may know every hand (a code that dealt seat 0
all four 8s took 24 tries offline). Chosen deals stay allowed, since replaying
a deal together is what codes are for, but every seat is told: the lobby's
table map says ``deal_code_given``, and round 1's commitment, as an event and
in the table map, says ``chosen``; later rounds are the server's again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from meja.games.crazy_eights import dealcode
from server_helpers import host, join, play


async def test_every_seat_is_told_round_1_was_chosen(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    code = dealcode.encode(dealcode.DealSpec("house", 2, 0, 12345))
    joined = await host(ann, deal_code=code, options={"preset": "house", "target": 100})
    await join(bob, code=joined["code"], name="Bob")
    assert bob.table is not None and bob.table["deal_code_given"] is True, "told in the lobby"
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})
    start = await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    commitments = [e for e in start["events"] if e["kind"] == "commitment"]
    assert commitments == [{"kind": "commitment", "round": 1, "hash": commitments[0]["hash"], "chosen": True}]
    assert start["table"]["commitment"]["chosen"] is True
    kinds = [e["kind"] for e in start["events"]]
    assert kinds.index("commitment") < kinds.index("round_start"), "before the first card"

    def second_round(w: Any) -> bool:
        return w.view is not None and (w.view["round"] >= 2 or w.view["phase"] == "match_over")

    await asyncio.gather(play(ann, table, until=second_round), play(bob, table, until=second_round))
    later = [e for m in bob.seen if m["type"] == "update" for e in m["events"] if e["kind"] == "commitment"]
    assert all("chosen" not in e for e in later if e["round"] > 1), "the server deals the later rounds"
