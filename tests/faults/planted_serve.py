"""``meja serve`` with a known bug planted, to prove that the fault and fuzz checkers catch it.

Run as ``python planted_serve.py serve ...`` with ``MEJA_TEST_PLANT`` naming the
bug; the server code is not changed on disk, only monkeypatched in this
process before ``meja.cli.main`` runs. Only tests use it.

Plants:

- ``double_apply``: after a player's ``draw`` is committed and answered, the
  server applies the same draw once more in a new version (as a retry that
  forgot it had already succeeded would). The audit (faults_audit.py) must
  report an action applied but never accepted.
- ``internal_on_bad``: a malformed action map (one the game cannot decode)
  makes the server fail with an unexpected exception, so the client gets
  ``internal`` instead of ``action/bad_action`` (the fuzzers' oracle must notice).
"""

from __future__ import annotations

import os
import sys
from typing import Any


def plant_double_apply() -> None:
    from meja.rules import get_game
    from meja.server import tables
    from meja.server.service import TableService

    original = TableService.act

    async def act(self: TableService, table_id: str, **kw: Any) -> None:
        await original(self, table_id, **kw)
        action, seat = kw["action"], kw["seat"]
        if action.get("kind") != "draw":
            return
        loaded = await self.hub.current(table_id)
        if loaded is None:
            return
        move = get_game(loaded[1].game).decode_action(action)

        def again(t: Any, version: int, now: int) -> Any:
            if t.state is None or move not in t.state.legal_actions(seat):
                return None
            return tables.play(t, seat, move, version=version, now=now)

        await self.commit(table_id, again)

    TableService.act = act  # type: ignore[method-assign]


def plant_internal_on_bad() -> None:
    from meja.server import tables

    original = tables.act

    def act(t: Any, **kw: Any) -> Any:
        if set(kw["action"]) - {"kind", "card", "suit"}:
            raise RuntimeError("planted: an unexpected field crashes the handler")
        return original(t, **kw)

    tables.act = act


PLANTS = {"double_apply": plant_double_apply, "internal_on_bad": plant_internal_on_bad}

if __name__ == "__main__":
    name = os.environ.get("MEJA_TEST_PLANT", "")
    if name not in PLANTS:
        sys.exit(f"planted_serve.py: unknown MEJA_TEST_PLANT {name!r}; known: {sorted(PLANTS)}")
    PLANTS[name]()
    from meja.cli import main

    sys.exit(main())
