"""Why an Eighty-Three bot did what it did (issue 23 point 4): a short reason, for a hint.

:func:`why` is found by :func:`meja.bots.base.choose_why` beside the bots' own modules. From the
seat's own view, the events it saw (:func:`.common.read_seen`) and the action chosen, it names
the tip the play follows (the ``normal`` level's cooperative policy of :mod:`.sim`: a point card
on the partner's sure winner, never beating the partner's card, a sure winner on a trick worth
fighting for, the cheapest card when it cannot win...), read from the situation and the card,
so it holds for any bot's card. The ``hard`` level's searched decisions (the auction, the trump
call, the discard and the card play) give their search's own figures
(:meth:`meja.bots.search.SearchBot.searched`: this thread's search of this decision): the deals
compared and, for a card or a trump suit, how the choice did against the closest other one.
The page words a tip in the player's language (``why.tip.<name>``).
"""

from __future__ import annotations

from typing import Any

from meja.bots.base import Why, search_why, tip
from meja.bots.search import result_why

from ..rules import Action, Kind
from .common import ESUIT, PASS, PLAIN, POINTS, read_seen, trick_winner
from .sim import CONTEST, is_sure

__all__ = ["why"]


def why(bot: Any, view: Any, history: Any, action: Action) -> Why | None:
    """The reason behind ``action`` (``None``: between hands, or nothing to explain)."""
    legal = view.legal
    phase = view.data.get("phase")
    if phase not in ("auction", "trump", "discard", "trim", "play") or not legal:
        return None
    seen = read_seen(view, history)
    leave = False
    if phase == "auction":
        high_seat = next((s for s, b in reversed(seen.calls) if b), -1)
        opponents = {(seen.seat + 1) % 4, (seen.seat + 3) % 4}
        leave = high_seat == seen.partner and opponents <= {s for s, b in seen.calls if not b}
    searched = getattr(bot, "searched", None)
    result = searched() if callable(searched) else None
    if result is not None and result.worlds > 0:
        return _search(result, phase, action)
    if len(legal) == 1:
        return tip("only_play") if phase == "play" else None
    if phase in ("discard", "trim"):
        return tip("keep_strongest")  # the table's own arrangement, or a step of a plan kept whole
    if phase == "trump":
        return tip("name_strongest")
    if phase == "auction":
        if PASS not in legal:
            return tip("must_bid")
        if action == PASS:
            return tip("leave_partner" if leave else "pass_value")
        return tip("bid_value")
    if action.kind != Kind.PLAY:
        return None
    return _play(seen, int(action.arg))


def _search(result: Any, phase: str, action: Action) -> Why | None:
    """A search's reason: the deals compared and, where its candidates are moves (a card, a trump
    suit), how the choice did against the closest other one; an auction's limits and a discard's
    plans are not moves, so there the deals alone."""
    to_action: Any = {"play": lambda c: Action.card(Kind.PLAY, c), "trump": Action.trump}.get(phase)
    if to_action is not None and to_action(result.choice) == action:
        return result_why(result, to_action)
    return search_why(result.worlds)


def _play(seen: Any, card: int) -> Why:
    """The tip a card play follows, from the trick as the seat sees it."""
    trump, trick, seat = seen.trump, list(seen.trick), seen.seat
    es, pts = ESUIT[trump], POINTS[trump]
    gone = seen.gone()
    if not trick:
        if es[card] == PLAIN and is_sure(card, seen.hand, gone, trump):
            return tip("lead_top")
        return tip("lead_low" if es[card] != PLAIN else "throw_cheap")
    wseat = trick_winner(trick, trump)
    wins = trick_winner((*trick, (seat, card)), trump) == seat
    trick_pts = sum(pts[c] for _, c in trick)
    last = len(trick) == 3
    if wseat == seen.partner:
        if wins:
            return tip("win_worth" if trick_pts >= CONTEST else "win_sure")
        return tip("feed_partner" if pts[card] else "spare_partner")
    if wins:
        if last:
            return tip("win_last")
        if is_sure(card, seen.hand, gone, trump):
            return tip("win_sure")
        # "worth points" only where there are some: a trick of none is won for its lead (a new
        # user's hint read "these cards are worth points" over a lone queen of clubs)
        return tip("win_worth" if trick_pts + pts[card] else "take_lead")
    return tip("throw_cheap")
