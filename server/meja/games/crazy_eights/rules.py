"""Crazy Eights: the ``house`` rules (the product's default) and the ``classic`` and ``party`` presets.

The rules are ``docs/rules/crazy-eights.md``; comments cite its sections.

Rules in brief
--------------
One 52-card deck (two for ``party`` at 6-8 seats). Each seat is dealt a hand;
one card is turned up as the starter and the rest is the face-down stock. On a
turn a seat plays one card matching the active suit or the top card's rank, or
any 8, naming a suit when it lands (1.3). The first seat to empty its hand wins
the round; every other seat adds up penalty points for the cards it still holds
(8 = 50, J/Q/K = 10, A = 1, the rest their number; 1.6). The match ends after
the round in which a total reaches the target (100): the lowest total wins, ties
are co-winners. ``party`` can instead count round wins over a fixed number of
rounds (2.3.5).

=========================  ===============  =====================  =====================
Preset                     ``house``        ``classic``            ``party``
=========================  ===============  =====================  =====================
Seats                      2-3              2-4                    2-8 (2 decks at 6-8)
Hand                       7 (2 seats), 5   5                      7 (2-4 seats), 5
Leads round 1              seat 0           seat after dealer      seat after dealer
Leads later rounds         last winner      dealer moves on        dealer moves on
Starter is an 8            keeps its suit   buried, turn again     dealer names a suit
Draw                       up to 3 a turn,  1, only when stuck;    1, only when stuck;
                           voluntary too    legal card played      turn passes
Pass                       only when stuck  only when nothing      only when nothing
                           and 3 drawn      to draw                to draw
=========================  ===============  =====================  =====================

Actions
-------
``play CARD [SUIT]`` (the suit is named with the 8 itself, except an 8 that is the
last card, which ends the round: 1.3.7), ``draw``, ``pass``, ``suit SUIT`` (the
dealer naming the suit of a starter 8 in ``party``, or a seat whose drawn 8 was
played for it in ``classic``), ``ready`` (after a round: every seat is ready for
the next deal; the server submits it for bots and absent players).

What each seat sees
-------------------
Its own hand; every seat's card count; the top card and the active suit; the
stock and discard sizes (never the stock order); whose turn it is and how many
draws are left; whether Draw and Pass are allowed and, when not, a reason code;
scores, round and match status. The deal code of a round in progress is never in
a view or event (it rebuilds every hand): it is revealed with the round's result.

Determinism
-----------
All chance comes from :class:`~meja.rules.rng.Rng`. A match seed draws each
round's 128-bit seed and, where there is one, the first dealer; a round's deal
uses stream ``deal`` of its seed and the k-th reshuffle stream ``reshuffle/k``,
so a deal code (preset, seats, leader, seed) fixes the hands, starter and stock,
and identical moves give identical reshuffles (1.9.3, T-CE-15).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, fields, replace
from enum import IntEnum
from functools import total_ordering
from typing import Any, Final, Literal

from meja.rules.cards import CARDS, Card, Suit, parse_cards
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
    Transition,
    Wire,
    check_options,
)
from meja.rules.rng import Rng

from . import dealcode

__all__ = [
    "CrazyEights",
    "CrazyEightsOptions",
    "CrazyEightsState",
    "CrazyEightsView",
    "Kind",
    "Move",
    "Phase",
    "penalty",
]

GAME_NAME: Final = "crazy_eights"

# Precomputed per card id (0..103), for the hot path.
_RANK0: Final = tuple(i % 13 for i in range(104))  # 0 = ace ... 7 = eight ... 12 = king
_SUIT: Final = tuple(i % 52 // 13 for i in range(104))
_EIGHT: Final = 7
#: _PLAYABLE[active_suit * 13 + top_rank][card] is 1 when the card may be played (1.3.1).
_PLAYABLE: Final = tuple(
    bytes(1 if _RANK0[c] == 7 or _SUIT[c] == key // 13 or _RANK0[c] == key % 13 else 0 for c in range(104))
    for key in range(52)
)
_SUIT_OBJ: Final = tuple(Suit(s) for s in _SUIT)
# Event and Transition are NamedTuples: tuple.__new__ builds them without the
# Python-level __new__ that namedtuple generates (the hot path builds several per action).
_tuple_new: Final = tuple.__new__
_LETTER: Final = ("S", "H", "D", "C")
_NAME: Final = tuple(str(c) for c in CARDS)
_PENALTY: Final = tuple(50 if r == _EIGHT else 10 if r >= 10 else r + 1 for r in _RANK0)

#: The rules' own tables, per card id (0..103), for the bots' fast simulator to derive from
#: (each rule is written once: meja.games.crazy_eights.bots.tables builds its masks on these).
RANK_INDEX: Final = _RANK0
SUIT_INDEX: Final = _SUIT
EIGHT_RANK: Final = _EIGHT
PENALTY_POINTS: Final = _PENALTY
#: PLAYABLE[active_suit * 13 + top_rank][card]: 1 when the card may be played (1.3.1)
PLAYABLE: Final = _PLAYABLE


def penalty(cards: tuple[Card, ...] | list[Card]) -> int:
    """Penalty points of a hand (1.6.2): 8 = 50, J/Q/K = 10, A = 1, others their number."""
    return sum(_PENALTY[c] for c in cards)


# --------------------------------------------------------------------------- options


DrawnCardPlay = Literal["forced", "optional"]
StarterEightChooser = Literal["dealer", "first_player"]
MatchMode = Literal["points", "wins"]


@dataclass(frozen=True, slots=True)
class CrazyEightsOptions:
    """Everything that differs between presets, fully defaulted to ``house``.

    The presets are named instances (:data:`PRESETS`); a host may change the
    fields in :data:`ADJUSTABLE` and nothing else, so a table is always one of
    the three rule sets the documents describe, with its documented options.
    """

    preset: str = "house"
    min_seats: int = 2
    max_seats: int = 3
    #: hand size by seat count, indexed by seats (docs/rules/crazy-eights.md 1.1.4, 2.1)
    hand_sizes: tuple[int, ...] = (0, 0, 7, 5, 0, 0, 0, 0, 0)
    #: from this many seats on, two decks are used (0: never; 2.3.1)
    two_decks_from: int = 0
    #: ``False``: round 1 is led by seat 0 and later rounds by the last winner (1.2);
    #: ``True``: a dealer (random at first) moves on each round and the next seat leads (2.2.5)
    has_dealer: bool = False
    #: what a starter 8 does: keep its suit (1.3.6), be buried (2.2.2), or have a suit named (2.3.2)
    starter_eight: Literal["keep", "bury", "name"] = "keep"
    starter_eight_chooser: StarterEightChooser = "dealer"
    #: the most draws in one turn (1.4.2: 3; 2.2.3, 2.3.3: 1)
    max_draws: int = 3
    #: ``True``: drawing is allowed only with no playable card (2.2.3, 2.3.3)
    draw_only_when_stuck: bool = False
    #: after a draw: play any card and maybe draw again (``any``), the drawn
    #: card is played if legal (``drawn``), or the turn passes (``end_turn``)
    after_draw: Literal["any", "drawn", "end_turn"] = "any"
    drawn_card_play: DrawnCardPlay = "forced"
    match_mode: MatchMode = "points"
    #: points mode: the match ends when a total reaches this (1.6.5)
    target: int = 100
    #: wins mode: the number of rounds (2.3.5)
    rounds: int = 5

    def hand_size(self, seats: int) -> int:
        return self.hand_sizes[seats]

    def decks(self, seats: int) -> int:
        return 2 if self.two_decks_from and seats >= self.two_decks_from else 1

    def to_wire(self) -> dict[str, Wire]:
        """Plain data; one shared dict per distinct options value (treat it as read-only)."""
        return _options_wire(self)


@functools.lru_cache(maxsize=256)
def _options_wire(options: CrazyEightsOptions) -> dict[str, Wire]:
    # Options are immutable and few: every record and summary of a table would rebuild the same dict.
    return {f.name: _plain(getattr(options, f.name)) for f in fields(options)}


def _plain(value: Any) -> Wire:
    return list(value) if isinstance(value, tuple) else value


PRESETS: Final[Mapping[str, CrazyEightsOptions]] = {
    "house": CrazyEightsOptions(),
    "classic": CrazyEightsOptions(
        preset="classic",
        min_seats=2,
        max_seats=4,
        hand_sizes=(0, 0, 5, 5, 5, 0, 0, 0, 0),
        has_dealer=True,
        starter_eight="bury",
        max_draws=1,
        draw_only_when_stuck=True,
        after_draw="drawn",
    ),
    "party": CrazyEightsOptions(
        preset="party",
        min_seats=2,
        max_seats=8,
        hand_sizes=(0, 0, 7, 7, 7, 5, 5, 5, 5),
        two_decks_from=6,
        has_dealer=True,
        starter_eight="name",
        max_draws=1,
        draw_only_when_stuck=True,
        after_draw="end_turn",
    ),
}

#: Options a host may set on top of a preset, with their allowed values.
ADJUSTABLE: Final[Mapping[str, tuple[Any, ...] | range]] = {
    "target": range(10, 1001),
    "match_mode": ("points", "wins"),
    "rounds": range(1, 51),
    "drawn_card_play": ("forced", "optional"),
    "starter_eight_chooser": ("dealer", "first_player"),
}


#: What the host form offers per preset (a subset of :data:`ADJUSTABLE`: an option that
#: changes nothing in a preset is not offered there, e.g. ``drawn_card_play`` outside classic).
_TARGET = OptionSpec("target", "int", 100, min=10, max=1000, step=1, when=(("match_mode", ("points",)),))
_MODE = OptionSpec("match_mode", "choice", "points", choices=("points", "wins"))
_ROUNDS = OptionSpec("rounds", "int", 5, min=1, max=50, when=(("match_mode", ("wins",)),))
INFO: Final = GameInfo(
    name=GAME_NAME,
    title="Crazy Eights",
    presets=(
        PresetInfo("house", 2, 3, 3, (_TARGET, _MODE, _ROUNDS)),
        PresetInfo(
            "classic",
            2,
            4,
            3,
            (_TARGET, _MODE, _ROUNDS, OptionSpec("drawn_card_play", "choice", "forced", ("forced", "optional"))),
        ),
        PresetInfo(
            "party",
            2,
            8,
            3,
            (
                _MODE,
                _TARGET,
                _ROUNDS,
                OptionSpec("starter_eight_chooser", "choice", "dealer", choices=("dealer", "first_player")),
            ),
        ),
    ),
    deal_codes=True,
    # 1.5.3: the table pauses visibly after a reshuffle, and bots wait for it.
    hold_events=frozenset({"reshuffle"}),
)


# --------------------------------------------------------------------------- actions


class Kind(IntEnum):
    """Action kinds, in the order legal actions are sorted."""

    PLAY = 0
    SUIT = 1
    DRAW = 2
    PASS = 3
    READY = 4

    @property
    def wire(self) -> str:
        return _KIND_WIRE[self]


_KIND_WIRE: Final = ("play", "suit", "draw", "pass", "ready")
_KIND_OF_WIRE: Final = {name: Kind(i) for i, name in enumerate(_KIND_WIRE)}


@total_ordering
@dataclass(frozen=True, slots=True)
class Move:
    """One action. ``card`` for ``play``; ``suit`` for ``suit`` and for an 8 that does not go out.

    Use :meth:`play`, :data:`DRAW`, :data:`PASS`... rather than the constructor:
    they return interned values, which keeps legality checks cheap.
    """

    kind: Kind
    card: Card | None = None
    suit: Suit | None = None

    @property
    def sort_key(self) -> tuple[int, int, int]:
        return (
            self.kind,
            -1 if self.card is None else self.card,
            -1 if self.suit is None else self.suit,
        )

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self.sort_key < other.sort_key

    @staticmethod
    def play(card: Card | str, suit: Suit | str | None = None) -> Move:
        c = Card.parse(card) if isinstance(card, str) else card
        s = Suit.parse(suit) if isinstance(suit, str) else suit
        return _PLAYS[c][5 if s is None else s]

    @staticmethod
    def choose(suit: Suit | str) -> Move:
        return _SUITS[Suit.parse(suit) if isinstance(suit, str) else suit]

    def to_wire(self) -> dict[str, Wire]:
        out: dict[str, Wire] = {"kind": self.kind.wire}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.suit is not None:
            out["suit"] = self.suit.letter
        return out

    def __str__(self) -> str:
        return " ".join(str(v) for v in (self.kind.wire, self.card, self.suit) if v is not None)


_PLAYS: Final = tuple(
    tuple(Move(Kind.PLAY, CARDS[c], Suit(s) if s < 4 else None) for s in range(6)) for c in range(104)
)
_SUITS: Final = tuple(Move(Kind.SUIT, None, Suit(s)) for s in range(4))
DRAW: Final = Move(Kind.DRAW)
PASS: Final = Move(Kind.PASS)
READY: Final = Move(Kind.READY)


# --------------------------------------------------------------------------- state


class Phase(IntEnum):
    PLAY = 0
    #: a seat must name the active suit (party starter 8; classic forced 8 after a draw)
    CHOOSE_SUIT = 1
    #: the round is scored; every seat says ``ready`` for the next deal
    ROUND_OVER = 2
    MATCH_OVER = 3

    @property
    def wire(self) -> str:
        return ("play", "choose_suit", "round_over", "match_over")[self]


# Module constants for the hot paths: looking a member up on an Enum class costs
# about 130 ns in CPython 3.11, a global about 10.
_PLAY: Final = Phase.PLAY
_CHOOSE_SUIT: Final = Phase.CHOOSE_SUIT
_ROUND_OVER: Final = Phase.ROUND_OVER
_MATCH_OVER: Final = Phase.MATCH_OVER


@dataclass(frozen=True, slots=True)
class RoundResult:
    """A scored round: who went out, each seat's penalty and the hands it came from."""

    round: int
    winner: int
    penalties: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "round": self.round,
            "winner": self.winner,
            "penalties": list(self.penalties),
            "hands": [[str(c) for c in h] for h in self.hands],
            "deal_code": self.deal_code,
        }


