"""No bot reaches into the rules' private names (issue 23: the rules copied into bots go).

A bot module (``meja/bots/`` and every game's ``bots/`` folder) may use what a rules
module publishes, never what it keeps to itself: no ``from ...rules import _x``, no
module path with a private part (``...rules._tables``), and no ``R._x`` or
``getattr(R, "_x")`` on anything it imported from a rules module (a module, a class
such as the game's state). A table the bots need is made public in the rules, where
the rules' own tests keep it true. Read with ``ast``, like ``tests/test_layering.py``:
imports inside functions count too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "server" / "meja"
#: the rules: what every game shares, and each game's own modules outside its bots
RULES = re.compile(r"^meja\.rules(\..*)?$|^meja\.games\.[a-z_0-9]+\.(?!bots(\.|$))[a-z_0-9.]+$")


def _bot_files() -> list[Path]:
    files = sorted((PACKAGE / "bots").glob("*.py"))
    for folder in sorted((PACKAGE / "games").glob("*/bots")):
        files += sorted(folder.rglob("*.py"))
    return files


def _module_of(path: Path) -> tuple[str, bool]:
    """The dotted module name of ``path`` and whether it is a package's ``__init__``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    init = parts[-1] == "__init__"
    return ".".join(parts[:-1] if init else parts), init


def _resolve(module: str, init: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if init else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def violations(source: str, module: str, init: bool = False) -> list[str]:
    """What ``source`` (the module ``module``) takes of the rules' private names, one line each."""
    tree = ast.parse(source)
    bound: set[str] = set()  # names bound to a rules module or to something imported from one
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if RULES.match(alias.name):
                    if any(_private(p) for p in alias.name.split(".")):
                        found.append(f"{node.lineno}: import {alias.name}")
                    if alias.asname:
                        bound.add(alias.asname)
        elif isinstance(node, ast.ImportFrom):
            source_module = _resolve(module, init, node)
            for alias in node.names:
                full = f"{source_module}.{alias.name}"
                from_rules = RULES.match(source_module) or RULES.match(full)
                if not from_rules:
                    continue
                if any(_private(p) for p in full.split(".")):
                    found.append(f"{node.lineno}: from {source_module} import {alias.name}")
                bound.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound:
            if _private(node.attr):
                found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in bound
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
        ):
            found.append(f"{node.lineno}: {node.func.id}({node.args[0].id}, {node.args[1].value!r})")
    return found


@pytest.mark.parametrize("path", _bot_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_bot_module_uses_only_public_names_of_the_rules(path: Path) -> None:
    module, init = _module_of(path)
    assert violations(path.read_text(), module, init) == []


def test_the_check_is_not_blind() -> None:
    module = "meja.games.somegame.bots.search"
    bad = """
from ..rules import PLAYABLE, _PLAYABLE
from meja.games.somegame.rules.tables import _PENALTY
from ..rules._tables import RANKS
from .. import rules as R
from ..rules import SomeState
import meja.rules.cards as C

def f(x):
    from ..rules import _late
    return R._PLAYABLE, SomeState._playable(x), C._parse, getattr(R, "_secret"), R.PUBLIC, R.__name__
"""
    found = violations(bad, module)
    assert len(found) == 8, found
    assert any("_PLAYABLE" in f and "import" in f for f in found)
    assert any("SomeState._playable" in f for f in found)
    assert any("getattr(R, '_secret')" in f for f in found)
    # Its own bots' private names, the shared bots' and public rules names are fine.
    good = """
from .common import _helper
from meja.bots.search import SearchBot as _Search
from ..rules import PLAYABLE
from .. import rules as R
x = R.PLAYABLE, _helper._x, R.__doc__
"""
    assert violations(good, module) == []
    assert _bot_files() and all(p.suffix == ".py" for p in _bot_files())
