"""The ``hard`` level: Crazy Eights' hooks for the shared search (:mod:`meja.bots.search`).

The search loop (worlds, common random numbers, racing, the work budget and the
deadline) is every game's; this module says what Crazy Eights puts in it:

1. **Candidates** (:func:`candidates`). Every legal play, with the four 8s folded
   into one 8 per called suit (which 8 leaves the hand changes nothing); pass where
   it is a choice (``classic`` with optional play of a drawn card). Never a
   voluntary draw: inside sampled worlds a draw looks good and in play it is bad
   (docs/bots.md: a search that allows them loses to greedy). A card that goes out
   is played at once. Greedy's own choice comes first (it wins ties).
2. **Worlds** (:meth:`Hooks.sample`). :func:`.infoset.read_infoset`
   rebuilds what the seat knows: the pile exactly, voids from passes (and from
   draws where drawing means being stuck), where reshuffled cards can be. Each world
   deals the unknown cards to the other hands and the stock consistently with it,
   and fixes the seed of any reshuffle a playout meets (common random numbers).
3. **Opponent model.** The others are taken to play roughly like greedy: a world
   in which greedy, holding that world's cards, would have played otherwise than a
   seat did is kept only with probability ``model_eps`` per difference
   (:meth:`.infoset.InfoSet.sample_likely`). Soft, so a person who plays
   differently only blunts the inference. Worth about +2 points of share at 2 and
   3 seats on the dev deals.
4. **Playouts** (:meth:`Hooks.play`). From each (world, candidate), every seat
   plays greedy to the end of the round (:func:`.sim.playout`, about 20-40
   microseconds a round).
5. **Evaluation** (:meth:`Hooks.evaluate`). The penalty margin (mean penalty of
   the other seats minus our own, over 50) plus ``win_bonus`` for going out: the
   margin is what the match is scored on, and the bonus keeps the bot hungry for
   round wins.

**Work.** A world costs :data:`SAMPLE_COST` per draw (the opponent model may
reject some) plus :data:`WORLD_COST`; a playout :data:`PLAYOUT_COST` plus
:data:`STEP_COST` per simulated action: about microseconds of this project's
machine when quiet, so the budget :data:`WORK` is about 40 ms of CPU (up to about
75 ms when the other hyperthread is busy), and :data:`DEADLINE` caps it. The same
view, history and rng give the same action on any machine unless the deadline
cuts a search short; ``deadline=None`` is strictly deterministic (the tests use it).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from meja.bots.search import Budget, SearchGame
from meja.bots.search import SearchBot as _Search
from meja.rules.rng import Rng

from ..rules import CrazyEightsView, Kind, Move, Phase
from .common import History, hand_mask, move_of
from .infoset import World, read_infoset
from .sim import PASS_ACT, PLAY, SUIT_KIND, Action, Rules, Sim, greedy_play, greedy_suit, playout
from .tables import EIGHT, RANK, SUIT, hand_penalty
from .yardsticks import greedy_choice

__all__ = ["DEADLINE", "PLAYOUTS", "WORK", "Hooks", "Outcome", "Sampler", "SearchBot", "candidates"]

#: Where worlds come from: the honest bot passes ``InfoSet.sample_likely`` (a test's cheater, the truth).
Sampler = Callable[[random.Random], World]
#: What a playout ends in: the winner (-1: none within the cap), the hands, the actions simulated.
Outcome = tuple[int, list[int], int]

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


class Hooks:
    """Crazy Eights as a :class:`meja.bots.search.SearchGame` for one decision of ``view.seat``.

    A world is a sampled deal and the seed of the reshuffles its playouts meet; a
    candidate an action ``(kind, card, suit)``; a playout ends in an :data:`Outcome`.
    """

    __slots__ = (
        "active",
        "chooser",
        "drawn",
        "draws",
        "fast",
        "me",
        "n",
        "nxt",
        "rules",
        "sampler",
        "start_choice",
        "top",
        "turn",
        "win_bonus",
    )

    def __init__(self, view: CrazyEightsView, sampler: Sampler, win_bonus: float) -> None:
        assert view.seat is not None
        self.me = view.seat
        self.n = view.seats
        self.rules = Rules.of(view.options, self.n)
        self.start_choice = view.phase == Phase.CHOOSE_SUIT and view.discard_count == 1 and view.draws_taken == 0
        self.chooser = view.chooser if view.phase == Phase.CHOOSE_SUIT and view.chooser is not None else -1
        self.drawn = -1 if view.drawn is None else int(view.drawn)
        self.top = int(view.top)
        self.active = int(view.active_suit)
        self.turn = view.turn
        self.draws = view.draws_taken
        self.fast = view.phase == Phase.PLAY and self.drawn < 0
        self.nxt = (self.turn + 1) % self.n
        self.sampler = sampler
        self.win_bonus = win_bonus

    def sample(self, rnd: random.Random) -> tuple[World, int]:
        w = self.sampler(rnd)
        return w, int(rnd.random() * 9007199254740992.0)

    def world_cost(self, world: tuple[World, int]) -> float:
        return SAMPLE_COST * world[0].tries + WORLD_COST

    def play(self, world: tuple[World, int], candidate: Action) -> Outcome:
        w, rseed = world
        kind, c, s = candidate
        if self.fast and kind == PLAY:
            # The common case without the general simulator: play c, then playout.
            hands = list(w.hands)
            hands[self.me] ^= 1 << c
            winner, steps = playout(
                hands,
                list(w.stock),
                w.disc | 1 << self.top,
                c,
                SUIT[c] if s < 0 else s,
                self.nxt,
                0,
                self.rules,
                rseed,
            )
            return winner, hands, steps
        sim = Sim(
            self.rules,
            list(w.hands),
            list(w.stock),
            w.disc,
            self.top,
            self.active,
            self.turn,
            self.draws,
            self.drawn,
            self.chooser,
            self.start_choice,
        )
        sim.apply(candidate)
        winner, steps = sim.run_greedy(rseed)
        return winner, sim.hands, steps

    def evaluate(self, outcome: Outcome) -> float:
        winner, hands, _ = outcome
        me = self.me
        pens = [hand_penalty(h) for h in hands]
        mine = pens[me]
        margin = (sum(pens) - mine) / (self.n - 1) - mine
        return margin / 50.0 + (self.win_bonus if winner == me else 0.0)

    def cost(self, outcome: Outcome) -> float:
        return STEP_COST * outcome[2] + PLAYOUT_COST

    def won(self, outcome: Outcome) -> bool:
        """Whether the seat went out first in the playout (the share a move's reason quotes)."""
        return outcome[0] == self.me


if TYPE_CHECKING:

    def _a_search_game(hooks: Hooks) -> SearchGame[tuple[World, int], Action, Outcome]:
        return hooks  # mypy checks that the hooks meet the shared protocol


class SearchBot(_Search):
    """Crazy Eights' ``hard`` level: the shared search on :class:`Hooks`; see the module docstring.

    Tuning parameters: the budget's (:class:`meja.bots.search.Budget`: ``work``,
    ``playouts``, ``deadline``, ``batch``, ``z``, ``min_worlds``) and ``win_bonus``,
    ``draws_reveal`` (read a ``house`` draw as "stuck"), ``model_eps`` and
    ``model_tries`` (the opponent model; ``model_eps=None``: off).
    """

    BUDGET = Budget(work=WORK, playouts=PLAYOUTS, deadline=DEADLINE, batch=8, z=2.5, min_worlds=16)

    def __init__(
        self,
        win_bonus: float = 0.5,
        draws_reveal: bool = True,
        model_eps: float | None = 0.25,
        model_tries: int = 8,
        **budget: Any,
    ) -> None:
        super().__init__(**budget)
        self.win_bonus = win_bonus
        self.draws_reveal = draws_reveal
        self.model_eps = model_eps
        self.model_tries = model_tries

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
        sample = self.sampler(view, history)
        seed, _ = rng.bits(64)
        return move_of(*self.search(view, cands, sample, random.Random(seed)))

    def action_of(self, candidate: Action) -> Move:
        """The engine's move for a searched candidate (a move's reason names the next best)."""
        return move_of(*candidate)

    def sampler(self, view: CrazyEightsView, history: History) -> Sampler:
        """Where this decision's worlds come from: what the seat knows, weighted by the opponent
        model (a test's cheater overrides it with the truth)."""
        info = read_infoset(view, history, self.draws_reveal)
        eps, tries = self.model_eps, self.model_tries
        return info.sample if eps is None else lambda r: info.sample_likely(r, eps, tries)

    def search(self, view: CrazyEightsView, cands: list[Action], sample: Sampler, rnd: random.Random) -> Action:
        """Compare ``cands`` on worlds from ``sample`` (the shared search); return the best."""
        return self.run(Hooks(view, sample, self.win_bonus), cands, rnd)
