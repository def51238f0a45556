"""The bots' API as the server uses it: names, get_bot, choose(view, history, rng), legality, determinism."""

from __future__ import annotations

from typing import Any

import pytest
from meja import bots
from meja.bench.bots import Bench, Tally
from meja.games.crazy_eights.bots import LEVELS, YARDSTICKS, get_bot, make_bot
from meja.games.crazy_eights.rules import Phase
from meja.rules import get_game

GAME = get_game("crazy_eights")
BENCH = Bench("crazy_eights")
TABLES = [("house", 2), ("house", 3), ("classic", 2), ("classic", 4), ("party", 3), ("party", 6)]


def see(history: list[list[dict[str, object]]], events: Any) -> None:
    """Give each seat's history the events that seat may see (as the server does)."""
    for e in events:
        for seat, seen in enumerate(history):
            if e.is_seen_by(seat):
                seen.append(e.to_wire())


def test_names_and_registry() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    assert YARDSTICKS == ("random-any", "random-card", "greedy")
    for name in LEVELS + YARDSTICKS:
        bot = get_bot(name)
        assert isinstance(bot, bots.Bot)
        assert bot.name == name
    with pytest.raises(ValueError, match="unknown bot"):
        get_bot("grandmaster")


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
@pytest.mark.parametrize(("preset", "seats"), TABLES)
def test_every_bot_plays_whole_rounds_legally(name: str, preset: str, seats: int) -> None:
    bot = make_bot(name, playouts=60) if name == "hard" else get_bot(name)
    tally = Tally()
    for seed in range(2):
        tr = GAME.new_match(GAME.options(preset), seats, 31 + seed)
        res = BENCH.play_game(tr.state, tr.events, [bot] * seats, ["A"] * seats, tally, options=GAME.options(preset))
        assert len(res.rounds) == 1 and res.rounds[0].winner >= 0
    assert tally.illegal == 0
    assert tally.times["A"]


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
def test_same_inputs_same_action(name: str) -> None:
    """A bot is a pure function of (view, history, rng): ask twice, get the same answer, at every decision."""
    bot = make_bot(name, deadline=None, playouts=120) if name == "hard" else get_bot(name)
    tr = GAME.new_match(GAME.options("house"), 3, 99)
    state = tr.state
    history: list[list[dict[str, object]]] = [[], [], []]
    see(history, tr.events)
    decisions = 0
    while state.phase == Phase.PLAY:
        seat = state.awaiting()[0]
        view = state.view(seat)
        rng = state.bot_rng(seat).derive(f"decision/{state.version}")
        first = bot.choose(view, history[seat], rng)
        assert bot.choose(view, list(history[seat]), rng) == first
        assert first in view.legal
        tr = state.apply(seat, first)
        state = tr.state
        see(history, tr.events)
        decisions += 1
    assert decisions > 5


def test_the_default_hard_bot_answers_from_a_fresh_deal() -> None:
    tr = GAME.new_match(GAME.options("house"), 2, 5)
    state = tr.state
    history = [e.to_wire() for e in tr.events if e.is_seen_by(state.turn)]
    move = get_bot("hard").choose(state.view(state.turn), history, state.bot_rng(state.turn))
    assert move in state.legal_actions(state.turn)


def test_hard_without_history_still_plays_legally() -> None:
    """A server that passes no history gets a weaker bot (no inference), never an error."""
    tr = GAME.new_match(GAME.options("house"), 3, 8)
    state = tr.state
    bot = make_bot("hard", playouts=60)
    for _ in range(30):
        if state.phase != Phase.PLAY:
            break
        seat = state.turn
        move = bot.choose(state.view(seat), [], state.bot_rng(seat))
        assert move in state.legal_actions(seat)
        state = state.apply(seat, move).state


@pytest.mark.parametrize("name", ["easy", "normal", "hard", "greedy", "random-card"])
def test_no_voluntary_draws(name: str) -> None:
    """docs/bots.md: drawing while holding a legal card looks good in sampled worlds and is bad in play."""
    bot = make_bot(name, work=3000) if name == "hard" else get_bot(name)
    draws = 0
    for seed in range(3):
        tr = GAME.new_match(GAME.options("house"), 2, 60 + seed)
        state = tr.state
        history: list[list[dict[str, object]]] = [[], []]
        see(history, tr.events)
        while state.phase == Phase.PLAY:
            seat = state.turn
            view = state.view(seat)
            move = bot.choose(view, history[seat], bots.decision_rng(state, seat))
            if move.kind.wire == "draw":
                draws += 1
                assert not any(a.kind.wire == "play" for a in view.legal), view.hand
            tr = state.apply(seat, move)
            state = tr.state
            see(history, tr.events)
    assert draws > 0


def test_the_deadline_makes_the_search_anytime() -> None:
    """With a deadline already past, the search stops after one whole world and still answers legally."""
    tr = GAME.new_match(GAME.options("house"), 2, 5)
    state = tr.state
    history = [e.to_wire() for e in tr.events if e.is_seen_by(state.turn)]
    view = state.view(state.turn)
    hurried = make_bot("hard", deadline=0.0)
    unhurried = make_bot("hard", deadline=None, work=6000)
    assert hurried.choose(view, history, state.bot_rng(0)) in view.legal
    unhurried.choose(view, history, state.bot_rng(0))
    assert hurried.last_worlds == 1  # type: ignore[attr-defined]
    assert unhurried.last_worlds > 1  # type: ignore[attr-defined]
