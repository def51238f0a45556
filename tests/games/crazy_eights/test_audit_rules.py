"""Crazy Eights: an independent audit of the reference rules (docs/rules/crazy-eights.md), the corner
cases the T-CE/T-VN/T-NO tests and the rule-by-rule tests leave open: every preset with each of
its host options, draws that need a reshuffle in the middle of a turn, the last card an 8 in the
presets, two-deck penalties, and the end of a match at its edges.

Each scenario is a stacked deck with the layout in a comment (see ``ce_helpers``).
"""

from __future__ import annotations

import pytest

from .ce_helpers import (
    DRAW,
    GAME,
    PASS,
    IllegalActionError,
    Kind,
    Phase,
    Suit,
    act,
    cards,
    find_deal,
    kinds,
    play,
    played_cards,
    ready_all,
    rejected,
    rig,
    stacked,
    suit,
)

ILLEGAL = "action/illegal"


# =========================================================================== house: draws and reshuffles


def test_audit_1_5_a_reshuffle_in_the_middle_of_a_turn_keeps_the_draw_count() -> None:
    """1.4.2 with 1.5.1-1.5.2: the first draw empties the stock; the second rebuilds it (the named
    suit stays) and counts as draw 2; a third is allowed, a fourth is not."""
    # seat 0: 2C 3C          <- to act, stuck on 8S named hearts
    # seat 1: 4D
    # discard: 9S 10S JS QS 8S (top)  active: H
    # stock (next first): KC
    state = stacked(hands=["2C 3C", "4D"], discard="9S 10S JS QS 8S", active_suit="H", stock="KC", seed=3)
    state = act(state, 0, DRAW).state
    assert state.draws == 1 and not state.stock
    t = act(state, 0, DRAW)
    assert kinds(t.events)[0] == "reshuffle" and t.events[0].data["moved"] == 4
    state = t.state
    assert state.draws == 2 and state.discard == cards("8S") and state.active_suit == Suit.HEARTS
    assert state.view(0).draws_left == 1
    state = act(state, 0, DRAW).state
    assert state.draws == 3
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert PASS in state.legal_actions(0)


def test_audit_1_5_4_nothing_left_after_one_draw_lets_the_seat_pass() -> None:
    """1.4.5 (b), 1.5.4: after one draw, with the stock empty and only the top card on the pile, a
    stuck seat may pass with draws left; a seat holding a legal card must play it."""
    # seat 0: 2C 3C          <- to act; the one stock card is 4C (no heart, no 9)
    # discard: 9H (top); stock: 4C
    state = stacked(hands=["2C 3C", "5D"], discard="9H", stock="4C")
    state = act(state, 0, DRAW).state
    assert state.draws == 1 and state.legal_actions(0) == (PASS,)
    assert state.view(0).draw_blocked == "nothing_to_draw"
    assert act(state, 0, PASS).state.turn == 1
    # a legal card with nothing to draw: play only, no pass
    state = stacked(hands=["2C 3H", "5D"], discard="9H")
    assert state.legal_actions(0) == (play("3H"),)


# =========================================================================== presets: end of round and match


@pytest.mark.parametrize("preset", ["classic", "party"])
def test_audit_2_1_the_last_card_an_8_ends_the_round_in_every_preset(preset: str) -> None:
    """2.1 "Last card may be an 8": yes in every preset; the round ends with no suit to name."""
    # seat 0: 8C             <- last card
    # seat 1: 2D 3D          (5 points)
    state = stacked(preset, hands=["8C", "2D 3D"], discard="9H")
    assert [m for m in state.legal_actions(0) if m.kind == Kind.PLAY] == [play("8C")]
    t = act(state, 0, play("8C"))
    assert t.state.phase == Phase.ROUND_OVER and "choose_suit" not in kinds(t.events)
    assert t.state.scores == (0, 5)


@pytest.mark.parametrize("preset", ["house", "classic", "party"])
def test_audit_1_6_5_exactly_the_target_ends_the_match_lowest_wins_in_every_preset(preset: str) -> None:
    """1.6.5-1.6.7 (house), 2.1 (classic: the same; party points mode: the same, D): a total of
    exactly 100 ends the match; the lowest total wins; ties at the lowest share the win."""
    # scores before: 90 30 30; seat 0 goes out; seat 1 holds 10C (-> 40), seat 2 holds KD (-> 40)
    state = stacked(preset, hands=["5H", "10C", "KD"], discard="9H", scores=(95, 30, 30))
    outcome = act(state, 0, play("5H")).state.outcome()
    assert outcome is None  # 95, 40, 40: no total reached 100 yet
    state = stacked(preset, hands=["5H", "10C", "KD"], discard="9H", scores=(95, 90, 30))
    end = act(state, 0, play("5H")).state
    assert end.scores == (95, 100, 40) and end.phase == Phase.MATCH_OVER
    assert end.outcome().winners == (2,)  # type: ignore[union-attr]
    state = stacked(preset, hands=["5H", "10C", "KD"], discard="9H", scores=(40, 90, 30))
    assert act(state, 0, play("5H")).state.outcome().winners == (0, 2)  # type: ignore[union-attr]


