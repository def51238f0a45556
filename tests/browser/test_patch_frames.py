"""The page takes its updates in the patch form (PROTOCOL.md 7.5) and plays a round on them.

The page asks for patches in its ``hello`` (web/js/net.js) and applies them in the connection
layer (web/js/patch.js), so the rest of the page sees whole updates. Here a person plays a round
against a bot; every frame the page received is recorded, and the page's table map and view at
the end are exactly what the server's own apply (meja.protocol.patch) rebuilds from those frames.

Cost: about half a minute on the 2-core machine.
"""

from __future__ import annotations

from typing import Any

import msgpack
from browser_helpers import host_table, play_turn_mouse, play_until_round_over, start
from meja.protocol.patch import apply

SHOWN = "() => ({version: window.meja.version, table: window.meja.table, view: window.meja.view})"


def test_the_page_plays_a_round_on_patches(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    frames: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    host_table(page, server.origin, name="Ana", seats=2)
    start(page)
    play_until_round_over([(page, play_turn_mouse)])
    # Frames may still come after the round's end (the bot's ready, a timer's move): compare the
    # page with the frames recorded so far until both stand at the same version (the frame events
    # reach this test only while it waits in Playwright, so a frame the page has taken may not be
    # in the list yet).
    for _ in range(50):
        page.wait_for_timeout(200)
        kinds, last = _rebuild(frames)
        shown = page.evaluate(SHOWN)
        if shown["version"] == last["version"]:
            break
    assert kinds.count("patch") > 5, kinds
    assert kinds.count("patch") > kinds.count("update"), "most updates are patches"
    assert shown["version"] == last["version"]
    assert shown["view"] == last["view"] and shown["table"] == last["table"]
    assert shown["view"]["phase"] in ("round_over", "match_over")


def _rebuild(frames: list[bytes]) -> tuple[list[str], dict[str, Any]]:
    """The frames' types, and the table map and view the last one leaves (with its version), rebuilt
    with the server's own apply."""
    documents: dict[str, dict[str, Any]] = {}
    kinds: list[str] = []
    last: dict[str, Any] = {}
    for frame in list(frames):
        if not isinstance(frame, bytes):
            continue
        message = msgpack.unpackb(frame, raw=False)
        kinds.append(message["type"])
        if message["type"] == "patch":
            documents[message["table"]] = apply(documents[message["table"]], message["patch"])
            last = {"version": message["version"], **documents[message["table"]]}
        elif message["type"] in ("state", "update"):
            documents[message["table"]["id"]] = {"table": message["table"], "view": message["view"]}
            last = {"version": message["version"], **documents[message["table"]["id"]]}
    return kinds, last
