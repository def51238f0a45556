"""What one seat knows of the cards it cannot see, rebuilt from its view and history, and worlds from it.

The history is the wire dicts of the events the seat saw this round
(``round_start``, its ``hand``, ``play``, ``draw``, ``reshuffle``, ``challenge``,
``shown``, ``pass``...). From it the seat knows the discard pile exactly (the
starter, then every play; a ``reshuffle`` leaves only the top card), so the
*unknown* cards are the deck less its own hand and the pile: they lie in the
other hands (whose sizes it sees) or in the stock.

Each other hand is kept as *groups* of cards acquired together (the deal, then
each draw), each with the card names it may still hold (as in Crazy Eights'
``infoset``):

- **a reshuffle** (3.3.5) makes the pile under the top card the stock: cards
  drawn later come only from those names, until the next reshuffle;
- **a pass** (3.11.6): the seat had no playable card, so no group it held then
  holds one (on that colour and top);
- **a challenge's verdict** ``honest`` (seen by all): the challenged seat held no
  card of the colour in force before its Wild Draw Four (3.5.3);
- **a challenge it made** (3.5.2): the challenged hand, shown to it alone, is
  known exactly (less what that seat has played since);
- **a voluntary draw** is read as "it had nothing to play" (the yardsticks and
  most players draw only when stuck; 3.3.3 allows it at any time): the groups
  held then hold no card playable then;
- **a play** is read as the seed's tips play (3.9.6, the ``greedy`` yardstick and
  ``normal``): a Wild played from the hand means no coloured card played then
  (and a plain Wild, no Wild Draw Four either); a coloured card played from the
  hand, with no penalty pending and nobody at 2 cards or fewer (when the tips
  would rather hurt or steer), means no playable coloured card worth more points.
  These *soft* readings are dropped for a seat for the rest of the round as soon
  as it is contradicted (it plays a card that no group could hold under them):
  against a player who does not play so, the bot falls back to what is certain.

A played card leaves the oldest group that may hold it (the masks are nested:
older groups met every constraint younger ones met), or the newest group when
the play was of the card just drawn. The seat's own draws are in its hand (the
view); a Wild's named colour is public. Anything inconsistent (the pile's size is
not the view's, a hand's groups do not add up) drops that knowledge rather than
sample impossible worlds: the bot gets weaker, never wrong.

A world is a full engine state (:class:`..rules.KartuTerakhirState`) with the
seat's own hand, the true top card, colour, direction, counts and pending
penalty, and the unknown cards dealt at random, group by group (the most
constrained first), to the other hands; the rest is the stock (and, if its cards
are unknown, the pile under the top card). It is built on the engine's own blank
state, so the candidate move is applied by the engine itself (the playout that
follows, :mod:`.playout`, is checked against the engine's rollout).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

from meja.rules.rng import Rng

from .. import rules as R
from ..rules import KartuTerakhirState, KartuTerakhirView, Phase
from .common import IDS_OF, NAME_COLOUR, NAME_POINTS, NAME_SYM, NAMEIX, NAMEIX_OF, PLAYABLE, History, colour_of_letter

__all__ = ["Group", "InfoSet", "read_infoset"]

_NAMES: Final = len(IDS_OF)
_ALL: Final = (1 << _NAMES) - 1
_WD4: Final = NAMEIX_OF["WD4"]
#: per (colour, top name): the names playable then, as a bitmask over name indexes
_PLAYABLE_NAMES: Final = tuple(
    tuple(
        sum(1 << n for n in range(_NAMES) if PLAYABLE[colour * 15 + NAME_SYM[top]][IDS_OF[n][0]])
        for top in range(_NAMES)
    )
    for colour in range(4)
)
_OF_COLOUR_NAMES: Final = tuple(sum(1 << n for n in range(_NAMES) if NAME_COLOUR[n] == c) for c in range(4))


_COLOURED: Final = _ALL & ~((1 << _WD4) | (1 << NAMEIX_OF["W"]))
_PENALTY_SYMS: Final = frozenset((R.DRAW_TWO, R.WILD_DRAW_FOUR))
#: per name: the coloured names worth more points (the tips shed those first)
_DEARER: Final = tuple(
    sum(1 << m for m in range(_NAMES) if NAME_COLOUR[m] < 4 and NAME_POINTS[m] > NAME_POINTS[n]) for n in range(_NAMES)
)


def _tips_exclude(card: int, colour: int, top: int, near: bool) -> int:
    """The names a hand did not hold if it played ``card`` (a name) from the hand on ``colour`` and
    ``top`` as the seed's tips play (see the module docstring); ``near``: someone else was at 2 cards."""
    playable = _PLAYABLE_NAMES[colour][top] & _COLOURED
    if NAME_COLOUR[card] == 4:
        return playable | (1 << _WD4 if card != _WD4 else 0)
    return 0 if near else playable & _DEARER[card]


def _name(text: object) -> int:
    return NAMEIX_OF.get(text, -1) if isinstance(text, str) else -1


