"""What every game shares: cards, the seeded RNG, deal codes, the game contract, errors.

Pure and deterministic: no I/O, no clock, no ``random``, only the standard
library. The games themselves live in :mod:`meja.games` (one folder each);
importing that package registers them, after which :func:`get_game` finds them.
"""

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
from .game import (
    TALK_FREE,
    TALK_KINDS,
    TALK_NEUTRAL,
    TALK_NONE,
    DealInfo,
    Event,
    Game,
    GameInfo,
    Location,
    OptionSpec,
    Outcome,
    PresetInfo,
    RoundPoints,
    State,
    StateDefaults,
    Timed,
    Transition,
    View,
    events_for,
    games,
    get_game,
    round_points,
)
from .rng import Rng

__all__ = [
    "CARDS",
    "TALK_FREE",
    "TALK_KINDS",
    "TALK_NEUTRAL",
    "TALK_NONE",
    "BadActionError",
    "BadDealCodeError",
    "BadOptionsError",
    "BadSeatError",
    "Card",
    "DealInfo",
    "Event",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Location",
    "NotYourTurnError",
    "OptionSpec",
    "Outcome",
    "PresetInfo",
    "Rank",
    "Rng",
    "RoundOverError",
    "RoundPoints",
    "RulesError",
    "State",
    "StateDefaults",
    "Suit",
    "Timed",
    "Transition",
    "View",
    "events_for",
    "games",
    "get_game",
    "parse_cards",
    "round_points",
]
