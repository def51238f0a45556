"""Kartu Terakhir: the turn timer (3.7 "Batas waktu per giliran", 3.11.7) and what its moves show,
and the parts of PROTOCOL.md an outside client needs to rebuild a deal or follow a table (issue 25).

The timer's moves are the two actions ``legal`` never lists (the timer's, not choices to
offer) that ``apply`` accepts all the same: ``draw_keep`` and ``timer_take``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from meja.games import kartu_terakhir
from meja.games.kartu_terakhir import dealcode
from meja.games.kartu_terakhir.rules import CARD_COUNT, DECK, INFO, card_name
from meja.rules import IllegalActionError, NotYourTurnError, events_for
from meja.rules.rng import Rng

from .kt_helpers import (
    CHALLENGE,
    DRAW,
    DRAW_KEEP,
    GAME,
    KEEP,
    TAKE,
    Kind,
    Move,
    act,
    hand,
    kinds,
    play,
    rejected,
    stacked,
)

PROTOCOL_MD = (Path(kartu_terakhir.__file__).parent / "PROTOCOL.md").read_text(encoding="utf-8")
MANDATORY = {"stacking": True, "stacking_mandatory": True}


def timer_take() -> Move:
    """The timer's take, through the wire door (``{"kind": "timer_take"}``)."""
    move: Move = GAME.decode_action({"kind": "timer_take"})
    return move


# =========================================================================== 3.7: the timer takes the stack


def test_the_timer_takes_the_pending_stack_under_mandatory_stacking() -> None:
    """3.7 timer 1 ("the player takes the pending penalty if there is one"), 3.11.7 (the timer
    never plays a card): with mandatory stacking and an answer in hand, the seat's time running
    out takes the pile; the default bot (which would stack or challenge) is not asked."""
    # stacking on, stacking_mandatory on
    # seat 0: GD2 R1 R2    <- to act, plays GD2
    # seat 1: YD2 B2 B3    (holds an answer: the only choice it has is to stack YD2)
    # seat 2: B4 B5
    # discard: G9 (top)  active: G
    # stock (next first): R3 R4 R5 R6
    s = stacked(MANDATORY, hands=["GD2 R1 R2", "YD2 B2 B3", "B4 B5"], discard="G9", stock="R3 R4 R5 R6")
    s = act(s, 0, play("GD2")).state
    assert s.pending == 2 and s.legal_actions(1) == (play("YD2"),)
    move = s.default_action(1)
    assert move is not None, "the timer must take the stack, not hand the move to a bot"
    assert move.kind != Kind.PLAY and move not in s.legal_actions(1)  # the timer's, not a choice
    assert move == timer_take() and GAME.decode_action(move.to_wire()) == move
    assert move.to_wire() == {"kind": "timer_take"}
    t = act(s, 1, move)
    assert hand(t.state, 1) == ["R3", "R4", "YD2", "B2", "B3"]  # the pile taken, the answer kept
    assert t.state.turn == 2 and t.state.pending == 0  # 3.7 stacking 2: and the turn lost
    assert kinds(t.events) == ["draw", "draw", "turn"]
    assert [e.to_wire() for e in events_for(t.events, 0) if e.kind == "draw"] == [
        {"kind": "draw", "seat": 1, "count": 2, "reason": "penalty"}
    ]
    # the seat's own take is still refused: mandatory stacking holds for choices (3.11.4)
    rejected(s, 1, TAKE, IllegalActionError, "action/illegal")
    # the timer's take is the seat on turn's, and only while a penalty is pending against it
    rejected(s, 0, timer_take(), NotYourTurnError, "action/not_your_turn")
    rejected(t.state, 2, timer_take(), IllegalActionError, "action/illegal")


def test_the_timer_takes_a_wild_draw_four_unchallenged_under_mandatory_stacking() -> None:
    """3.7 timer 2: "a pending WD4 at timeout is taken as Draw 4, with no challenge", though the
    seat holds a Wild Draw Four it would otherwise have to stack (3.11.4)."""
    # stacking on, stacking_mandatory on
    # seat 0: R1
    # seat 1: WD4 B1 B2   <- to act, facing a single WD4 (pending 4; challengeable)
    # discard: R9 WD4 (top)  active: G (named), red before it
    # stock (next first): Y1 Y2 Y3 Y4
    s = stacked(MANDATORY, hands=["R1", "WD4 B1 B2"], discard="R9 WD4", colour="G", pending=4, turn=1,
                stock="Y1 Y2 Y3 Y4")
    assert TAKE not in s.legal_actions(1) and CHALLENGE in s.legal_actions(1)
    assert s.default_action(1) == timer_take()
    t = act(s, 1, timer_take())
    assert hand(t.state, 1) == ["Y1", "Y2", "Y3", "Y4", "B1", "B2", "WD4"] and t.state.turn == 0
    assert "challenge" not in kinds(t.events)


