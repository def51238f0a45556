"""Eighty-Three's team names in the middle of a phone's table stay whole (a new-user trial, h5 point 3).

From the kitty to the last trick a phone's middle shows each team in a small box beside the
trick, its name on one line ("Đối thủ (Bot 2 + Bot 4)"), cut with an ellipsis where it was
longer than the box: a Vietnamese team with a person's name in it lost its end. The name is now
made smaller to fit its line (the shell's fit, as the seats' lines are), and the box keeps its
height. Here a person with a long Vietnamese name sits at the phone player's left: in the four
languages, in the tricks, no team name is cut, and the two boxes keep their height.

Cost: about 20 s (a chosen deal: the phone's player, the dealer, bids 83 last).
"""

from __future__ import annotations

import time
from typing import Any

from browser_helpers import LANGUAGES, TWO_FRAMES, set_language
from e83_browser import DECISION, auction_mouse, auto_arrange_mouse, find_deal, host_e83, trump_mouse, view
from kt_helpers import join

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LONG_NAME = "Nguyễn Thị Minh Khai"

#: Each team box's name: its text, and whether its line holds it (no overflow past the box).
NAMES = """() => Array.from(document.querySelectorAll('.team-row'), (row) => {
  const name = row.querySelector('.team-name');
  return {text: name.textContent, whole: name.scrollWidth <= name.clientWidth + 0.5,
          height: Math.round(row.getBoundingClientRect().height * 10) / 10};
})"""


def test_a_long_team_name_fits_its_box_on_a_phone(server: Any, new_context: Any, shot: Any) -> None:
    phone = new_context(**PHONE).new_page()
    room = host_e83(phone, server.origin, name="Dewi", deal_code=find_deal(lambda state: True, dealer=0))
    guest = new_context().new_page()
    join(guest, server.origin, room, LONG_NAME)
    phone.wait_for_selector('#seats li[data-seat="1"].seat-human')
    phone.click("#start")
    # Both people act (the guest passes and comes down to six as it comes) until the tricks.
    deadline = time.monotonic() + 90
    while view(phone) is None or view(phone)["phase"] != "play":
        assert time.monotonic() < deadline, "the tricks did not begin"
        acted = False
        for page, bid in ((phone, 83), (guest, None)):
            decision = page.evaluate(DECISION)
            if decision == "auction":
                auction_mouse(page, bid)
            elif decision == "trump":
                trump_mouse(page)
            elif decision in ("discard", "trim"):
                auto_arrange_mouse(page)
            else:
                continue
            acted = True
        if not acted:
            phone.wait_for_timeout(100)  # (a bot's pause: the loop looks again, it asserts nothing)
    phone.wait_for_function("() => document.querySelector('.e83-centre').dataset.phase === 'play'")
    heights = None
    for lang in LANGUAGES:
        set_language(phone, lang)
        phone.evaluate(TWO_FRAMES)
        names = phone.evaluate(NAMES)
        assert any(LONG_NAME in n["text"] for n in names), names
        assert [n for n in names if not n["whole"]] == [], f"{lang}: {names}"
        heights = heights or [n["height"] for n in names]
        assert [n["height"] for n in names] == heights, f"{lang}: {names}"
        shot(phone, f"e83-team-names-{lang}")
