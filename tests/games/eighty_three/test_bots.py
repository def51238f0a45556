"""Eighty-Three's bots: legal, deterministic, honest (invariance and a cheater), cooperative, and measured.

Small budgets keep the default run to seconds; ``MEJA_LONG=1`` plays more hands.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from meja.bench.bots import Bench, Tally
from meja.bench.bots import mean_ci as _mean_ci
from meja.bots.base import decision_rng
from meja.cli import main
from meja.games.eighty_three.bots import LEVELS, YARDSTICKS, make_bot
from meja.games.eighty_three.bots.common import ESUIT, arrange, read_seen
from meja.games.eighty_three.bots.sim import playout
from meja.games.eighty_three.bots.worlds import play_world, trump_bounds
from meja.games.eighty_three.bots.yardstick import estimate
from meja.games.eighty_three.rules import EightyThreeState, Kind, Phase, is_trump, parse_cards, play

from .cheater import CheatingBot
from .e83_helpers import GAME, play_state

BENCH = Bench("eighty_three")
deals, play_deal, measure = BENCH.deals, BENCH.play_deal, BENCH.measure

LONG = os.environ.get("MEJA_LONG") == "1"
HANDS = 40 if LONG else 8


def _bot(name: str, **extra: Any) -> Any:
    if name == "hard":
        return make_bot("hard", playouts=48, bid_playouts=24, deadline=None, **extra)
    return make_bot(name, **extra)


class Recorder:
    """Plays hands as the server asks bots (view, history since hand_start, decision rng), keeping each seat's log."""

    def __init__(self, seed: int, bots: list[Any]) -> None:
        tr = GAME.new_match("standard", 4, seed)
        self.state: EightyThreeState = tr.state
        self.bots = bots
        self.history: list[list[dict[str, Any]]] = [[] for _ in range(4)]
        self.deliver(tr.events)

    def deliver(self, events: Any) -> None:
        for e in events:
            if e.kind == "hand_start":
                for h in self.history:
                    h.clear()
            for s in range(4):
                if e.is_seen_by(s):
                    self.history[s].append(e.to_wire())

    def step(self) -> tuple[int, Any]:
        seat = self.state.awaiting()[0]
        move = self.bots[seat].choose(self.state.view(seat), self.history[seat], decision_rng(self.state, seat))
        assert move in self.state.legal_actions(seat), (seat, move)
        tr = self.state.apply(seat, move)
        self.state = tr.state
        self.deliver(tr.events)
        return seat, move


# --------------------------------------------------------------------------- legal, ends, valid end states


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_every_bot_plays_legal_hands_to_their_end(name: str) -> None:
    bot = _bot(name)
    for seed in range(HANDS):
        rec = Recorder(1000 + seed, [bot] * 4)
        checked_end_state = False
        while rec.state.phase <= Phase.PLAY:
            if rec.state.phase == Phase.PLAY and not checked_end_state:
                # the discard phase the bots arranged ended valid: 6 cards each, 4.6.6 kept
                assert rec.state.end_state_problems() == []
                assert [len(h) for h in rec.state.hands] == [6, 6, 6, 6]
                checked_end_state = True
            rec.step()
        assert checked_end_state
        assert rec.state.last_hand is not None and sum(rec.state.last_hand.captured) == 83


def test_bench_games_of_every_pairing_have_no_illegal_action() -> None:
    tally = Tally()
    for (code, ms), (a, b) in zip(
        deals(4, "dev", start=500),
        [("hard", "yardstick"), ("normal", "easy"), ("easy", "random-any"), ("yardstick", "normal")],
        strict=True,
    ):
        r = play_deal(code, ms, _bot(a), _bot(b), tally)
        assert r.rounds == 2
    assert tally.counts["A_bids"] + tally.counts["B_bids"] == 8
    assert tally.illegal == 0
    assert set(tally.times) == {"A", "B"}


