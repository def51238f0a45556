"""The move log over a long match: it keeps up to a thousand lines, and when the oldest drop out
every line keeps its number (an ordered list would renumber from 1: a new-user trial saw "1."
mid-round). Synthetic moves are fed to the table's own log drawing. Cost: about 3 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table, start

FEED = """(n) => {  // synchronous: no real update comes in between
    const app = window.meja;
    const before = document.getElementById('log').children.length;
    const ev = {kind: 'timeout', seat: 1, limit: 'turn'};  // a line every game's log writes
    for (let i = 0; i < n; i++) app.logEvents.push({...ev});
    app.tableScreen.renderLog(false);
    const log = document.getElementById('log');
    return {before, lines: log.children.length, start: log.start, numbered: app.tableScreen.logLines};
}"""


def test_the_move_log_keeps_a_thousand_lines_and_their_numbers(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Rina", seats=2)
    start(page)
    got = page.evaluate(FEED, 300)
    assert got["lines"] == got["before"] + 300 and got["start"] == 1  # nothing dropped: numbered from 1
    got = page.evaluate(FEED, 900)
    assert got["lines"] == 1000 and got["numbered"] >= 1200
    assert got["start"] == got["numbered"] - 1000 + 1  # the first line kept has the number it had
