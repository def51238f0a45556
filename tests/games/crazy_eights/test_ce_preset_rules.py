"""Crazy Eights presets ``classic`` and ``party``: one test per rule of docs/rules/crazy-eights.md 2.2-2.3,
plus T-VN-01..03 and T-NO-01..04.

Each scenario is a stacked deck with the layout written out in a comment (see
``ce_helpers``); rules about the deal itself use deal codes.

Not testable as engine behaviour:
- 2.2.6 is a product note (play against AI or in a private room with friends, video
  call, no sign-up): only its "up to four players" is behaviour, tested below as
  the seat range; the rest is the server/browser's.
- 2.3.6 is flavour text (the "stops" family, Comet): no rule impact.
- 2.1 is the comparison table: each row is tested under its numbered rule.
"""

from __future__ import annotations

from collections import Counter

import pytest
from meja.games.crazy_eights.rules import CrazyEightsState
from meja.rules import (
    CARDS,
    BadOptionsError,
    IllegalActionError,
    NotYourTurnError,
    Rng,
    events_for,
)

from .ce_helpers import (
    DRAW,
    GAME,
    PASS,
    Kind,
    Phase,
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
    suit,
)

ILLEGAL = "action/illegal"


def _starter_is_eight(state: CrazyEightsState) -> bool:
    return state.top.rank == 8


def _buried(t: object) -> list[str]:
    start = t.events[0]  # type: ignore[attr-defined]
    assert start.kind == "round_start"
    return list(start.data.get("buried", []))


# =========================================================================== T-VN (classic)


def test_T_VN_01_four_players_five_cards_and_no_starter_8() -> None:
    """T-VN-01: 4 players -> each hand 5; a starter 8 never remains as the starter card."""
    buried = 0
    for seats in (2, 3, 4):
        for seed in range(150):
            t = deal("classic", seats, 1, seed)
            assert [len(h) for h in t.state.hands] == [5] * seats
            assert t.state.top.rank != 8
            assert t.state.phase == Phase.PLAY
            buried += bool(_buried(t))
    assert buried > 0, "the seeds should include starter 8s that were buried"


def test_T_VN_02_classic_draw_rule() -> None:
    """T-VN-02: holding a legal card -> Draw rejected; no legal card -> exactly 1 draw; a legal
    drawn card is auto-played (forced); otherwise the turn ends with hand size + 1."""
    # seat 0: 5H 2C         <- to act; 5H is legal on 9H
    # seat 1: 3D
    # discard: 9H (top)     stock (next first): KH
    state = stacked("classic", hands=["5H 2C", "3D"], discard="9H", stock="KH")
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).draw_blocked == "has_playable"

    # seat 0: 2C 3C         <- to act, stuck on 9H; draws KH, which is played at once
    state = stacked("classic", hands=["2C 3C", "3D"], discard="9H", stock="KH 4S")
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw", "play", "turn"]
    assert t.state.top == cards("KH")[0]
    assert t.state.hands[0] == cards("2C 3C")
    assert t.state.turn == 1

    # seat 0: 2C 3C         <- to act, stuck on 9H; draws 4S (not legal): the turn ends
    state = stacked("classic", hands=["2C 3C", "3D"], discard="9H", stock="4S KH")
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw", "turn"]
    assert len(t.state.hands[0]) == 3
    assert t.state.turn == 1
    rejected(t.state, 0, DRAW, NotYourTurnError, "action/not_your_turn")  # exactly one draw


def test_T_VN_03_dealer_moves_on_each_round() -> None:
    """T-VN-03: round r dealer = (round 1 dealer + r - 1) mod N; first player = dealer + 1."""
    for seats, seed in ((3, 11), (4, 12)):
        state = GAME.new_match(GAME.options("classic", target=1000), seats, seed).state
        first = state.dealer
        assert first is not None
        for r in range(1, 6):
            assert state.round == r
            assert state.dealer == (first + r - 1) % seats
            assert state.leader == state.turn == (state.dealer + 1) % seats
            state, _ = play_round(state)
            assert state.phase == Phase.ROUND_OVER
            t = ready_all(state)
            start = next(e for e in t.events if e.kind == "round_start")
            state = t.state
            assert start.data["dealer"] == state.dealer and start.data["leader"] == state.leader


# =========================================================================== T-NO (party)


