"""What one seat knows about the cards it cannot see, rebuilt from its view and history.

The history is the list of wire dicts of the events the seat saw this round
(``round_start``, its ``hand``, ``play``, ``draw``, ``pass``, ``suit``,
``reshuffle``...), read as the rules' typed events
(:mod:`meja.games.crazy_eights.rules.events`): an entry that does not read (an
unknown kind, a field missing or malformed) is skipped, as is one naming a seat
the table does not have. From it the seat knows exactly which cards are in the
discard pile, so the *unknown* cards are the deck less its own hand and the
pile: they are in the other hands (whose sizes it sees) or in the stock.

Each other hand is kept as *groups* of cards acquired together (the deal, then
one per draw), each with a bitmask of the cards it may still hold:

- **void inference** (docs/bots.md: worth about +3 points of share): a seat that
  passed held no card of the active suit, none of the top card's rank and no
  8 (docs/rules/crazy-eights.md 1.4.5), so every group it held then loses those cards.
  Where drawing is allowed only when stuck (``classic``, ``party``: 2.2.3,
  2.3.3) a draw says the same of the cards held before it; in ``house`` a draw
  may be voluntary (1.4.3), and is read as "stuck" only with
  ``draws_reveal=True`` (the hard bot's choice, see :mod:`meja.bots.search`),
  and never again for a seat once that reading has been contradicted.
- ``classic`` with forced play: a drawn card that was not played was not legal.
- a ``classic`` starter 8 buried into the stock (2.2.2) is in no hand.
- a reshuffle (1.5) moves known cards into the stock: the groups held before it
  cannot contain them, and later draws come only from them.

A played card is taken from the most restrictive group that allows it: the
groups' masks are nested (older groups have met every constraint younger ones
met), so this keeps the true hand consistent with the remaining groups.

Anything inconsistent with the view (a count that does not add up, a card no
group allows) drops the constraints of that seat rather than sample impossible
worlds: the bot gets weaker, never wrong.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Final

from meja.bots.infoset import weighted_draw

from ..rules import CrazyEightsView, Phase
from ..rules.events import EVENTS, Draw, Pass, Play, Reshuffle, RoundStart, SuitChosen, Turn
from .common import History, hand_mask
from .sim import follow_mask, greedy_play, greedy_suit
from .tables import ALL_CARDS, EIGHT, EIGHTS, RANK, bits, deck_mask, stuck_mask

__all__ = ["MAX_OBSERVED", "InfoSet", "Observed", "World", "read_infoset"]

#: The most recent plays of each seat that the opponent model checks (older
#: ones say less about the hand now, and each costs time in every world).
MAX_OBSERVED: Final = 12


@dataclass(slots=True)
class Observed:
    """A card another seat chose to play, with what is needed to ask "would greedy have played it?".

    ``held``: the cards it played at or after this decision that it held then
    (known cards); ``groups``: which of its current groups it held then; the
    rest of its hand at the time comes from a world's cards for those groups.
    """

    seat: int
    active: int
    top: int
    card: int
    suit: int
    is_eight: bool
    held: int
    groups: list[int]
    #: the cards that could be played then (1.3.1)
    follow: int = 0


@dataclass(slots=True)
class World:
    """One sampled deal of the unknown cards: every hand, the stock (drawn from the end), the pile below the top."""

    hands: list[int]
    stock: list[int]
    disc: int
    #: per seat, the cards given to each of its groups (aligned with ``InfoSet.groups``)
    parts: list[list[int]] = field(default_factory=list)
    #: how many worlds were drawn to get this one (:meth:`InfoSet.sample_likely`)
    tries: int = 1


@dataclass(slots=True)
class InfoSet:
    """The seat's knowledge: its hand, the pile, and constrained groups for every other hand."""

    seat: int
    seats: int
    hand: int
    #: the discard pile, top card included, as far as the history shows it
    pile: int
    top: int
    #: cards nobody at the table has seen placed: in other hands or the stock
    unknown: int
    #: per seat, a list of [count, allowed mask, index of the event that dealt or drew it]
    #: (empty for the seat itself)
    groups: list[list[list[int]]]
    stock_count: int
    #: pile cards below the top whose identity the history did not show (0 with a full history)
    hidden_pile: int = 0
    #: seats whose constraints were dropped as inconsistent
    reset_seats: list[int] = field(default_factory=list)
    #: the other seats' free choices of card, for :meth:`surprise`
    observed: list[Observed] = field(default_factory=list)
    #: the unknown cards and the order in which groups are filled, computed once
    _cache: list[tuple[list[int], list[tuple[int, int, int, int]]] | None] = field(default_factory=lambda: [None])

    def sample(self, rnd: random.Random) -> World:
        """A world consistent with the constraints: every group filled from the cards it allows.

        The unknown cards are put in random order (a Fisher-Yates shuffle, done
        lazily from the front so that a world the opponent model rejects costs
        only the cards the hands took); the most constrained groups take, in
        that order, the first cards they allow; the rest, in the same order, is
        the stock (and any hidden pile cards). A group that cannot be filled
        (constraints that contradict each other) takes any card.
        """
        return self._finish(rnd, *self._deal(rnd))

    def _deal(self, rnd: random.Random) -> tuple[list[int], int, int, list[list[int]]]:
        """Fill the groups: (the pool in its partly shuffled order, how much of it is shuffled, taken, parts)."""
        cached = self._cache[0]
        if cached is None:
            order = []
            for s, gs in enumerate(self.groups):
                for gi, (count, allowed, _) in enumerate(gs):
                    order.append(((allowed & self.unknown).bit_count() - count, s, gi, count, allowed))
            order.sort()
            cached = self._cache[0] = (bits(self.unknown), [(s, gi, c, a) for _, s, gi, c, a in order])
        base, plan = cached
        pool = list(base)
        n = len(pool)
        done = 0  # pool[:done] is in its final random order
        taken = 0
        parts: list[list[int]] = [[0] * len(gs) for gs in self.groups]
        random_ = rnd.random
        for s, gi, count, allowed in plan:
            got = 0
            part = 0
            p = 0
            while got < count and p < n:
                if p == done:
                    j = p + int(random_() * (n - p))
                    pool[p], pool[j] = pool[j], pool[p]
                    done += 1
                bit = 1 << pool[p]
                if allowed & bit and not taken & bit:
                    part |= bit
                    taken |= bit
                    got += 1
                p += 1
            if got < count:
                for c in pool:
                    bit = 1 << c
                    if not taken & bit:
                        part |= bit
                        taken |= bit
                        got += 1
                        if got == count:
                            break
            parts[s][gi] = part
        return pool, done, taken, parts

    def _finish(self, rnd: random.Random, pool: list[int], done: int, taken: int, parts: list[list[int]]) -> World:
        n = len(pool)
        random_ = rnd.random
        for p in range(done, n - 1):
            j = p + int(random_() * (n - p))
            pool[p], pool[j] = pool[j], pool[p]
        hands = [0] * self.seats
        for s, ps in enumerate(parts):
            for part in ps:
                hands[s] |= part
        hands[self.seat] = self.hand
        rest = [c for c in pool if not taken >> c & 1]
        disc = self.pile & ~(1 << self.top)
        if self.hidden_pile:
            for c in rest[: self.hidden_pile]:
                disc |= 1 << c
            rest = rest[self.hidden_pile :]
        return World(hands, rest, disc, parts)

    def sample_likely(self, rnd: random.Random, eps: float, tries: int) -> World:
        """A world drawn by :meth:`sample` and kept with probability ``eps ** surprise``
        (:func:`meja.bots.infoset.weighted_draw`).

        The opponent model: the others are taken to play roughly like greedy, so a
        world in which greedy would have played otherwise than they did is
        ``eps`` times less likely per difference. Soft, so that a person who
        plays differently only blunts the inference. After ``tries`` draws the
        least surprising one is kept. Only the hands are dealt before the world
        is judged; the stock is shuffled for the world kept.
        """
        observed = self.observed

        def surprise(dealt: tuple[list[int], int, int, list[list[int]]]) -> int:
            return self.surprise_of(dealt[3], 4)

        dealt, t = weighted_draw(self._deal, surprise if observed else None, rnd, eps, tries)
        w = self._finish(rnd, *dealt)
        w.tries = t
        return w

    def surprise(self, world: World) -> int:
        """How many observed choices of the other seats greedy would not have made in ``world``.

        The hand a seat held at a decision is rebuilt from the world: the groups it
        had acquired by then, plus the cards it has played since that it already
        held (known). See :class:`Observed`.
        """
        return self.surprise_of(world.parts)

    def surprise_of(self, parts: list[list[int]], limit: int = 1 << 30) -> int:
        """:meth:`surprise` given only the cards dealt to each group, counted up to ``limit``."""
        count = 0
        for ob in self.observed:
            h = ob.held
            part = parts[ob.seat]
            for gi in ob.groups:
                h |= part[gi]
            playable = h & ob.follow
            if ob.is_eight:
                # greedy plays an 8 only with no other card playable, and calls its longest suit
                if playable & ~EIGHTS or greedy_suit(h & ~(1 << ob.card)) != ob.suit:
                    count += 1
            else:
                c, _ = greedy_play(h, playable)
                if c != ob.card:
                    count += 1
            if count >= limit:
                break
        return count

    def true_world_check(self, hands: list[int]) -> bool:
        """Whether real hands satisfy the groups (tests use it: inference must never exclude the truth)."""
        for s, gs in enumerate(self.groups):
            if s == self.seat:
                continue
            # Nested groups: assign the most restrictive first, greedily.
            h = hands[s] & self.unknown
            if h.bit_count() != sum(g[0] for g in gs):
                return False
            for count, allowed, _ in sorted(gs, key=lambda g: g[1].bit_count()):
                fit = h & allowed
                if fit.bit_count() < count:
                    return False
                for _ in range(count):
                    low = fit & -fit
                    fit ^= low
                    h ^= low
        return True