def test_bots_answer_with_an_empty_history() -> None:
    """A server may ask with no history (as test_e83_plugin does): the view alone must do."""
    rng = random.Random(7)
    for name in LEVELS + YARDSTICKS:
        bot = _bot(name)
        state = GAME.new_match("standard", 4, 77).state
        while state.phase <= Phase.PLAY:
            seat = rng.choice(state.actors())
            move = bot.choose(state.view(seat), [], decision_rng(state, seat))
            assert move in state.legal_actions(seat)
            state = state.apply(seat, move).state


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", LEVELS)
def test_same_seed_same_hand(name: str) -> None:
    def transcript() -> list[tuple[int, Any]]:
        rec = Recorder(31, [_bot(name) for _ in range(4)])
        out = []
        while rec.state.phase <= Phase.PLAY:
            out.append(rec.step())
        return out

    first = transcript()
    assert transcript() == first
    assert len(first) > 20


# --------------------------------------------------------------------------- honesty


def _permuted(state: EightyThreeState, seat: int, rnd: random.Random) -> EightyThreeState:
    """The cards ``seat`` cannot see shuffled among the places that hold them, every count kept.

    The places: the other hands (not the partner's in the discard phase, where the
    seat sees its partner's trump counts), the kitty, and the others' face-down discards.
    """
    data = state.to_data()
    others = [s for s in range(4) if s != seat and not (state.phase == Phase.DISCARD and s == (seat + 2) % 4)]
    places: list[list[int]] = [data["hands"][s] for s in others] + [data["kitty"]]
    places += [data["buried"][s] for s in range(4) if s != seat]
    hidden = [c for p in places for c in p]
    rnd.shuffle(hidden)
    at = 0
    for p in places:
        k = len(p)
        p[:] = sorted(hidden[at : at + k])
        at += k
    return GAME.state_from_data(data)


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_same_view_same_history_same_rng_same_action(name: str) -> None:
    bot = _bot(name)
    rnd = random.Random(name)
    checked = changed = 0
    phases: set[Phase] = set()
    for seed in range(4):
        rec = Recorder(2000 + seed, [bot] * 4)
        while rec.state.phase <= Phase.PLAY:
            state = rec.state
            seat = state.awaiting()[0]
            view = state.view(seat)
            if len(view.legal) > 1 and rnd.random() < 0.5:
                rng = decision_rng(state, seat)
                move = bot.choose(view, rec.history[seat], rng)
                other = _permuted(state, seat, rnd)
                changed += other.hands != state.hands or other.kitty != state.kitty
                assert other.view(seat) == view
                assert bot.choose(other.view(seat), list(rec.history[seat]), rng) == move
                checked += 1
                phases.add(state.phase)
            rec.step()
    assert checked >= 20
    assert changed >= checked - 2  # the hidden cards really moved
    assert {Phase.AUCTION, Phase.PLAY} <= phases


def test_seeing_the_hidden_cards_scores_clearly_higher() -> None:
    """The same search, handed the true deal, beats the honest one: so the invariance test can fail.

    The cheater bids by simulating its contract in the true deal (``auction="old"``): its
    auction search would otherwise spend what it knows on guessing the others' later calls.
    """
    cheater = CheatingBot(playouts=24, bid_playouts=12, deadline=None, auction="old")
    honest = make_bot("hard", playouts=24, bid_playouts=12, deadline=None)
    tally = Tally()
    results = [play_deal(code, ms, cheater, honest, tally) for code, ms in deals(24, "dev", start=9000)]
    margin, low, _ = _mean_ci([r.margin for r in results])
    assert tally.illegal == 0
    assert margin > 5 and low > 0, (margin, low)


