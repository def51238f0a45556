"""Leaving a finished match keeps one's name on its result (PROTOCOL.md 5, ``leave``).

A new user's trial: Dina won, pressed Leave table, and every other screen then read "Bot 1 wins the
match", her own recent matches listed "Bot 1, Budi", and Budi was still told the host could start
a rematch. The seat now keeps her name (``left``), and the page says the host has left.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table, join_by_link, play_turn_mouse, play_until_match_over, start


def test_the_winner_who_leaves_stays_the_winner(server: Any, new_context: Any) -> None:
    dina = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_table(dina, server.origin, name="Dina", seats=2, target=10)
    budi = new_context(viewport={"width": 390, "height": 844}).new_page()
    join_by_link(budi, server.origin, room, "Budi")
    dina.wait_for_selector("#lobby-seat-1 .person-name:has-text('Budi')")
    start(dina)
    play_until_match_over([(dina, play_turn_mouse), (budi, play_turn_mouse)])
    budi.wait_for_selector("#summary-title")
    dina.wait_for_selector("#summary-title")
    heading = budi.inner_text("#summary-title")
    assert "Bot" not in heading and ("Dina" in heading or "You" in heading), heading
    assert "Dina" in budi.inner_text("#summary")

    dina.click("#leave-table")
    budi.wait_for_selector('#rematch-wait:has-text("The host has left")')
    assert budi.inner_text("#summary-title") == heading, "the result still names who won"
    assert "Dina" in budi.inner_text("#summary") and "Bot 1" not in budi.inner_text("#summary")
    assert budi.inner_text('#opponents .seat-box[data-seat="0"] .presence') == "left the table"
    # Budi's recent matches (kept in this browser) still name who played.
    budi.wait_for_function("() => JSON.stringify(localStorage).includes('Dina')")
    assert "Bot 1" not in budi.evaluate("() => JSON.stringify(localStorage)")

    # Budi leaves too: home is home again, not the join form of the table he came by link to
    # (a new user's trial found its code filled in and hosting folded away).
    budi.click("#leave-table")
    budi.wait_for_selector("#code")
    assert budi.input_value("#code") == "" and budi.locator("#host-instead").count() == 0
    assert budi.url == f"{server.origin}/"
