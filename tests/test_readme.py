"""The README stays in step with the code: its settings table is the one `meja serve --settings` prints."""

from __future__ import annotations

from pathlib import Path

from meja.server.settings import settings_table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_settings_table_is_the_generated_one() -> None:
    # A setting added, renamed or re-defaulted without the README fails here.
    assert settings_table().strip() in README.read_text(encoding="utf-8")


def test_readme_shows_the_two_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make serve" in text and "make test" in text