def test_the_worlds_hold_what_the_seat_inferred() -> None:
    """Every constraint the hard bot's worlds obey is true of the real deal, and each world keeps them."""
    bot = make_bot("normal")
    rnd = random.Random(5)
    checks = 0
    for seed in range(HANDS):
        rec = Recorder(3000 + seed, [bot] * 4)
        while rec.state.phase <= Phase.PLAY:
            state = rec.state
            if state.phase == Phase.PLAY:
                seat = state.turn
                seen = read_seen(state.view(seat), rec.history[seat])
                lo, hi = trump_bounds(seen)
                for s in range(4):
                    if s == seat:
                        continue
                    true_hand = state.hands[s]
                    held = [c for c in true_hand if is_trump(c, state.trump) and c not in seen.given]
                    assert lo[s] <= len(held) <= hi[s], (s, lo, hi, true_hand)
                    for c in true_hand:
                        assert ESUIT[state.trump][c] not in seen.voids[s]
                world = play_world(seen, rnd)
                assert world[seat] == seen.hand
                assert [len(h) for h in world] == [len(h) for h in state.hands]
                unseen = {c for s in range(4) if s != seat for c in state.hands[s]}
                buried = {c for s in range(4) if s != seat for c in state.buried[s]}
                assert {c for s in range(4) if s != seat for c in world[s]} <= unseen | buried
                checks += 1
            rec.step()
    assert checks >= 20 * HANDS


# --------------------------------------------------------------------------- the simulator is the engine


def test_playouts_agree_with_the_engine() -> None:
    """Hands played by four normal bots through the engine end as the simulator's playout says."""
    bot = make_bot("normal")
    for seed in range(HANDS * 3):
        rec = Recorder(4000 + seed, [bot] * 4)
        while rec.state.phase != Phase.PLAY:
            rec.step()
        state = rec.state
        six = [list(h) for h in state.hands]
        # the bots auto-arrange: the rules' own auto_decision and auto_trim give the same hands
        deal = GAME.new_match("standard", 4, 4000 + seed).state
        dealt = [list(h) for h in deal.hands]
        dealt[state.bidder] = sorted(dealt[state.bidder] + list(deal.kitty))
        assert [sorted(h) for h in arrange(dealt, state.trump)] == [sorted(h) for h in six]
        gone = {c for c in range(53) if not any(c in h for h in six)}
        predicted = playout(six, [], state.bidder, state.trump, gone, [0, 0])
        while rec.state.phase == Phase.PLAY:
            rec.step()
        assert rec.state.last_hand is not None
        assert list(rec.state.last_hand.captured) == predicted


# --------------------------------------------------------------------------- partners


def test_last_to_play_never_trumps_its_partners_winner() -> None:
    # hearts trump; seat 0 led 4S, the partner (seat 1) is winning with AS; seat 3 plays last
    state = play_state(["2C", "9C", "10C", "7S 4H"], trump="H", bidder=0, leader=0, trick="4S AS 5S")
    assert {play("7S"), play("4H")} <= set(state.legal_actions(3))
    for name in ("normal", "hard"):
        bot = _bot(name)
        assert bot.choose(state.view(3), [], decision_rng(state, 3)) == play("7S"), name


def test_last_to_play_gives_its_partners_winner_the_joker() -> None:
    # the joker kept would fall to seat 0's 2H in the last trick; on the partner's trick it is the team's
    state = play_state(["2H", "9C", "10C", "7S JK"], trump="H", bidder=0, leader=0, trick="4S AS 5S")
    for name in ("normal", "hard"):
        bot = _bot(name)
        assert bot.choose(state.view(3), [], decision_rng(state, 3)) == play("JK"), name


def test_the_yardstick_estimate_is_the_stated_formula() -> None:
    # the module docstring's example: A K 10 9 and the joker of trumps
    assert estimate(parse_cards("AH KH 10H 9H JK 2C"), 1) == 68.0
    assert estimate(parse_cards("AH KH 10H 9H JK 2C"), 0) == 10 + 2 + 9  # spades: only the joker


# --------------------------------------------------------------------------- the benchmark


