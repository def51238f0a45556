"""Crazy Eights engine contract: typed errors, the wire door, views, events, the ready phase,
persistence, and who leads or deals each round.

These are the promises of ``meja.rules.game`` and ``errors`` as Crazy Eights keeps
them (docs/rules/README.md, "General requirements": the server rejects illegal actions
without changing state, and hidden information goes only to the seat entitled
to it). Scenarios are stacked decks with the layout in a comment (``ce_helpers``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from meja.games.crazy_eights.rules import CrazyEights
from meja.rules import events_for

from .ce_helpers import (
    DRAW,
    GAME,
    PASS,
    READY,
    BadActionError,
    BadOptionsError,
    BadSeatError,
    CrazyEightsState,
    IllegalActionError,
    Kind,
    Move,
    NotYourTurnError,
    Phase,
    RoundOverError,
    RulesError,
    act,
    kinds,
    play,
    play_round,
    ready_all,
    rejected,
    rig,
    stacked,
    suit,
)

NOT_YOUR_TURN = "action/not_your_turn"
ILLEGAL = "action/illegal"
ROUND_OVER = "action/round_over"
BAD_ACTION = "action/bad_action"


def _round_over_state() -> CrazyEightsState:
    # seat 0: 2D 3D
    # seat 1: 5H            <- to act, goes out
    # seat 2: 4D
    # discard: 9H (top)
    state = stacked(hands=["2D 3D", "5H", "4D"], discard="9H", turn=1, seed=21)
    end = act(state, 1, play("5H")).state
    assert end.phase == Phase.ROUND_OVER
    return end


# =========================================================================== typed errors


def test_error_codes_and_tree() -> None:
    """The error tree and its stable wire codes (errors.py)."""
    assert NotYourTurnError.code == NOT_YOUR_TURN
    assert IllegalActionError.code == ILLEGAL
    assert RoundOverError.code == ROUND_OVER
    assert BadActionError.code == BAD_ACTION
    assert BadSeatError.code == "seat/bad_seat"
    assert issubclass(NotYourTurnError, IllegalActionError)
    assert issubclass(RoundOverError, IllegalActionError)
    for cls in (IllegalActionError, BadActionError, BadSeatError):
        assert issubclass(cls, RulesError) and issubclass(cls, ValueError)


def test_not_your_turn_error() -> None:
    """Any action by a seat that is not awaited raises NotYourTurnError; state unchanged."""
    # seat 0: 5H 2C         <- to act
    # seat 1: 6H 8C
    # discard: 9H (top)     stock (next first): 4S
    state = stacked(hands=["5H 2C", "6H 8C"], discard="9H", stock="4S")
    for move in (play("6H"), play("8C", "S"), DRAW, PASS, suit("S"), READY):
        rejected(state, 1, move, NotYourTurnError, NOT_YOUR_TURN)
    # in a suit choice, only the chooser may act (classic: a drawn 8 was played for seat 0)
    choice = stacked("classic", hands=["2C 3C", "3D 4S"], discard="9H", stock="8D")
    choice = act(choice, 0, DRAW).state
    assert choice.phase == Phase.CHOOSE_SUIT
    rejected(choice, 1, suit("H"), NotYourTurnError, NOT_YOUR_TURN)
    rejected(choice, 1, play("3D"), NotYourTurnError, NOT_YOUR_TURN)


def test_illegal_action_error() -> None:
    """Well-formed but not allowed now: IllegalActionError, with the bad value in the message."""
    # seat 0: 5H 2C 8D      <- to act
    # seat 1: 2S
    # discard: 9H (top)     stock (next first): 4S
    state = stacked(hands=["5H 2C 8D", "2S"], discard="9H", stock="4S")
    cases: list[tuple[Move, str]] = [
        (play("3C"), "3C"),  # not in hand
        (play("2S"), "2S"),  # another seat's card
        (play("2C"), "2C"),  # does not match
        (play("8D"), "8D"),  # an 8 that is not the last card must name a suit
        (play("5H", "S"), "5H"),  # only an 8 names a suit
        (suit("S"), "suit"),  # no suit choice is pending
        (PASS, "has_playable"),  # pass with a legal card
        (READY, "ready"),  # no round is over
    ]
    for move, shown in cases:
        err = rejected(state, 0, move, IllegalActionError, ILLEGAL)
        assert shown in str(err), (move, str(err))
    # after 3 draws: the 4th is refused
    drawn = stacked(hands=["5H 2C", "2S"], discard="9H", stock="4S", draws=3)
    err = rejected(drawn, 0, DRAW, IllegalActionError, ILLEGAL)
    assert "draw_limit" in str(err)
    # the last card is an 8: naming a suit is refused (1.3.7)
    last = stacked(hands=["8D", "2S"], discard="9H", stock="4S")
    rejected(last, 0, play("8D", "H"), IllegalActionError, ILLEGAL)
    # a pending suit choice refuses anything but a suit from the chooser
    choice = act(stacked("classic", hands=["2C 3C", "3D 4S"], discard="9H", stock="8D"), 0, DRAW).state
    for move in (DRAW, PASS, play("2C")):
        rejected(choice, 0, move, IllegalActionError, ILLEGAL)
    # ready twice in the ready phase
    over = act(_round_over_state(), 0, READY).state
    rejected(over, 0, READY, IllegalActionError, ILLEGAL)


def test_round_over_error() -> None:
    """Between rounds only 'ready' is accepted; after the match nothing is (RoundOverError)."""
    over = _round_over_state()
    for seat in range(3):
        for move in (play("2D"), DRAW, PASS, suit("H")):
            rejected(over, seat, move, RoundOverError, ROUND_OVER)


def test_bad_action_and_bad_seat_errors() -> None:
    """apply() given something that is not a Move, or a seat that does not exist."""
    state = stacked(hands=["5H 2C", "2S"], discard="9H", stock="4S")
    for junk in ({"kind": "draw"}, "draw", None, 2):
        rejected(state, 0, junk, BadActionError, BAD_ACTION)
    for seat in (2, -1, 99):
        rejected(state, seat, DRAW, BadSeatError, "seat/bad_seat")
    with pytest.raises(BadSeatError):
        state.view(2)


# =========================================================================== the wire door


MALFORMED: list[Any] = [
    None,
    [],
    "draw",
    5,
    {},
    {"kind": None},
    {"kind": 1},
    {"kind": "DRAW"},
    {"kind": "discard"},
    {"kind": "play"},
    {"kind": "play", "card": None},
    {"kind": "play", "card": 5},
    {"kind": "play", "card": True},
    {"kind": "play", "card": ["8H"]},
    {"kind": "play", "card": "8X"},
    {"kind": "play", "card": "8H.3"},
    # one spelling on the wire: no other case, spacing or T for 10 (a hostile player's probes)
    {"kind": "play", "card": "8h"},
    {"kind": "play", "card": " 8H"},
    {"kind": "play", "card": "8H "},
    {"kind": "play", "card": "TC"},
    {"kind": "play", "card": "qs"},
    {"kind": "play", "card": "8H", "suit": "h"},
    {"kind": "suit", "suit": "Hearts"},
    {"kind": "suit", "suit": ""},
    {"kind": "play", "card": "8H", "suit": "X"},
    {"kind": "play", "card": "8H", "suit": 3},
    {"kind": "play", "card": "8H", "suit": "H", "seat": 0},
    {"kind": "suit"},
    {"kind": "suit", "suit": None},
    {"kind": "suit", "suit": "purple"},
    {"kind": "suit", "suit": "H", "card": "8H"},
    {"kind": "draw", "card": "8H"},
    {"kind": "draw", 1: 2},
    {"kind": "pass", "suit": "H"},
    {"kind": "ready", "seat": 1},
]


@pytest.mark.parametrize("data", MALFORMED, ids=[repr(d)[:40] for d in MALFORMED])
def test_decode_action_rejects_malformed_wire_data(data: Any) -> None:
    """decode_action is the only door for untrusted input: anything else is BadActionError."""
    with pytest.raises(BadActionError) as info:
        GAME.decode_action(data)
    assert type(info.value) is BadActionError
    assert info.value.code == BAD_ACTION


def test_decode_action_round_trips_every_move() -> None:
    """Every action's wire form decodes back to the same Move; cards and suits spelt exactly so."""
    moves = [DRAW, PASS, READY, *(suit(s) for s in "SHDC"), play("10C"), play("8H.2", "D"), play("8H")]
    for move in moves:
        wire = move.to_wire()
        assert json.loads(json.dumps(wire)) == wire
        assert GAME.decode_action(wire) == move
    assert GAME.decode_action({"kind": "play", "card": "5H", "suit": None}) == play("5H")
    assert play("8H", "S").to_wire() == {"kind": "play", "card": "8H", "suit": "S"}
    assert DRAW.to_wire() == {"kind": "draw"}


