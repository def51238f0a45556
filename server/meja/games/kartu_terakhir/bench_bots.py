"""What ``meja bench bots --game kartu_terakhir`` (:mod:`meja.bench.bots`, docs/bots.md 3) needs to know.

A game is the deal's one round (the default ``round`` match, docs/rules/kartu-terakhir.md
3.8.1), with A in each seat in turn (2 games a deal at 2 seats, 4 at 4, 6 at 6);
only the round's winner scores (3.8.2), so the margin is A's points minus the
others' mean.

**Time, as on a server.** Kartu Terakhir has out-of-turn actions (a catch, a
call after playing: 3.6), so who acts first matters: the benchmark plays on the
server's timers (:data:`BENCH`'s ``pauses``: a thinking pause of 600-1200 ms for
a seat the game awaits, a reflex of 400-1500 ms out of turn, 3.6.2; a Draw Two's
timed penalty after ``reaction_ms``).

Its own columns: A's catches made per game, and times A was caught (a missed
call). The held-out figures are published in the README (Bots, Kartu
Terakhir). ``normal`` plays as ``greedy``, so "normal vs greedy" is even by
construction. Reproduce a line with, e.g.::

    meja bench bots --game kartu_terakhir --a hard --b greedy --seats 2 --deals 400 --seed-set heldout --jobs 2
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from meja.rules.game import Event
from meja.rules.rng import Rng

from .dealcode import DealSpec, encode

__all__ = ["BENCH"]


class _Bench:
    seats: Final = tuple(range(2, 11))
    deals: Final = 200
    b: Final = "greedy"
    matches: Final = False
    #: The server's default pauses (meja.server.settings): thinking, and an out-of-turn reflex (3.6.2).
    pauses: Final = ((600, 1200), (400, 1500))
    #: Timers fired after which a round is abandoned (a round of drawing by choice could go on and on).
    max_actions: Final = 20000

    @staticmethod
    def deal(seed_set: str, preset: str, seats: int, i: int) -> tuple[str, int]:
        rng = Rng(0, f"bench/bots/kartu_terakhir/{seed_set}/{seats}/{i}")
        dealer, rng = rng.randbelow(seats)
        seed, _ = rng.bits(64)
        return encode(DealSpec(seats, dealer, seed)), 0

    @staticmethod
    def count(event: Event, sides: Sequence[str], counts: Counter[str]) -> None:
        if event.kind == "catch":
            counts[f"{sides[event.data['seat']]}_catches"] += 1
            counts[f"{sides[event.data['target']]}_caught"] += 1

    @staticmethod
    def report(counts: Mapping[str, int], fig: Mapping[str, Any]) -> dict[str, Any]:
        games = fig["games"]
        return {
            "a_catches_per_game": counts.get("A_catches", 0) / games if games else 0.0,
            "a_caught_per_game": counts.get("A_caught", 0) / games if games else 0.0,
        }

    @staticmethod
    def lines(fig: Mapping[str, Any]) -> list[str]:
        return [f"A catches/game   {fig['a_catches_per_game']:.3f}   A caught/game {fig['a_caught_per_game']:.3f}"]


BENCH: Final = _Bench()