def test_where_take_is_a_choice_the_timer_still_takes_with_it() -> None:
    """The timer-only take stands in only where mandatory stacking removed ``take``; elsewhere the
    timer's move is the legal ``take`` (the logs and transcripts of those tables are unchanged),
    and ``timer_take`` is accepted there too (it is the same move)."""
    # stacking on (not mandatory): seat 1 GD2 B1 facing RD2 (pending 2)
    s = stacked({"stacking": True}, hands=["R1", "GD2 B1"], discard="R9 RD2", pending=2, turn=1, stock="Y1 Y2")
    assert s.default_action(1) == TAKE
    assert act(s, 1, timer_take()).state.to_data() == act(s, 1, TAKE).state.to_data()


# =========================================================================== 3.7: what the timer's draw shows


def _public_shapes(events: tuple, drawer: int, seats: int) -> set[tuple[tuple[str, tuple[str, ...]], ...]]:
    """The shape (kinds and fields, in order) of the events every seat but the drawer sees, and a
    spectator."""
    out = set()
    for seat in [*(s for s in range(seats) if s != drawer), None]:
        out.add(tuple((e.kind, tuple(sorted(e.data))) for e in events_for(events, seat)))
    return out


def test_the_timer_draw_shows_the_others_nothing_of_the_drawn_card() -> None:
    """3.7 timer 1: the timer's draw ends the turn whatever the card, so nothing it sends the other
    seats may depend on whether the card could have been played: over many seeded deals and moves,
    the events other seats (and spectators) see have the same shapes, playable or not (a
    ``call_cancelled`` depends on the hand's size alone)."""
    shapes: dict[bool, set[tuple[tuple[str, tuple[str, ...]], ...]]] = {True: set(), False: set()}
    samples = {True: 0, False: 0}
    rng = random.Random(25)
    for game in range(60):
        seats = 2 + game % 5
        state = GAME.new_match(None, seats, 0x25_0000 + game).state
        for _ in range(200):
            if not state.in_round():
                break
            seat = state.turn
            legal = state.legal_actions(seat)
            if legal and state.default_action(seat) == DRAW_KEEP and DRAW in legal and state.stock:
                playable = state.apply(seat, DRAW).state.turn == seat  # a voluntary draw keeps the turn
                t = state.apply(seat, DRAW_KEEP)
                assert t.state.turn != seat and not t.state.legal_actions(seat)  # the turn ended, either way
                shapes[playable] |= _public_shapes(t.events, seat, seats)
                samples[playable] += 1
            actors = state.actors() or tuple(t.seat for t in state.timed_actions())
            if not actors:
                break
            mover = rng.choice(actors)
            options = state.legal_actions(mover) or tuple(t.action for t in state.timed_actions())
            state = state.apply(mover, rng.choice(options)).state
    assert samples[True] >= 20 and samples[False] >= 20, samples
    assert shapes[True] == shapes[False], f"playable: {shapes[True]} / unplayable: {shapes[False]}"


def test_the_timer_draw_looks_like_a_draw_that_ended_the_turn() -> None:
    """The timer's draw of a playable card sends the others what a voluntary draw of an unplayable
    one does (``draw``, ``turn``): no ``keep``, which is the answer to a choice the timer never had
    (PROTOCOL.md section 6)."""
    # seat 0: R5 G7        <- to act
    # seat 1: B1 B2
    # discard: R9 (top)  active: R
    # stock (next first): R3 (playable) / Y1 (not playable)
    playable = stacked(hands=["R5 G7", "B1 B2"], discard="R9", stock="R3 Y2 Y3")
    unplayable = stacked(hands=["R5 G7", "B1 B2"], discard="R9", stock="Y1 Y2 Y3")
    timer = act(playable, 0, DRAW_KEEP)
    voluntary = act(unplayable, 0, DRAW)
    for seat in (1, None):
        assert [e.to_wire() for e in events_for(timer.events, seat)] == [
            e.to_wire() for e in events_for(voluntary.events, seat)
        ]
    assert kinds(timer.events) == ["draw", "draw", "turn"]
    # a voluntary draw of a playable card keeps its choice, and its keep, public (PROTOCOL.md 6)
    chose = act(playable, 0, DRAW).state
    assert chose.turn == 0 and chose.view(1).to_wire()["drew"] is True
    assert kinds(act(chose, 0, KEEP).events) == ["keep", "turn"]


# =========================================================================== PROTOCOL.md for outside clients