# =========================================================================== views


def test_view_reason_codes() -> None:
    """draw_blocked / pass_blocked say why a button is off, with a fixed set of codes."""

    def reasons(state: CrazyEightsState, seat: int | None) -> tuple[str | None, str | None]:
        v = state.view(seat)
        wire = v.to_wire()
        assert wire["can_draw"] is (v.draw_blocked is None)
        assert wire["can_pass"] is (v.pass_blocked is None)
        return v.draw_blocked, v.pass_blocked

    # seat 0: 5H 2C   seat 1: 3D   discard: 9H   stock: 4S
    held = stacked(hands=["5H 2C", "3D"], discard="9H", stock="4S")
    assert reasons(held, 0) == (None, "has_playable")
    assert reasons(held, 1) == ("not_your_turn", "not_your_turn")
    assert reasons(held, None) == ("not_your_turn", "not_your_turn")
    # classic: a legal card forbids the draw
    assert reasons(stacked("classic", hands=["5H 2C", "3D"], discard="9H", stock="4S"), 0) == (
        "has_playable",
        "has_playable",
    )
    # stuck with draws left
    stuck = stacked(hands=["2C", "3D"], discard="9H", stock="4S")
    assert reasons(stuck, 0) == (None, "must_draw")
    # stuck after 3 draws
    assert reasons(stacked(hands=["2C", "3D"], discard="9H", stock="4S", draws=3), 0) == (
        "draw_limit",
        None,
    )
    # stuck with nothing to draw
    assert reasons(stacked(hands=["2C", "3D"], discard="9H"), 0) == ("nothing_to_draw", None)
    # a pending suit choice (party starter 8 style, through classic's drawn 8 here)
    choice = act(stacked("classic", hands=["2C 3C", "3D 4S"], discard="9H", stock="8D"), 0, DRAW).state
    for seat in (0, 1, None):
        assert reasons(choice, seat) == ("choose_suit", "choose_suit")
    # between rounds and after the match
    over = _round_over_state()
    for seat in (0, 1, 2, None):
        assert reasons(over, seat) == ("round_over", "round_over")
    end = act(stacked(hands=["10C", "5H"], discard="9H", turn=1, scores=(95, 0)), 1, play("5H")).state
    assert end.phase == Phase.MATCH_OVER
    assert reasons(end, 0) == ("round_over", "round_over")


