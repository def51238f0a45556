"""What the registry knows of a game: its rules, its bots, its page module and protocol section.

A :class:`GamePlugin` is the one object a game's folder exports (as ``PLUGIN``
in ``meja/games/<name>/__init__.py``). The server reaches a game only through
it: the rules through :attr:`GamePlugin.game` (the contract of
:mod:`meja.rules.game`), the bots by level through :meth:`GamePlugin.bot`, and
the page module through :attr:`GamePlugin.page` (served at ``/games/<name>/``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meja.bots.base import Bot
from meja.rules.errors import RulesError
from meja.rules.game import Event, Game, Wire
from meja.rules.lessons import Guide
from meja.rules.playout import Playouts

__all__ = [
    "Act",
    "Frame",
    "GamePlugin",
    "Host",
    "Narration",
    "Refused",
    "act_frames",
    "error_frame",
    "fixture_frames",
    "refusal",
]

Frame = tuple[str, str, str, dict[str, Any]]
"""A golden frame of a game's protocol section: ``(direction, name, description, message)``."""
Act = tuple[str, str, "int | None", int, dict[str, Any]]
"""An ``act`` frame as a game's ``fixtures`` module lists it: ``(name, description, id, version, action)``."""
Host = tuple[str, str, str, dict[str, Any]]
"""A ``host`` frame as a game's ``fixtures`` module lists it: ``(name, description, id, fields)``."""
Refused = tuple[str, str, Callable[[], str], int]
"""An ``action/illegal`` answer as a ``fixtures`` module lists it: ``(name, description, message(), re)``,
``message`` giving the rules' own words (:func:`refusal` of a stacked state)."""


@dataclass(frozen=True)
class Narration:
    """How ``meja demo`` tells a game's round (:mod:`meja.bench.demo`): ``opening(state)``, the lines
    shown at the deal (hands, for the reader); ``lines``, by event kind, what to say of an event
    everyone sees: a :meth:`str.format` template of its data, or ``(data, state after) -> line``
    (``None``, or a kind not listed: nothing worth saying)."""

    opening: Callable[[Any], list[str]]
    lines: Mapping[str, str | Callable[[dict[str, Any], Any], str | None]]

    def say(self, event: Event, state: Any) -> str | None:
        line = self.lines.get(event.kind)
        data = dict(event.data)
        if line is None or isinstance(line, str):
            return None if line is None else line.format(**data)
        return line(data, state)


def act_frames(table_id: str, acts: Sequence[Act]) -> list[Frame]:
    """The client's ``act`` frames of ``acts`` at ``table_id`` (``id`` left out where ``None``)."""
    out: list[Frame] = []
    for name, about, id_, version, action in acts:
        msg: dict[str, Any] = {"type": "act"}
        if id_ is not None:
            msg["id"] = id_
        msg.update(table=table_id, version=version, action=action)
        out.append(("client", name, about, msg))
    return out


def host_frame(name: str, about: str, id_: str, game: str, **fields: Any) -> Frame:
    """The client's ``host`` frame of the player Ann for ``game``, with ``fields`` in the order given."""
    return ("client", name, about, {"type": "host", "id": id_, "name": "Ann", "game": game, **fields})


def fixture_frames(
    game: str, acts: Sequence[Act], hosts: Sequence[Host], refused: Sequence[Refused]
) -> Callable[[str], list[Frame]]:
    """A game's ``fixtures.frames(table_id)`` from its tables: its ``act`` frames, its ``host``
    requests (for ``game``), then the rules' refusals, in that order."""

    def frames(table_id: str) -> list[Frame]:
        return [
            *act_frames(table_id, acts),
            *(host_frame(name, about, id_, game, **fields) for name, about, id_, fields in hosts),
            *(error_frame(name, about, message(), re) for name, about, message, re in refused),
        ]

    return frames


def refusal(state: Any, seat: int, action: Any) -> str:
    """The rules' own message refusing ``action`` from ``seat`` (a fixture's error text)."""
    try:
        state.apply(seat, action)
    except RulesError as exc:
        return str(exc)
    raise AssertionError(f"{action} must be refused")


def error_frame(name: str, about: str, message: str, re: int) -> Frame:
    """The server's ``action/illegal`` answer to the request ``re``, with the rules' ``message``."""
    return ("server", name, about, {"type": "error", "code": "action/illegal", "message": message, "re": re})


