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


#: How far the widest number of the log reaches past its padding (px; <= 0: it shows whole).
MARKER_OVERFLOW = """() => {
    const log = document.getElementById('log');
    const last = log.lastElementChild;
    const probe = document.createElement('span');
    probe.textContent = `${log.start + log.children.length - 1}. `;
    probe.style.cssText = 'position:absolute;white-space:pre;visibility:hidden';
    last.append(probe);
    const width = probe.getBoundingClientRect().width;
    probe.remove();
    return width - parseFloat(getComputedStyle(log).paddingLeft);
}"""


def test_the_move_log_shows_whole_numbers_from_100_on(server: Any, new_context: Any) -> None:
    """Issue 20, point 8: from line 100 on the numbers were clipped ("l06.")."""
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Rina", seats=2)
    start(page)
    for n in (120, 1000):
        page.evaluate(FEED, n)
        assert page.evaluate(MARKER_OVERFLOW) <= 0, f"the log's numbers are cut at {n} lines"
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("() => { document.getElementById('log-box').open = true; }")
    assert page.evaluate(MARKER_OVERFLOW) <= 0