@pytest.mark.parametrize("preset", ["house", "classic", "party"])
def test_view_buttons_agree_with_legal_actions_over_a_match(preset: str) -> None:
    """Across whole rounds: the view's can_draw/can_pass match DRAW/PASS in the legal actions,
    legal actions are sorted, and no view carries another seat's cards or the stock order."""
    state = GAME.new_match(GAME.options(preset, target=1000), 3, 77).state
    for _ in range(2):
        steps = 0
        while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
            (seat,) = state.awaiting()
            legal = state.legal_actions(seat)
            assert legal == tuple(sorted(legal))
            for s in range(3):
                wire = state.view(s).to_wire()
                assert wire["hand"] == [str(c) for c in state.hands[s]]
                assert "stock" not in wire and "hands" not in wire
                if s == seat and state.phase == Phase.PLAY:
                    assert wire["can_draw"] == (DRAW in legal)
                    assert wire["can_pass"] == (PASS in legal)
                    assert wire["legal"] == [m.to_wire() for m in legal]
                elif s != seat:
                    assert wire["legal"] == []
            assert state.view(None).to_wire()["hand"] is None
            # the first legal action: a play if there is one, else draw, else pass
            state = act(state, seat, legal[0]).state
            steps += 1
            assert steps < 3000, "the round should end"
        state = ready_all(state).state


# =========================================================================== events


