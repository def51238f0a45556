"""A player's replay opens from their own seat (a new user's trial, h6 F12: "Watch from" started
on "The table (no hand)" for a player who opened the replay from their table), both from the
match's summary and from the home page's list of recent matches; and its empty status line
draws no strip."""

from __future__ import annotations

from typing import Any

from browser_helpers import set_language
from kt_helpers import host_kt

#: Plays seat 0 in the page, one legal action a version, until the match is over.
AUTOPLAY = """() => setInterval(() => {
  const app = window.meja, v = app.view;
  if (!v || !app.table || app.table.status !== "playing" || app.autoSent === app.version) return;
  const legal = v.legal || [];
  for (const kind of ["play", "draw", "keep", "pass", "take", "challenge", "call"]) {
    const action = legal.find((a) => a.kind === kind);
    if (action) {
      app.autoSent = app.version;
      app.act(action).catch(() => {});
      return;
    }
  }
}, 100)"""


#: When this browser's list of recent matches says its latest match was played.
RECENT_AT = "() => (JSON.parse(localStorage.getItem('meja.replays') || '[]')[0] || {}).at"


def test_a_players_replay_opens_from_their_seat(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    host_kt(page, server.origin, name="Ani", seats=2)
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    assert page.evaluate("() => window.meja.seat") == 0
    page.evaluate(AUTOPLAY)
    link = page.locator("#replay-link")
    link.wait_for(timeout=180_000)
    href = link.get_attribute("href")
    assert href and href.endswith("?seat=0"), href
    first_seen = page.evaluate(RECENT_AT)
    assert first_seen
    link.click()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("#replay-seat")
    page.wait_for_function("() => document.getElementById('replay-position').textContent.length > 0")
    assert page.input_value("#replay-seat") == "0"
    page.wait_for_function("() => document.querySelectorAll('#hand button.card').length > 0")
    # Its status line says nothing, and shows nothing (it was an empty pale-yellow strip, h6 F12).
    assert page.inner_text("#replay-status") == ""
    assert page.evaluate("() => document.getElementById('replay-status').getBoundingClientRect().height") == 0
    # The seat watched from is named when it is to move: its viewer is not the player, so never
    # "Your turn" (a new user's trial). Ani and the bot alternate, so a few moves show both.
    said = []
    for _ in range(6):
        said.append(page.inner_text("#turn-status"))
        position = page.inner_text("#replay-position")
        page.click("#replay-forward")
        page.wait_for_function("p => document.getElementById('replay-position').textContent !== p", arg=position)
    assert "Ani's turn" in said and not any("Your" in line for line in said), said
    # A bot is named as the live table names it, in every language ("Máy 2" in a Vietnamese replay).
    set_language(page, "vi")
    who = page.inner_text("#replay-who")
    assert "Bot 2" in who and "Máy" not in who, who
    set_language(page, "en")

    page.goto(f"{server.origin}/")  # back at the finished table (the seat is still held): leave it
    page.wait_for_selector("#leave-table")
    # The recent match keeps the time it was first seen over, not this later look (a new user's trial).
    assert page.evaluate(RECENT_AT) == first_seen
    page.click("#leave-table")
    recent = page.locator("#replay-recent a").first
    recent.wait_for()
    assert (recent.get_attribute("href") or "").endswith("?seat=0")


def test_a_five_seat_replay_on_a_phone_shows_each_name(server: Any, new_context: Any) -> None:
    """A new user's trial (2026-12-07): a five-seat replay on a phone put every seat in one row of
    66 px boxes, so "Budi", "Bot 4" and "Bot 5" all read "B…". The seats wrap in rows now, each
    box wide enough for its name and count."""
    page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    host_kt(page, server.origin, name="Budi", seats=5)
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    page.evaluate(AUTOPLAY)
    link = page.locator("#replay-link")
    link.wait_for(timeout=180_000)
    link.click()
    page.wait_for_url("**/replay/**")
    page.wait_for_function("() => document.querySelectorAll('#replay-seats .seat-box').length === 5")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('#replay-seats .seat-box')].map(b => ({
             width: b.clientWidth,
             cut: [...b.querySelectorAll('.seat-who, .seat-stats')].filter(e => e.scrollWidth > e.clientWidth + 1)
                    .map(e => e.textContent)}))"""
    )
    assert all(b["width"] >= 100 and not b["cut"] for b in boxes), boxes