def _deal_as_protocol_md_says(seats: int, dealer: int, seed: int) -> tuple[list[list[str]], str, list[str], int]:
    """Section 8, step by step, written from the text alone: the hands, the starter, the stock
    (next card first) and how often a turned-up card went back."""
    deck, rng = Rng(seed, "deal").shuffle(list(range(CARD_COUNT)))  # card-id order, stream "deal"
    cards = [DECK[c] for c in deck]
    rank = {name: i for i, name in enumerate(dict.fromkeys(DECK))}
    hands: list[list[str]] = [[] for _ in range(seats)]
    first = (dealer + 1) % seats
    for j in range(seats * 7):  # one at a time from the front, from the seat after the dealer
        hands[(first + j) % seats].append(cards[j])
    rest = cards[seats * 7 :]
    returned = 0
    while not rest[0][1:].isdigit() or rest[0][0] not in "RYGB":  # a number card is a colour and a digit
        returned += 1
        ids, rng = rng.shuffle([*range(1, len(rest)), 0])  # the rest, then the turned-up card last
        rest = [rest[i] for i in ids]
    return [sorted(h, key=rank.__getitem__) for h in hands], rest[0], rest[1:], returned


def test_a_deal_rebuilds_from_its_code_as_protocol_md_section_8_says() -> None:
    """Section 8 says where a turned-up card that is not a number goes back (after the rest of the
    list, then all shuffled again on stream ``deal``), so a client rebuilds a deal from its code:
    every hand, the starter and the stock, for deals with and without a card sent back."""
    section = " ".join(PROTOCOL_MD.split("## 8. Deal codes", 1)[1].split("## 9.", 1)[0].split())
    assert "followed by the turned-up card" in section
    returned_seen = set()
    for seed in range(1, 400):
        seats, dealer = 2 + seed % 9, seed % (2 + seed % 9)
        code = dealcode.encode(dealcode.DealSpec(seats, dealer, seed * 0x9E3779B97F4A7C15))
        spec = dealcode.decode(code)
        t = GAME.new_match(None, seats, 0, deal_code=code)
        hands, starter, stock, returned = _deal_as_protocol_md_says(spec.seats, spec.dealer, spec.seed)
        state = t.state
        assert [hand(state, s) for s in range(seats)] == hands
        assert card_name(state.discard[-1]) == starter
        assert [card_name(c) for c in reversed(state.stock)] == stock
        [start] = [e for e in t.events if e.kind == "round_start"]
        assert start.data.get("returned", 0) == returned
        returned_seen.add(returned)
    assert {0, 1, 2} <= returned_seen, returned_seen


def test_a_rebuilt_stock_is_drawn_as_protocol_md_section_8_says() -> None:
    """Section 8: the k-th rebuild shuffles the pile under the top card, bottom card first, on
    stream ``reshuffle/k`` of the round's seed, and the stock is drawn from the front of that list."""
    # seat 0: R5 G7        <- to act, draws 3 times over two turns (the stock is empty)
    # seat 1: B1 B2
    # discard: R1 R2 R3 R4 Y4 Y5 Y6 Y7 R9 (top)  active: R
    section = " ".join(PROTOCOL_MD.split("## 8. Deal codes", 1)[1].split("## 9.", 1)[0].split())
    assert "bottom card first" in section and '"reshuffle/k"' in section
    pile = "R1 R2 R3 R4 Y4 Y5 Y6 Y7 R9"
    state = stacked(hands=["R5 G7", "B1 B2"], discard=pile, seed=0x2525)
    t = act(state, 0, DRAW_KEEP)
    assert kinds(t.events)[0] == "reshuffle"
    stock, _ = Rng(0x2525, "reshuffle/1").shuffle(pile.split()[:-1])
    [mine] = [e for e in events_for(t.events, 0) if e.kind == "draw"]
    assert mine.data["cards"] == [stock[0]]
    assert [card_name(c) for c in reversed(t.state.stock)] == list(stock[1:])


def test_protocol_md_names_the_events_the_table_pauses_for() -> None:
    """The catalog's ``hold_events`` (the table pauses visibly; bots wait longer) are said in the
    game's section, each one in its event row."""
    assert INFO.hold_events == frozenset({"challenge", "reshuffle"})
    assert "`hold_events`" in PROTOCOL_MD
    for kind in sorted(INFO.hold_events):
        [row] = [line for line in PROTOCOL_MD.splitlines() if line.startswith(f"| `{kind}` |")]
        assert "pauses" in row, row


def test_protocol_md_says_which_views_carry_the_deal_code() -> None:
    """The core adds the round's ``deal_code`` to the view of a seat every other seat of which is a
    bot (core section 12): the view table says so, and says no other view carries it."""
    rows = [line for line in PROTOCOL_MD.splitlines() if line.startswith("| `deal_code`")]
    assert len(rows) == 1 and "every other seat" in rows[0] and "bot" in rows[0], rows
    assert not re.search(r"never carries the deal code of the round in progress", PROTOCOL_MD)
