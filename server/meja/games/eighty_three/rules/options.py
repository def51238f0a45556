"""Eighty-Three's options and the game's :class:`GameInfo`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from meja.rules.game import GameInfo, OptionSpec, PresetInfo, Wire, check_options
from meja.rules.options import options_or_preset

from .tables import GAME_NAME, SEATS

# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class EightyThreeOptions:
    """The rules a table plays: the preset and what the host set (fully defaulted)."""

    preset: str = "standard"
    #: 4.8.4, 4.10.7: only the bidders can win, on a made bid reaching 200
    must_win_on_own_bid: bool = False

    def to_wire(self) -> dict[str, Wire]:
        return {"preset": self.preset, "must_win_on_own_bid": self.must_win_on_own_bid}


INFO: Final = GameInfo(
    name=GAME_NAME,
    title="Eighty-Three",
    presets=(
        PresetInfo(
            "standard",
            SEATS,
            SEATS,
            SEATS,
            (OptionSpec("must_win_on_own_bid", "bool", False),),
        ),
    ),
    teams="partners",
    deal_codes=True,
    round_start="hand_start",
    round_end="hand_over",
    # The table pauses visibly after a finished trick and after the exchange of the discard phase.
    hold_events=frozenset({"trick", "exchange"}),
)


def preset_options(preset: str | None = None, **overrides: Any) -> EightyThreeOptions:
    """The preset (``standard``) with the host's settings checked against :data:`INFO`."""
    _, values = check_options(INFO, {"preset": preset or "standard", **overrides})
    return EightyThreeOptions(preset=preset or "standard", **values)


def options_arg(options: Any) -> EightyThreeOptions:
    """Options given as a value or by preset name; a typed error for anything else."""
    return options_or_preset(options, EightyThreeOptions, preset_options)