def test_T_NO_01_party_deck_and_hand_sizes() -> None:
    """T-NO-01: 6 players -> 104 cards, hand 5 each; 4 players -> 52 cards, hand 7 each;
    5 players -> 52 cards, hand 5 each."""
    for seats, deck, hand in ((6, 104, 5), (4, 52, 7), (5, 52, 5)):
        state = deal("party", seats, 1, 2024).state
        table = all_cards(state)
        assert len(table) == deck
        assert sorted(table) == list(CARDS[:deck])  # every physical card once
        assert [len(h) for h in state.hands] == [hand] * seats
        assert len(state.stock) == deck - seats * hand - 1


def test_T_NO_02_party_draw_then_turn_passes() -> None:
    """T-NO-02: no legal card -> draw 1; the turn passes even if the drawn card is legal."""
    # seat 0: 2C 3C         <- to act, stuck on 9H; draws KH (legal, but not this turn)
    # seat 1: 3D 4D
    # discard: 9H (top)     stock (next first): KH 4S
    state = stacked("party", hands=["2C 3C", "3D 4D"], discard="9H", stock="KH 4S")
    assert state.legal_actions(0) == (DRAW,)
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw", "turn"]
    assert t.state.hands[0] == tuple(sorted(cards("2C 3C KH")))
    assert t.state.top == cards("9H")[0]
    assert t.state.turn == 1
    rejected(t.state, 0, play("KH"), NotYourTurnError, "action/not_your_turn")


def test_T_NO_03_party_starter_8_dealer_names_the_suit_first() -> None:
    """T-NO-03: starter 8 -> the dealer is prompted for a suit before seat dealer+1 acts."""
    _, t = find_deal("party", 4, 2, _starter_is_eight)
    state = t.state
    dealer, first = 1, 2
    assert (state.dealer, state.leader) == (dealer, first)
    assert state.phase == Phase.CHOOSE_SUIT
    assert state.awaiting() == (dealer,)
    prompt = next(e for e in t.events if e.kind == "choose_suit")
    assert prompt.data == {"seat": dealer}
    assert t.events[-1].kind == "choose_suit"  # the last word of the deal: nobody's turn yet
    assert "turn" not in kinds(t.events)
    assert state.legal_actions(dealer) == tuple(suit(s) for s in "SHDC")
    assert state.legal_actions(first) == ()
    rejected(state, first, DRAW, NotYourTurnError, "action/not_your_turn")
    named = "H" if state.top.suit != Suit.HEARTS else "C"
    t2 = act(state, dealer, suit(named))
    assert kinds(t2.events) == ["suit", "turn"]
    assert t2.events[1].data == {"seat": first}
    assert t2.state.phase == Phase.PLAY
    assert t2.state.turn == first
    assert t2.state.active_suit == Suit.parse(named)


def test_T_NO_04_wins_mode_three_rounds() -> None:
    """T-NO-04: wins mode with N = 3: round winners [A, B, A] -> A wins; [A, B, C] ->
    co-winners A, B, C."""
    options = GAME.options("party", match_mode="wins", rounds=3)
    for winners, expected in (((0, 1, 0), (0,)), ((0, 1, 2), (0, 1, 2))):
        state = GAME.new_match(options, 3, 8).state
        for r, winner in enumerate(winners, start=1):
            assert state.round == r and state.outcome() is None
            state = act(rig(state, winner), winner, play("8S")).state
            if r < 3:
                assert state.phase == Phase.ROUND_OVER  # not decided early, even at 2-0
                state = ready_all(state).state
        assert state.phase == Phase.MATCH_OVER
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winners == expected
        assert outcome.scores == tuple(winners.count(s) for s in range(3))  # wins, not points


# =========================================================================== 2.2 classic


def test_rule_2_2_1_classic_two_to_four_players_five_cards_hidden_hands() -> None:
    """2.2.1: 2-4 players, 5 cards each, and a hand is seen only by its owner."""
    assert GAME.seat_range(GAME.options("classic")) == range(2, 5)
    for seats in (2, 3, 4):
        t = deal("classic", seats, 0, 99)
        assert [len(h) for h in t.state.hands] == [5] * seats
        for seat in range(seats):
            own = [e for e in events_for(t.events, seat) if e.kind == "hand"]
            assert [e.data["seat"] for e in own] == [seat]
            assert t.state.view(seat).hand == t.state.hands[seat]
        assert not [e for e in events_for(t.events, None) if e.kind == "hand"]
        assert t.state.view(None).hand is None


