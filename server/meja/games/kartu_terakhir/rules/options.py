"""Kartu Terakhir's options (3.7) and the game's :class:`GameInfo`."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final, Literal

from meja.rules.errors import BadOptionsError
from meja.rules.game import GameInfo, OptionSpec, PresetInfo, Wire, check_options

from .tables import GAME_NAME, MAX_SEATS, MIN_SEATS, TITLE

# --------------------------------------------------------------------------- options


MatchMode = Literal["round", "500"]


@dataclass(frozen=True, slots=True)
class KartuTerakhirOptions:
    """The options of a table (see the module docstring), fully defaulted: preset ``standard``."""

    preset: str = "standard"
    stacking: bool = False
    stacking_mandatory: bool = False
    match: MatchMode = "round"
    reaction_ms: int = 1500

    def to_wire(self) -> dict[str, Wire]:
        """Plain data; one shared dict per distinct options value (treat it as read-only)."""
        return _options_wire(self)


@functools.lru_cache(maxsize=64)
def _options_wire(options: KartuTerakhirOptions) -> dict[str, Wire]:
    return {f.name: getattr(options, f.name) for f in fields(options)}


OPTION_SPECS: Final = (
    OptionSpec("stacking", "bool", False),
    OptionSpec("stacking_mandatory", "bool", False, when=(("stacking", (True,)),)),
    OptionSpec("match", "choice", "round", choices=("round", "500")),
    OptionSpec("reaction_ms", "int", 1500, min=0, max=5000, step=1, unit="ms"),
)

INFO: Final = GameInfo(
    name=GAME_NAME,
    title=TITLE,
    presets=(PresetInfo("standard", MIN_SEATS, MAX_SEATS, 4, OPTION_SPECS),),
    deal_codes=True,
    # the table pauses visibly after a rebuilt stock and after a challenge's verdict
    hold_events=frozenset({"reshuffle", "challenge"}),
)


def options_from_wire(data: Any) -> KartuTerakhirOptions:
    """Options from a host's request (``{"preset": "standard", "stacking": true}``), checked."""
    preset, values = check_options(INFO, data)
    return KartuTerakhirOptions(preset=preset.name, **values)


def options_arg(options: Any) -> KartuTerakhirOptions:
    """Options given as a value, a host's request map, or ``None`` (the defaults)."""
    if options is None:
        return KartuTerakhirOptions()
    if isinstance(options, KartuTerakhirOptions):
        return options
    if isinstance(options, Mapping):
        return options_from_wire(dict(options))
    raise BadOptionsError(f"options must be KartuTerakhirOptions or a map of options, not {options!r}")
