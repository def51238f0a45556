"""Replay a table's log through the rules (the checker itself is tests/table_log.py).

This is the strongest check that no accepted action was lost or applied twice
across process crashes: the log must be a gap-free history (one entry per
version), and replaying the actions it records through :mod:`meja.rules` from
the match seed must give, version by version, exactly the game events the log
holds, and in the end exactly the state the record holds. (It reads the
server's record format, :mod:`meja.server.records`: a test may, the client
library may not.)
"""

from __future__ import annotations

from table_log import Replay, replay_table

__all__ = ["Replay", "replay_log"]


async def replay_log(store_url: str, table_id: str) -> Replay:
    """Check the table's log against the rules (see tests/table_log.py) and return what it holds."""
    return await replay_table(store_url, table_id)
