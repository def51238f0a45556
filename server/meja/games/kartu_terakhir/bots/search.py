"""The ``hard`` level: a determinized search over worlds consistent with what the seat has seen.

For each turn decision with more than one sensible candidate:

1. **Candidates.** Every distinct playable card (copies share a name); a Wild
   once, naming the colour :func:`.common.greedy_colour` picks; ``keep`` after a
   draw; ``take`` where a stacking answer is the alternative. Never a voluntary
   draw (docs/bots.md: draws look good inside sampled worlds and are bad in play). A
   card that goes out is played at once. The first candidate (it wins ties) is
   the greedy choice *steered* by what the seat knows: a card (or a Wild's
   colour) that leaves active a colour the next seat is known to lack
   (:meth:`.infoset.InfoSet.lacks`: it drew when stuck on it, or passed), and the
   seed's tip of steering away from a near-out opponent's colour. With
   ``work=0`` this steered greedy is all the bot does.
2. **Worlds** (:mod:`.infoset`): the unknown cards dealt at random to the other
   hands, the stock and the pile under the top card, respecting what the seat
   saw (a hand shown to it by a challenge, an honest verdict, a pass) and, while
   a seat's play does not contradict them, two soft readings: it draws only when
   stuck, and it plays as the seed's tips do (Wilds last, dearest card first).
   With ``tight`` (on by default), a played card leaves the most constrained group that
   may hold it (:func:`.infoset.read_infoset`): a history with a reshuffle then reads whole
   instead of, about a third of the time, not at all (worlds that know nothing).
   With ``exact`` and ``named`` (off by default), the tips are read in full near the end
   too, and a Wild's colour as the colour its player holds most of (:mod:`.infoset`).
3. **Playouts** (:meth:`Hooks.play`): the candidate, then every seat plays
   :func:`.common.greedy_turn` to the end of the round, on :func:`.playout.playout`,
   a list-based replay of the engine's :func:`rollout` (the rules' own tables; a
   test checks that both end every round alike) about eight times faster, so eight
   times the worlds in the same CPU. The candidate itself, when it is a play, is made
   by the playout too (``first``: the engine's ``apply`` gives the same, a test checks,
   and cost as much as a quarter of a playout). With ``model`` (off by default: no gain
   measured), the playouts' seats play greedy in full (:func:`seen_of`: steering away
   from a near-out seat's colour, challenging on a sign). With ``split``, each seat
   draws from its own share of the world's stock (:func:`.playout.playout`), so that
   the candidates compared on one world hand each seat the same cards though they
   change who draws when: the paired differences the search races on are less noisy.
4. **Evaluation** (:meth:`Hooks.evaluate`): 1 for winning the round, plus the
   points margin (the points the seat scores minus the others' mean, 3.8.2) over
   :data:`MARGIN_SCALE`; a playout cut off is scored by :func:`evaluate`. With ``rank``
   (off by default), a lost playout also earns ``rank`` times :func:`rank_credit` (the chance of
   having gone out next, by hand sizes, less the even share): a reward with less variance than
   the near coin of a round won at 4 seats and more.
5. **The search** is the shared one (:mod:`meja.bots.search`: common random
   numbers, racing, the work budget, the deadline), with its gate on: greedy's
   steered choice stands unless another candidate beats it by :data:`GATE`
   standard errors.

Out of its turn, and before a turn action, it has full-attention reflexes
(:func:`.common.reflex`): it catches whenever it can and always calls "last
card" in time (before playing its second-to-last card), so it never misses a
legal call. Facing a challengeable Wild Draw Four it estimates the chance of a
bluff over sampled worlds, weighting each by an opponent model (a player who
keeps its Wilds plays a Wild Draw Four only with no other card to play:
a world where it had one counts :data:`MODEL_EPS`), and challenges when the
expected cards gained beat the two extra cards an honest verdict costs. A seat
it has seen found bluffing (a ``challenge`` verdict ``bluff`` against it) is no
longer taken for one who keeps its Wilds: every world counts in full for it (a
new user bluffed three times in seven against hard bots, never challenged).

**Work and the deadline.** Rollout actions are counted at :data:`STEP_COST` and
worlds at :data:`WORLD_COST` (units of about a third of a microsecond of this machine's CPU
since the playout was made faster; about half a microsecond before), so the same
inputs give the same action on any machine; the CPU ``deadline`` (:data:`DEADLINE`)
is only a safety cap, and ``deadline=None`` is strictly deterministic (the tests use
it). It blocks its thread while it thinks: a server runs it off the event loop.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

from meja.bots.search import Budget, SearchGame
from meja.bots.search import SearchBot as _Search
from meja.rules.events import EventKinds
from meja.rules.rng import Rng

from ..rules import WILD_DRAW_FOUR, KartuTerakhirState, KartuTerakhirView, Move, Phase, card_points
from ..rules.events import Challenge, Play, RoundStart
from .common import (
    CHALLENGE,
    COLOUR,
    DRAW,
    IDS_OF,
    KEEP,
    NAME_COLOUR,
    NAME_SYM,
    NAMEIX,
    PLAYABLE,
    PLAYS,
    PLAYS_AND_STARTS,
    SYM,
    TAKE,
    WD4_NAME,
    History,
    avoid_colour,
    greedy_colour,
    greedy_turn,
    reflex,
)
from .infoset import InfoSet, read_infoset
from .playout import Playout, Seen, playout
from .yardsticks import greedy_choice

__all__ = [
    "DEADLINE",
    "GATE",
    "MODEL_EPS",
    "WORK",
    "Hooks",
    "SearchBot",
    "Worlds",
    "bluffers",
    "candidates",
    "evaluate",
    "rank_credit",
    "rollout",
]

#: The work budget per decision, in the units below (see the module docstring's "Work and the deadline").
WORK: Final = 160000.0  # twice the former 80,000 once playouts took half the CPU (held out: 29.8% at 4 seats)
STEP_COST: Final = 4.0  # one action and one policy decision in a playout
WORLD_COST: Final = 60.0  # dealing one world and building its state
#: CPU seconds after which the search stops at the next whole world (a safety cap).
DEADLINE: Final = 0.070
#: A rollout longer than this many actions is cut off and scored as nobody's round.
MAX_STEPS: Final = 600
#: The points margin is divided by this before it is added to the win (1).
MARGIN_SCALE: Final = 200.0
#: How steeply a seat's chance of winning falls with each card it holds, in a cut-off rollout's estimate.
ALPHA: Final = 0.6
#: Greedy's choice stands unless another candidate beats it by this many standard errors (0: off).
GATE: Final = 0.5
#: The weight of a loser's partial credit in a playout's reward (0: off, win and margin only; see :func:`rank_credit`).
RANK: Final = 0.0
#: The weight of a world in which the Wild Draw Four's player had another card to play.
MODEL_EPS: Final = 0.05
#: The playouts' seats play as greedy does in full: steering away from a near-out seat's colour, and
#: challenging a Wild Draw Four on its sign (:func:`seen_of`); off, they neither steer nor read the sign.
MODEL: Final = False
#: Each seat draws from its own share of a playout's stock (:func:`.playout.playout`'s ``split``).
SPLIT: Final = False
#: The reader takes a played card from the most constrained group that may hold it, moving earlier plays
#: between groups when none is left (:func:`.infoset.read_infoset`'s ``tight``): histories with a
#: reshuffle then read whole instead of falling back to worlds that know nothing.
TIGHT: Final = True
#: A coloured card played from the hand is read by greedy's whole order also when a seat is near out
#: (:func:`.infoset.read_infoset`'s ``exact``); off, nothing is read from it then.
EXACT: Final = False
#: A seat whose last play was a Wild named the colour it holds most of (:func:`.infoset.read_infoset`'s
#: ``named``): worlds are dealt to fit it. Both off: paired with them on against the defaults on dev deals,
#: -1.9 points [-5.3, +1.5] at 4 seats (1,000-1,199) and +1.0 [-2.9, +5.0] at 6 (1,000-1,047): no gain.
NAMED: Final = False
_STEP: Final = int(DRAW)
_REACT: Final = Phase.REACT
_PLAYING: Final = Phase.PLAY


def candidates(view: KartuTerakhirView, all_colours: bool = False, first: Move | None = None) -> list[Move]:
    """The moves worth searching, ``first`` (by default greedy's own choice) first: it wins ties."""
    assert view.hand is not None and view.seat is not None
    out: list[Move] = []
    seen: set[int] = set()
    for m in view.legal:
        if m >= _STEP:
            break
        name = m // 5
        if name in seen:
            continue
        seen.add(name)
        if NAME_COLOUR[name] == 4 and m % 5 != 4 and not all_colours:
            card = next(c for c in view.hand if NAMEIX[c] == name)
            out.append(Move(name * 5 + greedy_colour(view.hand, card)))
        elif NAME_COLOUR[name] == 4 and m % 5 != 4:
            out.extend(Move(x) for x in view.legal if x < _STEP and x // 5 == name)
        else:
            out.append(Move(m))
    if KEEP in view.legal:
        out.append(KEEP)
    if TAKE in view.legal and out:
        out.append(TAKE)
    if not out:
        return out
    g = first
    if g is None:
        g = greedy_turn(view.hand, view.legal, view.seats, view.seat, view.direction, view.hand_counts)
    if g not in out and g < _STEP and NAME_COLOUR[g // 5] == 4:
        out = [m for m in out if m // 5 != g // 5 or m >= _STEP]  # the Wild, naming the colour ``first`` names
        out.append(g)
    if g in out:
        out.remove(g)
        out.insert(0, g)
    return out


def rollout(
    state: KartuTerakhirState, seed: int = 0, cap: int = MAX_STEPS, seen: Seen | None = None
) -> tuple[KartuTerakhirState, int]:
    """Play ``state`` to the end of its round, every seat greedy (no calls, no catches), a challengeable
    Wild Draw Four challenged one time in four (greedy's odds without a sign; ``seed`` decides which):
    the final state and the number of actions. With ``seen`` (:func:`seen_of`), every seat plays as
    the ``greedy`` yardstick in full: it steers away from a near-out seat's colour and challenges on
    its sign (:func:`.playout.playout`)."""
    steps = 0
    n = state.seats
    x = seed & 0xFFFFFFFF or 1
    last = list(seen[0]) if seen is not None else []
    prev = list(seen[1]) if seen is not None else []
    sign = False
    while steps < cap:
        phase = state.phase
        if phase == _PLAYING:
            s = state.turn
            legal = state.legal_actions(s)
            hands = state.hands
            counts = [len(h) for h in hands]
            avoid = -1
            if seen is not None:
                for step in range(1, n):
                    t = (s + step * state.direction) % n
                    if counts[t] <= 2:
                        avoid = last[t]
                        break
            if CHALLENGE in legal and legal[0] >= _STEP:
                if sign:
                    move = CHALLENGE
                else:
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF  # the C library's LCG: cheap and fixed
                    move = CHALLENGE if (x >> 16) & 3 == 0 else TAKE
            else:
                move = greedy_turn(hands[s], legal, n, s, state.direction, counts, avoid)
            before = state.colour
            state = state.apply(s, move)[0]
            if seen is not None and move < _STEP:
                if NAME_SYM[move // 5] == WILD_DRAW_FOUR:
                    sign = prev[s] == before
                prev[s] = NAME_COLOUR[move // 5]
                last[s] = state.colour
        elif phase == _REACT:
            state = state.apply(state.turn, TAKE)[0]
        else:
            break
        steps += 1
    return state, steps


def evaluate(hands: Sequence[Sequence[int]], me: int, alpha: float = ALPHA, scale: float = MARGIN_SCALE) -> float:
    """The reward of a playout cut off before the round ended (``hands``, its hands then): each seat's
    chance of going out first taken as ``exp(-alpha * cards held)``, normalised; the points as each
    winner would score them."""
    n = len(hands)
    weights = [math.exp(-alpha * len(h)) for h in hands]
    total = sum(weights)
    pts = [card_points(h) for h in hands]
    all_pts = sum(pts)
    p_me = weights[me] / total
    margin = p_me * (all_pts - pts[me])
    for s in range(n):
        if s != me:
            margin -= weights[s] / total * (all_pts - pts[s]) / (n - 1)
    return p_me + margin / scale


def rank_credit(hands: Sequence[Sequence[int]], me: int, winner: int, alpha: float = ALPHA) -> float:
    """A losing seat's partial credit at the end of a playout (``hands``: the hands then): its chance of
    having gone out next among the seats that did not go out, each taken as ``exp(-alpha * cards held)``
    and normalised, less the even share, so that it is 0 on average over even hands."""
    weights = [math.exp(-alpha * len(h)) for s, h in enumerate(hands) if s != winner]
    mine = math.exp(-alpha * len(hands[me]))
    return mine / sum(weights) - 1.0 / len(weights)


def seen_of(history: History, seats: int) -> Seen:
    """What greedy seats read from the round so far, for the playouts' opponent model
    (:data:`.playout.Seen`): per seat, the colour its last play made active and its last card's colour."""
    last = [-1] * seats
    prev = [-1] * seats
    for e in PLAYS.known(history):
        assert type(e) is Play
        if 0 <= e.seat < seats:
            last[e.seat] = e.colour
            prev[e.seat] = NAME_COLOUR[e.card]
    return last, prev


class Worlds(Protocol):
    """Where worlds come from: the honest bot's :class:`.infoset.InfoSet` (a test's cheater passes its own)."""

    def world(self, rnd: random.Random, seed: int) -> KartuTerakhirState: ...


#: The challenges a history holds (``.known(history)``: every other entry skipped)
_CHALLENGES: Final = EventKinds(Challenge)


def bluffers(history: History) -> set[int]:
    """The seats this seat has seen found bluffing this round (a ``challenge`` verdict ``bluff``)."""
    return {e.target for e in _CHALLENGES.known(history) if type(e) is Challenge and e.verdict == "bluff"}


class Hooks:
    """Kartu Terakhir as a :class:`meja.bots.search.SearchGame` for one turn of ``view.seat``.

    A world is an engine state dealt from what the seat knows and the seed of its
    reshuffles and challenge coin; a candidate a :class:`~..rules.Move`; a playout ends
    in a :data:`.playout.Playout`.
    """

    __slots__ = ("alpha", "depth", "make", "me", "n", "rank", "scale", "seen", "split", "worlds")

    def __init__(
        self,
        view: KartuTerakhirView,
        worlds: Worlds,
        depth: int,
        alpha: float,
        scale: float,
        seen: Seen | None = None,
        rank: float = RANK,
        split: bool = SPLIT,
    ) -> None:
        assert view.seat is not None
        self.me = view.seat
        self.n = view.seats
        self.make = worlds.world
        self.worlds = worlds
        self.depth = depth
        self.alpha = alpha
        self.scale = scale
        self.seen = seen
        self.rank = rank
        self.split = split

    def sample(self, rnd: random.Random) -> tuple[KartuTerakhirState, int]:
        seed = int(rnd.random() * 18446744073709551616.0)
        return self.make(rnd, seed), seed

    def world_cost(self, world: tuple[KartuTerakhirState, int]) -> float:
        return WORLD_COST * getattr(self.worlds, "tries", 1)  # (``named``: the deals it took)

    def play(self, world: tuple[KartuTerakhirState, int], candidate: Move) -> Playout:
        if candidate < _STEP:  # a play: made by the playout itself, as the engine makes it (a test checks)
            return playout(world[0], world[1], self.depth, self.seen, candidate, self.split)
        state = world[0].apply(self.me, candidate)[0]
        if state.phase > _REACT:  # the candidate went out
            lr = state.last_round
            assert lr is not None
            return lr.winner, lr.points, [], 0
        return playout(state, world[1], self.depth, self.seen, -1, self.split)

    def evaluate(self, outcome: Playout) -> float:
        winner, points, hands, _ = outcome
        if winner < 0:
            return evaluate(hands, self.me, self.alpha, self.scale)
        if winner == self.me:
            return 1.0 + points / self.scale
        lost = -points / (self.n - 1) / self.scale
        if self.rank and self.n > 2:
            lost += self.rank * rank_credit(hands, self.me, winner, self.alpha)
        return lost

    def cost(self, outcome: Playout) -> float:
        return STEP_COST * (outcome[3] + 1)


if TYPE_CHECKING:

    def _a_search_game(hooks: Hooks) -> SearchGame[tuple[KartuTerakhirState, int], Move, Playout]:
        return hooks  # mypy checks that the hooks meet the shared protocol


class SearchBot(_Search):
    """Kartu Terakhir's ``hard`` level: reflexes, then the shared search on :class:`Hooks`; see the
    module docstring.

    Tuning parameters: the budget's (:class:`meja.bots.search.Budget`: ``work``, ``deadline``,
    ``batch``, ``z``, ``min_worlds``, ``gate``) and the game's below.
    """

    BUDGET = Budget(work=WORK, deadline=DEADLINE, batch=4, z=2.5, min_worlds=8, gate=GATE)

    def __init__(
        self,
        margin_scale: float = MARGIN_SCALE,
        model_eps: float = MODEL_EPS,
        challenge_worlds: int = 64,
        all_colours: bool = False,
        depth: int = MAX_STEPS,
        alpha: float = ALPHA,
        steer: bool = True,
        model: bool = MODEL,
        rank: float = RANK,
        split: bool = SPLIT,
        tight: bool = TIGHT,
        exact: bool = EXACT,
        named: bool = NAMED,
        **budget: Any,
    ) -> None:
        super().__init__(**budget)
        self.margin_scale = margin_scale
        self.model_eps = model_eps
        self.challenge_worlds = challenge_worlds
        self.all_colours = all_colours
        self.depth = depth
        self.alpha = alpha
        self.steer = steer
        self.model = model
        self.rank = rank
        self.split = split
        self.tight = tight
        self.exact = exact
        self.named = named

    def choose(self, view: KartuTerakhirView, history: History, rng: Rng) -> Move | None:
        quick = reflex(view) if view.phase <= _REACT else None
        if quick is not None:
            return quick
        if view.seat is None or view.hand is None or view.phase != _PLAYING or view.seat != view.turn:
            return greedy_choice(view, history, rng)
        legal = view.legal
        plays = [m for m in legal if m < _STEP]
        if CHALLENGE in legal and not plays:
            info = read_infoset(view, history, self.tight, self.exact, self.named)
            seed, _ = rng.bits(64)
            return CHALLENGE if self.bluff_odds(view, history, info, random.Random(seed)) > 0.2 else TAKE
        info = read_infoset(view, history, self.tight, self.exact, self.named)
        me = view.seat
        nxt = (me + view.direction) % view.seats
        avoid = avoid_colour(history, view.seats, me, view.direction, view.hand_counts)
        lacks = info.lacks(nxt) if self.steer else 0
        first = greedy_turn(view.hand, legal, view.seats, me, view.direction, view.hand_counts, avoid, lacks)
        cands = candidates(view, self.all_colours, first)
        if len(cands) <= 1:
            return cands[0] if cands else greedy_choice(view, history, rng)
        if len(view.hand) == 1 and plays:
            return cands[0]  # the last card goes out: nothing beats that (3.6.4)
        seed, _ = rng.bits(64)
        return self.search(view, cands, info, random.Random(seed), history=history)

    def search(
        self,
        view: KartuTerakhirView,
        cands: list[Move],
        info: InfoSet,
        rnd: random.Random,
        worlds_of: Worlds | None = None,
        history: History = (),
    ) -> Move:
        """Compare ``cands`` on worlds from ``info`` (or ``worlds_of``: a test's cheater) with the shared
        search; return the best."""
        seen = seen_of(history, view.seats) if self.model else None
        hooks = Hooks(view, worlds_of or info, self.depth, self.alpha, self.margin_scale, seen, self.rank, self.split)
        return self.run(hooks, cands, rnd)

    def bluff_odds(self, view: KartuTerakhirView, history: History, info: InfoSet, rnd: random.Random) -> float:
        """The chance that the pending Wild Draw Four was a bluff, over sampled worlds weighted by the
        opponent model (see the module docstring)."""
        by = (view.turn - view.direction) % view.seats
        prior, prior_top = -1, -1
        read = PLAYS_AND_STARTS.known(history)
        plays = [e for e in read if type(e) is Play]
        if len(plays) >= 2 and plays[-1].card == WD4_NAME:
            before = plays[-2]
            prior, prior_top = before.colour, before.card
        elif len(plays) == 1 and plays[0].card == WD4_NAME:
            for e in read:
                if type(e) is RoundStart:
                    prior, prior_top = e.colour, e.starter
        if prior < 0 or prior_top < 0:
            return 0.25
        top_sym = SYM[IDS_OF[prior_top][0]]
        playable = PLAYABLE[prior * 15 + top_sym]
        eps = 1.0 if by in bluffers(history) else self.model_eps
        yes = total = 0.0
        for _ in range(self.challenge_worlds):
            hands, _, _ = info.sample(rnd)
            hand = hands[by]
            bluff = any(COLOUR[c] == prior for c in hand)
            other = any(playable[c] and COLOUR[c] < 4 for c in hand)
            w = eps if other else 1.0
            total += w
            if bluff:
                yes += w
        return yes / total if total else 0.25
