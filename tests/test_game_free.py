"""The server, the store, the protocol core and the benchmarks never name a game or a game's words.

A game is one folder (meja/games/<name>/) behind one contract; everything else
drives it through that contract. So no file of meja.server, meja.store,
meja.protocol or meja.bench (whose benchmarks drive every game through its plugin) may say a registered
game's name, its title or one of the ``terms`` its plugin lists (GamePlugin.shell_terms(): Crazy Eights' suits and
eights, say), matched as whole words in any case. The page shell's own check is
beside the browser tests.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from meja import games

ROOT = Path(__file__).resolve().parents[1]
CORE = [ROOT / "server" / "meja" / part for part in ("server", "store", "protocol", "bench")]


def _terms() -> list[tuple[str, str]]:
    out = []
    for plugin in games.plugins():
        for term in plugin.shell_terms():
            out.append((plugin.name, term))
    return out


def _files() -> list[Path]:
    return sorted(p for folder in CORE for p in folder.rglob("*.py"))


def _pattern(term: str) -> re.Pattern[str]:
    # the term as a whole word (or the start of one, for plurals), any case; an underscore
    # name matches its spaced title too ("crazy_eights" and "Crazy Eights" are both listed)
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(term) + r"(?:s|es)?(?![A-Za-z0-9_])", re.IGNORECASE)


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_game_is_named(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [(game, term) for game, term in _terms() if _pattern(term).search(text)]
    assert not found, f"{path.relative_to(ROOT)} names {found}: reach the game through the contract"


def test_the_check_sees_what_it_looks_for() -> None:
    # Guards the test itself: with no terms, or none that would match, it would pass vacuously.
    terms = dict(_terms())
    assert "crazy_eights" in terms and "snap" in terms
    assert _pattern("Crazy Eights").search("# as in Crazy Eights (1.4)")
    assert _pattern("suit").search("the active SUITS are")
    assert not _pattern("suit").search("a pursuit of tables")
    assert _files(), "no core files found"
    assert ROOT / "server" / "meja" / "bench" / "rules.py" in _files()
