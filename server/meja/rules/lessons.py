"""A game's guide for newcomers ("Learn to play"): steps that ask, and the engine that answers.

A game may offer a :class:`Guide` (``GamePlugin.lessons``): a few :class:`Lesson` s,
each a real position built with the game's own scenario builder (``stacked(...)``),
the seat the learner plays, the key of the question in the game's page strings, and
which of the seat's *legal* actions the question asks for, as a predicate over the
state and the action (so it asks the engine: "any play", "the play that wins the
trick", "a bid"), never as a list written a second time.

Judging a try (:func:`judge`) is the engine's work too:

- an action that is not one of ``state.legal_actions(seat)`` is wrong, and the
  reason is the guide's ``refusal`` for it: a key of the game's strings said from
  the engine's own predicates (the card matches nothing, a trump must be kept);
- a card of the hand that no legal action plays (the page sends the card alone:
  its controls offer no move for it) is judged the same way;
- a legal action is right if the lesson's ``right`` says so (its explanation is
  ``learn.<key>.right``), else wrong with ``learn.<key>.other``: why the rules
  allow it but the step asks for something else.

Nothing here keeps a learner's progress: every question names its step, so a
server answers it from the guide alone (a stateless request, PROTOCOL.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import BadActionError, BadOptionsError
from .game import Event, events_for

__all__ = ["Guide", "Lesson", "Verdict", "judge"]

#: the key said for a refusal the guide has no words of its own for
REFUSED: str = "learn.refused"


@dataclass(frozen=True, slots=True)
class Lesson:
    """One step: a position, the learner's seat, and what the question asks for.

    ``key`` names its words in the game's page strings: ``learn.<key>.ask`` (the
    question), ``learn.<key>.right`` (why the right move is right) and
    ``learn.<key>.other`` (why a legal move the step did not ask for is not it).
    ``right(state, action)``: whether a legal action of ``seat`` answers the question.
    ``other(state, action)``: where one text does not fit every other legal move, the key of
    the words for this one (``None``: ``learn.<key>.other``).
    """

    key: str
    state: Any
    seat: int
    right: Callable[[Any, Any], bool]
    other: Callable[[Any, Any], str | None] | None = None

    def __post_init__(self) -> None:
        legal = self.state.legal_actions(self.seat)
        if not any(self.right(self.state, a) for a in legal):
            raise BadOptionsError(f"lesson {self.key!r}: no legal action of seat {self.seat} is the right one")


class Verdict(NamedTuple):
    """A try judged: whether it is what the step asks, why (a key of the game's strings), and, when
    the rules allow the action, the next state and the events the learner's seat may see of it."""

    right: bool
    why: str
    after: Any = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Guide:
    """A game's steps, in order, and its words for a refusal.

    ``refusal(state, seat, action)`` and ``card_refusal(state, seat, card)``: the key of
    the game's strings that says, in plain words, why the rules refuse ``action`` (or any
    move of the hand's ``card``, a wire card name) in ``state``, from the engine's own
    predicates; ``None``: the shell's general words.
    """

    steps: tuple[Lesson, ...]
    refusal: Callable[[Any, int, Any], str | None]
    card_refusal: Callable[[Any, int, str], str | None]

    def step(self, index: int) -> Lesson:
        if not 0 <= index < len(self.steps):
            raise BadOptionsError(f"the guide has steps 0-{len(self.steps) - 1}, not {index}")
        return self.steps[index]


def judge(guide: Guide, lesson: Lesson, action: Any = None, card: str | None = None) -> Verdict:
    """Judge the learner's try at ``lesson``: an action (decoded by the game), or a card of the hand."""
    state, seat = lesson.state, lesson.seat
    if card is not None:
        if card not in state.view(seat).to_wire().get("hand", ()):
            raise BadActionError(f"{card!r} is not in the learner's hand")
        return Verdict(False, guide.card_refusal(state, seat, card) or REFUSED)
    if action not in state.legal_actions(seat):
        return Verdict(False, guide.refusal(state, seat, action) or REFUSED)
    after, events = state.apply(seat, action)
    seen = events_for(events, seat)
    if lesson.right(state, action):
        return Verdict(True, f"learn.{lesson.key}.right", after, seen)
    why = lesson.other(state, action) if lesson.other is not None else None
    return Verdict(False, why or f"learn.{lesson.key}.other", after, seen)
