"""A hostile player's finding (M1): the number and timing of a seat's private steps (Eighty-Three's
discard phase) show in the table version every other connection gets. The version is one
counter for everyone (``since``, ``resume`` and ``act.version`` rely on it), so the game's
section 5 says so instead of promising that the steps cannot be counted; this test holds the
server's behaviour and the document's words together."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_server_private_steps import _discard_phase

GAME_DOC = Path(__file__).resolve().parents[2] / "server" / "meja" / "games" / "eighty_three" / "PROTOCOL.md"


async def test_another_seats_private_steps_can_be_counted_and_the_document_says_so(serve: Any, connect: Any) -> None:
    table, players, _tv = await _discard_phase(serve, connect)
    stepper = next(w for w in players if w.view is not None and w.view["phase"] == "discard")
    other = next(w for w in players if w is not stepper)
    seen = other.version
    assert seen is not None
    card = next(a for a in stepper.view["legal"] if a["kind"] == "discard")
    await stepper.ok({"type": "act", "table": table, "version": stepper.version, "action": card})
    await stepper.ok({"type": "act", "table": table, "version": stepper.version, "action": {"kind": "undo"}})
    await stepper.ok({"type": "act", "table": table, "version": stepper.version, "action": card})
    # A `state` asked for again shows three versions more: the steps are counted, not seen.
    state = await other.ok({"type": "watch", "table": table})
    assert state["type"] == "state" and state["version"] == seen + 3

    text = " ".join(GAME_DOC.read_text(encoding="utf-8").split())
    assert "cannot count another seat's steps" not in text
    assert "how many steps the other seats took, and when" in text
