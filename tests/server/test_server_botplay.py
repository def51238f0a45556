"""The bots' one legality check (meja.server.botplay): whatever a bot chooses, and wherever it
thinks (here, a thread, the worker pool), an awaited seat gets a legal action and any other seat
a legal one or none."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from meja.server import botplay
from meja.server.botplay import BotPlay
from meja.server.settings import Settings


@dataclass
class _State:
    legal: list[str]
    awaited: tuple[int, ...] = (0,)

    def legal_actions(self, seat: int) -> list[str]:
        return self.legal

    def awaiting(self) -> tuple[int, ...]:
        return self.awaited

    def view(self, seat: int) -> dict[str, Any]:
        return {}

    def to_data(self) -> dict[str, Any]:
        return {}


@dataclass
class _Table:
    state: _State
    id: str = "t"
    game: str = "g"
    gv: int = 1
    round_v: int = 0


@dataclass
class _Bot:
    answer: Any
    blocking: bool = False
    asked: list[int] = field(default_factory=list)

    def choose(self, view: Any, history: Any, rng: Any) -> Any:
        self.asked.append(1)
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class _Pool:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    async def decide(self, *args: Any) -> Any:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def _bots(bot: _Bot, pool: Any = None) -> BotPlay:
    play = BotPlay(store=None, settings=Settings(bot_workers=0))  # type: ignore[arg-type]
    play._bots[("g", "x")] = bot  # type: ignore[assignment]
    play.pool = pool
    return play


@pytest.fixture(autouse=True)
def _no_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(botplay.tables, "between_rounds", lambda state: False)
    monkeypatch.setattr(botplay, "decision_rng", lambda state, seat: None)


CASES = [
    # (what the bot says, awaited?, what stands)
    ("b", True, "b"),
    ("zz", True, "a"),  # illegal: the first legal action for an awaited seat
    ("zz", False, None),  # illegal out of turn: it declines
    (None, True, "a"),  # an awaited seat may not decline
    (None, False, None),
    (RuntimeError("bug"), True, "a"),
    (RuntimeError("bug"), False, None),
]


@pytest.mark.parametrize(("answer", "awaited", "expected"), CASES)
@pytest.mark.parametrize("where", ["here", "thread", "pool"])
def test_every_choice_passes_the_one_check(answer: Any, awaited: bool, expected: Any, where: str) -> None:
    table = _Table(_State(["a", "b"], (0,) if awaited else ()))
    bot = _Bot(answer, blocking=where != "here")
    bots = _bots(bot, _Pool(answer) if where == "pool" else None)
    got = asyncio.run(bots.decide(table, 0, "x", []))  # type: ignore[arg-type]
    assert got == expected
    # (a pool that fails leaves the decision to a thread here)
    assert bot.asked == ([] if where == "pool" and not isinstance(answer, Exception) else [1])


def test_nothing_legal_asks_no_bot() -> None:
    bot = _Bot("a")
    assert asyncio.run(_bots(bot).decide(_Table(_State([])), 0, "x", [])) is None  # type: ignore[arg-type]
    assert bot.asked == []
