"""A game with no page module plays in the browser to the end: the shell's generic renderer.

The game is Snap (tests/toy_game), registered by starting the server with
``MEJA_GAMES=toy_game`` and tests/ on its ``PYTHONPATH``; its catalog entry has no page
(``page: null``). The page hosts it through the host form built from the catalog (a game
choice, since the server now offers two; the preset; the seats of its range; its options
by their specs, labelled from the option names since no module gives their words), shows
its game, preset and options in the lobby, and plays it with three bots to the end of the
match with the generic renderer alone: the view's fields as a list, its legal actions as
buttons. Every screen passes axe-core.

Cost: about 20 s (a server of its own, a short match).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

from browser_helpers import assert_clean, open_more_options
from browser_server import Server, private_redis
from playwright.sync_api import TimeoutError as PlaywrightTimeout

TESTS = Path(__file__).resolve().parents[1]
#: Where the server finds the toy_game package: tests/ (MEJA_TEST_GAMES_PATH: another copy of it).
GAMES_PATH = os.environ.get("MEJA_TEST_GAMES_PATH", str(TESTS))
ENV = {"MEJA_GAMES": "toy_game", "PYTHONPATH": GAMES_PATH}


def _snap_states_store() -> None:
    """Snap's states must pack as msgpack (the server stores them so) with a 128-bit table seed."""
    import importlib.util

    import msgpack

    spec = importlib.util.spec_from_file_location("toy_game_rules", Path(GAMES_PATH) / "toy_game" / "rules.py")
    assert spec is not None and spec.loader is not None
    rules = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = rules  # dataclasses look their module up there
    spec.loader.exec_module(rules)
    game = rules.GAME
    state = game.new_match(game.options_from_wire({"preset": "pairs"}), 4, (1 << 127) + 1).state
    try:
        msgpack.packb(state.to_data(), use_bin_type=True)
    except OverflowError as exc:
        raise AssertionError(
            "tests/toy_game cannot store a table seed of 128 bits (State.to_data keeps match_rng as a list "
            "of ints: it needs Rng.to_data() and Rng.from_data()); the server fails every Snap start"
        ) from exc


def test_a_game_without_a_page_module_plays_to_the_end(workdir: Path, new_context: Any, shot: Any) -> None:
    _snap_states_store()
    # A Redis of its own: the session's server does not know Snap, and would claim its bots' moves.
    with private_redis(workdir) as redis_url:
        server = Server(redis_url, workdir, env=ENV)
        try:
            play_snap(server, new_context, shot)
        finally:
            server.close()
            if os.environ.get("MEJA_KEEP_LOG"):
                import shutil

                shutil.copy(server.log, os.environ["MEJA_KEEP_LOG"])


