"""``meja demo`` over every registered game (the test-only one too): one loop, the games' narration."""

from __future__ import annotations

import sys

import pytest
from meja import games
from meja.cli import main

#: A line each game's narration (or the plain one) prints by the end of its round.
ENDS = {"crazy_eights": "goes out", "kartu_terakhir": "goes out", "eighty_three": "hand over", "snap": "round_over"}


@pytest.mark.parametrize("name", games.names())
def test_every_game_plays_a_narrated_round(
    name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["demo", "--game", name, "--seed", "3"]
    monkeypatch.setattr(sys, "argv", ["meja", *argv])
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    plugin = games.get(name)
    assert out[0].startswith(f"{plugin.game.info.title}, {plugin.game.info.default_preset},")
    assert any(ENDS[name] in line for line in out[-3:]), out[-3:]
    if plugin.narration is not None:
        assert out[1:] and out[1].startswith("  ")  # the deal, for the reader


def test_a_deal_code_and_a_bad_seat_count(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["demo", "--game", "kartu_terakhir", "--seats", "11"]
    monkeypatch.setattr(sys, "argv", ["meja", *argv])
    assert main(argv) == 2
    assert "2-10 seats" in capsys.readouterr().err
    code = games.get_game("kartu_terakhir").new_match(None, 6, 99).state.deal_code
    argv = ["demo", "--game", "kartu_terakhir", "--deal", code]
    monkeypatch.setattr(sys, "argv", ["meja", *argv])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kartu Terakhir, standard, 6 seats") and code in out
