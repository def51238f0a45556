"""How Kartu Terakhir maps onto the game contract (meja.rules.game), and how the server drives it.

The contract's questions (awaiting, actors, epoch, period, in_round,
default_action, timed_actions, locations) answered in each phase; the view's
fields, who sees what, and the sort orders; the doors for untrusted input
(decode_action, options_from_wire, state_from_data); the stacked builder's
refusals; and, through the server's own pure table functions
(meja.server.tables), the catch race: the second catch on the same version is
refused as illegal, not as stale.
"""

from __future__ import annotations

import json
from typing import Any

import msgpack
import pytest
from meja.games.kartu_terakhir.rules import DECK, NAMES, Move
from meja.protocol.errors import StaleVersion
from meja.rules import BadActionError, BadOptionsError, BadSeatError, IllegalActionError, RulesError
from meja.server import tables
from meja.server.rooms import token_hash
from meja.server.settings import Settings

from .kt_helpers import (
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    GAME,
    KEEP,
    PASS,
    PLUGIN,
    READY,
    TAKE,
    TIMER_TAKE,
    Kind,
    Phase,
    act,
    hand,
    play,
    rejected,
    stacked,
    timed,
)

# =========================================================================== actors, epochs, periods


def test_awaiting_and_actors_in_each_phase() -> None:
    # seat 0: R5 R6 R7      <- to act
    state = stacked(hands=["R5 R6 R7", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2")
    assert state.awaiting() == (0,) and state.actors() == (0,)
    assert state.legal_actions(1) == state.legal_actions(2) == ()
    # plays to 2 cards, then seat 1 plays to 1 card: a window; everyone is an actor, one awaited
    s = act(act(state, 0, play("R5")).state, 1, DRAW).state
    assert s.awaiting() == (2,) and s.actors() == (2,)
    w = act(stacked(hands=["R5 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1"), 0, play("R5")).state
    assert w.awaiting() == (1,) and w.actors() == (0, 1, 2)
    assert w.legal_actions(1)[-1] == CATCH and w.legal_actions(0) == (CALL,) and w.legal_actions(2) == (CATCH,)
    assert w.in_round()


def test_epochs_call_catch_and_ready_move_only_their_seats() -> None:
    state = stacked(hands=["R5 R6", "B1 B2 B3", "G1 G2", "Y1 Y2"], discard="R9", stock="Y3 Y4 Y5 Y6")
    w = act(state, 0, play("R5")).state
    assert all(w.epoch(s) == w.version for s in range(4))  # a play concerns everyone
    called = act(w, 0, CALL).state  # 3.6.1 b
    assert called.epoch(0) == called.version
    assert [called.epoch(s) for s in (1, 2, 3)] == [w.version] * 3
    caught = act(w, 3, CATCH).state
    assert caught.epoch(3) == caught.epoch(0) == caught.version  # the catcher and the caught
    assert caught.epoch(1) == caught.epoch(2) == w.version
    # and a later play concerns everyone again
    nxt = act(caught, 1, DRAW).state
    assert all(nxt.epoch(s) == nxt.version for s in range(4))
    # a call (a) by the seat on turn: only its own
    two = stacked(hands=["R5 R6", "B1"], discard="R9")
    a = act(two, 0, CALL).state
    assert a.epoch(0) == a.version and a.epoch(1) == two.version


def test_periods_a_turn_a_wait_a_draw_shares_its_turn() -> None:
    state = stacked(hands=["R5 R6 R7", "B1 B2", "G1 G2"], discard="R9", stock="R1 Y2 Y3")
    drew = act(state, 0, DRAW).state  # R1 is playable: the turn goes on
    assert drew.period() == state.period()
    played = act(drew, 0, play("R1")).state
    assert played.period() != drew.period() and played.turn == 1
    two = stacked(hands=["R5 R6", "B1"], discard="R9")
    assert act(two, 0, CALL).state.period() == two.period()  # a call is no new turn
    # a challenge proven a bluff gives the challenger a new period (its own turn)
    wd4 = act(stacked(hands=["WD4 R1 R2", "B1 B2", "G1"], discard="R7", stock="Y1 Y2 Y3 Y4"), 0, play("WD4", "B"))
    facing = wd4.state
    proven = act(facing, 1, CHALLENGE).state
    assert proven.turn == 1 and proven.period() != facing.period()
    # the reaction wait is a period of its own
    react = act(stacked(hands=["RD2 R1 R2", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3"), 0, play("RD2")).state
    assert react.phase == Phase.REACT and react.period() != state.period()
    assert timed(react).state.period() != react.period()


def test_timed_action_keeps_its_since_through_catches() -> None:
    # seat 0 plays its Draw Two to one card: the reaction wait is also the catch window
    state = stacked(hands=["RD2 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3 Y4")
    react = act(state, 0, play("RD2")).state
    [before] = react.timed_actions()
    caught = act(react, 2, CATCH).state
    assert caught.timed_actions() == (before,) and before.since == react.version
    # the victim itself may take the penalty sooner (the same action)
    sooner = act(react, 1, TAKE).state
    assert sooner.timed_actions() == () and len(sooner.hands[1]) == 4


def test_default_action_is_always_accepted() -> None:
    """Legal, or the timer's draw_keep where a draw is legal or the piles are spent, or its
    timer_take where mandatory stacking left no take to choose (accepted; never offered in legal);
    never ``None`` on a turn: the timer never hands the move to a bot (3.7)."""
    cases = [
        stacked(hands=["R5 R6", "B1"], discard="R9", stock="Y1"),
        stacked(hands=["B5", "B1"], discard="R9"),
        stacked(hands=["R5", "B1"], discard="R9"),
        stacked({"stacking": True}, hands=["R1", "BD2 B1"], discard="R9 RD2", pending=2, turn=1),
        stacked(hands=["R1", "B1"], discard="R9 WD4", colour="G", pending=4, turn=1),
        stacked({"stacking": True, "stacking_mandatory": True}, hands=["R1", "BD2 B1"], discard="R9 RD2",
                pending=2, turn=1),
    ]
    for state in cases:
        move = state.default_action(state.turn)
        legal = state.legal_actions(state.turn)
        spent = not state.stock and len(state.discard) == 1
        forced = state.pending and TAKE not in legal
        assert move in legal or (move == DRAW_KEEP and (DRAW in legal or spent)) or (move == TIMER_TAKE and forced)
        assert move.kind != Kind.PLAY  # 3.7: never a play
        state.apply(state.turn, move)


# =========================================================================== views


def test_view_fields_and_who_sees_what() -> None:
    state = stacked(
        {"stacking": True, "match": "500", "reaction_ms": 250},
        hands=["W R5 B2 R5 YD2", "B1 B2 B3"],
        discard="G1 R9",
        stock="Y1 Y2",
        scores=(10, 20),
    )
    mine = state.view(0).to_wire()
    assert mine["hand"] == ["R5", "R5", "YD2", "B2", "W"]  # by card id: R Y G B, 0-9 S R D2, then W, WD4
    assert mine["legal"] == [a.to_wire() for a in state.legal_actions(0)]
    assert mine["legal"][:2] == [{"kind": "play", "card": "R5"}, {"kind": "play", "card": "W", "colour": "R"}]
    assert mine["legal"][-1] == {"kind": "draw"}
    expected = {
        "game", "preset", "seat", "seats", "version", "phase", "round", "dealer", "hand", "hand_counts", "top",
        "colour", "direction", "turn", "drew", "drawn", "pending", "can_challenge", "window", "called", "shown",
        "stock_count", "discard_count", "legal", "scores", "ready", "stacking", "stacking_mandatory", "match",
        "target", "reaction_ms", "last_round", "winners",
    }  # fmt: skip
    assert set(mine) == expected
    assert (mine["top"], mine["colour"], mine["direction"], mine["turn"]) == ("R9", "R", 1, 0)
    assert (mine["stock_count"], mine["discard_count"], mine["hand_counts"]) == (2, 2, [5, 3])
    assert (mine["match"], mine["target"], mine["reaction_ms"], mine["scores"]) == ("500", 500, 250, [10, 20])
    other = state.view(1).to_wire()
    assert other["legal"] == [] and other["hand"] == ["B1", "B2", "B3"]
    spectator = state.view(None).to_wire()
    assert spectator["hand"] is None and spectator["legal"] == [] and spectator["seat"] is None
    assert "deal_code" not in mine and state.deal_code not in json.dumps([mine, other, spectator])
    with pytest.raises(BadSeatError):
        state.view(2)


def test_views_name_only_cards_their_seat_may_see() -> None:
    state = GAME.new_match(GAME.options(), 4, 77).state
    for seat in (None, 0, 1, 2, 3):
        wire = json.dumps(state.view(seat).to_wire())
        visible = {c for loc in state.locations() if loc.seen_by == "all" or seat in loc.seen_by for c in loc.cards}
        for name in NAMES:
            if f'"{name}"' in wire:
                assert name in visible, (seat, name)


def test_locations_conserve_the_deck_and_show_the_challenged_hand() -> None:
    state = stacked(hands=["WD4 R1 R2", "B1 B2", "G1"], discard="R7", stock="Y1 Y2 Y3 Y4")
    after = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE).state
    names = [loc.name for loc in after.locations()]
    assert names == ["hand/0", "hand/1", "hand/2", "discard", "stock", "shown"]
    shown = after.locations()[-1]
    assert shown.seen_by == (1,) and not shown.counted and shown.cards == ("R1", "R2")
    # a real deal conserves the whole deck
    real = GAME.new_match(GAME.options(), 7, 3).state
    laid = sorted(c for loc in real.locations() if loc.counted for c in loc.cards)
    assert laid == sorted(DECK)


def test_round_over_reveals_every_hand_and_the_next_round_keeps_them_as_last_round() -> None:
    state = stacked({"match": "500"}, hands=["R3", "B1 W"], discard="R9")
    over = act(state, 0, play("R3")).state
    assert all(loc.seen_by == "all" for loc in over.locations() if loc.name.startswith("hand/"))
    s = act(act(over, 0, READY).state, 1, READY).state
    assert s.round == 2
    last = [loc for loc in s.locations() if loc.name == "last_round"]
    assert len(last) == 1 and not last[0].counted and sorted(last[0].cards) == ["B1", "W"]
    assert s.view(None).to_wire()["last_round"]["hands"] == [[], ["B1", "W"]]


# =========================================================================== doors


@pytest.mark.parametrize(
    "wire",
    [
        None, "draw", [], {}, {"kind": 3}, {"kind": "fly"}, {"kind": "play"}, {"kind": "play", "card": "R10"},
        {"kind": "play", "card": 7}, {"kind": "play", "card": "W", "colour": "P"}, {"kind": "play", "card": "W",
        "colour": 1}, {"kind": "draw", "card": "R1"}, {"kind": "catch", "seat": 2}, {"kind": "play", "card": "R1",
        "suit": "H"}, {"kind": "ready", "x": None},
    ],
)  # fmt: skip
def test_malformed_actions_are_bad_actions(wire: Any) -> None:
    with pytest.raises(BadActionError):
        GAME.decode_action(wire)


def test_every_action_round_trips_through_its_wire_form() -> None:
    moves = [Move.play(n, c) for n in NAMES for c in ("R", "Y", "G", "B", None)]
    moves += [DRAW, KEEP, PASS, TAKE, CHALLENGE, CALL, CATCH, READY]
    assert sorted(moves) == moves  # the documented sort order
    for move in moves:
        wire = json.loads(json.dumps(move.to_wire()))
        assert GAME.decode_action(wire) == move and type(GAME.decode_action(wire)) is Move
    assert [m.kind.wire for m in moves[-8:]] == ["draw", "keep", "pass", "take", "challenge", "call", "catch", "ready"]
    assert str(Move.play("W", "G")) == "play W G" and repr(CATCH) == "Move(catch)"
    with pytest.raises(ValueError):
        Move.play("X9")


def test_apply_refuses_what_is_not_an_action_or_a_seat() -> None:
    state = stacked(hands=["R5 R6", "B1"], discard="R9")
    for seat in (-1, 2, 99, "0", None):
        with pytest.raises(BadSeatError):
            state.apply(seat, play("R5"))  # type: ignore[arg-type]
    for action in (5, "draw", {"kind": "draw"}, None, True):
        with pytest.raises(BadActionError):
            state.apply(0, action)  # type: ignore[arg-type]
    rejected(state, 0, READY, IllegalActionError, "action/illegal")
    rejected(state, 0, KEEP, IllegalActionError, "action/illegal")
    rejected(state, 0, TAKE, IllegalActionError, "action/illegal")
    rejected(state, 0, CHALLENGE, IllegalActionError, "action/illegal")


def test_options_from_the_host_form() -> None:
    assert GAME.options_from_wire(None) == GAME.options()
    opts = GAME.options_from_wire({"preset": "standard", "stacking": True, "match": "500", "reaction_ms": 0})
    assert (opts.stacking, opts.match, opts.reaction_ms, opts.stacking_mandatory) == (True, "500", 0, False)
    for bad in (
        {"stacking": 1}, {"match": "100"}, {"reaction_ms": 5001}, {"reaction_ms": -1}, {"reaction_ms": 1.5},
        {"turn_limit": 30}, {"preset": "house"}, [1], {"stacking_mandatory": "yes"},
    ):  # fmt: skip
        with pytest.raises(BadOptionsError):
            GAME.options_from_wire(bad)
    info = GAME.info.to_wire()
    assert info["seats"] == [2, 10] and info["deal_codes"] is True and info["default_preset"] == "standard"
    assert [o["name"] for o in info["presets"][0]["options"]] == ["stacking", "stacking_mandatory", "match",
                                                                  "reaction_ms"]
    assert info["presets"][0]["default_seats"] == 4


def test_state_records_survive_json_and_msgpack() -> None:
    state = act(stacked(hands=["WD4 R1 R2", "B1 B2", "G1"], discard="R7", stock="Y1 Y2 Y3 Y4"), 0,
                play("WD4", "G")).state
    state = act(state, 1, CHALLENGE).state
    data = state.to_data()
    for text in (json.loads(json.dumps(data)), msgpack.unpackb(msgpack.packb(data, use_bin_type=True))):
        again = GAME.state_from_data(text)
        assert again == state and again.to_data() == data
        assert again.view(1).to_wire() == state.view(1).to_wire()
    with pytest.raises(ValueError):
        GAME.state_from_data({**data, "schema": 99})


# =========================================================================== the stacked builder


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({"hands": ["R0 R0", "B1"], "discard": "R9"}, "more often than the deck has it"),
        ({"hands": ["W W", "W"], "discard": "W W", "colour": "R"}, "more often"),
        ({"hands": ["R1", "B1"], "discard": "R1 R1 R9"}, "more often"),
        ({"hands": ["X1", "B1"], "discard": "R9"}, "not a card"),
        ({"hands": ["R1"], "discard": "R9"}, "2-10 seats"),
        ({"hands": ["R1", ""], "discard": "R9"}, "every hand"),
        ({"hands": ["R1", "B1"], "discard": ""}, "top card"),
        ({"hands": ["R1", "B1"], "discard": "W"}, "name the active colour"),
        ({"hands": ["R1", "B1"], "discard": "R9", "colour": "G"}, "unless it is a Wild"),
        ({"hands": ["R1", "B1"], "discard": "R9", "turn": 2}, "not a seat"),
        ({"hands": ["R1", "B1"], "discard": "R9", "direction": 2}, "direction"),
        ({"hands": ["R1", "B1"], "discard": "R9", "pending": 2}, "Draw Two or Wild Draw Four on top"),
        ({"hands": ["R1", "B1"], "discard": "R9 RD2", "pending": 4}, "penalty of 2"),
        ({"hands": ["R1", "B1"], "discard": "W WD4", "colour": "G", "pending": 4}, "prior_colour"),
        ({"hands": ["R1 R2", "B1"], "discard": "R9", "window": 0}, "only a seat holding one card"),
        ({"hands": ["R1 R2", "B1"], "discard": "R9", "called": 1}, "called"),
        ({"hands": ["R1 R2 R3", "B1"], "discard": "R9", "called": 0}, "called"),
        ({"hands": ["R1 G2", "B1"], "discard": "R9", "drawn": "G2"}, "not playable"),
        ({"hands": ["R1 G2", "B1"], "discard": "R9", "drawn": "Y2"}, "not in the hand"),
        ({"hands": ["R1", "B1"], "discard": "R9", "dealer": 5}, "dealer"),
        ({"hands": ["R1", "B1"], "discard": "R9", "scores": (1,)}, "scores"),
    ],
)
def test_stacked_refuses_what_cannot_happen(layout: dict[str, Any], message: str) -> None:
    with pytest.raises(BadOptionsError, match=message):
        GAME.stacked(None, **layout)


def test_stacked_stacking_penalties() -> None:
    with pytest.raises(BadOptionsError, match="no stack"):
        stacked({"stacking": True}, hands=["R1", "B1"], discard="R9 RD2", pending=3)
    with pytest.raises(BadOptionsError, match="no stack"):
        stacked({"stacking": True}, hands=["R1", "B1"], discard="R9 WD4", colour="R", pending=2)
    s = stacked({"stacking": True}, hands=["R1", "B1"], discard="R9 WD4", colour="R", pending=12)
    assert not s.challenge and s.phase == Phase.PLAY
    with pytest.raises(BadOptionsError, match="options"):
        GAME.stacked(3, hands=["R1", "B1"], discard="R9")  # type: ignore[arg-type]


# =========================================================================== through the server's table functions

SETTINGS = Settings(public_origin="https://meja.test")
CONN = ("proc1", "c1")
NOW = 1_000_000


def _table(state: Any, seats: int) -> Any:
    lobby = tables.new_table(
        SETTINGS, table_id="tid", code="K7M2QX", name="Ann", game=PLUGIN.name, options=None, seats=seats, bots=None,
        deal_code=None, grace_s=None, turn_limit_s=30, host_token=token_hash("h"), seat_token=token_hash("s"),
        conn=CONN, seed=5, now=NOW,
    )  # fmt: skip
    table = tables.start(lobby, version=1, now=NOW).table
    # the scenario's cards in place of the deal; every seat's decision is current at the table's version
    return table.evolve(state=state, epochs=(table.gv,) * seats)


def test_the_second_catch_is_illegal_not_stale_at_the_table() -> None:
    # seat 0: R5 R6        <- plays to one card without calling
    state = stacked(hands=["R5 R6", "B1 B2 B3", "G1 G2", "Y1 Y2"], discard="R9", stock="Y3 Y4 G7")
    table = _table(state, 4)
    v0 = table.gv
    opened = tables.act(table, seat=0, action={"kind": "play", "card": "R5"}, client_version=v0, version=v0 + 1,
                        now=NOW).table
    v1 = opened.gv
    first = tables.act(opened, seat=2, action={"kind": "catch"}, client_version=v1, version=v1 + 1, now=NOW).table
    with pytest.raises(IllegalActionError):
        tables.act(first, seat=3, action={"kind": "catch"}, client_version=v1, version=v1 + 2, now=NOW)
    # the seat on turn's play, decided on the version before the catch, is not stale either
    after = tables.act(first, seat=1, action={"kind": "draw"}, client_version=v1, version=v1 + 2, now=NOW).table
    assert after.state.turn == 2 and len(after.state.hands[1]) == 4
    # a catch decided before the window opened is stale
    with pytest.raises(StaleVersion):
        tables.act(opened, seat=3, action={"kind": "catch"}, client_version=v0, version=v1 + 1, now=NOW)


def test_timers_the_server_sets_in_the_reaction_wait() -> None:
    # seat 0 plays its Draw Two to one card: nobody is awaited, the catchers are actors, the draw is timed
    state = stacked({"reaction_ms": 300}, hands=["RD2 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3")
    table = _table(state, 3)
    after = tables.act(table, seat=0, action={"kind": "play", "card": "RD2"}, client_version=table.gv,
                       version=table.gv + 1, now=NOW).table
    keys = tables.due_keys(after)
    kinds = sorted(k.kind for k in keys.values())
    assert "turn" not in kinds  # nobody is awaited: no turn clock
    pairs = {(k.kind, k.seat) for k in keys.values()}
    assert ("auto", 1) in pairs  # the victim's timed penalty draw
    assert ("bot", 1) in pairs and ("bot", 2) in pairs  # the bots may catch
    _, schedule, _ = tables.plan(table, after, (), NOW, SETTINGS, __import__("random").Random(1))
    auto = [d for d in schedule if "|auto|" in d.key]
    assert len(auto) == 1 and auto[0].due_ms == NOW + 300


def test_rules_errors_carry_their_wire_codes() -> None:
    state = stacked(hands=["R5 R6", "B1"], discard="R9")
    for seat, move in ((1, play("B1")), (0, play("B1")), (0, PASS)):
        with pytest.raises(RulesError) as info:
            state.apply(seat, move)
        assert info.value.code in ("action/not_your_turn", "action/illegal")
    assert hand(state, 0) == ["R5", "R6"]
