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
  With ``exact`` (off by default), a coloured card played from the hand is read by the
  tips' whole order also when a seat is near out (a card that hurts a next seat at 2 cards
  or fewer first, then a colour other than the one a near-out seat made active, then the
  points, then within one colour the lower name), and a card drawn when stuck and not
  played is one that did not play; with ``named`` (off by default), a seat whose last play
  was a Wild named the colour it holds most of (not the one it steered from), and worlds
  are dealt until that seat's hand then fits (at most :data:`NAMED_TRIES` deals).

A played card leaves the oldest group that may hold it, or the newest group when
the play was of the card just drawn. That assumes the masks are nested (older
groups met every constraint younger ones met), which a reshuffle breaks: a group
drawn after it may hold only the names that were in the pile, so the oldest,
widest group can be used up by a card that a younger group could have held,
leaving no group for a later card the younger one cannot hold (a quarter of the
random-play histories of the tests' rounds, all with a reshuffle, then read as
inconsistent: the bot dropped everything it knew). With ``tight`` (off by
default: :class:`.search.SearchBot`'s ``tight``) the card leaves the most
constrained group that may hold it (the fewest names; the oldest of those), and
when no group still holding cards may hold it, the cards played before are
moved between the groups that could have held them when they were played (an
augmenting path of a matching, :func:`_place`): the history reads inconsistent
only when no assignment of the plays to the groups fits. The seat's own draws are in its hand (the
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

from meja.rules.events import EventKinds
from meja.rules.rng import Rng

from .. import rules as R
from ..rules import KartuTerakhirState, KartuTerakhirView, Phase
from ..rules.events import Challenge, Draw, Pass, Play, Reshuffle, RoundStart, Shown
from .common import IDS_OF, NAME_COLOUR, NAME_POINTS, NAME_SYM, NAMEIX, NAMEIX_OF, PLAYABLE, History
from .playout import greedy_colour_of

__all__ = ["Group", "InfoSet", "read_infoset"]

_NAMES: Final = len(IDS_OF)
#: The kinds :func:`read_infoset` folds (``known``: the rest, and anything malformed, is skipped)
_READ: Final = EventKinds(RoundStart, Play, Reshuffle, Draw, Shown, Challenge, Pass)
_ALL: Final = (1 << _NAMES) - 1
#: how many worlds :meth:`InfoSet.sample` deals at most to find one that fits the Wilds' named colours
NAMED_TRIES: Final = 8
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


_HURT_SYMS: Final = frozenset((R.SKIP, R.DRAW_TWO))


def _tips_exact(card: int, colour: int, top: int, threat: bool, avoid: int, seats: int) -> int:
    """``exact``'s :func:`_tips_exclude`: the names a hand did not hold if it played ``card`` (a name) from
    the hand on ``colour`` and ``top`` as greedy's key orders them (:func:`.common.greedy_turn`: a card
    that hurts a next seat at 2 cards or fewer (``threat``), a colour not ``avoid``, more points, then,
    within one colour, the lower name), near-out seats or not."""
    playable = _PLAYABLE_NAMES[colour][top] & _COLOURED
    if NAME_COLOUR[card] == 4:
        return playable | (1 << _WD4 if card != _WD4 else 0)

    def key(name: int) -> tuple[int, int, int]:
        sym = NAME_SYM[name]
        hurts = threat and (sym in _HURT_SYMS or (sym == R.REVERSE and seats == 2))
        return (1 if hurts else 0, 0 if NAME_COLOUR[name] == avoid else 1, NAME_POINTS[name])

    mine = key(card)
    out = 0
    rest = playable
    while rest:
        low = rest & -rest
        m = low.bit_length() - 1
        rest ^= low
        k = key(m)
        if k > mine or (k == mine and NAME_COLOUR[m] == NAME_COLOUR[card] and m < card):
            out |= low
    return out


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
    #: ``named``'s readings: (seat, the colour its last play, a Wild, named, the colour it steered from
    #: then, how many of its groups (the first) it held then): greedy names the colour it holds most
    named: list[tuple[int, int, int, int]] = field(default_factory=list)
    #: how many deals the last :meth:`sample` took (more than 1 only with ``named`` readings)
    tries: int = 1
    _plan: tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]] | None = field(default=None, repr=False)

    def sample(self, rnd: random.Random) -> tuple[list[list[int]], list[int], list[int]]:
        """Hands (own hand as seen), stock and the pile under the top, dealt at random from the pool;
        with ``named`` readings, the first of :data:`NAMED_TRIES` deals in which each such seat's hand then
        makes greedy name the colour it named (else the last one dealt)."""
        if not self.named:
            self.tries = 1
            return self._deal(rnd, None)
        tries = 0
        while True:
            tries += 1
            old: dict[int, list[int]] = {s: list(self.known[s]) for s, _, _, _ in self.named}
            hands, stock, under = self._deal(rnd, old)
            if tries >= NAMED_TRIES or all(greedy_colour_of(old[s], avoid) == k for s, k, avoid, _ in self.named):
                break
        self.tries = tries
        return hands, stock, under

    def _deal(
        self, rnd: random.Random, old: dict[int, list[int]] | None
    ) -> tuple[list[list[int]], list[int], list[int]]:
        """One deal (see :meth:`sample`); ``old``: per seat with a ``named`` reading, the cards dealt to
        the groups it held when it named its colour are added to its list."""
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
        held = {s: g for s, _, _, g in self.named} if old is not None else {}
        for s, count, mask, gi in constrained:
            hand = hands[s]
            start = len(hand)
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
            if old is not None and gi < held.get(s, 0):
                old[s] += hand[start:]
        for s, count, gi in free:
            hands[s] += pool[:count]
            if old is not None and gi < held.get(s, 0):
                old[s] += pool[:count]
            pool = pool[count:]
        return hands, pool, under

    def _deal_plan(self) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int, int]]]:
        """The groups dealt freely ``(seat, count, group index)`` and the constrained ones ``(seat, count,
        mask, group index)``, the most constrained first."""
        free: list[tuple[int, int, int]] = []
        constrained: list[tuple[int, int, int, int, int]] = []
        for s, gs in enumerate(self.groups):
            for gi, (count, mask) in enumerate(gs):
                if mask == _ALL:
                    free.append((s, count, gi))
                else:
                    constrained.append((mask.bit_count(), s, count, mask, gi))
        constrained.sort()
        return free, [(s, count, mask, gi) for _, s, count, mask, gi in constrained]

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


