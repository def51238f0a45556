"""The bot interface every game's bots implement, and what all bots share.

A bot is a policy: ``choose(view, history, rng) -> action | None``, a pure
function of what one seat has seen and an :class:`~meja.rules.rng.Rng`:

- ``view`` is the game's ``state.view(seat)``; ``view.legal`` lists the seat's
  legal actions (:class:`meja.rules.game.View`);
- ``history`` holds the wire dicts (``Event.to_wire()``) of the events this seat
  saw since its round began (the game's events only, oldest first);
- ``rng`` is :func:`decision_rng`, unique to (round, seat, decision).

A bot keeps no memory between calls (any server process may ask), never sees
more than the seat may, and returns the same action for the same inputs. It is
asked for every seat the state lists in ``actors()``: for a seat the game
awaits it returns one of ``view.legal``; for a seat that may act out of turn (a
catch) it may return ``None``, meaning "not now".

Each game keeps its bots in its own folder (``meja/games/<name>/bots``) and names
them in its :class:`meja.games.GamePlugin`: the levels a host chooses (``easy``,
``normal``, ``hard``) and frozen yardsticks to measure them against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ..rules.game import State
from ..rules.rng import Rng

__all__ = ["Bot", "History", "RandomAnyBot", "decision_rng"]

History = Sequence[Mapping[str, Any]]


@runtime_checkable
class Bot(Protocol):
    """A policy over one seat's information (see the module docstring)."""

    name: str
    #: whether ``choose`` reads ``history`` (a server reads the round's log only for bots that do)
    needs_history: bool
    #: whether ``choose`` takes long enough (a search) to be run off a server's event loop
    blocking: bool

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None: ...


def decision_rng(state: State, seat: int) -> Rng:
    """The rng for ``seat``'s decision now: unique to (round, seat, version), as the server passes it.

    Kept here so that the server, the benchmarks and the tests derive it the same way.
    """
    return state.bot_rng(seat).derive(f"decision/{state.version}")


class RandomAnyBot:
    """A yardstick for any game: uniform over every legal action (out of turn too: it never declines)."""

    name = "random-any"
    needs_history = False
    blocking = False

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None:
        if not view.legal:
            return None
        action, _ = rng.choice(view.legal)
        return action


class Roster:
    """A game's bots by name: its levels (what players choose), then its yardsticks (frozen bots
    the levels are measured against), each made by its factory with tuning parameters. A game's
    ``bots`` module publishes ``LEVELS``, ``YARDSTICKS``, ``names`` and ``make_bot`` from one
    (:meth:`of` and :meth:`exports`: two lines)."""

    def __init__(
        self, levels: tuple[str, ...], yardsticks: tuple[str, ...], factories: Mapping[str, Callable[..., Bot]]
    ) -> None:
        if set(factories) != set(levels) | set(yardsticks):
            raise ValueError(f"the factories {sorted(factories)} are not the levels and yardsticks")
        self.levels, self.yardsticks, self._factories = levels, yardsticks, dict(factories)

    @classmethod
    def of(cls, levels: Mapping[str, Callable[..., Bot]], yardsticks: Mapping[str, Callable[..., Bot]]) -> Roster:
        """A roster from the levels' factories and the yardsticks', each in its order."""
        return cls(tuple(levels), tuple(yardsticks), {**levels, **yardsticks})

    def exports(
        self,
    ) -> tuple[tuple[str, ...], tuple[str, ...], Callable[[], tuple[str, ...]], Callable[..., Bot]]:
        """What a game's ``bots`` module publishes: ``LEVELS, YARDSTICKS, names, make_bot = ROSTER.exports()``."""
        return self.levels, self.yardsticks, self.names, self.make_bot

    def names(self) -> tuple[str, ...]:
        """Every bot name: the levels, then the yardsticks."""
        return self.levels + self.yardsticks

    def make_bot(self, name: str, **params: Any) -> Bot:
        """The bot called ``name``, with parameters for tuning and tests (``make_bot("hard", playouts=400)``)."""
        try:
            factory = self._factories[name]
        except KeyError:
            raise ValueError(f"unknown bot {name!r}; known: {list(self.names())}") from None
        return factory(**params)