def read_infoset(view: CrazyEightsView, history: History, draws_reveal: bool = False) -> InfoSet:
    """Rebuild :class:`InfoSet` for ``view.seat`` from the events it saw (see the module docstring)."""
    assert view.seat is not None and view.hand is not None
    me = view.seat
    n = view.seats
    opts = view.options
    stuck_only = opts.draw_only_when_stuck
    forced_drawn = opts.after_draw == "drawn" and opts.drawn_card_play == "forced"
    deck = deck_mask(opts.decks(n))
    groups: list[list[list[int]]] = [[] for _ in range(n)]
    # Per seat: (event index, card, creation index of the group it came from, active, top, suit, free)
    plays: list[list[tuple[int, int, int, int, int, int, bool]]] = [[] for _ in range(n)]
    pile = 0
    top: int = -1
    active: int = 0
    stock_allowed = ALL_CARDS
    reset: set[int] = set()
    trust_draws = [draws_reveal] * n
    pending_draw = -1  # a classic forced draw whose card has not been played yet
    started = False

    def restrict(s: int, mask: int) -> None:
        for g in groups[s]:
            g[1] &= ~mask

    for idx, e in enumerate(EVENTS.read(history)):
        if isinstance(e, RoundStart):
            counts = e.hand_counts
            if len(counts) != n:
                started = False  # not this table's deal: no usable history until the next one
                continue
            started = True
            top = e.starter
            active = e.active_suit
            pile = 1 << top
            stock_allowed = ALL_CARDS
            buried = 0
            for b in e.buried:
                buried |= 1 << b
            # 2.2.2: a buried starter 8 went back into the stock after the deal.
            groups = [[] if s == me else [[counts[s], ALL_CARDS & ~buried, idx]] for s in range(n)]
            plays = [[] for _ in range(n)]
            reset = set()
            pending_draw = -1
        elif not started:
            continue
        elif isinstance(e, Play):
            s = e.seat
            if not 0 <= s < n:
                continue
            c: int = e.card
            if s != me:
                gs = groups[s]
                if e.drawn and pending_draw == s and gs and gs[-1][0] == 1:
                    gs.pop()  # classic: the card just drawn was played for the seat
                else:
                    fits = [g for g in gs if g[1] >> c & 1]
                    if fits:
                        g = min(fits, key=lambda g: g[1].bit_count())
                    else:
                        # The constraints were wrong (a voluntary draw read as stuck?): drop them.
                        trust_draws[s] = False
                        reset.add(s)
                        total = sum(g[0] for g in gs)
                        gs[:] = [[total, ALL_CARDS, -1]]
                        g = gs[0]
                    g[0] -= 1
                    if g[0] <= 0:
                        gs.remove(g)
                    suit = -1 if e.suit is None else e.suit
                    plays[s].append((idx, c, g[2], active, top, suit, not e.drawn))
            pending_draw = -1
            pile |= 1 << c
            top = c
            active = e.active_suit
        elif isinstance(e, Draw):
            s = e.seat
            if s != me and 0 <= s < n:
                if stuck_only or trust_draws[s]:
                    restrict(s, stuck_mask(active, top))  # 2.2.3, 2.3.3: drew, so was stuck
                groups[s].append([1, stock_allowed, idx])
                pending_draw = s if forced_drawn else -1
        elif isinstance(e, Reshuffle):
            moved = pile & ~(1 << top)
            for s in range(n):
                restrict(s, moved)  # 1.5.2: those cards were in the pile, not in a hand
            stock_allowed = moved
            pile = 1 << top
        elif isinstance(e, Pass):
            s = e.seat
            if s != me and 0 <= s < n and not e.kept:
                restrict(s, stuck_mask(e.active_suit, e.top))  # 1.4.5
            pending_draw = -1
        elif isinstance(e, SuitChosen):
            active = e.active_suit
        elif isinstance(e, Turn) and pending_draw >= 0:
            # classic forced (2.2.3): the drawn card was not played, so it was not legal.
            gs = groups[pending_draw]
            if gs and gs[-1][0] == 1:
                gs[-1][1] &= ~stuck_mask(active, top)
            pending_draw = -1

    hand = hand_mask(view)
    top = int(view.top)
    if not started or not pile >> top & 1 or pile.bit_count() > view.discard_count:
        pile = 1 << top  # no usable history: only the top card of the pile is known
    hidden_pile = view.discard_count - pile.bit_count()
    unknown = deck & ~hand & ~pile
    observed: list[Observed] = []
    for s in range(n):
        if s == me:
            groups[s] = []
            continue
        count = view.hand_counts[s]
        gs = [g for g in groups[s] if g[0] > 0]
        if not started or sum(g[0] for g in gs) != count or hidden_pile:
            gs = [[count, ALL_CARDS, -1]] if count else []
            reset.add(s)
        groups[s] = gs
        if s in reset:
            continue
        first = max(0, len(plays[s]) - MAX_OBSERVED)
        for k, (idx, c, _, act, tp, suit, free) in enumerate(plays[s]):
            if not free or k < first:
                continue
            held = 0
            for idx2, c2, created2, *_ in plays[s][k:]:
                if created2 < idx or idx2 == idx:
                    held |= 1 << c2
            observed.append(
                Observed(
                    seat=s,
                    active=act,
                    top=tp,
                    card=c,
                    suit=suit,
                    is_eight=RANK[c] == EIGHT,
                    held=held,
                    groups=[gi for gi, g in enumerate(gs) if g[2] < idx],
                    follow=follow_mask(act, tp),
                )
            )
    return InfoSet(
        seat=me,
        seats=n,
        hand=hand,
        pile=pile,
        top=top,
        unknown=unknown,
        groups=groups,
        stock_count=view.stock_count,
        hidden_pile=hidden_pile,
        reset_seats=sorted(reset) if started else [],
        observed=observed,
    )


def phase_is_play(view: CrazyEightsView) -> bool:
    return view.phase == Phase.PLAY
