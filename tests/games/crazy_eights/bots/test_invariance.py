"""Information-set invariance: a bot's action depends only on what its seat may know.

At decisions along real rounds, the cards the seat cannot see (the other hands
and the stock) are permuted among those places, keeping every count; the seat's
view must be unchanged, and with the same history and the same rng every level
and yardstick must choose the same action. (The companion test,
``test_cheater.py``, shows that seeing those cards *would* change the results,
so this one is not blind.)
"""

from __future__ import annotations

import random

import pytest
from meja.games.crazy_eights.bots import LEVELS, YARDSTICKS, get_bot, make_bot
from meja.games.crazy_eights.rules import CrazyEightsState, Phase
from meja.rules import get_game

from ...honesty import permuted

GAME = get_game("crazy_eights")


def _permuted(state: CrazyEightsState, seat: int, rnd: random.Random) -> CrazyEightsState:
    return GAME.state_from_data(permuted(state, seat, rnd))


@pytest.mark.parametrize("name", LEVELS + YARDSTICKS)
@pytest.mark.parametrize(("preset", "seats"), [("house", 2), ("house", 3), ("classic", 3), ("party", 4)])
def test_same_view_same_history_same_rng_same_action(name: str, preset: str, seats: int) -> None:
    bot = make_bot(name, deadline=None, playouts=150) if name == "hard" else get_bot(name)
    rnd = random.Random(f"{name}/{preset}/{seats}")
    checked = changed = 0
    for game_no in range(3):
        tr = GAME.new_match(GAME.options(preset), seats, 400 + game_no)
        state = tr.state
        history: list[list[dict[str, object]]] = [[] for _ in range(seats)]

        def deliver(events: object, history: list[list[dict[str, object]]] = history) -> None:
            for e in events:  # type: ignore[attr-defined]
                for s in range(seats):
                    if e.is_seen_by(s):
                        history[s].append(e.to_wire())

        deliver(tr.events)
        while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
            seat = state.awaiting()[0]
            view = state.view(seat)
            rng = state.bot_rng(seat).derive(f"decision/{state.version}")
            move = bot.choose(view, history[seat], rng)
            if len(view.legal) > 1 and checked < 12:
                other = _permuted(state, seat, rnd)
                changed += other.hands != state.hands or other.stock != state.stock
                view2 = other.view(seat)
                assert view2 == view
                assert bot.choose(view2, list(history[seat]), rng) == move
                checked += 1
            tr = state.apply(seat, move)
            state = tr.state
            deliver(tr.events)
    assert checked >= 6
    assert changed >= checked - 1  # the hidden cards really moved
