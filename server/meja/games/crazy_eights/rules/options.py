"""Crazy Eights' options: the presets, what a host may adjust, and the game's :class:`GameInfo`."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Final, Literal

from meja.rules.errors import BadOptionsError
from meja.rules.game import GameInfo, OptionSpec, PresetInfo, Wire
from meja.rules.options import options_or_preset

from .tables import GAME_NAME

# --------------------------------------------------------------------------- options


DrawnCardPlay = Literal["forced", "optional"]
StarterEightChooser = Literal["dealer", "first_player"]
MatchMode = Literal["points", "wins"]


@dataclass(frozen=True, slots=True)
class CrazyEightsOptions:
    """Everything that differs between presets, fully defaulted to ``house``.

    The presets are named instances (:data:`PRESETS`); a host may change the
    fields in :data:`ADJUSTABLE` and nothing else, so a table is always one of
    the three rule sets the documents describe, with its documented options.
    """

    preset: str = "house"
    min_seats: int = 2
    max_seats: int = 3
    #: hand size by seat count, indexed by seats (docs/rules/crazy-eights.md 1.1.4, 2.1)
    hand_sizes: tuple[int, ...] = (0, 0, 7, 5, 0, 0, 0, 0, 0)
    #: from this many seats on, two decks are used (0: never; 2.3.1)
    two_decks_from: int = 0
    #: ``False``: round 1 is led by seat 0 and later rounds by the last winner (1.2);
    #: ``True``: a dealer (random at first) moves on each round and the next seat leads (2.2.5)
    has_dealer: bool = False
    #: what a starter 8 does: keep its suit (1.3.6), be buried (2.2.2), or have a suit named (2.3.2)
    starter_eight: Literal["keep", "bury", "name"] = "keep"
    starter_eight_chooser: StarterEightChooser = "dealer"
    #: the most draws in one turn (1.4.2: 3; 2.2.3, 2.3.3: 1)
    max_draws: int = 3
    #: ``True``: drawing is allowed only with no playable card (2.2.3, 2.3.3)
    draw_only_when_stuck: bool = False
    #: after a draw: play any card and maybe draw again (``any``), the drawn
    #: card is played if legal (``drawn``), or the turn passes (``end_turn``)
    after_draw: Literal["any", "drawn", "end_turn"] = "any"
    drawn_card_play: DrawnCardPlay = "forced"
    match_mode: MatchMode = "points"
    #: points mode: the match ends when a total reaches this (1.6.5)
    target: int = 100
    #: wins mode: the number of rounds (2.3.5)
    rounds: int = 5

    def hand_size(self, seats: int) -> int:
        return self.hand_sizes[seats]

    def decks(self, seats: int) -> int:
        return 2 if self.two_decks_from and seats >= self.two_decks_from else 1

    def to_wire(self) -> dict[str, Wire]:
        """Plain data; one shared dict per distinct options value (treat it as read-only)."""
        return _options_wire(self)


@functools.lru_cache(maxsize=256)
def _options_wire(options: CrazyEightsOptions) -> dict[str, Wire]:
    # Options are immutable and few: every record and summary of a table would rebuild the same dict.
    return {f.name: _plain(getattr(options, f.name)) for f in fields(options)}


def _plain(value: Any) -> Wire:
    return list(value) if isinstance(value, tuple) else value


PRESETS: Final[Mapping[str, CrazyEightsOptions]] = {
    "house": CrazyEightsOptions(),
    "classic": CrazyEightsOptions(
        preset="classic",
        min_seats=2,
        max_seats=4,
        hand_sizes=(0, 0, 5, 5, 5, 0, 0, 0, 0),
        has_dealer=True,
        starter_eight="bury",
        max_draws=1,
        draw_only_when_stuck=True,
        after_draw="drawn",
    ),
    "party": CrazyEightsOptions(
        preset="party",
        min_seats=2,
        max_seats=8,
        hand_sizes=(0, 0, 7, 7, 7, 5, 5, 5, 5),
        two_decks_from=6,
        has_dealer=True,
        starter_eight="name",
        max_draws=1,
        draw_only_when_stuck=True,
        after_draw="end_turn",
    ),
}

#: Options a host may set on top of a preset, with their allowed values.
ADJUSTABLE: Final[Mapping[str, tuple[Any, ...] | range]] = {
    "target": range(10, 1001),
    "match_mode": ("points", "wins"),
    "rounds": range(1, 51),
    "drawn_card_play": ("forced", "optional"),
    "starter_eight_chooser": ("dealer", "first_player"),
}


#: What the host form offers per preset (a subset of :data:`ADJUSTABLE`: an option that
#: changes nothing in a preset is not offered there, e.g. ``drawn_card_play`` outside classic).
_TARGET = OptionSpec("target", "int", 100, min=10, max=1000, step=1, when=(("match_mode", ("points",)),))
_MODE = OptionSpec("match_mode", "choice", "points", choices=("points", "wins"))
_ROUNDS = OptionSpec("rounds", "int", 5, min=1, max=50, when=(("match_mode", ("wins",)),))
INFO: Final = GameInfo(
    name=GAME_NAME,
    title="Crazy Eights",
    presets=(
        PresetInfo("house", 2, 3, 3, (_TARGET, _MODE, _ROUNDS)),
        PresetInfo(
            "classic",
            2,
            4,
            3,
            (_TARGET, _MODE, _ROUNDS, OptionSpec("drawn_card_play", "choice", "forced", ("forced", "optional"))),
        ),
        PresetInfo(
            "party",
            2,
            8,
            3,
            (
                _MODE,
                _TARGET,
                _ROUNDS,
                OptionSpec("starter_eight_chooser", "choice", "dealer", choices=("dealer", "first_player")),
            ),
        ),
    ),
    deal_codes=True,
    # 1.5.3: the table pauses visibly after a reshuffle, and bots wait for it.
    hold_events=frozenset({"reshuffle"}),
)


def preset_options(preset: str | None = None, **overrides: Any) -> CrazyEightsOptions:
    """The named preset (``house`` by default) with adjustments checked (any of :data:`ADJUSTABLE`)."""
    base = PRESETS.get(preset or "house")
    if base is None:
        raise BadOptionsError(f"unknown preset {preset!r}; known: {sorted(PRESETS)}")
    for key, value in overrides.items():
        allowed = ADJUSTABLE.get(key)
        if allowed is None:
            raise BadOptionsError(f"option {key!r} cannot be set; adjustable: {sorted(ADJUSTABLE)}")
        # type(...) checks: True == 1 and 100.0 == 100, but neither is an option value here.
        if type(value) not in (int, str) or value not in allowed:
            raise BadOptionsError(f"option {key}={value!r} is out of range")
    return replace(base, **overrides)


def options_arg(options: Any) -> CrazyEightsOptions:
    """Options given as a value or by preset name; a typed error for anything else."""
    return options_or_preset(options, CrazyEightsOptions, preset_options)
