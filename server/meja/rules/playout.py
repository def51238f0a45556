"""Random playouts over the game contract, and the hooks a game declares for them.

A playout deals a round with ``Game.new_match`` and plays it until
``State.in_round()`` is false, each step chosen by a *turn*: by default
(:func:`take_turn`) the seat awaited (drawn at random where several may act)
plays what a *policy* picks among its legal actions, and when no seat is
awaited the first timed action is applied (a game's clock, as the server's
timer would). ``meja bench rules`` (:mod:`meja.bench.rules`) times playouts of
every registered game; a game only says how it wants to be played, in a
:class:`Playouts` on its plugin: its policies (a uniformly random legal action,
:func:`random_any`, when it names none), a turn of its own where seats act out
of turn, its seat counts, the boolean options worth a flag, and a target.

Pure like the rest of :mod:`meja.rules`: the randomness is the caller's
(anything with ``random() -> float``; the benchmark passes a seeded
:class:`random.Random`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

__all__ = [
    "MAX_ROUND_ACTIONS",
    "Chance",
    "Playouts",
    "Policy",
    "Target",
    "Turn",
    "playout",
    "random_any",
    "take_turn",
]

#: A round past this many actions is a bug (an engine that never ends a round).
MAX_ROUND_ACTIONS: Final = 1_000_000


class Chance(Protocol):
    """The randomness of a playout: a float in [0, 1) per call."""

    def random(self) -> float: ...


Policy = Callable[[tuple[Any, ...], Chance], Any]
"""A policy: ``(legal_actions, chance) -> action``; ``legal_actions`` is sorted and not empty."""

Turn = Callable[[Any, Policy, Chance], tuple[int, Any]]
"""One step of a playout: ``(state, policy, chance) -> (seat, action)``."""


def random_any(legal: tuple[Any, ...], chance: Chance) -> Any:
    """Uniform over every legal action."""
    return legal[int(chance.random() * len(legal))]


def take_turn(state: Any, policy: Policy, chance: Chance) -> tuple[int, Any]:
    """The awaited seat's choice (one drawn at random if several may act), else the first timed action."""
    awaiting = state.awaiting()
    if awaiting:
        seat = awaiting[0] if len(awaiting) == 1 else awaiting[int(chance.random() * len(awaiting))]
        return seat, policy(state.legal_actions(seat), chance)
    timed = state.timed_actions()
    if not timed:
        raise RuntimeError("a round in progress awaits no seat and no timed action")
    return timed[0].seat, timed[0].action


def plain_turns() -> Turn:
    """The turns of a game where only awaited seats act: :func:`take_turn` throughout."""
    return take_turn


@dataclass(frozen=True)
class Target:
    """A figure a game's engine should reach: ``metric`` of a configuration (``rounds_per_s``,
    ``actions_per_cpu_s``...) at least ``value``, at each of ``seats`` (of ``preset``, if named)
    with ``policy``; ``yardstick`` says where the value comes from."""

    metric: str
    value: float
    seats: tuple[int, ...]
    policy: str
    preset: str | None = None
    yardstick: str = ""


@dataclass(frozen=True)
class Playouts:
    """How a game wants its random playouts played (:attr:`meja.games.GamePlugin.playouts`).

    ``policies``: by name, the first one described first in ``policy_help``;
    ``default_policy``: one of them, or ``"all"``. ``turns()`` makes the turn
    of one playout (a fresh one per round, so it may remember what it saw).
    ``unit``: what a game calls a round ("hand"). ``seats``: the seat counts
    measured by default (none: every count each preset allows). ``flags``:
    boolean options offered as ``--<name>`` (on for every configuration).
    ``note``: a sentence the report ends with.
    """

    policies: Mapping[str, Policy] = field(default_factory=lambda: {"random-any": random_any})
    default_policy: str = "random-any"
    policy_help: str = "random-any: uniform over every legal action"
    turns: Callable[[], Turn] = plain_turns
    unit: str = "round"
    seats: tuple[int, ...] = ()
    flags: tuple[str, ...] = ()
    target: Target | None = None
    note: str = ""

    def __post_init__(self) -> None:
        if self.default_policy != "all" and self.default_policy not in self.policies:
            raise ValueError(f"default policy {self.default_policy!r} is not one of {sorted(self.policies)}")


def playout(game: Any, options: Any, seats: int, seed: int, policy: Policy, chance: Chance, turn: Turn) -> int:
    """Deal a round from ``seed`` and play it to its end; return the number of actions."""
    state = game.new_match(options, seats, seed).state
    actions = 0
    plain = turn is take_turn  # its usual case inline: one awaited seat (a call less per action)
    while state.in_round():
        awaiting: tuple[int, ...] = state.awaiting() if plain else ()
        if len(awaiting) == 1:
            seat = awaiting[0]
            state = state.apply(seat, policy(state.legal_actions(seat), chance)).state
        else:
            seat, action = turn(state, policy, chance)
            state = state.apply(seat, action).state
        actions += 1
        if actions > MAX_ROUND_ACTIONS:
            raise RuntimeError(f"the round of seed {seed} did not end in {MAX_ROUND_ACTIONS} actions")
    return actions
