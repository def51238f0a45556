"""Crazy Eights, preset ``house``: one test per rule of docs/rules/crazy-eights.md section 1, plus T-CE-01..15.

Each scenario is a stacked deck with the layout written out in a comment (see
``ce_helpers``); rules about the deal itself use deal codes.

Rules with no behaviour the rules engine can show, and where they are covered:
- 1.3.8 (the centre indicator shows the active suit by shape and word): browser
  client tests; the engine's part, the active suit in every view, is
  ``test_rule_1_3_2_*`` / ``test_rule_1_3_3_*`` here (``view().active_suit``).
- 1.9.1 (instant play in the browser, no download, no sign-up): browser/end-to-end tests.
- 1.9.4 (accessibility: ranks as text, four suit shapes): browser client tests
  (the accessible card name, ``Card.name``, is unit-tested in test_rules_cards.py).
- 1.4.7's second half ("bots pass automatically") and 1.5.3's visible pause: the
  bot and client tests; here only the engine's part (pass is an explicit action,
  the reshuffle event comes first) is tested.
- 1.7 restates 1.4.2, 1.4.5 and 1.3.7; 1.8 is bot strategy (tests/games/crazy_eights/bots).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from meja.games.crazy_eights import dealcode
from meja.games.crazy_eights.rules import penalty
from meja.rules import CARDS, Rng, events_for

from .ce_helpers import (
    DRAW,
    GAME,
    PASS,
    READY,
    BadDealCodeError,
    BadOptionsError,
    IllegalActionError,
    Kind,
    Move,
    NotYourTurnError,
    Phase,
    RoundOverError,
    Suit,
    act,
    all_cards,
    cards,
    deal,
    find_deal,
    kinds,
    play,
    play_round,
    played_cards,
    ready_all,
    rejected,
    rig,
    stacked,
)

ILLEGAL = "action/illegal"


def _starter_is_eight(state: object) -> bool:
    return state.top.rank == 8  # type: ignore[attr-defined, no-any-return]


# =========================================================================== T-CE-01..15


@pytest.mark.parametrize("seed", range(5))
def test_T_CE_01_deal_sizes(seed: int) -> None:
    """T-CE-01: 2 seats -> each hand 7, stock 37, discard 1; 3 seats -> each hand 5, stock 36."""
    two = GAME.new_match(GAME.options("house"), 2, seed).state
    assert [len(h) for h in two.hands] == [7, 7]
    assert len(two.stock) == 37
    assert len(two.discard) == 1
    three = GAME.new_match(GAME.options("house"), 3, seed).state
    assert [len(h) for h in three.hands] == [5, 5, 5]
    assert len(three.stock) == 36
    assert len(three.discard) == 1


def test_T_CE_02_legal_cards_on_6h() -> None:
    """T-CE-02: top 6H, hand [6S, KH, 8C, 9C] -> legal = {6S, KH, 8C}."""
    # seat 0: 6S KH 8C 9C   <- to act
    # seat 1: 2D
    # discard: 6H (top)     active: H
    state = stacked(hands=["6S KH 8C 9C", "2D"], discard="6H", stock="3D")
    assert played_cards(state) == set(cards("6S KH 8C"))
    rejected(state, 0, play("9C"), IllegalActionError, ILLEGAL)


def test_T_CE_03_named_suit_overrides_the_8s_print() -> None:
    """T-CE-03: top 8D played with named suit C; hand [5D, 5C, 8S] -> legal {5C, 8S}, 5D illegal."""
    # seat 0: 5D 5C 8S
    # seat 1: 8D 2H         <- to act: plays 8D naming clubs
    # discard: 9D (top)     active: D
    state = stacked(hands=["5D 5C 8S", "8D 2H"], discard="9D", stock="3H 4H", turn=1)
    state = act(state, 1, play("8D", "C")).state
    assert state.turn == 0
    assert state.top == cards("8D")[0]
    assert state.active_suit == Suit.CLUBS
    assert played_cards(state) == set(cards("5C 8S"))
    rejected(state, 0, play("5D"), IllegalActionError, ILLEGAL)


def test_T_CE_04_starter_8_keeps_its_suit_and_nobody_names_one() -> None:
    """T-CE-04: starter 8S -> activeSuit = S; no suit prompt is sent to anyone."""
    _, t = find_deal("house", 2, 0, lambda s: s.top == cards("8S")[0])
    state = t.state
    assert state.active_suit == Suit.SPADES
    assert state.phase == Phase.PLAY
    assert state.chooser is None
    assert "choose_suit" not in kinds(t.events)
    for seat in range(2):
        assert not any(m.kind == Kind.SUIT for m in state.legal_actions(seat))
        assert state.view(seat).active_suit == Suit.SPADES
    assert state.awaiting() == (0,)


def test_T_CE_05_play_8h_naming_hearts() -> None:
    """T-CE-05: playing 8H and naming hearts (its own suit) is accepted."""
    # seat 0: 8H 2C         <- to act
    # seat 1: 3D
    # discard: 5S (top)     active: S
    state = stacked(hands=["8H 2C", "3D"], discard="5S", stock="4D")
    assert play("8H", "H") in state.legal_actions(0)
    t = act(state, 0, play("8H", "H"))
    assert t.state.active_suit == Suit.HEARTS
    assert t.state.top == cards("8H")[0]
    assert t.events[0].kind == "play"
    assert t.events[0].data["suit"] == "H"


def test_T_CE_06_pass_only_after_three_draws() -> None:
    """T-CE-06: no legal card: Draw x3 -> Pass enabled; if a card is legal after 3 draws,
    Pass is rejected and a 4th draw is rejected."""
    # seat 0: 2H 3H         <- to act, nothing legal on 9C
    # seat 1: 4S
    # discard: 9C (top)     active: C
    # stock (next first): 4D 5D 6D 7D   (second case: 4D 5D 9S 7D, the 3rd draw is legal)
    stuck = stacked(hands=["2H 3H", "4S"], discard="9C", stock="4D 5D 6D 7D")
    state = stuck
    for n in range(3):
        assert PASS not in state.legal_actions(0), f"pass enabled after {n} draws"
        state = act(state, 0, DRAW).state
    assert state.draws == 3
    assert PASS in state.legal_actions(0)
    assert state.view(0).pass_blocked is None
    assert act(state, 0, PASS).state.turn == 1

    lucky = stacked(hands=["2H 3H", "4S"], discard="9C", stock="4D 5D 9S 7D")
    state = lucky
    for _ in range(3):
        state = act(state, 0, DRAW).state
    assert played_cards(state) == set(cards("9S"))
    rejected(state, 0, PASS, IllegalActionError, ILLEGAL)
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).pass_blocked == "has_playable"
    assert state.view(0).draw_blocked == "draw_limit"


def test_T_CE_07_voluntary_draws_but_never_pass_with_a_legal_card() -> None:
    """T-CE-07: holding a legal card, Draw is accepted while drawsThisTurn < 3; Pass is
    rejected at every point in the turn."""
    # seat 0: 5H 2C         <- to act; 5H is legal on 9H
    # seat 1: 3D
    # discard: 9H (top)     active: H
    # stock (next first): KC QC JC 10C
    state = stacked(hands=["5H 2C", "3D"], discard="9H", stock="KC QC JC 10C")
    for n in range(3):
        rejected(state, 0, PASS, IllegalActionError, ILLEGAL)
        assert DRAW in state.legal_actions(0), f"draw refused after {n} draws"
        state = act(state, 0, DRAW).state
        assert state.turn == 0
    rejected(state, 0, PASS, IllegalActionError, ILLEGAL)
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert [m.kind for m in state.legal_actions(0)] == [Kind.PLAY]


def test_T_CE_08_reshuffle_keeps_top_and_named_suit() -> None:
    """T-CE-08: stock empty, discard [..., X, Y, T], T = 8S with named suit D -> after the
    reshuffle discard = [T], activeSuit = D, stock = shuffled [..., X, Y]; the reshuffle
    event comes before the draw."""
    # seat 0: 2H 3H         <- to act, stuck on 8S/diamonds
    # seat 1: 4C 5C
    # discard: KC 9S 7C 8S (top)    active: D (named with the 8S)
    # stock: empty
    state = stacked(hands=["2H 3H", "4C 5C"], discard="KC 9S 7C 8S", active_suit="D", seed=99)
    t = act(state, 0, DRAW)
    after = t.state
    assert after.discard == cards("8S")
    assert after.active_suit == Suit.DIAMONDS
    drawn = set(after.hands[0]) - set(state.hands[0])
    assert Counter(list(after.stock) + list(drawn)) == Counter(cards("KC 9S 7C"))
    assert kinds(t.events) == ["reshuffle", "draw", "draw"]
    assert t.events[0].data["moved"] == 3


def test_T_CE_09_nothing_to_draw_pass_at_once() -> None:
    """T-CE-09: stock empty and discard = [T], no legal card -> Draw rejected, Pass accepted
    with drawsThisTurn = 0."""
    # seat 0: 2H 3H         <- to act, stuck on 9D
    # seat 1: 4C
    # discard: 9D (top)     stock: empty
    state = stacked(hands=["2H 3H", "4C"], discard="9D")
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).draw_blocked == "nothing_to_draw"
    assert state.draws == 0
    assert state.legal_actions(0) == (PASS,)
    t = act(state, 0, PASS)
    assert t.state.turn == 1
    assert kinds(t.events) == ["pass", "turn"]


def test_T_CE_10_penalty_values() -> None:
    """T-CE-10: penalty of [8x, Qx, Ax, 5x] = 66; penalty of [10x, 2x] = 12."""
    assert penalty(cards("8C QD AH 5S")) == 66
    assert penalty(cards("10H 2C")) == 12


def test_T_CE_11_match_end_lowest_total_wins_ties_share() -> None:
    """T-CE-11: totals [100, 20, 35] -> match over, winner seat 1; totals [120, 40, 40] ->
    co-winners seats 1 and 2."""
    # scores before: 90 20 30
    # seat 0: 10C           (10)
    # seat 1: 5H            <- to act, goes out
    # seat 2: 5C            (5)
    # discard: 9H (top)
    state = stacked(hands=["10C", "5H", "5C"], discard="9H", turn=1, scores=(90, 20, 30))
    end = act(state, 1, play("5H")).state
    assert end.scores == (100, 20, 35)
    assert end.phase == Phase.MATCH_OVER
    outcome = end.outcome()
    assert outcome is not None and outcome.winners == (1,)

    # scores before: 110 40 35; same cards -> 120 40 40
    state = stacked(hands=["10C", "5H", "5C"], discard="9H", turn=1, scores=(110, 40, 35))
    end = act(state, 1, play("5H")).state
    assert end.scores == (120, 40, 40)
    outcome = end.outcome()
    assert outcome is not None and outcome.winners == (1, 2)
    assert outcome.scores == (120, 40, 40)


def test_T_CE_12_round_2_is_led_by_round_1_winner() -> None:
    """T-CE-12: round 2 is led by the seat that won round 1."""
    # round 1, 3 seats
    # seat 0: 2D 3D
    # seat 1: 5H            <- to act, goes out
    # seat 2: 4D
    # discard: 9H (top)
    state = stacked(hands=["2D 3D", "5H", "4D"], discard="9H", turn=1, seed=7)
    state = act(state, 1, play("5H")).state
    assert state.phase == Phase.ROUND_OVER
    t = ready_all(state)
    assert t.state.round == 2
    assert t.state.leader == 1
    assert t.state.turn == 1
    assert t.state.awaiting() == (1,)
    start = next(e for e in t.events if e.kind == "round_start")
    assert start.data["leader"] == 1


def test_T_CE_13_last_card_8_ends_round_without_suit_prompt() -> None:
    """T-CE-13: playing a last card that is an 8 ends the round with no suit prompt."""
    # seat 0: 8C            <- to act, last card
    # seat 1: 2D 3D
    # discard: 5H (top)
    state = stacked(hands=["8C", "2D 3D"], discard="5H", stock="4S")
    assert state.legal_actions(0) == (play("8C"), DRAW)
    rejected(state, 0, play("8C", "H"), IllegalActionError, ILLEGAL)
    t = act(state, 0, play("8C"))
    assert t.state.phase == Phase.ROUND_OVER
    assert "choose_suit" not in kinds(t.events)
    assert "suit" not in t.events[0].data
    assert t.state.chooser is None
    assert t.state.last_round is not None and t.state.last_round.winner == 0
    assert t.state.last_round.penalties == (0, 5)


def test_T_CE_14_resume_after_two_draws() -> None:
    """T-CE-14 (rules level): the state after 2 draws, saved with to_data and rebuilt with
    state_from_data, has the same view, with draws_left == 1 and Draw still allowed."""
    # seat 0: 2H 3H         <- to act, draws twice
    # seat 1: 4S
    # discard: 9C (top)
    # stock (next first): 4D 5D 6D 7D
    state = stacked(hands=["2H 3H", "4S"], discard="9C", stock="4D 5D 6D 7D")
    state = act(act(state, 0, DRAW).state, 0, DRAW).state
    stored = json.loads(json.dumps(state.to_data()))  # as a store keeps it: plain data only
    back = GAME.state_from_data(stored)
    assert back.to_data() == state.to_data()
    assert back.digest() == state.digest()
    for seat in (0, 1, None):
        assert back.view(seat) == state.view(seat)
        assert back.view(seat).to_wire() == state.view(seat).to_wire()
    view = back.view(0)
    assert view.hand == state.hands[0]
    assert view.draws_taken == 2
    assert view.draws_left == 1
    assert view.draw_blocked is None
    assert DRAW in back.legal_actions(0)
    # and the rebuilt state goes on exactly as the original would
    assert act(back, 0, DRAW).state.digest() == act(state, 0, DRAW).state.digest()


def _draw_then_play(state: object, seat: int) -> Move:
    """Draw while allowed (to run the stock down fast), then play the first legal card, else pass."""
    legal = state.legal_actions(seat)  # type: ignore[attr-defined]
    if DRAW in legal:
        return DRAW
    return legal[0]  # type: ignore[no-any-return]


def test_T_CE_15_same_deal_code_same_deal_and_reshuffles() -> None:
    """T-CE-15: two tables from the same deal code -> identical hands, starter and stock;
    with identical moves, reshuffle orders are identical too."""
    code = dealcode.encode(dealcode.DealSpec("house", 3, 0, 123456789))
    a = GAME.new_match(GAME.options("house"), 3, 1, deal_code=code)
    b = GAME.new_match(GAME.options("house"), 3, 2, deal_code=code)  # another match seed
    assert a.state.hands == b.state.hands
    assert a.state.discard == b.state.discard
    assert a.state.stock == b.state.stock
    sa, sb = a.state, b.state
    reshuffles_a, reshuffles_b = [], []
    for _ in range(400):
        if sa.phase != Phase.PLAY or len(reshuffles_a) >= 2:
            break
        seat = sa.turn
        move = _draw_then_play(sa, seat)
        ta, tb = act(sa, seat, move), act(sb, seat, move)
        if "reshuffle" in kinds(ta.events):
            reshuffles_a.append((ta.events[0].data, ta.state.stock))
            reshuffles_b.append((tb.events[0].data, tb.state.stock))
        sa, sb = ta.state, tb.state
        assert sa.hands == sb.hands and sa.stock == sb.stock and sa.discard == sb.discard
    assert len(reshuffles_a) >= 1, "the scenario should reach a reshuffle"
    assert reshuffles_a == reshuffles_b


# =========================================================================== 1.1 table, deck, deal


def test_rule_1_1_1_two_or_three_seats() -> None:
    """1.1.1: the house table has 2 seats ("1 vs 1") or 3 ("1 vs 2"), nothing else."""
    options = GAME.options("house")
    assert GAME.seat_range(options) == range(2, 4)
    for seats in (1, 4, 8):
        with pytest.raises(BadOptionsError):
            GAME.new_match(options, seats, 1)
    with pytest.raises(BadOptionsError):
        stacked(hands=["2H", "3H", "4H", "5H"], discard="9C")
    assert GAME.new_match(options, 2, 1).state.seats == 2
    assert GAME.new_match(options, 3, 1).state.seats == 3


def test_rule_1_1_2_start_deals_round_one() -> None:
    """1.1.2: starting a table of the chosen size deals round 1 and the first turn begins."""
    t = GAME.new_match(GAME.options("house"), 3, 2024)
    state = t.state
    assert state.round == 1
    assert state.version == 0
    assert state.phase == Phase.PLAY
    assert kinds(t.events) == ["round_start", "hand", "hand", "hand", "turn"]
    assert t.events[0].data["hand_counts"] == [5, 5, 5]
    assert state.outcome() is None


@pytest.mark.parametrize("seats", [2, 3])
def test_rule_1_1_3_one_52_card_deck_no_jokers(seats: int) -> None:
    """1.1.3: one standard 52-card deck, no jokers: every card id 0..51 exactly once."""
    for seed in range(3):
        state = deal("house", seats, 0, seed).state
        assert sorted(all_cards(state)) == list(CARDS[:52])
        assert all(c.deck == 0 for c in all_cards(state))


def test_rule_1_1_4_seven_cards_at_two_seats_five_at_three() -> None:
    """1.1.4: 7 cards per player at a 2-seat table, 5 at a 3-seat table."""
    for seed in (0, 1, 2**40 - 1):
        assert [len(h) for h in deal("house", 2, 0, seed).state.hands] == [7, 7]
        assert [len(h) for h in deal("house", 3, 0, seed).state.hands] == [5, 5, 5]


def test_rule_1_1_5_stock_and_starter() -> None:
    """1.1.5: the rest is the stock (37 at 2 seats, 36 at 3); one card turned face up starts
    the discard pile: the starter, which everyone sees."""
    for seats, stock in ((2, 37), (3, 36)):
        t = deal("house", seats, 0, 31337)
        state = t.state
        assert len(state.stock) == stock
        assert len(state.discard) == 1
        start = t.events[0]
        assert start.kind == "round_start"
        assert start.only is None and start.hidden_from == ()  # public
        assert start.data["starter"] == str(state.top)
        assert start.data["stock_count"] == stock
        for seat in (*range(seats), None):
            assert state.view(seat).top == state.top
            assert state.view(seat).stock_count == stock


def test_rule_1_1_6_no_special_cards_direction_never_changes() -> None:
    """1.1.6: only the 8s are special: A, 2, 7, J, Q, K skip nobody, reverse nothing and make
    nobody draw; play always passes clockwise to the next seat."""
    # seat 0: AH 7H 3C      <- to act
    # seat 1: 2H KH 4C
    # seat 2: QH JH 5C
    # discard: 9H (top)
    # stock (next first): 4S 5S
    state = stacked(hands=["AH 7H 3C", "2H KH 4C", "QH JH 5C"], discard="9H", stock="4S 5S")
    sequence = [(0, "AH"), (1, "2H"), (2, "QH"), (0, "7H"), (1, "KH"), (2, "JH")]
    for seat, card in sequence:
        assert state.turn == seat
        others = [len(h) for s, h in enumerate(state.hands) if s != seat]
        t = act(state, seat, play(card))
        state = t.state
        assert state.turn == (seat + 1) % 3
        assert [len(h) for s, h in enumerate(state.hands) if s != seat] == others
        assert kinds(t.events) == ["play", "turn"]
    assert len(state.stock) == 2  # nobody was made to draw


# =========================================================================== 1.2 who leads


def test_rule_1_2_1_seat_0_leads_round_1() -> None:
    """1.2.1: seat 0 (the host's seat) leads round 1 of a match."""
    for seats in (2, 3):
        for seed in range(10):
            state = GAME.new_match(GAME.options("house"), seats, seed).state
            assert state.leader == 0
            assert state.turn == 0
            assert state.awaiting() == (0,)
            assert state.dealer is None


def test_rule_1_2_2_previous_winner_leads_later_rounds() -> None:
    """1.2.2: from round 2 the winner of the previous round plays first (rounds 2 and 3)."""
    # round 1, 2 seats
    # seat 0: 2D 3D
    # seat 1: 8S            <- to act, goes out
    # discard: 9H (top)
    state = stacked(hands=["2D 3D", "8S"], discard="9H", turn=1, seed=5)
    state = act(state, 1, play("8S")).state
    state = ready_all(state).state
    assert (state.round, state.leader, state.turn) == (2, 1, 1)
    # round 2 (its real deal re-laid out): seat 0 goes out
    state = act(rig(state, 0), 0, play("8S")).state
    assert state.last_round is not None and state.last_round.winner == 0
    state = ready_all(state).state
    assert (state.round, state.leader, state.turn) == (3, 0, 0)


def test_rule_1_2_3_turns_pass_to_the_next_seat() -> None:
    """1.2.3: play passes to the next seat; a turn is one play or one pass (draws are part of
    the turn and do not pass it)."""
    # seat 0: 5H 6H         <- to act: 5H
    # seat 1: 5C 6C         5C
    # seat 2: 4D 3D         stuck on 5C: 3 draws, then pass
    # discard: 5S (top)
    # stock (next first): 4S 7S 9S JS
    state = stacked(hands=["5H 6H", "5C 6C", "4D 3D"], discard="5S", stock="4S 7S 9S JS")
    state = act(state, 0, play("5H")).state
    assert state.turn == 1
    state = act(state, 1, play("5C")).state
    assert state.turn == 2
    # seat 2 holds 4D 3D on 5C: stuck
    for _ in range(3):
        state = act(state, 2, DRAW).state
        assert state.turn == 2
    assert played_cards(state) == set(), "the stacked stock should keep seat 2 stuck"
    state = act(state, 2, PASS).state
    assert state.turn == 0
    assert state.draws == 0


# =========================================================================== 1.3 legal plays and the 8


def test_rule_1_3_1_legal_card_is_an_8_or_the_suit_or_the_rank() -> None:
    """1.3.1: a card is legal if it is an 8, of the active suit, or of the top card's rank
    (seed example: on 6H any heart, any 6 and any 8)."""
    # seat 0: 6S 6D 2H KH 8C 8D 9C 5S   <- to act
    # seat 1: 3C
    # discard: 6H (top)     active: H
    state = stacked(hands=["6S 6D 2H KH 8C 8D 9C 5S", "3C"], discard="6H", stock="4C")
    assert played_cards(state) == set(cards("6S 6D 2H KH 8C 8D"))
    for bad in ("9C", "5S"):
        rejected(state, 0, play(bad), IllegalActionError, ILLEGAL)
    # every 8 can be played naming each of the four suits
    eights = [m for m in state.legal_actions(0) if m.card in cards("8C 8D")]
    assert len(eights) == 8
    assert {m.suit for m in eights} == set(Suit)


def test_rule_1_3_2_active_suit_is_the_top_cards_suit() -> None:
    """1.3.2: when the top card is not an 8, the active suit is the suit printed on it."""
    # seat 0: 9D 2C         <- to act: 9D on 9H (rank match) makes diamonds active
    # seat 1: 3H 4D
    # discard: 9H (top)     active: H
    state = stacked(hands=["9D 2C", "3H 4D"], discard="9H", stock="5S")
    state = act(state, 0, play("9D")).state
    assert state.active_suit == Suit.DIAMONDS
    assert state.view(1).active_suit == Suit.DIAMONDS
    assert played_cards(state) == set(cards("4D"))  # 3H no longer matches


def test_rule_1_3_3_named_suit_is_mandatory_and_replaces_the_print() -> None:
    """1.3.3: the player of an 8 must name a suit; from the next turn the named suit is the
    reference, not the 8's printed suit."""
    # seat 0: 8S 4H         <- to act
    # seat 1: 2S 3C
    # discard: 9S (top)     active: S
    state = stacked(hands=["8S 4H", "2S 3C"], discard="9S", stock="5D")
    assert play("8S") not in state.legal_actions(0)
    assert {m.suit for m in state.legal_actions(0) if m.card == cards("8S")[0]} == set(Suit)
    rejected(state, 0, play("8S"), IllegalActionError, ILLEGAL)
    t = act(state, 0, play("8S", "C"))
    state = t.state
    assert state.active_suit == Suit.CLUBS
    assert t.events[0].data["active_suit"] == "C"
    for seat in (0, 1, None):
        assert state.view(seat).active_suit == Suit.CLUBS
    assert played_cards(state) == set(cards("3C"))  # 2S matches the print only
    rejected(state, 1, play("2S"), IllegalActionError, ILLEGAL)


def test_rule_1_3_4_may_name_the_8s_own_suit() -> None:
    """1.3.4: the player may name the 8's own printed suit."""
    # seat 0: 8S 4H         <- to act
    # seat 1: 2S 3C
    # discard: 9D (top)     active: D
    state = stacked(hands=["8S 4H", "2S 3C"], discard="9D", stock="5D")
    state = act(state, 0, play("8S", "S")).state
    assert state.active_suit == Suit.SPADES
    assert played_cards(state) == set(cards("2S"))


def test_rule_1_3_5_an_8_may_cover_an_8_and_name_again() -> None:
    """1.3.5: other players may cover a played 8 with another 8 and name a suit again."""
    # seat 0: 8S 4C 5D      <- to act, names hearts
    # seat 1: 8D 2S         (no heart: covers with 8D naming clubs)
    # discard: 9S (top)
    state = stacked(hands=["8S 4C 5D", "8D 2S"], discard="9S", stock="7D")
    state = act(state, 0, play("8S", "H")).state
    assert played_cards(state) == set(cards("8D"))
    state = act(state, 1, play("8D", "C")).state
    assert state.top == cards("8D")[0]
    assert state.active_suit == Suit.CLUBS
    assert played_cards(state) == set(cards("4C"))


def test_rule_1_3_6_starter_8_keeps_its_printed_suit() -> None:
    """1.3.6: a starter 8's own suit is active and nobody names a suit (3 seats, any 8)."""
    _, t = find_deal("house", 3, 0, _starter_is_eight)
    state = t.state
    starter = state.top
    assert state.active_suit == starter.suit
    assert state.phase == Phase.PLAY and state.chooser is None
    assert "choose_suit" not in kinds(t.events)
    # the leader's legal plays are exactly its 8s and its cards of the starter's suit
    expected = {c for c in state.hands[0] if c.rank == 8 or c.suit == starter.suit}
    assert played_cards(state) == expected


def test_rule_1_3_7_going_out_on_an_8() -> None:
    """1.3.7: an 8 may be the last card; the round ends at once and no suit is named."""
    # seat 0: 2D
    # seat 1: 8H            <- to act, last card
    # seat 2: QS KS
    # discard: 4C (top)
    state = stacked(hands=["2D", "8H", "QS KS"], discard="4C", turn=1, stock="3S")
    assert [m for m in state.legal_actions(1) if m.kind == Kind.PLAY] == [play("8H")]
    t = act(state, 1, play("8H"))
    assert t.state.phase == Phase.ROUND_OVER
    assert kinds(t.events) == ["play", "round_over"]
    assert t.state.last_round is not None
    assert t.state.last_round.winner == 1
    assert t.state.last_round.penalties == (2, 0, 20)
    for seat in range(3):
        assert all(m.kind != Kind.SUIT for m in t.state.legal_actions(seat))


# =========================================================================== 1.4 play, draw, pass


def test_rule_1_4_1_play_exactly_one_card_ends_the_turn() -> None:
    """1.4.1: a play is exactly one legal card, and it ends the turn."""
    # seat 0: 5H 6H         <- to act
    # seat 1: 2C
    # discard: 9H (top)
    state = stacked(hands=["5H 6H", "2C"], discard="9H", stock="3S")
    t = act(state, 0, play("5H"))
    assert t.state.hands[0] == cards("6H")
    assert t.state.discard == cards("9H 5H")
    assert t.state.turn == 1
    rejected(t.state, 0, play("6H"), NotYourTurnError, "action/not_your_turn")


def test_rule_1_4_2_at_most_three_draws_with_a_counter() -> None:
    """1.4.2: at most 3 draws a turn; the Draw button shows how many are left."""
    # seat 0: 2H            <- to act, stuck
    # seat 1: 2C
    # discard: 9S (top)
    # stock (next first): 3D 4D 5D 6D
    state = stacked(hands=["2H", "2C"], discard="9S", stock="3D 4D 5D 6D")
    assert state.view(0).draws_left == 3
    for left in (2, 1, 0):
        t = act(state, 0, DRAW)
        state = t.state
        assert state.view(0).draws_left == left
        assert state.view(1).draws_left == left  # everyone sees the counter
        assert [e.data["draws_left"] for e in t.events if e.kind == "draw"] == [left, left]
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).draw_blocked == "draw_limit"
    assert state.view(0).to_wire()["max_draws"] == 3


