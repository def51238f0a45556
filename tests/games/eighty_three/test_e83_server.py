"""Eighty-Three at a real table: driven through the server's own pure table functions (meja.server.tables).

No loop and no network: the table transitions, timer keys and record
encoding the service uses, so the game is shown to behave there as the
contract promises: bots are asked for every seat that may act (all four at
once in the discard phase), a seat's decision never goes stale because another
seat stepped, the turn clock runs once for the whole discard phase, every hand
is committed to and revealed, the table record round-trips, and the finished
table's summary names the winning team.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from meja.bots.base import decision_rng
from meja.protocol.errors import StaleVersion
from meja.server import tables as t
from meja.server.records import Table
from meja.server.rooms import token_hash
from meja.server.settings import Settings

from .e83_helpers import PASS, PLUGIN, Phase

SETTINGS = Settings(public_origin="https://meja.test")
NOW = 1_000_000


def _lobby(**fields: Any) -> Table:
    args: dict[str, Any] = {
        "table_id": "e83",
        "code": "K7M2QX",
        "name": "Ann",
        "game": "eighty_three",
        "options": None,
        "seats": None,
        "bots": None,
        "deal_code": None,
        "grace_s": None,
        "turn_limit_s": None,
        "host_token": token_hash("host"),
        "seat_token": token_hash("seat0"),
        "conn": ("p1", "c0"),
        "seed": 20260101,
        "now": NOW,
    }
    args.update(fields)
    return t.new_table(SETTINGS, **args)


def _humans(**fields: Any) -> Table:
    table = _lobby(**fields)
    for seat in (1, 2, 3):
        joined, _ = t.join(table, name=f"P{seat}", seat=seat, token=token_hash(f"s{seat}"), conn=("p1", f"c{seat}"))
        table = joined.table
    return table


def test_a_table_of_four_seats_in_two_teams() -> None:
    table = _lobby()
    assert len(table.seats) == 4
    summary = t.summary(table, SETTINGS)
    assert summary["teams"] == [[0, 2], [1, 3]]
    assert summary["options"] == {"preset": "standard", "must_win_on_own_bid": False}
    with pytest.raises(Exception, match="4 seats"):
        _lobby(seats=3)
    given = _lobby(options={"must_win_on_own_bid": True}, deal_code=PLUGIN.game.read_deal_code(
        "00000-00000-00000-00000-1TVSMAME4").code)  # fmt: skip
    started = t.start(given, version=1, now=NOW)
    assert started.table.state.dealer == 1 and started.table.state.options.must_win_on_own_bid


def _bot_keys(table: Table) -> dict[int, str]:
    return {k.seat: key for key, k in t.due_keys(table).items() if k.kind == "bot"}


def test_bots_decide_the_discard_phase_together_and_never_go_stale() -> None:
    table = t.start(_lobby(), version=1, now=NOW).table  # seats 1-3 become bots
    version = 1
    bot = PLUGIN.bot("normal")
    rng = random.Random(5)

    def step(table: Table, seat: int, move: Any) -> Table:
        nonlocal version
        version += 1
        return Table.from_bytes(t.play(table, seat, move, version=version, now=NOW).table.to_bytes())

    # through the auction and the trump call: the human passes or names the default trump
    while table.state.phase in (Phase.AUCTION, Phase.TRUMP):
        seat = table.state.awaiting()[0]
        if seat == 0:
            table = step(table, 0, table.state.default_action(0))
        else:
            assert set(_bot_keys(table)) == {seat}  # one bot on turn at a time
            table = step(table, seat, bot.choose(table.state.view(seat), [], decision_rng(table.state, seat)))
    assert table.state.phase == Phase.DISCARD
    turn_v = table.turn_v
    human_epoch = table.epoch_of(0)
    assert set(_bot_keys(table)) == {1, 2, 3}  # every bot is asked at once
    steps = 0
    while table.state.phase == Phase.DISCARD and not all(table.state.decided[1:]):
        before = _bot_keys(table)
        seat = rng.choice(sorted(before))
        move = bot.choose(table.state.view(seat), [], decision_rng(table.state, seat))
        table = step(table, seat, move)
        after = _bot_keys(table)
        if table.state.phase != Phase.DISCARD:
            break
        for other in before:
            if other != seat:
                assert after.get(other) == before[other]  # another seat's step: its timer stands
        if seat in after:
            assert after[seat] != before[seat]  # its own step: a new decision, a new timer
        assert table.turn_v == turn_v  # one clock for the whole phase
        assert table.epoch_of(0) == human_epoch
        steps += 1
    assert steps >= 3
    if table.state.phase == Phase.DISCARD:
        # the human acts on the version it saw when the phase began: not stale
        legal = table.state.legal_actions(0)
        version += 1
        mutation = t.act(table, seat=0, action=legal[0].to_wire(), client_version=human_epoch, version=version, now=NOW)
        assert mutation.table.state.version == table.state.version + 1


def test_a_stale_action_in_the_auction_is_refused() -> None:
    table = t.start(_humans(), version=4, now=NOW).table
    first = table.state.awaiting()[0]
    table = t.act(table, seat=first, action=PASS.to_wire(), client_version=table.gv, version=5, now=NOW).table
    second = table.state.awaiting()[0]
    with pytest.raises(StaleVersion):
        t.act(table, seat=second, action=PASS.to_wire(), client_version=4, version=6, now=NOW)


def test_a_whole_match_at_a_table_of_four_people() -> None:
    started = t.start(_humans(), version=4, now=NOW)
    table = started.table
    version = 4
    rng = random.Random(83)
    commitments = {e.data["round"]: e.data["hash"] for e in started.events if e.kind == "commitment"}
    assert list(commitments) == [1]
    reveals = hands_over = 0
    for _ in range(20_000):
        if table.status == "finished":
            break
        state = table.state
        seat = rng.choice(state.awaiting())
        legal = state.legal_actions(seat)
        move = legal[int(rng.random() * len(legal))]
        if state.phase == Phase.AUCTION:  # low bids, so that the match ends
            move = PASS if PASS in legal and rng.random() < 0.7 else legal[0]
        version += 1
        # every seat acts on the oldest version the table accepts from it
        mutation = t.act(
            table, seat=seat, action=move.to_wire(), client_version=table.epoch_of(seat), version=version, now=NOW
        )
        for event in mutation.events:
            if event.kind == "commitment":
                commitments[event.data["round"]] = event.data["hash"]
            if event.kind == "hand_over":
                hands_over += 1
            if event.kind == "reveal":
                reveals += 1
                text = f"{event.data['deal_code']}:{event.data['salt']}"
                assert hashlib.sha256(text.encode()).hexdigest() == commitments[event.data["round"]]
        kinds = [e.kind for e in mutation.events]
        if "hand_start" in kinds:
            assert kinds.index("commitment") == kinds.index("hand_start") - 1
        if "hand_over" in kinds:
            assert kinds[kinds.index("hand_over") + 1] == "reveal"
        table = Table.from_bytes(mutation.table.to_bytes())
        for viewer in (None, 0, 1, 2, 3):
            view = t.view_for(table, viewer)
            assert view is not None and (viewer is None or view["legal"] is not None)
    assert table.status == "finished"
    assert hands_over == reveals >= 2
    summary = t.summary(table, SETTINGS)
    outcome = summary["outcome"]
    assert outcome["teams"] in ([0], [1]) and len(outcome["team_scores"]) == 2
    assert outcome["winners"] == summary["teams"][outcome["teams"][0]]
    assert max(outcome["team_scores"]) >= 200