def test_bench_figures_and_floors() -> None:
    fig = measure(12, "normal", "easy", seed_set="dev", start=7000)
    assert fig["illegal_actions"] == 0 and fig["deals"] == 12 and fig["hands_played"] == 24
    lo, hi = fig["points_margin_per_hand"]["ci95"]
    assert lo <= fig["points_margin_per_hand"]["mean"] <= hi
    bids = fig["bid_success"]
    assert bids["a"]["bids"] + bids["b"]["bids"] == 24
    assert fig["decision_cpu_ms"]["a"]["n"] > 0


def test_bench_partnership_mode_seats_each_bot_beside_the_partner() -> None:
    # The same bot on both sides: the two seatings mirror each other card for card, so every deal's margin is 0.
    same = measure(3, "normal", "normal", seed_set="dev", partner="yardstick")
    assert same["points_margin_per_hand"]["mean"] == 0.0 and same["illegal_actions"] == 0
    cpu = same["decision_cpu_ms"]
    assert cpu["partner"]["n"] > 0 and cpu["a"]["n"] > 0 and cpu["a"]["n"] == cpu["b"]["n"]
    # The partners are the yardstick: normal partnering it is not normal partnering normal.
    fig = measure(6, "normal", "easy", seed_set="dev", partner="yardstick")
    own = measure(6, "normal", "easy", seed_set="dev")
    assert fig["partner"] == "yardstick" and "--partner yardstick" in fig["command"]
    assert fig["points_margin_per_hand"] != own["points_margin_per_hand"]


def test_bench_whole_matches_give_a_match_win_rate() -> None:
    tally = Tally()
    code, ms = deals(1, "heldout")[0]
    for team_a in (0, 1):
        bots = [make_bot("normal") if s % 2 == team_a else make_bot("yardstick") for s in range(4)]
        tr = GAME.new_match("standard", 4, ms, deal_code=code)
        labels = ["A" if s % 2 == team_a else "B" for s in range(4)]
        res = BENCH.play_game(tr.state, tr.events, bots, labels, tally, rounds=0)
        assert res.winners in ((0,), (1,)) and max(res.state.last_hand.scores) >= 200
    assert tally.illegal == 0


def test_the_command_prints_json_and_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    hard = "hard:playouts=24,bid_playouts=8"
    args = ["bench", "bots", "--game", "eighty_three", "--json", "--deals", "2", "--a", hard]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["illegal_actions"] == 0 and out["deals"] == 2 and out["b"] == "yardstick"
    assert set(out["decision_cpu_ms"]["a"]) >= {"mean", "p50", "p95", "p99", "max"}
    assert main(["bench", "bots", "--game", "eighty_three", "--deals", "2", "--a", "normal", "--b", "easy"]) == 0
    text = capsys.readouterr().out
    assert "points margin" in text and "bid success" in text and "illegal actions  0" in text


def test_the_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["bench", "bots", "--game", "eighty_three", "--help"])
    assert info.value.code == 0
    assert "--seed-set" in capsys.readouterr().out


def test_seed_sets_are_fixed_and_disjoint() -> None:
    dev = deals(50, "dev")
    assert dev == deals(50, "dev")
    assert not {c for c, _ in dev} & {c for c, _ in deals(50, "heldout")}
    with pytest.raises(ValueError, match="seed set"):
        deals(1, "test")


def test_hard_plays_a_card_even_past_its_deadline() -> None:
    state = play_state(["2H", "9C", "10C", "7S JK"], trump="H", bidder=0, leader=0, trick="4S AS 5S")
    bot = make_bot("hard", deadline=0.0)
    move = bot.choose(state.view(3), [], decision_rng(state, 3))
    assert move in state.legal_actions(3) and move.kind == Kind.PLAY
    assert bot.last_worlds == 1


def test_the_demo_narrates_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--game", "eighty_three", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "wins the auction" in out and "names" in out and "trick 6:" in out and "hand over" in out
