"""The replay of a finished match (issue 21): `/replay/<id>` after the server restarted on the same Redis.

A one-round table (Kartu Terakhir's default: one round) with one person (the Python client,
playing its first legal action) and a bot is played to its end while the page watches; the
finished summary links to the replay. The server is stopped and started again on the same
redis-server, and the link opened: steps forward and back (buttons, keys, the slider, the step in
the address), each with its caption; another seat's view; every hand open; Verify passes. Then
one stored action is changed in Redis (and the server restarted, so that nothing it kept of the
record stands in): Verify fails and says which move. axe-core finds nothing in the four
languages; screenshots at 1280x800 and 390x844.

Cost: about 20-30 s (a server of its own, started three times).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path
from typing import Any

import msgpack
import pytest
import redis
from browser_helpers import assert_clean_in_every_language, play_in_thread, take
from browser_server import Server
from meja.store.keys import Keys


def test_a_finished_match_replays_after_a_restart(redis_url: str, workdir: Path, new_context: Any, shot: Any) -> None:
    server = Server(redis_url, workdir)
    try:
        codes = play_in_thread(server.origin)
        code = take(codes, 30)
        page = new_context().new_page()
        page.goto(f"{server.origin}/?watch={code}")
        table = take(codes, 120)
        key = table["archive"]
        assert table["status"] == "finished" and len(key) == 22
        # The finished match's summary links to its replay.
        link = page.locator("#replay-link")
        link.wait_for(timeout=30_000)
        assert link.get_attribute("href") == f"/replay/{key}"

        port = server.port
        server.close()
        server = Server(redis_url, workdir, port=port)
        link.click()
        page.wait_for_url(f"**/replay/{key}**")
        page.wait_for_function("() => document.getElementById('replay-position').textContent.length > 0")
        total = int(page.get_attribute("#replay-slider", "max") or "0")
        assert total > 5
        # the position says the round too (a new user could not tell which round a move was in)
        assert page.inner_text("#replay-position") == f"Move 0 of {total} · Round 1"
        assert page.inner_text("#move-caption") == "The cards are dealt."
        assert page.is_disabled("#replay-back") and not page.is_disabled("#replay-forward")

        captions = []
        for n in range(1, 4):
            page.click("#replay-forward")
            page.wait_for_function("n => location.search === `?step=${n}`", arg=n)
            assert page.inner_text("#replay-position") == f"Move {n} of {total} · Round 1"
            captions.append(page.inner_text("#move-caption"))
        assert all(captions), captions
        page.click("#replay-back")
        page.wait_for_function("() => location.search === '?step=2'")
        assert page.inner_text("#move-caption") == captions[1]
        page.keyboard.press("End")
        page.wait_for_function("t => location.search === `?step=${t}`", arg=total)
        assert page.is_disabled("#replay-forward")
        assert page.locator("#replay-summary h3").count() == 1  # the end of the match: its summary
        page.keyboard.press("Home")
        page.wait_for_function("() => location.search === '?step=0'")
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => location.search === '?step=1'")
        page.eval_on_selector("#replay-slider", "s => { s.value = '5'; s.dispatchEvent(new Event('input')); }")
        page.wait_for_function("() => location.search === '?step=5'")

        # Seat 0's hand, then the bot's, then every hand open; the address keeps the seat.
        page.select_option("#replay-seat", "0")
        page.wait_for_function("() => location.search === '?step=5&seat=0'")
        mine = page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert mine
        page.select_option("#replay-seat", "1")
        page.wait_for_function("() => location.search === '?step=5&seat=1'")
        labels = "[...document.querySelectorAll('#hand button.card')].map(b => b.getAttribute('aria-label'))"
        before = json.dumps(mine, separators=(",", ":"), ensure_ascii=False)
        page.wait_for_function(f"m => JSON.stringify({labels}) !== m", arg=before)
        theirs = page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.getAttribute('aria-label'))")
        assert theirs and theirs != mine
        page.select_option("#replay-seat", "all")
        page.wait_for_function("() => location.search === '?step=5&seat=all'")
        page.locator(".replay-open-hand").first.wait_for()
        opened = page.eval_on_selector_all(
            ".replay-open-hand", "hs => hs.map(h => [...h.querySelectorAll('.replay-card')].map(c => c.textContent))"
        )
        assert opened == [mine, theirs]
        assert page.is_hidden("#hand")

        page.click("#replay-verify")
        verdict = page.locator("#replay-verdict-text")
        verdict.wait_for()
        assert verdict.inner_text().startswith("Verified:")
        assert page.get_attribute("#replay-verdict", "data-result") == "ok"
        shot(page, "replay")
        assert_clean_in_every_language(page, "replay")

        # A link to one moment opens there.
        page.goto(f"{server.origin}/replay/{key}?step=3&seat=0")
        page.wait_for_function("() => document.getElementById('replay-position').textContent.startsWith('Move 3 of')")
        assert page.input_value("#replay-seat") == "0"

        # One stored action changed after the match: Verify says which move the rules refuse.
        raw = redis.Redis.from_url(redis_url)
        stored = Keys().archive(key)
        data = msgpack.unpackb(zlib.decompress(raw.get(stored)), raw=False)
        data["actions"][3] = [data["actions"][3][0], {"kind": "play", "card": "nonsense"}]
        raw.set(stored, zlib.compress(msgpack.packb(data, use_bin_type=True)), keepttl=True)
        raw.close()
        server.close()
        server = Server(redis_url, workdir, port=port)
        page.reload()
        page.wait_for_function("() => document.getElementById('replay-position').textContent.length > 0")
        page.click("#replay-verify")
        page.locator("#replay-verdict-text").wait_for()
        assert page.get_attribute("#replay-verdict", "data-result") == "bad"
        said = page.inner_text("#replay-verdict")
        assert "Verification failed" in said and "Move 4 is not allowed by the rules here" in said, said
        shot(page, "replay-verify-failed")

        # A guessed id: said in words, not a broken page.
        page.goto(f"{server.origin}/replay/{'A' * 22}")
        page.wait_for_function("() => document.getElementById('replay-status').textContent.length > 0")
        assert page.inner_text("#replay-status").startswith("No finished match at this address")
        # ... with no controls that look as if they worked over an empty table (a new user's trial)
        assert not page.is_visible("#replay-first") and not page.is_visible("#replay-verify")
        assert not page.is_visible("#felt")

        # The home page lists this browser's recent matches.
        page.goto(f"{server.origin}/")
        recent = page.locator(f"#replay-recent a[href='/replay/{key}']")
        recent.wait_for()
    finally:
        server.close()


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("crazy_eights", 2, {"preset": "house", "target": 10}), ("eighty_three", 4, None)],
)
def test_every_game_replays_step_by_step(
    server: Any, new_context: Any, shot: Any, game: str, seats: int, options: dict[str, Any] | None
) -> None:
    """The other games (the test above plays Kartu Terakhir): a whole match, then its replay stepped
    with its captions, from each seat, every hand open, and verified."""
    codes = play_in_thread(server.origin, game=game, seats=seats, options=options, wait_s=0.0)
    code = take(codes, 30)
    table = take(codes, 300)
    page = new_context().new_page()
    if any(len(team) > 1 for team in table.get("teams") or []):
        # The finished table, watched: a partnership's win is the team's, never a shared win (a new
        # user's trial read "Bot 2, Bot 4 share the win" and "Co-winners" under it).
        page.goto(f"{server.origin}/?watch={code}")
        page.wait_for_selector(".result-banner.match #summary-title")
        names = {s["seat"]: s["name"] if s["kind"] == "human" else f"Bot {s['seat'] + 1}" for s in table["seats"]}
        team = sorted(table["outcome"]["winners"])
        assert page.inner_text("#summary-title") == " + ".join(names[s] for s in team) + " win the match"
        assert page.locator("#winners").count() == 0
    page.goto(f"{server.origin}/replay/{table['archive']}")
    page.wait_for_function("() => document.getElementById('replay-position').textContent.length > 0")
    total = int(page.get_attribute("#replay-slider", "max") or "0")
    assert total > 10
    for n in range(1, 4):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("n => location.search === `?step=${n}`", arg=n)
        assert page.inner_text("#move-caption"), f"step {n} has no caption"
    for seat in range(seats):
        page.select_option("#replay-seat", str(seat))
        page.wait_for_function("s => location.search === `?step=3&seat=${s}`", arg=seat)
        page.wait_for_function("() => document.querySelectorAll('#hand button.card').length > 0")
    page.select_option("#replay-seat", "all")
    page.locator(".replay-open-hand").nth(seats - 1).wait_for()
    assert page.locator(".replay-open-hand").count() == seats
    page.keyboard.press("End")
    page.wait_for_function("t => location.search === `?step=${t}&seat=all`", arg=total)
    # The last round's summary is whole: the game's module heard the round's moves before the end.
    assert page.locator("#replay-summary h3").count() == 1
    assert "did not see" not in page.inner_text("#replay-summary")
    page.click("#replay-verify")
    page.locator("#replay-verdict-text").wait_for()
    assert page.get_attribute("#replay-verdict", "data-result") == "ok"
    # The fair deals and the verdict say a round in the game's word ("Hand 1" in Eighty-Three, as
    # its table and the position line do; the list said "Round 1": a new user's trial).
    word = "Hand" if game == "eighty_three" else "Round"
    first = page.inner_text("#replay-rounds li:first-child")
    assert first.startswith(f"{word} 1: deal code"), first
    assert f"{word} 1: the deal matches the commitment" in page.inner_text("#replay-verdict")
    shot(page, f"replay-{game}")
