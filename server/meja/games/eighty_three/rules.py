"""Eighty-Three: four players in two partnerships bid, name trumps, shed to six cards and play six tricks.

The rules are ``docs/rules/eighty-three.md`` (section 4) with the settled
decisions 1, 2 and 8 of ``docs/rules/README.md``; comments cite them
(``# 4.6.5``). It is a game of the Pedro / Cinch family.

Rules in brief
--------------
Seats 0 and 2 play against seats 1 and 3 (4.1.1); team 0 is seats (0, 2),
team 1 seats (1, 3). The deck is the 52 cards and one joker (4.1.4, decision
2). Each hand the dealer deals 12 cards to every seat and 5 to the face-down
kitty (4.2.2, 4.10.1); the first dealer is drawn from the match seed and the
deal then passes left (4.2.1), into a rematch too (``carry``). Starting at the dealer's left, each seat bids
(30-83, above the highest bid) or passes for good (4.5); three passes end the
auction, a bid of 83 ends it at once, and when the first three seats all pass
the dealer must bid (4.5.5). The bidder takes the kitty (compulsory, 4.10.3)
and names trumps (4.6.1): the named suit, the five of the other suit of the
same colour (the left pedro) and the joker are the 15 trumps, ranked (4.3.3)

    A K Q J 10 9 8 7 6 5(right pedro) 5(left pedro) 4 3 2 JK

the joker lowest, yet above every plain card. The left pedro is a trump for
every purpose, never a card of its printed suit (4.3.5). Then every seat comes
down to six cards at once (4.6, 4.10.4-4.10.6): trumps are kept, a seat with
more than six gives its excess to its partner face down, a team with more than
12 sheds the excess but never a trump that scores, and trumps shed are shown
face up. Six tricks follow (4.7): the bidder leads the first; on a trump lead a
seat must play a trump if it can; on a plain lead it follows suit or trumps
(never a third suit while it holds the led suit); the highest trump, else the
highest card of the led suit, wins and its winner leads next.

Scoring (4.8, 4.4)
------------------
Only trumps score, by :data:`POINT_TABLE` (README decision 1: one table of
data, 83 in all): A 1, K 30, J 1, 10 10, 9 9, right pedro 5, left pedro 5, 3 3,
2 1, joker 18. The defenders always score what they captured; the bidders score
everything they captured if it reaches their bid, else lose the bid (totals may
go negative). Every point card is played, so the two teams' captured points add
up to 83 in every hand (4.6.7). The first team at 200 or more after a hand wins;
if both are, the bidders win (4.8.4). With ``must_win_on_own_bid`` (4.10.7) only
the bidders can win, on a made bid that leaves them at 200 or more.

Options
-------
One preset, ``standard``, for exactly 4 seats, with one option a host may set:
``must_win_on_own_bid`` (bool, default false; 4.8.4, 4.10.7).

Cards on the wire
-----------------
The 52 cards are named as everywhere in Meja (``8H``, ``10C``, ``QS``: rank then
suit S H D C); the joker is ``JK``. Card order (hands, lists, legal actions):
spades, hearts, diamonds, clubs, each ``A 2 3 ... 10 J Q K``, then ``JK``: the
card ids 0-51 of :mod:`meja.rules.cards` and 52 for the joker. The order does
not depend on trumps, so it is the same in every view and every action list.

Actions (sorted by kind in this order, then by card, bid or suit)
-----------------------------------------------------------------
``bid VALUE`` (30-83) and ``pass`` in the auction; ``trump SUIT`` for the bidder;
in the discard phase ``auto_arrange`` (4.10.6: the whole decision at once),
``done`` (hand the decision in), ``discard CARD``, ``give CARD`` (to the
partner) and ``undo`` (take back the last step); in the trim phase the same
without ``give``; ``play CARD`` in the tricks; ``ready`` between hands. The
first legal action always moves the game on (``undo`` sorts last).

A discard decision is a set of cards, so a seat builds it step by step: each
``discard`` or ``give`` is refused at once if the decision could then no longer
end valid (4.10.4), so every listed step keeps a valid end within reach and a
seat can never get stuck; ``done`` is listed when the seat is down to 6 cards
(and the decision is valid); ``auto_arrange`` is always listed and completes
the decision from the steps the seat had taken (kept: a player's own picks are
not thrown away), then hands it in; the seat's view says beforehand what it
would hand in (``arranged``). Steps are private until all four seats are
done; then the decisions apply together (4.6.8, 4.10.4).

Phases: ``auction``, ``trump``, ``discard``, ``trim`` (only the seats that
received trumps trim back to 6), ``play``, ``hand_over``, ``match_over``.

What each seat sees (:meth:`EightyThreeState.view`, by allow-list)
------------------------------------------------------------------
Its own hand; every seat's card count; the auction so far; the bid, the bidder
and trumps; in the discard phase its partner's number of trumps and of point
trumps (4.10.5), its own steps so far, and who has decided; after the exchange
how many cards each seat passed, the cards it gave and received itself, its own
face-down discards, and every trump shed face up; the current trick with who
played what, the last trick, the tricks and points each team has taken; the
team scores, the dealer and whose turn it is. The kitty's cards reach the
bidder alone (an event), passed trumps the partner alone; no seat ever sees a
face-down discard of another, a seed, or the deal code of a hand in progress
(it is in the ``hand_over`` event and the view once the hand is over). A
spectator (``seat=None``) sees what every seat sees of the others.

Readings chosen where the rules are silent
------------------------------------------
- The hand's deck order is the card order above; it is shuffled with stream
  ``deal`` of the hand's 128-bit seed (:class:`~meja.rules.rng.Rng`), then dealt
  4 at a time in three rounds from the dealer's left; the last 5 cards are the
  kitty (4.10.1). The first dealer is ``randbelow(4)`` of the match seed's
  stream ``match``, then each hand's seed is its next 128 bits.
- The kitty is taken by the rules, not by an action: the auction's last call
  puts it into the bidder's hand (4.10.3), and the phase becomes ``trump``.
- Bids are whole numbers (4.5.2); the wire field is ``value``.
- In the discard phase a seat keeps ``min(6, T)`` of its own ``T`` trumps and
  splits its excess ``T - 6`` between gives and face-up discards; a seat with
  6 trumps or fewer gives and sheds no trump (4.6.3, 4.10.4). Since the team
  sheds no more than ``N - 12`` trumps (none when ``N <= 12``), a seat whose
  partner holds fewer than 6 trumps gives at least enough to fill it to 6, and
  when ``N <= 12`` it gives its whole excess.
- The refusals of 4.10.4, each with its own message: a point trump discarded;
  a trump discarded while the team holds 12 or fewer; the team shedding more
  than ``N - 12``; a trump shed by a seat not holding more than 6 beyond its
  gives; a give of a non-trump, from a seat with 6 trumps or fewer, or beyond
  its excess; a give the partner might not be able to trim (below); a step
  below 6 cards, and ``done`` above 6.
- A seat judges a give by what it may know (4.10.5): its partner's trump and
  point-trump counts at the start of the phase. A give is refused when the
  partner might then be unable to trim (4.10.4), assuming the partner keeps as
  many point trumps as it may (``min(points, 6)``): so any two decisions the
  rules accept can never fail together, whatever the partner decides.
- The trim: each seat that received ``r`` trumps discards exactly ``r`` cards,
  one ``discard`` at a time, non-trumps first (4.6.4), then non-point trumps
  (never a point trump, 4.6.5); trumps trimmed are shown face up. Seats that
  received nothing do not take part. When no seat received anything the trim
  phase is skipped.
- ``auto_arrange`` (4.10.6), from no step taken, gives the whole excess over 6 trumps, non-point
  trumps first (lowest in the trump ranking first), and discards non-trumps,
  lowest rank first (ties by card order); in the trim it discards non-trumps
  first, then non-point trumps, lowest first. When both partners hold more than
  6 trumps it therefore has them trade their excess and trim it (valid, if
  roundabout: the reading of 4.10.6 taken literally). From steps a seat took,
  it keeps them and adds, one at a time, the first listed step of that order
  for the cards left (else the first listed step), so it ends valid like any
  walk of listed steps (:meth:`EightyThreeState._auto_steps`).
- The partner counts (4.10.5) are the only thing a seat learns of its partner in
  the discard phase; others' steps are private, and the public ``hand_counts``
  stay those of the start of the phase until the exchange.
- Default actions (a present player out of time; absent players between hands):
  ``pass`` in the auction (``bid 30`` for a forced dealer), the trump suit that
  would give the bidder the most trumps (then the most trump points, then the
  first of S H D C), ``auto_arrange`` in the discard and trim phases, ``ready``
  between hands; in the tricks none (the game's bot chooses).
- Cards of finished tricks stay face up (seen by all); the points each team has
  taken so far are in every view.
- The target is 200 (4.1.2), not an option. There is no 52-card variant
  (4.1.4 allows one for experiments; it cannot total 83).
- ``Outcome.scores`` gives each seat its team's total; ``teams`` the winning team.

The contract (:mod:`meja.rules.game`)
-------------------------------------
``awaiting()`` is the seat on turn (auction, trump, play), every seat still to
decide (discard, trim) or not yet ready (between hands). ``epoch(seat)`` is the
version in the simultaneous phases at which the phase began or the seat last
stepped, so another seat's step never makes one's own decision stale; elsewhere
it is the version. ``period()`` is one decision period per turn, and one for a
whole discard (or trim) phase. Rounds are hands: ``hand_start`` and
``hand_over`` (:data:`INFO`). ``talk()`` is ``neutral`` during a hand (partners
may not signal each other: only reactions that say nothing about a hand) and
``free`` between hands.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final

from meja.rules.cards import CARDS, Card
from meja.rules.errors import (
    BadActionError,
    BadOptionsError,
    BadSeatError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
)
from meja.rules.game import (
    TALK_FREE,
    TALK_NEUTRAL,
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
from meja.rules.rng import SEED_BITS, Rng

from . import dealcode

__all__ = [
    "DECK",
    "ESUIT",
    "GAME",
    "INFO",
    "JOKER",
    "PLAIN",
    "POINTS",
    "POINT_TABLE",
    "POWER",
    "TRUMP_RANKING",
    "Action",
    "EightyThree",
    "EightyThreeOptions",
    "EightyThreeState",
    "EightyThreeView",
    "HandResult",
    "Kind",
    "Phase",
    "auto_decision",
    "auto_trim",
    "card_name",
    "decision_problems",
    "is_trump",
    "parse_card",
    "parse_cards",
    "playable",
    "points",
    "trick_winner",
    "trump_power",
]

GAME_NAME: Final = "eighty_three"
SEATS: Final = 4
HAND: Final = 12  # 4.2.2
KITTY: Final = 5  # 4.2.2, README decision 2
KEEP: Final = 6  # 4.6.2: every seat comes down to six cards
TEAM_TRUMPS: Final = 12  # 4.6.5: a team keeps at most 12 trumps
MIN_BID: Final = 30  # 4.5.2
MAX_BID: Final = 83  # 4.5.2, 4.5.4
TARGET: Final = 200  # 4.1.2, 4.8.4
TRICKS: Final = 6  # 4.7.1
JOKER: Final = 52
TEAMS: Final = ((0, 2), (1, 3))  # 4.1.1: partners sit opposite

# --------------------------------------------------------------------------- cards

#: Every card's wire name, by id: the 52 as in meja.rules.cards, then the joker.
NAMES: Final = (*(str(c) for c in CARDS[:52]), "JK")
#: The deck of a match (Game.deck): each card once.
DECK: Final = NAMES
_ID: Final = {name: i for i, name in enumerate(NAMES)}
_SUIT_LETTERS: Final = "SHDC"
_SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


def card_name(card: int) -> str:
    """The wire name of card id ``card`` (``"8H"``, ``"JK"``)."""
    return NAMES[card]


def parse_card(text: str) -> int:
    """The id of a card named ``text`` (any case; ``"10"`` or ``"T"``; ``"JK"`` the joker).

    Raises ``ValueError`` showing the bad text for anything else (a second
    deck's card such as ``"8H.2"`` is not in this game).
    """
    if not isinstance(text, str):
        raise ValueError(f"card must be a string, not {text!r}")
    key = text.strip().upper()
    if key == "JK":
        return JOKER
    card = Card.parse(key)  # ValueError with the bad text
    if card >= 52:
        raise ValueError(f"not a card of eighty-three: {text!r} (one deck and a joker)")
    return int(card)


def parse_cards(text: str) -> tuple[int, ...]:
    """Card ids from a space- or comma-separated list: ``"8H 10C JK"``."""
    return tuple(parse_card(t) for t in text.replace(",", " ").split())


def _suit(card: int) -> int:
    return card // 13  # S H D C = 0 1 2 3; the joker gives 4


def _rank(card: int) -> int:
    return card % 13 + 1  # A = 1 ... K = 13


def _off(suit: int) -> int:
    """The other suit of the same colour (4.3.1): S <-> C, H <-> D."""
    return 3 - suit


#: The trumps, high to low (4.3.3): the named suit's cards by rank, the left pedro below the
#: right, the joker last. "left 5" is the five of the other suit of the trumps' colour.
TRUMP_RANKING: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "left 5", "4", "3", "2", "JK")

#: 4.4 and README decision 1: what each trump scores, by its place in TRUMP_RANKING.
#: The one table of card points (a correction of the seed's table is a change here);
#: only trumps score, and the table sums to 83 (T-83-01).
POINT_TABLE: Final[Mapping[str, int]] = {
    "A": 1,
    "K": 30,
    "J": 1,
    "10": 10,
    "9": 9,
    "5": 5,  # the right pedro
    "left 5": 5,  # the left pedro (4.3.1)
    "3": 3,
    "2": 1,
    "JK": 18,  # the joker (4.3.2)
}
assert set(POINT_TABLE) <= set(TRUMP_RANKING) and sum(POINT_TABLE.values()) == MAX_BID


def _role(card: int, trump: int) -> str | None:
    """The card's place in TRUMP_RANKING under ``trump``, or ``None`` for a plain card."""
    if card == JOKER:
        return "JK"
    suit, rank = _suit(card), _rank(card)
    if suit == trump:
        return NAMES[card][:-1]
    if rank == 5 and suit == _off(trump):
        return "left 5"
    return None


# Per trump suit, per card id: the tables of the hot paths.
_PLAIN: Final = 4  # the effective suit of every trump (4.3.5: the left pedro is no card of its print)
#: _ESUIT[trump][card]: the suit a card counts as for following: its printed suit, or 4 for every trump.
_ESUIT: Final = tuple(tuple(_PLAIN if _role(c, t) is not None else _suit(c) for c in range(53)) for t in range(4))
#: _POWER[trump][card]: higher wins; trumps 15 (A) .. 1 (JK); plain cards 14 (A) .. 2 (4.3.4).
_POWER: Final = tuple(
    tuple(
        len(TRUMP_RANKING) - TRUMP_RANKING.index(r) if (r := _role(c, t)) is not None else (_rank(c) - 2) % 13 + 2
        for c in range(53)
    )
    for t in range(4)
)
_POINTS: Final = tuple(tuple(POINT_TABLE.get(_role(c, t) or "", 0) for c in range(53)) for t in range(4))
assert all(sum(p) == MAX_BID for p in _POINTS)
# The same tables under public names, for the bots (which read no private name of the rules).
PLAIN: Final = _PLAIN
ESUIT: Final = _ESUIT
POWER: Final = _POWER
POINTS: Final = _POINTS


def is_trump(card: int, trump: int) -> bool:
    """Whether card id ``card`` is a trump when suit ``trump`` (0-3: S H D C) is named (4.3.1, 4.3.2)."""
    return _ESUIT[trump][card] == _PLAIN


def points(card: int, trump: int) -> int:
    """What ``card`` scores under ``trump`` (4.4): only trumps score."""
    return _POINTS[trump][card]


def trump_power(card: int, trump: int) -> int:
    """The card's strength: 15 (A of trumps) .. 1 (joker) for trumps, 14 (A) .. 2 for plain cards."""
    return _POWER[trump][card]


def playable(hand: Sequence[int], trick: Sequence[tuple[int, int]], trump: int) -> tuple[int, ...]:
    """4.7.2-4.7.4: the cards of ``hand`` its seat may play to ``trick`` (``(seat, card)`` in play order)."""
    if not trick:
        return tuple(hand)  # 4.7.2: the leader leads anything
    es = _ESUIT[trump]
    led = es[trick[0][1]]
    if led == _PLAIN:
        trumps = tuple(c for c in hand if es[c] == _PLAIN)
        return trumps or tuple(hand)  # 4.7.3: a trump if able, else anything
    follow = tuple(c for c in hand if es[c] == led or es[c] == _PLAIN)
    # 4.7.4: the led suit or a trump while holding the led suit; void (4.3.5: the left pedro
    # is no card of its print): anything.
    return follow if any(es[c] == led for c in hand) else tuple(hand)


def trick_winner(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins ``trick`` (``(seat, card)`` in play order): 4.7.5, 4.3.6."""
    es, pw = _ESUIT[trump], _POWER[trump]
    best_seat, best = -1, -1
    for seat, card in trick:
        if es[card] == _PLAIN and pw[card] + 100 > best:
            best_seat, best = seat, pw[card] + 100  # any trump beats every plain card
    if best_seat >= 0:
        return best_seat
    led = es[trick[0][1]]
    for seat, card in trick:
        if es[card] == led and pw[card] > best:
            best_seat, best = seat, pw[card]
    return best_seat


def _names(cards: Sequence[int]) -> list[str]:
    return [NAMES[c] for c in cards]


# --------------------------------------------------------------------------- the discard phase


@dataclass(frozen=True, slots=True)
class Counts:
    """What a seat may know when it decides in the discard phase (4.10.5).

    ``trumps``, ``points`` and ``plain``: its own trumps, point trumps and
    non-trumps at the start of the phase; ``partner_trumps`` and
    ``partner_points``: its partner's trumps and point trumps.
    """

    trumps: int
    points: int
    plain: int
    partner_trumps: int
    partner_points: int

    @property
    def excess(self) -> int:
        """Trumps over 6: what the seat must give or shed (4.6.3, 4.6.4)."""
        return max(0, self.trumps - KEEP)

    @property
    def team_excess(self) -> int:
        """Trumps over 12 the team must shed (4.6.5): ``max(0, N - 12)``."""
        return max(0, self.trumps + self.partner_trumps - TEAM_TRUMPS)


def _counts_of(hand: Sequence[int], partner: Sequence[int], trump: int) -> Counts:
    es, pts = _ESUIT[trump], _POINTS[trump]
    t = sum(1 for c in hand if es[c] == _PLAIN)
    return Counts(
        trumps=t,
        points=sum(1 for c in hand if pts[c]),
        plain=len(hand) - t,
        partner_trumps=sum(1 for c in partner if es[c] == _PLAIN),
        partner_points=sum(1 for c in partner if pts[c]),
    )


def _infeasible(k: Counts, gives: int, point_gives: int, trump_discards: int, plain_discards: int) -> str | None:
    """Why a partial decision (so many of each step taken) can no longer end valid, or ``None``.

    The valid ends (4.6.6, 4.10.4), from what the seat knows (4.10.5): the seat
    keeps ``min(6, T)`` trumps and exactly 6 cards; its excess ``T - 6`` is
    split into ``g`` gives and ``x - g`` face-up discards of non-point trumps;
    the team sheds no more than ``N - 12`` trumps (none when ``N <= 12``); and
    the partner can trim what it receives: with ``Ko = min(6, partner trumps)``
    kept and at worst ``min(partner points, 6)`` of them scoring, the ``Ko + g - 6``
    trumps it must trim need as many non-point trumps among its kept and received.
    Point trumps are never discarded: the caller refuses that step outright.
    """
    x = k.excess
    kept_trumps = k.trumps - x
    team_excess = k.team_excess
    if trump_discards > team_excess:
        return "team_keeps" if k.trumps + k.partner_trumps <= TEAM_TRUMPS else "team_limit"
    if gives + trump_discards > x:
        return "excess"
    if plain_discards > k.plain - (KEEP - kept_trumps):
        return "six_cards"
    # Still to shed: x - gives - trump_discards trumps. Discards must be non-point trumps, so
    # whatever the non-point trumps left cannot cover must be given, as point trumps.
    nonpoint_left = (k.trumps - k.points) - (gives - point_gives) - trump_discards
    forced_point_gives = max(0, x - gives - trump_discards - nonpoint_left)
    low = max(gives + forced_point_gives, x - team_excess)  # the fewest gives a valid end has
    partner_kept = min(KEEP, k.partner_trumps)
    if low == 0 or low <= KEEP - partner_kept:
        return None  # the partner has room for every give: it trims no trump
    if point_gives + forced_point_gives <= KEEP - min(k.partner_points, KEEP):
        return None
    return "partner_trim"


_REASONS: Final = {
    "team_keeps": "the team holds 12 trumps or fewer: every trump is kept (eighty-three.md 4.6.3, 4.6.5)",
    "team_limit": "the team would shed more than its trumps over 12 (eighty-three.md 4.6.5)",
    "excess": "only the trumps over 6 may leave a seat's hand (eighty-three.md 4.6.3, 4.6.4)",
    "six_cards": "the decision would not leave exactly 6 cards with every trump it must keep (eighty-three.md 4.6.2)",
    "partner_trim": "the partner could then be unable to trim back to a valid hand (eighty-three.md 4.10.4)",
}


def decision_problems(
    hand: Sequence[int], partner: Sequence[int], trump: int, discards: Sequence[int], gives: Sequence[int]
) -> list[str]:
    """What is wrong with a whole discard-phase decision (empty: it is valid), checked card by card.

    ``hand`` is the seat's hand at the start of the phase and ``partner`` its
    partner's (only their counts matter, 4.10.5). The server runs this on every
    decision handed in: it is the end-state check of 4.6.6 and 4.10.4, written
    apart from the step-by-step refusals so that each checks the other.
    """
    out: list[str] = []
    held = set(hand)
    if len(set(discards) | set(gives)) != len(discards) + len(gives):
        out.append("a card is both discarded and given, or named twice")
    if not held >= set(discards) | set(gives):
        out.append("a card is not in the hand")
    k = _counts_of(hand, partner, trump)
    es, pts = _ESUIT[trump], _POINTS[trump]
    if len(hand) - len(discards) - len(gives) != KEEP:
        out.append(f"the decision leaves {len(hand) - len(discards) - len(gives)} cards, not 6")
    if any(es[c] != _PLAIN for c in gives):
        out.append("a non-trump is given")
    if any(pts[c] for c in discards):
        out.append("a point trump is discarded")
    if len(gives) > k.excess:
        out.append(f"{len(gives)} trumps given, more than the excess over 6 ({k.excess})")
    shed = sum(1 for c in discards if es[c] == _PLAIN)
    kept = k.trumps - shed - len(gives)
    if kept != min(KEEP, k.trumps):
        out.append(f"{kept} trumps kept, not {min(KEEP, k.trumps)}")
    if shed > k.team_excess:
        out.append(f"{shed} trumps discarded, more than the team's excess over 12 ({k.team_excess})")
    partner_kept = min(KEEP, k.partner_trumps)
    must_trim = partner_kept + len(gives) - KEEP
    if gives and must_trim > 0:
        spare = partner_kept - min(k.partner_points, KEEP) + sum(1 for c in gives if not pts[c])
        if spare < must_trim:
            out.append("the partner could be unable to trim back to a valid hand")
    return out


def _low_first(cards: Sequence[int], trump: int) -> list[int]:
    pw = _POWER[trump]
    return sorted(cards, key=lambda c: (pw[c], c))


def auto_decision(hand: Sequence[int], trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """4.10.6: ``(discards, gives)`` for ``hand`` at the start of the discard phase; always valid.

    Keep every point trump; give the whole excess over 6 trumps, non-point
    trumps first (lowest in the ranking first); discard non-trumps, lowest rank
    first, down to 6 cards. No trump is discarded here: a team that must shed
    trumps sheds them in the receiver's trim (:func:`auto_trim`).
    """
    es, pts = _ESUIT[trump], _POINTS[trump]
    trumps = [c for c in hand if es[c] == _PLAIN]
    plain = [c for c in hand if es[c] != _PLAIN]
    excess = max(0, len(trumps) - KEEP)
    order = _low_first([c for c in trumps if not pts[c]], trump) + _low_first([c for c in trumps if pts[c]], trump)
    gives = tuple(sorted(order[:excess]))
    keep_plain = KEEP - (len(trumps) - excess)
    discards = tuple(sorted(_low_first(plain, trump)[: len(plain) - keep_plain]))
    return discards, gives


def auto_trim(hand: Sequence[int], trump: int) -> tuple[int, ...]:
    """The trim of 4.10.6 for a hand of more than 6: non-trumps first, then non-point trumps, lowest first."""
    es, pts = _ESUIT[trump], _POINTS[trump]
    order = _low_first([c for c in hand if es[c] != _PLAIN], trump) + _low_first(
        [c for c in hand if es[c] == _PLAIN and not pts[c]], trump
    )
    return tuple(sorted(order[: len(hand) - KEEP]))


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class EightyThreeOptions:
    """The rules a table plays: the preset and what the host set (fully defaulted)."""

    preset: str = "standard"
    #: 4.8.4, 4.10.7: only the bidders can win, on a made bid reaching 200
    must_win_on_own_bid: bool = False

    def to_wire(self) -> dict[str, Wire]:
        return {"preset": self.preset, "must_win_on_own_bid": self.must_win_on_own_bid}


INFO: Final = GameInfo(
    name=GAME_NAME,
    title="Eighty-Three",
    presets=(
        PresetInfo(
            "standard",
            SEATS,
            SEATS,
            SEATS,
            (OptionSpec("must_win_on_own_bid", "bool", False),),
        ),
    ),
    teams="partners",
    deal_codes=True,
    round_start="hand_start",
    round_end="hand_over",
    # The table pauses visibly after a finished trick and after the exchange of the discard phase.
    hold_events=frozenset({"trick", "exchange"}),
)


# --------------------------------------------------------------------------- actions


class Kind(IntEnum):
    """Action kinds, in the order legal actions are sorted.

    ``auto_arrange`` and ``done`` sort before the steps and ``undo`` last, so the
    first legal action always moves the game on (a server's fallback for a
    failing bot plays ``legal[0]``): in the discard and trim phases it is
    ``auto_arrange``, the default action.
    """

    BID = 0
    PASS = 1
    TRUMP = 2
    AUTO = 3
    DONE = 4
    DISCARD = 5
    GIVE = 6
    UNDO = 7
    PLAY = 8
    READY = 9

    @property
    def wire(self) -> str:
        return _KIND_WIRE[self]


_KIND_WIRE: Final = ("bid", "pass", "trump", "auto_arrange", "done", "discard", "give", "undo", "play", "ready")
_KIND_OF_WIRE: Final = {name: Kind(i) for i, name in enumerate(_KIND_WIRE)}
_CARD_KINDS: Final = frozenset({Kind.DISCARD, Kind.GIVE, Kind.PLAY})


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """One action: its kind and its argument (a card id, a bid, a suit 0-3; -1 for none).

    Compared and sorted as ``(kind, arg)``. Use the interned values
    (:meth:`bid`, :meth:`card`, :data:`PASS`...) rather than the constructor.
    """

    kind: Kind
    arg: int = -1

    def to_wire(self) -> dict[str, Wire]:
        kind = self.kind
        if kind in _CARD_KINDS:
            return {"kind": kind.wire, "card": NAMES[self.arg]}
        if kind == Kind.BID:
            return {"kind": "bid", "value": self.arg}
        if kind == Kind.TRUMP:
            return {"kind": "trump", "suit": _SUIT_LETTERS[self.arg]}
        return {"kind": kind.wire}

    def __str__(self) -> str:
        wire = self.to_wire()
        return " ".join(str(v) for v in wire.values())

    @staticmethod
    def bid(value: int) -> Action:
        if type(value) is not int or not MIN_BID <= value <= MAX_BID:
            raise ValueError(f"a bid is {MIN_BID}-{MAX_BID}, not {value!r}")
        return _BIDS[value - MIN_BID]

    @staticmethod
    def trump(suit: int | str) -> Action:
        return _TRUMPS[_SUIT_LETTERS.index(suit.upper()) if isinstance(suit, str) else suit]

    @staticmethod
    def card(kind: Kind, card: int | str) -> Action:
        c = parse_card(card) if isinstance(card, str) else card
        return _CARD_ACTIONS[kind][c]


_BIDS: Final = tuple(Action(Kind.BID, v) for v in range(MIN_BID, MAX_BID + 1))
_TRUMPS: Final = tuple(Action(Kind.TRUMP, s) for s in range(4))
_CARD_ACTIONS: Final = {k: tuple(Action(k, c) for c in range(53)) for k in (Kind.DISCARD, Kind.GIVE, Kind.PLAY)}
_DISCARDS: Final = _CARD_ACTIONS[Kind.DISCARD]
_GIVES: Final = _CARD_ACTIONS[Kind.GIVE]
_PLAYS: Final = _CARD_ACTIONS[Kind.PLAY]
PASS: Final = Action(Kind.PASS)
UNDO: Final = Action(Kind.UNDO)
DONE: Final = Action(Kind.DONE)
AUTO: Final = Action(Kind.AUTO)
READY: Final = Action(Kind.READY)
_SIMPLE: Final = {Kind.PASS: PASS, Kind.UNDO: UNDO, Kind.DONE: DONE, Kind.AUTO: AUTO, Kind.READY: READY}


def discard(card: int | str) -> Action:
    return Action.card(Kind.DISCARD, card)


def give(card: int | str) -> Action:
    return Action.card(Kind.GIVE, card)


def play(card: int | str) -> Action:
    return Action.card(Kind.PLAY, card)


# --------------------------------------------------------------------------- state


class Phase(IntEnum):
    AUCTION = 0
    TRUMP = 1
    DISCARD = 2
    TRIM = 3
    PLAY = 4
    HAND_OVER = 5
    MATCH_OVER = 6

    @property
    def wire(self) -> str:
        return _PHASE_WIRE[self]


_PHASE_WIRE: Final = ("auction", "trump", "discard", "trim", "play", "hand_over", "match_over")
_AUCTION: Final = Phase.AUCTION
_TRUMP: Final = Phase.TRUMP
_DISCARD: Final = Phase.DISCARD
_TRIM: Final = Phase.TRIM
_PLAY: Final = Phase.PLAY
_HAND_OVER: Final = Phase.HAND_OVER
_MATCH_OVER: Final = Phase.MATCH_OVER
#: A pending step is a card id, plus this for a give (a discard is the card id itself).
_GIVE_STEP: Final = 100


@dataclass(frozen=True, slots=True)
class HandResult:
    """A scored hand (4.8): who bid what, what each team captured and scored, and its deal code."""

    round: int
    dealer: int
    bidder: int
    bid: int
    trump: int
    captured: tuple[int, int]
    made: bool
    delta: tuple[int, int]
    scores: tuple[int, int]
    deal_code: str

    def to_wire(self) -> dict[str, Wire]:
        return {
            "hand": self.round,
            "dealer": self.dealer,
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": _SUIT_LETTERS[self.trump],
            "captured": list(self.captured),
            "made": self.made,
            "delta": list(self.delta),
            "scores": list(self.scores),
            "deal_code": self.deal_code,
        }

    def to_data(self) -> list[Any]:
        return [
            self.round, self.dealer, self.bidder, self.bid, self.trump, list(self.captured), self.made,
            list(self.delta), list(self.scores), self.deal_code,
        ]  # fmt: skip

    @classmethod
    def from_data(cls, d: Sequence[Any]) -> HandResult:
        return cls(d[0], d[1], d[2], d[3], d[4], (d[5][0], d[5][1]), d[6], (d[7][0], d[7][1]), (d[8][0], d[8][1]), d[9])


def _ev(kind: str, data: dict[str, Wire], only: tuple[int, ...] | None = None, hidden: tuple[int, ...] = ()) -> Event:
    return Event(kind, data, only, hidden)


def _minus(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


@dataclass(frozen=True)
class EightyThreeState(StateDefaults):
    """A match between whole decisions. Build one with :meth:`EightyThree.new_match` (or ``stacked``).

    Hands are tuples of card ids in card order. In the discard and trim phases
    ``hands`` are the hands as the phase began and ``pending`` each seat's steps
    so far (a card id for a discard, id + 100 for a give), applied when every
    seat has decided. Not ``slots=True``: :meth:`_evolve` copies the instance
    dict, several times cheaper than ``dataclasses.replace``.
    """

    options: EightyThreeOptions
    version: int
    phase: Phase
    match_rng: Rng
    round: int
    dealer: int
    seed: int
    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    #: the auction: (seat, bid) in order, bid 0 for a pass
    calls: tuple[tuple[int, int], ...]
    #: the seat on turn (auction, trump, play); -1 in the other phases
    turn: int
    #: the highest bidder so far, then the bidder (-1: no bid yet)
    bidder: int
    bid: int
    #: the trump suit 0-3 (S H D C), -1 until named
    trump: int
    pending: tuple[tuple[int, ...], ...]
    decided: tuple[bool, ...]
    #: per seat: the trumps it gave its partner
    gave: tuple[tuple[int, ...], ...]
    #: per seat: its face-down discards (seen by it alone)
    buried: tuple[tuple[int, ...], ...]
    #: trumps discarded face up: (seat, card), in order (4.6.5)
    shown: tuple[tuple[int, int], ...]
    #: the trick in progress: (seat, card) in play order
    trick: tuple[tuple[int, int], ...]
    leader: int
    #: the last finished trick and its winner (-1: none yet this hand)
    last_trick: tuple[tuple[int, int], ...]
    last_winner: int
    #: tricks won and cards captured, per team
    tricks: tuple[int, int]
    taken: tuple[tuple[int, ...], tuple[int, ...]]
    scores: tuple[int, int]
    ready: tuple[bool, ...]
    last_hand: HandResult | None
    #: the winning team (-1: none yet)
    winner: int
    #: the version at which the phase began, and at which each seat last stepped (epoch)
    phase_v: int
    seat_v: tuple[int, ...]

    seats: int = field(default=SEATS, init=False)

    def _evolve(self, **changes: Any) -> EightyThreeState:
        new = object.__new__(EightyThreeState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        d.pop("_cache", None)
        if "hands" in changes or "trump" in changes:
            d.pop("_counts", None)  # the discard phase's counts hold while the hands do
        return new

    # ------------------------------------------------------------- the contract

    @property
    def deal_code(self) -> str:
        """The current hand's deal code. Secret while the hand is in progress (the server reveals it)."""
        return dealcode.encode(dealcode.DealSpec(self.dealer, self.seed))

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def awaiting(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (_AUCTION, _TRUMP, _PLAY):
            return (self.turn,)
        if phase in (_DISCARD, _TRIM):
            return tuple(s for s in range(SEATS) if not self.decided[s])
        if phase == _HAND_OVER:
            return tuple(s for s in range(SEATS) if not self.ready[s])
        return ()

    def epoch(self, seat: int) -> int:
        """In the simultaneous phases (discard, trim, ready): when the phase began or ``seat`` last acted."""
        if self.phase in (_DISCARD, _TRIM, _HAND_OVER) and 0 <= seat < SEATS:
            return max(self.phase_v, self.seat_v[seat])
        return self.version

    def period(self) -> Hashable:
        """A turn in the auction and the tricks; the whole trump, discard, trim and ready phases."""
        phase = self.phase
        if phase == _AUCTION:
            return (self.round, int(phase), len(self.calls))
        if phase == _PLAY:
            return (self.round, int(phase), sum(self.tricks), len(self.trick))
        return (self.round, int(phase))

    def in_round(self) -> bool:
        return self.phase <= _PLAY

    def talk(self) -> str:
        """During a hand, from the auction to the last trick, only neutral reactions: partners may
        not signal each other (a word, or "Nice!" after a lead, tells a partner about a hand);
        between hands, anything. The host's "table talk" lifts it for a friendly table."""
        return TALK_NEUTRAL if self.in_round() else TALK_FREE

    def default_action(self, seat: int) -> Action | None:
        """See the module docstring: pass (bid 30 when forced), the best trump, auto_arrange, ready."""
        legal = self.legal_actions(seat)
        if not legal:
            return None
        phase = self.phase
        if phase == _AUCTION:
            return PASS if PASS in legal else legal[0]
        if phase == _TRUMP:
            return _TRUMPS[self._best_trump(seat)]
        if phase in (_DISCARD, _TRIM):
            return AUTO
        if phase == _HAND_OVER:
            return READY
        return None

    def _best_trump(self, seat: int) -> int:
        hand = self.hands[seat]

        def worth(t: int) -> tuple[int, int, int]:
            es, pts = _ESUIT[t], _POINTS[t]
            return (sum(1 for c in hand if es[c] == _PLAIN), sum(pts[c] for c in hand), -t)

        return max(range(4), key=worth)

    def bot_rng(self, seat: int) -> Rng:
        """The RNG of a bot in ``seat`` this hand: a hash of the hand's seed, never the seed itself."""
        word, _ = Rng(self.seed, f"bot/{seat}").bits(64)
        return Rng(word, "bot")

    def carry(self) -> dict[str, Wire] | None:
        """The next match's dealer, once this one is over: the seat left of the last dealer (4.2.1)."""
        if self.phase != _MATCH_OVER:
            return None
        return {"dealer": (self.dealer + 1) % SEATS}

    def outcome(self) -> Outcome | None:
        if self.phase != _MATCH_OVER:
            return None
        team = self.winner
        return Outcome(
            winners=TEAMS[team],
            scores=tuple(self.scores[s % 2] for s in range(SEATS)),
            teams=(team,),
            team_scores=self.scores,
        )

    def locations(self) -> tuple[Location, ...]:
        """Where every card is and who may see it (see the module docstring)."""
        out: list[Location] = []
        for s in range(SEATS):
            steps = self.pending[s]
            if steps:
                gone = [c % _GIVE_STEP for c in steps]
                out.append(Location(f"hand/{s}", tuple(NAMES[c] for c in _minus(self.hands[s], gone)), (s,)))
                out.append(Location(f"discarding/{s}", tuple(NAMES[c] for c in steps if c < _GIVE_STEP), (s,)))
                out.append(
                    Location(f"giving/{s}", tuple(NAMES[c - _GIVE_STEP] for c in steps if c >= _GIVE_STEP), (s,))
                )
            else:
                out.append(Location(f"hand/{s}", tuple(NAMES[c] for c in self.hands[s]), (s,)))
            out.append(Location(f"buried/{s}", tuple(NAMES[c] for c in self.buried[s]), (s,)))
            # The giver saw the cards it passed; they lie in the partner's hand (or beyond).
            out.append(Location(f"gave/{s}", tuple(NAMES[c] for c in self.gave[s]), (s,), counted=False))
        out.append(Location("kitty", tuple(NAMES[c] for c in self.kitty), ()))
        out.append(Location("shown", tuple(NAMES[c] for _, c in self.shown), "all"))
        out.append(Location("trick", tuple(NAMES[c] for _, c in self.trick), "all"))
        for team in (0, 1):
            out.append(Location(f"taken/{team}", tuple(NAMES[c] for c in self.taken[team]), "all"))
        return tuple(out)

    # ------------------------------------------------------------- legal actions

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """Every action ``seat`` may take now, sorted (see :class:`Kind` for the order)."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            return ()
        cache: dict[int, tuple[Action, ...]] | None = self.__dict__.get("_cache")
        if cache is None:
            cache = self.__dict__["_cache"] = {}
        got = cache.get(seat)
        if got is None:
            got = cache[seat] = self._legal(seat)
        return got

    def _legal(self, seat: int) -> tuple[Action, ...]:
        phase = self.phase
        if phase == _PLAY:
            return tuple(_PLAYS[c] for c in self._playable(seat)) if seat == self.turn else ()
        if phase == _AUCTION:
            if seat != self.turn:
                return ()
            bids = _BIDS[max(MIN_BID, self.bid + 1) - MIN_BID :]
            return bids if self._forced() else (*bids, PASS)
        if phase == _TRUMP:
            return _TRUMPS if seat == self.turn else ()
        if phase == _DISCARD:
            return () if self.decided[seat] else self._discard_actions(seat)
        if phase == _TRIM:
            return () if self.decided[seat] else self._trim_actions(seat)
        if phase == _HAND_OVER:
            return () if self.ready[seat] else (READY,)
        return ()

    def _forced(self) -> bool:
        """4.5.5: the first three seats passed with no bid; the dealer may not pass."""
        return self.bidder < 0 and len(self.calls) == SEATS - 1

    def _playable(self, seat: int) -> tuple[int, ...]:
        """4.7.2-4.7.4: the cards ``seat`` may play to the trick in progress."""
        return playable(self.hands[seat], self.trick, self.trump)

    def counts(self, seat: int) -> Counts:
        """What ``seat`` may know in the discard phase (4.10.5): see :class:`Counts`."""
        known: dict[int, Counts] | None = self.__dict__.get("_counts")
        if known is None:
            known = self.__dict__["_counts"] = {}
        got = known.get(seat)
        if got is None:
            got = known[seat] = _counts_of(self.hands[seat], self.hands[(seat + 2) % SEATS], self.trump)
        return got

    def _steps(self, seat: int) -> tuple[int, int, int, int, tuple[int, ...]]:
        """``(gives, point gives, trump discards, plain discards, cards left)`` of ``seat``'s steps."""
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        g = q = d = e = 0
        steps = self.pending[seat]
        for step in steps:
            if step >= _GIVE_STEP:
                g += 1
                q += 1 if pts[step - _GIVE_STEP] else 0
            elif es[step] == _PLAIN:
                d += 1
            else:
                e += 1
        left = _minus(self.hands[seat], [c % _GIVE_STEP for c in steps]) if steps else self.hands[seat]
        return g, q, d, e, left

    def _discard_actions(self, seat: int) -> tuple[Action, ...]:
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        k = self.counts(seat)
        g, q, d, e, left = self._steps(seat)
        out: list[Action] = [AUTO]
        if len(left) == KEEP:
            out.append(DONE)
        if len(left) > KEEP:
            # The step's legality depends only on the class of its card: four feasibility checks.
            plain_ok = _infeasible(k, g, q, d, e + 1) is None
            trump_ok = _infeasible(k, g, q, d + 1, e) is None
            give_plain_ok = _infeasible(k, g + 1, q, d, e) is None
            give_point_ok = _infeasible(k, g + 1, q + 1, d, e) is None
            gives: list[Action] = []
            for c in left:
                if es[c] != _PLAIN:
                    if plain_ok:
                        out.append(_DISCARDS[c])
                elif pts[c]:
                    if give_point_ok:
                        gives.append(_GIVES[c])
                else:
                    if trump_ok:
                        out.append(_DISCARDS[c])
                    if give_plain_ok:
                        gives.append(_GIVES[c])
            out += gives
        if self.pending[seat]:
            out.append(UNDO)
        return tuple(out)

    def _trim_need(self, seat: int) -> tuple[tuple[int, ...], bool]:
        """``(cards left, whether a non-trump is among them)`` for a receiver in the trim."""
        steps = self.pending[seat]
        left = _minus(self.hands[seat], steps) if steps else self.hands[seat]
        es = _ESUIT[self.trump]
        return left, any(es[c] != _PLAIN for c in left)

    def _trim_actions(self, seat: int) -> tuple[Action, ...]:
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        left, plain_left = self._trim_need(seat)
        out: list[Action] = [AUTO]
        if len(left) == KEEP:
            out.append(DONE)
        if len(left) > KEEP:
            for c in left:
                # 4.6.4: non-trumps first; then trumps, never one that scores (4.6.5).
                if (es[c] != _PLAIN) if plain_left else not pts[c]:
                    out.append(_DISCARDS[c])
        if self.pending[seat]:
            out.append(UNDO)
        return tuple(out)

    # ------------------------------------------------------------- apply

    def apply(self, seat: int, action: Action) -> Transition:
        """Apply ``action`` for ``seat``; raise a typed error (the state is unchanged) if it is not legal."""
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise BadSeatError(f"no seat {seat!r} at a table of {SEATS}")
        if type(action) is not Action:
            raise BadActionError(f"not an eighty-three action: {action!r}")
        if action not in self.legal_actions(seat):
            raise self._why_illegal(seat, action)
        v = self.version + 1
        kind = action.kind
        phase = self.phase
        if kind == Kind.PLAY:
            return self._play(seat, action.arg, v)
        if phase == _AUCTION:
            return self._call(seat, 0 if kind == Kind.PASS else action.arg, v)
        if phase == _TRUMP:
            return self._name_trump(seat, action.arg, v)
        if phase in (_DISCARD, _TRIM):
            return self._step(seat, action, v)
        return self._ready(seat, v)

    def _why_illegal(self, seat: int, action: Action) -> IllegalActionError:
        phase, kind = self.phase, action.kind
        if phase == _MATCH_OVER:
            return RoundOverError("the match is over")
        if phase == _HAND_OVER:
            if kind == Kind.READY:
                return IllegalActionError(f"seat {seat} is already ready for the next hand")
            return RoundOverError(f"hand {self.round} is over; only 'ready' is accepted")
        if seat not in self.awaiting():
            if phase == _TRIM and not self.gave[(seat + 2) % SEATS]:
                return NotYourTurnError(f"seat {seat} received nothing: it has nothing to trim")
            if phase in (_DISCARD, _TRIM):
                return NotYourTurnError(f"seat {seat} has handed its decision in")
            return NotYourTurnError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        text = str(action)
        if phase == _AUCTION:
            if kind == Kind.PASS:
                return IllegalActionError("the dealer must bid: the other three passed (eighty-three.md 4.5.5)")
            if kind == Kind.BID:
                low = max(MIN_BID, self.bid + 1)
                return IllegalActionError(f"a bid now is {low}-{MAX_BID}, not {action.arg!r} (eighty-three.md 4.5.2)")
            return IllegalActionError(f"{text!r} is not an auction call: bid or pass")
        if phase == _TRUMP:
            return IllegalActionError(f"the bidder names trumps first, not {text!r}")
        if phase == _PLAY:
            if kind != Kind.PLAY:
                return IllegalActionError(f"{text!r} is not a play: the tricks are on")
            return self._why_unplayable(seat, action.arg)
        return self._why_step_refused(seat, action)

    def _why_unplayable(self, seat: int, card: int) -> IllegalActionError:
        name = NAMES[card]
        if card not in self.hands[seat]:
            return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
        es = _ESUIT[self.trump]
        led = es[self.trick[0][1]]
        if led == _PLAIN:
            return IllegalActionError(
                f"a trump was led: seat {seat} must play a trump, not {name!r} (eighty-three.md 4.7.3)"
            )
        return IllegalActionError(
            f"{_SUIT_WORDS[led]} were led: seat {seat} must follow suit or play a trump, not {name!r}"
            " (eighty-three.md 4.7.4)"
        )

    def _why_step_refused(self, seat: int, action: Action) -> IllegalActionError:
        kind, card = action.kind, action.arg
        phase = self.phase
        if kind not in (Kind.DISCARD, Kind.GIVE, Kind.UNDO, Kind.DONE, Kind.AUTO):
            return IllegalActionError(f"{str(action)!r} is not a step of the {phase.wire} phase")
        if kind == Kind.UNDO:
            return IllegalActionError("there is no step to take back")
        if phase == _TRIM:
            left, plain_left = self._trim_need(seat)
            if kind == Kind.GIVE:
                return IllegalActionError("nothing is given in the trim: discard back to 6")
            if kind == Kind.DONE:
                return IllegalActionError(f"seat {seat} holds {len(left)} cards: discard back to 6 first")
            name = NAMES[card]
            if card not in left:
                return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
            if len(left) <= KEEP:
                return IllegalActionError(f"seat {seat} is down to 6 cards: say done")
            if plain_left:
                return IllegalActionError(f"non-trumps go first: {name!r} is a trump (eighty-three.md 4.6.4)")
            return IllegalActionError(f"{name!r} scores: a point trump is never discarded (eighty-three.md 4.6.5)")
        g, q, d, e, left = self._steps(seat)
        if kind == Kind.DONE:
            return IllegalActionError(f"seat {seat} holds {len(left)} cards: come down to 6 first")
        name = NAMES[card]
        if card not in left:
            return IllegalActionError(f"{name!r} is not in seat {seat}'s hand")
        if len(left) <= KEEP:
            return IllegalActionError(f"seat {seat} is down to 6 cards: say done")
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        k = self.counts(seat)
        if kind == Kind.GIVE:
            if es[card] != _PLAIN:
                return IllegalActionError(f"only trumps are given to the partner, not {name!r} (eighty-three.md 4.6.4)")
            if k.trumps <= KEEP:
                return IllegalActionError(
                    f"seat {seat} holds {k.trumps} trumps, 6 or fewer: it gives none (eighty-three.md 4.6.4)"
                )
            why = _infeasible(k, g + 1, q + (1 if pts[card] else 0), d, e)
        else:
            if pts[card]:
                return IllegalActionError(f"{name!r} scores: a point trump is never discarded (eighty-three.md 4.6.5)")
            trump = es[card] == _PLAIN
            why = _infeasible(k, g, q, d + trump, e + (not trump))
        return IllegalActionError(f"{str(action)!r} refused: {_REASONS.get(why or '', 'not legal now')}")

    # ---- the auction (4.5)

    def _call(self, seat: int, value: int, v: int) -> Transition:
        calls = (*self.calls, (seat, value))
        events: list[Event] = []
        if value:
            events.append(_ev("bid", {"seat": seat, "value": value}))
            state = self._evolve(version=v, calls=calls, bidder=seat, bid=value)
            if value == MAX_BID:
                return state._end_auction(events)  # 4.5.4: 83 cannot be outbid
        else:
            events.append(_ev("pass", {"seat": seat}))
            state = self._evolve(version=v, calls=calls)
        passed = {s for s, b in calls if not b}
        if len(passed) == SEATS - 1:
            if state.bidder >= 0:
                return state._end_auction(events)  # 4.5.4: three passes end it
            nxt = self.dealer  # 4.5.5: the dealer must bid
        else:
            nxt = (seat + 1) % SEATS
            while nxt in passed:  # 4.5.3: a pass is final; passed seats are skipped
                nxt = (nxt + 1) % SEATS
        events.append(_ev("turn", {"seat": nxt}))
        return Transition(state._evolve(turn=nxt), tuple(events))

    def _end_auction(self, events: list[Event]) -> Transition:
        bidder = self.bidder
        # 4.6.1, 4.10.3: the bidder takes the kitty, compulsorily, before naming trumps.
        kitty = self.kitty
        hands = list(self.hands)
        hands[bidder] = tuple(sorted(hands[bidder] + kitty))
        events.append(_ev("contract", {"bidder": bidder, "bid": self.bid}))
        events.append(_ev("kitty", {"seat": bidder, "cards": _names(kitty)}, only=(bidder,)))
        events.append(_ev("kitty", {"seat": bidder, "count": len(kitty)}, hidden=(bidder,)))
        events.append(_ev("turn", {"seat": bidder}))
        state = self._evolve(phase=_TRUMP, hands=tuple(hands), kitty=(), turn=bidder)
        return Transition(state, tuple(events))

    def _name_trump(self, seat: int, suit: int, v: int) -> Transition:
        events = [_ev("trump", {"seat": seat, "suit": _SUIT_LETTERS[suit]})]
        state = self._evolve(
            version=v,
            trump=suit,
            phase=_DISCARD,
            turn=-1,
            pending=((),) * SEATS,
            decided=(False,) * SEATS,
            phase_v=v,
            seat_v=(v,) * SEATS,
        )
        for s in range(SEATS):
            k = state.counts(s)
            # 4.10.5: a seat learns its partner's trump and point-trump counts, nothing more.
            events.append(
                _ev(
                    "partner_trumps",
                    {"seat": s, "partner": (s + 2) % SEATS, "trumps": k.partner_trumps, "points": k.partner_points},
                    only=(s,),
                )
            )
        events.append(_ev("discard_phase", {"seats": list(range(SEATS))}))
        return Transition(state, tuple(events))

    # ---- the discard and trim phases (4.6, 4.10.4-4.10.6)

    def _step(self, seat: int, action: Action, v: int) -> Transition:
        kind = action.kind
        steps = self.pending[seat]
        events: list[Event] = []
        decided = self.decided
        if kind == Kind.DISCARD or kind == Kind.GIVE:
            step = action.arg + (_GIVE_STEP if kind == Kind.GIVE else 0)
            steps = (*steps, step)
            to = "give" if kind == Kind.GIVE else "discard"
            events.append(_ev("selected", {"seat": seat, "card": NAMES[action.arg], "to": to}, only=(seat,)))
        elif kind == Kind.UNDO:
            last = steps[-1]
            steps = steps[:-1]
            to = "give" if last >= _GIVE_STEP else "discard"
            events.append(_ev("unselected", {"seat": seat, "card": NAMES[last % _GIVE_STEP], "to": to}, only=(seat,)))
        else:
            if kind == Kind.AUTO:
                steps = self._auto_steps(seat)
                drop = tuple(sorted(c for c in steps if c < _GIVE_STEP))
                gives = tuple(sorted(c - _GIVE_STEP for c in steps if c >= _GIVE_STEP))
                data: dict[str, Wire] = {"seat": seat, "discards": _names(drop)}
                if self.phase == _DISCARD:
                    data["gives"] = _names(gives)
                events.append(_ev("arranged", data, only=(seat,)))
            self._check_decision(seat, steps)
            decided = (*decided[:seat], True, *decided[seat + 1 :])
            events.append(_ev("decided", {"seat": seat}))
        pending = (*self.pending[:seat], steps, *self.pending[seat + 1 :])
        seat_v = (*self.seat_v[:seat], v, *self.seat_v[seat + 1 :])
        state = self._evolve(version=v, pending=pending, decided=decided, seat_v=seat_v)
        if not all(decided):
            return Transition(state, tuple(events))
        return state._exchange(events) if self.phase == _DISCARD else state._trimmed(events)

    def _auto_steps(self, seat: int) -> tuple[int, ...]:
        """The steps ``auto_arrange`` hands in for ``seat`` (4.10.6): with no step taken, the
        decision of :func:`auto_decision` (:func:`auto_trim` in the trim); else the steps taken,
        kept, and completed one listed step at a time, each the first of that order for the
        cards left that is listed (else the first listed step): a walk of listed steps, so
        valid at its end (every listed step keeps a valid end within reach)."""
        trump = self.trump
        if not self.pending[seat]:
            if self.phase == _DISCARD:
                drop, gives = auto_decision(self.hands[seat], trump)
            else:
                drop, gives = auto_trim(self.hands[seat], trump), ()
            return (*drop, *(c + _GIVE_STEP for c in gives))
        state = self
        while True:
            discarding = state.phase == _DISCARD
            legal = state._discard_actions(seat) if discarding else state._trim_actions(seat)
            steps = [a for a in legal if a.kind in (Kind.DISCARD, Kind.GIVE)]
            if not steps:
                return state.pending[seat]
            left = state._steps(seat)[4] if discarding else state._trim_need(seat)[0]
            if discarding:
                drop, gives = auto_decision(left, trump)
                wanted = [_GIVES[c] for c in gives] + [_DISCARDS[c] for c in drop]
            else:
                wanted = [_DISCARDS[c] for c in auto_trim(left, trump)]
            listed = set(steps)
            step = next((a for a in wanted if a in listed), steps[0])
            taken = (*state.pending[seat], step.arg + (_GIVE_STEP if step.kind == Kind.GIVE else 0))
            state = state._evolve(pending=(*state.pending[:seat], taken, *state.pending[seat + 1 :]))

    def _check_decision(self, seat: int, steps: tuple[int, ...]) -> None:
        """The server's check of a whole decision (4.6.6): never fails after accepted steps."""
        drop = [c for c in steps if c < _GIVE_STEP]
        gives = [c - _GIVE_STEP for c in steps if c >= _GIVE_STEP]
        if self.phase == _DISCARD:
            problems = decision_problems(self.hands[seat], self.hands[(seat + 2) % SEATS], self.trump, drop, gives)
        else:
            problems = _trim_problems(self.hands[seat], self.trump, drop)
        if problems:
            raise AssertionError(f"seat {seat}'s decision is not valid: {problems}")

    def _exchange(self, events: list[Event]) -> Transition:
        """Every seat has decided: the decisions apply together (4.6.8, 4.10.4)."""
        es = _ESUIT[self.trump]
        hands = list(self.hands)
        gave = [tuple(sorted(c - _GIVE_STEP for c in self.pending[s] if c >= _GIVE_STEP)) for s in range(SEATS)]
        drops = [tuple(sorted(c for c in self.pending[s] if c < _GIVE_STEP)) for s in range(SEATS)]
        buried = list(self.buried)
        shown = list(self.shown)
        for s in range(SEATS):
            partner = (s + 2) % SEATS
            hands[s] = tuple(sorted(_minus(self.hands[s], drops[s] + gave[s]) + gave[partner]))
            buried[s] = buried[s] + tuple(c for c in drops[s] if es[c] != _PLAIN)
            shown += [(s, c) for c in drops[s] if es[c] == _PLAIN]  # 4.6.5: trumps shed face up
        events.append(
            _ev(
                "exchange",
                {
                    "passed": [len(g) for g in gave],
                    "discarded": [len(d) for d in drops],
                    "shown": [{"seat": s, "card": NAMES[c]} for s, c in shown[len(self.shown) :]],
                },
            )
        )
        for s in range(SEATS):
            if gave[s]:
                partner = (s + 2) % SEATS
                # 4.6.4: passed cards are face down, seen by the partner alone.
                events.append(_ev("received", {"seat": partner, "from": s, "cards": _names(gave[s])}, only=(partner,)))
        receivers = tuple(s for s in range(SEATS) if gave[(s + 2) % SEATS])
        state = self._evolve(
            hands=tuple(hands),
            gave=tuple(gave),
            buried=tuple(buried),
            shown=tuple(shown),
            pending=((),) * SEATS,
        )
        if receivers:
            events.append(_ev("trim_phase", {"seats": list(receivers)}))
            state = state._evolve(
                phase=_TRIM,
                decided=tuple(s not in receivers for s in range(SEATS)),
                phase_v=self.version,
                seat_v=(self.version,) * SEATS,
            )
            return Transition(state, tuple(events))
        return state._start_play(events)

    def _trimmed(self, events: list[Event]) -> Transition:
        es = _ESUIT[self.trump]
        hands = list(self.hands)
        buried = list(self.buried)
        shown = list(self.shown)
        counts = []
        for s in range(SEATS):
            drop = tuple(sorted(self.pending[s]))
            counts.append(len(drop))
            hands[s] = _minus(self.hands[s], drop)
            buried[s] = buried[s] + tuple(c for c in drop if es[c] != _PLAIN)
            shown += [(s, c) for c in drop if es[c] == _PLAIN]
        events.append(
            _ev(
                "trimmed",
                {"discarded": counts, "shown": [{"seat": s, "card": NAMES[c]} for s, c in shown[len(self.shown) :]]},
            )
        )
        state = self._evolve(hands=tuple(hands), buried=tuple(buried), shown=tuple(shown), pending=((),) * SEATS)
        return state._start_play(events)

    def _start_play(self, events: list[Event]) -> Transition:
        problems = self.end_state_problems()
        if problems:
            raise AssertionError(f"the discard phase ended in an invalid state: {problems}")
        events.append(_ev("turn", {"seat": self.bidder}))  # 4.7.1: the bidder leads the first trick
        state = self._evolve(
            phase=_PLAY, turn=self.bidder, leader=self.bidder, decided=(False,) * SEATS, phase_v=self.version
        )
        return Transition(state, tuple(events))

    def end_state_problems(self) -> list[str]:
        """What breaks 4.6.6 in the hands as they stand after the discard phase (empty: valid)."""
        out: list[str] = []
        es, pts = _ESUIT[self.trump], _POINTS[self.trump]
        for team, (a, b) in enumerate(TEAMS):
            held = [c for s in (a, b) for c in self.hands[s] if es[c] == _PLAIN]
            shed = [c for s, c in self.shown if s in (a, b)]
            n = len(held) + len(shed)
            if len(self.hands[a]) != KEEP or len(self.hands[b]) != KEEP:
                out.append(f"team {team} holds {len(self.hands[a])} and {len(self.hands[b])} cards, not 6 each")
            if len(held) != min(n, TEAM_TRUMPS):
                out.append(f"team {team} keeps {len(held)} of its {n} trumps, not {min(n, TEAM_TRUMPS)}")
            if any(pts[c] for c in shed):
                out.append(f"team {team} shed a point trump")
            if any(es[c] == _PLAIN for s in (a, b) for c in self.buried[s]):
                out.append(f"team {team} buried a trump face down")
        return out

    # ---- the tricks (4.7) and the score (4.8)

    def _play(self, seat: int, card: int, v: int) -> Transition:
        hands = list(self.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = (*self.trick, (seat, card))
        events = [_ev("play", {"seat": seat, "card": NAMES[card]})]
        if len(trick) < SEATS:
            nxt = (seat + 1) % SEATS
            events.append(_ev("turn", {"seat": nxt}))
            return Transition(self._evolve(version=v, hands=tuple(hands), trick=trick, turn=nxt), tuple(events))
        winner = trick_winner(trick, self.trump)  # 4.7.5
        team = winner % 2
        cards = tuple(c for _, c in trick)
        taken = list(self.taken)
        taken[team] = taken[team] + cards
        tricks = list(self.tricks)
        tricks[team] += 1
        pts = _POINTS[self.trump]
        events.append(
            _ev(
                "trick",
                {
                    "number": sum(tricks),
                    "winner": winner,
                    "team": team,
                    "cards": [{"seat": s, "card": NAMES[c]} for s, c in trick],
                    "points": sum(pts[c] for c in cards),
                },
            )
        )
        state = self._evolve(
            version=v,
            hands=tuple(hands),
            trick=(),
            last_trick=trick,
            last_winner=winner,
            taken=(taken[0], taken[1]),
            tricks=(tricks[0], tricks[1]),
            turn=winner,
            leader=winner,
        )
        if any(hands):
            events.append(_ev("turn", {"seat": winner}))  # 4.7.5: the winner leads next
            return Transition(state, tuple(events))
        return state._score(events)

    def captured(self) -> tuple[int, int]:
        """The points each team has taken in tricks so far this hand (4.8.1)."""
        pts = _POINTS[self.trump] if self.trump >= 0 else _POINTS[0]
        return (sum(pts[c] for c in self.taken[0]), sum(pts[c] for c in self.taken[1]))

    def _score(self, events: list[Event]) -> Transition:
        captured = self.captured()
        if sum(captured) != MAX_BID:  # 4.6.7: every point card is played
            raise AssertionError(f"the hand's captured points add up to {sum(captured)}, not 83")
        bidders = self.bidder % 2
        made = captured[bidders] >= self.bid  # 4.8.3
        delta = [captured[0], captured[1]]  # 4.8.2: the defenders score what they took
        if not made:
            delta[bidders] = -self.bid  # 4.8.3: a failed bid loses its amount
        scores = (self.scores[0] + delta[0], self.scores[1] + delta[1])
        if self.options.must_win_on_own_bid:
            winner = bidders if made and scores[bidders] >= TARGET else -1  # 4.10.7
        else:
            over = [t for t in (0, 1) if scores[t] >= TARGET]
            winner = (bidders if len(over) == 2 else over[0]) if over else -1  # 4.8.4
        result = HandResult(
            round=self.round,
            dealer=self.dealer,
            bidder=self.bidder,
            bid=self.bid,
            trump=self.trump,
            captured=captured,
            made=made,
            delta=(delta[0], delta[1]),
            scores=scores,
            deal_code=self.deal_code,
        )
        events.append(_ev("hand_over", result.to_wire()))
        state = self._evolve(
            phase=_MATCH_OVER if winner >= 0 else _HAND_OVER,
            scores=scores,
            last_hand=result,
            winner=winner,
            turn=-1,
            ready=(False,) * SEATS,
            phase_v=self.version,
            seat_v=(self.version,) * SEATS,
        )
        if winner >= 0:
            events.append(
                _ev("match_over", {"teams": [winner], "winners": list(TEAMS[winner]), "team_scores": list(scores)})
            )
        return Transition(state, tuple(events))

    def _ready(self, seat: int, v: int) -> Transition:
        ready = (*self.ready[:seat], True, *self.ready[seat + 1 :])
        seat_v = (*self.seat_v[:seat], v, *self.seat_v[seat + 1 :])
        events = [_ev("ready", {"seat": seat})]
        state = self._evolve(version=v, ready=ready, seat_v=seat_v)
        if not all(ready):
            return Transition(state, tuple(events))
        seed, match_rng = self.match_rng.bits(SEED_BITS)
        state = state._evolve(match_rng=match_rng, round=self.round + 1)
        return state._deal((self.dealer + 1) % SEATS, seed, events)  # 4.2.1: the deal passes left

    def _deal(self, dealer: int, seed: int, events: list[Event]) -> Transition:
        """Deal a hand (4.2.2, 4.10.1): the deck in card order, shuffled with stream ``deal`` of
        ``seed``; 4 cards at a time, three rounds, from the dealer's left; the last 5 to the kitty."""
        deck, _ = Rng(seed, "deal").shuffle(range(len(NAMES)))
        hands: list[list[int]] = [[] for _ in range(SEATS)]
        at = 0
        for _round in range(3):
            for i in range(SEATS):
                hands[(dealer + 1 + i) % SEATS] += deck[at : at + 4]
                at += 4
        kitty = tuple(sorted(deck[at:]))
        first = (dealer + 1) % SEATS  # 4.5.1: the dealer's left bids first
        state = self._evolve(
            phase=_AUCTION,
            dealer=dealer,
            seed=seed,
            hands=tuple(tuple(sorted(h)) for h in hands),
            kitty=kitty,
            calls=(),
            turn=first,
            bidder=-1,
            bid=0,
            trump=-1,
            pending=((),) * SEATS,
            decided=(False,) * SEATS,
            gave=((),) * SEATS,
            buried=((),) * SEATS,
            shown=(),
            trick=(),
            leader=first,
            last_trick=(),
            last_winner=-1,
            tricks=(0, 0),
            taken=((), ()),
            ready=(False,) * SEATS,
            phase_v=self.version,
            seat_v=(self.version,) * SEATS,
        )
        events.append(
            _ev(
                "hand_start",
                {"hand": state.round, "dealer": dealer, "hand_counts": [HAND] * SEATS, "kitty_count": KITTY},
            )
        )
        for s in range(SEATS):
            events.append(_ev("hand", {"seat": s, "cards": _names(state.hands[s])}, only=(s,)))
        events.append(_ev("turn", {"seat": first}))
        return Transition(state, tuple(events))

    # ------------------------------------------------------------- views

    def view(self, seat: int | None) -> EightyThreeView:
        """What ``seat`` may see (``None``: a spectator), field by field."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < SEATS):
            raise BadSeatError(f"no seat {seat!r} at a table of {SEATS}")
        phase = self.phase
        trump = self.trump
        mine = seat is not None
        in_hand = phase <= _PLAY
        data: dict[str, Wire] = {
            "game": GAME_NAME,
            "preset": self.options.preset,
            "must_win_on_own_bid": self.options.must_win_on_own_bid,
            "seat": seat,
            "seats": SEATS,
            "teams": [list(t) for t in TEAMS],
            "version": self.version,
            "phase": phase.wire,
            "round": self.round,  # the hand, from 1 (every game's view calls it round)
            "dealer": self.dealer,
            "turn": self.turn if self.turn >= 0 else None,
            "awaiting": list(self.awaiting()),
            "hand": None,
            "hand_counts": [len(h) for h in self.hands],
            "kitty_count": len(self.kitty),
            "auction": [{"seat": s, "bid": b or None} for s, b in self.calls],
            "passed": [any(c == (s, 0) for c in self.calls) for s in range(SEATS)],
            "high_bid": self.bid or None,
            "bidder": self.bidder if self.bidder >= 0 else None,
            "bid": self.bid if phase > _AUCTION and self.bidder >= 0 else None,
            "trump": _SUIT_LETTERS[trump] if trump >= 0 else None,
            "partner_trumps": None,
            "selected": None,
            "arranged": None,
            "decided": list(self.decided) if phase in (_DISCARD, _TRIM) else [False] * SEATS,
            "passed_counts": None,
            "given": None,
            "received": None,
            "discarded": None,
            "shown": [{"seat": s, "card": NAMES[c]} for s, c in self.shown],
            "trick": [{"seat": s, "card": NAMES[c]} for s, c in self.trick],
            "leader": self.leader if phase == _PLAY else None,
            "last_trick": None
            if not self.last_trick
            else {"winner": self.last_winner, "cards": [{"seat": s, "card": NAMES[c]} for s, c in self.last_trick]},
            "tricks": list(self.tricks),
            "points": list(self.captured()) if trump >= 0 else [0, 0],
            "scores": list(self.scores),
            "target": TARGET,
            "ready": list(self.ready),
            "last_hand": None if self.last_hand is None else self.last_hand.to_wire(),
            "deal_code": None if in_hand else self.deal_code,
            "winners": list(TEAMS[self.winner]) if phase == _MATCH_OVER else [],
            "winning_team": self.winner if phase == _MATCH_OVER else None,
        }
        if phase >= _TRIM and in_hand:
            data["passed_counts"] = [len(g) for g in self.gave]
        if mine:
            assert seat is not None
            steps = self.pending[seat]
            gone = [c % _GIVE_STEP for c in steps]
            data["hand"] = _names(_minus(self.hands[seat], gone) if steps else self.hands[seat])
            if phase == _DISCARD:
                k = self.counts(seat)
                data["partner_trumps"] = {"trumps": k.partner_trumps, "points": k.partner_points}
            if phase in (_DISCARD, _TRIM):
                data["selected"] = {
                    "discards": [NAMES[c] for c in steps if c < _GIVE_STEP],
                    "gives": [NAMES[c - _GIVE_STEP] for c in steps if c >= _GIVE_STEP],
                }
                if seat in self.awaiting():
                    # What auto_arrange would hand in now: the page shows it before it is pressed.
                    auto = self._auto_steps(seat)
                    data["arranged"] = {
                        "discards": _names(tuple(sorted(c for c in auto if c < _GIVE_STEP))),
                        "gives": _names(tuple(sorted(c - _GIVE_STEP for c in auto if c >= _GIVE_STEP))),
                    }
            if phase >= _TRIM and in_hand:
                data["given"] = _names(self.gave[seat])
                data["received"] = _names(self.gave[(seat + 2) % SEATS])
                data["discarded"] = _names(self.buried[seat])
        return EightyThreeView(seat, data, self.legal_actions(seat) if seat is not None else ())

    # ------------------------------------------------------------- persistence

    def to_data(self) -> dict[str, Wire]:
        """Plain data (msgpack-ready) from which :meth:`EightyThree.state_from_data` rebuilds this state."""
        return {
            "schema": 1,
            "game": GAME_NAME,
            "options": self.options.to_wire(),
            "version": self.version,
            "phase": int(self.phase),
            "match_rng": self.match_rng.to_data(),
            "round": self.round,
            "dealer": self.dealer,
            "seed": f"{self.seed:032x}",  # 128 bits: msgpack ints stop at 64
            "hands": [list(h) for h in self.hands],
            "kitty": list(self.kitty),
            "calls": [list(c) for c in self.calls],
            "turn": self.turn,
            "bidder": self.bidder,
            "bid": self.bid,
            "trump": self.trump,
            "pending": [list(p) for p in self.pending],
            "decided": list(self.decided),
            "gave": [list(g) for g in self.gave],
            "buried": [list(b) for b in self.buried],
            "shown": [list(x) for x in self.shown],
            "trick": [list(x) for x in self.trick],
            "leader": self.leader,
            "last_trick": [list(x) for x in self.last_trick],
            "last_winner": self.last_winner,
            "tricks": list(self.tricks),
            "taken": [list(t) for t in self.taken],
            "scores": list(self.scores),
            "ready": list(self.ready),
            "last_hand": None if self.last_hand is None else self.last_hand.to_data(),
            "winner": self.winner,
            "phase_v": self.phase_v,
            "seat_v": list(self.seat_v),
        }

    def digest(self) -> str:
        """A short hash of the whole state (golden transcripts, replay checks)."""
        text = json.dumps(self.to_data(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _trim_problems(hand: Sequence[int], trump: int, drop: Sequence[int]) -> list[str]:
    """What is wrong with a receiver's trim of ``hand`` (empty: valid): 6 cards left, non-trumps first,
    no point trump (4.6.4, 4.6.5)."""
    es, pts = _ESUIT[trump], _POINTS[trump]
    out = []
    if len(hand) - len(drop) != KEEP or not set(drop) <= set(hand) or len(set(drop)) != len(drop):
        out.append(f"the trim leaves {len(hand) - len(drop)} cards, not 6")
    kept = _minus(tuple(hand), drop)
    if any(es[c] == _PLAIN for c in drop) and any(es[c] != _PLAIN for c in kept):
        out.append("a trump is trimmed while a non-trump is kept")
    if any(pts[c] for c in drop):
        out.append("a point trump is trimmed")
    return out


@dataclass(frozen=True, slots=True)
class EightyThreeView:
    """One seat's view: plain data chosen field by field, and the seat's legal actions."""

    seat: int | None
    data: dict[str, Wire]
    legal: tuple[Action, ...]

    def to_wire(self) -> dict[str, Wire]:
        return {**self.data, "legal": [a.to_wire() for a in self.legal]}


# --------------------------------------------------------------------------- the game


_PHASES_OF_WIRE: Final = {"auction": _AUCTION, "trump": _TRUMP, "discard": _DISCARD, "play": _PLAY}


class EightyThree:
    """The Eighty-Three game: its preset and option, the start of a match, deal codes."""

    name: Final = GAME_NAME
    title: Final = "Eighty-Three"
    info: Final = INFO

    def options(self, preset: str | None = None, **overrides: Any) -> EightyThreeOptions:
        """The preset (``standard``) with the host's settings checked against :data:`INFO`."""
        _, values = check_options(INFO, {"preset": preset or "standard", **overrides})
        return EightyThreeOptions(preset=preset or "standard", **values)

    def options_from_wire(self, data: Any) -> EightyThreeOptions:
        """Options from a host's request (``{"preset": "standard", "must_win_on_own_bid": true}``)."""
        preset, values = check_options(INFO, data)
        return EightyThreeOptions(preset=preset.name, **values)

    def seat_range(self, options: EightyThreeOptions) -> range:
        return range(SEATS, SEATS + 1)

    def teams(self, options: EightyThreeOptions, seats: int) -> tuple[tuple[int, ...], ...]:
        return TEAMS

    def round_points(self, options: EightyThreeOptions, seats: int, data: Mapping[str, Any]) -> RoundPoints:
        """4.8: each seat scores its team's change of score in the hand; more is better."""
        delta = data["delta"]
        return RoundPoints(tuple(int(delta[0 if s in TEAMS[0] else 1]) for s in range(seats)), lower_wins=False)

    def read_deal_code(self, code: str) -> DealInfo:
        spec = dealcode.decode(code)
        return DealInfo(dealcode.PRESET, SEATS, dealcode.encode(spec))

    def deck(self, options: EightyThreeOptions, seats: int) -> tuple[str, ...]:
        return DECK

    def new_match(
        self,
        options: EightyThreeOptions | str,
        seats: int,
        seed: int,
        deal_code: str | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> Transition:
        """Deal hand 1 (from ``deal_code`` if given). ``seed`` (up to 128 bits) decides the rest.
        ``carry`` (a rematch: the last match's :meth:`EightyThreeState.carry`) names the dealer: the
        deal passes to the left after every hand (4.2.1), the last match's last one included."""
        opts = _options_arg(self, options)
        if seats != SEATS:
            raise BadOptionsError(f"eighty-three is for {SEATS} seats, not {seats!r}")
        match_rng = Rng(seed, "match")
        if deal_code is not None:
            spec = dealcode.decode(deal_code)
            dealer, hand_seed = spec.dealer, spec.seed
        else:
            dealer, match_rng = match_rng.randbelow(SEATS)  # 4.2.1: the first dealer at random
            hand_seed, match_rng = match_rng.bits(SEED_BITS)
            if carry is not None:
                carried = carry.get("dealer") if isinstance(carry, Mapping) else None
                if type(carried) is not int or not 0 <= carried < SEATS:
                    raise BadOptionsError(f"not a carry of eighty-three: {carry!r}")
                dealer = carried
        return _blank(opts, match_rng)._deal(dealer, hand_seed, [])

    def stacked(
        self,
        options: EightyThreeOptions | str = "standard",
        *,
        hands: Sequence[str],
        kitty: str = "",
        dealer: int = 3,
        phase: str = "auction",
        bidder: int | None = None,
        bid: int | None = None,
        trump: str | None = None,
        leader: int | None = None,
        trick: str = "",
        taken: Sequence[str] = ("", ""),
        scores: tuple[int, int] = (0, 0),
        hand: int = 1,
        seed: int = 0,
    ) -> EightyThreeState:
        """A hand laid out by hand, for stacked-deck scenarios; :class:`BadOptionsError` for a layout
        that could never happen.

        ``phase``:

        - ``"auction"``: ``hands`` are four 12-card hands and ``kitty`` 5 cards
          (the whole deck); the dealer's left is to bid.
        - ``"trump"``: after the auction; ``bidder`` and ``bid`` given, the
          bidder's hand holds 17 cards (the kitty taken), the others 12.
        - ``"discard"``: as ``"trump"`` with ``trump`` (a suit letter) named.
        - ``"play"``: the tricks; ``bidder``, ``bid``, ``trump`` given; ``trick``
          the cards played to the trick in progress, from ``leader`` (default:
          the bidder) on; ``taken`` the cards each team has captured (whole
          tricks). Every hand holds the same number of cards (at most 6) once the
          trick's cards are counted back, and the tricks taken make up the rest
          of the 6. The cards not laid out count as discarded face down; no point
          trump may be among them (4.6.5: it is never discarded).

        ``seed`` names the hand (its deal code) and feeds the later hands.
        """
        opts = _options_arg(self, options)
        if len(hands) != SEATS:
            raise BadOptionsError(f"eighty-three is for {SEATS} seats, not {len(hands)}")
        if phase not in _PHASES_OF_WIRE:
            raise BadOptionsError(f"a stacked hand starts in one of {sorted(_PHASES_OF_WIRE)}, not {phase!r}")
        ph = _PHASES_OF_WIRE[phase]
        try:
            laid = [parse_cards(h) for h in hands]
            kitty_cards = parse_cards(kitty)
            trick_cards = parse_cards(trick)
            taken_cards = [parse_cards(t) for t in taken]
        except ValueError as exc:
            raise BadOptionsError(f"a stacked hand names a card that is not one: {exc}") from None
        if len(taken_cards) != 2:
            raise BadOptionsError("taken names the cards of the two teams")
        every = (
            [c for h in laid for c in h] + list(kitty_cards) + list(trick_cards) + [c for t in taken_cards for c in t]
        )
        seen: set[int] = set()
        for c in every:
            if c in seen:
                raise BadOptionsError(f"card {NAMES[c]!r} is laid out twice")
            seen.add(c)
        if type(dealer) is not int or not 0 <= dealer < SEATS:
            raise BadOptionsError(f"dealer {dealer!r} is not a seat of {SEATS}")
        if type(hand) is not int or hand < 1 or type(seed) is not int or not 0 <= seed < 1 << SEED_BITS:
            raise BadOptionsError(f"hand {hand!r} and seed {seed!r}: a hand number from 1 and a 128-bit seed")
        if len(scores) != 2:
            raise BadOptionsError(f"scores {scores!r}: one total per team")
        trump_suit = -1
        if ph >= _DISCARD:
            if not isinstance(trump, str) or trump.upper() not in tuple(_SUIT_LETTERS):
                raise BadOptionsError(f"trump {trump!r} is not one of S H D C")
            trump_suit = _SUIT_LETTERS.index(trump.upper())
        elif trump is not None:
            raise BadOptionsError("trumps are named after the auction: no trump in the auction or trump phase")
        if ph >= _TRUMP:
            if type(bidder) is not int or not 0 <= bidder < SEATS:
                raise BadOptionsError(f"bidder {bidder!r} is not a seat of {SEATS}")
            if type(bid) is not int or not MIN_BID <= bid <= MAX_BID:
                raise BadOptionsError(f"bid {bid!r} is not {MIN_BID}-{MAX_BID}")
        elif bidder is not None or bid is not None:
            raise BadOptionsError("a stacked auction starts with no bid: bidder and bid come later")
        if ph != _PLAY and (trick_cards or any(taken_cards) or leader is not None):
            raise BadOptionsError("tricks, taken cards and a leader belong to the play phase")
        sizes = [len(h) for h in laid]
        if ph == _AUCTION:
            if sizes != [HAND] * SEATS or len(kitty_cards) != KITTY:
                raise BadOptionsError(
                    f"an auction needs four hands of 12 and a kitty of 5, not {sizes} and {len(kitty_cards)}"
                )
        elif ph in (_TRUMP, _DISCARD):
            assert bidder is not None
            want = [HAND + KITTY if s == bidder else HAND for s in range(SEATS)]
            if sizes != want or kitty_cards:
                raise BadOptionsError(f"after the auction the hands hold {want} cards and the kitty none, not {sizes}")
        else:
            assert bidder is not None
            lead = bidder if leader is None else leader
            if type(lead) is not int or not 0 <= lead < SEATS:
                raise BadOptionsError(f"leader {lead!r} is not a seat of {SEATS}")
            if kitty_cards:
                raise BadOptionsError("the kitty is empty once the tricks are played")
            played = [(lead + i) % SEATS for i in range(len(trick_cards))]
            if len(trick_cards) >= SEATS:
                raise BadOptionsError("a trick in progress holds at most 3 cards")
            counted_back = [sizes[s] + (s in played) for s in range(SEATS)]
            n = counted_back[0]
            if any(x != n for x in counted_back) or not 1 <= n <= KEEP:
                raise BadOptionsError(f"the hands hold {sizes} cards: not one trick's position of the play")
            if any(len(t) % SEATS for t in taken_cards) or sum(len(t) for t in taken_cards) != SEATS * (TRICKS - n):
                raise BadOptionsError(f"the taken cards must be the {TRICKS - n} whole tricks played before")
            out_cards = set(range(len(NAMES))) - seen
            lost = [NAMES[c] for c in sorted(out_cards) if _POINTS[trump_suit][c]]
            if lost:
                raise BadOptionsError(f"point trumps {lost} are laid out nowhere: a point trump is never discarded")
        missing = set(range(len(NAMES))) - seen
        if ph != _PLAY and missing:
            raise BadOptionsError(f"the deck is not all laid out: {[NAMES[c] for c in sorted(missing)]} missing")
        state = _blank(opts, Rng(seed, "match"))._evolve(
            round=hand, dealer=dealer, seed=seed, scores=(scores[0], scores[1])
        )
        first = (dealer + 1) % SEATS
        hands_t = tuple(tuple(sorted(h)) for h in laid)
        common: dict[str, Any] = {
            "hands": hands_t,
            "kitty": tuple(sorted(kitty_cards)),
            "turn": first,
            "leader": first,
        }
        if ph >= _TRUMP:
            assert bidder is not None and bid is not None
            common.update(phase=_TRUMP, bidder=bidder, bid=bid, turn=bidder, calls=((bidder, bid),))
        if ph >= _DISCARD:
            common.update(phase=_DISCARD, trump=trump_suit, turn=-1)
        if ph == _PLAY:
            assert bidder is not None
            lead = bidder if leader is None else leader
            aside = sorted(set(range(len(NAMES))) - seen)
            tricks_each = (len(taken_cards[0]) // SEATS, len(taken_cards[1]) // SEATS)
            common.update(
                phase=_PLAY,
                trick=tuple(((lead + i) % SEATS, c) for i, c in enumerate(trick_cards)),
                leader=lead,
                turn=(lead + len(trick_cards)) % SEATS,
                taken=(tuple(taken_cards[0]), tuple(taken_cards[1])),
                tricks=tricks_each,
                # the cards laid out nowhere: discarded face down, by the bidder (who shed most)
                buried=tuple(tuple(aside) if s == bidder else () for s in range(SEATS)),
            )
            if any(_ESUIT[trump_suit][c] == _PLAIN for c in aside):
                # trumps set aside were shed face up (4.6.5)
                common["shown"] = tuple((bidder, c) for c in aside if _ESUIT[trump_suit][c] == _PLAIN)
                common["buried"] = tuple(
                    tuple(c for c in aside if _ESUIT[trump_suit][c] != _PLAIN) if s == bidder else ()
                    for s in range(SEATS)
                )
        return state._evolve(**common)

    def decode_action(self, data: Any) -> Action:
        """The only door for untrusted actions: strict about keys and types."""
        if not isinstance(data, dict):
            raise BadActionError(f"an action is a map, not {data!r}")
        raw = data.get("kind")
        kind = _KIND_OF_WIRE.get(raw) if isinstance(raw, str) else None
        if kind is None:
            raise BadActionError(f"unknown action kind {raw!r}; known: {list(_KIND_WIRE)}")
        field_name = (
            "card" if kind in _CARD_KINDS else "value" if kind == Kind.BID else "suit" if kind == Kind.TRUMP else None
        )
        allowed = {"kind"} if field_name is None else {"kind", field_name}
        extra = set(data) - allowed
        if extra:
            raise BadActionError(f"unexpected field(s) {sorted(map(repr, extra))} in a {kind.wire!r} action")
        if field_name is None:
            return _SIMPLE[kind]
        if field_name not in data:
            raise BadActionError(f"a {kind.wire!r} action needs a {field_name!r}")
        value = data[field_name]
        if kind == Kind.BID:
            if type(value) is not int or not MIN_BID <= value <= MAX_BID:
                raise BadActionError(f"a bid is a whole number {MIN_BID}-{MAX_BID}, not {value!r}")
            return _BIDS[value - MIN_BID]
        if kind == Kind.TRUMP:
            if not isinstance(value, str) or len(value) != 1 or value not in _SUIT_LETTERS:
                raise BadActionError(f"a suit is exactly one of S, H, D, C, not {value!r}")
            return _TRUMPS[_SUIT_LETTERS.index(value)]
        card = _ID.get(value) if isinstance(value, str) else None  # the wire's one spelling of each
        if card is None:
            raise BadActionError(
                f"not a card of eighty-three: {value!r} (exactly one of the 53 names: '8H', '10C', 'JK')"
            )
        return _CARD_ACTIONS[kind][card]

    def state_from_data(self, data: Mapping[str, Any]) -> EightyThreeState:
        """Rebuild a state from :meth:`EightyThreeState.to_data` output."""
        if data.get("schema") != 1 or data.get("game") != GAME_NAME:
            raise ValueError(f"not an eighty-three state record: schema {data.get('schema')!r}")
        o = data["options"]
        lh = data["last_hand"]
        state = _blank(
            EightyThreeOptions(o["preset"], bool(o["must_win_on_own_bid"])), Rng.from_data(data["match_rng"])
        )
        return state._evolve(
            version=data["version"],
            phase=Phase(data["phase"]),
            round=data["round"],
            dealer=data["dealer"],
            seed=int(data["seed"], 16),
            hands=tuple(tuple(h) for h in data["hands"]),
            kitty=tuple(data["kitty"]),
            calls=tuple((c[0], c[1]) for c in data["calls"]),
            turn=data["turn"],
            bidder=data["bidder"],
            bid=data["bid"],
            trump=data["trump"],
            pending=tuple(tuple(p) for p in data["pending"]),
            decided=tuple(data["decided"]),
            gave=tuple(tuple(g) for g in data["gave"]),
            buried=tuple(tuple(b) for b in data["buried"]),
            shown=tuple((x[0], x[1]) for x in data["shown"]),
            trick=tuple((x[0], x[1]) for x in data["trick"]),
            leader=data["leader"],
            last_trick=tuple((x[0], x[1]) for x in data["last_trick"]),
            last_winner=data["last_winner"],
            tricks=(data["tricks"][0], data["tricks"][1]),
            taken=(tuple(data["taken"][0]), tuple(data["taken"][1])),
            scores=(data["scores"][0], data["scores"][1]),
            ready=tuple(data["ready"]),
            last_hand=None if lh is None else HandResult.from_data(lh),
            winner=data["winner"],
            phase_v=data["phase_v"],
            seat_v=tuple(data["seat_v"]),
        )


def _blank(options: EightyThreeOptions, match_rng: Rng) -> EightyThreeState:
    """A state before its first deal: every field at rest."""
    return EightyThreeState(
        options=options,
        version=0,
        phase=_AUCTION,
        match_rng=match_rng,
        round=1,
        dealer=0,
        seed=0,
        hands=((),) * SEATS,
        kitty=(),
        calls=(),
        turn=1,
        bidder=-1,
        bid=0,
        trump=-1,
        pending=((),) * SEATS,
        decided=(False,) * SEATS,
        gave=((),) * SEATS,
        buried=((),) * SEATS,
        shown=(),
        trick=(),
        leader=1,
        last_trick=(),
        last_winner=-1,
        tricks=(0, 0),
        taken=((), ()),
        scores=(0, 0),
        ready=(False,) * SEATS,
        last_hand=None,
        winner=-1,
        phase_v=0,
        seat_v=(0,) * SEATS,
    )


def _options_arg(game: EightyThree, options: Any) -> EightyThreeOptions:
    if isinstance(options, str):
        return game.options(options)
    if not isinstance(options, EightyThreeOptions):
        raise BadOptionsError(f"options must be EightyThreeOptions or a preset name, not {options!r}")
    return options


GAME: Final = EightyThree()
