"""Kartu Terakhir: T-KT-01..11, then one stacked-deck scenario (at least) per numbered rule.

The rules are docs/rules/kartu-terakhir.md 3.1-3.11 and docs/rules/README.md decisions 6
and 7. Each scenario lays the cards out with ``stacked`` and writes them in a
comment (see ``kt_helpers``). Rules about the deal itself use seeds.

Rules with no behaviour the rules engine can show, and where they are covered:
- 3.1.3 (colour icons), 3.9.4 (remote play over a video call) and the display
  parts of 3.9.2-3.9.5 (phones, the shared screen, QR codes, the Focus toggle):
  the page and the server; the engine's parts are ``test_rule_3_9_2_*`` (hands
  to their seats only, a hand-free view for the shared screen), ``test_rule_3_9_3_*``
  (the host's options) and ``test_rule_3_9_5_*`` (the top card, the active colour
  and every count in every view, a spectator's too).
- 3.5.6 and 3.9.6 (bot policies): the bots are interim placeholders (bots/).
- 3.7's timer length (30 s, README decision 6) is the table's turn limit
  (``turn_limit_s``), a server setting; the engine's part is ``default_action``.
"""

from __future__ import annotations

from collections import Counter

import pytest
from meja.games.kartu_terakhir import dealcode
from meja.games.kartu_terakhir.rules import DECK, card_points
from meja.rules import (
    BadOptionsError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    events_for,
)

from .kt_helpers import (
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    GAME,
    KEEP,
    PASS,
    READY,
    TAKE,
    TIMER_TAKE,
    Kind,
    Phase,
    act,
    data_of,
    hand,
    kinds,
    of_kind,
    play,
    rejected,
    seen,
    stacked,
    timed,
)

ILLEGAL = "action/illegal"
NOT_YOURS = "action/not_your_turn"


def plays(state, seat):  # type: ignore[no-untyped-def]
    """The cards ``seat`` may play now, by name (each once)."""
    return sorted({a.card for a in state.legal_actions(seat) if a.kind == Kind.PLAY})


# =========================================================================== T-KT-01..11


def test_t_kt_01_deck() -> None:
    """T-KT-01: 108 cards; per colour one 0, two each of 1-9, Skip, Reverse, Draw Two; 4 Wild, 4 WD4."""
    deck = GAME.deck(GAME.options(), 4)
    assert len(deck) == 108
    count = Counter(deck)
    for colour in "RYGB":
        assert count[f"{colour}0"] == 1
        for n in range(1, 10):
            assert count[f"{colour}{n}"] == 2
        for sym in ("S", "R", "D2"):
            assert count[f"{colour}{sym}"] == 2
        assert sum(v for k, v in count.items() if k[0] == colour and k != "W" and not k.startswith("WD")) == 25
    assert count["W"] == 4 and count["WD4"] == 4
    assert len(count) == 4 * 13 + 2
    # the deck a match is dealt from is that deck, card for card
    state = GAME.new_match(GAME.options(), 4, 99).state
    laid = [c for loc in state.locations() if loc.counted for c in loc.cards]
    assert Counter(laid) == count


@pytest.mark.parametrize("seats", [2, 3, 4, 7, 10])
def test_t_kt_02_number_starter_and_seven_each(seats: int) -> None:
    """T-KT-02: the starter is always a number card; 7 cards each."""
    for seed in range(40):
        t = GAME.new_match(GAME.options(), seats, seed)
        state = t.state
        assert [len(h) for h in state.hands] == [7] * seats
        assert len(state.discard) == 1
        top = hand_name(state.discard[0])
        assert top[0] in "RYGB" and top[1:].isdigit(), top
        assert len(state.stock) == 108 - 7 * seats - 1
        [start] = of_kind(t.events, "round_start")
        assert start.data["starter"] == top and start.data["colour"] == top[0]


def hand_name(card: int) -> str:
    return DECK[card]


def test_t_kt_03_two_seats_reverse_skip_draw_two() -> None:
    """T-KT-03: 2 seats: Reverse and Skip let the same seat move again; after Draw Two the
    opponent draws 2 and the same seat moves again."""
    # seat 0: RR RS RD2 R1 R2   <- to act
    # seat 1: B5 B6
    # discard: R9 (top)  active: R
    # stock (next first): G1 G2 G3
    state = stacked(hands=["RR RS RD2 R1 R2", "B5 B6"], discard="R9", stock="G1 G2 G3")
    t = act(state, 0, play("RR"))
    assert t.state.turn == 0 and t.state.direction == -1
    assert "skip" in kinds(t.events) and "reverse" in kinds(t.events)
    t = act(t.state, 0, play("RS"))
    assert t.state.turn == 0
    assert of_kind(t.events, "skip")[0].data == {"seat": 1}
    t = act(t.state, 0, play("RD2"))
    assert t.state.phase == Phase.REACT and t.state.turn == 1 and t.state.pending == 2
    t = timed(t.state)  # the automatic penalty draw (3.4)
    assert len(t.state.hands[1]) == 4 and hand(t.state, 1) == ["G1", "G2", "B5", "B6"]
    assert t.state.turn == 0 and t.state.phase == Phase.PLAY


def test_t_kt_04_draw_with_a_playable_card_then_only_the_drawn_card() -> None:
    """T-KT-04: drawing with a playable card in hand is accepted; after drawing, only the
    drawn card may be played, any other is refused."""
    # seat 0: R5 G7        <- to act; R5 is playable
    # seat 1: B1
    # discard: R9 (top)  active: R
    # stock (next first): R3
    state = stacked(hands=["R5 G7", "B1"], discard="R9", stock="R3 Y1")
    assert play("R5") in state.legal_actions(0) and DRAW in state.legal_actions(0)
    after = act(state, 0, DRAW).state
    assert after.turn == 0 and hand(after, 0) == ["R3", "R5", "G7"]
    assert plays(after, 0) == ["R3"] and KEEP in after.legal_actions(0)
    message = rejected(after, 0, play("R5"), IllegalActionError, ILLEGAL)
    assert "only the drawn card 'R3'" in message
    rejected(after, 0, DRAW, IllegalActionError, ILLEGAL)  # one draw a turn
    assert act(after, 0, play("R3")).state.discard[-1] == after.hands[0][0]


def test_t_kt_05_bluff_proven_challenger_moves_and_alone_saw_the_hand() -> None:
    """T-KT-05: WD4 played while holding the active colour; the victim challenges: the WD4
    player draws 4, the victim is to move, and only the victim received the hand."""
    # seat 0: WD4 R3 G5    <- to act; holds red, the active colour
    # seat 1: B1 B2
    # seat 2: Y1
    # discard: R7 (top)  active: R
    # stock (next first): Y2 Y3 Y4 Y5
    state = stacked(hands=["WD4 R3 G5", "B1 B2", "Y1 Y9"], discard="R7", stock="Y2 Y3 Y4 Y5 Y6")
    t = act(state, 0, play("WD4", "B"))
    assert t.state.turn == 1 and t.state.pending == 4
    assert t.state.legal_actions(1) == (TAKE, CHALLENGE, CALL)
    t = act(t.state, 1, CHALLENGE)
    after = t.state
    assert hand(after, 0) == ["R3", "Y2", "Y3", "Y4", "Y5", "G5"]
    assert after.turn == 1 and after.pending == 0 and after.colour == 3  # blue, named with the WD4
    assert play("B1") in after.legal_actions(1)
    verdict = of_kind(t.events, "challenge")[0]
    assert verdict.data["verdict"] == "bluff" and verdict.only is None
    assert verdict.data["hand_counts"] == [6, 2, 2]
    # the hand reaches the challenger alone
    assert data_of(t.events, "shown", 1) == [{"kind": "shown", "seat": 0, "cards": ["R3", "G5"]}]
    for other in (0, 2, None):
        assert "shown" not in seen(t.events, other)
        assert after.view(other).to_wire()["shown"] is None
    assert after.view(1).to_wire()["shown"] == {"seat": 0, "cards": ["R3", "G5"]}


def test_t_kt_06_honest_wd4_challenger_draws_six_and_loses_the_turn() -> None:
    """T-KT-06: an honest WD4 challenged: the victim draws 6 and the turn passes on."""
    # seat 0: WD4 G5 B1    <- to act; no red
    # seat 1: Y1 Y2
    # seat 2: G9
    # discard: R7 (top)  active: R
    # stock (next first): B2 B3 B4 B5 B6 B7
    state = stacked(hands=["WD4 G5 B1", "Y1 Y2", "G9 G8"], discard="R7", stock="B2 B3 B4 B5 B6 B7 B8")
    t = act(state, 0, play("WD4", "G"))
    t = act(t.state, 1, CHALLENGE)
    after = t.state
    assert len(after.hands[1]) == 8 and len(after.hands[0]) == 2
    assert after.turn == 2 and after.colour == 2
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "honest"
    assert data_of(t.events, "shown", 1)[0]["cards"] == ["G5", "B1"]
    assert "shown" not in seen(t.events, 2)


