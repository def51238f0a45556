"""A seat's tag ("Last card!") shows whole in a narrow box (a new user's trial).

On a phone's three boxes across, and beside a shared screen's large count, the tag was cut to
"Last car" and "L…": drawn smaller (fitWidth) it still did not fit beside the cards. Now a tag
that does not fit takes the line under them, in place of the seat's last move, and the box keeps
its height. The tag is put in the way the table draws it (a ``seat-badge`` in the seat's line),
then the table fits its labels (``fitLabels``, as after every drawing), in one step.

Cost: one table of Kartu Terakhir (a person and three bots) on a phone, and its shared screen.
"""

from __future__ import annotations

from typing import Any

from kt_helpers import host_kt

#: each other seat's box, a tag put in its line, the labels fitted: what shows of it
TAGGED = """(text) => {
  const out = [];
  for (const box of document.querySelectorAll('#opponents .seat-box')) {
    const line = box.querySelector('.seat-stats');
    const tag = document.createElement('span');
    tag.className = 'seat-badge';
    tag.textContent = text;
    line.append(tag);
  }
  const before = [...document.querySelectorAll('#opponents .seat-box')].map((b) => b.getBoundingClientRect().height);
  window.meja.tableScreen.fitLabels();
  document.querySelectorAll('#opponents .seat-box').forEach((box, i) => {
    const tag = box.querySelector('.seat-badge');
    const r = tag.getBoundingClientRect(), b = box.getBoundingClientRect();
    out.push({seat: box.dataset.seat, cut: tag.scrollWidth > tag.clientWidth + 1,
              inside: r.bottom <= b.bottom + 0.5 && r.right <= b.right + 0.5, height: b.height, before: before[i]});
  });
  return out;
}"""


def check(page: Any, where: str) -> None:
    boxes = page.evaluate(TAGGED, "Last card!")
    assert boxes, where
    for box in boxes:
        assert not box["cut"] and box["inside"], (where, boxes)
        assert abs(box["height"] - box["before"]) < 0.5, (where, boxes)


def test_a_seats_tag_shows_whole_on_a_phone_and_a_shared_screen(server: Any, new_context: Any) -> None:
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    room = host_kt(phone, server.origin, name="Ana", seats=4)
    phone.click("#start")
    phone.wait_for_selector("#opponents .seat-box .seat-stats")
    check(phone, "phone")
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{server.origin}/tv/{room}")
    tv.wait_for_selector("#opponents .seat-box .seat-stats")
    check(tv, "shared screen")
