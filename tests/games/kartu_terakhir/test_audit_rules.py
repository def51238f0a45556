"""Kartu Terakhir: an independent audit of the reference rules (docs/rules/kartu-terakhir.md), the
corner cases the T-KT-* tests and the rule-by-rule tests leave open: draws that need the stock
rebuilt in the middle of a penalty or a challenge, going out on an action card, the first
turn's colour, the match to 500 at its edge, calls and catches around penalties.

Each scenario is a stacked deck with the layout in a comment (see ``kt_helpers``).
"""

from __future__ import annotations

from meja.rules import IllegalActionError

from .kt_helpers import (
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    READY,
    TAKE,
    Kind,
    Phase,
    act,
    hand,
    kinds,
    of_kind,
    play,
    rejected,
    stacked,
    timed,
)

ILLEGAL = "action/illegal"
STACKING = {"stacking": True}


def plays(state, seat):  # type: ignore[no-untyped-def]
    """The cards ``seat`` may play now, by name (each once)."""
    return sorted({a.card for a in state.legal_actions(seat) if a.kind == Kind.PLAY})


# =========================================================================== 3.3.5 a rebuilt stock mid-draw


def test_audit_3_3_5_stock_rebuilt_in_the_middle_of_a_stacked_penalty() -> None:
    """3.3.5 with 3.7 stacking 2: a pile of 8 taken with 3 cards in the stock: the 3 come first,
    then the cards under the top are shuffled into a stock and the other 5 come from it; the top
    card and the active colour stay; the taker loses its turn."""
    # stacking on, pending 8 (RD2 BD2 WD4 named green)
    # seat 0: R1 R2
    # seat 1: B1 B2          <- to act: takes the pile
    # seat 2: G1 G2
    # discard: Y3 Y4 Y5 Y6 Y7 Y8 RD2 BD2 WD4 (top)  active: G
    # stock (next first): R3 R4 R5
    state = stacked(
        STACKING,
        hands=["R1 R2", "B1 B2", "G1 G2"],
        discard="Y3 Y4 Y5 Y6 Y7 Y8 RD2 BD2 WD4",
        colour="G",
        pending=8,
        turn=1,
        stock="R3 R4 R5",
    )
    t = act(state, 1, TAKE)
    assert kinds(t.events) == ["reshuffle", "draw", "draw", "turn"]
    assert of_kind(t.events, "reshuffle")[0].data["moved"] == 8
    assert len(t.state.hands[1]) == 10
    assert {"R3", "R4", "R5"} <= set(hand(t.state, 1))
    assert t.state.discard == (state.discard[-1],) and t.state.colour == 2  # WD4 stays, green stays
    assert len(t.state.stock) == 3 and t.state.turn == 2 and t.state.pending == 0


def test_audit_3_3_5_a_penalty_bigger_than_every_card_left_draws_what_exists() -> None:
    """3.3.5 [D]: a penalty due with both piles nearly spent draws what exists, and no more."""
    # stacking on, pending 8; stock R3 R4; under the top only Y3 RD2 BD2
    state = stacked(
        STACKING,
        hands=["R1 R2", "B1 B2", "G1 G2"],
        discard="Y3 RD2 BD2 WD4",
        colour="G",
        pending=8,
        turn=1,
        stock="R3 R4",
    )
    t = act(state, 1, TAKE)
    assert len(t.state.hands[1]) == 2 + 5
    assert len(t.state.stock) == 0 and len(t.state.discard) == 1 and t.state.turn == 2
    draw = of_kind(t.events, "draw", None)[0].data
    assert draw["count"] == 5 and draw["reason"] == "penalty"