def test_t_kt_07_catch_before_the_next_action_and_not_after() -> None:
    """T-KT-07: P plays to one card without calling; Q catches before the next action: P draws
    2. A catch after the next player's draw is refused."""
    # seat 0: R5 R6        <- to act (P)
    # seat 1: B1 B2        (the next player)
    # seat 2: G1 G2        (Q)
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2 Y3
    state = stacked(hands=["R5 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3 Y4")
    opened = act(state, 0, play("R5")).state
    assert opened.window == 0 and opened.actors() == (0, 1, 2)
    assert opened.legal_actions(2) == (CATCH,) and opened.legal_actions(0) == (CALL,)
    t = act(opened, 2, CATCH)
    assert hand(t.state, 0) == ["R6", "Y1", "Y2"] and t.state.window == -1
    assert of_kind(t.events, "catch")[0].data == {"seat": 2, "target": 0}
    assert t.state.turn == 1  # a catch is no turn
    # the same, but the next player draws first
    drawn = act(opened, 1, DRAW).state
    assert drawn.window == -1
    rejected(drawn, 2, CATCH, IllegalActionError, ILLEGAL)


def test_t_kt_08_called_on_own_turn_then_played_no_catch() -> None:
    """T-KT-08: P calls on its turn with 2 cards, then plays: every catch is refused."""
    # seat 0: R5 R6        <- to act
    # seat 1: B1 B2
    # seat 2: G1 G2
    # discard: R9 (top)  active: R
    state = stacked(hands=["R5 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2")
    t = act(state, 0, CALL)
    assert data_of(t.events, "call", 2) == [{"kind": "call", "seat": 0, "when": "before"}]
    after = act(t.state, 0, play("R5")).state
    assert after.window == -1 and after.actors() == (1,)
    for seat in (1, 2):
        rejected(after, seat, CATCH, IllegalActionError, ILLEGAL)


def test_t_kt_09_stacking_two_two_four_then_eight() -> None:
    """T-KT-09: stacking on: Draw Two, Draw Two, WD4, then a player with no WD4 draws 8 and
    loses the turn."""
    # seat 0: RD2 R1 R2    <- to act
    # seat 1: BD2 B1 B2
    # seat 2: WD4 G1 G2
    # seat 3: GD2 Y1 Y2    (no WD4: a Draw Two does not answer a WD4)
    # discard: R9 (top)  active: R
    # stock (next first): Y3 Y4 Y5 Y6 Y7 Y8 Y9 B9
    options = {"stacking": True}
    state = stacked(
        options,
        hands=["RD2 R1 R2", "BD2 B1 B2", "WD4 G1 G2", "GD2 Y1 Y2"],
        discard="R9",
        stock="Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 B9",
    )
    state = act(state, 0, play("RD2")).state
    assert state.turn == 1 and state.pending == 2 and state.phase == Phase.PLAY  # awaited, not automatic
    assert plays(state, 1) == ["BD2"] and TAKE in state.legal_actions(1)
    state = act(state, 1, play("BD2")).state
    assert state.pending == 4
    assert plays(state, 2) == ["WD4"]
    state = act(state, 2, play("WD4", "G")).state
    assert state.pending == 8 and not state.challenge  # stacked: no challenge (3.7 stacking 6)
    assert state.legal_actions(3) == (TAKE,)
    t = act(state, 3, TAKE)
    assert len(t.state.hands[3]) == 11 and t.state.turn == 0 and t.state.pending == 0
    assert data_of(t.events, "draw", 0) == [{"kind": "draw", "seat": 3, "count": 8, "reason": "penalty"}]


def test_t_kt_10_timer_draws_one_or_takes_four() -> None:
    """T-KT-10: time runs out: no pending penalty: draw 1 and the turn passes; a pending WD4: draw 4."""
    # seat 0: R5 G7        <- to act
    # seat 1: B1 B2
    # discard: R9 (top)  active: R
    # stock (next first): Y1 (not playable) ...
    state = stacked(hands=["R5 G7", "B1 B2"], discard="R9", stock="Y1 Y2 Y3 Y4 Y5")
    move = state.default_action(0)
    assert move == DRAW_KEEP and move.to_wire() == {"kind": "draw_keep"}
    after = act(state, 0, move).state
    assert len(after.hands[0]) == 3 and after.turn == 1
    # the card drawn is playable (R3 on R9): the turn passes all the same, the card kept, and the
    # events are those of any draw that ended the turn (no keep: it would say the card was playable)
    state = stacked(hands=["R5 G7", "B1 B2"], discard="R9", stock="R3 Y2 Y3")
    t = act(state, 0, state.default_action(0))
    assert t.state.turn == 1 and t.state.legal_actions(0) == ()
    assert kinds(t.events) == ["draw", "draw", "turn"]
    assert t.state.view(0).to_wire()["hand"] == ["R3", "R5", "G7"]
    assert DRAW_KEEP not in state.legal_actions(0)  # the timer's move, not a choice to offer
    # a pending Wild Draw Four: taken, never challenged (3.7)
    # seat 1: B1 B2        <- facing a WD4
    wd4 = stacked(hands=["R5 G7", "B1 B2"], discard="R9 WD4", colour="G", pending=4, turn=1, stock="Y1 Y2 Y3 Y4")
    assert wd4.legal_actions(1) == (TAKE, CHALLENGE, CALL)
    assert wd4.default_action(1) == TAKE
    after = act(wd4, 1, TAKE).state
    assert len(after.hands[1]) == 6 and after.turn == 0


def test_t_kt_11_score() -> None:
    """T-KT-11: losers hold [red 7, blue Skip] and [Wild]: the winner scores 7 + 20 + 50 = 77."""
    # seat 0: R3           <- to act, goes out
    # seat 1: R7 BS
    # seat 2: W
    # discard: R9 (top)  active: R
    state = stacked(hands=["R3", "R7 BS", "W"], discard="R9")
    t = act(state, 0, play("R3"))
    assert t.state.phase == Phase.MATCH_OVER
    [over] = of_kind(t.events, "round_over")
    assert over.data["winner"] == 0 and over.data["points"] == 77
    assert t.state.scores == (77, 0, 0)
    outcome = t.state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (77, 0, 0)


# =========================================================================== 3.1 players and deck


def test_rule_3_1_1_two_to_ten_seats() -> None:
    """3.1.1: 2-10 players."""
    assert GAME.seat_range(GAME.options()) == range(2, 11)
    assert GAME.info.presets[0].min_seats == 2 and GAME.info.presets[0].max_seats == 10
    for n in (1, 11, 0):
        with pytest.raises(BadOptionsError):
            GAME.new_match(GAME.options(), n, 1)
    assert GAME.new_match(GAME.options(), 10, 1).state.seats == 10


def test_rule_3_1_2_card_points_and_kinds() -> None:
    """3.1.2 (with 3.8.2): four colours, the action cards, and the colourless Wilds."""
    state = GAME.new_match(GAME.options(), 2, 5).state
    names = set(DECK)
    assert {"R0", "Y9", "GS", "BR", "RD2", "W", "WD4"} <= names
    assert not any(n.startswith(("RW", "YW")) for n in names)
    assert card_points([DECK.index("R7")]) == 7 and card_points([DECK.index("W")]) == 50
    assert state.view(0).to_wire()["colour"] in "RYGB"


# =========================================================================== 3.2 setup


def test_rule_3_2_1_seven_each_from_the_dealers_left() -> None:
    """3.2.1: 7 each, dealt one at a time from the dealer's left."""
    t = GAME.new_match(GAME.options(), 3, 11)
    state = t.state
    assert [len(h) for h in state.hands] == [7, 7, 7]
    hands = {e.only[0]: e.data["cards"] for e in of_kind(t.events, "hand")}
    assert set(hands) == {0, 1, 2}
    for seat in range(3):
        assert hands[seat] == hand(state, seat)
        assert [e.data["cards"] for e in events_for(t.events, seat) if e.kind == "hand"] == [hands[seat]]


def test_rule_3_2_2_a_non_number_starter_goes_back() -> None:
    """3.2.2: while the turned-up card is not a number, it goes back, the stock is shuffled and
    another is turned up; the colour is the starter's."""
    returned = 0
    for seed in range(60):
        t = GAME.new_match(GAME.options(), 2, seed)
        start = of_kind(t.events, "round_start")[0].data
        if "returned" in start:
            returned += 1
            assert start["returned"] >= 1
        top = DECK[t.state.discard[-1]]
        assert top[1:].isdigit() and t.state.colour == "RYGB".index(top[0])
        assert start["colour"] == top[0]
        # the returned card lies in the stock (conserved), unseen
        assert len(t.state.stock) == 108 - 15
    assert returned > 5  # about 30% of deals turn up an action card or a Wild first


def test_rule_3_2_3_dealer_first_player_and_the_deal_passing_left() -> None:
    """3.2.3: the player to the dealer's left plays first, clockwise; the first dealer is drawn
    from the match seed; the deal passes left for the next game (round, or rematch)."""
    dealers = set()
    for seed in range(30):
        state = GAME.new_match(GAME.options(), 4, seed).state
        dealers.add(state.dealer)
        assert state.turn == (state.dealer + 1) % 4 and state.direction == 1
    assert dealers == {0, 1, 2, 3}
    # a 500 match: the next round's dealer is the seat to the left
    # seat 0: R3           <- to act, goes out
    state = stacked({"match": "500"}, hands=["R3", "B1", "G1", "Y1"], discard="R9", dealer=3)
    t = act(state, 0, play("R3"))
    assert t.state.phase == Phase.ROUND_OVER
    s = t.state
    for seat in range(4):
        s = act(s, seat, READY).state
    assert s.round == 2 and s.dealer == 0 and s.turn == 1 and s.phase == Phase.PLAY
    # the default match is one game of one round (3.8.1): the next game, a rematch, passes it too
    for dealer in range(4):
        # seat (dealer + 1) % 4: its last card, R3  <- to act, goes out
        hands = ["B1", "G1", "Y1", "B2"]
        hands[(dealer + 1) % 4] = "R3"
        first = (dealer + 1) % 4
        over = act(stacked(hands=hands, discard="R9", dealer=dealer, turn=first), first, play("R3")).state
        assert over.phase == Phase.MATCH_OVER and over.carry() == {"dealer": (dealer + 1) % 4}
        for seed in range(5):
            nxt = GAME.new_match(GAME.options(), 4, seed, None, over.carry()).state
            assert nxt.dealer == (dealer + 1) % 4 and nxt.turn == (dealer + 2) % 4
    assert state.carry() is None  # nothing to hand on while the match goes on


# =========================================================================== 3.3 a turn


def test_rule_3_3_1_colour_number_symbol_or_wild() -> None:
    """3.3.1: a card of the active colour, of the top card's number or symbol, or a Wild."""
    # seat 0: R2 B7 BS Y4 W   <- to act
    # discard: G7 (top)  active: G
    state = stacked(hands=["G2 B7 BS Y4 W", "R1"], discard="G7")
    assert plays(state, 0) == ["B7", "G2", "W"]
    rejected(state, 0, play("BS"), IllegalActionError, ILLEGAL)
    rejected(state, 0, play("Y4"), IllegalActionError, ILLEGAL)
    # symbols match too: a Skip on a Skip
    state = stacked(hands=["BS Y4", "R1"], discard="GS")
    assert plays(state, 0) == ["BS"]
    # a Wild on top: only its named colour (and Wilds)
    state = stacked(hands=["BS Y4 R2", "R1"], discard="G1 W", colour="Y")
    assert plays(state, 0) == ["Y4"]


def test_rule_3_3_2_wd4_accepted_while_holding_the_colour() -> None:
    """3.3.2: a Wild Draw Four is accepted at any time, even with the active colour in hand."""
    # seat 0: R2 WD4      <- to act, holds red
    state = stacked(hands=["R2 WD4", "B1 B2"], discard="R7", stock="G1 G2 G3 G4")
    assert [a for a in state.legal_actions(0) if a.card == "WD4"] == [play("WD4", c) for c in "RYGB"]
    assert act(state, 0, play("WD4", "R")).state.bluff


def test_rule_3_3_3_draw_always_allowed_once_a_turn() -> None:
    """3.3.3: drawing is allowed whether or not the seat can play; once a turn."""
    # seat 0: R2 R3   <- to act; both playable
    # seat 1: B1
    # discard: R7 (top)  active: R
    # stock (next first): R4 R5
    state = stacked(hands=["R2 R3", "B1"], discard="R7", stock="R4 R5")
    assert DRAW in state.legal_actions(0)
    after = act(state, 0, DRAW).state
    assert DRAW not in after.legal_actions(0)
    rejected(after, 0, DRAW, IllegalActionError, ILLEGAL)


def test_rule_3_3_4_play_or_keep_the_drawn_card_or_the_turn_ends() -> None:
    """3.3.4: a playable drawn card may be played now or kept (ending the turn); an unplayable
    one ends the turn."""
    # seat 0: B2           <- to act
    # discard: R7 (top)  active: R
    # stock (next first): R1 G4
    state = stacked(hands=["B2", "Y1 Y2"], discard="R7", stock="R1 G4 G5")
    after = act(state, 0, DRAW).state
    assert after.turn == 0 and after.legal_actions(0) == (play("R1"), KEEP, CALL)
    assert after.view(0).to_wire()["drawn"] == "R1" and after.view(1).to_wire()["drawn"] is None
    assert after.view(1).to_wire()["drew"] is True
    kept = act(after, 0, KEEP)
    assert kept.state.turn == 1 and hand(kept.state, 0) == ["R1", "B2"]
    # the next draw is G4, not playable on R7: the turn ends at once
    t = act(stacked(hands=["B2", "Y1 Y2"], discard="R7", stock="G4"), 0, DRAW)
    assert t.state.turn == 1 and "turn" in kinds(t.events)
    # a drawn Wild names its colour when played
    w = act(stacked(hands=["B2", "Y1"], discard="R7", stock="W"), 0, DRAW).state
    assert w.legal_actions(0) == (*[play("W", c) for c in "RYGB"], KEEP, CALL)


def test_rule_3_3_5_empty_stock_is_rebuilt_top_and_colour_stay() -> None:
    """3.3.5: when a draw needs a card and the stock is empty, the cards under the top card are
    shuffled into a new stock; top card and active colour stay."""
    # seat 0: B2           <- to act
    # discard: R1 R2 R3 W (top)  active: G
    # stock: empty
    state = stacked(hands=["B2", "Y1"], discard="R1 R2 R3 W", colour="G")
    t = act(state, 0, DRAW)
    assert kinds(t.events)[0] == "reshuffle"
    assert of_kind(t.events, "reshuffle")[0].data == {"moved": 3, "count": 1}
    after = t.state
    assert [DECK[c] for c in after.discard] == ["W"] and after.colour == 2
    assert len(after.stock) == 2 and len(after.hands[0]) == 2
    # both piles exhausted: no voluntary draw is offered; with no play, pass
    stuck = stacked(hands=["B2", "Y1"], discard="G7")
    assert stuck.legal_actions(0) == (PASS,)
    p = act(stuck, 0, PASS)
    assert p.state.turn == 1 and of_kind(p.events, "pass")[0].data == {"seat": 0, "colour": "G", "top": "G7"}


def test_rule_3_3_5_a_required_draw_takes_what_exists() -> None:
    """3.3.5 [D]: a required draw (here a penalty) with too few cards takes what exists."""
    # seat 0: RD2 R1       <- to act
    # discard: R9 (top)  stock: Y1
    state = stacked(hands=["RD2 R1", "B1"], discard="R9", stock="Y1")
    t = timed(act(state, 0, play("RD2")).state)
    # Y1 from the stock, then the rebuilt stock (R9 under the top RD2): two cards in all
    assert len(t.state.hands[1]) == 3
    assert data_of(t.events, "draw", 1)[0]["count"] == 2
    # nothing at all: the penalty draws nothing
    empty = stacked(hands=["RD2 R1", "B1"], discard="RD2", pending=2, turn=1)
    t = timed(empty)
    assert len(t.state.hands[1]) == 1 and data_of(t.events, "draw", 1)[0]["cards"] == []


def test_rule_3_3_6_play_passes_in_the_current_direction() -> None:
    """3.3.6: play passes to the next seat in the current direction."""
    # seat 0: R2 R3   <- to act
    # seats 1-3: B1 / G1 / Y1
    # discard: R7 (top)  active: R  direction: -1, then 1
    state = stacked(hands=["R2 R3", "B1", "G1", "Y1"], discard="R7", direction=-1)
    assert act(state, 0, play("R2")).state.turn == 3
    state = stacked(hands=["R2 R3", "B1", "G1", "Y1"], discard="R7")
    assert act(state, 0, play("R2")).state.turn == 1


# =========================================================================== 3.4 action cards


def test_rule_3_4_skip_reverse_and_matching_symbols() -> None:
    """3.4: Skip skips the next seat; Reverse turns the direction; a Skip on a Skip, a Reverse
    on a Reverse, a Draw Two on a Draw Two of any colour."""
    # seat 0: BS BR Y5     <- to act
    # discard: GS (top)  active: G
    state = stacked(hands=["BS BR Y5", "R1", "R2", "R3"], discard="GS")
    assert plays(state, 0) == ["BS"]
    t = act(state, 0, play("BS"))
    assert t.state.turn == 2 and of_kind(t.events, "skip")[0].data == {"seat": 1}
    state = stacked(hands=["BS BR Y5", "R1", "R2", "R3"], discard="GR")
    assert plays(state, 0) == ["BR"]
    t = act(state, 0, play("BR"))
    assert t.state.turn == 3 and t.state.direction == -1
    assert "skip" not in kinds(t.events)
    state = stacked(hands=["BD2 Y5", "R1", "R2"], discard="RD2", pending=0)
    assert plays(state, 0) == ["BD2"]


def test_rule_3_4_draw_two_waits_reaction_ms_then_draws_itself() -> None:
    """3.4 [D], README decision 6: a Draw Two's penalty (stacking off) is drawn automatically
    after reaction_ms; meanwhile nobody is awaited and the victim cannot act."""
    # seat 0: RD2 R1 R2    <- to act
    # seat 1: B1 B2        (the victim)
    state = stacked({"reaction_ms": 1500}, hands=["RD2 R1 R2", "B1 B2", "G1"], discard="R9", stock="Y1 Y2 Y3")
    t = act(state, 0, play("RD2"))
    react = t.state
    assert react.phase == Phase.REACT and react.awaiting() == () and react.actors() == ()
    [due] = react.timed_actions()
    assert (due.seat, due.action, due.delay_ms, due.since) == (1, TAKE, 1500, react.version)
    assert react.legal_actions(1) == ()
    rejected(react, 1, play("B1"), IllegalActionError, ILLEGAL)
    rejected(react, 2, play("G1"), NotYourTurnError, NOT_YOURS)
    assert react.view(1).to_wire()["pending"] == 2 and react.view(2).to_wire()["phase"] == "react"
    after = timed(react).state
    assert len(after.hands[1]) == 4 and after.turn == 2


def test_rule_3_4_wild_names_any_colour_including_the_current_one() -> None:
    """3.4: a Wild names the next colour, any of the four, the current one included."""
    # seat 0: W R1   <- to act
    # seat 1: B1
    # discard: R7 (top)  active: R
    state = stacked(hands=["W R1", "B1"], discard="R7")
    assert [a.colour for a in state.legal_actions(0) if a.card == "W"] == ["R", "Y", "G", "B"]
    t = act(state, 0, play("W", "R"))
    assert t.state.colour == 0 and of_kind(t.events, "play")[0].data == {"seat": 0, "card": "W", "colour": "R"}
    t = act(state, 0, play("W", "B"))
    assert t.state.view(1).to_wire()["colour"] == "B"


def test_rule_3_4_wd4_waits_for_the_victim() -> None:
    """3.4: a Wild Draw Four waits for its victim's choice (take or challenge); no timer of its own."""
    # seat 0: WD4 R1 R2   <- to act
    # seat 1: B1 B2 B3    (the victim)
    # discard: R7 (top)  active: R
    # stock (next first): G1 G2 G3 G4
    t = act(stacked(hands=["WD4 R1 R2", "B1 B2 B3"], discard="R7", stock="G1 G2 G3 G4"), 0, play("WD4", "G"))
    assert t.state.awaiting() == (1,) and t.state.timed_actions() == ()
    assert t.state.legal_actions(1) == (TAKE, CHALLENGE)
    assert of_kind(t.events, "turn")[0].data == {"seat": 1, "pending": 4}


# =========================================================================== 3.5 challenge


def test_rule_3_5_1_take_four_instead() -> None:
    """3.5.1: the victim may take four instead of challenging: it draws 4 and loses its turn."""
    # seat 0: WD4 R1   <- to act
    # seat 1: B1 B2    (the victim)
    # seat 2: G1
    # discard: R7 (top)  active: R
    # stock (next first): Y1 Y2 Y3 Y4
    state = stacked(hands=["WD4 R1", "B1 B2", "G1"], discard="R7", stock="Y1 Y2 Y3 Y4")
    after = act(act(state, 0, play("WD4", "G")).state, 1, TAKE).state
    assert len(after.hands[1]) == 6 and after.turn == 2 and after.colour == 2


def test_rule_3_5_2_only_the_challenger_sees_the_hand() -> None:
    """3.5.2: only the challenger is shown the challenged hand; the rest learn the verdict and counts."""
    # seat 0: WD4 R1 B5   <- to act; holds red
    # seat 1: B1 B2       (the challenger)
    # seat 2: G1 G2
    # seat 3: Y1 Y2
    # discard: R7 (top)  active: R
    # stock (next first): Y3 Y4 Y5 Y6
    state = stacked(hands=["WD4 R1 B5", "B1 B2", "G1 G2", "Y1 Y2"], discard="R7", stock="Y3 Y4 Y5 Y6")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert [e.only for e in of_kind(t.events, "shown")] == [(1,)]
    for seat in (None, 0, 2, 3):
        assert "shown" not in seen(t.events, seat)
        public = data_of(t.events, "challenge", seat)[0]
        assert set(public) == {"kind", "seat", "target", "verdict", "hand_counts"}
    shown = [loc for loc in t.state.locations() if loc.name == "shown"]
    assert len(shown) == 1 and shown[0].seen_by == (1,) and not shown[0].counted
    assert shown[0].cards == ("R1", "B5")


def test_rule_3_5_3_the_verdict_counts_only_the_prior_colour() -> None:
    """3.5.3: a bluff means holding the colour in force before the WD4; Wilds and cards that
    match only the top card's number or symbol do not count."""
    # seat 0: WD4 W G7 BS   <- to act; top R7, active R: G7 matches only the number, no red
    state = stacked(hands=["WD4 W G7", "B1 B2"], discard="R7", stock="Y1 Y2 Y3 Y4 Y5 Y6")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "honest"
    # a Wild on top named blue: blue counts, red (the card under it) does not
    state = stacked(hands=["WD4 R1", "B1 B2"], discard="R7 W", colour="B", stock="Y1 Y2 Y3 Y4 Y5 Y6")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "honest"
    state = stacked(hands=["WD4 B9", "B1 B2"], discard="R7 W", colour="B", stock="Y1 Y2 Y3 Y4 Y5 Y6")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"


def test_rule_3_5_4_bluff_challenger_plays_under_the_named_colour() -> None:
    """3.5.4: bluff proven: the bluffer draws 4, the challenger draws nothing and plays its
    turn under the colour named with the WD4."""
    # seat 0: WD4 R1   <- to act; holds red: a bluff
    # seat 1: B1 G2    (the challenger)
    # seat 2: Y1
    # discard: R7 (top)  active: R
    # stock (next first): Y2 Y3 Y4 Y5
    state = stacked(hands=["WD4 R1", "B1 G2", "Y1"], discard="R7", stock="Y2 Y3 Y4 Y5")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    after = t.state
    assert len(after.hands[1]) == 2 and len(after.hands[0]) == 5
    assert after.turn == 1 and after.colour == 2 and plays(after, 1) == ["G2"]
    assert DRAW in after.legal_actions(1)


def test_rule_3_5_5_honest_challenger_draws_six() -> None:
    """3.5.5: no bluff: the challenger draws 6 and loses its turn; play goes on after it."""
    # seat 0: WD4 G1   <- to act; no red: honest
    # seat 1: B1 G2    (the challenger)
    # seat 2: Y1
    # discard: R7 (top)  active: R
    # stock (next first): Y2 Y3 Y4 Y5 Y6 Y7 Y8
    state = stacked(hands=["WD4 G1", "B1 G2", "Y1"], discard="R7", stock="Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert len(t.state.hands[1]) == 8 and t.state.turn == 2
    draws = data_of(t.events, "draw", 1)
    assert draws[0]["seat"] == 1 and len(draws[0]["cards"]) == 6 and draws[0]["reason"] == "challenge"


# =========================================================================== 3.6 last card


def test_rule_3_6_1_a_call_before_playing_with_two_cards() -> None:
    """3.6.1 (a): on one's turn with exactly 2 cards; not with 3; not twice."""
    # seat 0: R5 R6   <- to act, 2 cards
    # seat 1: B1 B2 B3
    # discard: R9 (top)  active: R
    # then: seat 0 with R5 R6 R7 (3 cards); and seat 1 not on turn
    state = stacked(hands=["R5 R6", "B1 B2 B3"], discard="R9", stock="Y1")
    assert CALL in state.legal_actions(0)
    called = act(state, 0, CALL).state
    assert called.called == 0 and CALL not in called.legal_actions(0)
    rejected(called, 0, CALL, IllegalActionError, ILLEGAL)
    three = stacked(hands=["R5 R6 R7", "B1"], discard="R9")
    rejected(three, 0, CALL, IllegalActionError, ILLEGAL)
    not_turn = stacked(hands=["R5 R6", "B1 B2"], discard="R9")
    rejected(not_turn, 1, CALL, IllegalActionError, ILLEGAL)


def test_rule_3_6_1_b_a_call_right_after_playing_to_one_card() -> None:
    """3.6.1 (b): right after a play that leaves one card, while the window is open; then no catch."""
    # seat 0: R5 R6   <- to act; plays R5 to one card
    # seat 1: B1 B2   (the next player)
    # seat 2: G1 G2
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2
    state = stacked(hands=["R5 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2")
    opened = act(state, 0, play("R5")).state
    t = act(opened, 0, CALL)
    assert t.state.window == -1 and data_of(t.events, "call", 1)[0]["when"] == "after"
    rejected(t.state, 2, CATCH, IllegalActionError, ILLEGAL)
    # too late once the window closed
    closed = act(opened, 1, DRAW).state
    rejected(closed, 0, CALL, IllegalActionError, ILLEGAL)


def test_rule_3_6_1_a_call_is_cancelled_by_a_turn_ending_with_two_or_more() -> None:
    """3.6.1 [D]: a call made before playing is cancelled if the turn ends with 2+ cards."""
    # seat 0: R5 G6        <- calls, then draws Y1 (unplayable): the turn ends with 3 cards
    state = stacked(hands=["R5 G6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3")
    called = act(state, 0, CALL).state
    t = act(called, 0, DRAW)
    assert "call_cancelled" in kinds(t.events) and t.state.called == -1
    # called, drew a playable R7 and played it: the turn ends with 2 cards: cancelled too
    s = stacked(hands=["R5 R6", "B1", "G1"], discard="R9", stock="R7", called=0)
    t = act(act(s, 0, DRAW).state, 0, play("R7"))
    assert "call_cancelled" in kinds(t.events) and t.state.window == -1 and t.state.called == -1


def test_rule_3_6_2_first_valid_catch_wins_false_catches_cost_nothing() -> None:
    """3.6.2: any other player may catch a one-card seat that has not called; only the first
    catch counts; a catch on nobody is refused and costs the catcher nothing."""
    # seat 0: R5 R6   <- to act; plays R5 to one card
    # seat 1: B1 B2
    # seat 2: G1 G2   (second catcher)
    # seat 3: Y5 Y6   (first catcher)
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2 Y3 Y4
    state = stacked(hands=["R5 R6", "B1 B2", "G1 G2", "Y5 Y6"], discard="R9", stock="Y1 Y2 Y3 Y4")
    opened = act(state, 0, play("R5")).state
    rejected(opened, 0, CATCH, IllegalActionError, ILLEGAL)  # not oneself
    first = act(opened, 3, CATCH).state
    message = rejected(first, 2, CATCH, IllegalActionError, ILLEGAL)
    assert "nobody is open to a catch" in message
    assert len(first.hands[2]) == 2 and len(first.hands[0]) == 3
    # the loser's epoch did not move: its catch on the same version is refused as illegal, not stale
    assert first.epoch(2) < first.version and first.epoch(0) == first.epoch(3) == first.version
    # nothing open at all
    rejected(state, 1, CATCH, IllegalActionError, ILLEGAL)


def test_rule_3_6_3_window_stays_open_through_a_skip_and_a_pass() -> None:
    """3.6.3 [D]: a skipped seat takes no action, so a Skip does not close the window; a pass
    does not either; the next play, draw or challenge by anyone does."""
    # seat 0: RS R6        <- plays the Skip to one card
    state = stacked(hands=["RS R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2")
    t = act(state, 0, play("RS"))
    assert t.state.window == 0 and t.state.turn == 2
    assert act(t.state, 2, CALL).state.window == 0  # a call (a) by the seat on turn leaves it open
    assert act(t.state, 2, DRAW).state.window == -1
    # a pass (nothing to draw, nothing to play) leaves it open too
    passing = stacked(hands=["R6", "B1 B2 B3", "G1 G2"], discard="R9", window=0, turn=1)
    assert passing.legal_actions(1) == (PASS, CATCH)
    assert act(passing, 1, PASS).state.window == 0
    # a challenge closes it: seat 0 played a WD4 to one card
    wd4 = act(stacked(hands=["WD4 R6", "B1 B2", "G1"], discard="R9", stock="Y1 Y2 Y3 Y4"), 0, play("WD4", "G"))
    assert wd4.state.window == 0
    assert act(wd4.state, 1, CHALLENGE).state.window == -1


def test_rule_3_6_3_the_targets_hand_size_changing_closes_it() -> None:
    """3.6.3: the window closes when the target's hand size changes (here: a bluff proven draws 4)."""
    # seat 0: WD4 R6   <- plays WD4 to one card, holding red: a bluff
    # seat 1: B1 B2    (the challenger)
    # seat 2: G1
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2 Y3 Y4
    state = stacked(hands=["WD4 R6", "B1 B2", "G1"], discard="R9", stock="Y1 Y2 Y3 Y4")
    t = act(act(state, 0, play("WD4", "G")).state, 1, CHALLENGE)
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
    assert len(t.state.hands[0]) == 5 and t.state.window == -1
    rejected(t.state, 2, CATCH, IllegalActionError, ILLEGAL)


def test_rule_3_6_3_a_draw_two_reaction_is_the_catch_window() -> None:
    """3.6.3 with 3.4: a Draw Two to one card opens the window during the reaction wait; the
    automatic penalty draw closes it."""
    # seat 0: RD2 R6   <- plays RD2 to one card
    # seat 1: B1 B2    (the victim)
    # seat 2: G1 G2
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2 Y3 Y4
    state = stacked(hands=["RD2 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2 Y3 Y4")
    react = act(state, 0, play("RD2")).state
    assert react.window == 0 and react.awaiting() == () and react.actors() == (0, 1, 2)
    assert react.legal_actions(1) == (CATCH,)  # the victim may catch too
    caught = act(react, 2, CATCH).state
    assert len(caught.hands[0]) == 3 and caught.timed_actions() == react.timed_actions()  # its clock runs on
    after = timed(react).state
    assert after.window == -1


def test_rule_3_6_4_going_out_needs_no_call() -> None:
    """3.6.4: playing the last card ends the round at once, with no call."""
    # seat 0: R6   <- to act, open to a catch (window 0)
    # seat 1: B1 B2
    # seat 2: G1
    # discard: R9 (top)  active: R
    state = stacked(hands=["R6", "B1 B2", "G1"], discard="R9", window=0)
    t = act(state, 0, play("R6"))
    assert t.state.phase == Phase.MATCH_OVER and of_kind(t.events, "round_over")[0].data["winner"] == 0
    assert t.state.actors() == ()


def test_rule_3_6_5_going_out_on_a_draw_card_the_next_draws_first() -> None:
    """3.6.5, 3.11.8: out on a Draw Two or WD4: the next seat draws the penalty (the whole
    stack with stacking) before scoring; no challenge."""
    # seat 0: RD2   <- to act, last card
    # seat 1: B1
    # seat 2: G1
    # discard: R9 (top)  active: R
    # stock (next first): Y5 Y6
    # then: seat 0 with WD4 alone; then stacking: seat 1 with GD2 alone facing RD2 (pending 2)
    state = stacked(hands=["RD2", "B1", "G1"], discard="R9", stock="Y5 Y6")
    t = act(state, 0, play("RD2"))
    assert kinds(t.events)[:3] == ["play", "draw", "draw"] and "round_over" in kinds(t.events)
    over = of_kind(t.events, "round_over")[0].data
    assert over["hands"][1] == ["Y5", "Y6", "B1"] and over["points"] == 1 + 5 + 6 + 1
    # a WD4 as the last card names no colour and cannot be challenged
    state = stacked(hands=["WD4", "B1", "G1"], discard="R9", stock="Y1 Y2 Y3 Y4")
    assert [a for a in state.legal_actions(0) if a.card] == [play("WD4")]
    t = act(state, 0, play("WD4"))
    assert len(t.state.hands[1]) == 5 and t.state.phase == Phase.MATCH_OVER
    # with stacking, the whole pending total
    state = stacked({"stacking": True}, hands=["B1 B2", "GD2", "G1"], discard="R9 RD2", pending=2, turn=1,
                    stock="Y1 Y2 Y3 Y4 Y5")
    t = act(state, 1, play("GD2"))
    assert len(t.state.hands[2]) == 5 and of_kind(t.events, "round_over")[0].data["winner"] == 1


# =========================================================================== 3.7 house rules


def test_rule_3_7_stacking_1_answers() -> None:
    """3.7 stacking 1: a pending Draw Two is answered by a Draw Two or WD4; a pending WD4 only
    by a WD4; a plain Wild is no answer (3.11.3)."""
    # stacking on
    # seat 0: R1
    # seat 1: BD2 WD4 W B1   <- to act, facing RD2 (pending 2), then WD4 (pending 4)
    # discard: R9 RD2 (top)
    s = stacked({"stacking": True}, hands=["R1", "BD2 WD4 W B1"], discard="R9 RD2", pending=2, turn=1)
    assert plays(s, 1) == ["BD2", "WD4"]
    assert s.legal_actions(1)[-1] == TAKE
    s = stacked({"stacking": True}, hands=["R1", "BD2 WD4 W B1"], discard="R9 WD4", colour="B", pending=4,
                turn=1)
    assert plays(s, 1) == ["WD4"] and CHALLENGE in s.legal_actions(1)
    rejected(s, 1, play("BD2"), IllegalActionError, ILLEGAL)


def test_rule_3_7_stacking_2_the_first_who_cannot_answer_takes_all() -> None:
    """3.7 stacking 2: the total grows 2 per Draw Two and 4 per WD4; the first who cannot answer
    takes the whole pile and loses its turn; play continues after it."""
    # stacking on
    # seat 0: RD2 R1 R2   <- to act
    # seat 1: GD2 G1 G2
    # seat 2: Y1 Y2      (no answer)
    # seat 3: B1 B2
    # discard: R9 (top)  active: R
    # stock (next first): B3 B4 B5 B6 B7
    s = stacked({"stacking": True}, hands=["RD2 R1 R2", "GD2 G1 G2", "Y1 Y2", "B1 B2"], discard="R9",
                stock=" ".join(["B3", "B4", "B5", "B6", "B7"]))
    s = act(s, 0, play("RD2")).state
    s = act(s, 1, play("GD2")).state
    assert s.pending == 4 and s.legal_actions(2) == (TAKE, CALL)
    t = act(s, 2, TAKE)
    assert len(t.state.hands[2]) == 6 and t.state.turn == 3


def test_rule_3_7_stacking_3_a_player_who_could_stack_may_decline() -> None:
    """3.7 stacking 3, README decision 6: with stacking_mandatory off, an answer may be declined."""
    # stacking on
    # seat 0: R1
    # seat 1: BD2 B1 B2   <- to act, facing RD2 (pending 2)
    # discard: R9 RD2 (top)
    # stock (next first): Y1 Y2
    s = stacked({"stacking": True}, hands=["R1", "BD2 B1 B2"], discard="R9 RD2", pending=2, turn=1,
                stock="Y1 Y2")
    assert TAKE in s.legal_actions(1) and play("BD2") in s.legal_actions(1)
    assert len(act(s, 1, TAKE).state.hands[1]) == 5


def test_rule_3_7_stacking_3_mandatory() -> None:
    """3.7 stacking 3, 3.11.4: stacking_mandatory removes only the choice to take the pile while
    an answer is held; the challenge of a single WD4 stays."""
    # stacking on, stacking_mandatory on
    # seat 0: R1
    # seat 1: BD2 B1 B2   <- to act, facing RD2 (pending 2)
    # discard: R9 RD2 (top)
    # then: seat 1 WD4 B1 B2 facing a WD4; B1 B2 facing RD2; and mandatory without stacking
    options = {"stacking": True, "stacking_mandatory": True}
    s = stacked(options, hands=["R1", "BD2 B1 B2"], discard="R9 RD2", pending=2, turn=1)
    assert TAKE not in s.legal_actions(1)
    rejected(s, 1, TAKE, IllegalActionError, ILLEGAL)
    assert s.default_action(1) == TIMER_TAKE  # the seat may not take; its timer does (3.7)
    s = stacked(options, hands=["R1", "WD4 B1 B2"], discard="R9 WD4", colour="G", pending=4, turn=1)
    assert s.legal_actions(1) == (play("WD4", "R"), play("WD4", "Y"), play("WD4", "G"), play("WD4", "B"), CHALLENGE)
    # without an answer, the pile is taken
    s = stacked(options, hands=["R1", "B1 B2"], discard="R9 RD2", pending=2, turn=1)
    assert s.legal_actions(1) == (TAKE, CALL)
    # without stacking, the mandatory flag changes nothing
    s = stacked({"stacking_mandatory": True}, hands=["R1", "BD2 B1"], discard="R9 RD2", pending=2, turn=1,
                stock="Y1 Y2")
    assert s.phase == Phase.REACT and len(timed(s).state.hands[1]) == 4


def test_rule_3_7_stacking_4_a_stacked_wd4_names_a_colour() -> None:
    """3.7 stacking 4: a WD4 used to stack sets a new colour."""
    # stacking on
    # seat 0: R1
    # seat 1: WD4 B1   <- to act, facing RD2 (pending 2)
    # discard: R9 RD2 (top)
    s = stacked({"stacking": True}, hands=["R1", "WD4 B1"], discard="R9 RD2", pending=2, turn=1)
    after = act(s, 1, play("WD4", "Y")).state
    assert after.colour == 1 and after.pending == 6


def test_rule_3_7_stacking_5_off_by_default_as_the_official_rules() -> None:
    """3.7 stacking 5: the official rules do not stack, so stacking is an option, off by default:
    then a Draw Two's victim cannot answer with its own Draw Two (it draws, automatically)."""
    # seat 0: RD2 R1 R2    <- to act
    # seat 1: BD2 B1       (holds a Draw Two, may not stack it)
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2
    assert GAME.options().stacking is False
    state = stacked(hands=["RD2 R1 R2", "BD2 B1", "G1 G2"], discard="R9", stock="Y1 Y2")
    react = act(state, 0, play("RD2")).state
    assert react.legal_actions(1) == () and react.phase == Phase.REACT
    rejected(react, 1, play("BD2"), IllegalActionError, ILLEGAL)
    after = timed(react).state
    assert hand(after, 1) == ["Y1", "Y2", "B1", "BD2"] and after.turn == 2


def test_rule_3_7_stacking_6_challenge_only_a_single_unstacked_wd4() -> None:
    """3.7 stacking 6: a challenge only against a single WD4 that was not played on a pending
    penalty and that nobody stacked on."""
    # stacking on
    # seat 0: WD4 R1   <- to act
    # seat 1: WD4 B1
    # seat 2: G1 G2
    # discard: R9 (top)  active: R
    # stock: Y1 .. Y8
    # then: seat 1 WD4 B1 facing RD2 (pending 2)
    opts = {"stacking": True}
    s = stacked(opts, hands=["WD4 R1", "WD4 B1", "G1 G2"], discard="R9", stock="Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    s = act(s, 0, play("WD4", "G")).state
    assert CHALLENGE in s.legal_actions(1)
    s = act(s, 1, play("WD4", "B")).state
    assert s.pending == 8 and CHALLENGE not in s.legal_actions(2)
    rejected(s, 2, CHALLENGE, IllegalActionError, ILLEGAL)
    # a WD4 played on a pending Draw Two cannot be challenged either
    s = stacked(opts, hands=["R1", "WD4 B1", "G1 G2"], discard="R9 RD2", pending=2, turn=1)
    s = act(s, 1, play("WD4", "B")).state
    assert CHALLENGE not in s.legal_actions(2)


def test_rule_3_7_timer_1_and_2_default_action() -> None:
    """3.7 timer 1-2: out of time: take the pending penalty (a WD4 as Draw 4, never a challenge),
    else draw one; the drawn card is never played; call and catch are not the timer's."""
    # stacking on: seat 1 B1 B2 facing RD2 (pending 2)
    # then: seat 0 R1 R2 on R9, stock R3 (drawn, playable)
    # then: seat 0 B1 on R9, nothing to draw (pass); seat 0 R1 on R9, nothing to draw
    s = stacked({"stacking": True}, hands=["R1", "B1 B2"], discard="R9 RD2", pending=2, turn=1)
    assert s.default_action(1) == TAKE
    s = stacked(hands=["R1 R2", "B1"], discard="R9", stock="R3")
    assert s.default_action(0) == DRAW_KEEP and s.default_action(1) is None
    timed = act(s, 0, DRAW_KEEP).state  # R3 is playable, and kept: the timer never plays
    assert timed.turn == 1 and len(timed.hands[0]) == 3
    after = act(s, 0, DRAW).state  # a draw of one's own, then time runs out
    assert after.default_action(0) == KEEP
    # the timer's draw is refused where a draw is (the seat already drew; not its turn)
    rejected(after, 0, DRAW_KEEP, IllegalActionError, ILLEGAL)
    rejected(s, 1, DRAW_KEEP, NotYourTurnError, NOT_YOURS)
    stuck = stacked(hands=["B1", "Y1"], discard="R9")
    assert stuck.default_action(0) == PASS
    # nothing to draw but a card to play: "draw 1 card" draws none (3.3.5), and play moves on
    empty = stacked(hands=["R1 B2", "Y1"], discard="R9")
    assert DRAW not in empty.legal_actions(0) and empty.default_action(0) == DRAW_KEEP
    t = act(empty, 0, DRAW_KEEP)
    assert kinds(t.events) == ["pass", "turn"] and t.state.turn == 1 and t.state.hands[0] == empty.hands[0]
    # ... and only for the seat on turn
    rejected(empty, 1, DRAW_KEEP, NotYourTurnError, NOT_YOURS)
    # mandatory stacking with an answer held: the timer takes the pending stack all the same (3.7
    # timer 1: "the player takes the pending penalty"), and never plays the answer (3.11.7)
    held = stacked({"stacking": True, "stacking_mandatory": True}, hands=["R1", "GD2 B1"], discard="R9 RD2",
                   pending=2, turn=1, stock="Y1 Y2")
    assert TAKE not in held.legal_actions(1) and held.default_action(1) == TIMER_TAKE
    t = act(held, 1, TIMER_TAKE)
    assert hand(t.state, 1) == ["Y1", "Y2", "GD2", "B1"] and t.state.turn == 0


# =========================================================================== 3.8 end and scoring


def test_rule_3_8_1_one_round_is_the_match_by_default() -> None:
    """3.8.1: the goal is to be first with no cards; one game is one round (the default match)."""
    # seat 0: R3   <- to act, last card
    # seat 1: B1
    # discard: R9 (top)  active: R
    assert GAME.options().match == "round"
    t = act(stacked(hands=["R3", "B1"], discard="R9"), 0, play("R3"))
    assert t.state.phase == Phase.MATCH_OVER and kinds(t.events)[-2:] == ["round_over", "match_over"]
    rejected(t.state, 1, READY, RoundOverError, "action/round_over")
    assert t.state.outcome().winners == (0,)  # type: ignore[union-attr]


def test_rule_3_8_1_going_out_wins_when_the_others_hold_zeros() -> None:
    """3.8.1: the one who goes out wins, though the others' hands score nothing (a rules audit
    found every seat named a winner here: the winners were the best totals, all 0)."""
    # seat 0: R5   <- to act, last card
    # seat 1: Y0   seat 2: B0   (0 points)
    # discard: R3 (top)  active: R
    t = act(stacked(hands=["R5", "Y0", "B0"], discard="R3", stock="G1 G2"), 0, play("R5"))
    assert t.state.phase == Phase.MATCH_OVER and t.state.scores == (0, 0, 0)
    assert t.state.outcome().winners == (0,)  # type: ignore[union-attr]
    assert of_kind(t.events, "match_over")[0].data["winners"] == [0]


def test_rule_3_8_2_points_of_every_kind_of_card() -> None:
    """3.8.2, 3.11.10: numbers their value, Skip/Reverse/Draw Two 20, Wild and WD4 50."""
    # seat 0: R3               <- to act, last card
    # seat 1: R0 Y9 GS BR RD2  (0 + 9 + 20 + 20 + 20)
    # seat 2: W WD4             (50 + 50)
    # discard: R9 (top)  active: R
    t = act(stacked(hands=["R3", "R0 Y9 GS BR RD2", "W WD4"], discard="R9"), 0, play("R3"))
    assert of_kind(t.events, "round_over")[0].data["points"] == 0 + 9 + 60 + 100


def test_rule_3_8_3_match_to_500() -> None:
    """3.8.3: the 500 match: rounds until a total reaches 500; only the round winner scores."""
    # match 500; scores 420 and 480
    # seat 0: R3      <- to act, last card
    # seat 1: W WD4   (100 points: 520 ends the match)
    # then: seat 1 holds R1 (1 point: 421, the match goes on)
    # discard: R9 (top)  active: R
    s = stacked({"match": "500"}, hands=["R3", "W WD4"], discard="R9", scores=(420, 480))
    t = act(s, 0, play("R3"))
    assert t.state.phase == Phase.MATCH_OVER and t.state.scores == (520, 480)
    assert t.state.outcome().winners == (0,)  # type: ignore[union-attr]
    s = stacked({"match": "500"}, hands=["R3", "R1"], discard="R9", scores=(420, 480))
    t = act(s, 0, play("R3"))
    assert t.state.phase == Phase.ROUND_OVER and t.state.scores == (421, 480) and t.state.outcome() is None
    assert t.state.awaiting() == (0, 1) and t.state.default_action(1) == READY
    s = act(t.state, 1, READY).state
    assert s.awaiting() == (0,) and s.epoch(1) == s.version and s.epoch(0) < s.version
    s = act(s, 0, READY)
    assert s.state.round == 2 and "round_start" in kinds(s.events) and s.state.scores == (421, 480)


# =========================================================================== 3.9 product features


def test_rule_3_9_1_the_server_checks_every_card() -> None:
    """3.9.1: the game checks every card played: a card not held, or not matching, is refused."""
    # seat 0: R1 G5   <- to act
    # seat 1: B1
    # discard: R9 (top)  active: R
    s = stacked(hands=["R1 G5", "B1"], discard="R9")
    assert "not in seat 0's hand" in rejected(s, 0, play("Y7"), IllegalActionError, ILLEGAL)
    assert "matches neither" in rejected(s, 0, play("G5"), IllegalActionError, ILLEGAL)
    rejected(s, 1, play("B1"), NotYourTurnError, NOT_YOURS)


def test_rule_3_9_2_hands_on_phones_the_table_on_a_shared_screen() -> None:
    """3.9.2: each hand goes to its own seat only; the shared screen (a spectator's view) shows
    the table and no hand; dealt hands reach their owners alone."""
    t = GAME.new_match(GAME.options(), 3, 8)
    screen = t.state.view(None).to_wire()
    assert screen["hand"] is None and screen["hand_counts"] == [7, 7, 7] and screen["legal"] == []
    assert "hand" not in seen(t.events, None)
    for seat in range(3):
        assert [e.only for e in events_for(t.events, seat) if e.kind == "hand"] == [(seat,)]
        assert t.state.view(seat).to_wire()["hand"] == hand(t.state, seat)


def test_rule_3_9_3_the_host_sets_the_house_rules_before_starting() -> None:
    """3.9.3: the host enables stacking (or the timer: the table's turn limit) before starting:
    the options of the host request, checked; anything else is refused."""
    options = GAME.options_from_wire({"preset": "standard", "stacking": True})
    assert options.stacking and not options.stacking_mandatory
    with pytest.raises(BadOptionsError):
        GAME.options_from_wire({"stacking": "on"})
    with pytest.raises(BadOptionsError):
        GAME.options_from_wire({"turn_seconds": 30})  # the timer is the table's, not a game option
    state = GAME.new_match(options, 2, 1).state
    assert state.view(0).to_wire()["stacking"] is True


def test_rule_3_9_5_public_data_in_every_view() -> None:
    """3.9.5: the top card, active colour and every count are public: in every view, a
    spectator's too; a hand only in its own seat's view."""
    # seat 0: R1 G5   <- to act
    # seat 1: B1 B2 B3
    # discard: R9 (top)  active: R
    s = stacked(hands=["R1 G5", "B1 B2 B3"], discard="R9")
    for seat in (None, 0, 1):
        v = s.view(seat).to_wire()
        assert v["top"] == "R9" and v["colour"] == "R" and v["hand_counts"] == [2, 3]
    assert s.view(None).to_wire()["hand"] is None and s.view(1).to_wire()["hand"] == ["B1", "B2", "B3"]


# =========================================================================== 3.11 readings


def test_rule_3_11_1_a_wild_and_its_colour_are_one_action() -> None:
    """3.11.1: the colour is named with the Wild; a Wild without one is refused, and a coloured
    card naming one too."""
    # seat 0: W R1   <- to act (then W alone: the last card)
    # seat 1: B1
    # discard: R9 (top)  active: R
    s = stacked(hands=["W R1", "B1"], discard="R9")
    assert "must name a colour" in rejected(s, 0, play("W"), IllegalActionError, ILLEGAL)
    assert "only a Wild names a colour" in rejected(s, 0, play("R1", "G"), IllegalActionError, ILLEGAL)
    last = stacked(hands=["W", "B1"], discard="R9")
    assert "name no colour" in rejected(last, 0, play("W", "G"), IllegalActionError, ILLEGAL)


def test_rule_3_11_2_two_seat_reverse_flips_the_stored_direction() -> None:
    """3.11.2: at 2 seats a Reverse acts as a Skip and the direction flips as at more seats."""
    # seat 0: RR R1   <- to act
    # seat 1: B1
    # discard: R9 (top)  active: R
    s = act(stacked(hands=["RR R1", "B1"], discard="R9"), 0, play("RR")).state
    assert s.turn == 0 and s.direction == -1 and s.view(1).to_wire()["direction"] == -1


def test_rule_3_11_3_no_plain_wild_and_no_play_while_a_draw_two_waits() -> None:
    """3.11.3: with stacking on, a plain Wild is no answer; with it off, the victim draws
    automatically and loses the turn (covered with 3.4)."""
    # stacking on
    # seat 0: R1
    # seat 1: W B1   <- to act, facing RD2 (pending 2)
    # discard: R9 RD2 (top)
    s = stacked({"stacking": True}, hands=["R1", "W B1"], discard="R9 RD2", pending=2, turn=1)
    assert s.legal_actions(1) == (TAKE, CALL)
    assert "penalty is pending" in rejected(s, 1, play("W", "G"), IllegalActionError, ILLEGAL)


def test_rule_3_11_4_mandatory_keeps_the_challenge() -> None:
    """3.11.4: mandatory stacking leaves the challenge of a single WD4 (see 3.7 stacking 3)."""
    # stacking on, stacking_mandatory on
    # seat 0: B1
    # seat 1: WD4 B2   <- to act, facing a WD4 (pending 4, named G)
    # discard: R9 WD4 (top)
    s = stacked({"stacking": True, "stacking_mandatory": True}, hands=["B1", "WD4 B2"], discard="R9 WD4",
                colour="G", pending=4, turn=1)
    assert CHALLENGE in s.legal_actions(1) and TAKE not in s.legal_actions(1)


def test_rule_3_11_5_judged_on_the_hand_right_after_the_wd4() -> None:
    """3.11.5: the verdict and the shown hand are the hand as it was right after the WD4 left
    it, against the colour in force just before: cards drawn since (a catch) are not shown."""
    # seat 0: WD4 R6       <- plays the WD4 to one card, holding red: a bluff
    state = stacked(hands=["WD4 R6", "B1 B2", "G1"], discard="R9", stock="G7 G8 Y1 Y2 Y3 Y4")
    s = act(state, 0, play("WD4", "B")).state
    caught = act(s, 2, CATCH).state  # seat 0 draws G7 G8
    assert hand(caught, 0) == ["R6", "G7", "G8"]
    t = act(caught, 1, CHALLENGE)
    assert data_of(t.events, "shown", 1)[0]["cards"] == ["R6"]
    assert of_kind(t.events, "challenge")[0].data["verdict"] == "bluff"
    assert t.state.view(1).to_wire()["shown"] == {"seat": 0, "cards": ["R6"]}
    # the evidence stays in the challenger's view until the next turn action, then goes
    assert act(t.state, 1, play("B1")).state.view(1).to_wire()["shown"] is None


def test_rule_3_11_6_pass_only_when_stuck_and_nothing_to_draw() -> None:
    """3.11.6: pass exists only with no playable card and nothing to draw."""
    # seat 0: B1   <- to act, nothing playable on R9; stock G1 (may draw)
    # then: seat 0 R1 (playable), nothing to draw; then B1, nothing to draw
    # seat 1: Y1
    rejected(stacked(hands=["B1", "Y1"], discard="R9", stock="G1"), 0, PASS, IllegalActionError, ILLEGAL)
    rejected(stacked(hands=["R1", "Y1"], discard="R9"), 0, PASS, IllegalActionError, ILLEGAL)
    assert stacked(hands=["B1", "Y1"], discard="R9").legal_actions(0) == (PASS,)


def test_rule_3_11_7_time_after_a_draw_keeps_the_card() -> None:
    """3.11.7: time running out after a draw keeps the card; the timer never plays nor draws twice."""
    # seat 0: B1 B2   <- to act, draws R3 (playable)
    # seat 1: Y1
    # discard: R9 (top)  active: R
    # stock (next first): R3
    s = act(stacked(hands=["B1 B2", "Y1"], discard="R9", stock="R3"), 0, DRAW).state
    assert s.default_action(0) == KEEP
    t = act(s, 0, KEEP)
    assert t.state.turn == 1 and hand(t.state, 0) == ["R3", "B1", "B2"]


def test_rule_3_11_8_out_on_a_wd4_ends_at_once() -> None:
    """3.11.8: going out on a Draw card ends the round at once: no further turn, answer or challenge."""
    # stacking on
    # seat 0: WD4      <- to act, last card
    # seat 1: WD4 B1   (could have stacked)
    # discard: R9 (top)  active: R
    # stock (next first): Y1 Y2 Y3 Y4
    s = stacked({"stacking": True}, hands=["WD4", "WD4 B1"], discard="R9", stock="Y1 Y2 Y3 Y4")
    t = act(s, 0, play("WD4"))
    assert t.state.phase == Phase.MATCH_OVER and t.state.legal_actions(1) == ()
    assert of_kind(t.events, "round_over")[0].data["hands"][1] == ["Y1", "Y2", "Y3", "Y4", "B1", "WD4"]


def test_rule_3_11_9_the_stock_is_rebuilt_when_a_draw_needs_a_card() -> None:
    """3.11.9: the stock is rebuilt when a draw needs a card and it is empty, not when it empties."""
    # seat 0: B1 B2   <- to act, draws G1 (the last stock card)
    # seat 1: Y1 Y2   (draws next: the stock is rebuilt then)
    # discard: R1 R2 R9 (top)  active: R
    # stock (next first): G1
    s = stacked(hands=["B1 B2", "Y1 Y2"], discard="R1 R2 R9", stock="G1")
    t = act(s, 0, DRAW)
    assert "reshuffle" not in kinds(t.events) and t.state.stock == ()
    assert len(t.state.discard) == 3
    t = act(t.state, 1, DRAW)
    assert kinds(t.events)[0] == "reshuffle" and len(t.state.discard) == 1


def test_rule_3_11_10_wd4_scores_fifty() -> None:
    """3.11.10: a Wild Draw Four counts 50, like a Wild."""
    assert card_points([DECK.index("WD4")]) == card_points([DECK.index("W")]) == 50


# =========================================================================== README decisions 6 and 7


def test_readme_decision_6() -> None:
    """README 6: an answer may be declined (3.7 stacking 3); a challenge only against a single
    unstacked WD4 (3.7 stacking 6); the automatic penalty waits 1.5 s by default; a single
    round is the default match, 500 an option."""
    options = GAME.options()
    assert options.reaction_ms == 1500 and options.match == "round"
    assert not options.stacking and not options.stacking_mandatory
    specs = {o.name: o for o in GAME.info.presets[0].options}
    assert specs["reaction_ms"].default == 1500 and (specs["reaction_ms"].min, specs["reaction_ms"].max) == (0, 5000)
    assert specs["match"].choices == ("round", "500")
    s = act(stacked(hands=["RD2 R1", "B1"], discard="R9", stock="Y1 Y2"), 0, play("RD2")).state
    assert s.timed_actions()[0].delay_ms == 1500


def test_readme_decision_7_is_3_11() -> None:
    """README 7 settles the readings of 3.11: each has its test above (test_rule_3_11_*)."""
    names = [n for n in globals() if n.startswith("test_rule_3_11_")]
    assert len({n.split("_")[4] for n in names}) == 10


def test_deal_code_names_round_one() -> None:
    """A deal code (dealcode.py) gives the same round 1, whatever the match seed."""
    first = GAME.new_match(GAME.options(), 5, 1234).state
    code = first.deal_code
    again = GAME.new_match(GAME.options(), 5, 999, deal_code=code).state
    assert again.hands == first.hands and again.stock == first.stock and again.dealer == first.dealer
    assert dealcode.decode(code) == dealcode.DealSpec(5, first.dealer, first.seed)
