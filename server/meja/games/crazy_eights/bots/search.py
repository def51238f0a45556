"""The ``hard`` level: a search over worlds sampled from what the seat has seen.

For each decision with more than one sensible candidate:

1. **Candidates.** Every legal play, with the four 8s folded into one 8 per
   called suit (which 8 leaves the hand changes nothing); pass where it is a
   choice (``classic`` with optional play of a drawn card). Never a voluntary
   draw: inside sampled worlds a draw looks good and in play it is bad (docs/bots.md:
   a search that allows them loses to greedy). A card that goes out is played
   at once.
2. **Worlds.** :func:`meja.bots.infoset.read_infoset` rebuilds what the seat
   knows: the pile exactly, voids from passes (and from draws where drawing
   means being stuck), where reshuffled cards can be. Each world deals the
   unknown cards to the other hands and the stock consistently with it.
3. **Opponent model.** The others are taken to play roughly like greedy: a
   world in which greedy, holding that world's cards, would have played
   otherwise than a seat did is kept only with probability ``model_eps`` per
   difference (:meth:`meja.bots.infoset.InfoSet.sample_likely`). Soft, so a
   person who plays differently only blunts the inference. Worth about +2
   points of share at 2 and 3 seats on the dev deals.
4. **Common random numbers.** Every candidate is played on the same worlds, with
   the same reshuffle seed, so their difference is measured, not the luck of
   the world.
5. **Playouts.** From each (world, candidate), every seat plays greedy to the end
   of the round (:func:`meja.bots.sim.playout`, about 20-40 microseconds a round).
6. **Reward.** The penalty margin (mean penalty of the other seats minus our own,
   over 50) plus ``win_bonus`` for going out: the margin is what the match is
   scored on, and the bonus keeps the bot hungry for round wins.
7. **Racing.** On a geometric schedule of worlds, a candidate whose paired
   difference to the leader is more than ``z`` standard errors below zero is
   dropped, and the budget goes on to the close calls.

**Determinism and the deadline.** Everything random comes from the
:class:`~meja.rules.rng.Rng` the caller passes (one 64-bit word seeds a
``random.Random``, used only through ``random()``, whose output for an int seed
is stable across Python versions). The budget is *work*, not time: the search
counts the actions it simulates, the playouts and the worlds it draws, each at
a fixed cost (:data:`WORK` and the costs beside it), so the same view, history
and rng give the same action on any machine. On this project's 2-core machine
that budget is about 40 ms of CPU when the machine is quiet and up to about
75 ms when the other hyperthread is busy. The ``deadline`` (CPU seconds of the
calling thread, :data:`DEADLINE`) is only a safety cap: if a slow or overloaded
machine reaches it, the search stops after the last whole world, and that one
decision may differ from an unhurried one. ``deadline=None`` gives strict
determinism (the tests use it). The search blocks its thread for its whole
budget: a server should run it in a worker thread or process, not on the event
loop.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Final

from meja.rules.rng import Rng

from ..rules import CrazyEightsView, Kind, Move, Phase
from .common import History, hand_mask, move_of
from .infoset import World, read_infoset
from .sim import PASS_ACT, PLAY, SUIT_KIND, Action, Rules, Sim, greedy_play, greedy_suit, playout
from .tables import EIGHT, RANK, SUIT, hand_penalty
from .yardsticks import greedy_choice

__all__ = ["DEADLINE", "PLAYOUTS", "WORK", "Sampler", "SearchBot", "candidates"]

#: Where worlds come from: the honest bot passes ``InfoSet.sample``.
Sampler = Callable[[random.Random], World]

#: Playouts per decision at most (summed over candidates).
PLAYOUTS: Final = 2000
#: The work budget per decision, in microseconds of this machine's CPU (quiet)
#: as the search counts them with the costs below: a deterministic stand-in for
#: time, so that the same inputs always give the same action. Measured on the
#: 2-core machine of this project: about 40 ms CPU when it is quiet, up to about
#: twice that when the other hyperthread of the core is busy.
WORK: Final = 40000
STEP_COST: Final = 0.6  # one simulated action of a playout
PLAYOUT_COST: Final = 10.0  # setting up and scoring one playout
SAMPLE_COST: Final = 40.0  # dealing one world's hands and checking it against the opponent model
WORLD_COST: Final = 15.0  # shuffling the stock of a world that is kept
#: CPU seconds after which the search stops at the next whole world (a safety cap).
DEADLINE: Final = 0.075


def candidates(view: CrazyEightsView) -> list[Action]:
    """The moves worth searching, greedy's own choice first (it wins ties)."""
    hand = hand_mask(view)
    if view.phase == Phase.CHOOSE_SUIT:
        first = greedy_suit(hand)
        return [(SUIT_KIND, -1, first)] + [(SUIT_KIND, -1, s) for s in range(4) if s != first]
    out: list[Action] = []
    seen_eight_suits: set[int] = set()
    playable = 0
    for a in view.legal:
        if a.kind == Kind.PLAY and a.card is not None:
            c = int(a.card)
            playable |= 1 << c
            if RANK[c] == EIGHT:
                s = -1 if a.suit is None else int(a.suit)
                if s in seen_eight_suits:
                    continue  # 8s are interchangeable: one per called suit
                seen_eight_suits.add(s)
            out.append((PLAY, c, -1 if a.suit is None else int(a.suit)))
        elif a.kind == Kind.PASS and view.drawn is not None:
            out.append(PASS_ACT)  # classic, optional play: keeping the drawn card is a real choice
    if playable:
        c, s = greedy_play(hand, playable)
        g = (PLAY, c, s)
        if RANK[c] == EIGHT:
            g = next((a for a in out if a[0] == PLAY and RANK[a[1]] == EIGHT and a[2] == s), g)
        if g in out:
            out.remove(g)
            out.insert(0, g)
    return out


