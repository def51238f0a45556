"""The ``hard`` level: bids, names trumps and plays by simulating worlds consistent with what its seat saw.

Every decision with a real choice is the same loop: sample a world
(:mod:`.worlds`), play each candidate in it to the end of the hand with the
``normal`` policy at every seat (:func:`.sim.playout`, common random numbers:
every candidate meets the same worlds, and the playouts draw nothing), score
the hand as the rules do (4.8: the bidders all or minus the bid, the
defenders what they took) and keep the candidate with the best mean margin
(its team's hand score minus the other's).

- **Auction**: worlds deal the 41 unseen cards to the three other hands and the
  kitty; in each it takes the kitty, names the suit with the best hand-points
  estimate (:func:`.yardstick.estimate`), everyone auto-arranges (the rules'
  own :func:`auto_decision` and :func:`auto_trim`) and the hand is played out.
  From the captured points ``c`` of those worlds, the margin of bidding ``b``
  is the mean of ``score(c, b) - (83 - c)``; it bids the lowest legal bid while
  that margin beats ``defend`` (what a hand defended is worth, a tuned
  constant), or ``defend + partner_gap`` when its partner holds the high bid
  (its partner's bid is a promise too); it never raises its partner's bid
  once both opponents have passed. A forced dealer bids the lowest.
- **Trumps**: the four suits, compared on the same worlds (the 36 unseen cards
  dealt to the others), the bid as it stands.
- **Discard phase**: ``auto_arrange``.
- **Tricks**: every legal card, compared on worlds of :func:`.worlds.play_world`
  (the auction, the kitty if it took it, public shown trumps, the counts
  passed, its partner's trump count, voids shown in play). It knows its
  partner only from its seat number (partners sit opposite, 4.1.1); the
  playouts cooperate the way the ``normal`` policy does. No hidden channel.

**Determinism and the deadline.** Randomness comes only from the
:class:`~meja.rules.rng.Rng` passed in (one 64-bit word seeds a
``random.Random`` used only through ``random()``). The budget is counted
playouts (``playouts``), so the same inputs give the same action on any
machine; ``deadline`` (CPU seconds of the calling thread) is a safety cap that
stops the search after the last whole world, so p99 decision CPU stays below
80 ms even on a busy machine; ``deadline=None`` is strictly deterministic.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from meja.bots.base import History
from meja.rules.rng import Rng

from ..rules import MAX_BID, Action, Kind
from .common import AUTO, PASS, POINTS, READY, Seen, arrange, read_seen, trick_winner
from .sim import margin, playout
from .worlds import auction_world, play_world, trump_world
from .yardstick import best_suit

__all__ = ["DEADLINE", "PLAYOUTS", "SearchBot"]

#: Playouts per card decision at most (summed over candidates); the auction and the trump call
#: have their own (``bid_playouts``, ``trump_playouts``: a playout there also arranges the discards).
PLAYOUTS: Final = 360
#: CPU seconds after which a search stops at the next whole world.
DEADLINE: Final = 0.060


class SearchBot:
    """Determinized search with common random numbers (see the module docstring)."""

    name = "hard"
    needs_history = True
    blocking = True

    def __init__(
        self,
        playouts: int = PLAYOUTS,
        bid_playouts: int = 100,
        trump_playouts: int = 240,
        deadline: float | None = DEADLINE,
        defend: float = -25.0,
        partner_gap: float = 20.0,
        name: str = "hard",
    ) -> None:
        self.playouts = playouts
        self.bid_playouts = bid_playouts
        self.trump_playouts = trump_playouts
        self.deadline = deadline
        self.defend = defend
        self.partner_gap = partner_gap
        self.name = name
        #: worlds of the last search (for tests and tuning; never used to decide)
        self.last_worlds = 0

    # ------------------------------------------------------------------ entry

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        phase = view.data["phase"]
        if phase in ("discard", "trim"):
            return AUTO
        if phase not in ("auction", "trump", "play"):
            return READY if READY in legal else legal[0]
        if len(legal) == 1:
            return legal[0]
        seed, _ = rng.bits(64)
        rnd = random.Random(seed)
        seen = read_seen(view, history)
        if phase == "auction":
            return self.bid(seen, legal, rnd)
        if phase == "trump":
            return Action.trump(self.name_trump(seen, rnd))
        return Action.card(Kind.PLAY, self.play(seen, [a.arg for a in legal], rnd))

    def _clock(self) -> Callable[[], bool]:
        deadline = self.deadline
        if deadline is None:
            return lambda: False
        t0 = time.thread_time()
        return lambda: time.thread_time() - t0 > deadline

    # ------------------------------------------------------------------ worlds (a test's cheater overrides them)

    def auction_world(self, seen: Seen, rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        return auction_world(seen.hand, seen.seat, rnd)

    def trump_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return trump_world(seen.hand, seen.seat, rnd)

    def play_world(self, seen: Seen, rnd: random.Random) -> list[list[int]]:
        return play_world(seen, rnd)

    # ------------------------------------------------------------------ auction

    def bid_margins(self, seen: Seen, bids: Sequence[int], rnd: random.Random) -> list[float]:
        """The mean margin of winning the auction at each of ``bids``, from simulated hands."""
        late = self._clock()
        me = seen.seat
        caps: list[int] = []
        for _ in range(self.bid_playouts):
            hands, kitty = self.auction_world(seen, rnd)
            hands[me] = hands[me] + kitty
            trump = best_suit(hands[me])
            six = arrange(hands, trump)
            gone = {c for c in range(53) if not any(c in h for h in six)}
            caps.append(playout(six, [], me, trump, gone, [0, 0])[me % 2])
            if late():
                break
        self.last_worlds = len(caps)
        n = len(caps)
        return [sum((c if c >= b else -b) - (MAX_BID - c) for c in caps) / n for b in bids]

    def bid(self, seen: Seen, legal: Sequence[Action], rnd: random.Random) -> Action:
        bids = [a for a in legal if a.kind == Kind.BID]
        if PASS not in legal:
            return bids[0]
        if not bids:
            return PASS
        high_seat = next((s for s, b in reversed(seen.calls) if b), -1)
        bar = self.defend
        if high_seat == seen.partner:
            passed = {s for s, b in seen.calls if not b}
            if {(seen.seat + 1) % 4, (seen.seat + 3) % 4} <= passed:
                return PASS  # the partner has the contract and no opponent can take it: do not raise it
            bar += self.partner_gap
        value = self.bid_margins(seen, [bids[0].arg], rnd)[0]
        return bids[0] if value > bar else PASS

    # ------------------------------------------------------------------ trumps

    def name_trump(self, seen: Seen, rnd: random.Random) -> int:
        me = seen.seat
        late = self._clock()
        totals = [0.0] * 4
        worlds = 0
        while worlds * 4 < self.trump_playouts:
            hands = self.trump_world(seen, rnd)
            for t in range(4):
                six = arrange([list(h) for h in hands], t)
                gone = {c for c in range(53) if not any(c in h for h in six)}
                cap = playout(six, [], me, t, gone, [0, 0])
                totals[t] += margin(cap, me % 2, me, seen.bid)
            worlds += 1
            if late():
                break
        self.last_worlds = worlds
        return max(range(4), key=lambda t: (totals[t], -t))

    # ------------------------------------------------------------------ tricks

    def play(self, seen: Seen, cards: list[int], rnd: random.Random) -> int:
        me, trump = seen.seat, seen.trump
        pts = POINTS[trump]
        late = self._clock()
        gone0 = seen.gone()
        totals = [0.0] * len(cards)
        worlds = 0
        base_trick = list(seen.trick)
        while worlds * len(cards) < self.playouts:
            hands = self.play_world(seen, rnd)
            for i, card in enumerate(cards):
                hs = [list(h) for h in hands]
                hs[me].remove(card)
                gone = set(gone0)
                gone.add(card)
                trick = [*base_trick, (me, card)]
                captured = list(seen.points)
                if len(trick) == 4:
                    w = trick_winner(trick, trump)
                    captured[w % 2] += sum(pts[c] for _, c in trick)
                    trick, turn = [], w
                else:
                    turn = (me + 1) % 4
                cap = playout(hs, trick, turn, trump, gone, captured)
                totals[i] += margin(cap, me % 2, seen.bidder, seen.bid)
            worlds += 1
            if late():
                break
        self.last_worlds = worlds
        return cards[max(range(len(cards)), key=lambda i: (totals[i], -i))]