@dataclass(slots=True)
class _Placed:
    """A card a seat played (``tight``): the groups that could have held it then, and the one it left."""

    could: list[Group]
    group: Group


def _place(groups: list[Group], placed: list[_Placed], name: int, drawn: bool, reveal: bool) -> tuple[bool, bool]:
    """``tight``'s :func:`_remove`: take a played card out of the most constrained group that may hold it,
    or make room for it by moving earlier plays to other groups that could have held them; ``groups``
    keeps its used-up groups (count 0) for that. (found, the soft reading still stands)."""
    bit = 1 << name
    newest = groups[-1] if drawn and groups and groups[-1].hard & bit and groups[-1].count else None
    could = [newest] if newest is not None else [g for g in groups if g.hard & bit]
    held = [g for g in could if g.count]
    fits = [g for g in held if not g.soft & bit] if reveal else held
    if not fits and reveal:
        reveal = False  # contradicted: it was not stuck when it drew
        fits = held
    g = min(fits, key=lambda g: g.hard.bit_count(), default=None)
    if g is None:
        g = _make_room(could, placed)
        if g is None:
            return False, reveal
    g.count -= 1
    placed.append(_Placed(could, g))
    return True, reveal


def _make_room(could: list[Group], placed: list[_Placed]) -> Group | None:
    """One of ``could`` (all used up) given a card back by moving earlier plays along an augmenting
    path (Kuhn's matching: each play to a group that could have held it then); None if there is none."""
    seen: set[int] = set()

    def free(g: Group) -> bool:
        for p in placed:
            if p.group is not g:
                continue
            for h in p.could:
                if id(h) in seen:
                    continue
                seen.add(id(h))
                if h.count or free(h):
                    h.count -= 1
                    g.count += 1
                    p.group = h
                    return True
        return False

    for g in could:
        if id(g) not in seen:
            seen.add(id(g))
            if free(g):
                return g
    return None


