"""How ``meja bench rules`` plays Eighty-Three (:class:`meja.rules.playout.Playouts`): in hands.

``random-any``: uniform over every legal action, the step-by-step discard
decision included (``undo`` too, so its walks wander before they end); it is
the interim bot of every level. ``random-arrange``: uniform, except that in the
discard and trim phases it takes ``auto_arrange``, as a real bot will: hands of
about 30 actions instead of about 57. Both by default. Where several seats may
act (the discard and trim phases) the acting seat is drawn among them at random.

What made the engine fast (the lessons of the Crazy Eights engine): states copy
their instance dict instead of ``dataclasses.replace``; legal actions are cached
on the (immutable) state, because a policy asks and then ``apply`` checks; the
per-trump tables (effective suit, power, points of each card id) are computed
once at import; a discard step's legality depends only on the class of its card
(plain, non-point trump, point trump), so four O(1) feasibility checks decide a
whole step list.
"""

from __future__ import annotations

from typing import Final

from meja.rules.playout import Chance, Playouts, random_any

from .rules import AUTO, Action

__all__ = ["PLAYOUTS", "random_arrange"]


def random_arrange(legal: tuple[Action, ...], chance: Chance) -> Action:
    """``auto_arrange`` whenever it is legal (the discard and trim phases), else uniform."""
    if legal[0] is AUTO:
        return AUTO
    return legal[int(chance.random() * len(legal))]


PLAYOUTS: Final = Playouts(
    policies={"random-any": random_any, "random-arrange": random_arrange},
    default_policy="all",
    policy_help="random-any: uniform over legal actions; random-arrange: auto_arrange in the discard"
    " and trim phases; all (default): both",
    unit="hand",
)
