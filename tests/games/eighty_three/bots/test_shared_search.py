"""Eighty-Three's ``hard`` bot on the shared search (:mod:`meja.bots.search`), and its honesty checked there.

The search loop is tested once for every game (tests/bots/test_search.py). Here, what this game
puts in it and what it asks of it: every searched decision (the auction, the trump call, the
discard, the card play) is one run of the shared search on the game's hooks, every candidate on
every world and the budget counted in playouts; the auction's pool of worlds is handed out in
order and a contract is played once per bidder and world; ``bid_edge`` is the search's gate; the
same decision twice searches the same worlds. Honesty on the search itself: with the cards the
seat cannot see moved, the whole search (every candidate's mean, not only the choice) is the same
in every phase it searches; a cheater whose worlds are the true deal finds each candidate's true
margin, which the honest search does not (so the invariance test is not blind). Last, the two
things the port added to the shared search: a caller's ``stop`` and a gate below 0.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from meja.bots.base import decision_rng
from meja.bots.search import Budget, Result, SearchGame, search
from meja.games.eighty_three.bots import make_bot
from meja.games.eighty_three.bots.auction import CallSearch, CallWorld, call_hooks, call_search, weighted_worlds
from meja.games.eighty_three.bots.common import Decision, read_seen
from meja.games.eighty_three.bots.discard import DiscardSearch
from meja.games.eighty_three.bots.search import CardSearch, TrumpSearch
from meja.games.eighty_three.bots.sim import margin
from meja.games.eighty_three.bots.worlds import auction_world
from meja.games.eighty_three.rules import Phase

from ..cheater import CheatingBot
from ..test_bots import Recorder, _permuted
from ..test_bots_auction import WEAK, _seen

#: Small budgets: every decision searched, quickly.
SMALL: dict[str, Any] = {
    "playouts": 48,
    "bid_playouts": 16,
    "bid_draws": 48,
    "trump_playouts": 24,
    "discard_draws": 24,
    "discard_worlds": 12,
    "deadline": None,
}
SEARCHED = (Phase.AUCTION, Phase.TRUMP, Phase.DISCARD, Phase.PLAY)


def _check_protocols(
    call: SearchGame[CallWorld, int, Any],
    trump: SearchGame[list[list[int]], int, list[int]],
    discard: SearchGame[Any, Decision, list[int]],
    card: SearchGame[list[list[int]], int, list[int]],
) -> None:
    """(mypy checks that each of the game's hooks is a SearchGame.)"""


def _same(a: Result[Any], b: Result[Any]) -> bool:
    """The same search: the choice, the worlds, the playouts and every candidate's mean (nan as nan)."""
    return (a.index, a.worlds, a.playouts, [repr(m) for m in a.means]) == (
        b.index,
        b.worlds,
        b.playouts,
        [repr(m) for m in b.means],
    )


def _decisions(seeds: range, every: float, rnd: random.Random) -> Any:
    """Decisions along hands played by hard bots: (recorder, seat) where the seat has a choice, at
    about ``every`` of them (every trump call), in each phase the hard bot searches."""
    player = make_bot("hard", **SMALL)
    for seed in seeds:
        rec = Recorder(seed, [player] * 4)
        while rec.state.phase <= Phase.PLAY:
            seat = rec.state.awaiting()[0]
            phase = rec.state.phase
            if (
                phase in SEARCHED
                and len(rec.state.view(seat).legal) > 1
                and (phase == Phase.TRUMP or rnd.random() < every)
            ):
                yield rec, seat
            rec.step()


def _searched(state: Any, seat: int, history: list[dict[str, Any]], **extra: Any) -> tuple[Any, Any]:
    """A fresh hard bot's action at this decision, and its search (None: it did not search)."""
    bot = make_bot("hard", **SMALL, **extra)
    move = bot.choose(state.view(seat), list(history), decision_rng(state, seat))
    return move, bot.last


# --------------------------------------------------------------------------- every decision is one shared search


def test_every_searched_decision_is_one_shared_search_on_a_budget_of_playouts() -> None:
    """Every candidate meets every world (no race) and the worlds are the budget's: ``playouts``
    over the candidates for a card, ``trump_playouts`` over the four suits, ``bid_playouts``
    worlds of the calls' pool, ``discard_worlds`` worlds for the discard."""
    phases: set[Phase] = set()
    for rec, seat in _decisions(range(5100, 5104), 1.0, random.Random(1)):
        state = rec.state
        _, result = _searched(state, seat, rec.history[seat])
        if result is None:
            continue  # not searched: a partner's contract no opponent can take, a lone candidate
        assert isinstance(result, Result)
        k = len(result.means)
        if result.worlds:
            assert all(not math.isnan(m) for m in result.means)
        assert result.playouts == result.worlds * k
        expected = {
            Phase.AUCTION: SMALL["bid_playouts"],
            Phase.TRUMP: SMALL["trump_playouts"] // 4,
            Phase.DISCARD: SMALL["discard_worlds"] if k > 1 else 0,
            Phase.PLAY: -(-SMALL["playouts"] // k),
        }[state.phase]
        assert result.worlds == expected, (state.phase, k, result)
        phases.add(state.phase)
    assert phases == set(SEARCHED)


def test_the_auction_hands_out_its_pool_in_order_and_plays_a_contract_once_per_bidder() -> None:
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 35)])
    bot = make_bot("hard", deadline=None)
    rnd = random.Random(5)
    pool = weighted_worlds(seen, bot.model, 120, 40, rnd, lambda: auction_world(WEAK, 2, rnd))
    assert len({id(h) for h, _ in pool}) < len(pool)  # resampled by the calls: some deals twice
    hooks = CallSearch(seen, bot.model, pool, styles=False)
    limits = [0, 36, 46, 56, 70]
    for i in range(len(pool) + 3):
        world = hooks.sample(rnd)
        assert world.hands is pool[i % len(pool)][0] and world.kitty is pool[i % len(pool)][1]
        outcomes = [hooks.play(world, limit) for limit in limits]
        bidders = {bidder for _, bidder, _, _ in outcomes}
        # one playout per bidder in a world, shared by the limits that lead to it
        assert sum(cost for *_, cost in outcomes) == len(bidders) == len(world.captured)
        fresh = CallSearch(seen, bot.model, [pool[i % len(pool)]], styles=False)
        for (cap, bidder, bid, cost), limit in zip(outcomes, limits, strict=True):
            # what the memo gave is what a world with nothing played yet gives
            assert fresh.play(fresh.sample(rnd), limit) == (cap, bidder, bid, 1)
            assert hooks.evaluate((cap, bidder, bid, cost)) == margin(cap, 0, bidder, bid)
            assert hooks.cost((cap, bidder, bid, cost)) == cost
            assert limit == 0 or bidder != 2 or bid <= limit
    allowed, result = call_search(seen, limits, bot.model, pool)
    assert allowed == limits and result.worlds == len(pool) and result.playouts == len(pool) * len(limits)
    assert len(pool) <= result.spent < len(pool) * len(limits)  # the memo saved playouts