def test_rule_1_4_3_voluntary_draw_with_a_legal_card() -> None:
    """1.4.3: drawing is allowed even with a legal card in hand, while draws remain."""
    # seat 0: 5H 8C 2C      <- to act; 5H and 8C are legal
    # seat 1: 3D
    # discard: 9H (top)
    # stock (next first): KC
    state = stacked(hands=["5H 8C 2C", "3D"], discard="9H", stock="KC 4S")
    assert DRAW in state.legal_actions(0)
    assert state.view(0).draw_blocked is None
    t = act(state, 0, DRAW)
    assert t.state.turn == 0
    assert t.state.hands[0] == tuple(sorted(cards("5H 8C 2C KC")))
    assert played_cards(t.state) == set(cards("5H 8C"))  # the 8 is kept for later


def test_rule_1_4_4_after_a_draw_any_legal_card_or_draw_again() -> None:
    """1.4.4: after a draw the player may play the drawn card, any other legal card, or draw
    again while draws remain."""
    # seat 0: 5H 2C         <- to act
    # seat 1: 3D
    # discard: 9H (top)
    # stock (next first): 3H 7S
    state = stacked(hands=["5H 2C", "3D"], discard="9H", stock="3H 7S")
    after = act(state, 0, DRAW).state  # draws 3H
    assert played_cards(after) == set(cards("5H 3H"))
    assert DRAW in after.legal_actions(0)
    assert act(after, 0, play("3H")).state.top == cards("3H")[0]  # the drawn card
    assert act(after, 0, play("5H")).state.top == cards("5H")[0]  # or an older one
    again = act(after, 0, DRAW).state  # draws 7S
    assert played_cards(again) == set(cards("5H 3H"))


