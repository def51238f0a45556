"""What a new user found in Eighty-Three (their walk through Meja, items 4 and 8), in Chromium.

* A page opened (or reloaded) after a hand was played that did not see its tricks: its hand
  summary leaves the point cards out rather than saying "(this page did not see every trick)";
  the points each team took are still there. (A late page asks for the latest versions, so it
  misses the tricks only where the server replays fewer than a hand's: here a server that
  replays one, ``max_resume_updates``.)
* The lobby shows who plays with whom before the start: each seat's team, from the table map's
  teams (the shell reads them, never a game's name), and a line saying partners play together.
  A game where every seat plays for itself shows no teams.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_helpers import host_table, play_in_thread, take
from browser_server import Server
from e83_browser import host_e83


def test_a_page_that_missed_the_tricks_shows_the_summary_without_excuses(
    redis_url: str, workdir: Path, new_context: Any, shot: Any
) -> None:
    server = Server(redis_url, workdir, env={"MEJA_MAX_RESUME_UPDATES": "1"})
    try:
        missed(server, new_context, shot)
    finally:
        server.close()


def missed(server: Any, new_context: Any, shot: Any) -> None:
    codes = play_in_thread(server.origin, game="eighty_three", seats=4, wait_s=0.0)
    code = take(codes, 30)
    take(codes, 400)
    # A page that comes now (a TV reloaded between hands) is replayed the last version only: it
    # saw none of the last hand's tricks.
    page = new_context().new_page()
    page.goto(f"{server.origin}/?watch={code}")
    scores = page.locator("#hand-scores")
    scores.wait_for(timeout=30_000)
    text = scores.inner_text()
    assert "did not see" not in text and "this page" not in text, text
    assert page.locator("#hand-scores td.cards-cell").count() == 0
    heads = page.eval_on_selector_all("#hand-scores thead th", "ths => ths.map(th => th.innerText)")
    assert heads == ["Team", "Points", "Score", "Total"], heads
    # each team's row: its name, then as many cells as there are columns after it
    for row in range(2):
        cells = page.locator(f"#hand-scores tbody tr >> nth={row}").locator("td")
        assert cells.count() == 3
        assert cells.nth(0).inner_text().strip().isdigit()
    shot(page, "newuser-e83-summary-late")


def test_the_lobby_shows_the_teams_of_a_partnership_game(server: Any, new_context: Any, shot: Any) -> None:
    host = new_context().new_page()
    code = host_e83(host, server.origin, name="Sari")
    friend = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    friend.goto(f"{server.origin}/?join={code}")
    friend.fill("#name", "Dewi")
    friend.click("#join")
    for page in (host, friend):
        page.wait_for_selector('#seats li[data-seat="1"].seat-human')
        teams = page.eval_on_selector_all(
            "#seats li", "lis => lis.map(li => [li.dataset.team, li.querySelector('.seat-team')?.innerText])"
        )
        # seats 1 and 3 against seats 2 and 4 (Eighty-Three's partners sit across the table)
        assert teams == [["0", "Team 1"], ["1", "Team 2"], ["0", "Team 1"], ["1", "Team 2"]], teams
        assert page.inner_text("#teams-note") == "Seats of one team play together as partners."
    shot(friend, "newuser-e83-lobby-teams")

    # Every seat for itself: no teams are shown.
    other = new_context().new_page()
    host_table(other, server.origin, name="Budi", seats=3)
    other.wait_for_selector("#seats li")
    assert other.locator("#seats .seat-team").count() == 0
    assert other.locator("#teams-note").count() == 0
