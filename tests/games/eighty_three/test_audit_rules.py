"""Eighty-Three: an independent audit of the reference rules (docs/rules/eighty-three.md), the
corner cases the T-83-* tests and the rule-by-rule tests leave open.

Each scenario is a stacked deck (``GAME.stacked`` / ``play_state``) with the layout in a comment.
Hearts are trumps unless a test says otherwise: the left pedro is then 5D and the joker is a trump.
"""

from __future__ import annotations

from meja.games.eighty_three.rules import EightyThreeState

from .e83_helpers import (
    GAME,
    NAMES,
    PASS,
    READY,
    IllegalActionError,
    NotYourTurnError,
    Phase,
    act,
    bid,
    cards,
    kinds,
    play,
    play_state,
    rejected,
)

# --------------------------------------------------------------------------- helpers

# An auction deal (dealer seat 3, so seat 0 bids first); the kitty holds the rest.
AUCTION = [
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
]
KITTY = "KS KH KD KC JK"


def _auction(dealer: int = 3) -> EightyThreeState:
    return GAME.stacked(hands=AUCTION, kitty=KITTY, dealer=dealer)


def _last_trick(
    team0: str, team1: str, *, bid: int, bidder: int = 0, scores: tuple[int, int] = (0, 0), **opts: object
) -> EightyThreeState:
    """Hearts trumps; the last trick to play is AS 2S 3S 4S (seat 0 wins it, no points); the teams
    have already taken ``team0`` and ``team1`` (filled up with non-scoring cards to whole tricks)."""
    filler = [NAMES[c] for c in cards("6S 7S 8S 9S 10S JS QS KS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")]
    a, b = team0.split(), team1.split()
    size0 = 4 * max(1, -(-len(a) // 4))
    a += [filler.pop() for _ in range(size0 - len(a))]
    b += [filler.pop() for _ in range(20 - size0 - len(b))]
    return play_state(
        ["AS", "2S", "3S", "4S"],
        trump="H",
        bidder=bidder,
        bid=bid,
        leader=0,
        scores=scores,
        options=GAME.options(**opts),  # type: ignore[arg-type]
        taken=(" ".join(a), " ".join(b)),
    )


def _finish(state: EightyThreeState) -> EightyThreeState:
    for _ in range(4):
        state = act(state, state.turn, play(NAMES[state.hands[state.turn][0]])).state
    return state


def _trick(state: EightyThreeState, names: str) -> EightyThreeState:
    for name in names.split():
        state = act(state, state.turn, play(name)).state
    return state


# Hearts trumps: team 0 takes KH 30 + 10H 10 + 5H 5 = 45; team 1 JK 18 + 9H 9 + 5D 5 + 3H 3 + AH JH 2H 3 = 38.
MADE_45 = ("KH 10H 5H", "JK 9H 5D 3H AH JH 2H")


# =========================================================================== 4.5 the auction


def test_audit_4_5_5_the_forced_dealer_may_bid_83_and_ends_the_auction() -> None:
    """4.5.5 with 4.5.4: three passes with no bid; the dealer must bid, any of 30-83 (no pass);
    a bid of 83 ends the auction and the dealer takes the kitty."""
    state = _auction()
    for seat in (0, 1, 2):
        state = act(state, seat, PASS).state
    assert state.turn == 3
    legal = state.legal_actions(3)
    assert PASS not in legal and bid(30) in legal and bid(83) in legal and len(legal) == 54
    rejected(state, 3, PASS, IllegalActionError)
    t = act(state, 3, bid(83))
    assert t.state.phase == Phase.TRUMP and t.state.bidder == 3 and t.state.bid == 83
    assert len(t.state.hands[3]) == 17 and t.state.kitty == ()


def test_audit_4_5_4_a_bid_then_three_passes_ends_it_without_asking_the_bidder_again() -> None:
    """4.5.4: the auction ends when three players have passed; the dealer is not forced once a bid
    stands (4.5.5 only applies with no bid), and the bidder is not asked again."""
    state = _auction()
    state = act(state, 0, bid(30)).state
    for seat in (1, 2):
        state = act(state, seat, PASS).state
    assert state.turn == 3 and PASS in state.legal_actions(3)  # the dealer may pass: a bid stands
    t = act(state, 3, PASS)
    assert t.state.phase == Phase.TRUMP and t.state.bidder == 0 and t.state.bid == 30
    assert kinds(t.events)[:2] == ["pass", "contract"]


def test_audit_4_5_2_the_first_bid_83_ends_it_before_anyone_else_speaks() -> None:
    """4.5.4 [D]: a bid of 83 cannot be exceeded, so the auction ends at once, even as the first call."""
    state = _auction(dealer=1)  # seat 2 bids first
    assert state.turn == 2
    t = act(state, 2, bid(83))
    assert t.state.phase == Phase.TRUMP and t.state.bidder == 2 and t.state.turn == 2
    for seat in (0, 1, 3):
        rejected(t.state, seat, PASS, NotYourTurnError, "action/not_your_turn")


def test_audit_4_5_3_a_passed_seat_is_skipped_while_the_others_outbid() -> None:
    """4.5.3: a pass is final; play skips that seat while the others keep outbidding (partners too)."""
    state = _auction()
    state = act(state, 0, bid(30)).state
    state = act(state, 1, PASS).state
    state = act(state, 2, bid(31)).state  # the partner of seat 0 outbids it (4.5.2)
    state = act(state, 3, bid(32)).state
    assert state.turn == 0  # seat 1 passed: not asked again
    state = act(state, 0, bid(33)).state
    assert state.turn == 2  # seat 1 skipped
    state = act(state, 2, PASS).state
    assert state.turn == 3
    t = act(state, 3, PASS)
    assert t.state.bidder == 0 and t.state.bid == 33 and t.state.phase == Phase.TRUMP


# =========================================================================== 4.7 tricks


def test_audit_4_7_3_a_joker_lead_is_a_trump_lead_and_loses_to_any_trump() -> None:
    """4.7.3 with 4.3.2-4.3.3: the joker led is a trump led (each must play a trump if able), and
    being the lowest trump it loses to the 2 of trumps."""
    # seat 0: JK 9C          <- leads the joker
    # seat 1: 2H AS          (a trump: must play 2H)
    # seat 2: AC KC          (no trump: anything)
    # seat 3: 5D QS          (5D is the left pedro, a trump: must play it)
    state = play_state(["JK 9C", "2H AS", "AC KC", "5D QS"], trump="H")
    state = act(state, 0, play("JK")).state
    assert state.legal_actions(1) == (play("2H"),)
    rejected(state, 1, play("AS"), IllegalActionError)
    state = act(state, 1, play("2H")).state
    assert set(state.legal_actions(2)) == {play("AC"), play("KC")}
    state = act(state, 2, play("AC")).state
    assert state.legal_actions(3) == (play("5D"),)
    state = act(state, 3, play("5D")).state
    assert state.last_winner == 3  # 5D (left pedro) > 2H > JK


def test_audit_4_7_3_a_left_pedro_lead_is_a_trump_lead() -> None:
    """4.3.5 with 4.7.3: the left pedro led is a trump lead, not a diamond lead: a player holding
    diamonds and a trump must play the trump; a diamond does not follow."""
    # seat 0: 5D 9C          <- leads 5D (hearts trumps)
    # seat 1: 9D 3H          (3H: a trump must be played; 9D is no follow)
    # seat 2: KD QD          (no trump: anything)
    # seat 3: 4H 2S
    state = play_state(["5D 9C", "9D 3H", "KD QD", "4H 2S"], trump="H")
    state = act(state, 0, play("5D")).state
    assert state.legal_actions(1) == (play("3H"),)
    state = _trick(state, "3H KD 4H")
    assert state.last_winner == 0  # 5D is above 4H and 3H (4.3.3)


def test_audit_4_7_5_no_trump_played_a_higher_card_of_another_suit_does_not_win() -> None:
    """4.7.5, 4.3.6: with no trump in the trick the highest card of the suit led wins; a void
    player's higher card of a third suit does not."""
    # seat 0: 9C 2S          <- leads 9C
    # seat 1: AS 3S          (void in clubs, no trump: throws AS)
    # seat 2: 10C 4S         (follows with 10C: the winner)
    # seat 3: AD 5S          (void, throws AD)
    state = play_state(["9C 2S", "AS 3S", "10C 4S", "AD 6S"], trump="H")
    state = _trick(state, "9C AS 10C AD")
    assert state.last_winner == 2 and state.turn == 2


def test_audit_4_7_5_the_highest_trump_wins_whoever_plays_it() -> None:
    """4.7.5: on a plain lead, a later, higher trump beats an earlier trump and the ace led."""
    # seat 0: AC 2S          <- leads AC
    # seat 1: 2H 3S          (void in clubs: trumps with 2H)
    # seat 2: KC 4S
    # seat 3: 3H 6S          (void: overtrumps with 3H)
    state = play_state(["AC 2S", "2H 3S", "KC 4S", "3H 6S"], trump="H")
    state = _trick(state, "AC 2H KC 3H")
    assert state.last_winner == 3


def test_audit_4_7_3_trump_led_a_player_void_of_trumps_may_play_anything() -> None:
    """4.7.3: with no trump in hand, any card may follow a trump lead."""
    # seat 0: AH 2S          <- leads AH (hearts trumps)
    # seat 1: 2C 3S 9D
    state = play_state(["AH 2S 4S", "2C 3S 9D", "QC KC 5S", "AD 7S 6S"], trump="H")
    state = act(state, 0, play("AH")).state
    assert set(state.legal_actions(1)) == {play("2C"), play("3S"), play("9D")}


def test_audit_4_7_5_spades_trump_left_pedro_is_5c() -> None:
    """4.3.1 for a black trump suit: spades trumps make 5C a trump; a clubs lead with 5C as the
    only club leaves the player void in clubs (4.3.5)."""
    # seat 0: 9C 2H          <- leads 9C (spades trumps)
    # seat 1: 5C AH          (5C is a spade: void in clubs, may play AH)
    # seat 2: KC 4H
    # seat 3: 3D 6H
    state = play_state(["9C 2H", "5C AH", "KC 4H", "3D 6H"], trump="S")
    state = act(state, 0, play("9C")).state
    assert set(state.legal_actions(1)) == {play("5C"), play("AH")}
    state = _trick(state, "5C KC 3D")
    assert state.last_winner == 1  # the left pedro trumps the clubs


# =========================================================================== 4.8 scoring and the end


def test_audit_4_8_3_capturing_exactly_the_bid_makes_it() -> None:
    """4.8.3: captured >= bid makes the bid (equality included) and scores everything captured."""
    state = _finish(_last_trick(*MADE_45, bid=45))
    assert state.last_hand is not None and state.last_hand.made
    assert state.scores == (45, 38)
    state = _finish(_last_trick(*MADE_45, bid=46))
    assert state.last_hand is not None and not state.last_hand.made and state.scores == (-46, 38)


def test_audit_4_8_4_exactly_200_wins() -> None:
    """4.8.4: the first team to reach >= 200 wins: exactly 200 is enough."""
    state = _finish(_last_trick(*MADE_45, bid=30, scores=(155, 0)))
    assert state.scores == (200, 38) and state.phase == Phase.MATCH_OVER and state.winner == 0


def test_audit_4_8_4_defenders_reach_200_when_the_bidders_fail() -> None:
    """4.8.2 with 4.8.4: the defenders always score what they took, and reaching 200 that way wins
    (the default, ``must_win_on_own_bid`` off)."""
    state = _finish(_last_trick(*MADE_45, bid=50, scores=(100, 170)))
    assert state.scores == (50, 208) and state.phase == Phase.MATCH_OVER and state.winner == 1
    out = state.outcome()
    assert out is not None and out.winners == (1, 3)


def test_audit_4_10_7_must_win_on_own_bid_defenders_at_200_play_on() -> None:
    """4.8.4 option, 4.10.7: with ``must_win_on_own_bid`` the defenders' 200 reached on the bidders'
    failed bid wins nothing; the match goes on to another hand, dealt by the next seat."""
    state = _finish(_last_trick(*MADE_45, bid=50, scores=(100, 170), must_win_on_own_bid=True))
    assert state.scores == (50, 208) and state.phase == Phase.HAND_OVER and state.outcome() is None
    dealer = state.dealer
    for seat in range(4):
        state = act(state, seat, READY).state
    assert state.phase == Phase.AUCTION and state.dealer == (dealer + 1) % 4
    assert state.scores == (50, 208)


def test_audit_4_8_3_negative_totals_carry_over() -> None:
    """4.8.3 [D]: scores may go negative and the next hand starts from the negative total."""
    state = _finish(_last_trick(*MADE_45, bid=60, scores=(-20, 0)))
    assert state.scores == (-80, 38) and state.phase == Phase.HAND_OVER
    for seat in range(4):
        state = act(state, seat, READY).state
    assert state.scores == (-80, 38) and state.round == 2


# =========================================================================== 4.10.9 out of time


def _trump_phase(bidder_hand: str) -> EightyThreeState:
    """The trump phase with seat 0 the bidder holding ``bidder_hand`` (17 cards); the other 36
    cards are dealt 12 each to seats 1-3 in card order."""
    held = set(cards(bidder_hand))
    rest = [NAMES[c] for c in range(53) if c not in held]
    hands = [bidder_hand] + [" ".join(rest[12 * i : 12 * i + 12]) for i in range(3)]
    return GAME.stacked(hands=hands, phase="trump", bidder=0, bid=40)


def test_audit_4_10_9_a_forced_dealer_out_of_time_bids_30() -> None:
    """4.10.9: out of time in the auction a seat passes, but a dealer who must bid (4.5.5) bids 30."""
    state = _auction()
    for seat in (0, 1, 2):
        assert state.default_action(seat) == PASS
        state = act(state, seat, PASS).state
    assert state.default_action(3) == bid(30)


def test_audit_4_10_9_trump_out_of_time_ties_go_to_points_then_suit_order() -> None:
    """4.10.9: the suit that gives the most trumps; on a tie the most trump points; then the first of
    spades, hearts, diamonds, clubs."""
    # every suit gives 5 trumps (4 of the suit + the joker); hearts hold KH: 52 points against 23-27
    state = _trump_phase("JK KH 2H 3H 4H AS 2S 3S 4S 6D 7D 8D 9D 6C 7C 8C 9C")
    assert state.default_action(0) == GAME.decode_action({"kind": "trump", "suit": "H"})
    # every suit alike (5 trumps, 22 points): spades, the first in order
    state = _trump_phase("JK 2S 3S 4S 6S 2H 3H 4H 6H 2D 3D 4D 6D 2C 3C 4C 6C")
    assert state.default_action(0) == GAME.decode_action({"kind": "trump", "suit": "S"})
