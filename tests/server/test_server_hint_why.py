"""A hint's reason over the wire (issue 23 point 4, PROTOCOL.md 16.1 ``hint.why``).

On a real server, for each game: the seat asks for a suggested move on several of its
decisions, plays it, and every answer carries a reason the page words (a tip of the default
level) that names no action but the seat's legal ones; nobody else at the table is sent it.
The leak judge's side (every frame a seat got, ``why`` included): tests/fuzz/test_fuzz_hint_why.py.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from meja import games
from meja.bots.base import why_is_sound
from meja.server.service import TableService
from server_helpers import host
from server_wire import Wire

STRINGS = Path(__file__).resolve().parents[2] / "server" / "meja" / "web" / "js" / "strings.js"
#: the talk budget out of the way: a hint at every turn
TALKATIVE = {"talk_per_s": 1000.0, "talk_burst": 1000}


def worded_tips() -> set[str]:
    text = STRINGS.read_text(encoding="utf-8")
    return {name for name in re.findall(r'"why\.tip\.([a-z0-9_]+)"', text) if text.count(f'"why.tip.{name}"') == 4}


async def hinted_turns(ann: Wire, table: str, count: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Ask for a hint on ``count`` of the seat's decisions with a choice, playing each suggestion
    (and the only move where there is no choice); each (hint, legal actions) pair."""
    got: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []
    asked_at = -1
    while len(got) < count:
        view = ann.view
        if view is None or view["phase"] in ("round_over", "match_over", "hand_over") or ann.version == asked_at:
            if view is not None and view["phase"] in ("round_over", "match_over", "hand_over"):
                break
            await ann.until(lambda m: m["type"] in ("update", "state", "patch"))
            continue
        if not view["legal"]:
            await ann.until(lambda m: m["type"] in ("update", "state", "patch"))
            continue
        asked_at = ann.version
        legal = list(view["legal"])
        reply = await ann.request({"type": "hint", "table": table})
        if reply["type"] == "error":
            assert reply["code"] in ("action/not_your_turn",), reply
            continue
        assert reply["version"] == asked_at, reply
        if len(legal) > 1:
            got.append((reply, legal))
        act = await ann.request({"type": "act", "table": table, "version": reply["version"], "action": reply["action"]})
        assert act["type"] != "error" or act["code"] == "action/stale_version", act
    return got


@pytest.mark.parametrize("game", ["crazy_eights", "kartu_terakhir", "eighty_three"])
async def test_a_hint_says_why(game: str, serve: Any, connect: Any) -> None:
    server = await serve(**TALKATIVE)
    ann, sam = await connect(server), await connect(server)
    table = (await host(ann, game=game, seats=4 if game == "eighty_three" else 2))["table"]
    await sam.ok({"type": "watch", "table": table})
    await ann.ok({"type": "start", "table": table})
    hints = await hinted_turns(ann, table, 4)
    assert len(hints) >= 3, hints
    worded = worded_tips()
    for hint, legal in hints:
        why = hint.get("why")
        assert why is not None, hint  # the default level explains every decision with a choice
        assert hint["action"] in legal and why_is_sound(why, legal), (hint, legal)
        assert why["kind"] == "tip" and why["tip"] in worded, why
    await sam.ok({"type": "ping"})  # everything sent to the spectator before it has arrived
    assert not any(m.get("type") == "hint" for m in sam.seen), "a hint reached a spectator"


async def test_a_searching_bots_reason_comes_back_from_the_worker_pool(
    serve: Any, connect: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the hint's level searches (here the default game's ``hard``, made the default level),
    it thinks in a worker process, and its reason comes back with its move: the search's own
    figures, naming at most one of the seat's legal moves."""
    real = TableService.plugin

    def plugin(self: TableService, table: Any) -> games.GamePlugin:
        return dataclasses.replace(real(self, table), default_level="hard")

    monkeypatch.setattr(TableService, "plugin", plugin)
    server = await serve(bot_workers=1, **TALKATIVE)
    ann = await connect(server)
    table = (await host(ann, seats=2))["table"]
    await ann.ok({"type": "start", "table": table})
    hints = await hinted_turns(ann, table, 6)  # (a decision with one move worth searching: a tip)
    searched = [hint["why"] for hint, legal in hints if hint.get("why", {}).get("kind") == "search"]
    assert searched, hints
    for hint, legal in hints:
        assert "why" not in hint or why_is_sound(hint["why"], legal), (hint, legal)
    assert all(why["deals"] >= 1 and 0 <= why["won"] <= 100 for why in searched), searched
    pool = server.service.bot_pool
    assert pool is not None and pool._pool is not None, "the hints never went through the pool"
