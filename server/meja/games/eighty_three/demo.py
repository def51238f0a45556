"""``meja demo --game eighty_three``: four bots play one hand of Eighty-Three in the terminal, narrated.

A quick way to see the rules engine and the bots at work without a browser::

    meja demo --game eighty_three                    # normal bots
    meja demo --game eighty_three --level hard --seed 7
    meja demo --game eighty_three --deal XXXXX-...   # the hand a deal code names

The narration is built from the spectator's events (what a spectator may
know), plus every hand at the deal and at the start of the tricks for the reader.
"""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from meja.bots.base import decision_rng
from meja.rules import Event

from .bots import LEVELS, YARDSTICKS, make_bot
from .rules import GAME, NAMES, EightyThreeState, Phase

__all__ = ["add_arguments", "run"]

_SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--level", default="normal", choices=LEVELS + YARDSTICKS, help="bot for every seat")
    parser.add_argument("--deal", default=None, help="play this deal code")
    parser.add_argument("--seed", type=int, default=None, help="match seed (default: random)")


def _hands(state: EightyThreeState) -> None:
    for seat, hand in enumerate(state.hands):
        print(f"  seat {seat} (team {seat % 2}): {' '.join(NAMES[c] for c in hand)}")


def _say(event: Event) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "bid":
        return f"seat {d['seat']} bids {d['value']}"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "contract":
        return f"seat {d['bidder']} wins the auction at {d['bid']} and takes the kitty"
    if kind == "trump":
        return f"seat {d['seat']} names {_SUITS[d['suit']]}"
    if kind == "exchange":
        shown = ", ".join(f"seat {x['seat']} {x['card']}" for x in d["shown"]) or "none"
        return f"trumps passed to partners: {d['passed']}; trumps shed face up: {shown}"
    if kind == "trick":
        cards = " ".join(f"{x['seat']}:{x['card']}" for x in d["cards"])
        return f"trick {d['number']}: {cards} -> seat {d['winner']} (team {d['team']}) takes {d['points']} points"
    if kind == "hand_over":
        made = "made" if d["made"] else "missed"
        return (
            f"hand over: seat {d['bidder']} {made} {d['bid']}; captured {d['captured']}, scores {d['delta']}"
            f" -> totals {d['scores']}. Deal code {d['deal_code']}"
        )
    return None


def run(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    start = GAME.new_match("standard", 4, seed, deal_code=args.deal)
    state: EightyThreeState = start.state
    bot = make_bot(args.level)
    print(f"Eighty-Three, {args.level} bots; seat {state.dealer} deals; seats 0 and 2 play seats 1 and 3")
    _hands(state)
    print(f"  kitty: {' '.join(NAMES[c] for c in state.kitty)}")
    history: list[list[dict[str, Any]]] = [[e.to_wire() for e in start.events if e.is_seen_by(s)] for s in range(4)]
    shown_hands = False
    while state.phase <= Phase.PLAY:
        if state.phase == Phase.PLAY and not shown_hands:
            print("the tricks start with:")
            _hands(state)
            shown_hands = True
        seat = state.awaiting()[0]
        action = bot.choose(state.view(seat), history[seat], decision_rng(state, seat))
        assert action is not None  # the seat is awaited: its bot always acts
        transition = state.apply(seat, action)
        for event in transition.events:
            for s in range(4):
                if event.is_seen_by(s):
                    history[s].append(event.to_wire())
            if event.is_seen_by(None):
                line = _say(event)
                if line:
                    print(line)
        state = transition.state
    return 0