def test_audit_3_5_5_an_honest_challenge_draws_six_across_a_rebuilt_stock() -> None:
    """3.5.5 with 3.3.5: the challenger's 6 come from the stock, then a rebuilt one; the WD4 and
    its named colour stay on top."""
    # seat 0: WD4 G1       <- plays WD4 naming blue: no yellow, honest
    # seat 1: B1 B2        (the challenger)
    # seat 2: G2
    # discard: Y9 Y8 Y7 Y6 Y5 (top)  active: Y
    # stock (next first): R1 R2
    state = stacked(hands=["WD4 G1", "B1 B2", "G2"], discard="Y9 Y8 Y7 Y6 Y5", stock="R1 R2")
    state = act(state, 0, play("WD4", "B")).state
    t = act(state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "honest"
    assert "reshuffle" in kinds(t.events)
    assert len(t.state.hands[1]) == 8 and t.state.turn == 2
    assert t.state.colour == 3 and len(t.state.discard) == 1  # blue, the WD4 alone on the pile


def test_audit_3_5_4_a_bluffer_with_nothing_left_to_draw_draws_what_exists() -> None:
    """3.5.4 with 3.3.5 [D]: the bluffer owes 4 but only 2 cards exist (Y1 in the stock, R7 under
    the WD4): it draws those 2; the challenger still plays its turn."""
    # seat 0: WD4 R1       <- plays WD4 naming green while holding red: a bluff
    # seat 1: G5 B2        (the challenger)
    # discard: R7 (top); stock: Y1
    state = stacked(hands=["WD4 R1", "G5 B2"], discard="R7", stock="Y1")
    state = act(state, 0, play("WD4", "G")).state
    t = act(state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
    assert sorted(hand(t.state, 0)) == ["R1", "R7", "Y1"] and len(t.state.hands[1]) == 2
    assert "reshuffle" in kinds(t.events) and not t.state.stock and len(t.state.discard) == 1
    assert t.state.turn == 1 and plays(t.state, 1) == ["G5"]


# =========================================================================== 3.3.1, 3.4 the first turn


def test_audit_3_4_a_wild_on_the_first_turn_names_the_colour() -> None:
    """3.4: a Wild played on the first turn (on the starter) names the next colour, any of four."""
    # seat 0: W R1 Y2      <- first turn, starter B5
    # seat 1: Y3 R4
    state = stacked(hands=["W R1 Y2", "Y3 R4"], discard="B5")
    assert {a.colour for a in state.legal_actions(0) if a.card == "W"} == {"R", "Y", "G", "B"}
    t = act(state, 0, play("W", "Y"))
    assert t.state.colour == 1 and t.state.turn == 1 and plays(t.state, 1) == ["Y3"]


def test_audit_3_5_3_a_first_turn_wd4_is_judged_on_the_starters_colour() -> None:
    """3.5.3: on the first turn the colour in force is the starter's: holding it is a bluff."""
    # seat 0: WD4 B1       <- first turn, starter B5: holds blue, a bluff
    # seat 1: R1 R2
    state = stacked(hands=["WD4 B1", "R1 R2"], discard="B5", stock="Y1 Y2 Y3 Y4")
    state = act(state, 0, play("WD4", "R")).state
    t = act(state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
    assert len(t.state.hands[0]) == 5 and t.state.turn == 1 and t.state.colour == 0


# =========================================================================== 3.6.4-3.6.5 going out


def test_audit_3_6_4_going_out_on_a_skip_ends_the_round_at_once() -> None:
    """3.6.4: going out on a Skip ends the round; nobody is skipped and the others' cards score."""
    # seat 0: RS           <- last card
    # seat 1: B9 (9)   seat 2: YR (20)
    state = stacked(hands=["RS", "B9", "YR"], discard="R2")
    t = act(state, 0, play("RS"))
    assert t.state.phase == Phase.MATCH_OVER
    assert "skip" not in kinds(t.events)
    over = of_kind(t.events, "round_over")[0].data
    assert over["winner"] == 0 and over["points"] == 29


def test_audit_3_6_4_going_out_on_a_reverse_at_two_seats() -> None:
    """3.6.4: a Reverse as the last card at two seats ends the round (no second turn)."""
    state = stacked(hands=["GR", "WD4 W"], discard="G2")
    t = act(state, 0, play("GR"))
    assert t.state.phase == Phase.MATCH_OVER
    assert of_kind(t.events, "round_over")[0].data["points"] == 100


def test_audit_3_6_5_out_on_a_draw_two_with_stacking_on_no_answer_offered() -> None:
    """3.6.5, 3.11.8: with stacking on, a Draw Two as the last card (no pile pending) still makes
    the next seat draw 2 at once: the round is over, no stacking answer is offered."""
    # stacking on
    # seat 0: RD2          <- last card
    # seat 1: BD2 (20)     would answer, but the round is over
    # stock (next first): Y1 Y2
    state = stacked(STACKING, hands=["RD2", "BD2"], discard="R5", stock="Y1 Y2")
    t = act(state, 0, play("RD2"))
    assert t.state.phase == Phase.MATCH_OVER
    assert sorted(hand(t.state, 1)) == ["BD2", "Y1", "Y2"]
    assert of_kind(t.events, "round_over")[0].data["points"] == 20 + 1 + 2
    assert t.state.legal_actions(1) == ()


def test_audit_3_6_5_out_on_a_draw_two_with_the_penalty_across_a_rebuilt_stock() -> None:
    """3.6.5 with 3.3.5: the going-out penalty is drawn across a rebuilt stock and scored."""
    # seat 0: RD2          <- last card
    # seat 1: B1
    # discard: G7 G8 R5 (top); stock: Y3
    state = stacked(hands=["RD2", "B1"], discard="G7 G8 R5", stock="Y3")
    t = act(state, 0, play("RD2"))
    assert "reshuffle" in kinds(t.events)
    assert len(t.state.hands[1]) == 3
    # B1, Y3 and one of G7 G8 R5 (the pile under RD2, reshuffled)
    third = [c for c in hand(t.state, 1) if c not in ("B1", "Y3")]
    assert len(third) == 1 and third[0] in ("G7", "G8", "R5")
    assert of_kind(t.events, "round_over")[0].data["points"] == 1 + 3 + int(third[0][1])


# =========================================================================== 3.6 calls and catches


def test_audit_3_6_1_a_call_made_facing_a_penalty_is_cancelled_by_taking_it() -> None:
    """3.6.1 (a) [D]: a call on one's own turn with 2 cards is cancelled when the turn ends with 2
    or more, here by taking a stacked penalty."""
    # stacking on, pending 2
    # seat 0: R1 R2
    # seat 1: B1 B2        <- to act: calls, then takes 2
    state = stacked(STACKING, hands=["R1 R2", "B1 B2"], discard="R9 RD2", pending=2, turn=1, stock="Y1 Y2")
    assert CALL in state.legal_actions(1)
    state = act(state, 1, CALL).state
    t = act(state, 1, TAKE)
    assert "call_cancelled" in kinds(t.events)
    assert t.state.called == -1 and len(t.state.hands[1]) == 4


def test_audit_3_6_1_a_call_before_a_draw_two_to_one_card_leaves_nothing_to_catch() -> None:
    """3.6.1 (a): a call before playing a Draw Two down to one card: no catch window opens, even
    while the victim's automatic draw waits (3.4)."""
    # seat 0: RD2 R1       <- calls, plays RD2
    # seat 1: B1 B2        (victim)
    # seat 2: G1 G2
    state = stacked(hands=["RD2 R1", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3")
    state = act(state, 0, CALL).state
    state = act(state, 0, play("RD2")).state
    assert state.window == -1 and state.phase == Phase.REACT
    for seat in (1, 2):
        assert CATCH not in state.legal_actions(seat)
    t = timed(state)
    assert len(t.state.hands[1]) == 4 and t.state.turn == 2


def test_audit_3_6_3_a_wd4_to_one_card_can_be_caught_before_the_victim_decides() -> None:
    """3.6.2-3.6.3: a WD4 that leaves one card (no call) opens the window: a catch before the
    victim's decision makes the target draw 2; the victim then still faces the WD4."""
    # seat 0: WD4 R1       <- plays WD4 (bluff: holds red), no call
    # seat 1: B1 B2        (victim)
    # seat 2: G1 G2        (catches)
    state = stacked(hands=["WD4 R1", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3 Y4 Y5 Y6 Y7")
    state = act(state, 0, play("WD4", "B")).state
    assert state.window == 0 and CATCH in state.legal_actions(2)
    state = act(state, 2, CATCH).state
    assert len(state.hands[0]) == 3 and state.window == -1
    assert state.turn == 1 and {TAKE, CHALLENGE} <= set(state.legal_actions(1))
    # the verdict is judged on the hand right after the WD4 (3.11.5): R1 -> a bluff
    t = act(state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
    assert len(t.state.hands[0]) == 7


def test_audit_3_6_3_a_challenge_closes_the_window() -> None:
    """3.6.3: the window closes at the next challenge."""
    state = stacked(hands=["WD4 G1", "B1 B2", "G2 G3"], discard="R9", stock="Y1 Y2 Y3 Y4 Y5 Y6")
    state = act(state, 0, play("WD4", "B")).state
    assert state.window == 0
    state = act(state, 1, CHALLENGE).state
    assert state.window == -1
    rejected(state, 2, CATCH, IllegalActionError, ILLEGAL)


# =========================================================================== 3.7 stacking limits


def test_audit_3_7_stacking_1_a_draw_two_is_no_answer_to_a_wd4_pile() -> None:
    """3.7 stacking 1: a pile topped by a WD4 (stacked on a Draw Two) is answered only by a WD4;
    no challenge once stacked (stacking 6); under mandatory stacking a seat holding only a Draw
    Two still takes the pile."""
    # stacking mandatory; pending 6 (RD2 + WD4 named blue)
    # seat 1: BD2 B1       <- to act: no answer
    options = {"stacking": True, "stacking_mandatory": True}
    state = stacked(
        options,
        hands=["R1 R2", "BD2 B1", "G1"],
        discard="R9 RD2 WD4",
        colour="B",
        pending=6,
        turn=1,
        stock="Y1 Y2 Y3 Y4 Y5 Y6",
    )
    assert plays(state, 1) == [] and TAKE in state.legal_actions(1)
    assert CHALLENGE not in state.legal_actions(1)
    t = act(state, 1, TAKE)
    assert len(t.state.hands[1]) == 8 and t.state.turn == 2


def test_audit_3_7_stacking_2_the_whole_pile_in_reverse_direction() -> None:
    """3.7 stacking 2 with 3.3.6: the pile goes on in the current direction (anticlockwise after a
    Reverse), and the seat after the taker plays next."""
    # stacking on, direction -1: seat 2 plays YD2 -> seat 1 answers GD2 -> seat 0 takes 4 -> seat 3
    state = stacked(
        STACKING, hands=["R1", "GD2 G5", "YD2 Y5", "B1"], discard="Y9", turn=2, direction=-1, stock="R2 R3 R4 R5"
    )
    state = act(state, 2, play("YD2")).state
    assert state.turn == 1 and state.pending == 2
    state = act(state, 1, play("GD2")).state
    assert state.turn == 0 and state.pending == 4
    t = act(state, 0, TAKE)
    assert len(t.state.hands[0]) == 5 and t.state.turn == 3


# =========================================================================== 3.8 scoring and the match


def test_audit_3_8_3_exactly_500_ends_the_match() -> None:
    """3.8.3: the match ends when a total reaches 500 (exactly 500 included)."""
    state = stacked({"match": "500"}, hands=["R3", "B9"], discard="R9", scores=(491, 0))
    t = act(state, 0, play("R3"))
    assert t.state.scores == (500, 0) and t.state.phase == Phase.MATCH_OVER
    assert t.state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_audit_3_2_3_in_a_match_to_500_the_deal_passes_left_and_its_left_begins() -> None:
    """3.2.3: each new round the deal passes to the left; the seat after the dealer begins,
    clockwise; 7 each and a number starter (3.2.1-3.2.2)."""
    state = stacked({"match": "500"}, hands=["R3", "B9", "G1"], discard="R9", dealer=1, turn=0)
    state = act(state, 0, play("R3")).state
    assert state.phase == Phase.ROUND_OVER
    for seat in range(3):
        state = act(state, seat, READY).state
    assert state.round == 2 and state.dealer == 2 and state.turn == 0 and state.direction == 1
    assert all(len(h) == 7 for h in state.hands)
    assert state.scores == (9 + 1, 0, 0)


def test_audit_3_8_2_the_winner_scores_every_other_hand() -> None:
    """3.8.2: the winner scores the cards of every other hand, all seats together."""
    # seat 1 goes out; seats 0, 2, 3 hold 0, Reverse + 9, Wild + Draw Two
    state = stacked(hands=["R0", "B2", "YR Y9", "W GD2"], discard="B5", turn=1)
    t = act(state, 1, play("B2"))
    over = of_kind(t.events, "round_over")[0].data
    assert over["points"] == 0 + 20 + 9 + 50 + 20 and t.state.scores == (0, 99, 0, 0)


def test_audit_3_3_4_a_drawn_wd4_may_be_played_and_then_challenged() -> None:
    """3.3.4 with 3.5.3: a drawn WD4 is playable; played while holding the colour in force, it is a
    bluff when challenged."""
    # seat 0: R1 R2        <- draws WD4, plays it naming green
    state = stacked(hands=["R1 R2", "B1 B2"], discard="R9", stock="WD4 Y1 Y2 Y3 Y4")
    state = act(state, 0, DRAW).state
    assert plays(state, 0) == ["WD4"]
    state = act(state, 0, play("WD4", "G")).state
    t = act(state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
