"""The page's Indonesian speaks one register and its own card words (a new user's trial, h6 F6):
the page says "kamu", so the suggested moves' reasons say it too (they said the formal "Anda");
and Eighty-Three says truf, kartu sisa, pasangan and lewat, as the other games' Indonesian does
(it said trump, kitty, partner and pass)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "server" / "meja"
SHEETS = [SERVER / "web" / "js" / "strings.js", *sorted((SERVER / "games").glob("*/page/strings.js"))]


def indonesian_values(path: Path) -> list[str]:
    """The words of a strings.js file's `id` section: its values, without the keys or placeholders."""
    text = path.read_text(encoding="utf-8")
    start = re.search(r"^  id: \{$", text, re.M)
    assert start, path
    end = re.search(r"^  [a-z]{2}: \{$", text[start.end() :], re.M)
    section = text[start.end() : start.end() + end.start()] if end else text[start.end() :]
    values = []
    for line in section.splitlines():
        m = re.match(r'\s*"[^"]+":\s*(.*)$', line)
        value = m.group(1) if m else line
        values.append(re.sub(r"\$?\{[^}]*\}|p\.\w+", "", value))
    return values


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.parent.parent.name if p.parent.name == "page" else "shell")
def test_indonesian_says_kamu_never_anda(path: Path) -> None:
    formal = [v for v in indonesian_values(path) if re.search(r"\bAnda\b", v)]
    assert not formal, formal


def test_eighty_three_in_indonesian_uses_indonesian_card_words() -> None:
    english = re.compile(r"\b(trumps?|kitty|partner\w*|pass)\b", re.I)
    values = indonesian_values(SERVER / "games" / "eighty_three" / "page" / "strings.js")
    left = [v for v in values if english.search(v)]
    assert not left, left
