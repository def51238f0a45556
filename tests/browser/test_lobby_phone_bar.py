"""A phone's lobby: the host's Start bar, stuck to the screen's foot, never covers a seat's control.

A new-user trial at 390x844 found the second seat's "Seat a bot" under the sticky bar of Start
and Leave until the page was scrolled by hand: a keyboard's Tab (or a screen reader's move)
to it scrolled it only to the screen's foot, under the bar. The page keeps a bar's height of
room at the foot when it scrolls a control into view (style.css, scroll-padding), so the
control lands above the bar (however tall: large text puts its buttons on two lines), and a
tap at its middle reaches it.

Cost: about 4 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table, tab_to

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: The control against the bar: its bottom, the bar's top, and what a tap at its middle hits.
UNDER = """(id) => {
  const c = document.getElementById(id).getBoundingClientRect();
  const bar = document.querySelector('.lobby-actions').getBoundingClientRect();
  const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
  return {bottom: c.bottom, barTop: bar.top, hit: hit ? (hit.id || hit.className) : null};
}"""


def test_a_seats_control_scrolled_to_lands_above_the_start_bar(server: Any, new_context: Any) -> None:
    page = new_context(**PHONE).new_page()
    host_table(page, server.origin, name="Ana", seats=3)
    page.wait_for_selector("#seat-control-1")
    page.evaluate("() => window.scrollTo(0, 0)")
    # At the top of the page the second seat lies at the screen's foot, where the bar is stuck.
    first = page.evaluate(UNDER, "seat-control-1")
    assert first["bottom"] > first["barTop"], f"the test's premise: the control starts under the bar {first}"
    # By keyboard: Tab to it.
    tab_to(page, "#seat-control-1")
    seen = page.evaluate(UNDER, "seat-control-1")
    assert seen["bottom"] <= seen["barTop"], f"the focused control is under the Start bar: {seen}"
    assert seen["hit"] == "seat-control-1", seen
    # Scrolled to by the page (as a screen reader or a find in page does): above the bar too.
    for control in ("seat-control-2", "seat-control-1"):
        page.evaluate("() => window.scrollTo(0, 0)")
        page.evaluate("(id) => document.getElementById(id).scrollIntoView({block: 'nearest'})", control)
        seen = page.evaluate(UNDER, control)
        assert seen["bottom"] <= seen["barTop"] and seen["hit"] == control, f"{control}: {seen}"
    # Large text (the bar's two buttons on two lines, a taller bar): still above it.
    page.evaluate("() => { document.documentElement.style.fontSize = '200%'; }")
    page.wait_for_function("() => document.querySelector('.lobby-actions').getBoundingClientRect().height > 130")
    page.wait_for_function(
        "() => parseFloat(document.documentElement.style.getPropertyValue('--lobby-bar'))"
        " === Math.ceil(document.querySelector('.lobby-actions').getBoundingClientRect().height)"
    )
    page.evaluate("() => window.scrollTo(0, 0)")
    page.evaluate("() => document.getElementById('seat-control-1').scrollIntoView({block: 'nearest'})")
    seen = page.evaluate(UNDER, "seat-control-1")
    assert seen["bottom"] <= seen["barTop"] and seen["hit"] == "seat-control-1", f"large text: {seen}"