@dataclass(slots=True)
class Group:
    """Cards a seat acquired together and still holds: how many, and the names they may be.

    ``hard``: what is certain (not on the pile at a reshuffle, from the stock it was
    drawn from, no card a pass or an honest verdict excludes); ``soft``: what the
    "draws only when stuck" reading adds (names excluded)."""

    count: int
    hard: int
    soft: int = 0


@dataclass
class InfoSet:
    """The seat's knowledge: see the module docstring. ``pool`` is the unknown card ids."""

    view: KartuTerakhirView
    me: int
    pool: list[int]
    #: per seat: card ids known to be in its hand, and its groups as (count, allowed names mask)
    known: list[list[int]]
    groups: list[list[tuple[int, int]]]
    #: the pile under the top card: ids (None: unknown, dealt from the pool)
    under: list[int] | None
    consistent: bool = True
    _plan: tuple[list[tuple[int, int]], list[tuple[int, int, int]]] | None = field(default=None, repr=False)

    def sample(self, rnd: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
        """Hands (own hand as seen), stock and the pile under the top, dealt at random from the pool."""
        view = self.view
        r = rnd.random
        pool = sorted(self.pool, key=lambda _: r())  # a shuffle (random keys: cheaper than rnd.shuffle's)
        hands: list[list[int]] = [list(k) for k in self.known]
        assert view.hand is not None
        hands[self.me] = list(view.hand)
        under: list[int]
        if self.under is None:
            k = view.discard_count - 1
            under, pool = pool[:k], pool[k:]
        else:
            under = list(self.under)
        plan = self._plan
        if plan is None:
            plan = self._plan = self._deal_plan()
        free, constrained = plan
        nameix = NAMEIX
        for s, count, mask in constrained:
            hand = hands[s]
            rest: list[int] = []
            need = count
            for j, c in enumerate(pool):
                if mask >> nameix[c] & 1:
                    hand.append(c)
                    need -= 1
                    if not need:
                        rest += pool[j + 1 :]
                        break
                else:
                    rest.append(c)
            pool = rest
            if need:  # too few allowed cards left: this group is dealt without its constraint
                hand += pool[:need]
                pool = pool[need:]
        for s, count in free:
            hands[s] += pool[:count]
            pool = pool[count:]
        return hands, pool, under

    def _deal_plan(self) -> tuple[list[tuple[int, int]], list[tuple[int, int, int]]]:
        """The groups dealt freely ``(seat, count)`` and the constrained ones ``(seat, count, mask)``, the
        most constrained first."""
        free: list[tuple[int, int]] = []
        constrained: list[tuple[int, int, int, int]] = []
        for s, gs in enumerate(self.groups):
            for count, mask in gs:
                if mask == _ALL:
                    free.append((s, count))
                else:
                    constrained.append((mask.bit_count(), s, count, mask))
        constrained.sort()
        return free, [(s, count, mask) for _, s, count, mask in constrained]

    def lacks(self, seat: int) -> int:
        """A bitmask of the colours ``seat`` holds none of, as far as this seat knows (0: none known)."""
        allowed = 0
        for _, mask in self.groups[seat]:
            allowed |= mask
        for c in self.known[seat]:
            allowed |= 1 << NAMEIX[c]
        if not self.groups[seat] and not self.known[seat]:
            return 0
        return sum(1 << k for k in range(4) if not allowed & _OF_COLOUR_NAMES[k])

    def world(self, rnd: random.Random, seed: int) -> KartuTerakhirState:
        """A sampled world as an engine state, the seat on turn to act (reshuffles from ``seed``)."""
        hands, stock, under = self.sample(rnd)
        view = self.view
        state = R.blank_state(view.options, view.seats, Rng(seed, "match"))
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


def _remove(groups: list[Group], name: int, drawn: bool, reveal: bool) -> tuple[bool, bool]:
    """Take a played card out of a seat's groups: (found, the soft reading still stands)."""
    bit = 1 << name
    g: Group | None
    if drawn and groups and groups[-1].hard & bit:
        g = groups[-1]
    else:
        g = next((g for g in groups if g.count and g.hard & bit and (not reveal or not g.soft & bit)), None)
        if g is None and reveal:
            reveal = False  # contradicted: it was not stuck when it drew
            g = next((g for g in groups if g.count and g.hard & bit), None)
        if g is None:
            return False, reveal
    g.count -= 1
    if not g.count:
        groups.remove(g)
    return True, reveal


def read_infoset(view: KartuTerakhirView, history: History) -> InfoSet:
    """What ``view.seat`` knows (see the module docstring)."""
    assert view.seat is not None and view.hand is not None
    me = view.seat
    n = view.seats
    pile: list[int] = []  # name indexes, bottom to top
    known: list[list[int]] = [[] for _ in range(n)]  # name indexes
    groups: list[list[Group]] = [[] for _ in range(n)]
    reveal = [True] * n
    source = _ALL  # the names the stock may hold (after a reshuffle: the pile it was made of)
    straddle = -1  # right after a reshuffle: the names the draw that caused it may have taken
    colour = -1
    colour_before_wd4 = -1
    counts = [0] * n  # the hand sizes as the history goes
    pending = False  # a Draw Two's or Wild Draw Four's penalty is waiting
    ok = True
    for e in history:
        kind = e.get("kind")
        seat = e.get("seat")
        other = isinstance(seat, int) and 0 <= seat < n and seat != me
        if kind == "round_start":
            pile = [_name(e.get("starter"))]
            colour = colour_of_letter(e.get("colour"))
            dealt = e.get("hand_counts")
            known = [[] for _ in range(n)]
            groups = [[Group(c, _ALL)] if isinstance(c, int) and c else [] for c in (dealt or [0] * n)]
            counts = [c if isinstance(c, int) else 0 for c in (dealt or [0] * n)]
            pending = False
            groups[me] = []
            reveal = [True] * n
            source = _ALL
        elif kind == "play":
            card = _name(e.get("card"))
            if card < 0 or not isinstance(seat, int) or not 0 <= seat < n:
                ok = False
                continue
            if card == _WD4:
                colour_before_wd4 = colour
            top, before = (pile[-1] if pile else -1), colour
            pile.append(card)
            colour = colour_of_letter(e.get("colour"))
            if other:
                assert isinstance(seat, int)
                drawn = bool(e.get("drawn"))
                if card in known[seat]:
                    known[seat].remove(card)
                else:
                    found, reveal[seat] = _remove(groups[seat], card, drawn, reveal[seat])
                    if not found:
                        ok = False
                if reveal[seat] and not drawn and not pending and top >= 0 and 0 <= before < 4:
                    near = any(counts[t] <= 2 for t in range(n) if t != seat)
                    tipped = _tips_exclude(card, before, top, near)
                    for g in groups[seat]:
                        g.soft |= tipped
            if 0 <= seat < n:
                counts[seat] -= 1
            pending = pending or NAME_SYM[card] in _PENALTY_SYMS
        elif kind == "reshuffle":
            moved = 0
            for name in pile[:-1]:
                moved |= 1 << name
            # (The groups held now may still hold other copies of those names: no constraint on them.)
            # A draw that needed the reshuffle took its first cards from the old stock.
            straddle = source | moved
            source = moved
            pile = pile[-1:]
        elif kind == "draw" and other:
            assert isinstance(seat, int)
            count = e.get("count")
            if e.get("reason") == "draw" and pile and 0 <= colour < 4:
                stuck = _PLAYABLE_NAMES[colour][pile[-1]]
                for g in groups[seat]:
                    g.soft |= stuck
            if isinstance(count, int) and count > 0:
                groups[seat].append(Group(count, source if straddle < 0 else straddle))
        elif kind == "shown" and other:
            assert isinstance(seat, int)
            cards = e.get("cards")
            if isinstance(cards, list):
                known[seat] = [c for c in (_name(x) for x in cards) if c >= 0]
                groups[seat] = []
        elif kind == "challenge":
            pending = False
            target = e.get("target")
            honest = e.get("verdict") == "honest" and 0 <= colour_before_wd4 < 4
            if honest and isinstance(target, int) and 0 <= target < n and target != me:
                for g in groups[target]:
                    g.hard &= ~_OF_COLOUR_NAMES[colour_before_wd4]
        elif kind == "pass" and other:
            assert isinstance(seat, int)
            c = colour_of_letter(e.get("colour"))
            t = _name(e.get("top"))
            if c >= 0 and t >= 0:
                for g in groups[seat]:
                    g.hard &= ~_PLAYABLE_NAMES[c][t]
        if kind == "draw":
            straddle = -1
            got = e.get("count")
            if isinstance(seat, int) and 0 <= seat < n and isinstance(got, int):
                counts[seat] += got
            pending = pending and e.get("reason") not in ("penalty", "challenge")
    masks: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s in range(n):
        if s == me:
            continue
        total = len(known[s]) + sum(g.count for g in groups[s])
        if total != view.hand_counts[s] or not ok:
            known[s] = []
            masks[s] = [(view.hand_counts[s], _ALL)] if view.hand_counts[s] else []
            continue
        masks[s] = [(g.count, g.hard & ~g.soft if reveal[s] else g.hard) for g in groups[s] if g.count]
    if ok:
        built = _build(view, me, pile, known, masks)
        if built is not None:
            return built
    plain = [[(view.hand_counts[s], _ALL)] if s != me and view.hand_counts[s] else [] for s in range(n)]
    return _build(view, me, None, [[] for _ in range(n)], plain) or InfoSet(
        view, me, [], [[] for _ in range(n)], plain, None, False
    )


def _build(
    view: KartuTerakhirView,
    me: int,
    pile: list[int] | None,
    known: list[list[int]],
    masks: list[list[tuple[int, int]]],
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
            if not free[name]:
                return None
            ids.append(free[name].pop())
        known_ids[s] = ids
    pool = [c for ids in free for c in ids]
    need = sum(c for s in range(n) for c, _ in masks[s]) + view.stock_count
    if under is None:
        need += view.discard_count - 1
    if need != len(pool):
        return None
    return InfoSet(view, me, pool, known_ids, masks, under, pile is not None)