def test_rule_2_2_2_starter_8_is_buried_and_another_card_turned() -> None:
    """2.2.2: a starter 8 goes back into the stock, the stock is reshuffled with the deal's
    stream, and another card is turned, until it is not an 8; the hands are not touched."""
    # a deal whose first two turned cards are both 8s
    seed = next(s for s in range(2000) if len(_buried(deal("classic", 3, 1, s))) >= 2)
    t = deal("classic", 3, 1, seed)
    state = t.state
    buried = _buried(t)
    assert len(buried) >= 2 and all(name.startswith("8") for name in buried)
    assert state.top.rank != 8
    assert state.phase == Phase.PLAY
    assert {str(c) for c in state.stock} >= set(buried)  # back in the stock
    assert len(state.stock) == 52 - 15 - 1
    deck, _ = Rng(seed, "deal").shuffle(CARDS[:52])
    assert str(deck[15]) == buried[0]  # the first turned card was the buried 8
    assert {c for h in state.hands for c in h} == set(deck[:15])
    # the house deal of the same code keeps that 8 as its starter (1.3.6) with the same hands
    house = deal("house", 3, 1, seed).state
    assert str(house.top) == buried[0]
    assert house.hands == state.hands


def test_rule_2_2_3_draw_only_when_stuck() -> None:
    """2.2.3: a player may draw only with no legal card (an 8 counts as legal)."""
    # seat 0: 8C 2C         <- to act; only the 8 is legal on 9H, and it forbids the draw
    # seat 1: 3D
    # discard: 9H (top)     stock (next first): 4S
    state = stacked("classic", hands=["8C 2C", "3D"], discard="9H", stock="4S")
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).draw_blocked == "has_playable"
    assert state.view(0).pass_blocked == "has_playable"
    assert {m.kind for m in state.legal_actions(0)} == {Kind.PLAY}


def test_rule_2_2_3_forced_drawn_card_is_played_at_once() -> None:
    """2.2.3 (drawn_card_play = forced, the default): a legal drawn card is played for the seat."""
    assert GAME.options("classic").drawn_card_play == "forced"
    # seat 0: 2C 3C         <- to act, stuck on 9H; draws 9S (rank match)
    # seat 1: 3D 4D
    # discard: 9H (top)     stock (next first): 9S
    state = stacked("classic", hands=["2C 3C", "3D 4D"], discard="9H", stock="9S 4S")
    t = act(state, 0, DRAW)
    played = [e for e in t.events if e.kind == "play"]
    assert len(played) == 1 and played[0].data["card"] == "9S" and played[0].data["drawn"] is True
    assert t.state.discard == cards("9H 9S")
    assert t.state.active_suit == Suit.SPADES
    assert t.state.turn == 1
    assert t.state.draws == 0


def test_rule_2_2_3_forced_drawn_8_then_the_seat_names_the_suit() -> None:
    """2.2.3: a drawn 8 is played for the seat, which still names the suit."""
    # seat 0: 2C 3C         <- to act, stuck on 9H; draws 8D
    # seat 1: 3D 4S
    # discard: 9H (top)     stock (next first): 8D
    state = stacked("classic", hands=["2C 3C", "3D 4S"], discard="9H", stock="8D 5S")
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw", "play", "choose_suit"]
    state = t.state
    assert state.phase == Phase.CHOOSE_SUIT
    assert state.top == cards("8D")[0]
    assert state.hands[0] == cards("2C 3C")
    assert state.awaiting() == (0,) and state.chooser == 0
    assert state.legal_actions(0) == tuple(suit(s) for s in "SHDC")
    assert state.legal_actions(1) == ()
    assert state.view(0).draw_blocked == "choose_suit"
    rejected(state, 1, play("3D"), NotYourTurnError, "action/not_your_turn")
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    t = act(state, 0, suit("S"))
    assert kinds(t.events) == ["suit", "turn"]
    assert t.state.active_suit == Suit.SPADES
    assert t.state.turn == 1
    assert played_cards(t.state) == set(cards("4S"))


