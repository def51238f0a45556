"""The move log: rebuilt after a reload from what the server replays, and drawn again in a new language.

The player here prefers reduced motion: no piece travels, the caption by the pile says what happened.

After a reload mid-round the page resumes with ``since`` a while back (PROTOCOL.md 9: one
``update`` per missed version, each with its events), so the log shows the moves made before
the reload, in order, and the seats' last moves and the caption by the pile come back too.
Switching the language draws every line again in that language.

Cost: about 10 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import find_deal, host_table, phase, play_turn_mouse, start, wait_my_turn

LOG_LINES = "() => Array.from(document.querySelectorAll('#log li')).map(li => li.textContent)"


def test_the_log_survives_a_reload_and_follows_the_language(server: Any, new_context: Any, shot: Any) -> None:
    code = find_deal(2, lambda s: True)
    # A player who prefers less motion: nothing travels, the caption says it all (still).
    page = new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce").new_page()
    host_table(page, server.origin, name="Tuti", seats=2, deal_code=code)
    start(page)
    page.evaluate(
        """() => { window.__flights = 0;
                   new MutationObserver(cs => { for (const c of cs) window.__flights += c.addedNodes.length; })
                     .observe(document.querySelector('.motion-layer'), {childList: true}); }"""
    )
    for _ in range(4):
        wait_my_turn(page)
        if phase(page) != "play":
            break
        play_turn_mouse(page)
    wait_my_turn(page)
    assert phase(page) == "play"
    before = page.evaluate(LOG_LINES)
    assert len(before) >= 6 and before[0].startswith("Round 1 begins.")
    assert any(line.startswith("Bot 2 ") for line in before)
    caption = page.inner_text("#move-caption")
    assert caption and page.evaluate("() => window.__flights") == 0
    last_move = page.inner_text('#opponents .seat-box[data-seat="1"] .seat-last')
    assert last_move

    page.reload()
    page.wait_for_selector("#hand button.card")
    page.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=len(before))
    after = page.evaluate(LOG_LINES)
    assert after[: len(before)] == before
    assert page.inner_text("#move-caption") == caption
    assert page.inner_text('#opponents .seat-box[data-seat="1"] .seat-last') == last_move
    shot(page, "log-after-reload")

    # Another language: every line again, in its words (the game's and the shell's).
    page.select_option("#lang", "id")
    again = page.evaluate(LOG_LINES)
    assert len(again) == len(after)
    assert again[0].startswith("Babak 1 dimulai. Kartu pembukanya ")
    assert not any(line.startswith(("You ", "Bot 2 played", "Bot 2 drew", "Round ")) for line in again), again
    assert page.inner_text("#log-title") == "Langkah"
    page.select_option("#lang", "en")
    assert page.evaluate(LOG_LINES) == after

    # A long match: the page keeps a bounded list of events and the log its latest 80 lines,
    # and a move after the bound is still written (the newest line is the newest move).
    lines = page.evaluate(
        """() => {
            const app = window.meja;
            for (let i = 0; i < 450; i++) {
                app.addLog(app.table, [{kind: 'pass', seat: 1, active_suit: 'S', top: 'QS'}]);
                app.tableScreen.render([], false);
            }
            app.addLog(app.table, [{kind: 'suit', seat: 1, suit: 'H', active_suit: 'H'}]);
            app.tableScreen.render([], false);
            return Array.from(document.querySelectorAll('#log li')).map(li => li.textContent);
        }"""
    )
    assert len(lines) == 80 and lines[-1] == "Bot 2 named Hearts." and lines[-2] == "Bot 2 passed."
