"""The guide's two requests (``learn`` and ``learn_try``, PROTOCOL.md 17): stateless, for any game.

A step is the game's own position (its ``GamePlugin.lessons``, :mod:`meja.rules.lessons`):
``learn`` sends the learner's seat view of it exactly as a table frame carries it
(``State.view(seat)``: nothing another seat holds), a table map for the page module to
read its options from, and the key of the question; ``learn_try`` asks the engine
about one move and sends the verdict's key and, when the rules allow the move, the
learner's view after it and the events its seat may see of it (as an ``update`` would).
Nothing is stored: every request names its game and step.
"""

from __future__ import annotations

from typing import Any

from meja import games
from meja.protocol import messages
from meja.rules.errors import BadOptionsError
from meja.rules.lessons import Guide, Lesson, judge

__all__ = ["learn_answer", "learn_step"]


def _guide(game: str) -> Guide:
    try:
        plugin = games.get(game)
    except KeyError:
        raise BadOptionsError(f"unknown game {game!r}; known: {list(games.names())}") from None
    if plugin.lessons is None:
        raise BadOptionsError(f"{game!r} has no guide")
    return plugin.lessons()


def _table(game: str, lesson: Lesson) -> dict[str, Any]:
    """A table map for the position (PROTOCOL.md 7.1's fields a page module reads): the learner and bots."""
    rules = games.get_game(game)
    state = lesson.state
    options = state.options.to_wire()
    seats = [
        {"seat": i, "kind": "human" if i == lesson.seat else "bot", "name": "", "connected": True, "auto": False}
        for i in range(state.seats)
    ]
    return {
        "game": game,
        "preset": options.get("preset", rules.info.default_preset),
        "options": options,
        "status": "playing",
        "seats": seats,
        "teams": [list(team) for team in rules.teams(state.options, state.seats)],
        "awaiting": list(state.awaiting()),
    }


def learn_step(msg: messages.Learn) -> dict[str, Any]:
    """The step's position for the learner's seat, and its question."""
    guide = _guide(msg.game)
    lesson = guide.step(msg.step)
    return messages.learn(
        game=msg.game,
        step=msg.step,
        steps=len(guide.steps),
        seat=lesson.seat,
        table=_table(msg.game, lesson),
        view=lesson.state.view(lesson.seat).to_wire(),
        ask=f"learn.{lesson.key}.ask",
        re=msg.id,
    )


def learn_answer(msg: messages.LearnTry) -> dict[str, Any]:
    """The engine's verdict on the learner's move (an action, or a card no legal action plays)."""
    guide = _guide(msg.game)
    lesson = guide.step(msg.step)
    action = None if msg.action is None else games.get_game(msg.game).decode_action(msg.action)
    verdict = judge(guide, lesson, action=action, card=msg.card)
    view = None if verdict.after is None else verdict.after.view(lesson.seat).to_wire()
    events = [e.to_wire() for e in verdict.events]
    return messages.learn_try(
        game=msg.game, step=msg.step, right=verdict.right, why=verdict.why, view=view, events=events, re=msg.id
    )