def test_rule_2_2_3_optional_drawn_card_may_be_played_or_kept() -> None:
    """2.2.3 (drawn_card_play = optional): the seat may play the legal drawn card (only that
    card) or keep it and end the turn; a drawn 8 is played naming a suit."""
    options = GAME.options("classic", drawn_card_play="optional")
    # seat 0: 2C 3C         <- to act, stuck on 9H; draws KH
    # seat 1: 3D 4D
    # discard: 9H (top)     stock (next first): KH
    state = stacked(options, hands=["2C 3C", "3D 4D"], discard="9H", stock="KH 5S")
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw"]
    state = t.state
    assert state.turn == 0 and state.drawn == cards("KH")[0]
    assert state.view(0).drawn == cards("KH")[0]
    assert state.view(1).drawn is None  # only the drawer is told which card it is
    assert state.legal_actions(0) == (play("KH"), PASS)
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    played = act(state, 0, play("KH")).state
    assert played.top == cards("KH")[0] and played.turn == 1
    kept = act(state, 0, PASS)
    assert kept.events[0].data.get("kept") is True
    assert kept.state.turn == 1 and cards("KH")[0] in kept.state.hands[0]
    assert kept.state.drawn is None

    # a drawn 8 under optional play: played with a named suit, or kept
    state = stacked(options, hands=["2C 3C", "3D 4D"], discard="9H", stock="8S 5S")
    state = act(state, 0, DRAW).state
    assert state.legal_actions(0) == (*(play("8S", s) for s in "SHDC"), PASS)
    after = act(state, 0, play("8S", "D")).state
    assert after.active_suit == Suit.DIAMONDS and after.turn == 1


def test_rule_2_2_3_unplayable_draw_ends_the_turn() -> None:
    """2.2.3: if the one drawn card is not legal, the turn ends (no pass needed)."""
    # seat 0: 2C 3C         <- to act, stuck on 9H; draws 4S
    # seat 1: 3D 4D
    # discard: 9H (top)     stock (next first): 4S
    for mode in ("forced", "optional"):
        options = GAME.options("classic", drawn_card_play=mode)
        state = stacked(options, hands=["2C 3C", "3D 4D"], discard="9H", stock="4S KH")
        t = act(state, 0, DRAW)
        assert kinds(t.events) == ["draw", "draw", "turn"]
        assert t.state.turn == 1
        assert t.state.hands[0] == tuple(sorted(cards("2C 3C 4S")))


def test_rule_2_2_4_classic_nothing_to_draw_the_turn_passes() -> None:
    """2.2.4: stock empty and discard only the top: a stuck player passes without drawing."""
    # seat 0: 2C 3C         <- to act, stuck on 9H
    # seat 1: 3D
    # discard: 9H (top)     stock: empty
    state = stacked("classic", hands=["2C 3C", "3D"], discard="9H")
    assert state.legal_actions(0) == (PASS,)
    assert state.view(0).draw_blocked == "nothing_to_draw"
    t = act(state, 0, PASS)
    assert t.state.turn == 1 and t.state.hands[0] == cards("2C 3C")
    # with a card left to draw, the stuck player must draw instead
    state = stacked("classic", hands=["2C 3C", "3D"], discard="9H", stock="4S")
    assert state.view(0).pass_blocked == "must_draw"
    rejected(state, 0, PASS, IllegalActionError, ILLEGAL)


