"""What one seat knows of the cards it cannot see, rebuilt from its view and history, and worlds from it.

The history is the wire dicts of the events the seat saw this round
(``round_start``, its ``hand``, ``play``, ``draw``, ``reshuffle``, ``challenge``,
``shown``, ``pass``...). From it the seat knows the discard pile exactly (the
starter, then every play; a ``reshuffle`` leaves only the top card), so the
*unknown* cards are the deck less its own hand and the pile: they lie in the
other hands (whose sizes it sees) or in the stock. What else it saw:

- **a challenge it made** (3.5.2): the challenged hand, shown to it alone; the
  cards of it that seat has not played since are known to be in that hand;
- **a challenge's verdict** ``honest`` (seen by all): the challenged seat held no
  card of the colour in force before its Wild Draw Four (3.5.3), so, until it
  draws again, its hand holds none;
- **a pass** (3.11.6): the seat had no playable card (on that colour and top) and,
  until it draws, holds none.

Its own draws are in its hand (the view), and a Wild's named colour is public.
Anything inconsistent (the pile's size is not the view's, a seat's constraint
leaves too few cards) drops that knowledge rather than sample impossible worlds:
the bot gets weaker, never wrong.

A world is a full engine state (:class:`..rules.KartuTerakhirState`) with the
seat's own hand, the true top card, colour, direction, counts and pending
penalty, and the unknown cards dealt at random (respecting the constraints) to
the other hands, the stock and the pile under the top card. It is built with the
engine's own blank state, so every rule in a rollout is the engine's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

from meja.rules.rng import Rng

from .. import rules as R
from ..rules import KartuTerakhirState, KartuTerakhirView, Phase
from .common import COLOUR, IDS_OF, NAMEIX, NAMEIX_OF, PLAYABLE, SYM, History, colour_of_letter

__all__ = ["InfoSet", "read_infoset"]

_NAMES: Final = len(IDS_OF)


def _name(text: object) -> int:
    return NAMEIX_OF.get(text, -1) if isinstance(text, str) else -1


@dataclass
class InfoSet:
    """The seat's knowledge: see the module docstring. ``pool`` is the unknown card ids."""

    view: KartuTerakhirView
    me: int
    pool: list[int]
    #: card ids known to be in each hand (other seats), and per seat a mask of ids it cannot hold (None: none)
    known: list[list[int]]
    banned: list[bytes | None]
    #: the pile under the top card: ids (None: only its size is known, dealt from the pool)
    under: list[int] | None
    consistent: bool = True
    notes: list[str] = field(default_factory=list)

    def sample(self, rnd: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
        """Hands (own hand as seen), stock and the pile under the top, dealt at random from the pool."""
        view = self.view
        counts = view.hand_counts
        pool = list(self.pool)
        rnd.shuffle(pool)
        hands: list[list[int]] = [[] for _ in range(view.seats)]
        assert view.hand is not None
        hands[self.me] = list(view.hand)
        under: list[int]
        if self.under is None:
            k = view.discard_count - 1
            under, pool = pool[:k], pool[k:]
        else:
            under = list(self.under)
        order = sorted(
            (s for s in range(view.seats) if s != self.me), key=lambda s: 0 if self.banned[s] is not None else 1
        )
        for s in order:
            need = counts[s] - len(self.known[s])
            hand = list(self.known[s])
            mask = self.banned[s]
            if mask is None:
                hand += pool[:need]
                pool = pool[need:]
            else:
                rest: list[int] = []
                for c in pool:
                    if need and not mask[c]:
                        hand.append(c)
                        need -= 1
                    else:
                        rest.append(c)
                pool = rest
                if need:  # too few allowed cards: drop the constraint for this world
                    hand += pool[:need]
                    pool = pool[need:]
            hands[s] = hand
        return hands, pool, under

    def world(self, rnd: random.Random, seed: int) -> KartuTerakhirState:
        """A sampled world as an engine state, the seat on turn to act (reshuffles from ``seed``)."""
        hands, stock, under = self.sample(rnd)
        view = self.view
        state = R._blank(view.options, view.seats, Rng(seed, "match"))
        me = self.me
        called = view.called if view.called is not None and view.called == me else -1
        state.__dict__.update(
            version=view.version,
            phase=Phase.PLAY,
            round=view.round,
            dealer=view.dealer,
            seed=seed,
            hands=tuple(tuple(sorted(h)) for h in hands),
            stock=tuple(stock),
            discard=(*under, view.top),
            colour=view.colour,
            direction=view.direction,
            turn=view.turn,
            turn_v=view.version,
            drawn=-1 if view.drawn is None else view.drawn,
            pending=view.pending,
            called=called,
            scores=view.scores,
        )
        return state


def read_infoset(view: KartuTerakhirView, history: History) -> InfoSet:
    """What ``view.seat`` knows (see the module docstring)."""
    assert view.seat is not None and view.hand is not None
    me = view.seat
    n = view.seats
    pile: list[int] = []  # name indexes, bottom to top
    known: list[list[int]] = [[] for _ in range(n)]  # name indexes
    banned: list[bytes | None] = [None] * n
    colour = -1
    last_colour_before_wd4 = -1
    ok = True
    for e in history:
        kind = e.get("kind")
        if kind == "round_start":
            pile = [_name(e.get("starter"))]
            colour = colour_of_letter(e.get("colour"))
            known = [[] for _ in range(n)]
            banned = [None] * n
        elif kind == "play":
            card = _name(e.get("card"))
            seat = e.get("seat")
            if card < 0 or not isinstance(seat, int) or not 0 <= seat < n:
                ok = False
                continue
            if card == NAMEIX_OF["WD4"]:
                last_colour_before_wd4 = colour
            pile.append(card)
            colour = colour_of_letter(e.get("colour"))
            if seat != me and card in known[seat]:
                known[seat].remove(card)
        elif kind == "reshuffle":
            pile = pile[-1:]
        elif kind == "draw":
            seat = e.get("seat")
            if isinstance(seat, int) and 0 <= seat < n and seat != me:
                banned[seat] = None
        elif kind == "shown":
            seat = e.get("seat")
            cards = e.get("cards")
            if isinstance(seat, int) and 0 <= seat < n and seat != me and isinstance(cards, list):
                known[seat] = [c for c in (_name(x) for x in cards) if c >= 0]
        elif kind == "challenge":
            target = e.get("target")
            if e.get("verdict") == "honest" and isinstance(target, int) and 0 <= target < n and target != me:
                if 0 <= last_colour_before_wd4 < 4:
                    ban = bytes(1 if COLOUR[c] == last_colour_before_wd4 else 0 for c in range(len(COLOUR)))
                    banned[target] = _or(banned[target], ban)
        elif kind == "pass":
            seat = e.get("seat")
            c = colour_of_letter(e.get("colour"))
            t = _name(e.get("top"))
            if isinstance(seat, int) and 0 <= seat < n and seat != me and c >= 0 and t >= 0:
                banned[seat] = _or(banned[seat], PLAYABLE[c * 15 + SYM[IDS_OF[t][0]]])
    # Ids: own hand and the true top card are exact; the rest by name.
    if ok:
        built = _build(view, me, pile, known, banned)
        if built is not None:
            return built
    return _build(view, me, None, [[] for _ in range(n)], [None] * n) or InfoSet(
        view, me, [], [[] for _ in range(n)], [None] * n, None, False
    )


def _build(
    view: KartuTerakhirView,
    me: int,
    pile: list[int] | None,
    known: list[list[int]],
    banned: list[bytes | None],
) -> InfoSet | None:
    """The infoset from what was read (``pile`` None: the pile's cards are unknown); None if the
    counts do not add up."""
    assert view.hand is not None
    n = view.seats
    free: list[list[int]] = [list(ids) for ids in IDS_OF]
    for c in view.hand:
        free[NAMEIX[c]].remove(c)
    if view.top not in free[NAMEIX[view.top]]:
        return None
    free[NAMEIX[view.top]].remove(view.top)
    under: list[int] | None = None
    if pile is not None:
        if len(pile) != view.discard_count or pile[-1] != NAMEIX[view.top]:
            return None
        under = []
        for name in pile[:-1]:
            if not free[name]:
                return None
            under.append(free[name].pop())
    known_ids: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if s == me:
            continue
        ids: list[int] = []
        for name in known[s]:
            if free[name]:
                ids.append(free[name].pop())
        if len(ids) > view.hand_counts[s]:
            return None
        known_ids[s] = ids
    pool = [c for ids in free for c in ids]
    need = sum(view.hand_counts[s] - len(known_ids[s]) for s in range(n) if s != me) + view.stock_count
    if under is None:
        need += view.discard_count - 1
    if need != len(pool):
        return None
    return InfoSet(view, me, pool, known_ids, banned, under, pile is not None)


def _or(a: bytes | None, b: bytes) -> bytes:
    if a is None:
        return b
    return bytes(x | y for x, y in zip(a, b, strict=True))