def test_rule_1_4_5_pass_only_when_stuck_and_out_of_draws() -> None:
    """1.4.5: pass is legal only with (a) no legal card and (b) 3 draws taken or nothing to
    draw; drawing 3 does not end the turn, and a legal card must then be played."""
    # seat 0: 2H            <- to act, stuck on 9S
    # seat 1: 2C
    # discard: 9S (top)
    # stock (next first): 3D 4D 5D 6D
    state = stacked(hands=["2H", "2C"], discard="9S", stock="3D 4D 5D 6D")
    for _ in range(3):  # (b) fails: draws remain
        assert state.view(0).pass_blocked == "must_draw"
        rejected(state, 0, PASS, IllegalActionError, ILLEGAL)
        state = act(state, 0, DRAW).state
    assert state.turn == 0  # the third draw did not end the turn
    assert state.legal_actions(0) == (PASS,)
    # (a) fails: the third draw brings a legal card -> play it, no pass
    state = stacked(hands=["2H", "2C"], discard="9S", stock="3D 4D 5S 6D")
    for _ in range(3):
        state = act(state, 0, DRAW).state
    assert state.legal_actions(0) == (play("5S"),)
    assert state.view(0).pass_blocked == "has_playable"


def test_rule_1_4_6_turn_ends_only_by_play_or_pass() -> None:
    """1.4.6: with a legal card and no draws left (or nothing to draw) the only actions are plays."""
    # seat 0: 5H 2C         <- to act, 3 draws already taken
    # seat 1: 3D
    # discard: 9H (top)
    state = stacked(hands=["5H 2C", "3D"], discard="9H", stock="4S", draws=3)
    assert state.legal_actions(0) == (play("5H"),)
    # same hand, nothing to draw (stock empty, discard only the top), no draws taken
    state = stacked(hands=["5H 2C", "3D"], discard="9H")
    assert state.legal_actions(0) == (play("5H"),)
    assert state.view(0).draw_blocked == "nothing_to_draw"
    assert state.view(0).pass_blocked == "has_playable"


