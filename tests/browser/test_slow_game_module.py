"""A game's page module that arrives late (a slow phone, a loaded machine): the table waits for it.

A spectator who pressed Watch as soon as the home screen showed had the table drawn before
Crazy Eights' page module had loaded, and so by the generic renderer, for good: no turn line, no
suit indicator (found by a loaded CI run, where the turn line never came back). The messages
after the welcome now wait for the catalog's modules (app.js, onOpen). The module is held back
here until the watch's state is in, so the order that showed the fault is made certain.
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import host_table, start, watch_by_code


def test_a_table_watched_before_its_game_module_loaded_is_drawn_by_the_game(server: Any, new_context: Any) -> None:
    host = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_table(host, server.origin, name="Ani", seats=2)
    start(host)
    host.wait_for_selector("#hand button.card")

    watcher = new_context(viewport={"width": 1280, "height": 800}).new_page()
    held: list[Any] = []  # the module's request, answered only when the test lets it go
    watcher.route(re.compile(r"/games/crazy_eights/page\.js$"), lambda route: held.append(route))
    watch_by_code(watcher, server.origin, room)
    watcher.wait_for_timeout(1500)  # the watch's state is in by now
    assert len(held) == 1, "the game's module was asked for (and held back)"
    held[0].continue_()
    watcher.wait_for_selector('#opponents .seat-box[data-seat="0"]')
    drawn_by_game = "() => typeof window.meja.tableScreen.game.status === 'function'"
    assert watcher.evaluate(drawn_by_game), "drawn by the generic renderer"
    watcher.wait_for_selector('#turn-status:has-text("Ani\'s turn")')