@pytest.mark.parametrize("preset", ["house", "classic", "party"])
def test_audit_2_3_5_every_preset_offers_wins_mode_and_a_target(preset: str) -> None:
    """The host form's options apply in every preset that offers them (options.INFO): wins mode for
    N rounds decides by round wins (ties share), and a changed target ends the points match."""
    offered = {spec.name for p in GAME.info.presets if p.name == preset for spec in p.options}
    assert {"match_mode", "target", "rounds"} <= offered
    options = GAME.options(preset, match_mode="wins", rounds=2)
    state = GAME.new_match(options, 2, 5).state
    for r, winner in enumerate((0, 1), start=1):
        state = act(rig(state, winner), winner, play("8S")).state
        if r < 2:
            assert state.phase == Phase.ROUND_OVER
            state = ready_all(state).state
    assert state.phase == Phase.MATCH_OVER and state.outcome().winners == (0, 1)  # type: ignore[union-attr]
    # target 20: 5 + 10 + 5 = 20 reaches it
    state = stacked(GAME.options(preset, target=20), hands=["5H", "5C 10C 5D"], discard="9H")
    end = act(state, 0, play("5H")).state
    assert end.phase == Phase.MATCH_OVER and end.outcome().winners == (0,)  # type: ignore[union-attr]


def test_audit_2_3_1_two_decks_duplicate_8s_each_cost_50() -> None:
    """2.3.1 with 2.3.5: with two decks (6+ seats) both copies of an 8 are in play and each is 50
    penalty points; an ace is 1 (2.1: party's A = 1, D)."""
    # party, 6 seats
    # seat 0: 5H             <- goes out
    # seat 1: 8H 8H.2        (two copies: 100)
    # seat 2: AS (1)   seats 3-5: 2D, 3D, 4D
    state = stacked("party", hands=["5H", "8H 8H.2", "AS", "2D", "3D", "4D"], discard="9H")
    assert len(set(state.hands[1])) == 2
    end = act(state, 0, play("5H")).state
    assert end.last_round is not None and end.last_round.penalties == (0, 100, 1, 2, 3, 4)
    assert end.phase == Phase.MATCH_OVER  # 100 reaches the target
    assert end.outcome().winners == (0,)  # type: ignore[union-attr]


# =========================================================================== classic


def test_audit_2_2_3_classic_forced_drawn_card_after_a_reshuffle() -> None:
    """2.2.3 with 2.1 (classic, empty stock): the one draw rebuilds the stock (the named suit stays)
    and a legal drawn card is still played at once."""
    # classic; seat 0: 2C 3C  <- stuck on 8S named hearts; stock empty
    # discard: 4H 8S (top)   active: H  -> the rebuilt stock is just 4H, which is legal
    state = stacked("classic", hands=["2C 3C", "5D 6D"], discard="4H 8S", active_suit="H")
    t = act(state, 0, DRAW)
    assert kinds(t.events)[:4] == ["reshuffle", "draw", "draw", "play"]
    assert t.state.discard == cards("8S 4H") and t.state.active_suit == Suit.HEARTS
    assert t.state.turn == 1 and t.state.hands[0] == cards("2C 3C")


def test_audit_2_2_3_classic_drawn_card_legal_by_rank_only_is_forced() -> None:
    """2.2.3: "if it fits": a drawn card matching the top card's rank (not the suit) is played."""
    # classic; seat 0: 2C 3C  <- stuck on 9H; stock: 9S
    state = stacked("classic", hands=["2C 3C", "5D 6D"], discard="9H", stock="9S 4D")
    t = act(state, 0, DRAW)
    assert t.state.discard == cards("9H 9S") and t.state.active_suit == Suit.SPADES and t.state.turn == 1


def test_audit_2_2_3_classic_optional_keeps_a_drawn_8_or_plays_it_naming_a_suit() -> None:
    """2.2.3 option ``drawn_card_play = optional``: a drawn 8 may be played (naming a suit) or kept
    (the turn ends); the cards held before the draw stay unplayable."""
    options = GAME.options("classic", drawn_card_play="optional")
    state = stacked(options, hands=["2C 3C", "5D 6D"], discard="9H", stock="8D")
    state = act(state, 0, DRAW).state
    assert state.drawn == cards("8D")[0]
    legal = state.legal_actions(0)
    assert {m.suit for m in legal if m.kind == Kind.PLAY} == set(Suit) and PASS in legal and DRAW not in legal
    assert played_cards(state) == set(cards("8D"))
    t = act(state, 0, play("8D", "C"))
    assert t.state.active_suit == Suit.CLUBS and t.state.turn == 1
    kept = act(state, 0, PASS).state
    assert kept.turn == 1 and cards("8D")[0] in kept.hands[0]


def test_audit_2_3_2_first_player_names_a_starter_8_then_leads() -> None:
    """2.3.2 option ``starter_eight_chooser = first_player``: the first player names the suit and
    then plays the first turn (no other seat acts in between)."""
    _, t = find_deal("party", 3, 1, lambda s: s.top.rank == 8, starter_eight_chooser="first_player")
    state = t.state
    assert state.phase == Phase.CHOOSE_SUIT and state.chooser == 1 and state.awaiting() == (1,)
    after = act(state, 1, suit("D")).state
    assert after.phase == Phase.PLAY and after.turn == 1 and after.active_suit == Suit.DIAMONDS