def test_rule_1_4_7_pass_is_an_explicit_action() -> None:
    """1.4.7: when pass becomes legal the turn waits for it: the seat must send it."""
    # seat 0: 2H            <- to act, stuck
    # seat 1: 2C
    # discard: 9S (top)
    # stock (next first): 3D 4D 5D
    state = stacked(hands=["2H", "2C"], discard="9S", stock="3D 4D 5D 6D")
    for _ in range(3):
        state = act(state, 0, DRAW).state
    assert state.turn == 0 and state.awaiting() == (0,)
    assert state.view(0).to_wire()["can_pass"] is True
    t = act(state, 0, PASS)
    assert kinds(t.events) == ["pass", "turn"]
    assert t.state.turn == 1


# =========================================================================== 1.5 empty stock


def test_rule_1_5_1_reshuffle_is_lazy() -> None:
    """1.5.1: the reshuffle happens when a draw is requested from an empty stock (and the
    discard holds more than one card), not when the stock runs out."""
    # seat 0: 2H            <- to act, stuck
    # seat 1: 2C
    # discard: 4S 7C 9S (top)
    # stock (next first): 3D
    state = stacked(hands=["2H", "2C"], discard="4S 7C 9S", stock="3D")
    t = act(state, 0, DRAW)  # takes the last stock card
    assert "reshuffle" not in kinds(t.events)
    assert t.state.stock == () and t.state.discard == cards("4S 7C 9S")
    t = act(t.state, 0, DRAW)  # now the discards beneath 9S become the stock
    assert kinds(t.events)[0] == "reshuffle"
    assert t.state.discard == cards("9S")
    assert len(t.state.stock) == 1


