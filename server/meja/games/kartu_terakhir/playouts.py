"""How ``meja bench rules`` plays Kartu Terakhir (:class:`meja.rules.playout.Playouts`).

``random-card`` (the default) plays like a casual player: a uniformly random legal
play (a Wild counts once per colour it may name); facing a Wild Draw Four, take or
challenge at random; otherwise the first legal action in sorted order (draw, then
keep...). So it draws only when it has no play, and plays a playable drawn card
(as RLCard's UNO does by itself). ``random-any`` picks uniformly among all the
legal actions of the seat on turn, voluntary draws included: rounds are then about
25 times longer (about 1,500 actions), since drawing is always allowed (3.3.3).

Out of turn, for both (:func:`turns`): whenever a catch window opens, the target
calls or a random other seat catches, with even odds, before the seat on turn
acts; while a Draw Two's penalty waits (``react``), the timed ``take`` is applied.
Every action counts: plays, draws, keeps, takes, the timed penalty draw of a
Draw Two, calls and catches. Seat counts 2, 4, 7 and 10 by default; ``--stacking``
plays with the stacking house rule on.

The yardstick is RLCard's UNO (``tools/bench_rlcard_uno.py``, rlcard 1.2 in a
scratch venv): the target is at least twice its actions per second at 2 and 4
seats, with RLCard's own random loop (``env.run`` with ``RandomAgent``) measured
at about 35,000-40,000 actions per CPU second on the project's 2-core machine;
hence the target of 70,000, judged per CPU second too (on a shared machine the
wall clock measures the neighbours, and the yardstick script reports the same
figure, so the two compare in any sitting). Measured when written (CPython
3.11.7, load average 2-5, per CPU second): this engine, random-card, about
160,000-180,000 actions at every seat count; RLCard 1.2 in the same sitting:
``env.run`` with ``RandomAgent`` about 37,000-41,000, ``env.step`` about
63,000-67,000, its bare ``UnoGame.step`` about 170,000 (mutable state, no
events, no checks, and rules without challenges, calls, catches or voluntary
draws).
"""

from __future__ import annotations

from typing import Final

from meja.rules.playout import Chance, Playouts, Policy, Target, Turn, random_any, take_turn

from .rules import CALL, CATCH, CHALLENGE, TAKE, KartuTerakhirState, Move

__all__ = ["PLAYOUTS", "TARGET", "random_card", "turns"]

#: Actions per CPU second at 2 and 4 seats with random-card: twice RLCard's random loop.
TARGET: Final = 70_000.0
_STEP: Final = 1000  # Move values below this are plays (rules.Move)


def random_card(legal: tuple[Move, ...], chance: Chance) -> Move:
    """A random play; facing a Wild Draw Four, take or challenge at random; else the first legal action."""
    first = legal[0]
    if first < _STEP:
        n = 1
        end = len(legal)
        while n < end and legal[n] < _STEP:
            n += 1
        return first if n == 1 else legal[int(chance.random() * n)]
    if first == TAKE and len(legal) > 1 and legal[1] == CHALLENGE:
        return legal[int(chance.random() * 2)]
    return first


def turns() -> Turn:
    """A playout's turns: a new catch window first gets its call or catch, else :func:`take_turn`."""
    window = -1

    def turn(state: KartuTerakhirState, policy: Policy, chance: Chance) -> tuple[int, Move]:
        nonlocal window
        # A window opens only with a play, which closes the one before: a new target is a new window.
        if state.window != window and state.window >= 0:
            window = target = state.window
            if chance.random() < 0.5:
                return target, CALL
            other = int(chance.random() * (state.seats - 1))
            return (other if other < target else other + 1), CATCH
        window = state.window
        awaiting = state.awaiting()
        if len(awaiting) == 1:  # take_turn's usual case inline (a call less per action)
            return awaiting[0], policy(state.legal_actions(awaiting[0]), chance)
        seat, move = take_turn(state, policy, chance)
        return seat, move

    return turn


PLAYOUTS: Final = Playouts(
    policies={"random-card": random_card, "random-any": random_any},
    default_policy="random-card",
    policy_help="random-card (default): a random play, a draw only when stuck, calls and catches at even odds;"
    " random-any: voluntary draws too",
    turns=turns,
    seats=(2, 4, 7, 10),
    flags=("stacking",),
    target=Target(
        metric="actions_per_cpu_s",
        value=TARGET,
        seats=(2, 4),
        policy="random-card",
        yardstick="2x RLCard 1.2 UNO, env.run with RandomAgent (tools/bench_rlcard_uno.py --level run)",
    ),
)
