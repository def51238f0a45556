"""What Kartu Terakhir's bots share: the rules' own card tables, read through moves, and the greedy core.

Nothing here restates a rule. The card tables (colour, symbol, points of each
card id, which ids share a name, which cards are playable on which top) are the
engine's own (imported from :mod:`..rules`); a play is read back from the
engine's :class:`~..rules.Move` (``name index * 5 + colour slot``); and what is
legal always comes from ``view.legal`` / ``state.legal_actions``.

:func:`greedy_turn` is the policy of the ``greedy`` yardstick (and ``normal``
and the ``hard`` search's rollouts): it works on plain values, so the same
function decides from a seat's view and, inside the search, from a sampled
world's state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from meja.bots.base import History
from meja.rules.events import EventKinds

from ..rules import (
    CALL,
    CARD_COUNT,
    CATCH,
    CHALLENGE,
    COLOUR,
    COLOURS,
    DRAW,
    DRAW_TWO,
    IDS_OF,
    KEEP,
    NAMEIX,
    NAMEIX_OF,
    NAMES,
    NO_COLOUR,
    PASS,
    PLAYABLE,
    POINTS,
    READY,
    REVERSE,
    SKIP,
    SYM,
    TAKE,
    WILD,
    WILD_DRAW_FOUR,
    Move,
)
from ..rules.events import Play, RoundStart

__all__ = [
    "CALL",
    "CARD_COUNT",
    "CATCH",
    "CHALLENGE",
    "COLOUR",
    "DRAW",
    "IDS_OF",
    "KEEP",
    "NAMEIX",
    "NAMEIX_OF",
    "NAME_COLOUR",
    "NAME_POINTS",
    "NAME_SYM",
    "PASS",
    "PLAYABLE",
    "PLAYS",
    "PLAYS_AND_STARTS",
    "POINTS",
    "READY",
    "SYM",
    "TAKE",
    "WD4_NAME",
    "WILD_NAME",
    "History",
    "avoid_colour",
    "colour_counts",
    "colour_of_letter",
    "greedy_colour",
    "greedy_turn",
    "plays_of",
    "reflex",
    "wd4_prior",
]

#: per name index (what a play names): the colour (4: none), the symbol and the points of that card
NAME_COLOUR: Final = tuple(COLOUR[ids[0]] for ids in IDS_OF)
NAME_SYM: Final = tuple(SYM[ids[0]] for ids in IDS_OF)
NAME_POINTS: Final = tuple(POINTS[ids[0]] for ids in IDS_OF)
WILD_NAME: Final = NAMEIX[IDS_OF[NAMEIX_OF["W"]][0]]
WD4_NAME: Final = NAMEIX[IDS_OF[NAMEIX_OF["WD4"]][0]]
_STEP: Final = int(DRAW)  # a play is below the first other kind
_COLOUR_OF_LETTER: Final = {letter: i for i, letter in enumerate(COLOURS)}
#: The history's plays, and its plays and deals (``.known(history)``: the rest, and anything malformed, skipped)
PLAYS: Final = EventKinds(Play)
PLAYS_AND_STARTS: Final = EventKinds(RoundStart, Play)
#: the cards that hurt the next seat (it loses its turn): Skip, Draw Two (Reverse only at 2 seats)
_HURTS: Final = frozenset((SKIP, DRAW_TWO))

assert len(NAMES) == len(IDS_OF) and len(COLOUR) == CARD_COUNT
assert NAME_SYM[WILD_NAME] == WILD and NAME_SYM[WD4_NAME] == WILD_DRAW_FOUR


def colour_of_letter(letter: object) -> int:
    """0-3 for a colour letter of the wire, -1 for anything else."""
    return _COLOUR_OF_LETTER.get(letter, -1) if isinstance(letter, str) else -1


def plays_of(legal: Sequence[Move]) -> list[int]:
    """The plays among legal actions (as ints: ``name * 5 + slot``)."""
    return [m for m in legal if m < _STEP]


def colour_counts(hand: Sequence[int]) -> list[int]:
    """How many cards of each colour (0-3) a hand of card ids holds."""
    cc = [0, 0, 0, 0, 0]
    for c in hand:
        cc[COLOUR[c]] += 1
    return cc


def greedy_colour(hand: Sequence[int], without: int = -1, avoid: int = -1, lacks: int = 0) -> int:
    """The colour to name with a Wild: the one held most (``without`` one card id of the hand: the
    Wild played), not ``avoid`` if another is held; ties: more points, then R Y G B. With ``lacks``
    (a bitmask of colours the next seat is known to lack; 0 for the yardstick), first a colour of
    those that the hand holds."""
    cc = [0, 0, 0, 0, 0]
    pts = [0, 0, 0, 0, 0]
    skipped = False
    for c in hand:
        if c == without and not skipped:
            skipped = True
            continue
        k = COLOUR[c]
        cc[k] += 1
        pts[k] += POINTS[c]
    best = -1
    best_key: tuple[int, int, int, int] = (-1, -1, -1, -1)
    for k in range(4):
        key = (0 if k == avoid else 1, 1 if lacks >> k & 1 and cc[k] else 0, cc[k], pts[k])
        if key > best_key:
            best_key = key
            best = k
    return best


def greedy_turn(
    hand: Sequence[int],
    legal: Sequence[Move],
    seats: int,
    me: int,
    direction: int,
    counts: Sequence[int],
    avoid: int = -1,
    lacks: int = 0,
) -> Move:
    """The greedy turn action (no call, no catch, no challenge: the caller decides those first).

    The seed's tips (docs/rules/kartu-terakhir.md 3.9.6), done simply:

    - keep Wilds: a Wild is played only when no other card plays;
    - shed the most expensive card first (actions 20, numbers their face value);
      ties: the colour held most of, then the lower card;
    - when the next seat holds 2 cards or fewer, a card that makes it lose its turn
      (Skip, Draw Two; Reverse at 2 seats) comes first;
    - change the colour away from ``avoid`` (the colour a near-out opponent last
      played, :func:`avoid_colour`) when a card allows it, Wilds included;
    - of the Wilds, the Wild Draw Four first (played only when nothing else plays,
      it is never a bluff); it names the colour held most (:func:`greedy_colour`);
    - a drawn card that plays is played; with nothing to play: take a pending
      penalty, else draw, else pass. Never a voluntary draw.

    ``lacks`` (0 for the yardstick, which ignores it): a bitmask of the colours the next
    seat is known to lack (``hard`` reads it from its infoset); a card that leaves such a
    colour active comes right after a card that hurts a near-out next seat.
    """
    best = -1
    best_key: tuple[int, int, int, int, int, int] | None = None
    wild = -1
    nxt = (me + direction) % seats
    threat = nxt != me and counts[nxt] <= 2
    cc: list[int] | None = None
    for m in legal:
        if m >= _STEP:
            break  # legal actions are sorted: plays first
        name = m // 5
        colour = NAME_COLOUR[name]
        if colour == NO_COLOUR:
            if wild < 0 or name == WD4_NAME:
                wild = name
            continue
        if cc is None:
            cc = colour_counts(hand)
        sym = NAME_SYM[name]
        hurts = threat and (sym in _HURTS or (sym == REVERSE and seats == 2))
        steer = lacks >> colour & 1
        key = (1 if hurts else 0, steer, 0 if colour == avoid else 1, NAME_POINTS[name], cc[colour], -name)
        if best_key is None or key > best_key:
            best_key = key
            best = m
    if best >= 0:
        return Move(best)
    if wild >= 0:
        slots = [m % 5 for m in legal if m < _STEP and m // 5 == wild]
        if NO_COLOUR in slots:
            return Move(wild * 5 + NO_COLOUR)  # the last card: it names no colour
        card = next(c for c in hand if NAMEIX[c] == wild)
        return Move(wild * 5 + greedy_colour(hand, card, avoid, lacks))
    for move in (TAKE, DRAW, KEEP, PASS):
        if move in legal:
            return move
    return legal[0]


# --------------------------------------------------------------------------- reading the history


def avoid_colour(history: History, seats: int, me: int, direction: int, counts: Sequence[int]) -> int:
    """The colour to steer away from (3.9.6 tip 2): the colour the first near-out opponent (2 cards or
    fewer, in turn order from the next seat) last made active; -1 if none is near out or it has not played."""
    near = -1
    for step in range(1, seats):
        s = (me + step * direction) % seats
        if counts[s] <= 2:
            near = s
            break
    if near < 0:
        return -1
    parse = PLAYS.parse  # back from the newest, read one entry at a time: the answer is seldom far back
    for w in reversed(history):
        e = parse(w)
        if type(e) is Play and e.seat == near:
            return e.colour
    return -1


def wd4_prior(history: History) -> tuple[int, int, int]:
    """For the Wild Draw Four just played (the last play of the history): who played it, the colour in
    force before it, and the colour of that seat's previous play's card (-1 where unknown)."""
    read = PLAYS_AND_STARTS.known(history)
    plays = [e for e in read if type(e) is Play]
    if not plays or plays[-1].card != WD4_NAME:
        return -1, -1, -1
    by = plays[-1].seat
    prior = -1
    if len(plays) >= 2:
        prior = plays[-2].colour
    else:
        for e in read:
            if type(e) is RoundStart:
                prior = e.colour
    previous = -1
    for p in reversed(plays[:-1]):
        if p.seat == by:
            previous = NAME_COLOUR[p.card]
            previous = -1 if previous == NO_COLOUR else previous
            break
    return by, prior, previous


def reflex(view: Any) -> Move | None:
    """The reflexes a full-attention player has: catch whenever a catch is legal; call whenever its
    own catch window is open; on its own turn with 2 cards, call before playing (3.6.1 a, the seed's
    tip), when it has a card to play. ``None``: nothing of the kind to do."""
    legal = view.legal
    if CATCH in legal:
        return CATCH
    if CALL in legal:
        if view.window is not None and view.window == view.seat:
            return CALL
        if any(m < _STEP for m in legal) and view.pending == 0:
            return CALL
        if view.pending and any(m < _STEP for m in legal):
            return CALL  # a stacking answer to one card
    return None