def test_rule_1_5_2_reshuffle_procedure() -> None:
    """1.5.2: the top card stays; every discard beneath it is shuffled into the new stock
    (with the round's reshuffle/1 stream); the active suit does not change."""
    # seat 0: 2H 3H         <- to act, stuck on clubs
    # seat 1: 2S
    # discard: 4D 5D 6D 7D 9D 8C (top)   active: C (print of the 8C)
    # stock: empty
    below = cards("4D 5D 6D 7D 9D")
    state = stacked(hands=["2H 3H", "2S"], discard="4D 5D 6D 7D 9D 8C", seed=4242)
    t = act(state, 0, DRAW)
    after = t.state
    assert after.discard == cards("8C")
    assert after.active_suit == Suit.CLUBS
    shuffled, _ = Rng(4242, "reshuffle/1").shuffle(below)
    (drawn,) = set(after.hands[0]) - set(state.hands[0])
    assert drawn == shuffled[0]  # the stock is the shuffled order, drawn from its front
    assert after.stock == tuple(reversed(shuffled[1:]))
    assert after.reshuffles == 1


def test_rule_1_5_3_reshuffle_event_to_every_seat_before_the_draw() -> None:
    """1.5.3: every seat (and spectators) gets a reshuffle event saying how many cards moved,
    before the drawn card; a second reshuffle in the round is counted as the second."""
    # seat 0: 2H 3H         <- to act, stuck
    # seat 1: 2S
    # seat 2: 3S
    # discard: 4D 5D 9C (top)
    state = stacked(hands=["2H 3H", "2S", "3S"], discard="4D 5D 9C", seed=1)
    t = act(state, 0, DRAW)
    for seat in (0, 1, 2, None):
        seen = events_for(t.events, seat)
        assert seen[0].kind == "reshuffle"
        assert seen[0].data == {"moved": 2, "count": 1}
        assert [e.kind for e in seen[1:]] == ["draw"]
    assert t.state.reshuffles == 1