def read_infoset(
    view: KartuTerakhirView, history: History, tight: bool = False, exact: bool = False, named: bool = False
) -> InfoSet:
    """What ``view.seat`` knows (see the module docstring; ``tight``: how a played card leaves the
    groups). ``exact``: a coloured card played from the hand is read by greedy's whole key
    (:func:`_tips_exact`) also when a seat is near out, where the default reads nothing. ``named``: a
    seat whose last play was a Wild named the colour it held most of (not the one it steered from):
    :meth:`InfoSet.sample` deals worlds that fit it."""
    assert view.seat is not None and view.hand is not None
    me = view.seat
    n = view.seats
    pile: list[int] = []  # name indexes, bottom to top
    known: list[list[int]] = [[] for _ in range(n)]  # name indexes
    groups: list[list[Group]] = [[] for _ in range(n)]
    placed: list[list[_Placed]] = [[] for _ in range(n)]  # with ``tight``: each seat's plays from its groups
    reveal = [True] * n
    source = _ALL  # the names the stock may hold (after a reshuffle: the pile it was made of)
    straddle = -1  # right after a reshuffle: the names the draw that caused it may have taken
    colour = -1
    colour_before_wd4 = -1
    direction = 1
    made = [-1] * n  # per seat: the colour its last play made active
    wild_of: list[tuple[int, int, set[int]] | None] = [None] * n  # ``named``: (colour, avoid, groups held)
    counts = [0] * n  # the hand sizes as the history goes
    pending = False  # a Draw Two's or Wild Draw Four's penalty is waiting
    ok = True
    kept: tuple[int, Group, int] | None = None  # ``exact``: a card drawn when stuck, its seat's turn not over
    for e in _READ.known(history):
        # ``other``: a seat at the table other than this one (a seat outside it: a bad history)
        seat = getattr(e, "seat", -1)
        on_table = 0 <= seat < n
        other = on_table and seat != me
        if kept is not None and (type(e) is not Play or e.seat != kept[0] or not e.drawn):
            kept[1].soft |= kept[2]  # the card drawn was not played: greedy plays one that plays (3.3.4)
        if type(e) in (Play, Draw, RoundStart, Shown):
            kept = None
        if type(e) is RoundStart:
            if len(e.hand_counts) != n:
                ok = False  # a bad history: its deal does not fit the table
                continue
            pile = [e.starter]
            colour = e.colour
            direction = e.direction
            made = [-1] * n
            wild_of = [None] * n
            known = [[] for _ in range(n)]
            groups = [[Group(c, _ALL)] if c else [] for c in e.hand_counts]
            counts = list(e.hand_counts)
            pending = False
            groups[me] = []
            placed = [[] for _ in range(n)]
            reveal = [True] * n
            source = _ALL
        elif type(e) is Play:
            if not on_table:
                ok = False
                continue
            card = e.card
            if card == _WD4:
                colour_before_wd4 = colour
            top, before = (pile[-1] if pile else -1), colour
            pile.append(card)
            colour = e.colour
            threat, avoid = False, -1
            if exact or named:
                nxt = (seat + direction) % n
                threat = nxt != seat and counts[nxt] <= 2
                for step in range(1, n):
                    t = (seat + step * direction) % n
                    if counts[t] <= 2:
                        avoid = made[t]
                        break
            if other:
                drawn = e.drawn
                if card in known[seat]:
                    known[seat].remove(card)
                else:
                    if tight:
                        found, reveal[seat] = _place(groups[seat], placed[seat], card, drawn, reveal[seat])
                    else:
                        found, reveal[seat] = _remove(groups[seat], card, drawn, reveal[seat])
                    if not found:
                        ok = False
                if reveal[seat] and not drawn and not pending and top >= 0 and 0 <= before < 4:
                    if exact:
                        tipped = _tips_exact(card, before, top, threat, avoid, n)
                    else:
                        near = any(counts[t] <= 2 for t in range(n) if t != seat)
                        tipped = _tips_exclude(card, before, top, near)
                    for g in groups[seat]:
                        g.soft |= tipped
                wild_of[seat] = None
                if named and NAME_COLOUR[card] == 4 and 0 <= e.colour < 4:
                    wild_of[seat] = (e.colour, avoid, {id(g) for g in groups[seat]})
            made[seat] = e.colour
            if NAME_SYM[card] == R.REVERSE:
                direction = -direction
            counts[seat] -= 1
            pending = pending or NAME_SYM[card] in _PENALTY_SYMS
        elif type(e) is Reshuffle:
            moved = 0
            for name in pile[:-1]:
                moved |= 1 << name
            # (The groups held now may still hold other copies of those names: no constraint on them.)
            # A draw that needed the reshuffle took its first cards from the old stock.
            straddle = source | moved
            source = moved
            pile = pile[-1:]
        elif type(e) is Draw:
            count = e.count
            if other:
                if e.reason == "draw" and pile and 0 <= colour < 4:
                    stuck = _PLAYABLE_NAMES[colour][pile[-1]]
                    for g in groups[seat]:
                        g.soft |= stuck
                if count > 0:
                    groups[seat].append(Group(count, source if straddle < 0 else straddle))
                    if exact and e.reason == "draw" and pile and 0 <= colour < 4:
                        kept = (seat, groups[seat][-1], _PLAYABLE_NAMES[colour][pile[-1]])
            straddle = -1
            if on_table:
                counts[seat] += count
            pending = pending and e.reason not in ("penalty", "challenge")
        elif type(e) is Shown:
            if other:
                known[seat] = list(e.cards)
                groups[seat] = []
                placed[seat] = []
                wild_of[seat] = None
        elif type(e) is Challenge:
            pending = False
            target = e.target
            honest = e.verdict == "honest" and 0 <= colour_before_wd4 < 4
            if honest and 0 <= target < n and target != me:
                for g in groups[target]:
                    g.hard &= ~_OF_COLOUR_NAMES[colour_before_wd4]
        elif type(e) is Pass and other:
            for g in groups[seat]:
                g.hard &= ~_PLAYABLE_NAMES[e.colour][e.top]
    if kept is not None and kept[0] != view.turn:
        kept[1].soft |= kept[2]
    masks: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    readings: list[tuple[int, int, int, int]] = []
    for s in range(n):
        if s == me:
            continue
        total = len(known[s]) + sum(g.count for g in groups[s])
        if total != view.hand_counts[s] or not ok:
            known[s] = []
            masks[s] = [(view.hand_counts[s], _ALL)] if view.hand_counts[s] else []
            continue
        masks[s] = [(g.count, g.hard & ~g.soft if reveal[s] else g.hard) for g in groups[s] if g.count]
        w = wild_of[s]
        if w is not None and reveal[s]:
            then = sum(1 for g in groups[s] if g.count and id(g) in w[2])
            readings.append((s, w[0], w[1], then))
    if ok:
        built = _build(view, me, pile, known, masks)
        if built is not None:
            built.named = readings
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
