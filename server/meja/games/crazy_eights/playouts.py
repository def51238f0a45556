"""How ``meja bench rules`` plays Crazy Eights (:class:`meja.rules.playout.Playouts`).

``random-card`` (the default) plays like a casual player: a uniformly random
legal play (an 8 counts once per suit it may name, so a uniformly random legal
*action* among the plays); it draws only when it has no play, and passes only
when passing is the one thing left. ``random-any`` picks uniformly among all
legal actions, draws and passes included.

Why ``random-card`` is the default: ``house`` lets a seat draw up to three
cards a turn even when it could play (docs/rules/crazy-eights.md 1.4.3), so
``random-any`` draws far more than anyone would: its house rounds average about
640 actions (against about 55 for ``random-card``), with hands of dozens of
cards and many reshuffles. That measures a game nobody plays. ``classic`` and
``party`` allow a draw only when stuck, so there the two policies give similar
rounds.

The acceptance target is at least 2,000 ``house`` 2-seat rounds/s with
``random-card``; the benchmark says whether a run met it.
"""

from __future__ import annotations

from typing import Final

from meja.rules.playout import Chance, Playouts, Target, random_any

from .rules import Kind, Move

__all__ = ["PLAYOUTS", "random_card"]

# Globals, not Kind.PLAY: an Enum member lookup costs about 130 ns in CPython 3.11,
# which the policy would pay twice per action.
_PLAY: Final = Kind.PLAY
_SUIT: Final = Kind.SUIT


def random_card(legal: tuple[Move, ...], chance: Chance) -> Move:
    """A random legal play; else draw; else pass (or the one action left: suit, ready).

    Legal actions are sorted by kind (play, suit, draw, pass, ready), so the
    plays, or the suit choices, are a prefix of ``legal``.
    """
    first = legal[0]
    kind = first.kind
    if kind in (_PLAY, _SUIT):
        n = 1
        end = len(legal)
        while n < end and legal[n].kind == kind:
            n += 1
        return first if n == 1 else legal[int(chance.random() * n)]
    return first  # draw sorts before pass: draw only when there is no play


PLAYOUTS: Final = Playouts(
    policies={"random-card": random_card, "random-any": random_any},
    default_policy="random-card",
    policy_help="random-card (default): random play, draw only when stuck; random-any: uniform over all legal actions",
    target=Target(metric="rounds_per_s", value=2000.0, seats=(2,), policy="random-card", preset="house"),
    note="random-card is the default: random-any draws itself to death in house (up to 3 voluntary"
    " draws a turn, docs/rules/crazy-eights.md 1.4.3), averaging about 640 actions a round against about 55",
)
