"""Errors raised by the rules, each with a stable wire code.

The tree (the server maps ``code`` onto its error reply unchanged)::

    RulesError (ValueError)              rules/...
    ├── IllegalActionError               action/illegal
    │   ├── NotYourTurnError             action/not_your_turn
    │   └── RoundOverError               action/round_over
    ├── BadActionError                   action/bad_action     (not an action of this game)
    ├── BadOptionsError                  table/bad_options
    ├── BadSeatError                     seat/bad_seat
    └── BadDealCodeError                 deal/bad_code

An action that raises leaves the state exactly as it was: states are immutable
values, and ``apply`` checks everything before it builds the next state.
Messages are lower case and show the bad value with ``!r``, after python-chess's
``IllegalMoveError`` and h11's ``LocalProtocolError``.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "BadActionError",
    "BadDealCodeError",
    "BadOptionsError",
    "BadSeatError",
    "IllegalActionError",
    "NotYourTurnError",
    "RoundOverError",
    "RulesError",
]


class RulesError(ValueError):
    """Base class of everything the rules refuse."""

    code: ClassVar[str] = "rules/error"


class IllegalActionError(RulesError):
    """A well-formed action that the rules do not allow now."""

    code = "action/illegal"


class NotYourTurnError(IllegalActionError):
    """The seat may not act now: it is another seat's decision."""

    code = "action/not_your_turn"


class RoundOverError(IllegalActionError):
    """The round or match is over; only the actions that start the next one are accepted."""

    code = "action/round_over"


class BadActionError(RulesError):
    """Data that is not an action of this game at all (unknown kind, not a card, missing suit)."""

    code = "action/bad_action"


class BadOptionsError(RulesError):
    """Table options the game cannot honour (unknown preset, seat count out of range...)."""

    code = "table/bad_options"


class BadSeatError(RulesError):
    """A seat number that does not exist at this table."""

    code = "seat/bad_seat"


class BadDealCodeError(RulesError):
    """A deal code that does not read: wrong length, bad character or check character."""

    code = "deal/bad_code"
