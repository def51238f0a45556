"""``meja demo --game kartu_terakhir``: bots play one round in the terminal, narrated move by move.

A quick way to see the rules engine and the bots at work without a browser::

    meja demo --game kartu_terakhir                     # 4 seats, normal bots
    meja demo --game kartu_terakhir --seats 6 --level hard
    meja demo --game kartu_terakhir --deal <code>       # the deal a deal code names

The round runs on the server's timers (:func:`.bench_bots.play_game`), so catches
and calls race as at a table. The narration is built from the spectator's
events, so it shows what a spectator may know, plus each hand at the start.
"""

from __future__ import annotations

import argparse
import random
import secrets
from collections.abc import Sequence
from typing import Any

from meja.rules.game import Event

from . import dealcode
from .bench_bots import Tally, play_game
from .bots import LEVELS, YARDSTICKS, make_bot
from .rules import COLOUR_WORDS, COLOURS, GAME, card_name, describe

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=4, help="seat count, 2-10 (default 4)")
    parser.add_argument("--level", default="normal", choices=LEVELS + YARDSTICKS, help="bot in every seat")
    parser.add_argument("--deal", default=None, help="play this deal code")
    parser.add_argument("--seed", type=int, default=None, help="match seed (default: random)")


def _colour(letter: object) -> str:
    return COLOUR_WORDS[COLOURS.index(str(letter))] if letter in COLOURS else str(letter)


def _say(event: Event) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "play":
        text = f"seat {d['seat']} plays {describe(str(d['card']))}"
        if str(d["card"]).startswith("W"):
            text += f", naming {_colour(d['colour'])}"
        return text + (" (the card just drawn)" if d.get("drawn") else "")
    if kind == "draw":
        why = {"draw": "draws", "penalty": "takes the penalty:", "catch": "is caught and draws",
               "challenge": "loses the challenge and draws"}.get(str(d.get("reason")), "draws")
        return f"seat {d['seat']} {why} {d['count']}"
    if kind == "keep":
        return f"seat {d['seat']} keeps the drawn card"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "call":
        return f"seat {d['seat']}: \"Kartu terakhir!\" ({d['when']} playing)"
    if kind == "catch":
        return f"seat {d['seat']} catches seat {d['target']}"
    if kind == "challenge":
        return f"seat {d['seat']} challenges seat {d['target']}: {d['verdict']}"
    if kind == "reverse":
        return "   (the direction reverses)"
    if kind == "skip":
        return f"   (seat {d['seat']} is skipped)"
    if kind == "reshuffle":
        return f"-- the discard pile is shuffled into a new stock ({d['moved']} cards) --"
    if kind == "round_over":
        return f"seat {d['winner']} goes out and scores {d['points']}. Deal code {d['deal_code']}"
    return None


def run(args: argparse.Namespace) -> int:
    seats = args.seats
    if not 2 <= seats <= 10:
        print("meja demo: Kartu Terakhir is for 2-10 seats")
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    if args.deal is not None:
        seats = dealcode.decode(args.deal).seats
    start = GAME.new_match(None, seats, seed, deal_code=args.deal)
    state = start.state
    print(f"Kartu Terakhir, {seats} seats, {args.level} bots")
    for seat, hand in enumerate(state.hands):
        print(f"  seat {seat}: {' '.join(card_name(c) for c in hand)}")
    print(f"  starter {card_name(state.top)}; seat {state.turn} plays first")

    def watch(events: Sequence[Event]) -> None:
        for event in events:
            if event.is_seen_by(None):
                line = _say(event)
                if line:
                    print(line)

    bots = [make_bot(args.level) for _ in range(seats)]
    play_game(state, start.events, bots, ["A"] * seats, Tally(), random.Random(seed), watch)
    return 0
