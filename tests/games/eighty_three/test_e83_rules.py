"""Eighty-Three: T-83-01..11 and a stacked-deck scenario for every numbered rule of docs/rules/eighty-three.md 4.1-4.10
and docs/rules/README.md decisions 1, 2 and 8.

Each scenario lays the cards out with ``GAME.stacked`` (or ``play_state`` for
the tricks) and writes the hands in a comment. Rules about the deal itself
(4.2.1, 4.2.2, 4.10.1) use seeds and deal codes. Where a rule's test is an
acceptance test, its name says so: 4.3.1-4.3.3 are also T-83-05, 4.3.5 T-83-06,
4.7.3 T-83-07, 4.6.4 and 4.6.5 T-83-08, 4.8.2 and 4.8.3 T-83-09, 4.8.4 T-83-11.
Rules with no behaviour of their own:
- 4.0 (research status) and 4.2.3 (replaced by 4.10.1): nothing to test.
- 4.6.7 and T-83-10 (83 in every hand): also 1,000 seeded hands here, and every
  hand of the conformance runs (tests/games/eighty_three/invariants.py).
- 4.10.4-4.10.6 in depth (the refusals exact, any two accepted decisions valid
  together): test_e83_discard.py.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest
from meja.games.eighty_three import dealcode
from meja.games.eighty_three.rules import (
    DECK,
    POINT_TABLE,
    TRUMP_RANKING,
    EightyThreeState,
    auto_trim,
    decision_problems,
    is_trump,
    trick_winner,
    trump_power,
)
from meja.rules import Rng, events_for
from meja.rules.playout import random_any

from .e83_helpers import (
    AUTO,
    DONE,
    GAME,
    NAMES,
    PASS,
    READY,
    UNDO,
    Action,
    BadActionError,
    BadOptionsError,
    IllegalActionError,
    NotYourTurnError,
    Phase,
    RoundOverError,
    act,
    acts,
    bid,
    cards,
    discard,
    give,
    kinds,
    play,
    play_state,
    points,
    rejected,
    trump,
)
from .invariants import check_hand_result, modest

H, S, D, C = 1, 0, 2, 3

# --------------------------------------------------------------------------- deals used by several tests

# D1, hearts trumps, seat 0 the bidder (17 cards). Team 0 holds 11 trumps (8 + 3): seat 0 must give 2.
#   seat 0: AH KH QH JH 10H 9H 8H 7H | 2S 3S 4S 6S 7S 8S 9S 10S JS      (8 trumps)
#   seat 1: 4H 3H 2H JK | 8C 9C 10C JC QC KC AC 2D                       (4 trumps)
#   seat 2: 6H 5H 5D | QS KS AS 2C 3C 4C 5C 6C 7C                        (3 trumps)
#   seat 3: 3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S                         (0 trumps)
D1 = [
    "AH KH QH JH 10H 9H 8H 7H 2S 3S 4S 6S 7S 8S 9S 10S JS",
    "4H 3H 2H JK 8C 9C 10C JC QC KC AC 2D",
    "6H 5H 5D QS KS AS 2C 3C 4C 5C 6C 7C",
    "3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S",
]
# D2, hearts trumps, seat 0 the bidder. Team 0 holds 14 trumps (10 + 4): it sheds exactly 2.
#   seat 0: AH KH QH JH 10H 9H 8H 7H 6H 5H | 2S 3S 4S 6S 7S 8S 9S        (10 trumps)
#   seat 1: JK | 5C 6C 7C 8C 9C 10C JC QC KC AC 2D                       (1 trump)
#   seat 2: 5D 4H 3H 2H | 10S JS QS KS AS 2C 3C 4C                       (4 trumps)
#   seat 3: 3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S                         (0 trumps)
D2 = [
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 2S 3S 4S 6S 7S 8S 9S",
    "JK 5C 6C 7C 8C 9C 10C JC QC KC AC 2D",
    "5D 4H 3H 2H 10S JS QS KS AS 2C 3C 4C",
    "3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S",
]
# D3, hearts trumps, seat 0 the bidder. Team 0 holds 15 trumps (8 + 7); seat 2 holds 6 point trumps.
#   seat 0: AH JH 3H 2H QH 8H 6H 4H | 2S 3S 4S 6S 7S 8S 9S 10S JS        (8 trumps, 4 score)
#   seat 1: 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D                         (0 trumps)
#   seat 2: KH 10H 9H 5H 5D JK 7H | QS KS AS 2C 3C                       (7 trumps, 6 score)
#   seat 3: 3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S                         (0 trumps)
D3 = [
    "AH JH 3H 2H QH 8H 6H 4H 2S 3S 4S 6S 7S 8S 9S 10S JS",
    "4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D",
    "KH 10H 9H 5H 5D JK 7H QS KS AS 2C 3C",
    "3D 4D 6D 7D 8D 9D 10D JD QD KD AD 5S",
]
# AUCTION, an auction deal (dealer seat 3, so seat 0 bids first); the kitty holds the rest.
#   seat 0: AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS
#   seat 1: AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH
#   seat 2: AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD
#   seat 3: AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC
#   kitty:  KS KH KD KC JK
AUCTION = [
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
    "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH",
    "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD",
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC",
]
KITTY = "KS KH KD KC JK"


def auction(dealer: int = 3, **options: object) -> EightyThreeState:
    return GAME.stacked(GAME.options(**options), hands=AUCTION, kitty=KITTY, dealer=dealer)  # type: ignore[arg-type]


def discard_phase(deal: list[str], bidder: int = 0, bid_: int = 40, suit: str = "H") -> EightyThreeState:
    return GAME.stacked(hands=deal, phase="discard", bidder=bidder, bid=bid_, trump=suit)


def plains(state: EightyThreeState, seat: int) -> list[int]:
    return [c for c in state.hands[seat] if not is_trump(c, state.trump)]


def decide_auto(state: EightyThreeState, seats: tuple[int, ...] = (0, 1, 2, 3)) -> EightyThreeState:
    for s in seats:
        if state.phase in (Phase.DISCARD, Phase.TRIM) and s in state.awaiting():
            state = act(state, s, AUTO).state
    return state


# =========================================================================== T-83-01..11


def test_t_83_01_deck_hands_kitty_and_point_table() -> None:
    """T-83-01: deck 53; each hand 12; kitty 5; the point table sums to 83; exactly 10 cards score."""
    assert len(DECK) == 53 and len(set(DECK)) == 53 and "JK" in DECK
    assert GAME.deck(GAME.options(), 4) == DECK
    for seed in range(5):
        state = GAME.new_match("standard", 4, seed).state
        assert [len(h) for h in state.hands] == [12, 12, 12, 12]
        assert len(state.kitty) == 5
        assert sorted(c for h in state.hands for c in h) + sorted(state.kitty) != []
        assert Counter([*(c for h in state.hands for c in h), *state.kitty]) == Counter(range(53))
    assert sum(POINT_TABLE.values()) == 83
    assert len(POINT_TABLE) == 10
    for suit in range(4):
        scoring = [c for c in range(53) if points(c, suit)]
        assert len(scoring) == 10
        assert sum(points(c, suit) for c in range(53)) == 83


def test_t_83_02_auction_won_at_35_and_a_pass_is_final() -> None:
    """T-83-02: dealer 3: S0 30, S1 pass, S2 35, S3 pass, S0 pass -> S2 wins at 35; S1 may not bid again."""
    state = auction(dealer=3)
    assert state.turn == 0
    state = act(state, 0, bid(30)).state
    state = act(state, 1, PASS).state
    state = act(state, 2, bid(35)).state
    state = act(state, 3, PASS).state
    assert state.turn == 0  # S1 passed: skipped for good
    rejected(state, 1, bid(40), NotYourTurnError, "action/not_your_turn")
    t = act(state, 0, PASS)
    state = t.state
    assert state.phase == Phase.TRUMP
    assert (state.bidder, state.bid) == (2, 35)
    assert state.turn == 2
    assert "contract" in kinds(t.events)
    rejected(state, 1, bid(40), NotYourTurnError, "action/not_your_turn")


def test_t_83_03_the_dealer_must_bid_after_three_passes() -> None:
    """T-83-03: S0, S1 and S2 pass with no bid -> the dealer S3 must bid 30-83; its pass is rejected."""
    state = acts(auction(dealer=3), 0, [PASS])
    state = act(state, 1, PASS).state
    state = act(state, 2, PASS).state
    assert state.turn == 3
    legal = state.legal_actions(3)
    assert PASS not in legal
    assert legal == tuple(bid(v) for v in range(30, 84))
    message = rejected(state, 3, PASS, IllegalActionError)
    assert "dealer must bid" in message
    state = act(state, 3, bid(30)).state
    assert (state.phase, state.bidder, state.bid) == (Phase.TRUMP, 3, 30)


def test_t_83_04_a_bid_of_83_ends_the_auction_and_bad_bids_are_rejected() -> None:
    """T-83-04: 83 ends the auction at once; a bid <= the current one, < 30 or > 83 is rejected."""
    state = act(auction(dealer=3), 0, bid(40)).state
    rejected(state, 1, bid(40), IllegalActionError)  # not higher
    rejected(state, 1, bid(35), IllegalActionError)  # lower
    rejected(state, 1, Action(Action.bid(30).kind, 29), IllegalActionError)  # below 30, built by hand
    rejected(state, 1, Action(Action.bid(30).kind, 84), IllegalActionError)  # above 83
    for value in (29, 84, 0, -1, 30.0, "40", True):
        with pytest.raises(BadActionError):
            GAME.decode_action({"kind": "bid", "value": value})
    with pytest.raises(ValueError):
        Action.bid(29)
    t = act(state, 1, bid(83))
    assert t.state.phase == Phase.TRUMP and (t.state.bidder, t.state.bid) == (1, 83)
    assert kinds(t.events)[:2] == ["bid", "contract"]
    # and an opening 83 as well: nobody else calls
    t = act(auction(dealer=3), 0, bid(83))
    assert (t.state.phase, t.state.bidder, len(t.state.calls)) == (Phase.TRUMP, 0, 1)


def test_t_83_05_trumps_and_their_ranking_under_hearts() -> None:
    """T-83-05: hearts trump: 5D and the joker are trumps; ... 6H > 5H > 5D > 4H > 3H > 2H > JK;
    and the joker beats AS when spades are led and not trump."""
    for name in ("5D", "JK", "AH", "2H"):
        assert is_trump(cards(name)[0], H)
    for name in ("5C", "5S", "AD", "KS"):
        assert not is_trump(cards(name)[0], H)
    order = cards("6H 5H 5D 4H 3H 2H JK")
    powers = [trump_power(c, H) for c in order]
    assert powers == sorted(powers, reverse=True) and len(set(powers)) == len(powers)
    # the whole ranking of 4.3.3
    ranked = cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 5D 4H 3H 2H JK")
    assert [trump_power(c, H) for c in ranked] == list(range(15, 0, -1))
    assert TRUMP_RANKING[-1] == "JK" and TRUMP_RANKING.index("5") + 1 == TRUMP_RANKING.index("left 5")
    # The joker beats AS, spades led, hearts trumps (hands: 1 card each; the rest taken before):
    #   seat 0 (leads): AS     seat 1: JK     seat 2: 2S     seat 3: KS
    state = play_state(["AS", "JK", "2S", "KS"], trump="H")
    for seat, name in enumerate(["AS", "JK", "2S", "KS"]):
        t = act(state, seat, play(name))
        state = t.state
    assert state.last_winner == 1
    assert trick_winner([(0, cards("AS")[0]), (1, 52)], H) == 1


def test_t_83_06_the_left_pedro_is_not_a_diamond() -> None:
    """T-83-06: hearts trump, 9D led: a seat whose only diamond is 5D is void and may play anything."""
    #   seat 0 (leads): 9D 2S    seat 1: 5D 3C    seat 2: 3S 4C    seat 3: 6S 7S
    state = play_state(["9D 2S", "5D 3C", "3S 4C", "6S 7S"], trump="H")
    state = act(state, 0, play("9D")).state
    assert set(state.legal_actions(1)) == {play("5D"), play("3C")}
    state = act(state, 1, play("3C")).state  # a third suit: fine, it is void in diamonds
    # and 5D played on a diamond lead wins it as a trump
    state2 = play_state(["9D 2S", "5D 3C", "3S 4C", "6S 7S"], trump="H")
    state2 = act(state2, 0, play("9D")).state
    state2 = act(state2, 1, play("5D")).state
    state2 = act(state2, 2, play("3S")).state
    state2 = act(state2, 3, play("6S")).state
    assert state2.last_winner == 1


def test_t_83_07_on_a_trump_lead_a_trump_must_be_played() -> None:
    """T-83-07: trump led; a seat holding a trump plays a non-trump -> rejected."""
    #   seat 0 (leads): 7H 2S    seat 1: 2H AS    seat 2: 3S 4S    seat 3: 6S 7S
    state = play_state(["7H 2S", "2H AS", "3S 4S", "6S 7S"], trump="H")
    state = act(state, 0, play("7H")).state
    assert state.legal_actions(1) == (play("2H"),)
    message = rejected(state, 1, play("AS"), IllegalActionError)
    assert "must play a trump" in message
    # the left pedro and the joker led count as trumps led too
    for lead in ("5D", "JK"):
        state = play_state([f"{lead} 2S", "2H AS", "3S 4S", "6S 7S"], trump="H")
        state = act(state, 0, play(lead)).state
        assert state.legal_actions(1) == (play("2H"),)


def test_t_83_08_passing_excess_trumps_and_the_team_limit() -> None:
    """T-83-08: 8 trumps with a partner holding 3 -> must pass 2; a team with 14 trumps sheds exactly 2
    non-point trumps face up; a point trump discarded is rejected."""
    # D1: seat 0 holds 8 trumps, seat 2 holds 3 (team 11 <= 12).
    state = discard_phase(D1)
    rejected(state, 0, discard("8H"), IllegalActionError)  # no trump shed: the team keeps all 11
    rejected(state, 0, discard("KH"), IllegalActionError)  # a point trump, never
    for c in plains(state, 0):
        state = act(state, 0, discard(NAMES[c])).state
    assert DONE not in state.legal_actions(0)  # 8 cards left: it must give 2
    assert {a.kind for a in state.legal_actions(0)} == {give("8H").kind, UNDO.kind, AUTO.kind}
    state = act(state, 0, give("8H")).state
    assert DONE not in state.legal_actions(0)
    state = act(state, 0, give("7H")).state
    rejected(state, 0, give("QH"), IllegalActionError)  # not a third
    state = act(state, 0, DONE).state
    assert decision_problems(GAME_HAND(D1, 0), GAME_HAND(D1, 2), H, plains_of(D1[0]), cards("8H 7H")) == []
    # a decision that gives fewer is invalid whatever the rest
    assert decision_problems(GAME_HAND(D1, 0), GAME_HAND(D1, 2), H, [*plains_of(D1[0]), cards("7H")[0]], cards("8H"))

    # D2: team 0 holds 14 trumps (10 + 4): the team sheds exactly 2, face up, and never a point trump.
    state = discard_phase(D2)
    rejected(state, 0, discard("KH"), IllegalActionError)
    state = acts(state, 0, [discard("7H"), discard("6H")])
    message = rejected(state, 0, discard("8H"), IllegalActionError)  # a third trump: more than 14 - 12
    assert "more than its trumps over 12" in message
    for c in plains(state, 0):
        state = act(state, 0, discard(NAMES[c])).state
    state = acts(state, 0, [give("QH"), give("8H"), DONE])
    state = decide_auto(state, (1, 2, 3))
    assert state.phase == Phase.TRIM
    state = decide_auto(state, (2,))
    assert state.phase == Phase.PLAY
    shown = [c for s, c in state.shown]
    assert sorted(shown) == sorted(cards("7H 6H"))
    assert all(points(c, H) == 0 for c in shown)
    # the same deal arranged automatically: the excess goes to the partner, who trims 2 trumps
    state = decide_auto(discard_phase(D2))
    state = decide_auto(state)
    assert state.phase == Phase.PLAY
    assert len(state.shown) == 2 and all(points(c, H) == 0 and s in (0, 2) for s, c in state.shown)
    assert sum(is_trump(c, H) for s in (0, 2) for c in state.hands[s]) == 12


def GAME_HAND(deal: list[str], seat: int) -> tuple[int, ...]:
    return tuple(sorted(cards(deal[seat])))


def plains_of(text: str) -> list[int]:
    return [c for c in cards(text) if not is_trump(c, H)]


def _last_trick(team0: str, team1: str, *, bid: int, bidder: int = 0, scores: tuple[int, int] = (0, 0), **opts: object):  # type: ignore[no-untyped-def]
    """Hearts trumps, the last trick to play (AS 2S 3S 4S: seat 0 wins it, no points); the teams have
    taken ``team0`` and ``team1`` (filled with non-scoring cards to whole tricks)."""
    filler = [NAMES[c] for c in cards("6S 7S 8S 9S 10S JS QS KS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC")]
    a, b = team0.split(), team1.split()
    size0 = 4 * max(1, -(-len(a) // 4))
    size1 = 20 - size0
    assert size1 >= len(b)
    a += [filler.pop() for _ in range(size0 - len(a))]
    b += [filler.pop() for _ in range(size1 - len(b))]
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


def _finish(state: EightyThreeState) -> tuple[EightyThreeState, list]:  # type: ignore[type-arg]
    events: list = []  # type: ignore[type-arg]
    for _ in range(4):
        t = act(state, state.turn, play(NAMES[state.hands[state.turn][0]]))
        events += t.events
        state = t.state
    return state, events


# Captured points, hearts trumps: KH 30 + 10H 10 + 5H 5 = 45 and JK 18 + 9H 9 + 5D 5 + 3H 3 + AH JH 2H = 38.
MADE_45 = ("KH 10H 5H", "JK 9H 5D 3H AH JH 2H")


def test_t_83_09_scoring_a_made_and_a_failed_bid() -> None:
    """T-83-09: bid 40, captured 45 -> bidders +45, defenders +38; bid 50, captured 45 -> -50 and +38."""
    state, events = _finish(_last_trick(*MADE_45, bid=40))
    assert state.last_hand is not None
    assert state.last_hand.captured == (45, 38)
    assert state.last_hand.delta == (45, 38) and state.scores == (45, 38) and state.last_hand.made
    over = next(e for e in events if e.kind == "hand_over")
    assert over.data["captured"] == [45, 38] and over.data["delta"] == [45, 38]
    state, _ = _finish(_last_trick(*MADE_45, bid=50))
    assert state.last_hand is not None and not state.last_hand.made
    assert state.last_hand.delta == (-50, 38) and state.scores == (-50, 38)


def test_t_83_10_the_teams_points_add_up_to_83() -> None:
    """T-83-10 (a scenario; the next test checks 1,000 seeded hands): every hand totals 83."""
    for seed in range(20):
        state = GAME.new_match("standard", 4, seed).state
        while state.phase <= Phase.PLAY:
            seat = state.awaiting()[0]
            state = state.apply(seat, state.default_action(seat) or state.legal_actions(seat)[0]).state
        assert state.last_hand is not None and sum(state.last_hand.captured) == 83


def test_t_83_10_points_add_up_to_83_in_every_seeded_hand() -> None:
    """T-83-10 over 1,000 seeded hands (10,000 with ``MEJA_LONG=1``), uniformly random and ``modest``:
    recounted from the captured cards, and scored by 4.8."""
    rng = random.Random(8383)
    made = failed = 0
    for hand in range(10_000 if os.environ.get("MEJA_LONG") == "1" else 1_000):
        state = GAME.new_match("standard", 4, 10_000 + hand).state
        policy = random_any if hand % 2 else modest
        while state.phase <= Phase.PLAY:
            awaiting = state.awaiting()
            seat = awaiting[int(rng.random() * len(awaiting))]
            state = state.apply(seat, policy(state.legal_actions(seat), rng)).state
        check_hand_result(state)
        assert state.last_hand is not None
        made += state.last_hand.made
        failed += not state.last_hand.made
    assert made and failed  # both branches of 4.8.3 were scored


def test_t_83_11_reaching_200_and_who_wins() -> None:
    """T-83-11: [190, 150], A bids 30 and takes 40 -> A 230 wins (B 193); [195, 195], A bids 30 and takes
    35 -> 230, B takes 48 -> 243: both >= 200, the bidders A win; also with must_win_on_own_bid."""
    state, events = _finish(_last_trick("KH 10H", "JK 9H 5H 5D 3H AH JH 2H", bid=30, scores=(190, 150)))
    assert state.scores == (230, 193) and state.phase == Phase.MATCH_OVER
    out = state.outcome()
    assert out is not None and out.teams == (0,) and out.winners == (0, 2) and out.team_scores == (230, 193)
    assert kinds(events)[-2:] == ["hand_over", "match_over"]
    for must in (False, True):
        state, _ = _finish(
            _last_trick("KH 5H", "JK 10H 9H 5D 3H AH JH 2H", bid=30, scores=(195, 195), must_win_on_own_bid=must)
        )
        assert state.scores == (230, 243)
        out = state.outcome()
        assert out is not None and out.teams == (0,) and out.winners == (0, 2)


# =========================================================================== 4.1 players, objective, deck


def test_rule_4_1_1_partners_sit_opposite() -> None:
    assert GAME.teams(GAME.options(), 4) == ((0, 2), (1, 3))
    assert GAME.info.teams == "partners"
    assert GAME.seat_range(GAME.options()) == range(4, 5)
    with pytest.raises(BadOptionsError):
        GAME.new_match("standard", 3, 1)
    # a trick won by seat 2 counts for seat 0's team
    state = play_state(["2S", "3S", "AS", "4S"], trump="H")
    state, _ = _finish(state)
    assert state.last_winner == 2 and state.last_hand is not None


def test_rule_4_1_2_the_target_is_200() -> None:
    # [150, 0]: team 0 bids 30 and takes 45 -> 195: not yet; from [155, 0] -> 200: it wins
    state, _ = _finish(_last_trick(*MADE_45, bid=30, scores=(150, 0)))
    assert state.phase == Phase.HAND_OVER and state.scores == (195, 38)
    state, _ = _finish(_last_trick(*MADE_45, bid=30, scores=(155, 0)))
    assert state.phase == Phase.MATCH_OVER and state.scores == (200, 38)
    assert state.view(0).to_wire()["target"] == 200


def test_rule_4_1_3_bids_are_points_not_tricks() -> None:
    # The bidders took 1 trick of 6 (the last, with no points) yet 45 points: a bid of 45 is made.
    state, _ = _finish(_last_trick(*MADE_45, bid=45))
    assert state.last_hand is not None and state.last_hand.made and state.scores[0] == 45


def test_rule_4_1_4_and_decision_2_a_53_card_deck() -> None:
    assert len(GAME.deck(GAME.options(), 4)) == 53
    with pytest.raises(BadOptionsError):
        GAME.options_from_wire({"preset": "standard", "deck": "52"})


# =========================================================================== 4.2 dealing


def test_rule_4_2_1_the_first_dealer_is_random_and_the_deal_passes_left() -> None:
    dealers = {GAME.new_match("standard", 4, seed).state.dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = GAME.new_match("standard", 4, 7).state
    first = state.dealer
    for hand in range(3):
        assert state.dealer == (first + hand) % 4
        while state.phase <= Phase.PLAY:
            seat = state.awaiting()[0]
            state = state.apply(seat, state.default_action(seat) or state.legal_actions(seat)[0]).state
        if state.phase == Phase.MATCH_OVER:
            break
        for seat in range(4):
            state = act(state, seat, READY).state
        assert state.round == hand + 2


def test_rule_4_2_2_twelve_each_and_five_face_down() -> None:
    t = GAME.new_match("standard", 4, 3)
    state = t.state
    assert [len(h) for h in state.hands] == [12] * 4 and len(state.kitty) == 5
    start = next(e for e in t.events if e.kind == "hand_start")
    assert start.data["hand_counts"] == [12] * 4 and start.data["kitty_count"] == 5
    kitty = {NAMES[c] for c in state.kitty}
    for seat in (None, 0, 1, 2, 3):
        wire = state.view(seat).to_wire()
        assert wire["kitty_count"] == 5
        assert not kitty & set(_strings(wire))
        for e in events_for(t.events, seat):
            assert not kitty & set(_strings(e.data))


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list | tuple):
        return [s for v in obj for s in _strings(v)]
    return []


def test_rule_4_10_1_deal_four_at_a_time_from_the_dealers_left() -> None:
    code = dealcode.encode(dealcode.DealSpec(1, 987654321))
    state = GAME.new_match("standard", 4, 5, deal_code=code).state
    deck, _ = Rng(987654321, "deal").shuffle(range(53))
    order = [2, 3, 0, 1]  # dealer 1: seat 2 first
    for r in range(3):
        for i, seat in enumerate(order):
            packet = deck[(r * 4 + i) * 4 : (r * 4 + i) * 4 + 4]
            assert set(packet) <= set(state.hands[seat])
    assert sorted(deck[48:]) == list(state.kitty)
    assert state.dealer == 1 and state.turn == 2


# =========================================================================== 4.3 trumps and ranking


@pytest.mark.parametrize(("suit", "left"), [("S", "5C"), ("H", "5D"), ("D", "5H"), ("C", "5S")])
def test_rule_4_3_1_the_five_of_the_same_colour_is_a_trump(suit: str, left: str) -> None:
    t = "SHDC".index(suit)
    assert is_trump(cards(left)[0], t)
    trumps = [c for c in range(53) if is_trump(c, t)]
    assert len(trumps) == 15
    assert {NAMES[c] for c in trumps} == {
        f"{r}{suit}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    } | {left, "JK"}


def test_rule_4_3_2_the_joker_is_always_a_trump() -> None:
    assert all(is_trump(52, t) for t in range(4))


def test_rule_4_3_3_the_joker_is_the_lowest_trump_but_beats_plain_cards() -> None:
    # spades trumps; clubs led:  seat 0: AC   seat 1: JK   seat 2: 2S   seat 3: KC
    state = play_state(["AC", "JK", "2S", "KC"], trump="S")
    state, _ = _finish(state)
    assert state.last_winner == 2  # the 2 of trumps beats the joker; both beat AC
    state = play_state(["AC", "JK", "3C", "KC"], trump="S")
    state, _ = _finish(state)
    assert state.last_winner == 1


def test_rule_4_3_4_plain_suits_rank_ace_high() -> None:
    # hearts trumps; spades led, no trump played:  seat 0: 10S   seat 1: AS   seat 2: KS   seat 3: 5S
    state = play_state(["10S", "AS", "KS", "5S"], trump="H")
    state, _ = _finish(state)
    assert state.last_winner == 1
    assert trump_power(cards("AS")[0], H) > trump_power(cards("KS")[0], H) > trump_power(cards("2S")[0], H)


def test_rule_4_3_5_the_left_pedro_belongs_to_trumps_for_following() -> None:
    # hearts trumps; seat 0 leads 5D (a trump lead): seat 1 holding 2H must play it, not 9D
    #   seat 0: 5D 2S   seat 1: 9D 2H   seat 2: 3S 4S   seat 3: 6S 7S
    state = play_state(["5D 2S", "9D 2H", "3S 4S", "6S 7S"], trump="H")
    state = act(state, 0, play("5D")).state
    assert state.legal_actions(1) == (play("2H"),)
    # and on a diamond lead the 5D is no diamond: seat 1 holding 5D and 3C is void (T-83-06)


def test_rule_4_3_6_without_trumps_the_highest_of_the_suit_led_wins() -> None:
    # hearts trumps; 9C led; seat 2 throws AD (void in clubs): it cannot win
    #   seat 0: 9C   seat 1: 2C   seat 2: AD   seat 3: 10C
    state = play_state(["9C", "2C", "AD", "10C"], trump="H")
    state, _ = _finish(state)
    assert state.last_winner == 3


# =========================================================================== 4.4 points and decision 1


def test_rule_4_4_and_decision_1_the_point_table_is_one_table_of_data() -> None:
    assert POINT_TABLE == {"A": 1, "K": 30, "J": 1, "10": 10, "9": 9, "5": 5, "left 5": 5, "3": 3, "2": 1, "JK": 18}
    for t in range(4):
        for c in range(53):
            role = None
            if c == 52:
                role = "JK"
            elif is_trump(c, t):
                role = "left 5" if c // 13 != t else NAMES[c][:-1]
            assert points(c, t) == (POINT_TABLE.get(role, 0) if role else 0)  # only trumps score


def test_rule_4_4_the_two_of_trumps_goes_to_the_tricks_winner() -> None:
    # hearts trumps; seat 1 plays 2H and seat 2 wins the trick with 3H: the 2's point is team 0's
    #   seat 0: 4S (leads)   seat 1: 2H   seat 2: 3H   seat 3: 5S
    state = play_state(["4S", "2H", "3H", "5S"], trump="H")
    before = state.captured()
    state, events = _finish(state)
    trick = next(e for e in events if e.kind == "trick")
    assert trick.data["winner"] == 2 and trick.data["points"] == 4  # 2H 1 + 3H 3
    assert state.last_hand is not None
    assert state.last_hand.captured[0] - before[0] == 4


# =========================================================================== 4.5 bidding


def test_rule_4_5_1_bidding_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    for dealer in range(4):
        t = GAME.stacked(hands=AUCTION, kitty=KITTY, dealer=dealer)
        assert t.turn == (dealer + 1) % 4 and t.awaiting() == ((dealer + 1) % 4,)
        state = act(t, t.turn, bid(30)).state
        assert state.turn == (dealer + 2) % 4


def test_rule_4_5_2_bids_run_30_to_83_above_the_last_and_partners_may_outbid() -> None:
    state = auction(dealer=3)
    assert state.legal_actions(0) == (*(bid(v) for v in range(30, 84)), PASS)
    state = act(state, 0, bid(50)).state
    assert state.legal_actions(1)[0] == bid(51)
    state = act(state, 1, PASS).state
    state = act(state, 2, bid(51)).state  # seat 2 outbids its partner
    assert state.bidder == 2


def test_rule_4_5_3_and_4_10_2_a_pass_is_final() -> None:
    state = acts(auction(dealer=3), 0, [PASS])
    state = act(state, 1, bid(30)).state
    state = act(state, 2, bid(31)).state
    state = act(state, 3, bid(32)).state
    assert state.turn == 1  # seat 0 passed: skipped
    assert state.view(1).to_wire()["passed"] == [True, False, False, False]
    rejected(state, 0, bid(40), NotYourTurnError, "action/not_your_turn")


def test_rule_4_5_4_three_passes_end_the_auction() -> None:
    state = act(auction(dealer=0), 1, bid(30)).state
    state = act(state, 2, PASS).state
    state = act(state, 3, PASS).state
    assert state.phase == Phase.AUCTION and state.turn == 0
    t = act(state, 0, PASS)
    assert t.state.phase == Phase.TRUMP and t.state.bidder == 1
    assert kinds(t.events) == ["pass", "contract", "kitty", "kitty", "turn"]


def test_rule_4_5_5_a_hand_is_never_thrown_in() -> None:
    state = auction(dealer=1)
    for seat in (2, 3, 0):
        state = act(state, seat, PASS).state
    assert state.turn == 1 and state.legal_actions(1)[-1] == bid(83)
    assert state.default_action(1) == bid(30)


# =========================================================================== 4.6 kitty, trumps, discards


def test_rule_4_6_1_and_4_10_3_the_bidder_takes_the_kitty_then_names_trumps() -> None:
    state = act(auction(dealer=3), 0, bid(30)).state
    for seat in (1, 2, 3):
        t = act(state, seat, PASS)
        state = t.state
    assert state.phase == Phase.TRUMP and len(state.hands[0]) == 17 and state.kitty == ()
    assert set(cards(KITTY)) <= set(state.hands[0])
    mine = [e for e in events_for(t.events, 0) if e.kind == "kitty"]
    theirs = [e for e in events_for(t.events, 1) if e.kind == "kitty"]
    spectator = [e for e in events_for(t.events, None) if e.kind == "kitty"]
    assert mine[0].data == {"seat": 0, "cards": ["KS", "KH", "KD", "KC", "JK"]}
    assert theirs[0].data == {"seat": 0, "count": 5} and spectator == theirs
    assert state.legal_actions(0) == tuple(trump(s) for s in "SHDC")
    for seat in (1, 2, 3):
        assert state.legal_actions(seat) == ()
    t = act(state, 0, trump("C"))
    assert t.state.phase == Phase.DISCARD and t.state.trump == C
    assert kinds(t.events)[0] == "trump"


def test_rule_4_6_2_every_seat_discards_down_to_six() -> None:
    state = decide_auto(discard_phase(D1))
    state = decide_auto(state)
    assert state.phase == Phase.PLAY and [len(h) for h in state.hands] == [6] * 4


def test_rule_4_6_3_trumps_are_kept() -> None:
    # D1: seat 1 holds 4 trumps (4H 3H 2H JK): it may discard only its 8 non-trumps, and must keep 2 of them
    state = discard_phase(D1)
    legal = state.legal_actions(1)
    assert {a.arg for a in legal if a.kind == discard("2S").kind} == set(plains(state, 1))
    message = rejected(state, 1, discard("4H"), IllegalActionError)
    assert "every trump is kept" in message
    for name in ["8C", "9C", "10C", "JC", "QC", "KC"]:
        state = act(state, 1, discard(name)).state
    rejected(state, 1, discard("AC"), IllegalActionError)
    assert DONE in state.legal_actions(1)


def test_rule_4_6_4_excess_trumps_go_to_the_partner_face_down() -> None:
    state = discard_phase(D1)
    rejected(state, 0, give("2S"), IllegalActionError)  # only trumps are given
    rejected(state, 2, give("6H"), IllegalActionError)  # 3 trumps: nothing to give
    state = acts(state, 0, [give("8H"), give("7H")])
    t = act(state, 0, AUTO)  # auto replaces the steps: the same gives, by its own order
    state = t.state
    assert [e.kind for e in t.events] == ["arranged", "decided"]
    assert t.events[0].only == (0,)
    state = decide_auto(state)
    t_last = None
    state = discard_phase(D1)
    for seat in (0, 1, 2, 3):
        t_last = act(state, seat, AUTO)
        state = t_last.state
    assert t_last is not None and state.phase == Phase.TRIM
    exchange = next(e for e in t_last.events if e.kind == "exchange")
    assert exchange.data["passed"] == [2, 0, 0, 0] and exchange.only is None
    received = [e for e in t_last.events if e.kind == "received"]
    assert len(received) == 1 and received[0].only == (2,)
    gave = set(received[0].data["cards"])
    for seat in (None, 1, 3):
        assert not gave & set(_strings([e.data for e in events_for(t_last.events, seat)]))
        assert not gave & set(_strings(state.view(seat).to_wire()))
    assert set(state.view(2).to_wire()["received"]) == gave
    assert state.view(0).to_wire()["given"] == sorted(gave, key=NAMES.index)
    # the receiver trims back to 6, non-trumps first
    assert state.awaiting() == (2,)
    legal = state.legal_actions(2)
    assert all(not is_trump(a.arg, H) for a in legal if a.kind == discard("2S").kind)
    rejected(state, 2, discard("6H"), IllegalActionError)
    state = acts(state, 2, [discard(NAMES[plains(state, 2)[0]]), UNDO, AUTO])
    assert state.phase == Phase.PLAY and len(state.hands[2]) == 6


def test_rule_4_6_5_the_team_limit_sheds_face_up_and_never_a_point_trump() -> None:
    state = discard_phase(D2)
    t = None
    state = acts(state, 0, [discard("6H"), discard("QH")])
    for c in plains(state, 0):
        state = act(state, 0, discard(NAMES[c])).state
    assert give("KH") in state.legal_actions(0)  # the partner has room for 2: a point trump may go
    state = acts(state, 0, [give("8H"), give("7H"), DONE])
    for seat in (1, 2, 3):
        t = act(state, seat, AUTO)
        state = t.state
    assert t is not None
    exchange = next(e for e in t.events if e.kind == "exchange")
    assert exchange.data["shown"] == [{"seat": 0, "card": "6H"}, {"seat": 0, "card": "QH"}]
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat).to_wire()["shown"] == exchange.data["shown"]
    # the non-trumps went face down: seen by their discarder alone
    buried = {NAMES[c] for c in state.buried[0]}
    assert buried and set(state.view(0).to_wire()["discarded"]) == buried
    for seat in (None, 1, 2, 3):
        assert not buried & set(_strings(state.view(seat).to_wire()))


def test_rule_4_6_6_the_required_end_state() -> None:
    for deal in (D1, D2, D3):
        state = decide_auto(discard_phase(deal))
        state = decide_auto(state)
        assert state.phase == Phase.PLAY and state.end_state_problems() == []
    # D3: team 0 holds 15 trumps, 10 of them score: it keeps 12 trumps, every point trump, sheds 3
    state = decide_auto(decide_auto(discard_phase(D3)))
    held = [c for s in (0, 2) for c in state.hands[s] if is_trump(c, H)]
    assert len(held) == 12
    assert sum(1 for c in held if points(c, H)) == 10
    assert len(state.shown) == 3


def test_rule_4_6_7_every_point_card_is_played() -> None:
    state = decide_auto(decide_auto(discard_phase(D3)))
    while state.phase == Phase.PLAY:
        state = act(state, state.turn, state.legal_actions(state.turn)[0]).state
    assert state.last_hand is not None and sum(state.last_hand.captured) == 83


def test_rule_4_6_8_and_4_10_4_the_decisions_are_collected_at_once_then_applied() -> None:
    state = discard_phase(D1)
    assert state.awaiting() == (0, 1, 2, 3) and state.actors() == (0, 1, 2, 3)
    phase_v = state.version
    state = act(state, 3, discard("3D")).state  # any order
    state = act(state, 1, discard("8C")).state
    assert state.epoch(0) == phase_v and state.epoch(2) == phase_v  # others' steps leave 0 and 2 alone
    assert state.epoch(3) == phase_v + 1 and state.epoch(1) == phase_v + 2
    assert state.period() == discard_phase(D1).period()  # one clock for the phase
    # nothing is applied until the four have decided: public counts unchanged, steps private
    assert state.view(0).to_wire()["hand_counts"] == [17, 12, 12, 12]
    assert "3D" not in _strings(state.view(0).to_wire()) and "3D" in _strings(state.view(3).to_wire()["selected"])
    for seat in (0, 1, 2):
        state = act(state, seat, AUTO).state
    assert state.phase == Phase.DISCARD and state.awaiting() == (3,)
    rejected(state, 0, AUTO, NotYourTurnError, "action/not_your_turn")
    t = act(state, 3, AUTO)
    assert "exchange" in kinds(t.events)


def test_rule_4_10_4_every_refusal_of_the_list() -> None:
    # a point trump discarded (D1, KH)
    assert "never discarded" in rejected(discard_phase(D1), 0, discard("KH"), IllegalActionError)
    # any trump discarded while the team holds 12 or fewer (D1: 11)
    assert "every trump is kept" in rejected(discard_phase(D1), 0, discard("8H"), IllegalActionError)
    # the team discarding more than N - 12 (D2: 14, a third trump)
    state = acts(discard_phase(D2), 0, [discard("6H"), discard("7H")])
    assert "more than its trumps over 12" in rejected(state, 0, discard("8H"), IllegalActionError)
    # a trump discarded by a seat that would not otherwise hold more than 6 (D3: seat 0 holds 8;
    # after 2 gives it holds 6)
    state = acts(discard_phase(D3), 0, [give("QH"), give("8H")])
    assert "over 6" in rejected(state, 0, discard("6H"), IllegalActionError)
    # a give of a non-trump; from a seat holding 6 or fewer; of more than the excess (D1)
    assert "only trumps" in rejected(discard_phase(D1), 0, give("2S"), IllegalActionError)
    assert "6 or fewer" in rejected(discard_phase(D1), 2, give("5H"), IllegalActionError)
    state = acts(discard_phase(D1), 0, [give("8H"), give("7H")])
    assert "over 6" in rejected(state, 0, give("QH"), IllegalActionError)
    # a give after which the receiver could not trim (D3: seat 2 holds 7 trumps, 6 of them score, so it
    # may have to keep 6 scoring trumps: seat 0 may give it non-scoring trumps only)
    state = discard_phase(D3)
    assert state.view(0).to_wire()["partner_trumps"] == {"trumps": 7, "points": 6}
    assert "could then be unable to trim" in rejected(state, 0, give("AH"), IllegalActionError)
    assert give("QH") in state.legal_actions(0)
    # a decision that does not leave exactly 6 cards: no step below 6, no done above it
    state = acts(discard_phase(D1), 2, [discard(n) for n in ["QS", "KS", "AS", "2C", "3C", "4C"]])
    assert "down to 6 cards" in rejected(state, 2, discard("5C"), IllegalActionError)
    assert "down to 6" in rejected(acts(discard_phase(D1), 2, [discard("QS")]), 2, DONE, IllegalActionError)


def test_rule_4_10_4_the_server_checks_each_end_state() -> None:
    # every listed step keeps a valid end in reach: walking the first legal step always ends valid
    for deal in (D1, D2, D3):
        state = discard_phase(deal)
        for seat in range(4):
            while state.phase == Phase.DISCARD and not state.decided[seat]:
                legal = [a for a in state.legal_actions(seat) if a not in (AUTO, UNDO)]
                state = act(state, seat, legal[0]).state
        state = decide_auto(state)
        assert state.phase == Phase.PLAY and state.end_state_problems() == []


def test_rule_4_10_5_what_a_seat_knows_in_the_discard_phase() -> None:
    state = discard_phase(D3)
    for seat in range(4):
        partner = (seat + 2) % 4
        k = state.counts(seat)
        wire = state.view(seat).to_wire()
        assert wire["partner_trumps"] == {"trumps": k.partner_trumps, "points": k.partner_points}
        assert k.partner_trumps == sum(is_trump(c, H) for c in state.hands[partner])
    assert state.view(None).to_wire()["partner_trumps"] is None
    # the counts come as one event per seat, to that seat alone
    pre = GAME.stacked(hands=D3, phase="trump", bidder=0, bid=40)
    t = act(pre, 0, trump("H"))
    counts = [e for e in t.events if e.kind == "partner_trumps"]
    assert [e.only for e in counts] == [(0,), (1,), (2,), (3,)]
    assert counts[0].data == {"seat": 0, "partner": 2, "trumps": 7, "points": 6}


def test_rule_4_10_6_auto_arrange_is_the_documented_decision() -> None:
    # D2, seat 0: give the 4 excess trumps, non-point first (6H 7H 8H QH), discard its 7 non-trumps
    state = act(discard_phase(D2), 0, AUTO).state
    assert sorted(state.pending[0]) == sorted([*plains_of(D2[0]), *(c + 100 for c in cards("6H 7H 8H QH"))])
    # seat 2 (4 trumps): keeps them and its 2 highest non-trumps (AS, KS)
    state = act(state, 2, AUTO).state
    kept = [c for c in state.hands[2] if c not in state.pending[2]]
    assert sorted(kept) == sorted(cards("5D 4H 3H 2H AS KS"))
    state = decide_auto(state)
    # the trim: non-trumps first (AS KS), then non-point trumps, lowest first (4H, 6H)
    assert sorted(auto_trim(state.hands[2], H)) == sorted(cards("AS KS 4H 6H"))
    state = decide_auto(state)
    assert sorted(c for _, c in state.shown) == sorted(cards("4H 6H"))


def test_rule_4_10_7_must_win_on_own_bid() -> None:
    # the defenders reach 200 on a hand the bidders made: with the option they do not win
    for must, phase in ((False, Phase.MATCH_OVER), (True, Phase.HAND_OVER)):
        state, _ = _finish(_last_trick(*MADE_45, bid=40, scores=(0, 170), must_win_on_own_bid=must))
        assert state.scores == (45, 208) and state.phase == phase
    # with the option, bidders already above 200 win on a made bid of their own...
    state, _ = _finish(_last_trick(*MADE_45, bid=40, scores=(210, 230), must_win_on_own_bid=True))
    assert state.phase == Phase.MATCH_OVER and state.winner == 0
    # ...and not on a failed one, nor do the defenders, both above 200
    state, _ = _finish(_last_trick(*MADE_45, bid=50, scores=(260, 230), must_win_on_own_bid=True))
    assert state.phase == Phase.HAND_OVER and state.scores == (210, 268)


# =========================================================================== 4.7 tricks


def test_rule_4_7_1_the_bidder_leads_and_play_goes_clockwise() -> None:
    state = decide_auto(decide_auto(GAME.stacked(hands=D1, phase="discard", bidder=0, bid=40, trump="H")))
    assert state.phase == Phase.PLAY and state.turn == 0 and state.awaiting() == (0,)
    state = act(state, 0, state.legal_actions(0)[0]).state
    assert state.turn == 1
    # a bidder in another seat leads too
    other = decide_auto(
        decide_auto(
            GAME.stacked(hands=[D1[1], D1[0], D1[3], D1[2]], phase="discard", bidder=1, bid=40, trump="H", dealer=0)
        )
    )
    assert other.turn == 1


def test_rule_4_7_2_the_leader_may_lead_anything() -> None:
    state = play_state(["7H 2S 5D JK", "2H AS 9C 3D", "3S 4S 6C 7C", "6S 7S 8D 9D"], trump="H")
    assert set(state.legal_actions(0)) == {play(n) for n in ["7H", "2S", "5D", "JK"]}


def test_rule_4_7_4_a_plain_lead_follow_or_trump_never_a_third_suit() -> None:
    # hearts trumps; 9C led: seat 1 holds 3C, 2H and AS: 3C or 2H, not AS; seat 3 void in clubs: anything
    state = play_state(["9C 2S 3S", "3C 2H AS", "4C 4S 6S", "7S 8D JK"], trump="H")
    state = act(state, 0, play("9C")).state
    assert set(state.legal_actions(1)) == {play("3C"), play("2H")}
    assert "must follow suit or play a trump" in rejected(state, 1, play("AS"), IllegalActionError)
    state = act(state, 1, play("2H")).state  # trumping in while holding clubs: allowed
    state = act(state, 2, play("4C")).state
    assert set(state.legal_actions(3)) == {play(n) for n in ["7S", "8D", "JK"]}


def test_rule_4_7_5_the_winner_leads_the_next_trick() -> None:
    state = play_state(["9C 2S", "3C AS", "2H 4S", "4C 6S"], trump="H")
    state, events = _play_trick(state, "9C 3C 2H 4C")
    assert state.last_winner == 2 and state.turn == 2 and state.leader == 2
    assert kinds(events)[-2:] == ["trick", "turn"] and events[-1].data == {"seat": 2}


def _play_trick(state: EightyThreeState, names: str):  # type: ignore[no-untyped-def]
    events: list = []  # type: ignore[type-arg]
    for name in names.split():
        t = act(state, state.turn, play(name))
        events += t.events
        state = t.state
    return state, events


# =========================================================================== 4.8 scoring


def test_rule_4_8_1_and_4_8_2_the_defenders_always_score_what_they_took() -> None:
    for bid_, made in ((40, True), (50, False)):
        state, _ = _finish(_last_trick(*MADE_45, bid=bid_))
        assert state.scores[1] == 38 and state.last_hand is not None and state.last_hand.made == made


def test_rule_4_8_3_a_failed_bid_loses_the_bid_and_scores_may_go_negative() -> None:
    state, _ = _finish(_last_trick(*MADE_45, bid=83, bidder=1))  # team 1 bid 83 and took 38
    assert state.scores == (45, -83)
    state, _ = _finish(_last_trick(*MADE_45, bid=83, bidder=1, scores=(10, -20)))
    assert state.scores == (55, -103)
    # no bonus for making 83 (the bidders take everything)
    state, _ = _finish(_last_trick("KH 10H 5H JK 9H 5D 3H AH JH 2H", "", bid=83))
    assert state.scores == (83, 0)


def test_rule_4_8_4_the_first_team_at_200_wins_and_a_tie_above_goes_to_the_bidders() -> None:
    # team 1 bids (the bidders) and both pass 200: team 1 wins even though team 0 stands higher
    state, _ = _finish(_last_trick(*MADE_45, bid=30, bidder=1, scores=(190, 170)))
    assert state.scores == (235, 208) and state.winner == 1
    out = state.outcome()
    assert out is not None and out.winners == (1, 3) and out.scores == (235, 208, 235, 208)


# =========================================================================== between hands, views, misc


def test_between_hands_every_seat_says_ready() -> None:
    state, _ = _finish(_last_trick(*MADE_45, bid=40))
    assert state.phase == Phase.HAND_OVER and not state.in_round() and state.outcome() is None
    assert state.awaiting() == (0, 1, 2, 3)
    for seat in range(4):
        assert state.legal_actions(seat) == (READY,) and state.default_action(seat) == READY
    rejected(state, 0, play("AS"), RoundOverError, "action/round_over")
    v = state.version
    state = act(state, 2, READY).state
    assert state.epoch(0) == v and state.epoch(2) == v + 1
    rejected(state, 2, READY, IllegalActionError)
    assert state.view(0).to_wire()["deal_code"] == state.deal_code
    for seat in (0, 1, 3):
        t = act(state, seat, READY)
        state = t.state
    assert state.round == 2 and state.phase == Phase.AUCTION and state.dealer == 0
    assert kinds(t.events)[:2] == ["ready", "hand_start"]
    assert state.view(0).to_wire()["deal_code"] is None


def test_after_the_match_nothing_is_accepted() -> None:
    state, _ = _finish(_last_trick(*MADE_45, bid=30, scores=(190, 0)))
    assert state.phase == Phase.MATCH_OVER and state.awaiting() == () and state.actors() == ()
    for seat in range(4):
        assert state.legal_actions(seat) == ()
        rejected(state, seat, READY, RoundOverError, "action/round_over")


def test_default_actions() -> None:
    state = auction(dealer=3)
    assert state.default_action(0) == PASS and state.default_action(1) is None
    # the trump default: the suit that gives the most trumps (D1, seat 0: 9 spades against 8 hearts)
    state = GAME.stacked(hands=D1, phase="trump", bidder=0, bid=40)
    assert state.default_action(0) == trump("S")
    state = GAME.stacked(hands=D2, phase="trump", bidder=0, bid=40)
    assert state.default_action(0) == trump("H")  # 10 hearts
    state = discard_phase(D1)
    assert all(state.default_action(s) == AUTO for s in range(4))
    state = play_state(["7H 2S", "2H AS", "3S 4S", "6S 7S"], trump="H")
    assert state.default_action(0) is None  # in the tricks the game's bot decides


def test_stacked_refuses_layouts_that_cannot_happen() -> None:
    bad = [
        {"hands": AUCTION[:3], "kitty": KITTY},  # 3 seats
        {"hands": [AUCTION[0], AUCTION[0], *AUCTION[2:]], "kitty": KITTY},  # a card twice
        {"hands": AUCTION, "kitty": "KS KH KD KC"},  # a card missing
        {"hands": AUCTION, "kitty": "KS KH KD KC 8H.2"},  # not a card of this game
        {"hands": AUCTION, "kitty": KITTY, "dealer": 4},
        {"hands": AUCTION, "kitty": KITTY, "phase": "tricks"},
        {"hands": AUCTION, "kitty": KITTY, "bidder": 0, "bid": 30},  # an auction has no bidder yet
        {"hands": D1, "phase": "trump", "bidder": 1, "bid": 40},  # the bidder holds 12, not 17
        {"hands": D1, "phase": "trump", "bidder": 0, "bid": 29},
        {"hands": D1, "phase": "discard", "bidder": 0, "bid": 40},  # no trump named
        {"hands": D1, "phase": "discard", "bidder": 0, "bid": 40, "trump": "X"},
        {"hands": ["AS", "2S", "3S 4S", "5S"], "phase": "play", "bidder": 0, "bid": 30, "trump": "H"},
        {"hands": ["AS", "2S", "3S", "4S"], "phase": "play", "bidder": 0, "bid": 30, "trump": "H"},  # KH nowhere
        {
            "hands": ["7H 2S", "2H AS", "3S 4S", "6S 7S"],
            "phase": "play",
            "bidder": 0,
            "bid": 30,
            "trump": "H",
            "trick": "9C 8C 7C 6C",
        },
    ]
    for kwargs in bad:
        with pytest.raises(BadOptionsError):
            GAME.stacked(**kwargs)  # type: ignore[arg-type]


def test_options() -> None:
    assert GAME.options_from_wire(None) == GAME.options()
    assert GAME.options_from_wire({"preset": "standard", "must_win_on_own_bid": True}).must_win_on_own_bid
    for bad in ({"must_win_on_own_bid": 1}, {"preset": "house"}, {"target": 100}, []):
        with pytest.raises(BadOptionsError):
            GAME.options_from_wire(bad)
    [preset] = GAME.info.presets
    assert (preset.name, preset.min_seats, preset.max_seats, preset.default_seats) == ("standard", 4, 4, 4)
    assert [o.to_wire() for o in preset.options] == [
        {"name": "must_win_on_own_bid", "type": "bool", "default": False, "label": "option.must_win_on_own_bid"}
    ]
