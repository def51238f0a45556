"""Kartu Terakhir ("Last Card"): GatherPlay's UNO-like shedding game for 2-10 seats.

The rules are ``docs/rules/kartu-terakhir.md`` (sections 3.1-3.11) with the
decisions 6 and 7 of ``docs/rules/README.md``; comments cite their numbers.

Rules in brief
--------------
One 108-card deck in four colours, red, yellow, green and blue (3.1.2): per
colour one 0, two each of 1-9, two Skips, two Reverses and two Draw Twos; and
four Wilds and four Wild Draw Fours, which have no colour. Each seat is dealt 7
(3.2.1); the first *number* card of the stock is turned up as the starter
(3.2.2: a Skip, Reverse, Draw Two or Wild turned up goes back into the stock,
which is reshuffled, until a number comes up); its colour is the active colour.
The first dealer is drawn from the match seed; the seat to the dealer's left
(the next seat, ``dealer + 1``) plays first, clockwise (3.2.3). The deal passes to
the left for the next game: the next round of a match to 500, and a rematch
(``carry``), one game being one round of the default match (3.8.1).

On a turn a seat plays one card that matches the active colour, or the number
or symbol of the top card, or any Wild or Wild Draw Four (3.3.1, 3.3.2: a Wild
Draw Four is always accepted; whether it was a bluff is judged only by a
challenge, 3.5). Instead it may draw one card, even with a playable card
(3.3.3); a drawn card that can be played may be played at once or kept, and no
other card may be played after a draw (3.3.4); a drawn card that cannot be
played ends the turn. A seat with no playable card and nothing to draw passes
(3.3.5, 3.11.6). A Skip skips the next seat; a Reverse turns the direction (at
2 seats it acts as a Skip, and the stored direction still flips: 3.11.2); a
Draw Two makes the next seat draw 2 and lose its turn; a Wild names the next
colour, a Wild Draw Four names it and makes the next seat draw 4 and lose its
turn unless it challenges (3.4). When the stock is empty and a draw needs a
card, the discard pile under its top card is shuffled into a new stock (3.3.5,
3.11.9); with nothing left to draw, a draw takes what exists, possibly nothing.

**Challenge** (3.5): the victim of a Wild Draw Four may ``challenge`` instead of
taking four. The challenged seat bluffed if, right after the Wild Draw Four left
its hand, it held a card of the colour in force just before it (3.5.3, 3.11.5;
Wilds have no colour; a card matching only the top card's number or symbol does
not count). Bluff: the challenged seat draws 4 and the challenger plays its
turn normally, under the colour the Wild Draw Four named (3.5.4). No bluff: the
challenger draws 6 and loses its turn (3.5.5). Only the challenger is shown the
challenged hand, as it was right after the Wild Draw Four (3.5.2, 3.11.5).

**Last card** (3.6): a seat on its turn holding exactly 2 cards may ``call``
before it plays (3.6.1 a); the call is cancelled if its turn ends with 2 or
more cards (a draw instead of a play). A seat whose own play leaves it with one
card without having called is *open to a catch*: the catch window opens (3.6.3)
and, while it is open, the seat may still ``call`` (3.6.1 b) and any other seat
may ``catch`` it (3.6.2): the first catch wins, and the caught seat draws 2. The
window closes at the next play, draw (voluntary, penalty or catch penalty) or
challenge by anyone, or when the target's hand size changes; a skipped seat
takes no action, so a Skip does not close it, and neither does a pass or a call
before a play.

**Going out** (3.6.4, 3.11.8): playing the last card ends the round at once, no
call needed. If that card is a Draw Two or Wild Draw Four the next seat draws the
penalty (the whole pending total with stacking) before the hands are scored;
no challenge or stacking answer is offered.

Options (preset ``standard``; all off by default, 3.7)
-------------------------------------------------------
=======================  =================  ===============================================
option                   default            meaning
=======================  =================  ===============================================
``stacking``             ``false``          3.7 stacking 1-6: a pending Draw Two may be
                                            answered with a Draw Two or a Wild Draw Four, a
                                            pending Wild Draw Four only with a Wild Draw Four;
                                            the total grows (2 or 4 each) until a seat takes it
``stacking_mandatory``   ``false``          3.7 stacking 3, 3.11.4: a seat that holds an answer
                                            may not take the pile (no effect without stacking)
``match``                ``"round"``        ``"round"``: one round is the match (3.8.1);
                                            ``"500"``: rounds until a score reaches 500 (3.8.3)
``reaction_ms``          ``1500``           0-5000: the automatic penalty draw of a Draw Two
                                            (stacking off) waits this long, so that the catch
                                            window can be used first (3.4, README decision 6)
=======================  =================  ===============================================

The per-turn time limit (3.7) is the table's turn limit (``turn_limit_s`` of the
host request), not an option of the game; when it runs out the server applies
:meth:`KartuTerakhirState.default_action`.

Cards (wire names)
------------------
A card is its colour letter, ``R`` ``Y`` ``G`` ``B``, and its symbol: ``0``-``9``,
``S`` (Skip, *Lewati*), ``R`` (Reverse, *Putar Balik*), ``D2`` (Draw Two, *Ambil
Dua*): ``"R7"``, ``"GS"``, ``"BR"``, ``"YD2"``. The Wild (*Ganti Warna*) is ``"W"``,
the Wild Draw Four (*Ganti Warna Ambil Empat*) ``"WD4"``. Physical copies share
their name (two ``"R7"``, four ``"W"``): they are the same card in play, and a
``play`` names the card, not the copy. Inside the engine every physical card has
its own id, 0-107: per colour (R, Y, G, B) 0, 1, 1, 2, 2, ... 9, 9, S, S, R, R, D2,
D2, then W x4, WD4 x4. Hands are kept, and sent, in that order.

Actions (sorted in this order: plays by card id then colour, draw, keep, pass,
take, challenge, call, catch, ready)
---------------------------------------------------------------------------
``play CARD [COLOUR]`` (a Wild or Wild Draw Four names the colour with the card,
3.11.1, except as the seat's last card, which ends the round and names none);
``draw`` (one card, once a turn); ``keep`` (after drawing a playable card: keep it
and end the turn); ``pass`` (3.11.6); ``take`` (take the pending penalty and lose
the turn); ``challenge`` (3.5); ``call`` (last card, 3.6.1 a or b); ``catch``
(3.6.2); ``ready`` (between rounds of a ``500`` match).

How it maps onto the game contract (:mod:`meja.rules.game`)
-----------------------------------------------------------
- ``awaiting()`` is the seat on turn (a Wild Draw Four's victim choosing,
  a stacking victim answering); between rounds, the seats not yet ready. While a
  Draw Two's automatic penalty waits (phase ``react``) nobody is awaited: a bot
  victim would otherwise draw after its thinking pause, before anyone could catch.
- ``actors()`` adds, while a catch window is open, every seat: the target may
  ``call``, every other seat may ``catch``.
- ``timed_actions()``: in phase ``react``, the victim's ``take`` after
  ``reaction_ms``, listed from the version of the Draw Two (a catch in between does
  not restart it). A ``take`` sent by the victim itself during the wait is the same
  action and is accepted: it only takes its penalty sooner.
- ``epoch(seat)``: a ``call``, a ``catch`` and a ``ready`` make only the acting seat's
  decision (and a caught seat's) stale; every other action concerns everyone. So a
  second catch that lost the race is refused as illegal (the window is closed),
  not as stale.
- ``period()``: a new turn (a bluffed challenger's own turn too), the wait in
  ``react``, the wait for ``ready``. A draw and the play or keep after it share one
  turn, and one clock.
- ``default_action(seat)``: 3.7: take the pending penalty, else draw one and end the
  turn (``draw_keep``: the drawn card kept even if playable, "play moves on"), else
  keep a drawn card (3.11.7), else pass; never a play, never a challenge, and never
  ``None`` on a turn (the default bot is not asked). ``draw_keep`` and ``timer_take``
  (the take where mandatory stacking removed ``take``) are the two actions ``legal``
  never lists (they are the timer's, no choices to offer); ``apply`` accepts
  ``draw_keep`` wherever ``draw`` is legal and ``timer_take`` wherever a penalty is
  pending against the seat on turn, so that the log replays them like any action.

What each seat sees (``view``)
------------------------------
Its own hand (sorted by card id); every seat's count; the top card, the active
colour and the direction; whose turn it is, the phase, whether the seat on turn
has drawn (and, to that seat only, which card); the pending penalty and whether
it can be challenged; whether a catch window is open and for whom; who has
called; the stock and discard sizes (never the stock order); scores, the last
round's result, the options; and ``legal``. To the challenger only, the
challenged hand until the next play, draw, take, pass or challenge. Never another
hand, the stock, a seed, or the deal code of the round in progress (the server adds
that code to the view of a seat every other seat of which is a bot: core protocol 12).

Scoring (3.8)
-------------
The round winner scores the cards left in the other hands: a number its face
value, a Skip, Reverse or Draw Two 20, a Wild or Wild Draw Four 50 (3.8.2,
3.11.10). ``round``: the match is that round. ``500``: rounds are dealt by the next
seat to the left each time until a total reaches 500 (only the winner scores, so
one seat reaches it).

Readings settled here where the rules are silent
------------------------------------------------
- **Copies share a name** (``"R7"`` twice): identical cards are interchangeable, so
  a ``play`` of a name plays the copy with the lowest id, and ``legal`` lists each
  name once.
- **Going out on a Wild** names no colour (as an 8 in Crazy Eights): the round is over.
- **One catch window at a time**: a window opens only with a play, and any play
  closes the one before, so ``catch`` names no target.
- **A pass does not close the window** (3.6.3 lists play, draw and challenge only);
  nor does a call (a) by the seat on turn.
- **The call (a) is allowed whenever it is the seat's turn and it holds 2 cards**,
  after a draw too, and while facing a pending penalty (it may answer with a
  stacking card to one card); any turn that ends with 2 or more cards cancels it
  (event ``call_cancelled``). A seat that called (a) and plays to one card opens no
  window.
- **Catch by any other seat**, the seat on turn and a penalty's victim included; a
  failed catch (none open, the target called, the window closed) is refused and
  costs nothing (3.6.2).
- **Draw Two with stacking on** waits for the victim (it may answer, take or call);
  only the stacking-off Draw Two draws automatically (3.4, README decision 6).
- **The challenged hand stays in the challenger's view** until the next play, draw,
  take, pass or challenge, so that a client that reconnects still sees the evidence.
- **Timeout corners** (3.7, 3.11.7): with a playable card and nothing to draw (all
  other cards in hands), the timer's ``draw_keep`` draws none and ends the turn (3.3.5:
  "as many cards as exist, possibly none"; on the wire a ``pass``, which keeps a catch
  window open as any pass does). With mandatory stacking and an answer held, ``take``
  is not legal (the seat may not choose to take, 3.11.4), and the timer takes the pile
  all the same with ``timer_take`` (3.7 timer 1: "the player takes the pending penalty
  if there is one"; 3.11.7: the timer never plays a card, so it cannot stack for the
  seat, and a bot's choice would stack or challenge).
- **The timer's draw tells nobody whether the card was playable**: it ends the turn
  whatever the card, so its events are those of a draw that ended the turn (``draw``,
  ``turn``), with no ``keep``, which would say the card could have been played.
- **A voluntary draw does tell** (decided, not overlooked): 3.3.4 ends the turn at once
  on an unplayable card and leaves a playable one's drawer a choice, and whose turn it
  is is public (the turn, the table's ``awaiting``, the turn clock), so a drawer still
  on turn has drawn a playable card; the view's ``drew`` and the ``keep`` event only
  say it outright. A real table shows the same (everyone sees whether the player who
  drew stops to consider the card); hiding it would need every draw to wait for a
  ``keep``, a step 3.3.4 does not have and a tap for every unplayable draw.
- **A starter that is not a number** goes back unseen: the ``round_start`` event says
  how often it happened (``returned``), not which cards (3.2.2 has them turned up; on a
  server that would only tell everyone which cards lie in the stock).
- **The table pauses** (``hold_events``) after a rebuilt stock and after a challenge's
  verdict, so that people see them before the bots move on.
- **The round result reveals every hand** (they are scored) and the finished
  round's deal code, as the core protocol's fair-deal section says; the view never
  carries the code of the round in progress.

Determinism
-----------
All chance comes from :class:`~meja.rules.rng.Rng`. The match seed draws the first
dealer and each round's 128-bit seed; a round deals with stream ``deal`` of its
seed (the starter's reshuffles continue that stream) and the k-th rebuild of the
stock uses stream ``reshuffle/k``, so a deal code (seats, dealer, seed) fixes the
hands, starter and stock, and the same moves give the same reshuffles.

Speed
-----
Like the Crazy Eights engine: actions are ints (:class:`Move`, interned, so
sorting and membership are C comparisons); legal actions of the seat on turn are
cached on the immutable state; the next state is an instance-dict copy, not
``dataclasses.replace``; playability is a precomputed table per (active colour,
top symbol). ``meja bench rules --game kartu_terakhir`` measures it.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any, Final, Literal

from meja.rules.errors import (
    BadActionError,
    BadOptionsError,
    BadSeatError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
)
from meja.rules.game import (
    DealInfo,
    Event,
    GameInfo,
    Location,
    OptionSpec,
    Outcome,
    PresetInfo,
    RoundPoints,
    StateDefaults,
    Timed,
    Transition,
    Wire,
    check_options,
)
from meja.rules.rng import Rng

from . import dealcode

__all__ = [
    "CALL",
    "CATCH",
    "CHALLENGE",
    "DECK",
    "DRAW",
    "GAME",
    "KEEP",
    "PASS",
    "READY",
    "TAKE",
    "TIMER_TAKE",
    "KartuTerakhir",
    "KartuTerakhirOptions",
    "KartuTerakhirState",
    "KartuTerakhirView",
    "Kind",
    "Move",
    "Phase",
    "card_points",
    "reshuffled",
]

GAME_NAME: Final = "kartu_terakhir"
TITLE: Final = "Kartu Terakhir"
HAND_SIZE: Final = 7  # 3.2.1
MATCH_TARGET: Final = 500  # 3.8.3
MIN_SEATS: Final = 2
MAX_SEATS: Final = 10  # 3.1.1

# --------------------------------------------------------------------------- cards

COLOURS: Final = ("R", "Y", "G", "B")
COLOUR_WORDS: Final = ("red", "yellow", "green", "blue")
_SYMBOL_TEXT: Final = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "D2", "W", "WD4")
_SYMBOL_WORDS: Final = (*(str(i) for i in range(10)), "Skip", "Reverse", "Draw Two", "Wild", "Wild Draw Four")
SKIP: Final = 10
REVERSE: Final = 11
DRAW_TWO: Final = 12
WILD: Final = 13
WILD_DRAW_FOUR: Final = 14
NO_COLOUR: Final = 4


def _layout() -> list[tuple[int, int]]:
    """(colour, symbol) of each card id (3.1.2): see the module docstring for the order."""
    out: list[tuple[int, int]] = []
    for colour in range(4):
        out.append((colour, 0))
        for n in range(1, 10):
            out += [(colour, n), (colour, n)]
        for sym in (SKIP, REVERSE, DRAW_TWO):
            out += [(colour, sym), (colour, sym)]
    out += [(NO_COLOUR, WILD)] * 4 + [(NO_COLOUR, WILD_DRAW_FOUR)] * 4
    return out


_LAYOUT: Final = _layout()
CARD_COUNT: Final = len(_LAYOUT)  # 108
COLOUR: Final = tuple(c for c, _ in _LAYOUT)
SYM: Final = tuple(s for _, s in _LAYOUT)
#: the name index of each card id: colour * 13 + symbol for coloured cards, 52 Wild, 53 Wild Draw Four
NAMEIX: Final = tuple(c * 13 + s if c < 4 else 52 + (s - WILD) for c, s in _LAYOUT)
NAMES: Final = tuple([COLOURS[i // 13] + _SYMBOL_TEXT[i % 13] for i in range(52)] + ["W", "WD4"])
_NAME: Final = tuple(NAMES[i] for i in NAMEIX)
#: every physical card's wire name, in id order (what ``Game.deck`` returns)
DECK: Final = _NAME
IDS_OF: Final = tuple(tuple(i for i in range(CARD_COUNT) if NAMEIX[i] == n) for n in range(len(NAMES)))
FIRST_ID: Final = tuple(ids[0] for ids in IDS_OF)
NAMEIX_OF: Final = {name: i for i, name in enumerate(NAMES)}
_COLOUR_OF: Final = {letter: i for i, letter in enumerate(COLOURS)}
#: 3.8.2, 3.11.10: numbers their face value, Skip/Reverse/Draw Two 20, Wild/Wild Draw Four 50
POINTS: Final = tuple(s if s < 10 else 20 if s < WILD else 50 for s in SYM)
IS_WILD: Final = tuple(s >= WILD for s in SYM)
_IS_NUMBER: Final = tuple(s < 10 for s in SYM)
#: PLAYABLE[colour * 15 + top symbol][card] == 1 when the card may be played (3.3.1, 3.3.2)
PLAYABLE: Final = tuple(
    bytes(
        1 if IS_WILD[c] or COLOUR[c] == key // 15 or (SYM[c] == key % 15 and key % 15 < WILD) else 0
        for c in range(CARD_COUNT)
    )
    for key in range(60)
)
#: 3.7 stacking 1: the answers to a pending Draw Two (a Draw Two or a Wild Draw Four) and to a Wild Draw Four
ANSWER_D2: Final = bytes(1 if SYM[c] in (DRAW_TWO, WILD_DRAW_FOUR) else 0 for c in range(CARD_COUNT))
ANSWER_WD4: Final = bytes(1 if SYM[c] == WILD_DRAW_FOUR else 0 for c in range(CARD_COUNT))
#: a card of each colour, for the challenge verdict (3.5.3: Wilds have no colour)
_OF_COLOUR: Final = tuple(frozenset(i for i in range(CARD_COUNT) if COLOUR[i] == c) for c in range(4))


def reshuffled(seed: int, count: int, under: Sequence[int]) -> tuple[int, ...]:
    """3.3.5: the new stock (``[-1]`` drawn first) when the round's ``count``-th reshuffle turns the
    pile under the top card, ``under``, face down (stream ``reshuffle/count`` of the round's seed)."""
    shuffled, _ = Rng(seed, f"reshuffle/{count}").shuffle(tuple(under))
    return tuple(reversed(shuffled))


def card_points(cards: Sequence[int]) -> int:
    """The points of cards by id (3.8.2): what a round's winner scores for a losing hand."""
    return sum(POINTS[c] for c in cards)


def card_name(card: int) -> str:
    """The wire name of a card id: ``card_name(0) == "R0"``."""
    return _NAME[card]


def describe(name: str) -> str:
    """A card's words: ``describe("GD2") == "green Draw Two"``, ``describe("W") == "Wild"``."""
    i = NAMEIX_OF[name]
    if i >= 52:
        return _SYMBOL_WORDS[WILD + i - 52]
    return f"{COLOUR_WORDS[i // 13]} {_SYMBOL_WORDS[i % 13]}"


# --------------------------------------------------------------------------- options


MatchMode = Literal["round", "500"]


@dataclass(frozen=True, slots=True)
class KartuTerakhirOptions:
    """The options of a table (see the module docstring), fully defaulted: preset ``standard``."""

    preset: str = "standard"
    stacking: bool = False
    stacking_mandatory: bool = False
    match: MatchMode = "round"
    reaction_ms: int = 1500

    def to_wire(self) -> dict[str, Wire]:
        """Plain data; one shared dict per distinct options value (treat it as read-only)."""
        return _options_wire(self)


@functools.lru_cache(maxsize=64)
def _options_wire(options: KartuTerakhirOptions) -> dict[str, Wire]:
    return {f.name: getattr(options, f.name) for f in fields(options)}


OPTION_SPECS: Final = (
    OptionSpec("stacking", "bool", False),
    OptionSpec("stacking_mandatory", "bool", False, when=(("stacking", (True,)),)),
    OptionSpec("match", "choice", "round", choices=("round", "500")),
    OptionSpec("reaction_ms", "int", 1500, min=0, max=5000, step=1),
)

INFO: Final = GameInfo(
    name=GAME_NAME,
    title=TITLE,
    presets=(PresetInfo("standard", MIN_SEATS, MAX_SEATS, 4, OPTION_SPECS),),
    deal_codes=True,
    # the table pauses visibly after a rebuilt stock and after a challenge's verdict
    hold_events=frozenset({"reshuffle", "challenge"}),
)


# --------------------------------------------------------------------------- actions


class Kind(IntEnum):
    """Action kinds, in the order legal actions are sorted."""

    PLAY = 0
    DRAW = 1
    KEEP = 2
    PASS = 3
    TAKE = 4
    CHALLENGE = 5
    CALL = 6
    CATCH = 7
    READY = 8
    #: the turn timer's draw (3.7): draw one and end the turn, the card kept even if playable;
    #: never in ``legal`` (not a choice to offer), accepted wherever ``draw`` is
    DRAW_KEEP = 9
    #: the turn timer's take (3.7): take the pending penalty and lose the turn, even where mandatory
    #: stacking removed ``take`` (3.11.4); never in ``legal``, accepted whenever a penalty is pending
    #: against the seat on turn
    TIMER_TAKE = 10

    @property
    def wire(self) -> str:
        return _KIND_WIRE[self]


_KIND_WIRE: Final = (
    "play",
    "draw",
    "keep",
    "pass",
    "take",
    "challenge",
    "call",
    "catch",
    "ready",
    "draw_keep",
    "timer_take",
)
_KIND_OF_WIRE: Final = {name: Kind(i) for i, name in enumerate(_KIND_WIRE)}
_KIND_STEP: Final = 1000


class Move(int):
    """One action, as an int: ``kind * 1000`` plus, for a play, ``card name index * 5 + colour``
    (colour 0-3, or 4 for none). So actions sort, hash and compare as ints do, which is most
    of what the hot path does with them. Build them with :meth:`play` and the constants
    (:data:`DRAW`, :data:`CATCH`...): those are interned.
    """

    __slots__ = ()

    @property
    def kind(self) -> Kind:
        return Kind(self // _KIND_STEP)

    @property
    def card(self) -> str | None:
        """The card a play names (its wire name), else ``None``."""
        return NAMES[self % _KIND_STEP // 5] if self < _KIND_STEP else None

    @property
    def colour(self) -> str | None:
        """The colour a Wild play names (a letter), else ``None``."""
        slot = self % 5
        return COLOURS[slot] if self < _KIND_STEP and slot < 4 else None

    @staticmethod
    def play(card: str, colour: str | None = None) -> Move:
        """``Move.play("R7")``, ``Move.play("W", "G")``; ``ValueError`` for a name that is not one."""
        name = NAMEIX_OF.get(card) if isinstance(card, str) else None
        if name is None:
            raise ValueError(f"not a card of {TITLE}: {card!r}")
        if colour is None:
            return _PLAYS[name][NO_COLOUR]
        slot = _COLOUR_OF.get(colour) if isinstance(colour, str) else None
        if slot is None:
            raise ValueError(f"not a colour: {colour!r}; colours are {list(COLOURS)}")
        return _PLAYS[name][slot]

    def to_wire(self) -> dict[str, Wire]:
        return dict(_WIRE[self])

    def __str__(self) -> str:
        return " ".join(str(v) for v in _WIRE[self].values())

    def __repr__(self) -> str:
        return f"Move({self})"


def _move_wire(value: int) -> dict[str, Wire]:
    kind = value // _KIND_STEP
    out: dict[str, Wire] = {"kind": _KIND_WIRE[kind]}
    if kind == 0:
        out["card"] = NAMES[value // 5]
        if value % 5 < 4:
            out["colour"] = COLOURS[value % 5]
    return out


_PLAYS: Final = tuple(tuple(Move(n * 5 + slot) for slot in range(5)) for n in range(len(NAMES)))
DRAW: Final = Move(Kind.DRAW * _KIND_STEP)
KEEP: Final = Move(Kind.KEEP * _KIND_STEP)
PASS: Final = Move(Kind.PASS * _KIND_STEP)
TAKE: Final = Move(Kind.TAKE * _KIND_STEP)
CHALLENGE: Final = Move(Kind.CHALLENGE * _KIND_STEP)
CALL: Final = Move(Kind.CALL * _KIND_STEP)
CATCH: Final = Move(Kind.CATCH * _KIND_STEP)
READY: Final = Move(Kind.READY * _KIND_STEP)
DRAW_KEEP: Final = Move(Kind.DRAW_KEEP * _KIND_STEP)
TIMER_TAKE: Final = Move(Kind.TIMER_TAKE * _KIND_STEP)
_ALL_MOVES: Final = tuple(m for row in _PLAYS for m in row) + (
    DRAW,
    KEEP,
    PASS,
    TAKE,
    CHALLENGE,
    CALL,
    CATCH,
    READY,
    DRAW_KEEP,
    TIMER_TAKE,
)
_WIRE: Final = {int(m): _move_wire(m) for m in _ALL_MOVES}
#: a play of a card id, naming a colour (0-3) or none (4): what the legal actions are built from
PLAY_OF: Final = tuple(_PLAYS[NAMEIX[c]] for c in range(CARD_COUNT))
WILD_PLAYS: Final = tuple(PLAY_OF[c][:4] for c in range(CARD_COUNT))
#: the action of each kind but play (index 0, a play, is never looked up)
_BY_KIND: Final[tuple[Move, ...]] = (DRAW, DRAW, KEEP, PASS, TAKE, CHALLENGE, CALL, CATCH, READY, DRAW_KEEP, TIMER_TAKE)
_ONLY_CALL: Final = (CALL,)
_ONLY_CATCH: Final = (CATCH,)
_ONLY_READY: Final = (READY,)


# --------------------------------------------------------------------------- state


class Phase(IntEnum):
    PLAY = 0
    #: a Draw Two's automatic penalty is waiting reaction_ms (stacking off): nobody is awaited
    REACT = 1
    #: the round is scored; every seat says ``ready`` for the next deal (a ``500`` match)
    ROUND_OVER = 2
    MATCH_OVER = 3

    @property
    def wire(self) -> str:
        return ("play", "react", "round_over", "match_over")[self]


_PLAY: Final = Phase.PLAY
_REACT: Final = Phase.REACT
_ROUND_OVER: Final = Phase.ROUND_OVER
_MATCH_OVER: Final = Phase.MATCH_OVER
_SEAT: Final = tuple((s,) for s in range(MAX_SEATS))
_ALL: Final = tuple(tuple(range(n)) for n in range(MAX_SEATS + 1))
_tuple_new: Final = tuple.__new__


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: the winner, the points it scored, every hand as it was scored, the deal code."""

    round: int
    winner: int
    points: int
    hands: tuple[tuple[int, ...], ...]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "round": self.round,
            "winner": self.winner,
            "points": self.points,
            "hands": [[_NAME[c] for c in h] for h in self.hands],
            "deal_code": self.deal_code,
        }


def _event(
    kind: str, data: dict[str, Wire], only: tuple[int, ...] | None = None, hidden: tuple[int, ...] = ()
) -> Event:
    e: Event = _tuple_new(Event, (kind, data, only, hidden))
    return e


@dataclass(frozen=True)
class KartuTerakhirState(StateDefaults):
    """A match of Kartu Terakhir between whole decisions. Build one with :meth:`KartuTerakhir.new_match`
    (or :meth:`KartuTerakhir.stacked` for a laid-out scenario).

    Cards are ids (0-107, see the module docstring); hands are sorted by id;
    ``stock[-1]`` is the next card drawn and ``discard[-1]`` the top card. Seats
    count ``-1`` as "none" (``window``, ``called``, ``drawn``...).

    Not ``slots=True``, on purpose: :meth:`_evolve_with` copies the instance dict in
    one ``dict.update``, several times cheaper than ``dataclasses.replace``.
    """

    options: KartuTerakhirOptions
    seats: int
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    dealer: int
    seed: int
    reshuffles: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    #: the active colour, 0-3 (R Y G B)
    colour: int
    #: +1 clockwise (the next seat is seat + 1), -1 after an odd number of Reverses
    direction: int
    turn: int
    #: the version at which the current decision period began (period())
    turn_v: int
    #: the card drawn this turn, playable, that alone may now be played (or kept); -1: none
    drawn: int
    #: the penalty the seat on turn faces (cards), 0: none
    pending: int
    #: whether the pending penalty is a single, unstacked Wild Draw Four (3.7 stacking 6)
    challenge: bool
    #: who played that Wild Draw Four, the hand it left (3.11.5), and whether it was a bluff (3.5.3)
    wd4_by: int
    evidence: tuple[int, ...]
    bluff: bool
    #: the seat open to a catch (3.6.3), -1: no window
    window: int
    #: the seat on turn that called before playing (3.6.1 a), -1: none
    called: int
    #: a challenged hand shown to ``shown_to`` (3.5.2), until the next turn action
    shown: tuple[int, ...]
    shown_to: int
    scores: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]
    #: per-seat epochs where they differ from ``version`` (after a call, catch or ready); None: all equal
    epochs: tuple[int, ...] | None

    def _evolve(self, **changes: Any) -> KartuTerakhirState:
        """A copy with ``changes`` (the state is frozen: this is the only way it 'changes')."""
        return self._evolve_with(changes)

    def _evolve_with(self, changes: dict[str, Any]) -> KartuTerakhirState:
        new = object.__new__(KartuTerakhirState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d.pop("_legal", None)
        return new

    # ------------------------------------------------------------- queries

    @property
    def top(self) -> int:
        return self.discard[-1]

    @property
    def deal_code(self) -> str:
        """The current round's deal code. Secret while the round is in progress."""
        code: str | None = self.__dict__.get("_code")
        if code is None:
            code = dealcode.encode(dealcode.DealSpec(self.seats, self.dealer, self.seed))
            self.__dict__["_code"] = code
        return code

    def is_playable(self, card: int) -> bool:
        """3.3.1-3.3.2 (no penalty pending): the active colour, the top card's symbol, or a Wild."""
        return bool(PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]][card])

    def can_draw_any(self) -> bool:
        """Whether a card can be drawn at all (3.3.5: not when the stock is empty and the discard is one card)."""
        return bool(self.stock) or len(self.discard) > 1

    def next_seat(self, seat: int, steps: int = 1) -> int:
        """The seat ``steps`` places after ``seat`` in the current direction."""
        return (seat + steps * self.direction) % self.seats

    def awaiting(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == _PLAY:
            return _SEAT[self.turn]
        if phase == _ROUND_OVER:
            return tuple(s for s in range(self.seats) if not self.ready[s])
        return ()  # react: the penalty draws itself (timed_actions); match over

    def actors(self) -> tuple[int, ...]:
        """The awaited seats and, while a catch window is open, every seat (3.6.1 b, 3.6.2)."""
        if self.window >= 0 and self.phase <= _REACT:
            return _ALL[self.seats]
        return self.awaiting()

    def epoch(self, seat: int) -> int:
        epochs = self.epochs
        return self.version if epochs is None else epochs[seat]

    def period(self) -> Hashable:
        return self.turn_v

    def in_round(self) -> bool:
        return self.phase <= _REACT

    def default_action(self, seat: int) -> Move | None:
        """3.7 when time runs out: take the pending penalty (a Wild Draw Four too, unchallenged;
        ``timer_take`` where mandatory stacking leaves the seat no ``take`` of its own), else draw
        one and end the turn (``draw_keep``: "draw 1 card, and play moves on", the drawn card never
        played, even if it could be); after a draw keep the card (3.11.7); else pass; never a play.
        ``ready`` between rounds. ``None`` for a seat that is not awaited."""
        phase = self.phase
        if phase == _ROUND_OVER:
            return READY if 0 <= seat < self.seats and not self.ready[seat] else None
        if phase != _PLAY or seat != self.turn:
            return None
        legal = self.legal_actions(seat)
        for move in (TAKE, KEEP, DRAW, PASS):
            if move in legal:
                return DRAW_KEEP if move == DRAW else move
        if self.pending:
            # 3.7 timer 1, 3.11.7: mandatory stacking (3.11.4) with an answer in hand leaves only
            # answers (and a challenge) to choose; the timer takes the pile all the same, and plays nothing
            return TIMER_TAKE
        if self._nothing_to_draw(seat, legal):
            return DRAW_KEEP  # a playable card, but no card to draw: the turn moves on (3.7, 3.3.5)
        return None

    def _nothing_to_draw(self, seat: int, legal: tuple[Move, ...]) -> bool:
        """The seat on turn would draw, but both piles are spent (3.3.5): no draw is offered,
        and it holds a playable card, so no pass is either (the timer's corner, 3.7)."""
        return (
            self.phase == _PLAY
            and seat == self.turn
            and not self.pending
            and self.drawn < 0
            and DRAW not in legal
            and PASS not in legal
        )

    def timed_actions(self) -> tuple[Timed, ...]:
        """3.4, README decision 6: a Draw Two's victim draws by itself after ``reaction_ms``."""
        if self.phase == _REACT:
            return (Timed(self.turn, TAKE, self.options.reaction_ms, self.turn_v),)
        return ()

    def bot_rng(self, seat: int) -> Rng:
        """The RNG a bot in ``seat`` uses this round: derived from the round's seed and the seat,
        through a hash, so that a bot holding it cannot rebuild the deal."""
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        return Outcome(self.winners, self.scores)

    def carry(self) -> dict[str, Wire] | None:
        """The next match's dealer, once this one is over: the seat left of the last dealer (3.2.3)."""
        if self.phase != _MATCH_OVER:
            return None
        return {"dealer": (self.dealer + 1) % self.seats}

    def locations(self) -> tuple[Location, ...]:
        """Hands (to their seats; to all once the round is scored), the face-up discard pile,
        the face-down stock; a challenged hand shown to the challenger and the last round's
        scored hands, both uncounted (their cards lie elsewhere)."""
        shown_all = not self.in_round()
        name = _NAME.__getitem__
        out = [
            Location(f"hand/{s}", tuple(map(name, h)), "all" if shown_all else _SEAT[s])
            for s, h in enumerate(self.hands)
        ]
        out.append(Location("discard", tuple(map(name, self.discard)), "all"))
        out.append(Location("stock", tuple(map(name, self.stock)), ()))
        if self.shown_to >= 0:
            out.append(Location("shown", tuple(map(name, self.shown)), _SEAT[self.shown_to], counted=False))
        lr = self.last_round
        if lr is not None and lr.round < self.round:
            # 3.8.2: the last round's hands were revealed when it was scored; its cards are dealt again.
            out.append(Location("last_round", tuple(name(c) for h in lr.hands for c in h), "all", counted=False))
        return tuple(out)

    def legal_actions(self, seat: int) -> tuple[Move, ...]:
        """Every action ``seat`` may take now, sorted (see :class:`Kind` for the order)."""
        phase = self.phase
        if phase == _PLAY and seat == self.turn:
            # Cached on the (immutable) state: the policy asks, then apply checks.
            legal: tuple[Move, ...] | None = self.__dict__.get("_legal")
            if legal is None:
                legal = self.__dict__["_legal"] = self._turn_actions()
            return legal
        if phase <= _REACT:
            window = self.window
            if window < 0 or type(seat) is not int or not 0 <= seat < self.seats:
                return ()
            return _ONLY_CALL if seat == window else _ONLY_CATCH
        if phase == _ROUND_OVER and type(seat) is int and 0 <= seat < self.seats and not self.ready[seat]:
            return _ONLY_READY
        return ()

    def _answers(self) -> bytes | None:
        """3.7 stacking 1: which cards answer the pending penalty (``None``: stacking is off)."""
        if not self.options.stacking:
            return None
        return ANSWER_WD4 if SYM[self.discard[-1]] == WILD_DRAW_FOUR else ANSWER_D2

    def _turn_actions(self) -> tuple[Move, ...]:
        seat = self.turn
        hand = self.hands[seat]
        size = len(hand)
        out: list[Move] = []
        last = -1  # the name index of the last card added: copies share one play
        if self.pending:
            answers = self._answers()
            if answers is not None:
                for c in hand:
                    if answers[c] and NAMEIX[c] != last:
                        last = NAMEIX[c]
                        if size == 1:
                            out.append(PLAY_OF[c][NO_COLOUR])  # 3.6.5: going out names no colour
                        else:
                            out.extend(WILD_PLAYS[c] if IS_WILD[c] else PLAY_OF[c][NO_COLOUR : NO_COLOUR + 1])
            if not (out and self.options.stacking_mandatory):
                out.append(TAKE)  # 3.7 stacking 2-3, 3.11.4
            if self.challenge:
                out.append(CHALLENGE)  # 3.5.1, 3.7 stacking 6
        elif self.drawn >= 0:
            c = self.drawn  # 3.3.4: only the drawn card, or keep it
            out.extend(WILD_PLAYS[c] if IS_WILD[c] else PLAY_OF[c][NO_COLOUR : NO_COLOUR + 1])
            out.append(KEEP)
        else:
            playable = PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]]
            for c in hand:
                if playable[c] and NAMEIX[c] != last:
                    last = NAMEIX[c]
                    if not IS_WILD[c] or size == 1:
                        out.append(PLAY_OF[c][NO_COLOUR])
                    else:
                        out.extend(WILD_PLAYS[c])  # 3.11.1: a Wild and its colour are one action
            if self.stock or len(self.discard) > 1:
                out.append(DRAW)  # 3.3.3: always allowed, once a turn
            elif not out:
                out.append(PASS)  # 3.3.5, 3.11.6
        if size == 2 and self.called != seat:
            out.append(CALL)  # 3.6.1 a
        window = self.window
        if window >= 0:
            out.append(CALL if window == seat else CATCH)  # 3.6.1 b, 3.6.2
        return tuple(out)

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Move) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (state unchanged) if it is not legal."""
        if self.phase == 0 and type(action) is Move and seat == self.turn and type(seat) is int:
            # The hot path (playouts, search): a turn action by the seat on turn.
            legal = self.__dict__.get("_legal") or self.legal_actions(seat)
            if action in legal:
                if action < _KIND_STEP:
                    return self._play(seat, action)
                if action == DRAW:
                    return self._draw(seat)
                return self._dispatch(seat, action)
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        if not isinstance(action, Move):
            raise BadActionError(f"not a {TITLE} action: {action!r}")
        if self.phase == _REACT and action == TAKE and seat == self.turn:
            return self._take(seat)  # the timed penalty draw (or the victim taking it sooner)
        if action == TIMER_TAKE and self.phase == _PLAY and seat == self.turn and self.pending:
            return self._take(seat)  # the timer's take (3.7): mandatory stacking or not
        if action == DRAW_KEEP:  # the timer's draw: wherever a draw is legal
            legal = self.legal_actions(seat)
            if DRAW in legal:
                return self._draw(seat, keep=True)
            if self._nothing_to_draw(seat, legal):
                return self._pass(seat)  # 3.7 with 3.3.5: it draws none, and play moves on
            raise self._why_illegal(seat, DRAW)
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        return self._dispatch(seat, action)

    def _dispatch(self, seat: int, action: int) -> Transition:
        if action < _KIND_STEP:
            return self._play(seat, action)
        kind = action // _KIND_STEP
        if kind == 1:
            return self._draw(seat)
        if kind == 2:
            return self._end_turn(seat, [_event("keep", {"seat": seat})], {"version": self.version + 1})
        if kind == 3:
            return self._pass(seat)
        if kind == 4:
            return self._take(seat)
        if kind == 5:
            return self._challenge(seat)
        if kind == 6:
            return self._call(seat)
        if kind == 7:
            return self._catch(seat)
        return self._ready(seat)

    def _why_illegal(self, seat: int, action: Move) -> IllegalActionError:
        """The error for an action that is not legal (``seat`` exists; ``action`` is a Move)."""
        phase = self.phase
        kind = action.kind
        if phase == _MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == _ROUND_OVER:
            if kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next round")
            return RoundOverError(f"round {self.round} is over; only 'ready' is accepted")
        if kind == Kind.READY:
            return IllegalActionError("'ready' is for the time between rounds; the round is in play")
        if kind == Kind.CATCH:
            if self.window == seat:
                return IllegalActionError(f"seat {seat} cannot catch itself; it may call instead")
            return IllegalActionError(
                "nobody is open to a catch: the window closes at the first catch, at the target's call,"
                " and at the next play, draw or challenge (3.6.2, 3.6.3)"
            )
        if kind == Kind.CALL:
            if self.called == seat:
                return IllegalActionError(f"seat {seat} has already called")
            if seat == self.turn and phase == _PLAY:
                return IllegalActionError(
                    f"a call is accepted on one's turn with exactly 2 cards (seat {seat} holds"
                    f" {len(self.hands[seat])}), or right after playing to one card while the window is open"
                )
            return IllegalActionError(
                f"seat {seat} may call only on its turn with 2 cards, or right after its play left it"
                " one card, while nobody has played, drawn or challenged since (3.6.1)"
            )
        if phase == _REACT:
            if seat == self.turn:
                return IllegalActionError(
                    f"seat {seat} loses this turn: it draws the {self.pending}-card penalty automatically (3.4)"
                )
            return NotYourTurnError(f"seat {self.turn} is drawing a penalty; it is nobody's turn to play")
        if seat != self.turn:
            return NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        hand = self.hands[seat]
        if kind == Kind.TIMER_TAKE:
            return IllegalActionError("the turn timer's take needs a penalty pending against the seat on turn")
        if kind == Kind.TAKE:
            if not self.pending:
                return IllegalActionError("there is no penalty to take")
            return IllegalActionError(
                "stacking is mandatory: a player who can answer the pending penalty must (3.11.4)"
            )
        if kind == Kind.CHALLENGE:
            if self.pending:
                return IllegalActionError(
                    "a challenge is offered only against a single Wild Draw Four that nobody stacked (3.7)"
                )
            return IllegalActionError("a challenge answers a Wild Draw Four played on you; none is pending")
        if kind == Kind.KEEP:
            return IllegalActionError("'keep' ends the turn after drawing a playable card; there is none")
        if self.pending:
            words = "take it or challenge" if self.challenge else "take it"
            if self.options.stacking:
                wd4 = SYM[self.discard[-1]] == WILD_DRAW_FOUR
                answer = "a Wild Draw Four" if wd4 else "a Draw Two or Wild Draw Four"
                words = f"answer with {answer} or {words}"
            return IllegalActionError(f"a {self.pending}-card penalty is pending: {words}")
        if kind == Kind.DRAW:
            if self.drawn >= 0:
                return IllegalActionError(f"one draw a turn: seat {seat} has drawn; play the drawn card or keep it")
            return IllegalActionError("there is nothing left to draw (3.3.5)")
        if kind == Kind.PASS:
            return IllegalActionError("pass only with no playable card and nothing to draw (3.11.6): play or draw")
        # a play
        name = action.card
        assert name is not None
        ids = IDS_OF[NAMEIX_OF[name]]
        if not any(c in hand for c in ids):
            return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
        card = next(c for c in ids if c in hand)
        if self.drawn >= 0 and NAMEIX[self.drawn] != NAMEIX[card]:
            return IllegalActionError(f"after a draw only the drawn card {_NAME[self.drawn]!r} may be played (3.3.4)")
        if not self.is_playable(card):
            return IllegalActionError(
                f"{name!r} matches neither the active colour {COLOUR_WORDS[self.colour]!r}"
                f" nor the symbol of {_NAME[self.discard[-1]]!r}"
            )
        if IS_WILD[card]:
            if action.colour is None:
                return IllegalActionError(f"playing {name!r} must name a colour: R, Y, G or B")
            return IllegalActionError(f"{name!r} played as the last card ends the round: name no colour")
        return IllegalActionError(f"only a Wild names a colour, not {name!r}")

    # ------------------------------------------------------------- the moves

    def _draw_cards(self, count: int, events: list[Event], changes: dict[str, Any]) -> list[int]:
        """Take up to ``count`` cards off the stock, rebuilding it from the discard pile when a card
        is needed and the stock is empty (3.3.5, 3.11.9); fewer if nothing is left. Updates ``changes``."""
        stock = changes.get("stock", self.stock)
        out: list[int] = []
        if len(stock) >= count:
            if count == 1:
                out.append(stock[-1])
                changes["stock"] = stock[:-1]
            else:
                out.extend(stock[-1 : -count - 1 : -1])
                changes["stock"] = stock[:-count]
            return out
        discard = changes.get("discard", self.discard)
        reshuffles = changes.get("reshuffles", self.reshuffles)
        while len(out) < count:
            if not stock:
                if len(discard) < 2:
                    break  # 3.3.5: both piles exhausted: draw what exists
                # 3.3.5: the cards under the top card become the stock; top and colour stay
                reshuffles += 1
                stock = reshuffled(self.seed, reshuffles, discard[:-1])
                discard = discard[-1:]
                events.append(_event("reshuffle", {"moved": len(stock), "count": reshuffles}))
            out.append(stock[-1])
            stock = stock[:-1]
        changes["stock"] = stock
        changes["discard"] = discard
        changes["reshuffles"] = reshuffles
        return out

    def _give(self, seat: int, count: int, reason: str, events: list[Event], changes: dict[str, Any]) -> list[int]:
        """``seat`` draws ``count`` cards (fewer if none are left): the cards drawn; the hands in ``changes``."""
        cards = self._draw_cards(count, events, changes)
        hands = changes.get("hands", self.hands)
        hand = hands[seat]
        if len(cards) == 1:
            i = bisect.bisect(hand, cards[0])
            new_hand = hand[:i] + (cards[0],) + hand[i:]
        else:
            new_hand = tuple(sorted(hand + tuple(cards)))
        hl = list(hands)
        hl[seat] = new_hand
        changes["hands"] = tuple(hl)
        only = _SEAT[seat]
        names = [_NAME[c] for c in cards]
        n = len(cards)
        events.append(_event("draw", {"seat": seat, "cards": names, "count": n, "reason": reason}, only))
        events.append(_event("draw", {"seat": seat, "count": n, "reason": reason}, None, only))
        return cards

    def _play(self, seat: int, move: int) -> Transition:
        hand = self.hands[seat]
        name = move // 5
        slot = move % 5
        # the copy with the lowest id (copies share a name: the module docstring)
        i = bisect.bisect_left(hand, FIRST_ID[name])
        card = hand[i]
        sym = SYM[card]
        if (sym < SKIP or sym == WILD) and len(hand) > 2 and self.called != seat and self.shown_to < 0:
            # The common case, written out: a number or a Wild, two or more cards left, no call
            # to cancel, no challenged hand on show; the turn passes on (3.3.6). The next state's
            # dict is filled in place, without the changes dict of the general path.
            colour = slot if slot < 4 else COLOUR[card]
            hl = list(self.hands)
            hl[seat] = hand[:i] + hand[i + 1 :]
            v = self.version + 1
            nxt = (seat + self.direction) % self.seats
            new = object.__new__(KartuTerakhirState)
            nd = new.__dict__
            nd.update(self.__dict__)
            nd.pop("_legal", None)
            nd["version"] = nd["turn_v"] = v
            nd["hands"] = tuple(hl)
            nd["discard"] = self.discard + (card,)
            nd["colour"] = colour
            nd["turn"] = nxt
            nd["drawn"] = nd["window"] = -1  # 3.6.3: a play closes the window
            nd["epochs"] = None
            said: dict[str, Wire] = {"seat": seat, "card": _NAME[card], "colour": COLOURS[colour]}
            if self.drawn >= 0:
                said["drawn"] = True
            played = _tuple_new(Event, ("play", said, None, ()))
            return _tuple_new(Transition, (new, (played, _tuple_new(Event, ("turn", {"seat": nxt}, None, ())))))
        new_hand = hand[:i] + hand[i + 1 :]
        hl = list(self.hands)
        hl[seat] = new_hand
        v = self.version + 1
        colour = self.colour if slot == NO_COLOUR and sym >= WILD else (slot if slot < 4 else COLOUR[card])
        data: dict[str, Wire] = {"seat": seat, "card": _NAME[card], "colour": COLOURS[colour]}
        if self.drawn >= 0:
            data["drawn"] = True
        events = [_tuple_new(Event, ("play", data, None, ()))]
        changes: dict[str, Any] = {
            "version": v,
            "hands": tuple(hl),
            "discard": self.discard + (card,),
            "colour": colour,
            "drawn": -1,
            "window": -1,  # 3.6.3: a play closes the window
            "epochs": None,
        }
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        left = len(new_hand)
        pending = self.pending
        n = self.seats
        d = self.direction
        if not left:
            # 3.6.4, 3.11.8: out; the next seat draws a Draw Two's or Wild Draw Four's penalty first
            penalty = pending + (2 if sym == DRAW_TWO else 4 if sym == WILD_DRAW_FOUR else 0)
            if penalty:
                self._give((seat + d) % n, penalty, "penalty", events, changes)
            return self._evolve_with(changes)._end_round(seat, events)
        if left == 1:
            if self.called == seat:
                changes["called"] = -1  # 3.6.1 a: the call made before playing stands; no window
            else:
                changes["window"] = seat  # 3.6.3: the window opens
                events.append(_event("window", {"seat": seat}))
        elif self.called == seat:
            changes["called"] = -1  # 3.6.1: the turn ends with 2 or more cards (a stacking answer)
            events.append(_event("call_cancelled", {"seat": seat}))
        changes["turn_v"] = v
        if sym < SKIP or sym == WILD:
            nxt = (seat + d) % n
        elif sym == SKIP:
            nxt = (seat + 2 * d) % n  # 3.4: the next seat loses its turn
            events.append(_event("skip", {"seat": (seat + d) % n}))
        elif sym == REVERSE:
            d = changes["direction"] = -d  # 3.4, 3.11.2: at 2 seats a Skip, and the direction flips
            nxt = seat if n == 2 else (seat + d) % n
            events.append(_event("reverse", {"seat": seat, "direction": d}))
            if n == 2:
                events.append(_event("skip", {"seat": (seat - d) % n}))
        else:
            victim = (seat + d) % n
            changes["turn"] = victim
            if sym == WILD_DRAW_FOUR:
                # 3.5.3, 3.11.5: judged on this hand against the colour before the Wild Draw Four;
                # 3.7 stacking 6: only a single, unstacked one can be challenged
                single = not pending
                changes["challenge"] = single
                if single:
                    changes["wd4_by"] = seat
                    changes["evidence"] = new_hand
                    changes["bluff"] = not _OF_COLOUR[self.colour].isdisjoint(new_hand)
                pending += 4
            else:
                pending += 2
                changes["challenge"] = False
                if not self.options.stacking:
                    changes["phase"] = _REACT  # 3.4: the victim draws after reaction_ms
            changes["pending"] = pending
            events.append(_event("turn", {"seat": victim, "pending": pending}))
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        changes["turn"] = nxt
        events.append(_tuple_new(Event, ("turn", {"seat": nxt}, None, ())))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _end_turn(self, seat: int, events: list[Event], changes: dict[str, Any]) -> Transition:
        """The seat's turn ends without a play: the next seat in the direction is on turn."""
        if self.called == seat:
            changes["called"] = -1  # 3.6.1: a call made before playing is cancelled by a turn ending with 2+
            events.append(_event("call_cancelled", {"seat": seat}))
        nxt = (seat + self.direction) % self.seats
        changes["turn"] = nxt
        changes["turn_v"] = changes["version"]
        changes["drawn"] = -1
        changes["epochs"] = None
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        events.append(_tuple_new(Event, ("turn", {"seat": nxt}, None, ())))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _draw(self, seat: int, keep: bool = False) -> Transition:
        """3.3.3: draw one card; 3.3.4: a playable one may be played now or kept, else the turn ends.
        ``keep`` (the timer's draw, 3.7): the turn ends either way, a playable card kept, and the
        events are those of a draw that ended the turn, whatever the card."""
        changes: dict[str, Any] = {"version": self.version + 1, "window": -1, "epochs": None}
        if self.shown_to >= 0:
            changes["shown"] = ()
            changes["shown_to"] = -1
        stock = self.stock
        if stock:
            # the common case, inlined (_give does the same for any count)
            card = stock[-1]
            changes["stock"] = stock[:-1]
            hand = self.hands[seat]
            i = bisect.bisect(hand, card)
            hl = list(self.hands)
            hl[seat] = hand[:i] + (card,) + hand[i:]
            changes["hands"] = tuple(hl)
            only = _SEAT[seat]
            events = [
                _tuple_new(
                    Event, ("draw", {"seat": seat, "cards": [_NAME[card]], "count": 1, "reason": "draw"}, only, ())
                ),
                _tuple_new(Event, ("draw", {"seat": seat, "count": 1, "reason": "draw"}, None, only)),
            ]
        else:
            events = []
            got = self._give(seat, 1, "draw", events, changes)
            card = got[0] if got else -1
        if not keep and card >= 0 and PLAYABLE[self.colour * 15 + SYM[self.discard[-1]]][card]:
            changes["drawn"] = card  # 3.3.4: play it now, or keep it
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        # 3.3.4: not playable: the turn ends. The timer's draw (3.7) ends it whatever the card, with
        # the same events either way: a ``keep`` would tell every seat the card could have been played.
        return self._end_turn(seat, events, changes)

    def _pass(self, seat: int) -> Transition:
        # 3.11.6; a pass is no play, draw or challenge: the window stays open (3.6.3)
        data: dict[str, Wire] = {"seat": seat, "colour": COLOURS[self.colour], "top": _NAME[self.discard[-1]]}
        return self._end_turn(seat, [_event("pass", data)], {"version": self.version + 1})

    def _take(self, seat: int) -> Transition:
        """The victim takes the pending penalty and loses its turn (3.4, 3.5.1, 3.7 stacking 2)."""
        events: list[Event] = []
        changes: dict[str, Any] = {
            "version": self.version + 1,
            "window": -1,  # a penalty draw closes the window (3.6.3)
            "pending": 0,
            "challenge": False,
            "phase": _PLAY,
        }
        self._give(seat, self.pending, "penalty", events, changes)
        return self._end_turn(seat, events, changes)

    def _challenge(self, seat: int) -> Transition:
        """3.5: the victim challenges the Wild Draw Four of ``wd4_by``."""
        target = self.wd4_by
        events: list[Event] = []
        changes: dict[str, Any] = {
            "version": self.version + 1,
            "window": -1,  # a challenge closes the window (3.6.3)
            "pending": 0,
            "challenge": False,
            "shown": self.evidence,  # 3.5.2, 3.11.5: the hand the verdict was judged on
            "shown_to": seat,
        }
        bluff = self.bluff
        verdict_data: dict[str, Wire] = {"seat": seat, "target": target, "verdict": "bluff" if bluff else "honest"}
        events.append(_event("challenge", verdict_data))
        events.append(_event("shown", {"seat": target, "cards": [_NAME[c] for c in self.evidence]}, _SEAT[seat]))
        if bluff:
            # 3.5.4: the bluffer draws 4; the challenger plays its turn normally, under the named colour
            self._give(target, 4, "challenge", events, changes)
            verdict_data["hand_counts"] = [len(h) for h in changes["hands"]]
            changes["turn_v"] = changes["version"]
            changes["epochs"] = None
            events.append(_event("turn", {"seat": seat}))
            return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))
        # 3.5.5: the challenger draws 6 and loses its turn
        self._give(seat, 6, "challenge", events, changes)
        verdict_data["hand_counts"] = [len(h) for h in changes["hands"]]
        if self.called == seat:
            changes["called"] = -1
            events.append(_event("call_cancelled", {"seat": seat}))
        nxt = (seat + self.direction) % self.seats
        changes.update(turn=nxt, turn_v=changes["version"], epochs=None)
        events.append(_event("turn", {"seat": nxt}))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _only_epochs(self, v: int, *moved: int) -> tuple[int, ...]:
        """Epochs where only ``moved`` seats' decisions go stale at version ``v``."""
        return tuple(v if s in moved else self.epoch(s) for s in range(self.seats))

    def _call(self, seat: int) -> Transition:
        v = self.version + 1
        changes: dict[str, Any] = {"version": v, "epochs": self._only_epochs(v, seat)}
        if self.window == seat:
            changes["window"] = -1  # 3.6.1 b: called in time: nobody may catch
            when = "after"
        else:
            changes["called"] = seat  # 3.6.1 a: before playing, with 2 cards
            when = "before"
        events = (_event("call", {"seat": seat, "when": when}),)
        return _tuple_new(Transition, (self._evolve_with(changes), events))

    def _catch(self, seat: int) -> Transition:
        """3.6.2: the first valid catch: the target draws 2; the window closes."""
        target = self.window
        v = self.version + 1
        events = [_event("catch", {"seat": seat, "target": target})]
        # Only the catcher's and the target's decisions go stale: a second catcher's catch,
        # sent on the same version, is refused as illegal (the window closed), not as stale.
        changes: dict[str, Any] = {"version": v, "window": -1, "epochs": self._only_epochs(v, seat, target)}
        self._give(target, 2, "catch", events, changes)
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    # ------------------------------------------------------------- rounds

    def _end_round(self, winner: int, events: list[Event]) -> Transition:
        """3.8: the winner scores the others' cards; the match ends after one round, or at 500."""
        hands = self.hands
        points = sum(card_points(h) for h in hands)
        scores = tuple(t + (points if s == winner else 0) for s, t in enumerate(self.scores))
        result = RoundResult(self.round, winner, points, hands, self.deal_code)
        events.append(_event("round_over", {**result.to_wire(), "scores": list(scores)}))
        over = self.options.match == "round" or max(scores) >= MATCH_TARGET
        winners: tuple[int, ...] = ()
        if over:
            # 3.8.1, 3.8.3: the one who went out wins (only they scored this round, so only they
            # can have reached 500); not the best score, which a 0-point round ties at 0 for all.
            winners = (winner,)
            events.append(_event("match_over", {"winners": list(winners), "scores": list(scores)}))
        state = self._evolve(
            scores=scores,
            last_round=result,
            phase=_MATCH_OVER if over else _ROUND_OVER,
            ready=(False,) * self.seats,
            winners=winners,
            drawn=-1,
            window=-1,
            called=-1,
            pending=0,
            challenge=False,
            shown=(),
            shown_to=-1,
            turn_v=self.version,
            epochs=None,
        )
        return Transition(state, tuple(events))

    def _ready(self, seat: int) -> Transition:
        ready = self.ready[:seat] + (True,) + self.ready[seat + 1 :]
        v = self.version + 1
        events = [_event("ready", {"seat": seat})]
        if not all(ready):
            state = self._evolve(version=v, ready=ready, epochs=self._only_epochs(v, seat))
            return Transition(state, tuple(events))
        # 3.2.3: the deal passes to the left
        seed, match_rng = self.match_rng.bits(dealcode.SEED_BITS)
        state = self._evolve(version=v, ready=ready, match_rng=match_rng, round=self.round + 1, epochs=None)
        return state._deal((self.dealer + 1) % self.seats, seed, events)

    def _deal(self, dealer: int, seed: int, events: list[Event]) -> Transition:
        """Deal a round from ``seed`` (3.2): the deal is fixed by (seats, dealer, seed).

        The deck (card-id order) is shuffled with stream ``deal``; cards go out one at
        a time clockwise from the dealer's left; the next card is the starter while it
        is a number (3.2.2), else it goes back into the stock, which is shuffled again
        (the same stream), and the new first card is turned up. The rest is the stock,
        drawn in the shuffled order.
        """
        n = self.seats
        rng = Rng(seed, "deal")
        deck, rng = rng.shuffle(range(CARD_COUNT))
        first = (dealer + 1) % n
        dealt = n * HAND_SIZE
        hands = tuple(tuple(sorted(deck[(s - first) % n : dealt : n])) for s in range(n))
        starter = deck[dealt]
        rest = deck[dealt + 1 :]
        returned = 0
        while not _IS_NUMBER[starter]:
            returned += 1
            shuffled, rng = rng.shuffle((*rest, starter))
            starter, rest = shuffled[0], shuffled[1:]
        stock = tuple(reversed(rest))
        state = self._evolve(
            phase=_PLAY,
            dealer=dealer,
            seed=seed,
            reshuffles=0,
            hands=hands,
            stock=stock,
            discard=(starter,),
            colour=COLOUR[starter],
            direction=1,
            turn=first,
            turn_v=self.version,
            drawn=-1,
            pending=0,
            challenge=False,
            wd4_by=-1,
            evidence=(),
            bluff=False,
            window=-1,
            called=-1,
            shown=(),
            shown_to=-1,
            ready=(False,) * n,
            epochs=None,
        )
        state.__dict__.pop("_code", None)
        public: dict[str, Wire] = {
            "round": state.round,
            "dealer": dealer,
            "first": first,
            "starter": _NAME[starter],
            "colour": COLOURS[state.colour],
            "direction": 1,
            "hand_counts": [HAND_SIZE] * n,
            "stock_count": len(stock),
        }
        if returned:
            # 3.2.2: how often the turned-up card was not a number and went back (which cards is not told)
            public["returned"] = returned
        events.append(_event("round_start", public))
        for s in range(n):
            events.append(_event("hand", {"seat": s, "cards": [_NAME[c] for c in hands[s]]}, _SEAT[s]))
        events.append(_event("turn", {"seat": first}))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> KartuTerakhirView:
        """What ``seat`` may see (``None``: a spectator), chosen field by field."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.seats):
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        mine = seat is not None and seat == self.turn and self.phase == _PLAY
        return KartuTerakhirView(
            seat=seat,
            options=self.options,
            seats=self.seats,
            version=self.version,
            phase=self.phase,
            round=self.round,
            dealer=self.dealer,
            hand=None if seat is None else self.hands[seat],
            hand_counts=tuple(len(h) for h in self.hands),
            top=self.discard[-1],
            colour=self.colour,
            direction=self.direction,
            turn=self.turn,
            drew=self.drawn >= 0,
            drawn=self.drawn if mine and self.drawn >= 0 else None,
            pending=self.pending,
            can_challenge=self.challenge,
            window=None if self.window < 0 else self.window,
            called=None if self.called < 0 else self.called,
            shown_seat=self.wd4_by if seat is not None and seat == self.shown_to else None,
            shown=self.shown if seat is not None and seat == self.shown_to else None,
            stock_count=len(self.stock),
            discard_count=len(self.discard),
            legal=self.legal_actions(seat) if seat is not None else (),
            scores=self.scores,
            ready=self.ready,
            last_round=self.last_round,
            winners=self.winners,
        )

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`KartuTerakhir.state_from_data` rebuilds this state."""
        lr = self.last_round
        return {
            "schema": 1,
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "seats": self.seats,
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "dealer": self.dealer,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            "reshuffles": self.reshuffles,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "colour": self.colour,
            "direction": self.direction,
            "turn": self.turn,
            "turn_v": self.turn_v,
            "drawn": self.drawn,
            "pending": self.pending,
            "challenge": self.challenge,
            "wd4_by": self.wd4_by,
            "evidence": list(self.evidence),
            "bluff": self.bluff,
            "window": self.window,
            "called": self.called,
            "shown": list(self.shown),
            "shown_to": self.shown_to,
            "scores": list(self.scores),
            "ready": list(self.ready),
            "last_round": None
            if lr is None
            else [lr.round, lr.winner, lr.points, [list(h) for h in lr.hands], lr.deal_code],
            "winners": list(self.winners),
            "epochs": None if self.epochs is None else list(self.epochs),
        }

    def digest(self) -> str:
        """A short hash of the whole state (for golden transcripts and replay checks)."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class KartuTerakhirView:
    """One seat's view (``seat is None``: a spectator, who sees no hand). See PROTOCOL.md beside this file."""

    seat: int | None
    options: KartuTerakhirOptions
    seats: int
    version: int
    phase: Phase
    round: int
    dealer: int
    hand: tuple[int, ...] | None
    hand_counts: tuple[int, ...]
    top: int
    colour: int
    direction: int
    turn: int
    drew: bool
    drawn: int | None
    pending: int
    can_challenge: bool
    window: int | None
    called: int | None
    shown_seat: int | None
    shown: tuple[int, ...] | None
    stock_count: int
    discard_count: int
    legal: tuple[Move, ...]
    scores: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]

    def to_wire(self) -> dict[str, Wire]:
        opts = self.options
        return {
            "game": GAME_NAME,
            "preset": opts.preset,
            "seat": self.seat,
            "seats": self.seats,
            "version": self.version,
            "phase": self.phase.wire,
            "round": self.round,
            "dealer": self.dealer,
            "hand": None if self.hand is None else [_NAME[c] for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "top": _NAME[self.top],
            "colour": COLOURS[self.colour],
            "direction": self.direction,
            "turn": self.turn,
            "drew": self.drew,
            "drawn": None if self.drawn is None else _NAME[self.drawn],
            "pending": self.pending,
            "can_challenge": self.can_challenge,
            "window": self.window,
            "called": self.called,
            "shown": None if self.shown is None else {"seat": self.shown_seat, "cards": [_NAME[c] for c in self.shown]},
            "stock_count": self.stock_count,
            "discard_count": self.discard_count,
            "legal": [a.to_wire() for a in self.legal],
            "scores": list(self.scores),
            "ready": list(self.ready),
            "stacking": opts.stacking,
            "stacking_mandatory": opts.stacking_mandatory,
            "match": opts.match,
            "target": MATCH_TARGET if opts.match == "500" else None,
            "reaction_ms": opts.reaction_ms,
            "last_round": None if self.last_round is None else self.last_round.to_wire(),
            "winners": list(self.winners),
        }


# --------------------------------------------------------------------------- the game


class KartuTerakhir:
    """The Kartu Terakhir game: its options, deck, deal codes, and the start of a match."""

    name: Final = GAME_NAME
    title: Final = TITLE
    info: Final = INFO

    def options(self, preset: str | None = None, **overrides: Any) -> KartuTerakhirOptions:
        """The preset (``standard``) with options set, checked against :data:`OPTION_SPECS`."""
        _, values = check_options(INFO, {"preset": preset or "standard", **overrides})
        return KartuTerakhirOptions(preset="standard", **values)

    def options_from_wire(self, data: Any) -> KartuTerakhirOptions:
        """Options from a host's request (``{"preset": "standard", "stacking": true}``), checked."""
        preset, values = check_options(INFO, data)
        return KartuTerakhirOptions(preset=preset.name, **values)

    def seat_range(self, options: KartuTerakhirOptions) -> range:
        return range(MIN_SEATS, MAX_SEATS + 1)

    def teams(self, options: KartuTerakhirOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(seats))

    def round_points(self, options: KartuTerakhirOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """3.8: the round's winner scores the others' cards, every other seat nothing; more is better."""
        points = int(data["points"])
        return RoundPoints(tuple(points if s == data["winner"] else 0 for s in range(seats)), lower_wins=False)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo("standard", spec.seats, dealcode.encode(spec))

    def deck(self, options: KartuTerakhirOptions, seats: int) -> tuple[str, ...]:
        return DECK

    def new_match(
        self,
        options: KartuTerakhirOptions | Mapping[str, Any] | None,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> Transition:
        """Deal round 1 of a match. ``seed`` (up to 128 bits) draws the first dealer (3.2.3) and
        every round's seed; with ``deal_code``, round 1 is that deal (its dealer and seed) and later
        rounds come from ``seed`` as usual. ``carry`` (a rematch: the last match's
        :meth:`KartuTerakhirState.carry`) names the dealer: the deal passes to the left for the
        next game (3.2.3), and one game is one round of the default match (3.8.1)."""
        opts = _options_arg(self, options)
        if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
            raise BadOptionsError(f"{TITLE} is for {MIN_SEATS}-{MAX_SEATS} seats, not {seats!r}")
        match_rng = Rng(seed, "match")
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            if spec.seats != seats:
                raise BadOptionsError(f"deal code {deal_code!r} is for {spec.seats} seats, not {seats}")
            dealer, round_seed = spec.dealer, spec.seed
        else:
            dealer, match_rng = match_rng.randbelow(seats)  # 3.2.3: the first dealer is random
            round_seed, match_rng = match_rng.bits(dealcode.SEED_BITS)
            if carry is not None:
                dealer = _carried_dealer(carry, seats)
        blank = blank_state(opts, seats, match_rng)
        return blank._deal(dealer, round_seed, [])

    def stacked(
        self,
        options: KartuTerakhirOptions | Mapping[str, Any] | None = None,
        *,
        hands: Sequence[str],
        discard: str,
        stock: str = "",
        turn: int = 0,
        direction: int = 1,
        colour: str | None = None,
        prior_colour: str | None = None,
        pending: int = 0,
        window: int | None = None,
        called: int | None = None,
        drawn: str | None = None,
        dealer: int | None = None,
        seed: int = 0,
        scores: Sequence[int] | None = None,
        round: int = 1,
    ) -> KartuTerakhirState:
        """A state with the cards laid out by hand, for stacked-deck scenarios and tutorials.

        ``hands`` has one card list per seat (``"R7 GS W"``); ``discard`` is bottom to
        top (its last card is the top card); ``stock`` is top first (its first card is
        drawn next). Cards need not make a whole deck, but no card may be laid out more
        often than the deck has it (one ``R0``, two ``R7``, four ``W``...). ``colour``:
        the active colour (default: the top card's; required on a Wild). ``pending``: a
        penalty the seat on turn faces, from the top card (a Draw Two: phase ``react``
        with stacking off; a Wild Draw Four of 4: challengeable, played by the seat before
        ``turn``, judged against ``prior_colour``, by default the colour of the card under
        it). ``window``: a seat holding one card that is open to a catch. ``called``: the
        seat on turn has called with 2 cards. ``drawn``: the seat on turn has drawn this
        card (playable) and must play or keep it. A layout the game could never reach is
        :class:`BadOptionsError`.
        """
        opts = _options_arg(self, options)
        n = len(hands)
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise BadOptionsError(f"{TITLE} is for {MIN_SEATS}-{MAX_SEATS} seats, not {n}")
        free = [list(ids) for ids in IDS_OF]  # the copies not yet laid out, lowest id first

        def lay(text: str, where: str) -> list[int]:
            out = []
            for word in text.split():
                i = NAMEIX_OF.get(word)
                if i is None:
                    raise BadOptionsError(f"{where} names {word!r}, which is not a card of {TITLE}")
                if not free[i]:
                    copies = len(IDS_OF[i])
                    raise BadOptionsError(f"card {word!r} is laid out more often than the deck has it ({copies})")
                out.append(free[i].pop(0))
            return out

        hand_ids = [sorted(lay(h, f"hand {s}")) for s, h in enumerate(hands)]
        pile = lay(discard, "discard")
        stock_ids = lay(stock, "stock")
        if not pile:
            raise BadOptionsError("a stacked state needs at least the top card in 'discard'")
        if not 0 <= turn < n:
            raise BadOptionsError(f"turn {turn!r} is not a seat of {n}")
        if direction not in (1, -1):
            raise BadOptionsError(f"direction is 1 or -1, not {direction!r}")
        if any(not h for h in hand_ids):
            raise BadOptionsError("every hand holds a card while a round is in play (an empty hand has gone out)")
        top = pile[-1]
        if colour is None:
            if IS_WILD[top]:
                raise BadOptionsError(f"the top card {_NAME[top]!r} is a Wild: name the active colour")
            active = COLOUR[top]
        else:
            if colour not in _COLOUR_OF:
                raise BadOptionsError(f"colour {colour!r} is not one of {list(COLOURS)}")
            active = _COLOUR_OF[colour]
            if not IS_WILD[top] and active != COLOUR[top]:
                raise BadOptionsError(f"the active colour is the top card's ({_NAME[top]!r}) unless it is a Wild")
        if dealer is not None and not 0 <= dealer < n:
            raise BadOptionsError(f"dealer {dealer!r} is not a seat of {n}")
        if scores is not None and len(scores) != n:
            raise BadOptionsError(f"scores {scores!r} need one total per seat")
        phase = _PLAY
        challenge = False
        wd4_by = -1
        evidence: tuple[int, ...] = ()
        bluff = False
        if pending:
            sym = SYM[top]
            if sym not in (DRAW_TWO, WILD_DRAW_FOUR):
                raise BadOptionsError(
                    f"a pending penalty comes from a Draw Two or Wild Draw Four on top, not {_NAME[top]!r}"
                )
            single = 2 if sym == DRAW_TWO else 4
            if not opts.stacking and pending != single:
                raise BadOptionsError(f"without stacking a {_NAME[top]!r} makes a penalty of {single}")
            # 3.7 stacking 2: 2 per Draw Two (8 in the deck), 4 per Wild Draw Four (4)
            if pending % 2 or pending < single or pending > 2 * 8 + 4 * 4:
                raise BadOptionsError(
                    f"no stack of Draw Twos and Wild Draw Fours makes {pending!r} under {_NAME[top]!r}"
                )
            if sym == DRAW_TWO and not opts.stacking:
                phase = _REACT
            if sym == WILD_DRAW_FOUR and pending == 4:
                challenge = True
                wd4_by = (turn - direction) % n
                evidence = tuple(hand_ids[wd4_by])
                if prior_colour is None:
                    under = pile[-2] if len(pile) > 1 else -1
                    if under < 0 or IS_WILD[under]:
                        raise BadOptionsError("name the colour in force before the Wild Draw Four: prior_colour")
                    prior = COLOUR[under]
                elif prior_colour in _COLOUR_OF:
                    prior = _COLOUR_OF[prior_colour]
                else:
                    raise BadOptionsError(f"prior_colour {prior_colour!r} is not one of {list(COLOURS)}")
                bluff = not _OF_COLOUR[prior].isdisjoint(evidence)
        if window is not None:
            if not 0 <= window < n or len(hand_ids[window]) != 1:
                raise BadOptionsError(f"window {window!r}: only a seat holding one card is open to a catch")
            if called is not None and called == window:
                raise BadOptionsError("a seat that called is not open to a catch")
        drawn_id = -1
        if called is not None and (called != turn or len(hand_ids[turn]) != 2):
            raise BadOptionsError(f"called={called!r}: only the seat on turn holding 2 cards may have called")
        if drawn is not None:
            if pending:
                raise BadOptionsError("a seat facing a penalty has not drawn a card of its own")
            i = NAMEIX_OF.get(drawn)
            held = [c for c in hand_ids[turn] if i is not None and NAMEIX[c] == i]
            if not held:
                raise BadOptionsError(f"drawn card {drawn!r} is not in the hand of seat {turn}")
            drawn_id = held[-1]
            if not PLAYABLE[active * 15 + SYM[top]][drawn_id]:
                raise BadOptionsError(f"drawn card {drawn!r} is not playable: the turn would have ended (3.3.4)")
            if window is not None:
                raise BadOptionsError("a draw closes the catch window (3.6.3)")
        state = blank_state(opts, n, Rng(seed, "match"))
        state.__dict__.update(
            phase=phase,
            round=round,
            dealer=(turn - direction) % n if dealer is None else dealer,
            seed=seed,
            hands=tuple(tuple(h) for h in hand_ids),
            stock=tuple(reversed(stock_ids)),
            discard=tuple(pile),
            colour=active,
            direction=direction,
            turn=turn,
            pending=pending,
            challenge=challenge,
            wd4_by=wd4_by,
            evidence=evidence,
            bluff=bluff,
            window=-1 if window is None else window,
            called=-1 if called is None else called,
            drawn=drawn_id,
            scores=tuple(scores) if scores is not None else (0,) * n,
        )
        return state

    def decode_action(self, data: Any) -> Move:
        """The only door for untrusted actions: strict about keys and types."""
        if not isinstance(data, dict):
            raise BadActionError(f"an action is a map, not {data!r}")
        raw = data.get("kind")
        kind = _KIND_OF_WIRE.get(raw) if isinstance(raw, str) else None
        if kind is None:
            raise BadActionError(f"unknown action kind {raw!r}; known: {list(_KIND_WIRE)}")
        allowed = ("kind", "card", "colour") if kind == Kind.PLAY else ("kind",)
        extra = [k for k in data if k not in allowed]
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        if kind != Kind.PLAY:
            return _BY_KIND[kind]
        if "card" not in data:
            raise BadActionError("a 'play' action needs a 'card'")
        try:
            return Move.play(data["card"], data.get("colour"))
        except ValueError as exc:
            raise BadActionError(str(exc)) from None

    def state_from_data(self, data: Mapping[str, Any]) -> KartuTerakhirState:
        """Rebuild a state from :meth:`KartuTerakhirState.to_data` output."""
        if data.get("schema") != 1 or data.get("game") != GAME_NAME:
            raise ValueError(f"not a {TITLE} state record: schema {data.get('schema')!r}, game {data.get('game')!r}")
        o = dict(data["options"])
        lr = data["last_round"]
        epochs = data["epochs"]
        state = object.__new__(KartuTerakhirState)
        state.__dict__.update(
            options=KartuTerakhirOptions(**o),
            seats=data["seats"],
            version=data["version"],
            phase=Phase(data["phase"]),
            match_rng=Rng.from_data(data["match_rng"]),
            round=data["round"],
            dealer=data["dealer"],
            seed=int(data["seed"], 16),
            reshuffles=data["reshuffles"],
            hands=tuple(tuple(h) for h in data["hands"]),
            stock=tuple(data["stock"]),
            discard=tuple(data["discard"]),
            colour=data["colour"],
            direction=data["direction"],
            turn=data["turn"],
            turn_v=data["turn_v"],
            drawn=data["drawn"],
            pending=data["pending"],
            challenge=data["challenge"],
            wd4_by=data["wd4_by"],
            evidence=tuple(data["evidence"]),
            bluff=data["bluff"],
            window=data["window"],
            called=data["called"],
            shown=tuple(data["shown"]),
            shown_to=data["shown_to"],
            scores=tuple(data["scores"]),
            ready=tuple(data["ready"]),
            last_round=None if lr is None else RoundResult(lr[0], lr[1], lr[2], tuple(tuple(h) for h in lr[3]), lr[4]),
            winners=tuple(data["winners"]),
            epochs=None if epochs is None else tuple(epochs),
        )
        return state


def blank_state(options: KartuTerakhirOptions, seats: int, match_rng: Rng) -> KartuTerakhirState:
    """A state with every field set and no cards: what a deal or a stacked layout fills in.

    Built field by field into the instance dict, like ``_evolve``: the frozen
    ``__init__`` would cost more than the deal itself.
    """
    state = object.__new__(KartuTerakhirState)
    state.__dict__.update(
        options=options,
        seats=seats,
        version=0,
        phase=_PLAY,
        match_rng=match_rng,
        round=1,
        dealer=0,
        seed=0,
        reshuffles=0,
        hands=((),) * seats,
        stock=(),
        discard=(),
        colour=0,
        direction=1,
        turn=0,
        turn_v=0,
        drawn=-1,
        pending=0,
        challenge=False,
        wd4_by=-1,
        evidence=(),
        bluff=False,
        window=-1,
        called=-1,
        shown=(),
        shown_to=-1,
        scores=(0,) * seats,
        ready=(False,) * seats,
        last_round=None,
        winners=(),
        epochs=None,
    )
    return state


def _carried_dealer(carry: Mapping[str, Any], seats: int) -> int:
    dealer = carry.get("dealer") if isinstance(carry, Mapping) else None
    if type(dealer) is not int or not 0 <= dealer < seats:
        raise BadOptionsError(f"not a carry of {TITLE} at {seats} seats: {carry!r}")
    return dealer


def _options_arg(game: KartuTerakhir, options: Any) -> KartuTerakhirOptions:
    """Options given as a value, a host's request map, or ``None`` (the defaults)."""
    if options is None:
        return KartuTerakhirOptions()
    if isinstance(options, KartuTerakhirOptions):
        return options
    if isinstance(options, Mapping):
        return game.options_from_wire(dict(options))
    raise BadOptionsError(f"options must be KartuTerakhirOptions or a map of options, not {options!r}")


GAME: Final = KartuTerakhir()
