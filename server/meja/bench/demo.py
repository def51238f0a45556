"""``meja demo [--game NAME]``: bots play one round of a game in the terminal, narrated move by move.

A quick way to see a rules engine and its bots at work without a browser::

    meja demo                                  # the first game, its default preset and seats
    meja demo --game NAME --seats 6 --level hard
    meja demo --game NAME --deal CODE          # the round a deal code names

One loop for every game: a bot in every seat; a seat that may act out of turn
(a catch, a call) is offered the move first, and takes it if its bot does; then
the awaited seat acts; when no seat is awaited, the game's first timed action is
applied (its clock, without the wait). The narration is built from the events a
spectator sees, by the game's :class:`meja.games.plugin.Narration` (its deal
shown for the reader first); a game without one is told as event kinds and data.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from collections.abc import Sequence
from typing import Any

from meja import games
from meja.bots.base import Bot, decision_rng
from meja.games.plugin import GamePlugin

from .pergame import game_in

__all__ = ["WANTS_ARGV", "add_arguments", "run"]

WANTS_ARGV = True  # meja.cli hands add_arguments the command line (to read --game before parsing)


def add_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> None:
    parser.add_argument(
        "--game", default=games.names()[0], choices=games.names(), help="the game (default: %(default)s)"
    )
    try:
        plugin: GamePlugin | None = games.get(game_in(sys.argv[1:] if argv is None else argv))
    except KeyError:
        plugin = None  # argparse refuses the --game value with the list of games
    levels = plugin.bot_names() if plugin is not None else None
    default = plugin.default_level if plugin is not None else "normal"
    parser.add_argument("--preset", default=None, help="the preset (default: the game's default)")
    parser.add_argument("--seats", type=int, default=None, help="seat count (default: the preset's default)")
    parser.add_argument("--level", default=default, choices=levels, help="the bot in every seat (default %(default)s)")
    parser.add_argument("--deal", default=None, help="play this deal code")
    parser.add_argument("--seed", type=int, default=None, help="match seed (default: random)")


def _turn(state: Any, bots: list[Bot], history: list[list[dict[str, Any]]]) -> tuple[int, Any]:
    """Who acts next and how: out of turn first (if that seat's bot takes it), then the awaited seat, then the clock."""
    awaiting = state.awaiting()
    for seat in (*(s for s in state.actors() if s not in awaiting), *awaiting[:1]):
        action = bots[seat].choose(state.view(seat), history[seat], decision_rng(state, seat))
        if action is not None:
            return seat, action
    timed = state.timed_actions()
    if not timed:
        raise RuntimeError("no bot acted and the game lists no timed action")
    return timed[0].seat, timed[0].action


def _plain(event: Any, state: Any) -> str | None:
    return f"{event.kind} {json.dumps(event.data, sort_keys=True)}"


def run(args: argparse.Namespace) -> int:
    plugin = games.get(args.game)
    game = plugin.game
    preset, seats = args.preset, args.seats
    if args.deal is not None:
        dealt = game.read_deal_code(args.deal)
        preset, seats = preset or dealt.preset, dealt.seats
    info = game.info.preset(preset)
    seats = seats or info.default_seats
    if seats not in info.seat_range():
        print(
            f"meja demo: {game.info.title} {info.name} is for {info.min_seats}-{info.max_seats} seats", file=sys.stderr
        )
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(64)
    start = game.new_match(game.options_from_wire({"preset": info.name}), seats, seed, deal_code=args.deal)
    state = start.state
    narration = plugin.narration
    print(f"{game.info.title}, {info.name}, {seats} seats, {args.level} bots")
    for line in narration.opening(state) if narration is not None else ():
        print(line)
    say = narration.say if narration is not None else _plain
    bots = [plugin.bot(args.level) for _ in range(seats)]
    history = [[e.to_wire() for e in start.events if e.is_seen_by(s)] for s in range(seats)]
    for event in start.events if narration is None else ():
        if event.is_seen_by(None):
            print(say(event, state))
    while state.in_round():
        seat, action = _turn(state, bots, history)
        transition = state.apply(seat, action)
        for event in transition.events:
            for s in range(seats):
                if event.is_seen_by(s):
                    history[s].append(event.to_wire())
            said = say(event, transition.state) if event.is_seen_by(None) else None
            if said:
                print(said)
        state = transition.state
    return 0