def test_bid_edge_is_the_search_gate_counted_over_the_distinct_worlds() -> None:
    seen = _seen(WEAK, 2, 3, [(0, 0), (1, 35)])
    bot = make_bot("hard", deadline=None)
    rnd = random.Random(3)
    pool = weighted_worlds(seen, bot.model, 120, 40, rnd, lambda: auction_world(WEAK, 2, rnd))
    distinct = len({id(h) for h, _ in pool})
    for edge in (1.5, -0.5):
        _, limits, budget = call_hooks(seen, [0, 36, 40], bot.model, pool, True, edge=edge)
        assert budget.gate == edge * math.sqrt(len(pool) / distinct)
        assert budget.z == math.inf and budget.playouts == len(pool) * len(limits)
    assert call_hooks(seen, [0, 36, 40], bot.model, pool, True)[2].gate == 0.0  # off by default
    assert call_hooks(seen, [36, 0, 40], bot.model, pool, True, edge=1.5)[2].gate == 0.0  # the first is no pass


def test_the_same_decision_twice_searches_the_same_worlds() -> None:
    phases: set[Phase] = set()
    for rec, seat in _decisions(range(5200, 5202), 0.5, random.Random(2)):
        first, one = _searched(rec.state, seat, rec.history[seat])
        again, two = _searched(rec.state, seat, rec.history[seat])
        assert first == again
        assert (one is None) == (two is None)
        if one is not None:
            assert _same(one, two)
            if one.worlds:  # (a discard with one candidate left is not searched)
                phases.add(rec.state.phase)
    assert phases == set(SEARCHED)


# --------------------------------------------------------------------------- honesty on the search itself


def test_with_the_hidden_cards_moved_the_whole_search_is_the_same() -> None:
    """The invariance test of test_bots.py, on the search: the cards the seat cannot see shuffled
    among the places that hold them (every count kept), the same view, history and rng give the
    same worlds, the same mean for every candidate and the same choice, in every phase searched."""
    rnd = random.Random(11)
    checked: dict[Phase, int] = {}
    changed = 0
    for rec, seat in _decisions(range(5300, 5304), 0.5, random.Random(3)):
        state = rec.state
        other = _permuted(state, seat, rnd)
        assert other.view(seat) == state.view(seat)
        changed += other.hands != state.hands or other.kitty != state.kitty
        move, result = _searched(state, seat, rec.history[seat])
        move2, result2 = _searched(other, seat, rec.history[seat])
        assert move == move2
        assert (result is None) == (result2 is None)
        if result is not None and result.worlds:
            assert _same(result, result2), (state.phase, result.means, result2.means)
            checked[state.phase] = checked.get(state.phase, 0) + 1
    assert set(checked) == set(SEARCHED), checked
    assert sum(checked.values()) >= 20
    assert changed >= sum(checked.values()) - 2  # the hidden cards really moved


