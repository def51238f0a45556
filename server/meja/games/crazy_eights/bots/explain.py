"""Why a Crazy Eights bot did what it did (issue 23 point 4): the tip it followed, for a hint.

:func:`why` is found by :func:`meja.bots.base.choose_why` beside the bots' own modules. It reads
the same view the bot chose from (the seat's hand and legal actions, nothing else) and the
action chosen, and names the tip of docs/bots.md's greedy policy that gave it (``normal``, and
``hard`` where it did not search: a forced move, its last card). The searching ``hard`` bot's
reason is its search's own figures (:meth:`meja.bots.search.SearchBot.choose_why`). The page
words a tip in the player's language (``why.tip.<name>``).
"""

from __future__ import annotations

from typing import Any

from meja.bots.base import Why, tip

from ..rules import DRAW, PASS, CrazyEightsView, Kind, Move, Phase
from .common import History, hand_mask, playable_mask
from .tables import EIGHT, EIGHTS, NON_EIGHT_SUIT_MASK, PENALTY, RANK, SUIT, bits

__all__ = ["why"]


def why(bot: Any, view: CrazyEightsView, history: History, action: Move) -> Why | None:
    """The tip behind ``action`` in ``view`` (``None``: between rounds, or nothing to explain)."""
    legal = view.legal
    if view.phase == Phase.CHOOSE_SUIT:
        return tip("name_most_held")
    if view.phase != Phase.PLAY or not legal:
        return None
    if action == DRAW:
        return tip("nothing_plays")
    if action == PASS:
        return tip("pass_on")
    if action.kind != Kind.PLAY or action.card is None:
        return None
    hand = hand_mask(view)
    card = int(action.card)
    if hand == 1 << card:
        return tip("go_out")
    playable = playable_mask(view)
    if playable == 1 << card:
        return tip("only_play")
    if RANK[card] == EIGHT:
        return tip("flexible_now") if not playable & ~EIGHTS else None
    others = [c for c in bits(playable) if RANK[c] != EIGHT and c != card]
    held = (hand & NON_EIGHT_SUIT_MASK[SUIT[card]]).bit_count()
    if any((hand & NON_EIGHT_SUIT_MASK[SUIT[c]]).bit_count() < held for c in others):
        return tip("most_held")
    if any(PENALTY[c] < PENALTY[card] for c in others):
        return tip("shed_points")
    if hand & EIGHTS:
        return tip("keep_flexible")
    return tip("most_held")
