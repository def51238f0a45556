"""Crazy Eights: the ``house`` rules (the product's default) and the ``classic`` and ``party`` presets.

The rules are ``docs/rules/crazy-eights.md``; comments cite its sections.

Rules in brief
--------------
One 52-card deck (two for ``party`` at 6-8 seats). Each seat is dealt a hand;
one card is turned up as the starter and the rest is the face-down stock. On a
turn a seat plays one card matching the active suit or the top card's rank, or
any 8, naming a suit when it lands (1.3). The first seat to empty its hand wins
the round; every other seat adds up penalty points for the cards it still holds
(8 = 50, J/Q/K = 10, A = 1, the rest their number; 1.6). The match ends after
the round in which a total reaches the target (100): the lowest total wins, ties
are co-winners. ``party`` can instead count round wins over a fixed number of
rounds (2.3.5).

=========================  ===============  =====================  =====================
Preset                     ``house``        ``classic``            ``party``
=========================  ===============  =====================  =====================
Seats                      2-3              2-4                    2-8 (2 decks at 6-8)
Hand                       7 (2 seats), 5   5                      7 (2-4 seats), 5
Leads round 1              seat 0           seat after dealer      seat after dealer
Leads later rounds         last winner      dealer moves on        dealer moves on
Starter is an 8            keeps its suit   buried, turn again     dealer names a suit
Draw                       up to 3 a turn,  1, only when stuck;    1, only when stuck;
                           voluntary too    legal card played      turn passes
Pass                       only when stuck  only when nothing      only when nothing
                           and 3 drawn      to draw                to draw
=========================  ===============  =====================  =====================

Actions
-------
``play CARD [SUIT]`` (the suit is named with the 8 itself, except an 8 that is the
last card, which ends the round: 1.3.7), ``draw``, ``pass``, ``suit SUIT`` (the
dealer naming the suit of a starter 8 in ``party``, or a seat whose drawn 8 was
played for it in ``classic``), ``ready`` (after a round: every seat is ready for
the next deal; the server submits it for bots and absent players).

What each seat sees
-------------------
Its own hand; every seat's card count; the top card and the active suit; the
stock and discard sizes (never the stock order); whose turn it is and how many
draws are left; whether Draw and Pass are allowed and, when not, a reason code;
scores, round and match status. The deal code of a round in progress is never in
a view or event (it rebuilds every hand): it is revealed with the round's result.

Determinism
-----------
All chance comes from :class:`~meja.rules.rng.Rng`. A match seed draws each
round's 128-bit seed and, where there is one, the first dealer; a round's deal
uses stream ``deal`` of its seed and the k-th reshuffle stream ``reshuffle/k``,
so a deal code (preset, seats, leader, seed) fixes the hands, starter and stock,
and identical moves give identical reshuffles (1.9.3, T-CE-15).
"""

from .actions import DRAW, PASS, READY, Kind, Move, Phase
from .game import GAME, CrazyEights
from .options import ADJUSTABLE, INFO, PRESETS, CrazyEightsOptions, DrawnCardPlay, MatchMode, StarterEightChooser
from .state import CrazyEightsState
from .tables import EIGHT_RANK, GAME_NAME, PENALTY_POINTS, PLAYABLE, RANK_INDEX, SUIT_INDEX, penalty
from .view import CrazyEightsView, RoundResult

__all__ = [
    "ADJUSTABLE",
    "DRAW",
    "EIGHT_RANK",
    "GAME",
    "GAME_NAME",
    "INFO",
    "PASS",
    "PENALTY_POINTS",
    "PLAYABLE",
    "PRESETS",
    "RANK_INDEX",
    "READY",
    "SUIT_INDEX",
    "CrazyEights",
    "CrazyEightsOptions",
    "CrazyEightsState",
    "CrazyEightsView",
    "DrawnCardPlay",
    "Kind",
    "MatchMode",
    "Move",
    "Phase",
    "RoundResult",
    "StarterEightChooser",
    "penalty",
]