def test_a_cheaters_search_finds_the_true_margins_and_the_honest_one_does_not() -> None:
    """The cheater (tests/games/eighty_three/cheater.py: its worlds are the true deal) is the honest
    search with other worlds: naming trumps and playing a card, every world it plays is the true
    one, so each candidate's mean is its margin in the true deal. The honest search's means are not
    (it cannot see that deal) while the hand is open (the trump call and the first three tricks;
    near the end every world may end alike): the honesty tests can fail."""
    # The others' styles read from their plays are drawn a world at a time (read_plays): off here,
    # so that a world's playout is the true deal's own.
    cheater = CheatingBot(**SMALL, read_plays=False)
    checked = early = wrong = 0
    for rec, seat in _decisions(range(5400, 5403), 0.6, random.Random(4)):
        state = rec.state
        if state.phase not in (Phase.TRUMP, Phase.PLAY):
            continue
        view, history = state.view(seat), rec.history[seat]
        cheater.choose(view, list(history), decision_rng(state, seat), state=state)
        result = cheater.last
        assert result is not None and result.worlds > 1
        seen = read_seen(view, history)
        truth = [list(h) for h in state.hands]
        hooks: TrumpSearch | CardSearch
        if state.phase == Phase.TRUMP:
            hooks, cands = TrumpSearch(seen, lambda r, t=truth: t), [0, 1, 2, 3]
        else:
            hooks, cands = CardSearch(seen, lambda r, t=truth: t), [a.arg for a in view.legal]
        true_margins = [hooks.evaluate(hooks.play(truth, c)) for c in cands]
        assert result.means == true_margins
        checked += 1
        if state.phase == Phase.TRUMP or len(state.hands[seat]) >= 4:
            _, honest = _searched(state, seat, history)
            assert honest is not None
            wrong += honest.means != true_margins
            early += 1
    assert checked >= 20 and early >= 12
    assert wrong >= early - 1, (wrong, early)


# --------------------------------------------------------------------------- what the port added to the search


class _Coin:
    """A toy SearchGame: a world a number in [0, 1); candidate ``c`` scores ``c * u`` plus noise."""

    def __init__(self, noise: float) -> None:
        self.noise = noise
        self.worlds = 0

    def sample(self, rnd: random.Random) -> tuple[float, float]:
        self.worlds += 1
        return rnd.random(), rnd.random()

    def world_cost(self, world: tuple[float, float]) -> float:
        return 1.0

    def play(self, world: tuple[float, float], candidate: float) -> float:
        u, luck = world
        return candidate * u + self.noise * ((luck * 9973.0 * (1.0 + candidate)) % 1.0 - 0.5)

    def evaluate(self, outcome: float) -> float:
        return outcome

    def cost(self, outcome: float) -> float:
        return 0.0


def test_a_callers_stop_ends_the_search_after_a_whole_world() -> None:
    game = _Coin(0.1)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(game.worlds)
        return game.worlds >= 5

    budget = Budget(work=math.inf, playouts=300, z=math.inf)
    result = search(game, [0.1, 0.2, 0.3], random.Random(1), budget, stop)
    assert result.worlds == 5 and result.playouts == 15 and asked == [1, 2, 3, 4, 5]
    assert search(_Coin(0.1), [0.1, 0.2, 0.3], random.Random(1), budget).worlds == 100


def test_a_gate_below_zero_keeps_the_best_other_unless_shown_worse_than_the_first() -> None:
    budget = Budget(work=math.inf, playouts=60, z=math.inf)
    # 0.50 first against 0.48: the first is better, not by many standard errors over 30 noisy worlds
    close = [0.50, 0.48]
    seed = next(i for i in range(100) if search(_Coin(2.0), close, random.Random(i), budget).index == 0)
    assert search(_Coin(2.0), close, random.Random(seed), replace(budget, gate=-2.0)).index == 1
    # clearly worse: the first stands even so
    assert search(_Coin(0.01), [1.0, 0.1], random.Random(2), replace(budget, gate=-2.0)).index == 0
    # the best other is chosen when it is better anyway (the gate only reaches a first that won)
    assert search(_Coin(0.01), [0.1, 1.0], random.Random(3), replace(budget, gate=-2.0)).index == 1


def _protocols_hold() -> None:
    seen = _seen(WEAK, 2, 3, [])
    model = make_bot("hard").model  # type: ignore[attr-defined]
    _check_protocols(
        CallSearch(seen, model, [], False),
        TrumpSearch(seen, lambda r: []),
        DiscardSearch(seen, []),
        CardSearch(seen, lambda r: []),
    )


_protocols_hold()
