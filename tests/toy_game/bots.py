"""Snap's bots: they see only a seat's view, and may decline to snap (``None``)."""

from __future__ import annotations

from typing import Any

from meja.bots.base import History, RandomAnyBot
from meja.rules.rng import Rng


class Keen:
    """Picks its highest card, always takes, always snaps."""

    name = "normal"
    needs_history = False
    blocking = False

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None:
        legal = view.legal
        picks = [a for a in legal if a.kind == "pick"]
        if picks:
            return max(picks, key=lambda a: a.card)
        for kind in ("snap", "take", "ready"):
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0] if legal else None


class Dozy(Keen):
    """Like :class:`Keen`, but half the time it lets a snap go by (a bot that declines out of turn)."""

    name = "easy"
    needs_history = True  # it reads the history, so that the server's history path runs for a test game

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None:
        if [a.kind for a in view.legal] == ["snap"]:
            coin, _ = rng.randbelow(2)
            if coin:
                return None
        return super().choose(view, history, rng)


class Stoic(Keen):
    """Like :class:`Keen`, but never snaps: it always declines to act out of turn."""

    name = "hard"

    def choose(self, view: Any, history: History, rng: Rng) -> Any | None:
        if [a.kind for a in view.legal] == ["snap"]:
            return None
        return super().choose(view, history, rng)


LEVELS = ("easy", "normal", "hard")
YARDSTICKS = ("random-any",)


def make_bot(name: str, **params: Any) -> Any:
    return {"easy": Dozy, "normal": Keen, "hard": Stoic, "random-any": RandomAnyBot}[name]()