def play_snap(server: Server, new_context: Any, shot: Any) -> None:
    """Host Snap through the form, check the lobby, play with the generic renderer to the end."""
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    catalog = page.evaluate("() => window.meja.games.list.map(g => [g.name, g.page])")
    assert ["crazy_eights", "/games/crazy_eights/page.js"] in catalog and ["snap", None] in catalog, catalog

    # The host form, from the catalog: choosing the game fills in its presets, seats, options, levels.
    assert page.is_checked("#game-crazy_eights")  # the server's default game comes first
    page.check("#game-snap")
    assert page.input_value("#preset") == "pairs"
    assert [o for o in page.locator("#preset option").all_inner_texts()] == ["Pairs", "Solo"]
    assert page.locator('input[name="seats"]').count() == 1 and page.is_checked("#seats-4")
    open_more_options(page)  # the bots' level, the options and the deal code are one click further
    assert page.get_attribute("#opt-target", "min") == "1" and page.get_attribute("#opt-target", "max") == "20"
    assert page.input_value("#opt-window_ms") == "300"
    assert page.inner_text('label[for="opt-window_ms"]') == "Window ms"  # no module: said from the key
    assert page.locator("#bots option").all_inner_texts() == ["Easy", "Normal", "Hard"]
    assert page.locator(".deal-box").is_visible()  # the other game has deal codes
    page.select_option("#preset", "solo")
    seats = page.locator('input[name="seats"]')
    assert [seats.nth(i).get_attribute("value") for i in range(seats.count())] == ["2", "3", "4"]
    assert page.is_checked("#seats-2")  # solo's default_seats
    page.select_option("#preset", "pairs")
    page.fill("#opt-target", "8")
    page.select_option("#bots", "hard")  # bots that never snap: points come slowly, so rounds go by
    page.fill("#opt-window_ms", "200")
    page.fill("#name", "Tari")
    assert_clean(page, "home with two games")
    shot(page, "generic-home")
    page.click("#host")
    page.wait_for_selector("#room-code")

    # The lobby says the game, its preset and its options in words.
    terms = page.locator("#table-rules dt").all_inner_texts()
    rules = dict(zip(terms, page.locator("#table-rules dd").all_inner_texts(), strict=True))
    assert rules == {
        "Game": "Snap (test game)",
        "Rules": "Pairs",
        "Target": "8",
        "Window ms": "200",
        "Talk": "Chat and reactions",
    }
    assert page.locator("#seats li").count() == 4
    assert page.title() == "Meja: Snap (test game)"
    assert_clean(page, "lobby (generic)")
    shot(page, "generic-lobby")
    assert page.inner_text('#seats li[data-seat="1"] .seat-name') == "Empty seat"
    page.click("#start")  # the empty seats become bots of the level chosen

    # The table: the view's fields and the legal actions as buttons, nothing else of a game.
    page.wait_for_selector("#generic-fields dt")
    fields = page.locator("#generic-fields dt").all_inner_texts()
    assert {"Phase", "Hand", "Round", "Team scores"} <= set(fields)
    assert page.locator("#hand").is_hidden()  # no module, no hand widget
    page.wait_for_selector("#generic-actions button")
    labels = page.locator("#generic-actions button").all_inner_texts()
    assert labels and all(re.fullmatch(r"Pick · card C\d+", x) for x in labels), labels
    hand = page.evaluate("() => window.meja.view.hand")
    assert sorted(labels) == sorted(f"Pick · card {c}" for c in hand)
    assert page.inner_text("#turn-status") == "Your move"
    assert_clean(page, "table (generic)")
    shot(page, "generic-table")

    # Play: always the last button (the highest pick, "take" over "burn", "snap", "ready").
    clicked: list[str] = []
    deadline = time.monotonic() + 120
    while page.evaluate("() => window.meja.table.status") != "finished":
        assert time.monotonic() < deadline, f"the match did not end; clicked: {clicked[-20:]}"
        buttons = page.locator("#generic-actions button")
        if buttons.count():
            before = page.evaluate("() => window.meja.version")
            try:
                # The buttons may go between the count and here (a bot's point that ends the
                # match leaves none ever again: a loaded CI run waited 15 s for one).
                label = buttons.last.inner_text(timeout=2000)
                # A snap window is 300 ms: on a loaded machine the buttons may change under the
                # click (the window closed, the next phase's buttons drawn); look again then.
                buttons.last.click(timeout=5000)
            except PlaywrightTimeout:
                continue
            clicked.append(label)
            moved = "v => window.meja.version > v || window.meja.table.status === 'finished'"
            # A snap that came after its window is refused: nothing moves; look again then.
            with contextlib.suppress(PlaywrightTimeout):
                page.wait_for_function(moved, arg=before, timeout=10000)
        else:
            page.wait_for_timeout(40)
    kinds = {x.split(" ·")[0] for x in clicked}
    assert {"Pick", "Take", "Snap", "Ready"} <= kinds, kinds  # every phase, a round boundary included

    # The end of the match, from the table map's outcome: winners and team scores.
    page.wait_for_selector("#summary:not([hidden]) .result-banner.match")
    outcome = page.evaluate("() => window.meja.table.outcome")
    assert max(outcome["team_scores"]) >= 8
    names = {0: "You", 1: "Bot 2", 2: "Bot 3", 3: "Bot 4"}
    if len(outcome["teams"]) == 1:
        # One team won: the team's win, not a shared one (no "Co-winners" line).
        others = " + ".join(names[s] for s in outcome["winners"]) + " win the match"
        title = "Your team wins the match!" if 0 in outcome["winners"] else others
        assert page.inner_text("#summary-title") == title and page.locator("#winners").count() == 0
    else:
        winners = ", ".join(names[s] for s in outcome["winners"])
        assert page.inner_text("#winners") == f"Co-winners: {winners}"
    rows = page.locator("#outcome tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).inner_text().split("\t") == ["Team 1", "You, Bot 3", str(outcome["team_scores"][0])]
    assert page.locator("#rematch").is_visible()
    assert page.locator("#turn-status").is_hidden()  # nobody's move any more
    assert page.inner_text('#generic-fields dd[data-field="teams"]') == "(0, 2), (1, 3)"
    log = page.inner_text("#log")
    assert "You: Pick" in log or "You: You picked" in log, log[:400]
    assert_clean(page, "match over (generic)")
    shot(page, "generic-match-over")
