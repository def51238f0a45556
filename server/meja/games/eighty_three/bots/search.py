"""The ``hard`` level: bids, names trumps and plays by simulating worlds consistent with what its seat saw.

Every decision with a real choice is the same loop: sample a world
(:mod:`.worlds`), play each candidate in it to the end of the hand with the
``normal`` policy at every seat (:func:`.sim.playout`, common random numbers:
every candidate meets the same worlds, and the playouts draw nothing), score
the hand as the rules do (4.8: the bidders all or minus the bid, the
defenders what they took) and keep the candidate with the best mean margin
(its team's hand score minus the other's).

- **Auction** (:mod:`.auction`): the calls made so far are evidence. Worlds
  deal the 41 unseen cards at random (``bid_draws`` of them) and are drawn
  again by how likely the other seats' calls are in each (a seat bids while
  its best hand-points estimate plus ``boldness`` covers the bid, softly:
  ``spread``), so the trumps go with the bidders and away from the passers. On
  those worlds it compares limits (pass, or bid the lowest bid while it is at
  most the lowest legal bid plus each of ``limits``), the rest of the auction
  played by the same model, the contract's winner taking the kitty, naming its
  best suit, everyone auto-arranging and the hand played out. A pass that
  leaves a forced dealer (4.5.5) a hopeless contract is valued by that search
  too. How boldly the others bid is uncertain: each world draws every seat's
  boldness from ``boldness`` give or take ``style_spread`` (three styles), by how
  well each explains that seat's calls there (:func:`.auction.draw_styles`). It
  never raises its partner's bid once both opponents have passed; a forced
  dealer bids the lowest (a higher bid only risks more).
  ``auction="old"`` keeps the former rule (the lowest bid while the simulated
  margin of its own contract beats ``defend``). Two options, measured and left
  off (docs/bots.md 4): ``bid_edge`` (a bid must beat the pass by that many
  standard errors; below 0, a bid not shown worse stands) and ``last_bids``
  (a seat's raises read as one piece of evidence, its last).
- **Trumps**: the four suits, compared on the same worlds (the 36 unseen cards
  dealt to the others), the bid as it stands.
- **Discard phase** (:mod:`.discard`): which plain cards fill its six and which
  trumps stay, go to its partner or (a team over 12) are shed, compared on worlds
  that hold its partner's trump counts and are weighed by the calls, the others
  arranging as ``auto_arrange`` does and the hand played out; searched once per
  phase (a seed drawn from what the seat sees then) and handed in step by step.
  ``discard_search=False`` keeps ``auto_arrange``. The trim: ``auto_arrange``.
- **Tricks**: every legal card, compared on worlds of :func:`.worlds.play_world`
  (the auction, the kitty if it took it, public shown trumps, the counts
  passed, its partner's trump count, voids shown in play); with ``play_draws``
  set, ``play_draws`` worlds are drawn and weighted by the auction's calls
  (:func:`.auction.play_weight`: the bidder's trumps cover its bid, a passer's
  did not) before the search's worlds are drawn from them. It knows its
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
from .auction import CallModel, auction_candidates, play_weight, resample, search_call, weighted_worlds
from .common import AUTO, DONE, PASS, POINTS, READY, Decision, Seen, arrange, cards_of, read_seen, trick_winner
from .discard import LIMIT, search_discard
from .sim import margin, playout
from .worlds import auction_world, discard_world, play_world, trump_world
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
        auction: str = "search",
        boldness: float = 12.0,
        spread: float = 8.0,
        style_spread: float = 12.0,
        guard: float | None = None,
        bid_edge: float = 0.0,
        last_bids: bool = False,
        model_gap: float = 10.0,
        bid_draws: int = 240,
        play_draws: int = 0,
        kitty_allowance: float = 5.0,
        limits: str = "0/4/8/12/16/24/36",
        discard_search: bool = True,
        discard_draws: int = 120,
        discard_worlds: int = 40,
        discard_limit: int = LIMIT,
        name: str = "hard",
    ) -> None:
        self.playouts = playouts
        self.bid_playouts = bid_playouts
        self.trump_playouts = trump_playouts
        self.deadline = deadline
        self.defend = defend
        self.partner_gap = partner_gap
        self.auction = auction
        self.model = CallModel(boldness, model_gap, spread, style_spread, last_only=last_bids)
        self.bid_draws = bid_draws
        self.play_draws = play_draws
        self.kitty_allowance = kitty_allowance
        self.limits = tuple(int(j) for j in str(limits).split("/") if j)
        self.discard_search = discard_search
        self.guard = guard
        self.bid_edge = bid_edge
        self.discard_draws = discard_draws
        self.discard_worlds = discard_worlds
        self.discard_limit = discard_limit
        #: per seat: the discard phase's plan, (what it was searched for, the decision)
        self._plans: dict[int, tuple[tuple[Any, ...], Decision]] = {}
        self.name = name
        #: worlds of the last search (for tests and tuning; never used to decide)
        self.last_worlds = 0

    # ------------------------------------------------------------------ entry

    def choose(self, view: Any, history: History, rng: Rng) -> Action | None:
        legal: tuple[Action, ...] = view.legal
        if not legal:
            return None
        phase = view.data["phase"]
        if phase == "discard" and self.discard_search:
            return self.arrange_hand(view, history, legal)
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

    # ------------------------------------------------------------------ the discard phase

    def discard_world(self, seen: Seen, start: list[int], rnd: random.Random) -> tuple[list[list[int]], list[int]]:
        return discard_world(seen, start, rnd)

    def arrange_hand(self, view: Any, history: History, legal: Sequence[Action]) -> Action:
        """The next step of the searched decision (:mod:`.discard`), searched once per phase.

        The search's seed is drawn from what the seat sees at the start of the phase, not from
        the step's rng, so that asked again (another process, a step later) it finds the same plan.
        """
        d = view.data
        chosen = d.get("selected") or {}
        done_d = cards_of(chosen.get("discards"))
        done_g = cards_of(chosen.get("gives"))
        hand = cards_of(d.get("hand"))
        start = sorted(hand + done_d + done_g)
        seen = read_seen(view, history)
        key = (seen.seat, tuple(start), seen.trump, seen.bidder, seen.bid, tuple(seen.calls))
        plan = self._plans.get(seen.seat)
        if plan is None or plan[0] != key or not _extends(plan[1], done_d, done_g):
            rnd = random.Random(f"discard/{key}/{sorted(seen.kitty)}/{seen.partner_trumps}/{seen.partner_points}")
            late = self._clock()
            worlds = weighted_worlds(
                seen, self.model, self.discard_draws, self.discard_worlds, rnd,
                lambda: self.discard_world(seen, start, rnd),
            )  # fmt: skip
            decision, _, self.last_worlds = search_discard(
                seen, start, worlds, self.discard_limit, late, lambda dec: _extends(dec, done_d, done_g)
            )
            plan = self._plans[seen.seat] = (key, decision)
        discards, gives = plan[1]
        steps = [Action.card(Kind.GIVE, c) for c in gives if c not in done_g]
        steps += [Action.card(Kind.DISCARD, c) for c in discards if c not in done_d]
        for step in steps:
            if step in legal:
                return step
        return DONE if not steps and DONE in legal else AUTO

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
        if self.auction == "search":
            if high_seat == seen.partner and {(seen.seat + 1) % 4, (seen.seat + 3) % 4} <= {
                s for s, b in seen.calls if not b
            }:
                return PASS  # the partner has the contract and no opponent can take it: do not raise it
            late = self._clock()
            candidates = auction_candidates([a.arg for a in bids], self.limits)
            worlds = weighted_worlds(
                seen, self.model, self.bid_draws, self.bid_playouts, rnd, lambda: self.auction_world(seen, rnd)
            )
            limit, _, self.last_worlds = search_call(
                seen, candidates, self.model, worlds, late, rnd, self.guard, self.bid_edge
            )
            return bids[0] if limit >= bids[0].arg else PASS
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
        want = -(-self.playouts // len(cards))
        drawn = [self.play_world(seen, rnd) for _ in range(max(want, self.play_draws))]
        if self.play_draws > want:
            weights = [play_weight(h, seen, self.model, self.kitty_allowance) for h in drawn]
            drawn = resample(drawn, weights, want, rnd)
        for hands in drawn[:want]:
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


def _extends(decision: Decision, discards: Sequence[int], gives: Sequence[int]) -> bool:
    """Whether ``decision`` holds the steps already taken."""
    return set(discards) <= set(decision[0]) and set(gives) <= set(decision[1])
