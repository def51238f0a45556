"""Why a Kartu Terakhir bot did what it did (issue 23 point 4): the tip it followed, for a hint.

:func:`why` is found by :func:`meja.bots.base.choose_why` beside the bots' own modules. From the
seat's own view, the events it saw and the action chosen, it names the seed's tip
(docs/rules/kartu-terakhir.md 3.9.6) that :func:`.common.greedy_turn` and :func:`.common.reflex`
followed: the ``normal`` level's policy, and ``hard``'s wherever it did not search (a call, a
catch, a forced move). It reads the same public helpers the bots decide with and changes
nothing. The searching ``hard`` bot's reason is its search's own figures
(:meth:`meja.bots.search.SearchBot.choose_why`). The page words a tip in the player's language
(``why.tip.<name>``).
"""

from __future__ import annotations

from typing import Any

from meja.bots.base import Why, tip

from ..rules import DRAW_TWO, REVERSE, SKIP, KartuTerakhirView, Move, Phase
from .common import (
    CALL,
    CATCH,
    CHALLENGE,
    DRAW,
    KEEP,
    NAME_COLOUR,
    NAME_POINTS,
    NAME_SYM,
    PASS,
    TAKE,
    History,
    avoid_colour,
    colour_counts,
    plays_of,
    wd4_prior,
)

__all__ = ["why"]

_NO_COLOUR = 4


def why(bot: Any, view: KartuTerakhirView, history: History, action: Move) -> Why | None:
    """The tip behind ``action`` (``None``: between rounds, or nothing to explain)."""
    if view.phase >= Phase.ROUND_OVER or view.hand is None or view.seat is None:
        return None
    if action == CATCH:
        return tip("catch")
    if action == CALL:
        return tip("call_last")
    if action == CHALLENGE:
        _, prior, previous = wd4_prior(history)
        return tip("question_it" if prior >= 0 and previous == prior else "question_gamble")
    plays = plays_of(view.legal)
    if action == TAKE:
        return tip("take_it" if CHALLENGE in view.legal else "nothing_plays")
    if action in (DRAW, KEEP, PASS):
        return tip("nothing_plays" if action == DRAW else "pass_on")
    move = int(action)
    if move not in plays:
        return None
    if len(view.hand) == 1:
        return tip("go_out")
    name = move // 5
    names = {m // 5 for m in plays}
    if len(names) == 1:
        return tip("only_play")
    colour = NAME_COLOUR[name]
    if colour == _NO_COLOUR:
        return tip("flexible_now")
    me, seats = view.seat, view.seats
    nxt = (me + view.direction) % seats
    threat = nxt != me and view.hand_counts[nxt] <= 2
    others = [n for n in names if n != name and NAME_COLOUR[n] != _NO_COLOUR]

    def hurts(n: int) -> bool:
        return threat and (NAME_SYM[n] in (SKIP, DRAW_TWO) or (NAME_SYM[n] == REVERSE and seats == 2))

    if hurts(name) and any(not hurts(n) for n in others):
        return tip("hurt_near_out")
    avoid = avoid_colour(history, seats, me, view.direction, view.hand_counts)
    if avoid >= 0 and colour != avoid and any(NAME_COLOUR[n] == avoid for n in others):
        return tip("steer_colour")
    if len(others) < len(names) - 1:
        return tip("keep_flexible")  # a card that goes on anything was playable too
    if any(NAME_POINTS[n] < NAME_POINTS[name] for n in others):
        return tip("shed_points")
    counts = colour_counts(view.hand)
    if any(counts[NAME_COLOUR[n]] < counts[colour] for n in others):
        return tip("most_held")
    return tip("shed_points")
