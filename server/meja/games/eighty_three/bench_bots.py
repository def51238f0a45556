"""What ``meja bench bots --game eighty_three`` (:mod:`meja.bench.bots`, docs/bots.md 3) needs to know.

Two partnerships: each deal is played with the candidate pair A in seats 0 and
2 and the other pair B (by default the frozen ``yardstick``) in seats 1 and 3,
then with the pairs swapped; ``--partner NAME`` seats each pair's bot beside a
``NAME`` partner, so the margin says which is the better partner for the same
player. By default a game is the deal's one hand (``--hands 1``); ``--hands 0``
plays whole matches to 200. The margin is A's team hand score minus B's (4.8:
the bidders all or minus the bid, the defenders what they took).

Its own column, **bid success**: of the hands a side won the auction, the share
it made, and how often it was the bidder.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from meja.rules.game import Event
from meja.rules.rng import SEED_BITS, Rng

from .dealcode import DealSpec, encode

__all__ = ["BENCH"]


def _bids(bids: int, made: int, played: int) -> dict[str, Any]:
    rate = made / bids if bids else None
    return {"bids": bids, "made": made, "rate": rate, "bid_share": bids / played if played else None}


def _fmt_bids(d: Mapping[str, Any]) -> str:
    if not d["bids"]:
        return "no bids"
    return f"{100 * d['rate']:.1f}% made of {d['bids']} bids ({100 * d['bid_share']:.1f}% of hands)"


class _Bench:
    deals: Final = 100
    b: Final = "yardstick"
    unit: Final = "hand"
    margin: Final = "points_margin_per_hand"
    #: Decisions after which a hand is abandoned (bots take auto_arrange: a hand is about 35 actions).
    max_actions: Final = 2000

    @staticmethod
    def deal(seed_set: str, preset: str, seats: int, i: int) -> tuple[str, int]:
        rng = Rng(0, f"bench/bots/eighty_three/{seed_set}/{i}")
        dealer, rng = rng.randbelow(4)
        seed, rng = rng.bits(SEED_BITS)
        match_seed, _ = rng.bits(64)
        return encode(DealSpec(dealer, seed)), match_seed

    @staticmethod
    def count(event: Event, sides: Sequence[str], counts: Counter[str]) -> None:
        if event.kind == "hand_over":
            side = sides[event.data["bidder"]]
            counts[f"{side}_bids"] += 1
            counts[f"{side}_made"] += int(event.data["made"])

    @staticmethod
    def report(counts: Mapping[str, int], fig: Mapping[str, Any]) -> dict[str, Any]:
        played = fig["hands_played"]
        return {
            "bid_success": {
                "a": _bids(counts.get("A_bids", 0), counts.get("A_made", 0), played),
                "b": _bids(counts.get("B_bids", 0), counts.get("B_made", 0), played),
            }
        }

    @staticmethod
    def lines(fig: Mapping[str, Any]) -> list[str]:
        bids = fig["bid_success"]
        return [
            f"bid success      {fig['a']}: {_fmt_bids(bids['a'])}",
            f"                 {fig['b']}: {_fmt_bids(bids['b'])}",
        ]


BENCH: Final = _Bench()