def test_rule_2_2_5_dealer_rotation_and_first_player() -> None:
    """2.2.5: the dealer moves one seat each round; the seat after the dealer plays first.
    The first dealer is random (2.1 [D])."""
    # round 1, 4 seats, dealer 3 -> seat 0 leads
    # seat 0: 5H            <- to act, goes out
    # seat 1..3: 2D 3D      (each)
    # discard: 9H (top)
    state = stacked("classic", hands=["5H", "2D 3D", "2C 3C", "2S 3S"], discard="9H", turn=0, seed=4)
    assert state.dealer == 3
    state = act(state, 0, play("5H")).state
    state = ready_all(state).state
    assert (state.dealer, state.leader, state.turn) == (0, 1, 1)
    state = act(rig(state, 3), 3, play("8S")).state  # the winner does not lead in classic
    state = ready_all(state).state
    assert (state.dealer, state.leader, state.turn) == (1, 2, 2)
    dealers = {GAME.new_match(GAME.options("classic"), 4, seed).state.dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_rule_2_2_6_classic_up_to_four_players() -> None:
    """2.2.6: "up to four friends" is up to 4 players in total."""
    options = GAME.options("classic")
    with pytest.raises(BadOptionsError):
        GAME.new_match(options, 5, 1)
    with pytest.raises(BadOptionsError):
        GAME.new_match(options, 1, 1)
    assert GAME.new_match(options, 4, 1).state.seats == 4


# =========================================================================== 2.3 party


def test_rule_2_3_1_party_two_to_eight_players_two_decks_from_six() -> None:
    """2.3.1: 2-8 players; 1 deck for 2-5, 2 decks (104 cards, every physical card with its own
    id, eight 8s, each face twice) for 6-8."""
    options = GAME.options("party")
    assert GAME.seat_range(options) == range(2, 9)
    with pytest.raises(BadOptionsError):
        GAME.new_match(options, 9, 1)
    for seats in range(2, 9):
        state = GAME.new_match(options, seats, seats).state
        table = all_cards(state)
        if seats >= 6:
            assert len(set(table)) == len(table) == 104
            faces = Counter(c.face for c in table)
            assert set(faces.values()) == {2} and len(faces) == 52
            assert sum(c.rank == 8 for c in table) == 8
            assert {c.deck for c in table} == {0, 1}
        else:
            assert sorted(table) == list(CARDS[:52])


def test_rule_2_3_1_duplicate_faces_are_distinct_cards_in_play() -> None:
    """2.3.1: with two decks, the two copies of a face are separate cards: playing one leaves
    the other in hand, and either matches by suit and rank."""
    # seat 0: 5H 5H.2 2C    <- to act (6 seats, two decks)
    # seats 1-5: 3D         (each a different card)
    # discard: 9H (top)
    hands = ["5H 5H.2 2C", "3D", "4D", "6D", "7D", "JD"]
    state = stacked("party", hands=hands, discard="9H", stock="QD")
    assert played_cards(state) == set(cards("5H 5H.2"))
    t = act(state, 0, play("5H.2"))
    assert t.events[0].data["card"] == "5H.2"
    assert t.state.hands[0] == cards("5H 2C")
    assert played_cards(t.state) == set()  # seat 1's turn now
    assert t.state.turn == 1


def test_rule_2_3_2_player_left_of_the_dealer_plays_first() -> None:
    """2.3.2: the dealer turns the starter; the player to the dealer's left (next seat) plays first."""
    for seats in (2, 5, 8):
        for seed in range(6):
            state = GAME.new_match(GAME.options("party"), seats, seed).state
            assert state.dealer is not None
            assert state.leader == (state.dealer + 1) % seats
            if state.phase == Phase.PLAY:
                assert state.turn == state.leader


def test_rule_2_3_2_starter_8_named_by_the_first_player_option() -> None:
    """2.3.2 (starter_eight_chooser = first_player): the first player names the suit, then plays."""
    assert GAME.options("party").starter_eight_chooser == "dealer"
    _, t = find_deal("party", 3, 0, _starter_is_eight, starter_eight_chooser="first_player")
    state = t.state
    assert (state.dealer, state.leader) == (2, 0)
    assert state.phase == Phase.CHOOSE_SUIT
    assert state.awaiting() == (0,)
    assert state.legal_actions(2) == ()
    rejected(state, 2, suit("S"), NotYourTurnError, "action/not_your_turn")
    t2 = act(state, 0, suit("D"))
    assert t2.state.active_suit == Suit.DIAMONDS
    assert t2.state.turn == 0 and t2.state.phase == Phase.PLAY
    assert t2.state.awaiting() == (0,)


def test_rule_2_3_2_starter_8_in_a_later_round_is_named_by_that_rounds_dealer() -> None:
    """2.3.2: each round's starter 8 is named by that round's dealer (the dealer moved on)."""
    options = GAME.options("party")
    for seed in range(400):
        state = GAME.new_match(options, 3, seed).state
        dealer1 = state.dealer
        assert dealer1 is not None
        state = act(rig(state, 0), 0, play("8S")).state
        state = ready_all(state).state
        if state.top.rank == 8:
            break
    else:
        raise AssertionError("no match in 400 seeds dealt a starter 8 in round 2")
    assert state.dealer == (dealer1 + 1) % 3
    assert state.phase == Phase.CHOOSE_SUIT
    assert state.awaiting() == (state.dealer,)
    t = act(state, state.dealer, suit("H"))
    assert t.state.turn == (state.dealer + 1) % 3


def test_rule_2_3_3_party_draw_one_only_when_stuck() -> None:
    """2.3.3: drawing is allowed only with no legal card; one card; the turn passes; the drawn
    card cannot be played this turn."""
    # seat 0: 5H 2C         <- to act; 5H is legal on 9H
    # seat 1: 3D 4D
    # discard: 9H (top)     stock (next first): 8S
    state = stacked("party", hands=["5H 2C", "3D 4D"], discard="9H", stock="8S")
    rejected(state, 0, DRAW, IllegalActionError, ILLEGAL)
    assert state.view(0).draw_blocked == "has_playable"
    # seat 0: 2C 3C         <- stuck; draws 8S (always legal) and still the turn passes
    state = stacked("party", hands=["2C 3C", "3D 4D"], discard="9H", stock="8S 7D")
    assert state.view(0).draws_left == 1
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["draw", "draw", "turn"]
    assert t.state.turn == 1
    assert cards("8S")[0] in t.state.hands[0]
    assert t.state.drawn is None


def test_rule_2_3_4_party_empty_stock_like_house() -> None:
    """2.3.4: an empty stock is rebuilt from the discards beneath the top (suit unchanged); with
    nothing to draw the turn passes."""
    # seat 0: 2C 3C         <- to act, stuck on the 8S named hearts
    # seat 1: 3D
    # discard: 4D 5D 8S (top)   active: H   stock: empty
    state = stacked("party", hands=["2C 3C", "3D"], discard="4D 5D 8S", active_suit="H", seed=6)
    t = act(state, 0, DRAW)
    assert kinds(t.events) == ["reshuffle", "draw", "draw", "turn"]
    assert t.events[0].data["moved"] == 2
    assert t.state.discard == cards("8S") and t.state.active_suit == Suit.HEARTS
    # seat 1: 3D on 8S/hearts: stuck, and 1 card left in the stock -> draw it
    state = t.state
    assert state.legal_actions(1) == (DRAW,)
    state = act(state, 1, DRAW).state
    # seat 0 (2C 3C + one of 4D/5D): stuck, nothing to draw -> pass at once
    assert state.legal_actions(0) == (PASS,)
    assert state.view(0).draw_blocked == "nothing_to_draw"
    assert act(state, 0, PASS).state.turn == 1


def test_rule_2_3_5_points_mode_target_is_configurable() -> None:
    """2.3.5 points mode: the match ends when a total reaches the target (default 100, the host
    may change it); lowest total wins, ties are co-winners."""
    assert GAME.options("party").target == 100
    assert GAME.options("party").match_mode == "points"
    options = GAME.options("party", target=50)
    # scores before: 0 0 0, target 50
    # seat 0: 5H            <- to act, goes out
    # seat 1: 8C            (50: reaches the target)
    # seat 2: 8D            (50)
    # discard: 9H (top)
    state = stacked(options, hands=["5H", "8C", "8D"], discard="9H", turn=0)
    end = act(state, 0, play("5H")).state
    outcome = end.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (0, 50, 50)
    # the default target does not end the match at 50
    state = stacked("party", hands=["5H", "8C", "8D"], discard="9H", turn=0)
    assert act(state, 0, play("5H")).state.phase == Phase.ROUND_OVER
    # a tie for the lowest total: co-winners
    state = stacked(options, hands=["5H", "2C", "8D"], discard="9H", turn=0, scores=(2, 0, 0))
    outcome = act(state, 0, play("5H")).state.outcome()
    assert outcome is not None and outcome.winners == (0, 1)
    for bad in (5, 1001, "100", True):
        with pytest.raises(BadOptionsError):
            GAME.options("party", target=bad)


def test_rule_2_3_5_wins_mode_defaults_to_five_rounds() -> None:
    """2.3.5 wins mode: the host sets N rounds (default 5); after N rounds the most round wins
    win, whatever the penalty points; co-winners on a tie."""
    options = GAME.options("party", match_mode="wins")
    assert options.rounds == 5
    state = GAME.new_match(options, 2, 31).state
    for r, winner in enumerate((1, 1, 0, 0, 1), start=1):
        state = act(rig(state, winner), winner, play("8S")).state
        if r < 5:
            assert state.phase == Phase.ROUND_OVER
            state = ready_all(state).state
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (2, 3)
    assert state.scores == (15, 10)  # penalty points are still kept, but do not decide
    for bad in (0, 51, "5"):
        with pytest.raises(BadOptionsError):
            GAME.options("party", match_mode="wins", rounds=bad)