def test_another_seats_draw_shows_no_card() -> None:
    """A draw event tells the drawer the card; every other seat and spectators only that a
    card was drawn (and how many draws are left)."""
    # seat 0: 2C            <- to act, stuck on 9H
    # seat 1: 3D   seat 2: 4D
    # discard: 9H (top)     stock (next first): KS
    state = stacked(hands=["2C", "3D", "4D"], discard="9H", stock="KS 5S")
    t = act(state, 0, DRAW)
    (mine,) = [e for e in events_for(t.events, 0) if e.kind == "draw"]
    assert mine.data == {"seat": 0, "card": "KS", "draws_left": 2}
    for other in (1, 2, None):
        (theirs,) = [e for e in events_for(t.events, other) if e.kind == "draw"]
        assert theirs.data == {"seat": 0, "draws_left": 2}
        assert "KS" not in json.dumps([e.to_wire() for e in events_for(t.events, other)])


def test_deal_events_show_each_hand_only_to_its_owner() -> None:
    """At the deal, each seat gets its own hand; the public round_start gives only counts;
    hands are revealed to all only in the round result."""
    t = GAME.new_match(GAME.options("house"), 3, 9)
    for seat in range(3):
        mine = [e for e in events_for(t.events, seat) if e.kind == "hand"]
        assert len(mine) == 1 and mine[0].data["cards"] == [str(c) for c in t.state.hands[seat]]
    assert [e.kind for e in events_for(t.events, None)] == ["round_start", "turn"]
    end, events = play_round(t.state)
    over = next(e for e in events if e.kind == "round_over")
    assert over.only is None and over.hidden_from == ()
    assert over.data["hands"] == [[str(c) for c in h] for h in end.hands]


# =========================================================================== the ready phase


def test_ready_phase_between_rounds() -> None:
    """After a round every seat says 'ready' (any order); the next round is dealt only when the
    last one does."""
    over = _round_over_state()
    assert over.awaiting() == (0, 1, 2)
    assert all(over.legal_actions(s) == (READY,) for s in range(3))
    assert over.view(0).to_wire()["phase"] == "round_over"
    t = act(over, 2, READY)
    assert kinds(t.events) == ["ready"] and t.events[0].data == {"seat": 2}
    state = t.state
    assert state.awaiting() == (0, 1)
    assert state.legal_actions(2) == ()
    assert state.phase == Phase.ROUND_OVER and state.round == 1
    state = act(state, 0, READY).state
    t = act(state, 1, READY)
    assert kinds(t.events)[:2] == ["ready", "round_start"]
    assert t.state.round == 2 and t.state.phase == Phase.PLAY
    # the order of the 'ready's does not matter
    other = over
    for seat in (1, 0, 2):
        other = act(other, seat, READY).state
    assert other.digest() == t.state.digest()


def test_ready_phase_survives_persistence() -> None:
    """A half-ready table is restored with the same seats still awaited."""
    state = act(_round_over_state(), 1, READY).state
    back = GAME.state_from_data(json.loads(json.dumps(state.to_data())))
    assert back == state and back.awaiting() == (0, 2)


# =========================================================================== persistence


def _states_in_every_phase() -> list[CrazyEightsState]:
    play_state = stacked(hands=["5H 2C", "3D"], discard="9H", stock="4S", draws=1, seed=3)
    choice = act(stacked("classic", hands=["2C 3C", "3D 4S"], discard="9H", stock="8D"), 0, DRAW).state
    optional = stacked(GAME.options("classic", drawn_card_play="optional"), hands=["2C", "3D"],
                       discard="9H", stock="KH")
    optional = act(optional, 0, DRAW).state  # holds a drawn card
    over = _round_over_state()
    end = act(stacked(hands=["10C", "5H"], discard="9H", turn=1, scores=(95, 0)), 1, play("5H")).state
    party = GAME.new_match(GAME.options("party"), 7, 5).state
    return [play_state, choice, optional, over, end, party]


def test_to_data_round_trip_in_every_phase() -> None:
    """to_data is plain JSON-able data and state_from_data rebuilds an equal state, in every
    phase (play, suit choice, a kept drawn card, between rounds, match over, two decks)."""
    for state in _states_in_every_phase():
        data = state.to_data()
        text = json.dumps(data)
        back = GAME.state_from_data(json.loads(text))
        assert back == state
        assert back.to_data() == data
        assert back.digest() == state.digest()
        for seat in (*range(state.seats), None):
            assert back.view(seat) == state.view(seat)
        for seat in range(state.seats):
            assert back.legal_actions(seat) == state.legal_actions(seat)