def test_rule_1_5_3_second_reshuffle_uses_its_own_stream() -> None:
    """1.5.3 / 1.9.3: the k-th reshuffle of a round uses stream reshuffle/k of the round seed."""
    # seat 0: 2H            <- to act, stuck on 9C
    # seat 1: 9D KD QD 3S
    # discard: 4D 5D 9C (top)   stock: empty   round seed 77
    state = stacked(hands=["2H", "9D KD QD 3S"], discard="4D 5D 9C", seed=77)
    t = act(state, 0, DRAW)  # reshuffle 1: 4D 5D
    assert t.events[0].data == {"moved": 2, "count": 1}
    state = act(t.state, 0, DRAW).state  # the stock is empty again, discard = [9C]
    state = act(state, 0, PASS).state  # 2H 4D 5D on 9C: stuck, nothing to draw
    state = act(state, 1, play("9D")).state  # diamonds
    state = act(state, 0, play("4D")).state
    state = act(state, 1, play("KD")).state
    below = cards("9C 9D 4D")
    assert state.discard == (*below, cards("KD")[0]) and state.stock == ()
    first, _ = Rng(77, "reshuffle/1").shuffle(below)
    second, _ = Rng(77, "reshuffle/2").shuffle(below)
    assert first != second  # so the scenario tells the two streams apart
    t = act(state, 0, DRAW)  # seat 0 (2H 5D) draws voluntarily: reshuffle 2
    assert t.events[0].data == {"moved": 3, "count": 2}
    assert t.state.reshuffles == 2
    (drawn,) = set(t.state.hands[0]) - set(state.hands[0])
    assert (drawn, *reversed(t.state.stock)) == second


def test_rule_1_5_4_nothing_to_draw() -> None:
    """1.5.4: stock empty and discard only its top card: Draw is disabled; a stuck player may
    pass at once (even mid-turn), one holding a legal card must play it."""
    # seat 0: 2H 3H         <- to act, stuck on 9C
    # seat 1: 2S
    # discard: 9C (top)     stock (next first): 4D
    state = stacked(hands=["2H 3H", "2S"], discard="9C", stock="4D")
    state = act(state, 0, DRAW).state  # one draw, and now nothing is left to draw
    assert state.draws == 1
    assert state.view(0).draw_blocked == "nothing_to_draw"
    assert state.legal_actions(0) == (PASS,)
    state = act(state, 0, PASS).state
    # seat 1 with a legal card and nothing to draw: play only
    state2 = stacked(hands=["2H", "2C 3S"], discard="9C", turn=1)
    assert state2.legal_actions(1) == (play("2C"),)


