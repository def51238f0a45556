"""Pure, deterministic game rules: no I/O, no clock, no ``random``, only the standard library.

Importing this package registers every game; look one up with :func:`get_game`.
"""

from . import crazy_eights
from .cards import CARDS, Card, Rank, Suit, parse_cards
from .errors import (
    BadActionError,
    BadDealCodeError,
    BadOptionsError,
    BadSeatError,
    IllegalActionError,
    NotYourTurnError,
    RoundOverError,
    RulesError,
)
from .game import Event, Game, Outcome, State, Transition, View, events_for, games, get_game
from .rng import Rng

__all__ = [
    "CARDS",
    "BadActionError",
    "BadDealCodeError",
    "BadOptionsError",
    "BadSeatError",
    "Card",
    "Event",
    "Game",
    "IllegalActionError",
    "NotYourTurnError",
    "Outcome",
    "Rank",
    "Rng",
    "RoundOverError",
    "RulesError",
    "State",
    "Suit",
    "Transition",
    "View",
    "crazy_eights",
    "events_for",
    "games",
    "get_game",
    "parse_cards",
]
