"""What the in-process dry runs of the e2e scripts (``kt_script.py``, ``e83_script.py``) share.

A dry run plays a match through the rules alone, its bots fed as a table feeds
them: each bot's history is the wire events its seat saw since the round began.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: A wire message, as the scripts read views and actions.
Message = dict[str, Any]


class BotHistories:
    """The wire events each bot seat saw since the current round began (a round starts at an
    event of kind ``round_start``: the game's ``GameInfo.round_start``)."""

    def __init__(self, seats: Iterable[int], round_start: str) -> None:
        self.seen: dict[int, list[Any]] = {s: [] for s in seats}
        self.round_start = round_start

    def deliver(self, events: Iterable[Any]) -> None:
        """Hand each event to the seats that may see it; a round's start clears every history."""
        for e in events:
            for s, seen in self.seen.items():
                if e.kind == self.round_start:
                    seen.clear()
                if e.is_seen_by(s):
                    seen.append(e.to_wire())