def test_rule_1_5_5_no_deadlock_when_nothing_can_be_drawn() -> None:
    """1.5.5: with nothing to draw all 51 other cards are in hands, so at least three 8s are
    held and a full cycle of passes cannot happen: even if every seat passes whenever it may,
    someone plays within one round of turns (20 random splits, 2 and 3 seats)."""
    # seat 0..n-1: the 51 cards other than the top, split at random
    # discard: T (top)      stock: empty
    rng = Rng(1505, "test")
    for trial in range(20):
        seats = 2 + trial % 2
        deck, rng = rng.shuffle(CARDS[:52])
        top, rest = deck[0], deck[1:]
        hands = [" ".join(str(c) for c in rest[s::seats]) for s in range(seats)]
        state = stacked(hands=hands, discard=str(top), turn=trial % seats)
        assert sum(c.rank == 8 for h in state.hands for c in h) >= 3
        played = False
        for _ in range(seats):
            seat = state.turn
            legal = state.legal_actions(seat)
            assert DRAW not in legal  # 1.5.4: nothing to draw
            if PASS in legal:
                state = act(state, seat, PASS).state
            else:
                played = True
                break
        assert played, f"a full cycle of passes happened (trial {trial})"


# =========================================================================== 1.6 scoring


def test_rule_1_6_1_the_first_to_go_out_wins_and_scores_0() -> None:
    """1.6.1: the first player to empty their hand wins the round and scores 0."""
    # seat 0: KS QS
    # seat 1: 5H            <- to act, goes out
    # discard: 9H (top)     scores before: 7 3
    state = stacked(hands=["KS QS", "5H"], discard="9H", turn=1, scores=(7, 3))
    t = act(state, 1, play("5H"))
    result = t.state.last_round
    assert result is not None and result.winner == 1
    assert result.penalties == (20, 0)
    assert t.state.scores == (27, 3)
    over = next(e for e in t.events if e.kind == "round_over")
    assert over.data["winner"] == 1 and over.data["penalties"] == [20, 0]


def test_rule_1_6_2_card_values() -> None:
    """1.6.2: 8 = 50, J/Q/K = 10, A = 1, 2-7, 9, 10 their number; lower is better."""
    expected = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 50, 9: 9, 10: 10, 11: 10, 12: 10, 13: 10}
    for card in CARDS:
        assert penalty((card,)) == expected[card.rank], str(card)
    # seat 0: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS (127)
    # seat 1: 5H            <- to act, goes out
    # discard: 9H (top)
    state = stacked(hands=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "5H"], discard="9H", turn=1)
    result = act(state, 1, play("5H")).state.last_round
    assert result is not None and result.penalties == (127, 0)


def test_rule_1_6_3_worked_example_66() -> None:
    """1.6.3: a hand of 8, Q, A, 5 left at the end of a round scores 66."""
    # seat 0: 8D QS AC 5H
    # seat 1: 4H            <- to act, goes out
    # discard: 9H (top)
    state = stacked(hands=["8D QS AC 5H", "4H"], discard="9H", turn=1)
    end = act(state, 1, play("4H")).state
    assert end.last_round is not None and end.last_round.penalties == (66, 0)
    assert end.scores == (66, 0)


def test_rule_1_6_4_penalties_add_up_into_the_match_total() -> None:
    """1.6.4: round penalties add up into a match total, round after round."""
    # round 1, scores before 10 20 30
    # seat 0: 5H            <- to act, goes out
    # seat 1: 2C 3C         (5)
    # seat 2: KC            (10)
    # discard: 9H (top)
    state = stacked(hands=["5H", "2C 3C", "KC"], discard="9H", scores=(10, 20, 30), seed=3)
    state = act(state, 0, play("5H")).state
    assert state.scores == (10, 25, 40)
    state = ready_all(state).state
    assert state.scores == (10, 25, 40)
    state = act(rig(state, 2), 2, play("8S")).state  # the others hold 2D 3D (5 each)
    assert state.scores == (15, 30, 40)


def test_rule_1_6_5_match_ends_when_a_total_reaches_100() -> None:
    """1.6.5: after each round is scored, a total of 100 or more ends the match; 99 does not."""
    # seat 0: 9C            (9)
    # seat 1: 5H            <- to act, goes out
    # discard: 9H (top)
    below = act(stacked(hands=["9C", "5H"], discard="9H", turn=1, scores=(90, 0)), 1, play("5H"))
    assert below.state.scores == (99, 0)
    assert below.state.phase == Phase.ROUND_OVER
    assert below.state.outcome() is None
    assert "match_over" not in kinds(below.events)
    at = act(stacked(hands=["9C", "5H"], discard="9H", turn=1, scores=(91, 0)), 1, play("5H"))
    assert at.state.scores == (100, 0)
    assert at.state.phase == Phase.MATCH_OVER
    assert kinds(at.events)[-1] == "match_over"


def test_rule_1_6_6_lowest_total_wins_not_the_one_who_reached_100() -> None:
    """1.6.6: the lowest total wins the match, even if that player did not win the last round."""
    # scores before: 60 0 0
    # seat 0: 5H            <- to act, goes out (total 60)
    # seat 1: 8C 8D         (100 -> total 100)
    # seat 2: 5C            (5 -> total 5)
    # discard: 9H (top)
    state = stacked(hands=["5H", "8C 8D", "5C"], discard="9H", scores=(60, 0, 0))
    end = act(state, 0, play("5H")).state
    outcome = end.outcome()
    assert outcome is not None
    assert outcome.scores == (60, 100, 5)
    assert outcome.winners == (2,)


def test_rule_1_6_7_ties_are_co_winners_with_no_extra_round() -> None:
    """1.6.7: players sharing the lowest total are co-winners; no extra round is dealt."""
    # scores before: 20 10 95
    # seat 0: 5H            <- to act, goes out (total 20)
    # seat 1: 10C           (10 -> total 20)
    # seat 2: 5C            (5 -> total 100)
    # discard: 9H (top)
    state = stacked(hands=["5H", "10C", "5C"], discard="9H", scores=(20, 10, 95))
    t = act(state, 0, play("5H"))
    end = t.state
    assert end.phase == Phase.MATCH_OVER
    assert end.winners == (0, 1)
    assert "round_start" not in kinds(t.events)
    match_over = t.events[-1]
    assert match_over.kind == "match_over" and match_over.data["winners"] == [0, 1]
    for seat in range(3):
        assert end.legal_actions(seat) == ()
    assert end.awaiting() == ()


# =========================================================================== 1.9 product features


