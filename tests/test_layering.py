"""The layers of docs/architecture.md 2, kept by reading every import with ``ast``.

Arrows point down only::

    cli, bench            entry points: may use what they run
    server                asyncio, websockets, HTTP: may use everything below
    store                 records, not sockets: never the server
    protocol              messages, no sockets (sans-I/O): rules only
    games                 the registry, and one folder per game (below)
    bots                  what bots share: the policy interface; rules only
    rules                 what games share: the standard library, minus I/O, clocks and chance

A game's folder, ``meja/games/<name>/``, is layered the same way inside:

    <name>/__init__.py, fixtures     its plugin: may use its own modules, meja.rules, meja.bots, meja.games
    <name>/bench_*, demo             its entry points (``meja bench``, ``meja demo``): leaves
    <name>/bots/                     its bots: meja.rules, meja.bots, its own rules
    <name>/<anything else>           its rules: like meja.rules, plus its own rules modules

and a game never imports another game.

What is checked, module by module, for every ``.py`` file under ``server/meja``:

- ``meja.rules`` imports only the standard library minus :data:`RULES_FORBIDDEN`
  (no I/O, no clock, no ``random``, no asyncio, no threads or processes, no
  dynamic import), no third-party package, and only ``meja.rules`` of Meja
  (``import meja`` itself is harmless). It never calls the builtins that do I/O
  or run code (:data:`RULES_FORBIDDEN_CALLS`). This is what makes the rules
  replayable: the same actions give the same states on every machine.
- ``meja.bots`` and ``meja.protocol`` may import ``meja.rules`` (and
  themselves), and no asyncio or network module: they are sans-I/O.
- ``meja.store`` may not import ``meja.server`` (nor the entry points).
- Network code (:data:`NETWORK`: websockets, sockets, HTTP servers and
  clients) is imported only under ``meja.server``; the Redis client only under
  ``meja.store`` and ``meja.server``.
- Nothing imports ``meja.server`` except ``meja.server`` itself and ``meja.cli``;
  nothing imports ``meja.bench`` or ``meja.cli`` except themselves (and
  ``meja.__main__`` for the cli): entry points are leaves. A game's entry
  points are imported by nothing of Meja but ``meja.bench`` (by name).
- ``meja.games`` is imported only by the server, the entry points and the games
  themselves: the rules, the bots' interface, the protocol and the store never
  know which games exist.

Imports inside functions and under ``if TYPE_CHECKING:`` count too (an import
is an import), and so do ``importlib.import_module("...")`` and
``__import__("...")`` with a literal name. A package that does not exist yet,
or is empty, passes: the rules apply to files as they appear.

The rules are data (the tables below), so a deliberate change of layering is
a one-line change, made in review, next to its reason.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "server" / "meja"

STDLIB: frozenset[str] = frozenset(sys.stdlib_module_names) | {"__future__"}

#: Standard-library modules the rules may not import: I/O, clocks, chance, concurrency,
#: processes, the network, dynamic import and code loading, and the environment.
RULES_FORBIDDEN: frozenset[str] = frozenset(
    {
        # chance: the rules' RNG is meja.rules.rng (docs/architecture.md 3.2)
        "random", "secrets", "uuid",
        # clocks
        "time", "datetime", "zoneinfo", "calendar", "sched",
        # concurrency and the event loop
        "asyncio", "threading", "_thread", "multiprocessing", "concurrent", "queue",
        "contextvars", "signal",
        # processes, the environment, the file system and streams
        "os", "sys", "io", "pathlib", "shutil", "tempfile", "glob", "fileinput", "mmap",
        "subprocess", "pty", "tty", "termios", "fcntl", "resource", "platform", "getpass",
        "locale", "gettext", "atexit", "faulthandler", "tracemalloc", "gc",
        # the network
        "socket", "ssl", "select", "selectors", "socketserver", "http", "urllib",
        "ftplib", "smtplib", "poplib", "imaplib", "xmlrpc", "webbrowser", "email",
        # storage and serialisation that can run code
        "pickle", "shelve", "dbm", "sqlite3", "marshal",
        # logging writes somewhere; code loading escapes these checks
        "logging", "warnings", "importlib", "builtins", "ctypes", "runpy", "code", "inspect",
    }
)

#: Builtins the rules never call: they do I/O or run code from text.
RULES_FORBIDDEN_CALLS: frozenset[str] = frozenset(
    {"open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint", "exit"}
    | {"quit"}
)

#: Network modules: only meja.server opens sockets or speaks HTTP/websockets.
NETWORK: frozenset[str] = frozenset(
    {
        "websockets", "socket", "ssl", "socketserver", "http", "urllib", "aiohttp", "httpx",
        "requests", "uvicorn", "starlette", "h11", "wsproto", "ftplib", "smtplib",
    }
)
#: The Redis client is network code too; the store owns it (and the server may use it).
REDIS: frozenset[str] = frozenset({"redis"})

#: Meja's top-level parts (``meja.X``) each layer may import. ``None``: no list.
ALLOWED_MEJA: dict[str, frozenset[str] | None] = {
    "rules": frozenset({"rules"}),
    "bots": frozenset({"rules", "bots"}),
    "protocol": frozenset({"rules", "protocol"}),
    # a game's own layers (see game_layer); "games" is allowed only for the game's own modules
    "game-rules": frozenset({"rules", "games"}),
    "game-bots": frozenset({"rules", "bots", "games"}),
    "game-plugin": frozenset({"rules", "bots", "games"}),
    "registry": frozenset({"rules", "bots", "games"}),
}
#: Meja parts no module outside them may import, with the modules that may.
GUARDED: dict[str, frozenset[str]] = {
    "server": frozenset({"server", "cli"}),
    "bench": frozenset({"bench", "cli"}),
    "cli": frozenset({"cli", "__main__"}),
    "games": frozenset(
        {"games", "game-rules", "game-bots", "game-plugin", "game-entry", "registry", "server", "bench"}
    ),
}
#: Layers that stay sans-I/O: no asyncio, no network.
SANS_IO: frozenset[str] = frozenset({"rules", "bots", "protocol", "game-rules", "game-bots", "game-plugin", "registry"})
#: Layers held to the rules' purity (standard library only, minus I/O, clocks and chance).
PURE: frozenset[str] = frozenset({"rules", "game-rules"})
#: Which modules of a game's folder are which layer (by their first name under the folder).
GAME_ENTRY_PREFIXES: tuple[str, ...] = ("bench_", "demo")
GAME_PLUGIN_MODULES: frozenset[str] = frozenset({"", "fixtures"})


def game_layer(module: str) -> tuple[str, str | None]:
    """``(layer, game)`` of a module: its layer name (see the module docstring) and its game, if any.

    ``meja.games`` and ``meja.games.plugin`` are the registry; ``meja.games.<g>...`` is
    one of game g's layers; anything else is ``meja.<part>`` with no game.
    """
    parts = module.split(".")
    if parts[:2] != ["meja", "games"]:
        return (_meja_part(module) or ""), None
    if len(parts) == 2 or parts[2] == "plugin":
        return "registry", None
    game = parts[2]
    sub = parts[3] if len(parts) > 3 else ""
    if sub == "bots":
        return "game-bots", game
    if sub.startswith(GAME_ENTRY_PREFIXES):
        return "game-entry", game
    if sub in GAME_PLUGIN_MODULES:
        return "game-plugin", game
    return "game-rules", game


@dataclass(frozen=True)
class Import:
    line: int
    name: str  # absolute dotted name


def module_name(path: Path) -> tuple[str, bool]:
    """The dotted name of a file under ``server/``, and whether it is a package's ``__init__``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    is_package = parts[-1] == "__init__"
    if is_package:
        parts.pop()
    return ".".join(parts), is_package


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of ``from <level dots><name> import ...`` written in ``module``."""
    if level == 0:
        return name or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]  # a module's siblings live in its package
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def find_imports(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every module ``source`` imports, by absolute name.

    ``from a.b import c`` yields ``a.b`` and ``a.b.c`` (``c`` may be a module);
    literal ``importlib.import_module("x")`` and ``__import__("x")`` yield ``x``.
    """
    out: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.extend(Import(node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            out.append(Import(node.lineno, base))
            out.extend(Import(node.lineno, f"{base}.{a.name}") for a in node.names if a.name != "*")
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            arg = node.args[0]
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            if called in ("import_module", "__import__") and literal:
                assert isinstance(arg, ast.Constant)
                out.append(Import(node.lineno, arg.value))
    return out


def find_calls(source: str, names: frozenset[str]) -> list[tuple[int, str]]:
    """Calls of the bare names ``names`` (``open(...)``, ``print(...)``)."""
    return [
        (node.lineno, node.func.id)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names
    ]


def _top(name: str) -> str:
    return name.split(".")[0]


def _meja_part(name: str) -> str | None:
    """``"rules"`` for ``meja.rules.cards``; ``""`` for ``meja`` itself; ``None`` if not Meja."""
    parts = name.split(".")
    if parts[0] != "meja":
        return None
    return parts[1] if len(parts) > 1 else ""


def check_source(source: str, module: str, is_package: bool = False) -> list[str]:
    """The layering violations of one module's source, as readable lines (empty: none)."""
    layer, game = game_layer(module)
    problems: list[str] = []
    for imp in find_imports(source, module, is_package):
        where = f"{module}:{imp.line} imports {imp.name!r}"
        target = _meja_part(imp.name)
        top = _top(imp.name)
        if target is not None:
            allowed = ALLOWED_MEJA.get(layer)
            if target and allowed is not None and target not in allowed:
                problems.append(f"{where}: meja.{layer} may import only {sorted(allowed)} of meja")
            guard = GUARDED.get(target)
            if guard is not None and layer not in guard:
                problems.append(f"{where}: only {sorted(guard)} may import meja.{target}")
            if target == "games":
                problems += _check_game_import(where, layer, game, imp.name)
            continue
        if layer in PURE:
            if top not in STDLIB:
                problems.append(f"{where}: the rules use only the standard library")
            elif top in RULES_FORBIDDEN:
                problems.append(f"{where}: the rules do no I/O, use no clock, chance or threads")
            continue
        if layer in SANS_IO and (top in NETWORK or top in REDIS or top == "asyncio"):
            problems.append(f"{where}: meja.{layer} is sans-I/O (no asyncio, no network)")
        elif top in NETWORK and layer != "server":
            problems.append(f"{where}: only meja.server does network I/O")
        elif top in REDIS and layer not in ("store", "server"):
            problems.append(f"{where}: only meja.store (and meja.server) talk to Redis")
    if layer in PURE:
        for line, name in find_calls(source, RULES_FORBIDDEN_CALLS):
            problems.append(f"{module}:{line} calls {name}(): the rules do no I/O and run no code")
    return problems


def _check_game_import(where: str, layer: str, game: str | None, name: str) -> list[str]:
    """What a module of ``layer`` (of ``game``) may import of ``meja.games``."""
    target_layer, target_game = game_layer(name)
    if target_game is None:  # the registry itself
        if layer in ("game-rules", "game-bots"):
            return [f"{where}: a game's rules and bots do not use the registry"]
        return []
    if game is not None and target_game != game:
        return [f"{where}: a game never imports another game"]
    if game is not None and name == f"meja.games.{game}":
        return []  # the game's own package: the base of ``from . import rules`` (the submodule is checked)
    if game is None:
        # the server, the benchmarks and the registry reach a game through its plugin only
        if layer in ("server",) and target_layer != "game-plugin":
            return [f"{where}: the server reaches a game through its plugin (meja.games.get), not its modules"]
        return []
    # within one game: rules see rules only; bots see rules and bots; the plugin and entry points see all
    if layer == "game-rules" and target_layer != "game-rules":
        return [f"{where}: a game's rules may import only its rules"]
    if layer == "game-bots" and target_layer not in ("game-rules", "game-bots"):
        return [f"{where}: a game's bots may import only its rules and bots"]
    if target_layer == "game-entry" and layer != "game-entry":
        return [f"{where}: a game's entry points are leaves"]
    return []


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_rules_names(source: str, module: str, is_package: bool = False) -> list[str]:
    """A bot module's uses of a rules module's private names (``_x``), as readable lines.

    Bots read the rules through their public names only (the tables they need are
    published there under a public name): ``from ..rules import _TABLE``, ``R._TABLE``
    with ``R`` a rules module, and ``Cls._method`` with ``Cls`` imported from one count.
    """
    if game_layer(module)[0] not in ("bots", "game-bots"):
        return []
    tree = ast.parse(source)
    problems: list[str] = []
    bound: dict[str, str] = {}  # local name -> the rules module it came from (or is)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                full = f"{base}.{alias.name}"  # a rules module itself, or a name of one
                if _meja_part(full) is None or game_layer(full)[0] not in ("rules", "game-rules"):
                    continue
                if _is_private(alias.name):
                    problems.append(f"{module}:{node.lineno} imports {alias.name} from {base}")
                bound[alias.asname or alias.name] = full
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and game_layer(alias.name)[0] in ("rules", "game-rules"):
                    bound[alias.asname] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            value = node.value
            if isinstance(value, ast.Name) and value.id in bound:
                problems.append(f"{module}:{node.lineno} reads {value.id}.{node.attr} of {bound[value.id]}")
    return problems


def package_files(part: str) -> list[Path]:
    """The ``.py`` files of ``meja.<part>`` (a package or a module); empty if it does not exist."""
    directory = PACKAGE / part
    if directory.is_dir():
        return sorted(directory.rglob("*.py"))
    single = PACKAGE / f"{part}.py"
    return [single] if single.is_file() else []


def _parts() -> list[str]:
    names = {p.name for p in PACKAGE.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    names |= {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    # the layers docs/architecture.md 2 names, whether or not they exist yet
    names |= {"rules", "bots", "protocol", "store", "server", "bench", "cli", "games"}
    return sorted(names)


# --------------------------------------------------------------------------- the tree


@pytest.mark.parametrize("part", _parts())
def test_layering(part: str) -> None:
    problems: list[str] = []
    for path in package_files(part):
        module, is_package = module_name(path)
        problems += check_source(path.read_text(encoding="utf-8"), module, is_package)
    assert not problems, "layering violations (docs/architecture.md 2):\n" + "\n".join(problems)


def test_bots_use_no_private_name_of_the_rules() -> None:
    # A bot that reads a rules module's private tables or methods is a second copy of the
    # rules waiting to drift; the rules publish what bots need under public names.
    problems: list[str] = []
    for path in package_files("bots") + package_files("games"):
        module, is_package = module_name(path)
        problems += private_rules_names(path.read_text(encoding="utf-8"), module, is_package)
    assert not problems, "bots reading private names of the rules:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    ("module", "source", "hits"),
    [
        ("meja.games.g.bots.x", "from ..rules import _ESUIT, PASS", 1),
        ("meja.games.g.bots.x", "from .. import rules as R\nX = R._SYM", 1),
        ("meja.games.g.bots.x", "from ..rules import State\nf = State._playable", 1),
        ("meja.games.g.bots.x", "import meja.games.g.rules as R\nR._blank()", 1),
        ("meja.bots.x", "from meja.rules.cards import _RANKS", 1),
        ("meja.games.g.bots.x", "from ..rules import ESUIT, State\nf = State.playable\nx = State.__name__", 0),
        ("meja.games.g.bots.x", "from .common import _helper\nfrom . import sim\nsim._x", 0),
        ("meja.games.g.rules", "from .cards import _RANKS", 0),
        ("meja.games.g.bots.x", "class B:\n    def f(self):\n        return self._x", 0),
    ],
)
def test_private_rules_names_checker(module: str, source: str, hits: int) -> None:
    assert len(private_rules_names(source, module)) == hits, private_rules_names(source, module)


def test_package_root_imports_nothing_of_its_layers() -> None:
    # meja/__init__.py is imported by every layer: it must not pull any layer in.
    init = PACKAGE / "__init__.py"
    imports = find_imports(init.read_text(encoding="utf-8"), "meja", is_package=True)
    assert [i.name for i in imports if _meja_part(i.name)] == []


def test_the_rules_are_there_and_their_imports_are_seen() -> None:
    # Guards the test itself: if the parser saw no imports, every check would pass vacuously.
    files = package_files("rules") + package_files("games")
    assert PACKAGE / "games" / "crazy_eights" / "rules" / "__init__.py" in files
    seen = set()
    for path in files:
        module, is_package = module_name(path)
        seen |= {i.name for i in find_imports(path.read_text(encoding="utf-8"), module, is_package)}
    assert "hashlib" in seen  # rng.py
    assert "meja.rules.cards" in seen  # "from .cards import ..." resolved
    assert "meja.games.crazy_eights.dealcode" in seen  # "from . import dealcode" in the game's rules
    assert game_layer("meja.games.crazy_eights.rules") == ("game-rules", "crazy_eights")
    assert game_layer("meja.games.crazy_eights.bots.search") == ("game-bots", "crazy_eights")
    assert game_layer("meja.games.crazy_eights") == ("game-plugin", "crazy_eights")
    assert game_layer("meja.games.crazy_eights.bench_bots") == ("game-entry", "crazy_eights")


# --------------------------------------------------------------------------- the checker


@pytest.mark.parametrize(
    ("module", "source", "expected"),
    [
        ("meja.rules.x", "import random", "no I/O"),
        ("meja.rules.x", "from time import monotonic", "no I/O"),
        ("meja.rules.x", "import os.path", "no I/O"),
        ("meja.rules.x", "import asyncio", "no I/O"),
        ("meja.rules.x", "from datetime import datetime", "no I/O"),
        ("meja.rules.x", "import msgpack", "only the standard library"),
        ("meja.rules.x", "from meja.bots import tables", "may import only"),
        ("meja.rules.x", "from ..protocol import codec", "may import only"),
        ("meja.rules.x", "import importlib\nimportlib.import_module('meja.server')", "only"),
        ("meja.rules.x", "def f():\n    import threading", "no I/O"),
        ("meja.rules.x", "def f(p):\n    return open(p).read()", "calls open()"),
        ("meja.rules.x", "print('hi')", "calls print()"),
        ("meja.bots.x", "from ..server import app", "may import only"),
        ("meja.bots.x", "import asyncio", "sans-I/O"),
        ("meja.bots.x", "from meja.store import base", "may import only"),
        ("meja.protocol.x", "import websockets", "sans-I/O"),
        ("meja.protocol.x", "from meja.bots import policy", "may import only"),
        ("meja.store.redis", "from meja.server.settings import Settings", "only ['cli', 'server']"),
        ("meja.store.memory", "import websockets", "only meja.server does network"),
        ("meja.bench.server", "import meja.server.main", "only ['cli', 'server']"),
        ("meja.bench.server", "import websockets.asyncio.client", "only meja.server"),
        ("meja.bots.x", "import meja.bench.rules", "only ['bench', 'cli']"),
        ("meja.games.g.demo", "from meja import cli", "only ['__main__', 'cli']"),
        ("meja.bots.x", "import redis.asyncio", "sans-I/O"),
        ("meja.games.g.demo", "import redis", "only meja.store"),
        ("meja.games.g.rules", "import random", "no I/O"),
        ("meja.games.g.rules", "from ..h import rules", "another game"),
        ("meja.games.g.rules", "from .bots import policy", "only its rules"),
        ("meja.games.g.rules", "from meja.games import get", "registry"),
        ("meja.games.g.bots.x", "from meja.games.g import bench_bots", "only its rules and bots"),
        ("meja.games.g.bots.x", "import asyncio", "sans-I/O"),
        ("meja.games.g.bots.x", "from meja.server import tables", "only"),
        ("meja.rules.x", "from meja.games import crazy_eights", "may import only"),
        ("meja.bots.base", "from meja.games.g import rules", "may import only"),
        ("meja.protocol.messages", "import meja.games", "may import only"),
        ("meja.store.redis", "from meja.games import get", "only"),
        ("meja.server.tables", "from meja.games.g.rules import Move", "through its plugin"),
    ],
)
def test_checker_finds(module: str, source: str, expected: str) -> None:
    problems = check_source(source, module)
    assert problems, f"{source!r} in {module} should be a violation"
    assert any(expected in p for p in problems), problems


@pytest.mark.parametrize(
    ("module", "source", "is_package"),
    [
        ("meja.games.g.rules", "from meja.rules.cards import Card\nfrom . import dealcode", False),
        ("meja.rules", "from . import cards\nfrom .game import Event", True),
        ("meja.games.g.bots.x", "from ..rules import Move\nfrom meja.bots import Bot\nimport random", False),
        ("meja.games.g", "from . import bots\nfrom .rules import GAME\nfrom meja.games.plugin import P", True),
        ("meja.games.g.bench_bots", "import multiprocessing\nfrom .bots import make_bot", False),
        ("meja.server.service", "from meja import games\nfrom meja.games import get", False),
        ("meja.rules.x", "import hashlib, json, struct, bisect\nfrom typing import Final", False),
        ("meja.rules.x", "from __future__ import annotations\nimport meja", False),
        ("meja.bots.basic", "from meja.rules import get_game\nfrom ..rules import cards", False),
        ("meja.bots.basic", "import random", False),
        ("meja.protocol.codec", "import msgpack\nfrom meja.rules.errors import RulesError", False),
        ("meja.store.redis", "import redis.asyncio, asyncio\nfrom meja.rules import x", False),
        ("meja.server.app", "import websockets\nfrom meja.store import redis", False),
        ("meja.server.app", "import meja.server.tables\nfrom ..bots import basic", False),
        ("meja.cli", "import importlib\nimportlib.import_module('meja.server.main')", False),
        ("meja.bench.pergame", "import importlib\nfrom meja import games", False),
    ],
)
def test_checker_allows(module: str, source: str, is_package: bool) -> None:
    assert check_source(source, module, is_package) == []


def test_relative_imports_resolve() -> None:
    assert _resolve("meja.rules.crazy_eights", False, 1, "cards") == "meja.rules.cards"
    assert _resolve("meja.rules", True, 1, None) == "meja.rules"
    assert _resolve("meja.bots.deep.x", False, 2, "policy") == "meja.bots.policy"
    assert _resolve("meja.bots.x", False, 2, "server") == "meja.server"
