"""Issue 12, finding 3: coming back far behind neither shuts the player out nor freezes the table.

Before: a ``resume`` (or ``watch``) whose ``since`` was more versions behind
than the connection's queue holds queued one update per missed version, the
queue overflowed, the server closed with 4004 and delivered nothing, not even
``joined``; and every such retry cleared the seat's away mark, so its grace
period never ended and no bot took over. Here the queue is small
(``outbox_max`` 40) so that "far behind" is a hundred versions.
"""

from __future__ import annotations

from typing import Any

from meja.server import tables
from meja.server.records import HUMAN, SeatRecord
from server_helpers import host, join, play

OUTBOX = 40


async def test_a_resume_far_behind_gets_the_current_view_and_some_history(serve: Any, connect: Any) -> None:
    server = await serve(outbox_max=OUTBOX, grace_s=0)
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=3, options={"preset": "house", "target": 1000})
    table = joined["table"]
    bobs = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "seat", "table": table, "seat": 2, "to": "bot"})
    await ann.ok({"type": "start", "table": table})
    await bob.until(lambda m: m["type"] == "update" and m["view"] is not None)
    since = bob.version
    await bob.close()  # Bob goes; with grace 0 a bot plays for him at once
    behind = 3 * OUTBOX
    await play(ann, table, until=lambda w: w.version >= since + behind, timeout=60)

    back = await connect(server)
    await back.send({"type": "resume", "id": 1, "table": table, "token": bobs["token"], "since": since})
    answered = await back.until(lambda m: m["type"] in ("state", "error"), timeout=10)
    assert answered["type"] == "state", answered
    assert answered["view"]["hand"] is not None and answered["seat"] == 1
    kinds = [m["type"] for m in back.seen if m["type"] != "welcome"]
    assert kinds[0] == "joined", kinds
    updates = [m for m in back.seen if m["type"] == "update"]
    assert 0 < len(updates) <= OUTBOX // 2, len(updates)
    assert updates[0]["since"] > since, "the oldest missed versions are left out (a gap the client can see)"
    assert updates[-1]["version"] == answered["version"]
    pong = await back.ok({"type": "ping"})  # still open
    assert pong["type"] == "pong"


async def test_a_watch_from_zero_on_a_long_table_is_answered(serve: Any, connect: Any) -> None:
    server = await serve(outbox_max=OUTBOX)
    ann = await connect(server)
    joined = await host(ann, seats=2, options={"preset": "house", "target": 1000})
    table = joined["table"]
    await ann.ok({"type": "seat", "table": table, "seat": 1, "to": "bot"})
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=lambda w: w.version >= 3 * OUTBOX, timeout=60)
    watcher = await connect(server)
    await watcher.send({"type": "watch", "id": 1, "table": table, "since": 0})
    state = await watcher.until(lambda m: m["type"] in ("state", "error"), timeout=10)
    assert state["type"] == "state" and state["seat"] is None, state


def test_a_reconnection_that_got_nothing_leaves_the_away_clock_as_it_was() -> None:
    """A resume that delivered nothing must not reset the away clock (the grace period goes on)."""
    seat = SeatRecord(kind=HUMAN, name="Bob", token="t", conn=None, away=1_000, auto=False)
    table: Any = _table_with(seat)
    back = tables.connect(table, seat=1, conn=("p", "c9")).table
    assert back.seats[1].away is None and back.seats[1].conn == ("p", "c9")
    lost = tables.disconnect(back, seat=1, conn=("p", "c9"), now=50_000, delivered=False)
    assert lost is not None
    assert lost.table.seats[1].away == 1_000, "the grace period still counts from when Bob left"
    kept = tables.disconnect(back, seat=1, conn=("p", "c9"), now=50_000, delivered=True)
    assert kept is not None and kept.table.seats[1].away == 50_000, "one that got its state starts a new clock"
    # A bot that was playing for him goes on playing.
    auto = _table_with(SeatRecord(kind=HUMAN, name="Bob", token="t", conn=None, away=1_000, auto=True))
    again = tables.connect(auto, seat=1, conn=("p", "c9")).table
    assert not again.seats[1].auto
    dropped = tables.disconnect(again, seat=1, conn=("p", "c9"), now=60_000, delivered=False)
    assert dropped is not None and dropped.table.seats[1].auto
    assert "auto" in [e.kind for e in dropped.events]
    # Taking a seat over from a connection that held it: nobody was away, nothing to keep.
    held = _table_with(SeatRecord(kind=HUMAN, name="Bob", token="t", conn=("p", "c1"), away=None, was_away=5))
    over = tables.connect(held, seat=1, conn=("p", "c2")).table
    assert over.seats[1].was_away is None


def _table_with(seat: SeatRecord) -> Any:
    from meja.server.records import PLAYING, Table

    return Table(
        id="t" * 32,
        code="K7M2QX",
        game="crazy_eights",
        options={"preset": "house"},
        seats=(SeatRecord(kind=HUMAN, name="Ann", token="a", conn=("p", "c1")), seat),
        host=None,
        host_seat=0,
        status=PLAYING,
        bots="normal",
        grace_s=60,
        turn_limit_s=None,
        seed=1,
        deal_code=None,
        state=None,
        created=0,
    )
