"""The game interface every game module implements, and the registry of games.

Shaped after OpenSpiel's ``Game``/``State`` and python-chess's variant registry,
kept as small as the server needs and no smaller:

- a :class:`Game` has a name, named presets of frozen, fully defaulted options,
  a seat range, teams, and builds the first :class:`State` of a match from a seed;
- a :class:`State` is an immutable value. ``legal_actions(seat)`` returns a
  sorted tuple; ``apply(seat, action)`` checks legality, raises a
  :class:`~meja.rules.errors.RulesError` (the state is unchanged: it is a value)
  or returns a :class:`Transition` with the next state and its events;
  ``view(seat)`` builds what one seat (or ``None``, a spectator) may see;
  ``awaiting()`` names the seats whose decision the game waits for;
  ``outcome()`` is ``None`` until the match ends.

What the interface carries without special cases in the server:

- **Out-of-turn actions** (Kartu Terakhir's catch and last-card call): any seat
  may have legal actions at any time; ``awaiting()`` only says whose decision
  holds the game up (what timers and bots watch), not who *may* act.
- **Simultaneous phases** (Eighty-Three's discards, the "ready for the next
  round" step here): ``awaiting()`` returns several seats, which act in any order.
- **Events for one seat only** (a challenged hand shown to the challenger, a drawn
  card): every :class:`Event` names its audience, and :func:`events_for` picks a
  seat's events by allow-list, never by deleting secrets from a copy.
- **Teams**: ``Game.teams(options, seats)``.

Actions, views and events cross the wire as plain data (str, int, bool, None,
lists and dicts of those): ``Game.decode_action`` is the only door for untrusted
input, and it raises :class:`~meja.rules.errors.BadActionError` on anything else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

from .errors import BadOptionsError

__all__ = [
    "Event",
    "Game",
    "Outcome",
    "State",
    "Transition",
    "View",
    "events_for",
    "games",
    "get_game",
    "register",
]

Wire = Any
"""Plain data that msgpack encodes as it is: None, bool, int, str, list, dict."""


class Event(NamedTuple):
    """Something that happened, for the seats allowed to see it.

    A ``NamedTuple`` rather than a frozen dataclass: as immutable, and several
    times cheaper to build, which matters because every action builds a few.

    ``data`` holds only what this audience may know, as plain wire data.
    ``only`` set: seen by those seats alone (no spectator). Otherwise seen by
    every seat and spectator except the seats in ``hidden_from``. A private fact
    is therefore two events: the full one ``only`` for its owner and a redacted
    one ``hidden_from`` that owner (a draw: the drawer sees the card, the rest
    see that a card was drawn).
    """

    kind: str
    data: Mapping[str, Wire]
    only: tuple[int, ...] | None = None
    hidden_from: tuple[int, ...] = ()

    def is_seen_by(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        if self.only is not None:
            return seat is not None and seat in self.only
        return seat is None or seat not in self.hidden_from

    def to_wire(self) -> dict[str, Wire]:
        return {"kind": self.kind, **self.data}


def events_for(events: Iterable[Event], seat: int | None) -> tuple[Event, ...]:
    """The events ``seat`` may see, in order (``None``: a spectator)."""
    return tuple(e for e in events if e.is_seen_by(seat))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: the winning seats (co-winners share) and final totals."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]


class View(Protocol):
    """What one seat may see, built by allow-list; ``to_wire`` gives plain data."""

    def to_wire(self) -> dict[str, Wire]: ...


class Action(Protocol):
    def to_wire(self) -> dict[str, Wire]: ...


@runtime_checkable
class State(Protocol):
    """An immutable game state between whole decisions."""

    @property
    def version(self) -> int: ...

    @property
    def seats(self) -> int: ...

    def legal_actions(self, seat: int) -> tuple[Any, ...]: ...

    def apply(self, seat: int, action: Any) -> Transition: ...

    def view(self, seat: int | None) -> View: ...

    def awaiting(self) -> tuple[int, ...]: ...

    def outcome(self) -> Outcome | None: ...

    def to_data(self) -> dict[str, Wire]: ...


class Transition(NamedTuple):
    """The result of an action: the next state and the events it caused, in order."""

    state: Any
    events: tuple[Event, ...]


class Game(Protocol):
    """A game: presets, seats, teams, and the start of a match."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def presets(self) -> Mapping[str, Any]: ...

    def options(self, preset: str | None = None, **overrides: Any) -> Any: ...

    def options_from_wire(self, data: Any) -> Any: ...

    def seat_range(self, options: Any) -> range: ...

    def teams(self, options: Any, seats: int) -> tuple[tuple[int, ...], ...]: ...

    def new_match(
        self, options: Any, seats: int, seed: int, deal_code: str | None = None
    ) -> Transition: ...

    def decode_action(self, data: Any) -> Any: ...

    def state_from_data(self, data: Mapping[str, Any]) -> Any: ...


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add a game to the registry under ``game.name``."""
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game:
    """The registered game called ``name``; :class:`BadOptionsError` if there is none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise BadOptionsError(f"unknown game {name!r}; known: {sorted(_REGISTRY)}") from None


def games() -> tuple[str, ...]:
    """The names of the registered games, sorted."""
    return tuple(sorted(_REGISTRY))
