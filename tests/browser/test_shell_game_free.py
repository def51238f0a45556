"""The page shell names no game: no file of server/meja/web/ (but vendor/) uses a game's words.

Every registered game (the built-in ones and tests/toy_game, loaded here as the browser
test server loads it) lists what the shell must never say: ``GamePlugin.shell_terms()``,
its name, its title and its ``terms``. A term is matched case-insensitively as a word (or
that word with a plural s), where words are split at anything but letters and digits and
at camelCase humps, so ``active_suit``, ``suitIcon`` and ``crazy-eights.md`` are caught as
well as ``Suit``. The shell may of course say "card", "deal", "hand", "round", "seat",
"bot": they are every card game's.

Cost: well under a second (no browser).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import meja.games

HERE = Path(__file__).resolve().parent
SHELL = HERE.parents[1] / "server" / "meja" / "web"
TESTS = HERE.parent

#: What the shell may say although some game lists it among its words.
SHARED_WORDS = frozenset(
    {"card", "cards", "deal", "deals", "hand", "hands", "round", "rounds", "seat", "seats", "bot", "bots"}
)


def all_plugins() -> tuple[meja.games.GamePlugin, ...]:
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    meja.games.load("toy_game")
    return meja.games.plugins()


def pattern(term: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in re.split(r"[^0-9A-Za-z]+", term) if w]
    return re.compile(r"(?<![0-9a-z])" + r"[^0-9a-z]+".join(words) + r"s?(?![0-9a-z])", re.IGNORECASE)


def words_of(text: str) -> str:
    """The text with camelCase humps split ("suitIcon" -> "suit Icon"), for word matching."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)


def shell_files() -> list[Path]:
    # (images drawn as pixels, such as the app's PNG icons, hold no words)
    files = [
        p for p in SHELL.rglob("*") if p.is_file() and "vendor" not in p.relative_to(SHELL).parts and p.suffix != ".png"
    ]
    assert len(files) >= 10, files  # index.html, style.css and the shell's modules at least
    return sorted(files)


def findings(text: str, terms: dict[str, re.Pattern[str]]) -> list[str]:
    found = []
    split = words_of(text)
    for term, regex in terms.items():
        for m in regex.finditer(split):
            line = split.count("\n", 0, m.start()) + 1
            found.append(f"line {line}: {m.group(0)!r} ({term!r})")
    return found


def test_the_matcher_catches_a_term_in_any_spelling() -> None:
    terms = {t: pattern(t) for t in ("suit", "crazy_eights", "Crazy Eights", "snap")}
    for text in ("the active_suit", "suitIcon(x)", "Suits", "see crazy-eights.md", "CRAZY EIGHTS", "snap", "'snap'"):
        assert findings(text, terms), text
    for text in ("pursuit", "suitable", "snapshot", "eighty", "crazy"):
        assert not findings(text, terms), text


def test_no_shell_file_names_a_game_or_its_terms() -> None:
    plugins = all_plugins()
    assert {"crazy_eights", "snap"} <= {p.name for p in plugins}
    terms: dict[str, re.Pattern[str]] = {}
    for plugin in plugins:
        assert plugin.terms or plugin.name == "snap", f"{plugin.name} lists no terms for the shell to avoid"
        for term in plugin.shell_terms():
            if term.lower() not in SHARED_WORDS:
                terms[term] = pattern(term)
    problems = []
    for path in shell_files():
        text = path.read_text(encoding="utf-8")
        problems += [f"{path.relative_to(SHELL)} {f}" for f in findings(text, terms)]
    assert not problems, "the shell names a game:\n" + "\n".join(problems)