@dataclass(frozen=True)
class GamePlugin:
    """A game as the registry holds it.

    ``bots(name, **params)`` makes a bot by name: any of ``levels`` (what a host
    chooses for empty seats, easiest first) or ``yardsticks`` (frozen bots to
    measure them against). ``default_level`` plays for absent players unless the
    host chose another, and decides a timed-out move the game leaves open.
    ``page``: the folder of the game's page module (``page.js``, and
    ``page.css`` and ``strings.js`` if it has them); ``None``: the shell shows
    the game with its generic renderer. ``protocol``: its PROTOCOL.md section.
    ``fixtures``: the module whose ``frames(table_id)`` gives the golden frames of its
    protocol section (``client-protocol/tools/make_fixtures.py`` writes them to
    ``fixtures/`` beside ``protocol``). ``bench_bots``: the module whose
    ``BENCH`` holds the game's hooks for ``meja bench bots`` (:mod:`meja.bench.bots`). ``narration``: how ``meja demo``
    tells its rounds (:class:`Narration`; ``None``: every public event's kind and data).
    ``playouts``: how ``meja bench rules`` plays the game (:class:`meja.rules.playout.Playouts`:
    its random policies and their hooks; by default uniformly random legal actions).
    ``lessons``: the game's guide for newcomers (:class:`meja.rules.lessons.Guide`, built on
    first use; ``None``: the game has none), which ``learn`` and ``learn_try`` answer from.
    ``terms``: words of this game that the server, the store, the protocol core
    and the page shell must never use (its name and title are always included):
    ``tests/test_game_free.py`` keeps them out, so the shell stays every game's.
    """

    game: Game
    bots: Callable[..., Bot]
    levels: tuple[str, ...]
    yardsticks: tuple[str, ...] = ()
    default_level: str = "normal"
    page: Path | None = None
    protocol: Path | None = None
    fixtures: str | None = None
    bench_bots: str | None = None
    narration: Narration | None = None
    terms: tuple[str, ...] = ()
    lessons: Callable[[], Guide] | None = None
    playouts: Playouts = field(default_factory=Playouts)

    @classmethod
    def in_folder(cls, package: str, game: Game | None = None, bots: Any = None, **declared: Any) -> GamePlugin:
        """The plugin of the game in ``package``'s folder, by its conventions, so a game's
        ``__init__.py`` declares only what is its own (``terms``, a ``default_level``...):

        - ``game``: ``rules.GAME``; ``bots``: the ``bots`` module (``make_bot``, ``LEVELS``,
          ``YARDSTICKS``), unless given;
        - ``playouts.PLAYOUTS``, ``narration`` (``opening`` and ``LINES``) and ``lessons.guide``,
          where those modules are there;
        - ``page/``, ``PROTOCOL.md``, ``fixtures.py`` and ``bench_bots.py``, where present.

        ``declared`` wins over anything found."""
        spec = importlib.util.find_spec(package)
        if spec is None or spec.origin is None:
            raise ValueError(f"no package {package!r}")
        here = Path(spec.origin).resolve().parent

        def module(name: str) -> str | None:
            there = (here / f"{name}.py").is_file() or (here / name / "__init__.py").is_file()
            return f"{package}.{name}" if there else None

        def load(name: str) -> Any:
            found = module(name)
            return None if found is None else importlib.import_module(found)

        game = game if game is not None else load("rules").GAME
        bots = bots if bots is not None else load("bots")
        found: dict[str, Any] = {
            "page": here / "page" if (here / "page").is_dir() else None,
            "protocol": here / "PROTOCOL.md" if (here / "PROTOCOL.md").is_file() else None,
            "fixtures": module("fixtures"),
            "bench_bots": module("bench_bots"),
        }
        hooks = {name: load(name) for name in ("playouts", "narration", "lessons") if name not in declared}
        if hooks.get("playouts") is not None:
            found["playouts"] = hooks["playouts"].PLAYOUTS
        if hooks.get("narration") is not None:
            found["narration"] = Narration(hooks["narration"].opening, hooks["narration"].LINES)
        if hooks.get("lessons") is not None:
            found["lessons"] = hooks["lessons"].guide
        made = {"bots": bots.make_bot, "levels": bots.LEVELS, "yardsticks": getattr(bots, "YARDSTICKS", ())}
        return cls(game=game, **made, **{**found, **declared})

    def __post_init__(self) -> None:
        if self.default_level not in self.levels:
            raise ValueError(f"{self.name}: default level {self.default_level!r} is not one of {self.levels}")

    @property
    def name(self) -> str:
        return self.game.name

    def shell_terms(self) -> tuple[str, ...]:
        """What the shell may not name: the game's name, its title, and its ``terms``."""
        return (self.name, self.game.info.title, *self.terms)

    def bot_names(self) -> tuple[str, ...]:
        """Every bot a table may seat: the levels, then the yardsticks."""
        return self.levels + self.yardsticks

    def bot(self, name: str, **params: Any) -> Bot:
        """The bot called ``name`` (``ValueError`` if the game has none of that name)."""
        if name not in self.bot_names():
            raise ValueError(f"{self.name} has no bot {name!r}; known: {list(self.bot_names())}")
        return self.bots(name, **params)

    def describe(self) -> dict[str, Wire]:
        """The game's description for clients (``welcome.catalog``): its :class:`GameInfo`, bot levels, page."""
        out = self.game.info.to_wire()
        out["levels"] = list(self.levels)
        out["default_level"] = self.default_level
        has_page = self.page is not None and (self.page / "page.js").exists()
        out["page"] = f"/games/{self.name}/page.js" if has_page else None
        out["lessons"] = self.lessons is not None
        return out