def test_state_from_data_refuses_foreign_records() -> None:
    data = stacked(hands=["5H", "3D"], discard="9H").to_data()
    with pytest.raises(ValueError):
        GAME.state_from_data({**data, "schema": 1})
    with pytest.raises(ValueError):
        GAME.state_from_data({**data, "game": "eighty_three"})


# =========================================================================== who leads and deals


@pytest.mark.parametrize(("preset", "seats"), [("house", 3), ("classic", 4), ("party", 6)])
def test_who_leads_and_deals_each_round(preset: str, seats: int) -> None:
    """house: seat 0 leads round 1, then the last winner (1.2); classic and party: a dealer,
    random at first, moves on each round and the next seat leads (2.2.5, 2.3.2)."""
    state = GAME.new_match(GAME.options(preset, match_mode="wins", rounds=50), seats, 17).state
    first_dealer = state.dealer
    winners = [2, 0, 1, 1, 2, 0]
    for r, winner in enumerate(winners, start=1):
        assert state.round == r
        if preset == "house":
            assert state.dealer is None
            assert state.leader == (0 if r == 1 else winners[r - 2])
        else:
            assert first_dealer is not None
            assert state.dealer == (first_dealer + r - 1) % seats
            assert state.leader == (state.dealer + 1) % seats
        if state.phase == Phase.PLAY:
            assert state.turn == state.leader
        state = act(rig(state, winner), winner, play("8S")).state
        assert state.last_round is not None and state.last_round.winner == winner
        state = ready_all(state).state
    assert state.wins == tuple(winners.count(s) for s in range(seats))


def test_kinds_cover_every_action() -> None:
    """The five action kinds and their wire names are the documented ones."""
    assert [k.wire for k in Kind] == ["play", "suit", "draw", "pass", "ready"]


@pytest.mark.parametrize("value", [100.0, True, "100"])
def test_options_refuse_values_of_the_wrong_type(value: object) -> None:
    """A float, a bool or a string is not a target, even where it compares equal to one."""
    with pytest.raises(BadOptionsError):
        CrazyEights().options("house", target=value)


# =========================================================================== the scenario builder is checked


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"hands": ["8H 3C", "8H 2D"], "discard": "9H"}, "twice"),
        ({"hands": ["3C", "2D"], "discard": "9H", "stock": "3C"}, "twice"),
        ({"hands": ["8H.2 3C", "2D"], "discard": "9H"}, "not in a house deck"),
        ({"hands": ["3C", "2D"], "discard": "9H", "draws": 7}, "draws"),
        ({"hands": ["3C", "2D"], "discard": "9H", "turn": 5}, "turn"),
        ({"hands": ["3C", "2D"], "discard": "9H", "turn": -1}, "turn"),
        ({"hands": ["3C", "2D"], "discard": "9H", "scores": (1, 2, 3)}, "scores"),
        ({"hands": ["3C", "ZZ"], "discard": "9H"}, "not one"),
        ({"hands": ["3C", "2D"], "discard": ""}, "top card"),
    ],
)
def test_stacked_refuses_a_layout_the_game_could_never_reach(kwargs: dict[str, object], word: str) -> None:
    """Issue 9: stacked() accepted 8H twice, a second-deck card in a one-deck preset, draws=7, turn=5."""
    with pytest.raises(BadOptionsError) as refused:
        GAME.stacked("house", **kwargs)  # type: ignore[arg-type]
    assert word in str(refused.value), str(refused.value)


def test_a_second_deck_card_is_fine_where_there_are_two_decks() -> None:
    hands = ["8H.2 3C", "2D", "4S", "5S", "6S", "7S"]
    state = GAME.stacked("party", hands=hands, discard="9H")
    assert str(state.hands[0][-1]) == "8H.2" or "8H.2" in [str(c) for c in state.hands[0]]


def test_new_match_with_options_that_are_not_options_is_a_typed_error() -> None:
    """Issue 9: new_match("house", ...) raised AttributeError; a preset name is fine, anything else refused."""
    assert GAME.new_match("house", 2, 7).state.options.preset == "house"
    with pytest.raises(BadOptionsError):
        GAME.new_match("euchre", 2, 7)
    with pytest.raises(BadOptionsError):
        GAME.new_match({"preset": "house"}, 2, 7)  # type: ignore[arg-type]
