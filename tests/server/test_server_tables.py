"""The pure table transitions and timer plan (meja.server.tables), without a network or a loop."""

from __future__ import annotations

import json
from random import Random
from typing import Any

import pytest
from meja.protocol.errors import StaleVersion
from meja.rules import get_game
from meja.server import tables as t
from meja.server.records import BOT, Table, decode_entry, encode_entry
from meja.server.rooms import token_hash
from meja.server.settings import Settings

SETTINGS = Settings(public_origin="https://meja.test")
CONN = ("proc1", "c1")
NOW = 1_000_000


def lobby(seats: int = 3, **fields: Any) -> Table:
    args: dict[str, Any] = {
        "table_id": "tid",
        "code": "K7M2QX",
        "name": "Ann",
        "game": "crazy_eights",
        "options": None,
        "seats": seats,
        "bots": None,
        "deal_code": None,
        "grace_s": None,
        "turn_limit_s": None,
        "host_token": token_hash("host-secret"),
        "seat_token": token_hash("seat-secret"),
        "conn": CONN,
        "seed": 123456789,
        "now": NOW,
    }
    args.update(fields)
    return t.new_table(SETTINGS, **args)


def started(**fields: Any) -> t.Mutation:
    return t.start(lobby(**fields), version=1, now=NOW)


def test_record_round_trip() -> None:
    table = started().table
    again = Table.from_bytes(table.to_bytes())
    assert again.to_bytes() == table.to_bytes()
    assert again.state.digest() == table.state.digest()
    events = started().events
    assert decode_entry(encode_entry(events)) == events


def test_start_fills_bots_and_commits_to_the_deal() -> None:
    mutation = started()
    kinds = [e.kind for e in mutation.events]
    assert kinds[:5] == ["seat_changed", "seat_changed", "started", "commitment", "round_start"]
    table = mutation.table
    assert [s.kind for s in table.seats] == ["human", BOT, BOT] and table.status == "playing"
    commitment = table.commitment
    assert commitment is not None and commitment.code == table.state.deal_code
    assert commitment.hash == t.commitment_hash(commitment.code, commitment.salt)
    event = mutation.events[3]
    assert event.data == {"round": 1, "hash": commitment.hash} and event.only is None


def test_summary_and_spectator_view_hold_no_secret() -> None:
    table = started().table
    text = json.dumps([t.summary(table, SETTINGS), t.view_for(table, None)])
    commitment = table.commitment
    assert commitment is not None
    for secret in (token_hash("host-secret"), token_hash("seat-secret"), commitment.salt, str(table.seed), "proc1"):
        assert secret not in text
    assert table.state.deal_code not in text


def test_deal_code_shown_only_when_every_other_seat_is_a_bot() -> None:
    table = started().table
    assert t.view_for(table, 0)["deal_code"] == table.state.deal_code
    assert t.view_for(table, 1)["deal_code"] is None  # seat 1's opponents include a human
    assert t.view_for(table, None)["deal_code"] is None
    absent = table.with_seat(2, kind="human", name="Cat", auto=True)
    assert t.view_for(absent, 0)["deal_code"] is None  # a stand-in bot does not count


def test_act_is_stale_only_when_the_game_moved() -> None:
    table = started().table
    draw = {"kind": "draw"}
    after = t.act(table, seat=0, action=draw, client_version=1, version=2, now=NOW).table
    presence = t.disconnect(after, seat=0, conn=CONN, now=NOW)
    assert presence is not None
    moved_on = presence.table  # version 3: not a game change
    assert t.act(moved_on, seat=0, action=draw, client_version=2, version=4, now=NOW).table.gv == 4
    with pytest.raises(StaleVersion):
        t.act(moved_on, seat=0, action=draw, client_version=1, version=4, now=NOW)


def test_bot_timers_only_while_a_human_is_present() -> None:
    table = started().table
    game = get_game("crazy_eights")
    # Seat 0 (the host) leads; after a play or draws the bots are awaited.
    move = table.state.legal_actions(0)[0]
    after = t.play(table, 0, move, version=2, now=NOW).table
    if after.awaiting() == (0,):
        after = t.play(after, 0, game.decode_action({"kind": "draw"}), version=3, now=NOW).table
    keys = t.due_keys(after)
    if after.awaiting() and after.seats[after.awaiting()[0]].is_bot:
        assert any(k.kind == "bot" for k in keys.values())
    gone = t.disconnect(after, seat=0, conn=CONN, now=NOW)
    assert gone is not None
    kinds = {k.kind for k in t.due_keys(gone.table).values()}
    assert "bot" not in kinds and "grace" in kinds


def test_timer_keys_kept_through_a_commit_id_or_deadline_and_no_other_change() -> None:
    """A table keeps its timer keys (its memo) when only its commit id or turn deadline change, as
    every commit does after planning; they are what the changed table derives afresh. Any other
    change derives them again."""
    table = started(seats=3, turn_limit_s=30).table
    rng = Random(5)
    for version in range(2, 40):
        keys = t.due_keys(table)
        kept = table.evolve(commit=f"c{version}", deadline=NOW + version)
        assert t.due_keys(kept) is keys  # kept, not derived again
        afresh = Table.from_bytes(kept.to_bytes())  # (a new memo: derived from the record alone)
        assert t.due_keys(afresh) == keys
        assert t.due_keys(table.evolve(turn_v=table.turn_v + 1)) is not keys
        seat = table.awaiting()[0] if table.awaiting() else None
        if seat is None:
            break
        table = t.play(table, seat, rng.choice(table.state.legal_actions(seat)), version=version, now=NOW).table


