"""What ``meja bench bots`` (:mod:`meja.bench.bots`, docs/bots.md 3) needs to know of Crazy Eights.

Each player plays for itself, so A sits in each seat in turn (2 games a deal at
2 seats, 3 at 3); a round is scored by its penalties (fewer is better: the
benchmark's ``penalty_margin`` is the others' mean penalty minus A's). By default
a game is the deal's one round (about 1,000 deals at 2 seats and 700 at 3 give
+-2 points of share); ``--rounds 0`` plays whole matches to 100 (about 7 rounds
at 2 seats). Deal ``i`` of a seed set is a deal code of the preset and table size.
"""

from __future__ import annotations

from typing import Final

from meja.rules.rng import Rng

from .dealcode import DealSpec, encode

__all__ = ["BENCH"]


class _Bench:
    seats: Final = None  # what the preset seats: house 2-3, classic 2-4, party 2-8
    deals: Final = 200
    b: Final = "greedy"
    #: Decisions after which a round is abandoned as drawn (a round where everyone is
    #: stuck with nothing to draw could pass forever; 1.5.4).
    margin: Final = "penalty_margin"  # fewer points win: the others' mean penalty minus A's
    max_actions: Final = 3000

    @staticmethod
    def deal(seed_set: str, preset: str, seats: int, i: int) -> tuple[str, int]:
        rng = Rng(0, f"bench/bots/{seed_set}/{preset}/{seats}/{i}")
        seed, rng = rng.bits(40)
        match_seed, _ = rng.bits(64)
        return encode(DealSpec(preset, seats, 0, seed)), match_seed


BENCH: Final = _Bench()