class SearchBot:
    """Determinized search with common random numbers; see the module docstring."""

    name = "hard"
    needs_history = True
    blocking = True

    def __init__(
        self,
        playouts: int = PLAYOUTS,
        work: float = WORK,
        deadline: float | None = DEADLINE,
        win_bonus: float = 0.5,
        batch: int = 8,
        z: float = 2.5,
        min_worlds: int = 16,
        draws_reveal: bool = True,
        model_eps: float | None = 0.25,
        model_tries: int = 8,
        name: str = "hard",
    ) -> None:
        self.playouts = playouts
        self.work = work
        self.deadline = deadline
        self.win_bonus = win_bonus
        self.batch = batch
        self.z = z
        self.min_worlds = min_worlds
        self.draws_reveal = draws_reveal
        self.model_eps = model_eps
        self.model_tries = model_tries
        self.name = name
        #: statistics of the last decision (for the benchmark and tests; not used to decide)
        self.last_worlds = 0
        self.last_playouts = 0
        self.last_steps = 0
        self.last_spent = 0.0
        self.last_tries = 0

    def choose(self, view: CrazyEightsView, history: History, rng: Rng) -> Move:
        if view.phase not in (Phase.PLAY, Phase.CHOOSE_SUIT) or view.seat is None:
            return view.legal[0]
        cands = candidates(view)
        if len(cands) <= 1:
            return move_of(*cands[0]) if cands else greedy_choice(view)
        hand = hand_mask(view)
        for a in cands:
            if a[0] == PLAY and hand == 1 << a[1]:
                return move_of(*a)  # the last card goes out: nothing can beat that (1.6.1)
        info = read_infoset(view, history, self.draws_reveal)
        seed, _ = rng.bits(64)
        eps, tries = self.model_eps, self.model_tries
        sample: Sampler = info.sample if eps is None else lambda r: info.sample_likely(r, eps, tries)
        best = self.search(view, cands, sample, random.Random(seed))
        return move_of(*best)

    def search(
        self,
        view: CrazyEightsView,
        cands: list[Action],
        sample: Sampler,
        rnd: random.Random,
    ) -> Action:
        """Compare ``cands`` on worlds from ``sample`` (see the module docstring); return the best."""
        assert view.seat is not None
        me = view.seat
        n = view.seats
        rules = Rules.of(view.options, n)
        start_choice = view.phase == Phase.CHOOSE_SUIT and view.discard_count == 1 and view.draws_taken == 0
        chooser = view.chooser if view.phase == Phase.CHOOSE_SUIT and view.chooser is not None else -1
        drawn = -1 if view.drawn is None else int(view.drawn)
        top = int(view.top)
        active = int(view.active_suit)
        turn = view.turn
        draws = view.draws_taken
        win_bonus = self.win_bonus
        fast = view.phase == Phase.PLAY and drawn < 0
        nxt = (turn + 1) % n
        k = len(cands)
        alive = list(range(k))
        rewards: list[list[float]] = [[] for _ in range(k)]
        used = 0
        worlds = 0
        total_steps = 0
        tries = 0
        t0 = time.thread_time()
        deadline = self.deadline
        spent = 0.0
        budget = self.work
        next_race = self.min_worlds
        while used < self.playouts and spent < budget and len(alive) > 1:
            w: World = sample(rnd)
            spent += SAMPLE_COST * w.tries + WORLD_COST
            tries += w.tries
            rseed = int(rnd.random() * 9007199254740992.0)
            for i in alive:
                kind, c, s = cands[i]
                if fast and kind == PLAY:
                    # The common case without the general simulator: play c, then playout.
                    hands = list(w.hands)
                    hands[me] ^= 1 << c
                    winner, steps = playout(
                        hands,
                        list(w.stock),
                        w.disc | 1 << top,
                        c,
                        SUIT[c] if s < 0 else s,
                        nxt,
                        0,
                        rules,
                        rseed,
                    )
                else:
                    sim = Sim(
                        rules,
                        list(w.hands),
                        list(w.stock),
                        w.disc,
                        top,
                        active,
                        turn,
                        draws,
                        drawn,
                        chooser,
                        start_choice,
                    )
                    sim.apply(cands[i])
                    winner, steps = sim.run_greedy(rseed)
                    hands = sim.hands
                total_steps += steps
                spent += STEP_COST * steps + PLAYOUT_COST
                pens = [hand_penalty(h) for h in hands]
                mine = pens[me]
                margin = (sum(pens) - mine) / (n - 1) - mine
                rewards[i].append(margin / 50.0 + (win_bonus if winner == me else 0.0))
            used += len(alive)
            worlds += 1
            if worlds >= next_race:
                # Racing costs O(worlds) per candidate, so it runs on a geometric schedule.
                alive = self._race(alive, rewards)
                next_race = max(worlds + self.batch, int(worlds * 1.25))
            if deadline is not None and time.thread_time() - t0 > deadline:
                break
        self.last_worlds = worlds
        self.last_playouts = used
        self.last_steps = total_steps
        self.last_spent = spent
        self.last_tries = tries
        best = max(alive, key=lambda i: (sum(rewards[i]), -i))
        return cands[best]

    def _race(self, alive: list[int], rewards: list[list[float]]) -> list[int]:
        """Drop candidates whose paired difference to the leader is clearly negative."""
        lead = max(alive, key=lambda i: (sum(rewards[i]), -i))
        rl = rewards[lead]
        keep = []
        for i in alive:
            if i == lead:
                keep.append(i)
                continue
            d = [a - b for a, b in zip(rewards[i], rl, strict=True)]
            m = len(d)
            mean = sum(d) / m
            var = sum((x - mean) ** 2 for x in d) / (m - 1)
            if mean + self.z * math.sqrt(var / m) >= 0.0:
                keep.append(i)
        return keep
