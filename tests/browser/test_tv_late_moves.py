"""A shared screen that comes in late shows the latest moves at once (a new user's trial).

A TV opened on a table mid-game, or reloaded, showed nothing under the pile and no seat's last
move until the next move was made, and then only that one. A late watcher asks for the latest
versions as a reloaded seat does (PROTOCOL.md 9, ``watch.since``): while the table waits for the
person (nothing moves), a TV opened then, and the same TV reloaded, shows under the pile the
latest move the person's own page shows, and the seats' last moves as that page does.

Cost: about 10 s (one table of Kartu Terakhir, a person and three bots).
"""

from __future__ import annotations

from typing import Any

from kt_helpers import host_kt, pick_play, play_card, view

WAITS = "() => { const v = window.meja.view; return !!v && v.phase === 'play' && v.turn === window.meja.seat; }"
CAPTION = "() => [...document.querySelectorAll('#move-caption p')].map((p) => p.textContent)"
#: each other seat's last move as its box says it, by seat number
LAST = """() => Object.fromEntries([...document.querySelectorAll('#opponents .seat-box')]
  .map((b) => [b.dataset.seat, (b.querySelector('.seat-last') || {}).textContent || ''])
  .filter(([seat, text]) => seat !== undefined && text))"""

#: each colour sign in the seats' last moves: its colour, its ink and the line's
SIGNS = """() => [...document.querySelectorAll('#opponents .seat-last .kt-sign')].map((s) => ({
  colour: [...s.classList].find((c) => c.startsWith('colour-')).slice(7),
  ink: getComputedStyle(s).color, box: getComputedStyle(s.closest('.seat-last')).color}))"""


def test_a_late_or_reloaded_tv_shows_the_latest_moves(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_kt(page, server.origin, name="Ana", seats=4)
    page.click("#start")
    page.wait_for_selector("#hand button.card")
    page.wait_for_function(WAITS, timeout=120_000)
    # Ana's next turn, after the bots have played (so that there are moves to show).
    # A Wild asks for a colour in its own dialog (play_card answers it).
    before = page.evaluate("() => window.meja.version")
    action = pick_play(view(page))
    if action is not None:
        play_card(page, action, keyboard=False, before=before)
    else:
        # Nothing to play: draw, or take the cards a Draw Two or a Wild Draw Four left (then the
        # Draw button is hidden and Take stands in its place).
        kinds = {a["kind"] for a in view(page)["legal"]}
        page.click("#take" if "take" in kinds else "#draw")
    page.wait_for_function(f"v => ({WAITS})() && window.meja.version > v", arg=before)
    version = page.evaluate("() => window.meja.version")
    latest = page.evaluate(CAPTION)[0]
    last = page.evaluate(LAST)
    assert latest and last, (latest, last)
    # A seat's last play says its colour in colour too: the sign drawn in the card's colour, not in
    # the box's grey (a new user's trial read a grey "7◆" as a diamond).
    signs = page.evaluate(SIGNS)
    assert len(signs) == sum(1 for text in last.values() if text.startswith("played")), (signs, last)
    for sign in signs:
        assert sign["colour"] in "RYGB" and sign["ink"] != sign["box"], signs
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    for how in ("opened late", "reloaded"):
        if how == "opened late":
            tv.goto(f"{server.origin}/tv/{room}")
        else:
            tv.reload()
        tv.wait_for_function("v => window.meja.version === v", arg=version)
        tv.wait_for_selector("#move-caption p")
        shown = tv.evaluate(CAPTION)
        assert shown and shown[0] == latest, (how, shown, latest)
        assert len(shown) >= 2, (how, shown)
        on_tv = tv.evaluate(LAST)
        assert {seat: text for seat, text in on_tv.items() if seat in last} == last, (how, on_tv, last)
        assert page.evaluate("() => window.meja.version") == version  # nothing moved meanwhile