def test_rule_1_9_2_exact_resume_mid_round() -> None:
    """1.9.2: hands, stock order, discard, active suit, turn, draws this turn, scores, round
    number and leader all survive to_data -> state_from_data, and play goes on identically."""
    # round 3, scores 12 40 7, seat 2 led; seat 0 to act after 1 draw, named suit H on 8C
    # seat 0: 2S 3S 4D
    # seat 1: 5C 6C
    # seat 2: 7D
    # discard: 5D 8C (top)  active: H
    # stock (next first): JS QS KS
    state = stacked(
        hands=["2S 3S 4D", "5C 6C", "7D"],
        discard="5D 8C",
        stock="JS QS KS",
        active_suit="H",
        turn=0,
        draws=1,
        scores=(12, 40, 7),
        round=3,
        seed=555,
    )
    back = GAME.state_from_data(json.loads(json.dumps(state.to_data())))
    assert back == state
    assert back.hands == state.hands
    assert back.stock == state.stock
    assert back.discard == state.discard
    assert back.active_suit == Suit.HEARTS
    assert (back.turn, back.draws, back.round, back.scores, back.leader) == (0, 1, 3, (12, 40, 7), 0)
    assert back.view(0).draws_left == 2
    for move in (DRAW, DRAW):
        state, back = act(state, 0, move).state, act(back, 0, move).state
        assert back.digest() == state.digest()


def test_rule_1_9_3_a_deal_code_fixes_hands_starter_and_stock() -> None:
    """1.9.3: the same code gives the same deal: the deck is shuffled with stream "deal" of the
    code's seed, the card after the hands is the starter and the rest is the stock in order."""
    code = dealcode.encode(dealcode.DealSpec("house", 2, 0, 987654321))
    state = GAME.new_match(GAME.options("house"), 2, 42, deal_code=code).state
    deck, _ = Rng(987654321, "deal").shuffle(CARDS[:52])
    assert state.top == deck[14]
    assert state.stock == tuple(reversed(deck[15:]))  # stock[-1] is drawn next
    assert {c for h in state.hands for c in h} == set(deck[:14])
    assert state.deal_code == code
    again = GAME.new_match(GAME.options("house"), 2, 43, deal_code=code).state
    assert again.hands == state.hands and again.stock == state.stock


def test_rule_1_9_3_deal_goes_clockwise_from_the_leader() -> None:
    """1.9.3 (deal layout, crazy_eights._deal): cards go out one at a time clockwise from the
    leader, so the leader holds shuffled cards 0, n, 2n... and seat leader+1 cards 1, n+1...
    (regression: before c7d473b the hands were rotated twice for a leader other than 0)."""
    for leader in range(3):
        code = dealcode.encode(dealcode.DealSpec("house", 3, leader, 777))
        state = GAME.new_match(GAME.options("house"), 3, 1, deal_code=code).state
        deck, _ = Rng(777, "deal").shuffle(CARDS[:52])
        for offset in range(3):
            seat = (leader + offset) % 3
            assert set(state.hands[seat]) == set(deck[offset:15:3]), (leader, seat)


def test_rule_1_9_3_reshuffles_and_bots_use_derived_streams() -> None:
    """1.9.3: reshuffle k uses a stream derived from (seed, k) and bots a stream derived from
    (seed, seat), so identical moves give identical outcomes; a bot's stream does not reveal
    the seed."""
    code, t = find_deal("house", 2, 0, lambda s: True)
    state = t.state
    same = GAME.new_match(GAME.options("house"), 2, 99, deal_code=code).state
    assert state.bot_rng(0) == same.bot_rng(0)
    assert state.bot_rng(0) != state.bot_rng(1)
    assert state.bot_rng(0).seed != state.seed
    assert state.bot_rng(0).randbelow(1000) == same.bot_rng(0).randbelow(1000)


def test_rule_1_9_3_deal_code_is_secret_until_the_round_ends() -> None:
    """1.9.3: the code rebuilds every hand: it is in no view or event while the round is in
    progress, and is revealed to all with the round's result."""
    code = dealcode.encode(dealcode.DealSpec("house", 2, 0, 2468))
    t = GAME.new_match(GAME.options("house"), 2, 5, deal_code=code)
    state, events = play_round(t.state)
    end = kinds(events).index("round_over")
    during = list(t.events) + events[:end]
    for secret in (code, code.replace("-", "")):
        assert all(secret not in json.dumps(e.data) for e in during)
        assert all(secret not in json.dumps(s.view(x).to_wire()) for s in (t.state,) for x in (0, 1))
    assert t.state.view(0).deal_code is None and t.state.view(None).deal_code is None
    over = next(e for e in events if e.kind == "round_over")
    assert over.data["deal_code"] == code and over.only is None
    for seat in (0, 1, None):
        assert state.view(seat).deal_code == code
        assert state.view(seat).last_round is not None


def test_rule_1_9_3_deal_link_first_round_only() -> None:
    """1.9.3: a deal link fixes round 1 only; later rounds are random (from the match seed), and
    round 1's penalty points are shown at its end for comparison."""
    code = dealcode.encode(dealcode.DealSpec("house", 2, 0, 13579))
    options = GAME.options("house", target=1000)  # keep the match going past round 1
    a = GAME.new_match(options, 2, 1, deal_code=code).state
    b = GAME.new_match(options, 2, 2, deal_code=code).state
    a_end, _ = play_round(a)
    b_end, _ = play_round(b)
    assert a_end.last_round == b_end.last_round  # same deal, same moves: same penalty points
    assert a_end.last_round is not None
    assert a_end.view(0).to_wire()["last_round"]["penalties"] == list(a_end.last_round.penalties)
    a2, b2 = ready_all(a_end).state, ready_all(b_end).state
    assert a2.round == b2.round == 2
    assert a2.seed != b2.seed  # different match seeds: a different round 2
    assert a2.hands != b2.hands


def test_rule_1_9_3_bad_or_mismatched_deal_codes_are_refused() -> None:
    """1.9.3: a mistyped code or a code for another preset/table size does not open a table."""
    code = dealcode.encode(dealcode.DealSpec("house", 2, 0, 1))
    with pytest.raises(BadOptionsError):
        GAME.new_match(GAME.options("house"), 3, 1, deal_code=code)
    with pytest.raises(BadOptionsError):
        GAME.new_match(GAME.options("classic"), 2, 1, deal_code=code)
    typo = code[:-1] + ("0" if code[-1] != "0" else "1")
    with pytest.raises(BadDealCodeError):
        GAME.new_match(GAME.options("house"), 2, 1, deal_code=typo)


def test_rule_1_6_7_nothing_is_accepted_after_the_match() -> None:
    """1.6.7: no extra round: once the match is over every action, even 'ready', is refused."""
    # scores before: 95 0
    # seat 0: 10C
    # seat 1: 5H            <- to act, goes out; seat 0 reaches 105
    # discard: 9H (top)
    state = stacked(hands=["10C", "5H"], discard="9H", turn=1, scores=(95, 0))
    end = act(state, 1, play("5H")).state
    assert end.phase == Phase.MATCH_OVER
    for seat in (0, 1):
        for move in (READY, DRAW, PASS, play("10C")):
            rejected(end, seat, move, RoundOverError, "action/round_over")
