"""A remote on the shared screen (issue 20, point 1): the way from Start to the hand-over, and ← →.

A 1920x1080 context hosts a room from /tv/ (no seat), a phone joins, and the remote's ↓ goes
from Start to the strip of the host's rights: Home is not on the way (it was, between them). On
the TV's form, ← → on the turn timer (a list) and on a number change the value as before, and
the change is now seen (the field is lit until the focus leaves it) and said (a polite live line
reads "Turn timer: 15 seconds a turn"); it was silent.

The choice written down: ← → keep changing a value (a remote's left and right are how a TV
changes a setting, and ↑ ↓ already move between the stops); what was missing was the cue and
the words, not another key.

Cost: about 6 s.
"""

from __future__ import annotations

from typing import Any

from test_shell_lobby_focus import phone_joins

TV = {"viewport": {"width": 1920, "height": 1080}}


def active(page: Any) -> str:
    return str(page.evaluate("() => document.activeElement.id || document.activeElement.tagName"))


def test_the_remote_goes_from_start_to_the_hand_over_without_home(server: Any, new_context: Any) -> None:
    tv = new_context(**TV).new_page()
    tv.goto(server.origin + "/tv/")
    tv.wait_for_selector("#tv-host-form")

    # ← → on the turn timer: the value changes, lit and said.
    tv.focus("#turn-limit")
    assert tv.input_value("#turn-limit") == ""
    assert tv.locator("#remote-live").get_attribute("aria-live") == "polite"
    tv.keyboard.press("ArrowRight")
    assert tv.input_value("#turn-limit") == "15"
    assert tv.evaluate("() => document.getElementById('turn-limit').classList.contains('stepped')")
    lit = tv.evaluate("() => getComputedStyle(document.getElementById('turn-limit')).backgroundColor")
    assert lit == "rgb(255, 243, 176)", lit
    assert tv.inner_text("#remote-live") == "Turn timer: 15 seconds a turn"
    tv.keyboard.press("ArrowRight")
    assert tv.inner_text("#remote-live") == "Turn timer: 30 seconds a turn"
    tv.keyboard.press("ArrowDown")  # the focus moves on: the light goes with it
    assert not tv.evaluate("() => document.getElementById('turn-limit').classList.contains('stepped')")
    # A number in seconds says its unit too.
    tv.check("#game-kartu_terakhir")
    tv.focus("#opt-reaction_ms")
    tv.keyboard.press("ArrowLeft")
    assert tv.input_value("#opt-reaction_ms") == "1.4"
    assert tv.inner_text("#remote-live").endswith(": 1.4 seconds")
    tv.check("#game-crazy_eights")

    tv.click("#tv-host")
    tv.wait_for_selector("#room-code")
    phone_joins(new_context, server.origin, tv.evaluate("() => window.meja.tvRoom"), "Ana")
    tv.wait_for_selector("#host-to-seat")

    tv.focus("#start")
    went = []
    for _ in range(12):
        tv.keyboard.press("ArrowDown")
        went.append(active(tv))
        if went[-1] == "host-to-seat":
            break
    assert went[-1] == "host-to-seat", went
    assert "home-link" not in went, f"Home is on the way from Start to the hand-over: {went}"
    tv.keyboard.press("ArrowDown")
    assert active(tv) == "host-to"