@dataclass(frozen=True)
class CrazyEightsState(StateDefaults):
    """A match of Crazy Eights between whole decisions. Build one with :meth:`CrazyEights.new_match`.

    Hands are kept sorted by card id. ``stock[-1]`` is the next card drawn and
    ``discard[-1]`` the top card, so the common moves slice off the end.

    Not ``slots=True``, on purpose: :meth:`_evolve` copies the instance dict in
    one ``dict.update``, about eight times cheaper than ``dataclasses.replace``
    (which re-runs the frozen ``__init__`` field by field); this is most of the
    rules' speed (``meja bench rules``).
    """

    options: CrazyEightsOptions
    seats: int
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    scores: tuple[int, ...]
    wins: tuple[int, ...]
    dealer: int | None
    leader: int
    seed: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    active_suit: Suit
    turn: int
    draws: int
    #: the card drawn this turn where only it may be played (classic, optional play)
    drawn: Card | None
    reshuffles: int
    #: who must name the suit in the CHOOSE_SUIT phase
    chooser: int | None
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    winners: tuple[int, ...]

    def _evolve(self, **changes: Any) -> CrazyEightsState:
        """A copy with ``changes`` (the state is frozen: this is the only way it 'changes')."""
        return self._evolve_with(changes)

    def _evolve_with(self, changes: dict[str, Any]) -> CrazyEightsState:
        new = object.__new__(CrazyEightsState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d.pop("_legal", None)
        return new

    # ------------------------------------------------------------- queries

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def deal_code(self) -> str:
        """The current round's deal code. Secret while the round is in progress (1.9.3)."""
        return dealcode.encode(dealcode.DealSpec(self.options.preset, self.seats, self.leader, self.seed))

    def is_playable(self, card: Card) -> bool:
        """1.3.1: an 8, the active suit, or the top card's rank."""
        return bool(_PLAYABLE[self.active_suit * 13 + _RANK0[self.discard[-1]]][card])

    def can_draw_any(self) -> bool:
        """Whether a card can be drawn at all (1.5.4: not when stock is empty and discard is one card)."""
        return bool(self.stock) or len(self.discard) > 1

    def awaiting(self) -> tuple[int, ...]:
        if self.phase == _PLAY:
            return (self.turn,)
        if self.phase == _CHOOSE_SUIT:
            assert self.chooser is not None
            return (self.chooser,)
        if self.phase == _ROUND_OVER:
            return tuple(s for s in range(self.seats) if not self.ready[s])
        return ()

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        return Outcome(self.winners, self.wins if self.options.match_mode == "wins" else self.scores)

    # The rest of the contract (meja.rules.game); nobody acts out of turn (actors() is awaiting()).

    def epoch(self, seat: int) -> int:
        """Every action concerns everyone, except the ``ready`` of another seat between rounds."""
        if self.phase == _ROUND_OVER:
            return self.version - sum(self.ready)  # the version that ended the round
        return self.version

    def period(self) -> Hashable:
        """A turn, a suit choice, the wait for ``ready``: three draws in one turn share a period."""
        phase = self.phase
        if phase == _PLAY:
            return (self.round, 0, self.turn)
        if phase == _CHOOSE_SUIT:
            return (self.round, 1, self.chooser)
        return (self.round, int(phase))

    def in_round(self) -> bool:
        return self.phase == _PLAY or self.phase == _CHOOSE_SUIT

    def default_action(self, seat: int) -> Move | None:
        """Out of time: ``ready`` between rounds; a draw while the rules allow one; else the game's bot decides."""
        legal = self.legal_actions(seat)
        if self.phase == _ROUND_OVER:
            return READY if READY in legal else None
        return DRAW if DRAW in legal else None

    def locations(self) -> tuple[Location, ...]:
        """Hands (to their seats; to all once the round is scored), the face-up pile, the face-down stock."""
        shown = not self.in_round()
        out = [
            Location(f"hand/{s}", tuple(_NAME[c] for c in h), "all" if shown else (s,))
            for s, h in enumerate(self.hands)
        ]
        # Every card under the top one was face up when it landed (buried starters too: 2.2.2).
        out.append(Location("discard", tuple(_NAME[c] for c in self.discard), "all"))
        out.append(Location("stock", tuple(_NAME[c] for c in self.stock), ()))
        if self.options.starter_eight == "bury" and self.stock is not None:
            # 2.2.2: starter 8s turned face up and put back into the stock, this round.
            buried = self._buried()
            if buried:
                out.append(Location("buried", tuple(_NAME[c] for c in buried), "all", counted=False))
        lr = self.last_round
        if lr is not None and lr.round < self.round:
            # The last round's hands, revealed when it was scored (1.6): public facts about a past
            # round, shown in every view's last_round, while the cards themselves are dealt again.
            out.append(Location("last_round", tuple(_NAME[c] for h in lr.hands for c in h), "all", counted=False))
        return tuple(out)

    def legal_actions(self, seat: int) -> tuple[Move, ...]:
        """Every action ``seat`` may take now, sorted (plays by card, then suit, draw, pass, ready)."""
        phase = self.phase
        if phase == _PLAY:
            if seat != self.turn:
                return ()
            # Cached on the (immutable) state: the policy asks, then apply checks.
            legal: tuple[Move, ...] | None = self.__dict__.get("_legal")
            if legal is None:
                legal = self.__dict__["_legal"] = self._turn_actions()
            return legal
        if phase == _CHOOSE_SUIT:
            return _SUITS if seat == self.chooser else ()
        if phase == _ROUND_OVER:
            return (READY,) if 0 <= seat < self.seats and not self.ready[seat] else ()
        return ()

    def _turn_actions(self) -> tuple[Move, ...]:
        hand = self.hands[self.turn]
        drawn = self.drawn
        # 1.3.1 as a precomputed table: which card ids are playable on (active suit, top rank).
        playable = _PLAYABLE[self.active_suit * 13 + _RANK0[self.discard[-1]]]
        out: list[Move] = []
        for c in hand if drawn is None else (drawn,):
            if playable[c]:
                if _RANK0[c] == _EIGHT:
                    if len(hand) == 1:
                        out.append(_PLAYS[c][5])  # 1.3.7: going out on an 8 names no suit
                    else:
                        out.extend(_PLAYS[c][:4])
                else:
                    out.append(_PLAYS[c][5])
        # _draw_blocked and _pass_blocked, inlined (this runs once per state).
        stuck = not out
        opts = self.options
        can_draw = bool(self.stock) or len(self.discard) > 1  # 1.5.4
        draws_left = self.draws < opts.max_draws
        if draws_left and can_draw and (stuck or not opts.draw_only_when_stuck):
            out.append(DRAW)
        if drawn is not None or (stuck and not (draws_left and can_draw)):
            out.append(PASS)
        return tuple(out)

    def _has_playable(self, seat: int) -> bool:
        return any(self.is_playable(c) for c in self.hands[seat])

    def _draw_blocked(self, stuck: bool) -> str | None:
        """Why the seat on turn may not draw, or ``None``. Assumes the PLAY phase."""
        opts = self.options
        if self.draws >= opts.max_draws:
            return "draw_limit"  # 1.4.2 (house), 2.2.3 and 2.3.3 (one draw)
        if not self.stock and len(self.discard) < 2:
            return "nothing_to_draw"  # 1.5.4
        if opts.draw_only_when_stuck and not stuck:
            return "has_playable"  # 2.2.3, 2.3.3
        return None

    def _pass_blocked(self, stuck: bool) -> str | None:
        """Why the seat on turn may not pass, or ``None``. Assumes the PLAY phase."""
        if self.drawn is not None:
            return None  # classic, optional play: keep the drawn card and end the turn
        if not stuck:
            return "has_playable"  # 1.4.5 (a), 1.4.6
        if self.draws < self.options.max_draws and (self.stock or len(self.discard) > 1):
            return "must_draw"  # 1.4.5 (b)
        return None

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Move) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (state unchanged) if it is not legal."""
        if self.phase == 0 and type(seat) is int and seat == self.turn and type(action) is Move:
            # The hot path (playouts, search): a turn action by the seat on turn.
            legal = self.__dict__.get("_legal") or self.legal_actions(seat)
            if action in legal:
                kind = action.kind
                if kind == 0:
                    assert action.card is not None
                    return self._play(seat, action.card, action.suit, [])
                if kind == 2:
                    return self._draw(seat)
                return self._pass(seat)
        if not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        if not isinstance(action, Move):
            raise BadActionError(f"not a crazy eights action: {action!r}")
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        kind = action.kind
        if kind == Kind.PLAY:
            assert action.card is not None
            return self._play(seat, action.card, action.suit, [])
        if kind == Kind.DRAW:
            return self._draw(seat)
        if kind == Kind.PASS:
            return self._pass(seat)
        if kind == Kind.SUIT:
            assert action.suit is not None
            return self._choose_suit(seat, action.suit)
        return self._ready(seat)

    def _why_illegal(self, seat: int, action: Move) -> IllegalActionError:
        phase = self.phase
        if phase == Phase.MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == Phase.ROUND_OVER:
            if action.kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next round")
            return RoundOverError(f"round {self.round} is over; only 'ready' is accepted")
        if seat not in self.awaiting():
            whose = self.chooser if phase == Phase.CHOOSE_SUIT else self.turn
            return NotYourTurnError(f"it is seat {whose}'s decision, not seat {seat}'s")
        if phase == Phase.CHOOSE_SUIT:
            return IllegalActionError(f"seat {seat} must name a suit first, not {str(action)!r}")
        stuck = not self._has_playable(seat) if self.drawn is None else not self.is_playable(self.drawn)
        if action.kind == Kind.DRAW:
            return IllegalActionError(f"draw is not allowed: {self._draw_blocked(stuck)}")
        if action.kind == Kind.PASS:
            return IllegalActionError(f"pass is not allowed: {self._pass_blocked(stuck)}")
        if action.kind == Kind.PLAY:
            card = action.card
            assert card is not None
            if card not in self.hands[seat]:
                return IllegalActionError(f"{str(card)!r} is not in seat {seat}'s hand")
            if self.drawn is not None and card != self.drawn:
                return IllegalActionError(f"only the drawn card {str(self.drawn)!r} may be played")
            if not self.is_playable(card):
                return IllegalActionError(
                    f"{str(card)!r} does not match the active suit {self.active_suit.word.lower()!r}"
                    f" or the rank of {str(self.top)!r}"
                )
            if _RANK0[card] == _EIGHT and len(self.hands[seat]) > 1 and action.suit is None:
                return IllegalActionError(f"playing {str(card)!r} must name a suit")
            if _RANK0[card] == _EIGHT and len(self.hands[seat]) == 1 and action.suit is not None:
                return IllegalActionError("an 8 played as the last card ends the round: name no suit")
            if _RANK0[card] != _EIGHT and action.suit is not None:
                return IllegalActionError(f"only an 8 names a suit, not {str(card)!r}")
        return IllegalActionError(f"{str(action)!r} is not legal now")

    def _next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def _play(self, seat: int, card: Card, suit: Suit | None, events: list[Event], bump: int = 1) -> Transition:
        hand = self.hands[seat]
        i = hand.index(card)
        hands_list = list(self.hands)
        new_hand = hands_list[seat] = hand[:i] + hand[i + 1 :]
        hands = tuple(hands_list)
        active = _SUIT_OBJ[card] if suit is None else suit  # 1.3.2, 1.3.3
        data: dict[str, Wire] = {"seat": seat, "card": _NAME[card], "active_suit": _LETTER[active]}
        if suit is not None:
            data["suit"] = _LETTER[suit]
        if self.drawn is not None or events:
            data["drawn"] = True
        events.append(_tuple_new(Event, ("play", data, None, ())))
        changes: dict[str, Any] = {
            "version": self.version + bump,
            "hands": hands,
            "discard": self.discard + (card,),
            "active_suit": active,
            "drawn": None,
            "draws": 0,
        }
        if not new_hand:
            return self._evolve_with(changes)._end_round(seat, events)  # 1.6.1, 1.3.7
        nxt = changes["turn"] = (seat + 1) % self.seats
        events.append(_tuple_new(Event, ("turn", {"seat": nxt}, None, ())))
        return _tuple_new(Transition, (self._evolve_with(changes), tuple(events)))

    def _next_turn(self, seat: int, events: list[Event]) -> Transition:
        events.append(Event("turn", {"seat": seat}))
        state = self._evolve(turn=seat, draws=0, drawn=None, phase=_PLAY)
        return Transition(state, tuple(events))

    def _draw(self, seat: int) -> Transition:
        events: list[Event] = []
        stock = self.stock
        discard = self.discard
        reshuffles = self.reshuffles
        if not stock:
            # 1.5.1-1.5.3: the top card stays; the rest is shuffled into the stock,
            # the active suit does not change; the event comes before the draw.
            k = reshuffles + 1
            shuffled, _ = Rng(self.seed, f"reshuffle/{k}").shuffle(discard[:-1])
            stock = tuple(reversed(shuffled))
            discard = discard[-1:]
            reshuffles = k
            events.append(Event("reshuffle", {"moved": len(stock), "count": k}))
        card = stock[-1]
        stock = stock[:-1]
        hand = self.hands[seat]
        i = bisect.bisect(hand, card)
        hands_list = list(self.hands)
        hands_list[seat] = hand[:i] + (card,) + hand[i:]
        hands = tuple(hands_list)
        new_hand = hands[seat]
        draws = self.draws + 1
        opts = self.options
        left = opts.max_draws - draws
        only = (seat,)
        events.append(_tuple_new(Event, ("draw", {"seat": seat, "card": _NAME[card], "draws_left": left}, only, ())))
        events.append(_tuple_new(Event, ("draw", {"seat": seat, "draws_left": left}, None, only)))
        state = self._evolve_with(
            {
                "version": self.version + 1,
                "hands": hands,
                "stock": stock,
                "discard": discard,
                "reshuffles": reshuffles,
                "draws": draws,
            }
        )
        after = opts.after_draw
        if after == "any":
            return _tuple_new(Transition, (state, tuple(events)))  # 1.4.4: play anything, or draw again
        if after == "end_turn":
            return state._next_turn(self._next_seat(seat), events)  # 2.3.3
        # classic (2.2.3): a legal drawn card is played at once (forced) or may be (optional)
        if not state.is_playable(card):
            return state._next_turn(self._next_seat(seat), events)
        if opts.drawn_card_play == "optional":
            return Transition(state._evolve(drawn=card), tuple(events))
        if _RANK0[card] == _EIGHT:
            # The drawn 8 is played for the seat, which still names the suit.
            i = new_hand.index(card)
            rest = new_hand[:i] + new_hand[i + 1 :]
            events.append(
                Event(
                    "play",
                    {
                        "seat": seat,
                        "card": str(card),
                        "active_suit": _SUIT_OBJ[card].letter,
                        "drawn": True,
                        "forced": True,
                    },
                )
            )
            state = state._evolve(
                hands=state.hands[:seat] + (rest,) + state.hands[seat + 1 :],
                discard=state.discard + (card,),
                active_suit=_SUIT_OBJ[card],
                phase=Phase.CHOOSE_SUIT,
                chooser=seat,
            )
            events.append(Event("choose_suit", {"seat": seat}))
            return Transition(state, tuple(events))
        return state._play(seat, card, None, events, bump=0)

    def _pass(self, seat: int) -> Transition:
        data: dict[str, Wire] = {
            "seat": seat,
            # What the pass tells everyone (docs/bots.md: void inference): the seat held no card of
            # this suit, of this rank, and no 8 (unless it kept a drawn card: "kept").
            "active_suit": self.active_suit.letter,
            "top": str(self.top),
        }
        if self.drawn is not None:
            data["kept"] = True
        events = [Event("pass", data)]
        state = self._evolve(version=self.version + 1)
        return state._next_turn(self._next_seat(seat), events)

    def _choose_suit(self, seat: int, suit: Suit) -> Transition:
        events = [Event("suit", {"seat": seat, "suit": suit.letter, "active_suit": suit.letter})]
        state = self._evolve(version=self.version + 1, active_suit=suit, chooser=None)
        if self.round_start_choice():
            return state._next_turn(self.turn, events)  # the first player now leads
        return state._next_turn(self._next_seat(seat), events)

    def bot_rng(self, seat: int) -> Rng:
        """The RNG a bot in ``seat`` uses this round (1.9.3: derived from the round's seed and the seat).

        Its seed is a hash of the round seed, not the round seed itself, so a
        bot holding it cannot rebuild the deal from it.
        """
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def round_start_choice(self) -> bool:
        """Whether the pending suit choice is a starter 8's (party), not a played 8's."""
        return self.phase == Phase.CHOOSE_SUIT and len(self.discard) == 1 and self.draws == 0

    def _end_round(self, winner: int, events: list[Event]) -> Transition:
        opts = self.options
        penalties = tuple(penalty(h) for h in self.hands)  # 1.6.1, 1.6.2
        scores = tuple(a + b for a, b in zip(self.scores, penalties, strict=True))
        wins = tuple(w + (s == winner) for s, w in enumerate(self.wins))
        result = RoundResult(self.round, winner, penalties, self.hands, self.deal_code)
        events.append(Event("round_over", {**result.to_wire(), "scores": list(scores), "wins": list(wins)}))
        if opts.match_mode == "wins":
            over = self.round >= opts.rounds
            best = max(wins)
            winners = tuple(s for s in range(self.seats) if wins[s] == best)  # T-NO-04
        else:
            over = max(scores) >= opts.target  # 1.6.5
            best = min(scores)
            winners = tuple(s for s in range(self.seats) if scores[s] == best)  # 1.6.6, 1.6.7
        state = self._evolve(
            scores=scores,
            wins=wins,
            last_round=result,
            phase=Phase.MATCH_OVER if over else Phase.ROUND_OVER,
            ready=(False,) * self.seats,
            winners=winners if over else (),
            drawn=None,
            chooser=None,
        )
        if over:
            events.append(Event("match_over", {"winners": list(winners), "scores": list(scores), "wins": list(wins)}))
        return Transition(state, tuple(events))

    def _ready(self, seat: int) -> Transition:
        ready = self.ready[:seat] + (True,) + self.ready[seat + 1 :]
        events = [Event("ready", {"seat": seat})]
        state = self._evolve(version=self.version + 1, ready=ready)
        if not all(ready):
            return Transition(state, tuple(events))
        # Next round: the winner leads (1.2.2), or the dealer moves on (2.2.5).
        assert self.last_round is not None
        if self.options.has_dealer:
            assert self.dealer is not None
            next_dealer = self._next_seat(self.dealer)
            dealer: int | None = next_dealer
            leader = self._next_seat(next_dealer)
        else:
            dealer, leader = None, self.last_round.winner
        seed, match_rng = self.match_rng.bits(dealcode.SEED_BITS)
        state = state._evolve(match_rng=match_rng, round=self.round + 1)
        return state._deal(dealer, leader, seed, events)

    def _buried(self) -> list[Card]:
        """The starter 8s this round's deal turned up and buried (2.2.2), dealt again from its seed."""
        n = self.seats
        size = self.options.hand_size(n)
        rng = Rng(self.seed, "deal")
        deck, rng = rng.shuffle(CARDS[: 52 * self.options.decks(n)])
        starter, rest, buried = deck[n * size], list(deck[n * size + 1 :]), []
        while _RANK0[starter] == _EIGHT:
            buried.append(starter)
            shuffled, rng = rng.shuffle([*rest, starter])
            starter, rest = shuffled[0], list(shuffled[1:])
        return buried

    def _deal(self, dealer: int | None, leader: int, seed: int, events: list[Event]) -> Transition:
        """Deal a round from ``seed`` (1.1, 2.2.2, 2.3.1-2). The deal is fixed by (preset, seats, leader, seed).

        The deck (one or two, in card-id order) is shuffled with stream ``deal``;
        cards go out one at a time clockwise from the leader; the next card is
        the starter, and the rest is the stock, drawn in the shuffled order.
        """
        opts = self.options
        n = self.seats
        size = opts.hand_size(n)
        rng = Rng(seed, "deal")
        deck, rng = rng.shuffle(CARDS[: 52 * opts.decks(n)])
        # Card j goes to seat (leader + j) % n, so seat s gets every n-th card from (s - leader) % n.
        hands = [sorted(deck[(s - leader) % n : n * size : n]) for s in range(n)]
        starter = deck[n * size]
        rest = list(deck[n * size + 1 :])
        buried: list[str] = []
        while opts.starter_eight == "bury" and _RANK0[starter] == _EIGHT:
            # 2.2.2: return the 8 to the stock, reshuffle the stock, turn again.
            buried.append(str(starter))
            shuffled, rng = rng.shuffle([*rest, starter])
            starter, rest = shuffled[0], list(shuffled[1:])
        stock = tuple(reversed(rest))
        state = self._evolve(
            phase=Phase.PLAY,
            dealer=dealer,
            leader=leader,
            seed=seed,
            hands=tuple(tuple(h) for h in hands),
            stock=stock,
            discard=(starter,),
            active_suit=_SUIT_OBJ[starter],  # 1.3.2; 1.3.6: a starter 8 keeps its suit
            turn=leader,
            draws=0,
            drawn=None,
            reshuffles=0,
            chooser=None,
            ready=(False,) * n,
        )
        public: dict[str, Wire] = {
            "round": state.round,
            "dealer": dealer,
            "leader": leader,
            "starter": str(starter),
            "active_suit": state.active_suit.letter,
            "hand_counts": [len(h) for h in hands],
            "stock_count": len(stock),
        }
        if buried:
            public["buried"] = buried
        events.append(Event("round_start", public))
        for s in range(n):
            events.append(Event("hand", {"seat": s, "cards": [str(c) for c in hands[s]]}, only=(s,)))
        if opts.starter_eight == "name" and _RANK0[starter] == _EIGHT:
            # 2.3.2: the dealer (by default) names the suit before the first player acts.
            chooser = dealer if opts.starter_eight_chooser == "dealer" and dealer is not None else leader
            state = state._evolve(phase=Phase.CHOOSE_SUIT, chooser=chooser)
            events.append(Event("choose_suit", {"seat": chooser}))
            return Transition(state, tuple(events))
        events.append(Event("turn", {"seat": leader}))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> CrazyEightsView:
        """What ``seat`` may see (``None``: a spectator), chosen field by field."""
        if seat is not None and not 0 <= seat < self.seats:
            raise BadSeatError(f"no seat {seat!r} at a table of {self.seats}")
        phase = self.phase
        draw_reason: str | None
        pass_reason: str | None
        if phase == _PLAY and seat == self.turn:
            stuck = not self._has_playable(seat) if self.drawn is None else not self.is_playable(self.drawn)
            draw_reason = self._draw_blocked(stuck)
            pass_reason = self._pass_blocked(stuck)
        elif phase in (_ROUND_OVER, _MATCH_OVER):
            draw_reason = pass_reason = "round_over"
        elif phase == _CHOOSE_SUIT:
            draw_reason = pass_reason = "choose_suit"
        else:
            draw_reason = pass_reason = "not_your_turn"
        in_round = phase in (_PLAY, _CHOOSE_SUIT)
        return CrazyEightsView(
            seat=seat,
            options=self.options,
            seats=self.seats,
            version=self.version,
            phase=phase,
            round=self.round,
            hand=None if seat is None else self.hands[seat],
            hand_counts=tuple(len(h) for h in self.hands),
            top=self.discard[-1],
            discard_count=len(self.discard),
            stock_count=len(self.stock),
            active_suit=self.active_suit,
            turn=self.turn,
            dealer=self.dealer,
            leader=self.leader,
            chooser=self.chooser,
            draws_taken=self.draws,
            draws_left=max(0, self.options.max_draws - self.draws) if in_round else 0,
            drawn=self.drawn if seat is not None and seat == self.turn else None,
            draw_blocked=draw_reason,
            pass_blocked=pass_reason,
            legal=self.legal_actions(seat) if seat is not None else (),
            scores=self.scores,
            wins=self.wins,
            ready=self.ready,
            last_round=self.last_round,
            deal_code=None if in_round else self.deal_code,
            winners=self.winners,
        )

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`CrazyEights.state_from_data` rebuilds this state."""
        lr = self.last_round
        return {
            "schema": 2,  # 2: 128-bit seeds, in hex
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "seats": self.seats,
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "scores": list(self.scores),
            "wins": list(self.wins),
            "dealer": self.dealer,
            "leader": self.leader,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            # Cards are ints (an int subclass): list() keeps them, and msgpack and json write
            # them as plain ints, at a fraction of the cost of int() on every card.
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "active_suit": int(self.active_suit),
            "turn": self.turn,
            "draws": self.draws,
            "drawn": None if self.drawn is None else int(self.drawn),
            "reshuffles": self.reshuffles,
            "chooser": self.chooser,
            "ready": list(self.ready),
            "last_round": None
            if lr is None
            else [lr.round, lr.winner, list(lr.penalties), [[int(c) for c in h] for h in lr.hands], lr.deal_code],
            "winners": list(self.winners),
        }

    def digest(self) -> str:
        """A short hash of the whole state (for golden transcripts and replay checks)."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class CrazyEightsView:
    """One seat's view (``seat is None``: a spectator, who sees no hand)."""

    seat: int | None
    options: CrazyEightsOptions
    seats: int
    version: int
    phase: Phase
    round: int
    hand: tuple[Card, ...] | None
    hand_counts: tuple[int, ...]
    top: Card
    discard_count: int
    stock_count: int
    active_suit: Suit
    turn: int
    dealer: int | None
    leader: int
    chooser: int | None
    draws_taken: int
    draws_left: int
    drawn: Card | None
    draw_blocked: str | None
    pass_blocked: str | None
    legal: tuple[Move, ...]
    scores: tuple[int, ...]
    wins: tuple[int, ...]
    ready: tuple[bool, ...]
    last_round: RoundResult | None
    deal_code: str | None
    winners: tuple[int, ...]

    def to_wire(self) -> dict[str, Wire]:
        return {
            "game": GAME_NAME,
            "preset": self.options.preset,
            "seat": self.seat,
            "seats": self.seats,
            "version": self.version,
            "phase": self.phase.wire,
            "round": self.round,
            "hand": None if self.hand is None else [str(c) for c in self.hand],
            "hand_counts": list(self.hand_counts),
            "top": str(self.top),
            "discard_count": self.discard_count,
            "stock_count": self.stock_count,
            "active_suit": self.active_suit.letter,
            "turn": self.turn,
            "dealer": self.dealer,
            "leader": self.leader,
            "chooser": self.chooser,
            "draws_taken": self.draws_taken,
            "draws_left": self.draws_left,
            "max_draws": self.options.max_draws,
            "drawn": None if self.drawn is None else str(self.drawn),
            "can_draw": self.draw_blocked is None,
            "draw_blocked": self.draw_blocked,
            "can_pass": self.pass_blocked is None,
            "pass_blocked": self.pass_blocked,
            "legal": [a.to_wire() for a in self.legal],
            "scores": list(self.scores),
            "wins": list(self.wins),
            "ready": list(self.ready),
            "match_mode": self.options.match_mode,
            "target": self.options.target,
            "rounds": self.options.rounds,
            "last_round": None if self.last_round is None else self.last_round.to_wire(),
            "deal_code": self.deal_code,
            "winners": list(self.winners),
        }


# --------------------------------------------------------------------------- the game


class CrazyEights:
    """The Crazy Eights game: presets, options, and the start of a match."""

    name: Final = GAME_NAME
    title: Final = "Crazy Eights"

    info: Final = INFO

    @property
    def presets(self) -> Mapping[str, CrazyEightsOptions]:
        return PRESETS

    def options(self, preset: str | None = None, **overrides: Any) -> CrazyEightsOptions:
        """The named preset (``house`` by default) with adjustments checked (any of :data:`ADJUSTABLE`)."""
        base = PRESETS.get(preset or "house")
        if base is None:
            raise BadOptionsError(f"unknown preset {preset!r}; known: {sorted(PRESETS)}")
        for key, value in overrides.items():
            allowed = ADJUSTABLE.get(key)
            if allowed is None:
                raise BadOptionsError(f"option {key!r} cannot be set; adjustable: {sorted(ADJUSTABLE)}")
            # type(...) checks: True == 1 and 100.0 == 100, but neither is an option value here.
            if type(value) not in (int, str) or value not in allowed:
                raise BadOptionsError(f"option {key}={value!r} is out of range")
        return replace(base, **overrides)

    def options_from_wire(self, data: Any) -> CrazyEightsOptions:
        """Options from a host's request (``{"preset": "party", "match_mode": "wins"}``), checked
        against the preset's spec in :data:`INFO`: only what the host form offers for it."""
        if data is None:
            return self.options()
        preset, values = check_options(INFO, data)
        given = {k: v for k, v in values.items() if k in data}
        return self.options(preset.name, **given)

    def seat_range(self, options: CrazyEightsOptions) -> range:
        return range(options.min_seats, options.max_seats + 1)

    def teams(self, options: CrazyEightsOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return tuple((s,) for s in range(seats))

    def round_points(self, options: CrazyEightsOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """Each seat's penalty of the round (1.6.1, 1.6.2): fewer is better."""
        return RoundPoints(tuple(int(p) for p in data["penalties"]), lower_wins=True)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo(spec.preset, spec.seats, dealcode.encode(spec))

    def deck(self, options: CrazyEightsOptions, seats: int) -> tuple[str, ...]:
        return _NAME[: 52 * options.decks(seats)]

    def new_match(
        self,
        options: CrazyEightsOptions | str,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Any = None,
    ) -> Transition:
        """Deal round 1 of a match. ``seed`` (up to 128 bits) decides everything not fixed by ``deal_code``.
        ``carry`` is ignored: each match starts afresh (the presets' first dealer is random, then
        moves every round of the match), so :meth:`State.carry` is the default ``None``.

        With a deal code (1.9.3 "play a deal by code"), round 1 is that deal, led by
        its leader; later rounds are drawn from ``seed`` as usual.
        """
        options = _options_arg(self, options)
        if seats not in self.seat_range(options):
            raise BadOptionsError(
                f"{options.preset} is for {options.min_seats}-{options.max_seats} seats, not {seats!r}"
            )
        match_rng = Rng(seed, "match")
        dealer: int | None = None
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            if spec.preset != options.preset or spec.seats != seats:
                raise BadOptionsError(
                    f"deal code {deal_code!r} is for {spec.preset} with {spec.seats} seats,"
                    f" not {options.preset} with {seats}"
                )
            leader, round_seed = spec.leader, spec.seed
            if options.has_dealer:
                dealer = (leader - 1) % seats
        else:
            if options.has_dealer:
                dealer, match_rng = match_rng.randbelow(seats)  # 2.1: first dealer random
                leader = (dealer + 1) % seats
            else:
                leader = 0  # 1.2.1: the host's seat leads round 1
            round_seed, match_rng = match_rng.bits(dealcode.SEED_BITS)
        # Built field by field into the instance dict, like _evolve: the frozen
        # __init__ would cost more than the deal itself (meja bench rules).
        blank = object.__new__(CrazyEightsState)
        blank.__dict__.update(
            options=options,
            seats=seats,
            version=0,
            phase=Phase.PLAY,
            match_rng=match_rng,
            round=1,
            scores=(0,) * seats,
            wins=(0,) * seats,
            dealer=dealer,
            leader=leader,
            seed=round_seed,
            hands=((),) * seats,
            stock=(),
            discard=(),
            active_suit=Suit.SPADES,
            turn=leader,
            draws=0,
            drawn=None,
            reshuffles=0,
            chooser=None,
            ready=(False,) * seats,
            last_round=None,
            winners=(),
        )
        return blank._deal(dealer, leader, round_seed, [])

    def stacked(
        self,
        options: CrazyEightsOptions | str = "house",
        *,
        hands: list[str] | tuple[str, ...],
        discard: str,
        stock: str = "",
        active_suit: Suit | str | None = None,
        turn: int = 0,
        draws: int = 0,
        dealer: int | None = None,
        seed: int = 0,
        scores: tuple[int, ...] | None = None,
        round: int = 1,
    ) -> CrazyEightsState:
        """A state with the cards laid out by hand, for stacked-deck scenarios and tutorials.

        ``hands`` has one card list per seat (``"6S KH 8C"``); ``discard`` is
        bottom to top, so its last card is the top card; ``stock`` is top first
        (its first card is drawn next). Cards need not make a whole deck. The
        active suit defaults to the top card's suit; ``seed`` names the round (it
        feeds reshuffles). The state is in the play phase with ``turn`` to act.
        """
        opts = _options_arg(self, options)
        n = len(hands)
        if n not in self.seat_range(opts):
            raise BadOptionsError(f"{opts.preset} is for {opts.min_seats}-{opts.max_seats} seats, not {n}")
        try:
            cards = [list(parse_cards(h)) for h in hands]
            pile = parse_cards(discard)
            stock_cards = parse_cards(stock)
        except ValueError as exc:
            raise BadOptionsError(f"a stacked state names a card that is not one: {exc}") from None
        if not pile:
            raise BadOptionsError("a stacked state needs at least the top card in 'discard'")
        # Only a layout the game could reach: each card of this preset's deck at most once.
        in_deck = 52 * opts.decks(n)
        seen: set[int] = set()
        for c in [c for h in cards for c in h] + list(pile) + list(stock_cards):
            if c >= in_deck:
                raise BadOptionsError(f"card {str(c)!r} is not in a {opts.preset} deck at {n} seats")
            if c in seen:
                raise BadOptionsError(f"card {str(c)!r} is laid out twice")
            seen.add(c)
        if not 0 <= turn < n:
            raise BadOptionsError(f"turn {turn!r} is not a seat of {n}")
        if not 0 <= draws <= opts.max_draws:
            raise BadOptionsError(f"draws={draws!r}: a {opts.preset} turn has 0-{opts.max_draws} draws")
        if dealer is not None and not 0 <= dealer < n:
            raise BadOptionsError(f"dealer {dealer!r} is not a seat of {n}")
        if scores is not None and len(scores) != n:
            raise BadOptionsError(f"scores {scores!r} need one total per seat")
        top = pile[-1]
        suit = Suit.parse(active_suit) if isinstance(active_suit, str) else active_suit
        if opts.has_dealer and dealer is None:
            dealer = (turn - 1) % n
        return CrazyEightsState(
            options=opts,
            seats=n,
            version=0,
            phase=Phase.PLAY,
            match_rng=Rng(seed, "match"),
            round=round,
            scores=scores if scores is not None else (0,) * n,
            wins=(0,) * n,
            dealer=dealer if opts.has_dealer else None,
            leader=turn,
            seed=seed,
            hands=tuple(tuple(sorted(h)) for h in cards),
            stock=tuple(reversed(stock_cards)),
            discard=pile,
            active_suit=_SUIT_OBJ[top] if suit is None else suit,
            turn=turn,
            draws=draws,
            drawn=None,
            reshuffles=0,
            chooser=None,
            ready=(False,) * n,
            last_round=None,
            winners=(),
        )

    def decode_action(self, data: Any) -> Move:
        """The only door for untrusted actions: strict about keys, types and spellings (a card or
        suit exactly as the server writes it)."""
        if not isinstance(data, dict):
            raise BadActionError(f"an action is a map, not {data!r}")
        raw = data.get("kind")
        kind = _KIND_OF_WIRE.get(raw) if isinstance(raw, str) else None
        if kind is None:
            raise BadActionError(f"unknown action kind {data.get('kind')!r}; known: {list(_KIND_WIRE)}")
        allowed = {"kind", "card", "suit"} if kind == Kind.PLAY else {"kind", "suit"} if kind == Kind.SUIT else {"kind"}
        extra = set(data) - allowed
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        try:
            if kind == Kind.PLAY:
                if "card" not in data:
                    raise BadActionError("a 'play' action needs a 'card'")
                suit = data.get("suit")
                return Move.play(Card.from_wire(data["card"]), None if suit is None else Suit.from_wire(suit))
            if kind == Kind.SUIT:
                if "suit" not in data:
                    raise BadActionError("a 'suit' action needs a 'suit'")
                return Move.choose(Suit.from_wire(data["suit"]))
        except BadActionError:
            raise
        except ValueError as exc:
            raise BadActionError(str(exc)) from None
        return {Kind.DRAW: DRAW, Kind.PASS: PASS, Kind.READY: READY}[kind]

    def state_from_data(self, data: Mapping[str, Any]) -> CrazyEightsState:
        """Rebuild a state from :meth:`CrazyEightsState.to_data` output."""
        if data.get("schema") != 2 or data.get("game") != GAME_NAME:
            raise ValueError(f"not a crazy eights state record: schema {data.get('schema')!r}")
        o = dict(data["options"])
        o["hand_sizes"] = tuple(o["hand_sizes"])
        options = CrazyEightsOptions(**o)
        lr = data["last_round"]
        return CrazyEightsState(
            options=options,
            seats=data["seats"],
            version=data["version"],
            phase=Phase(data["phase"]),
            match_rng=Rng.from_data(data["match_rng"]),
            round=data["round"],
            scores=tuple(data["scores"]),
            wins=tuple(data["wins"]),
            dealer=data["dealer"],
            leader=data["leader"],
            seed=int(data["seed"], 16),
            hands=tuple(tuple(CARDS[c] for c in h) for h in data["hands"]),
            stock=tuple(CARDS[c] for c in data["stock"]),
            discard=tuple(CARDS[c] for c in data["discard"]),
            active_suit=Suit(data["active_suit"]),
            turn=data["turn"],
            draws=data["draws"],
            drawn=None if data["drawn"] is None else CARDS[data["drawn"]],
            reshuffles=data["reshuffles"],
            chooser=data["chooser"],
            ready=tuple(data["ready"]),
            last_round=None
            if lr is None
            else RoundResult(lr[0], lr[1], tuple(lr[2]), tuple(tuple(CARDS[c] for c in h) for h in lr[3]), lr[4]),
            winners=tuple(data["winners"]),
        )


def _options_arg(game: CrazyEights, options: Any) -> CrazyEightsOptions:
    """Options given as a value or by preset name; a typed error for anything else."""
    if isinstance(options, str):
        return game.options(options)
    if not isinstance(options, CrazyEightsOptions):
        raise BadOptionsError(f"options must be CrazyEightsOptions or a preset name, not {options!r}")
    return options


GAME: Final = CrazyEights()
