"""The games of Meja, one folder each, and the registry the rest of Meja finds them in.

Adding a game means adding its folder (``meja/games/<name>/``: rules, bots, page
module, strings, protocol section, fixtures) and one entry in :data:`BUILT_IN`;
nothing in the server, the store, the protocol core or the page shell changes.
A game that lives elsewhere (a test's, an operator's own) is loaded by module
name with :func:`load`, which ``meja serve`` does for every module named in its
``games`` setting.

Each game module exports ``PLUGIN``, a :class:`~meja.games.plugin.GamePlugin`.
Importing this package loads the built-in games, in order: the first one is the
default game of a ``host`` that names none.
"""

from __future__ import annotations

import importlib
from typing import Final

from meja.rules.game import Game, register

from .plugin import GamePlugin

__all__ = ["BUILT_IN", "GamePlugin", "built_in", "get", "get_game", "load", "names", "plugins"]

#: The built-in games, by module: one entry per game, the default game first.
BUILT_IN: Final = ("meja.games.crazy_eights", "meja.games.kartu_terakhir", "meja.games.eighty_three")

_PLUGINS: dict[str, GamePlugin] = {}


def load(module: str) -> GamePlugin:
    """Import ``module`` and register the game its ``PLUGIN`` describes (again: no change)."""
    plugin = getattr(importlib.import_module(module), "PLUGIN", None)
    if not isinstance(plugin, GamePlugin):
        raise ValueError(f"module {module!r} has no PLUGIN (a meja.games.GamePlugin)")
    known = _PLUGINS.get(plugin.name)
    if known is not None and known is not plugin:
        raise ValueError(f"two games are called {plugin.name!r}")
    _PLUGINS[plugin.name] = plugin
    register(plugin.game)
    return plugin


def get(name: str) -> GamePlugin:
    """The plugin of the game called ``name`` (``KeyError`` if there is none)."""
    return _PLUGINS[name]


def get_game(name: str) -> Game:
    """The rules of the game called ``name`` (:func:`meja.rules.get_game`)."""
    from meja.rules import get_game as rules_game

    return rules_game(name)


def names() -> tuple[str, ...]:
    """The registered games' names, the default first."""
    return tuple(_PLUGINS)


def plugins() -> tuple[GamePlugin, ...]:
    return tuple(_PLUGINS.values())


def built_in() -> tuple[GamePlugin, ...]:
    """The plugins of :data:`BUILT_IN`, in order (not the games loaded later from elsewhere)."""
    return _BUILT_IN_PLUGINS


_BUILT_IN_PLUGINS: tuple[GamePlugin, ...] = tuple(load(_module) for _module in BUILT_IN)
