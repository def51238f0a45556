"""``meja demo``: bots play one round of Crazy Eights in the terminal, narrated move by move.

A quick way to see the rules engine and the bots at work without a browser::

    meja demo                      # house rules, 3 seats, normal bots
    meja demo --deal 1B3KQ-7M2XZ9  # the same deal as a deal code names
    meja demo --preset party --seats 6 --level hard

The narration is built from the spectator's events, so it shows what a
spectator may know, plus each hand at the start and end for the reader.
"""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from meja.rules import Card, Event, Suit

from .bots import LEVELS, get_bot
from .rules import GAME, CrazyEightsState


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", default="house", help="house (default), classic or party")
    parser.add_argument("--seats", type=int, default=None, help="seat count (default: the preset's smallest but 3)")
    parser.add_argument("--level", default="normal", choices=LEVELS, help="bot level for every seat")
    parser.add_argument("--deal", default=None, help="play this deal code")
    parser.add_argument("--seed", type=int, default=None, help="match seed (default: random)")


def _say(event: Event) -> str | None:
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == "play":
        card = Card.parse(d["card"])
        text = f"seat {d['seat']} plays {card.name}"
        if "suit" in d:
            text += f" and names {Suit.parse(d['suit']).word.lower()}"
        return text
    if kind == "draw":
        return f"seat {d['seat']} draws ({d['draws_left']} left)"
    if kind == "pass":
        return f"seat {d['seat']} passes"
    if kind == "reshuffle":
        return f"-- the discard pile is reshuffled into the stock ({d['moved']} cards) --"
    if kind == "suit":
        return f"seat {d['seat']} names {Suit.parse(d['suit']).word.lower()}"
    if kind == "round_over":
        penalties = ", ".join(f"seat {s}: {p}" for s, p in enumerate(d["penalties"]))
        return f"seat {d['winner']} goes out. Penalty points: {penalties}. Deal code {d['deal_code']}"
    return None


def run(args: argparse.Namespace) -> int:
    game = GAME
    options = game.options(args.preset)
    seats = args.seats or max(options.min_seats, min(3, options.max_seats))
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    start = game.new_match(options, seats, seed, deal_code=args.deal)
    state: CrazyEightsState = start.state
    bot = get_bot(args.level)
    print(f"Crazy Eights, {options.preset} rules, {seats} seats, {args.level} bots")
    for seat, hand in enumerate(state.hands):
        print(f"  seat {seat}: {' '.join(str(c) for c in hand)}")
    print(f"  starter {state.top.name}; seat {state.turn} leads")
    history: list[list[dict[str, Any]]] = [[e.to_wire() for e in start.events if e.is_seen_by(s)] for s in range(seats)]
    round_no = state.round
    while state.round == round_no and state.outcome() is None and state.phase <= 1:
        seat = state.awaiting()[0]
        rng = state.bot_rng(seat).derive(f"decision/{state.version}")
        action = bot.choose(state.view(seat), history[seat], rng)
        assert action is not None  # the seat is awaited: its bot always acts
        transition = state.apply(seat, action)
        for event in transition.events:
            for s in range(seats):
                if event.is_seen_by(s):
                    history[s].append(event.to_wire())
            if event.is_seen_by(None):
                line = _say(event)
                if line:
                    print(line)
        state = transition.state
    return 0
