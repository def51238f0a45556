"""What every seat (and a spectator) may see at every version of a table, from its log.

The judge of the leak checks that hold real frames against the truth (the wire leak
fuzzer, tests/fuzz/test_fuzz_leaks_games.py, and the browser's shared-screen test,
tests/browser/truth.py): the table's log is replayed through its game's rules and
each version's ``State.locations()`` says where every card lies and who may see it.
Any game: it asks the game contract only.
"""

from __future__ import annotations

from typing import Any

from meja import games
from meja.rules.game import Event
from meja.server.records import Table
from meja.server.tables import TABLE_EVENTS

__all__ = ["Truth", "strings_in"]


class Truth:
    """What every seat may see at every table version, from the table's log replayed through its rules."""

    def __init__(self, record: Table, log: list[tuple[int, tuple[Event, ...]]]) -> None:
        game = games.get_game(record.game)
        self.game = game
        self.names = frozenset(game.deck(record.game_options, len(record.seats)))
        self.seats = len(record.seats)
        self.only: dict[int, list[Event]] = {}
        #: version -> {seat or None: card names visible}, for versions with a game state
        self.visible: dict[int, dict[int | None, set[str]]] = {}
        state = None
        # A log judged from the table's creation (version 0), or from a match's start (a rematch's
        # version, as a caller cutting a log into matches gives it, with that match's seed).
        if log and log[0][0] > 0 and not any(e.kind == "rematch" for e in log[0][1]):
            raise ValueError(
                f"the log starts at version {log[0][0]}: older entries were trimmed (settings.log_keep), "
                "so it cannot be replayed from the deal; judge with a larger log_keep"
            )
        for version, events in log:
            game_events = [e for e in events if e.kind not in TABLE_EVENTS]
            act = next((e for e in events if e.kind == "act"), None)
            if state is None and game_events:
                state = game.new_match(record.game_options, self.seats, record.seed, record.deal_code,
                                       getattr(record, "carry", None)).state
            elif act is not None and state is not None:
                state = state.apply(int(act.data["seat"]), game.decode_action(dict(act.data["action"]))).state
            self.only[version] = [e for e in events if e.only is not None]
            if state is not None:
                locations = state.locations()
                self.visible[version] = {
                    s: {c for loc in locations if loc.seen_by == "all" or (s is not None and s in loc.seen_by)
                        for c in loc.cards}
                    for s in (*range(self.seats), None)
                }

    def seen(self, seat: int | None, first: int, last: int) -> set[str]:
        out: set[str] = set()
        for v in range(first, last + 1):
            out |= self.visible.get(v, {}).get(seat, set())
        return out


def strings_in(value: Any) -> list[str]:
    out, stack = [], [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out
