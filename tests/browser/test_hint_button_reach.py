""" "Suggest a move" is a finger's size on a touch or narrow screen, and moves nothing (h5).

A new-user trial measured the button 30 px tall on a phone (390x844). An earlier try made the
turn row 44 px tall on a touch screen, and that pushed a desktop's Bid (Eighty-Three's auction)
below the fold and moved the hand. The button now reaches above and below the row into the
felt's gaps (style.css): 44 px tall, the row's height unchanged, and every control of the
decision, Bid first, above the fold at 390x844 and at 1280x800; a tap at the button's top or
foot reaches the button, and nothing of the button lies over another control.

Cost: about 15 s (one Eighty-Three table, a chosen deal).
"""

from __future__ import annotations

from typing import Any

from e83_browser import assert_in_view, find_deal, host_e83, wait_decision

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: The button's height, the turn row's, what its top and foot edges hit, and whether its box
#: meets another shown control's.
MEASURE = """() => {
  const b = document.getElementById('hint-button');
  const r = b.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const at = (y) => { const e = document.elementFromPoint(x, y); return e ? (e.id || e.className) : null; };
  const meets = [...document.querySelectorAll('button, select, a, input')].filter((e) => {
    if (e === b || e.closest('[hidden]')) return false;
    const o = e.getBoundingClientRect();
    return o.width > 0 && o.left < r.right && o.right > r.left && o.top < r.bottom && o.bottom > r.top;
  }).map((e) => e.id || e.className);
  return {height: r.height, row: document.getElementById('status-row').getBoundingClientRect().height,
          top: at(r.top + 2), foot: at(r.bottom - 2), meets};
}"""


def test_suggest_a_move_is_44_px_and_bid_stays_in_view(server: Any, new_context: Any) -> None:
    # Seat 0 calls first (dealer 3): the first deal of the search, the same every run.
    code = find_deal(lambda state: True)
    page = new_context(**PHONE).new_page()
    host_e83(page, server.origin, name="Putu", deal_code=code)
    page.click("#start")
    assert wait_decision(page) == "auction"
    page.wait_for_selector("#hint-button", state="visible")
    for size in ((390, 844), (1280, 800)):
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function("w => window.innerWidth === w", arg=size[0])
        seen = page.evaluate(MEASURE)
        assert seen["height"] >= 44, f"{size}: {seen}"
        assert seen["top"] == "hint-button" and seen["foot"] == "hint-button", f"{size}: {seen}"
        assert seen["meets"] == [], f"{size}: the button lies over {seen['meets']}"
        # The row keeps the turn line's height, with the button or without it.
        page.evaluate("() => { document.getElementById('hint-button').hidden = true; }")
        bare = page.evaluate("() => document.getElementById('status-row').getBoundingClientRect().height")
        assert bare == seen["row"], f"{size}: the row is {seen['row']} px with the button, {bare} without"
        page.evaluate("() => { document.getElementById('hint-button').hidden = false; }")
        assert_in_view(page, f"auction at {size}")


def test_a_desktops_auction_keeps_bid_in_view(server: Any, new_context: Any) -> None:
    """A mouse at 1280x800: the button as it was (the turn line's height), Bid above the fold."""
    code = find_deal(lambda state: True)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_e83(page, server.origin, name="Wulan", deal_code=code)
    page.click("#start")
    assert wait_decision(page) == "auction"
    page.wait_for_selector("#hint-button", state="visible")
    seen = page.evaluate(MEASURE)
    assert seen["meets"] == [] and seen["top"] == "hint-button", seen
    assert_in_view(page, "auction at 1280x800", ((390, 844),))