def test_plan_sets_and_cancels_by_key() -> None:
    settings = Settings(bot_delay_min_ms=600, bot_delay_max_ms=1200)
    table = lobby(seats=2, turn_limit_s=30)
    mutation = t.start(table, version=1, now=NOW)
    new, schedule, cancel = t.plan(table, mutation.table, mutation.events, NOW, settings, Random(1))
    by_kind = {d.key.split("|")[1]: d for d in schedule}
    assert set(by_kind) == {"turn", "check"} and cancel == []
    assert by_kind["turn"].due_ms == NOW + 30_000 == new.deadline
    assert by_kind["check"].due_ms == NOW + 10_000
    # The player draws: same turn (same deadline), new game version (a new check).
    after = t.act(new, seat=0, action={"kind": "draw"}, client_version=1, version=2, now=NOW + 5000)
    newer, schedule2, cancel2 = t.plan(new, after.table, after.events, NOW + 5000, settings, Random(1))
    assert [d.key.split("|")[1] for d in schedule2] == ["check"] and len(cancel2) == 1
    assert newer.deadline == NOW + 30_000
    # The player goes away: the grace timer is set from the time they left.
    gone = t.disconnect(newer, seat=0, conn=CONN, now=NOW + 6000)
    assert gone is not None
    _, schedule3, cancel3 = t.plan(newer, gone.table, gone.events, NOW + 6000, settings, Random(1))
    assert [(d.key.split("|")[1], d.due_ms) for d in schedule3] == [("grace", NOW + 6000 + 60_000)]
    assert {k.split("|")[1] for k in cancel3} == {"turn", "check"}  # nobody present: no turn clock


def test_grace_then_auto_then_back() -> None:
    table = started(seats=2).table
    gone = t.disconnect(table, seat=0, conn=CONN, now=NOW)
    assert gone is not None
    auto = t.go_auto(gone.table, seat=0, away=NOW)
    assert auto is not None and auto.table.seats[0].auto
    assert t.go_auto(gone.table, seat=0, away=NOW - 1) is None  # a stale grace timer does nothing
    back = t.connect(auto.table, seat=0, conn=("proc2", "c9"))
    assert not back.table.seats[0].auto and back.table.seats[0].conn == ("proc2", "c9")
    assert t.disconnect(back.table, seat=0, conn=CONN, now=NOW) is None  # the old connection's close


def test_leave_rules() -> None:
    table = lobby()
    joined, seat = t.join(table, name="  Bob  ", seat=None, token=token_hash("b"), conn=("p", "c2"))
    assert seat == 1 and joined.table.seats[1].name == "Bob"
    left = t.leave(joined.table, seat=1)
    assert left.table.seats[1].is_empty
    # The event names who left (the seat's new name is none, or the bot's): the others' logs say it.
    assert [e.data.get("left") for e in left.events if e.kind == "seat_changed"] == ["Bob"]
    closed = t.leave(joined.table, seat=0)
    assert closed.table.status == "finished" and [e.kind for e in closed.events] == ["closed"]
    playing = t.start(joined.table, version=3, now=NOW).table
    gone = t.leave(playing, seat=0)
    assert gone.table.seats[0].kind == BOT and gone.table.host is None
    changed = [e.data for e in gone.events if e.kind == "seat_changed"]
    assert changed[0]["to"] == BOT and changed[0]["left"] == playing.seats[0].name


def test_each_timer_kind_is_said_once_and_runs_where_it_says() -> None:
    from meja.server.metrics import _TIMER_KINDS
    from meja.server.service import TableService

    names = [kind.name for kind in t.TIMERS]
    assert len(set(names)) == len(names) and set(t.TIMER_KINDS) == set(names)
    assert set(_TIMER_KINDS) == set(names)  # the metrics count every kind, none as "other"
    for kind in t.TIMERS:
        assert callable(getattr(TableService, kind.run)), kind
    key = t.TimerKey("tid", "turn", 2, "7.1")
    assert str(key) == "tid|turn|2|7.1" and t.parse_key(str(key)) == key


def test_a_timer_is_moot_once_the_table_no_longer_derives_its_key() -> None:
    table = started().table
    # Between two moves of seat 0 a bot's timer is keyed by its seat's epoch: a newer epoch is a new key.
    game = get_game("crazy_eights")
    move = table.state.legal_actions(0)[0]
    after = t.play(table, 0, move, version=2, now=NOW).table
    if after.awaiting() == (0,):
        after = t.play(after, 0, game.decode_action({"kind": "draw"}), version=3, now=NOW).table
    bots = [k for k in t.due_keys(after).values() if k.kind == "bot"]
    assert bots
    key = bots[0]
    assert t.still_due(after, key)
    assert not t.still_due(after, key._replace(marker=str(int(key.marker) + 1)))
    gone = t.disconnect(after, seat=0, conn=CONN, now=NOW)
    assert gone is not None
    assert not t.still_due(gone.table, key)  # nobody present: bots do not play on


def test_the_lifecycle_refuses_a_status_move_it_does_not_list() -> None:
    from meja.protocol.errors import InternalError
    from meja.server.records import FINISHED, LOBBY, PLAYING

    waiting, playing = lobby(), started().table
    t.check_lifecycle(waiting, playing)  # start
    t.check_lifecycle(playing, playing.evolve(status=FINISHED))  # the game's outcome
    t.check_lifecycle(playing.evolve(status=FINISHED), playing)  # rematch
    for old, new in ((playing, waiting), (playing.evolve(status=FINISHED), waiting)):
        with pytest.raises(InternalError):
            t.check_lifecycle(old, new)
    assert {(a, b) for a, b in t.LIFECYCLE} == {(LOBBY, PLAYING), (LOBBY, FINISHED), (PLAYING, FINISHED),
                                                (FINISHED, PLAYING)}
