"""The home page by a TV remote's arrows (issue 26's new-user trial: on the TV's home page the
arrow keys did nothing, and a remote has no Tab). On a large screen ↑ ↓ move the focus between
the home page's controls as they do on ``/tv/``; a text field keeps its arrows; a phone's page
is left as it was.

Cost: a few seconds (two pages on one server).
"""

from __future__ import annotations

from typing import Any

TV = {"viewport": {"width": 1920, "height": 1080}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

ACTIVE = (
    "() => { const e = document.activeElement; "
    "return e && e !== document.body ? (e.id || e.name || e.tagName) : null; }"
)


def active(page: Any) -> Any:
    return page.evaluate(ACTIVE)


def test_arrows_move_between_the_home_pages_controls_on_a_tv(server: Any, new_context: Any) -> None:
    page = new_context(**TV).new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    assert active(page) is None
    # ↓ from nowhere: the first control, then on; the TV's way in is a few presses down.
    seen = []
    for _ in range(4):
        page.keyboard.press("ArrowDown")
        seen.append(active(page))
        if seen[-1] == "host-tv-top":
            break
    assert seen[-1] == "host-tv-top" and None not in seen, seen
    assert len(set(seen)) == len(seen), seen  # each press a new control
    # ↑ goes back the way it came.
    if len(seen) > 1:
        page.keyboard.press("ArrowUp")
        assert active(page) == seen[-2]
    # A group of choices is one stop: ↓ leaves it without changing the choice.
    game = page.locator('input[name="game"]:checked')
    chosen = game.get_attribute("id")
    game.focus()
    page.keyboard.press("ArrowDown")
    assert page.locator('input[name="game"]:checked').get_attribute("id") == chosen
    assert page.evaluate("() => document.activeElement.name") != "game"
    # A text field keeps its arrows: the focus stays, and typing goes on where the caret is.
    page.fill("#name", "Sai")
    page.focus("#name")
    page.keyboard.press("ArrowUp")  # the caret to the start
    assert active(page) == "name"
    page.keyboard.press("ArrowDown")  # ... and to the end
    page.keyboard.type("ri")
    assert active(page) == "name" and page.input_value("#name") == "Sairi"


def test_a_phones_home_page_keeps_its_arrows(server: Any, new_context: Any) -> None:
    page = new_context(**PHONE).new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    page.focus("#host")
    page.keyboard.press("ArrowDown")
    assert active(page) == "host"
