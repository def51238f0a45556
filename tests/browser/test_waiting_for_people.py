"""A table with no person connected waits (README, "Choices we made": its bots wait too), and
what a spectator or the shared screen sees says so (a new user's trial, h6 F1: the log read "A bot
plays for Ani until they return" over a turn that never ended, which read as a hung table)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import host_table, start, watch_by_code
from browser_server import Server

WAITING = "Waiting for a player to come back"


@pytest.fixture
def quick_grace(redis_url: str, workdir: Path) -> Iterator[Server]:
    """A server whose absent players keep their seat 2 s before a bot takes it."""
    server = Server(redis_url, workdir, env={"MEJA_GRACE_S": "2"})
    try:
        yield server
    finally:
        server.close()


def log_text(page: Any) -> str:
    return str(page.evaluate("() => document.querySelector('#log').textContent"))


def test_a_table_with_nobody_connected_says_it_waits(quick_grace: Server, new_context: Any, shot: Any) -> None:
    origin = quick_grace.origin
    host_context = new_context()
    host = host_context.new_page()
    room = host_table(host, origin, name="Ani", seats=2)
    start(host)
    host.wait_for_selector("#hand button.card")
    watcher = new_context(viewport={"width": 390, "height": 844}).new_page()
    watch_by_code(watcher, origin, room)
    watcher.wait_for_selector('#opponents .seat-box[data-seat="0"]')
    assert WAITING not in watcher.inner_text("#turn-status")  # Ani is here: the table plays

    host.close()  # the last person leaves (the context keeps Ani's seat token)
    watcher.wait_for_selector(f"#turn-status:has-text('{WAITING}')")
    # The grace ran out: the takeover is logged, but no bot plays while nobody is at the table.
    box = '#opponents .seat-box[data-seat="0"] .presence.auto'
    watcher.wait_for_selector(box)
    assert watcher.inner_text(box) == "away · waiting"
    watcher.wait_for_function("() => document.querySelector('#log').textContent.includes('Ani is away')")
    log = log_text(watcher)
    said = "Ani is away. No bot plays while no player is at the table: a bot plays for Ani once a player is back."
    assert said in log
    assert "A bot plays for Ani until they return." not in log
    assert WAITING in watcher.inner_text("#turn-status")
    shot(watcher, "waiting-for-people")

    # Ani comes back: the table plays on, and says whose turn it is again.
    back = host_context.new_page()
    back.goto(origin + "/")
    back.wait_for_selector("#hand button.card")
    watcher.wait_for_function(
        "w => { const s = document.querySelector('#turn-status'); return !s.hidden && !s.textContent.includes(w); }",
        arg=WAITING,
    )
    watcher.wait_for_selector("#log:has-text('Ani is back.')", state="attached")
