"""A seat's tag ("Last card!") shows whole in a narrow box, and the shared screen's list of moves
shows whole lines (a new user's trial).

On a phone's three boxes across, and beside a shared screen's large count, the tag was cut to
"Last car" and "L…": drawn smaller (fitWidth) it still did not fit beside the cards. Now a tag
that does not fit takes the line under them, in place of the seat's last move, and the box keeps
its height. The tag is put in the way the table draws it (a ``seat-badge`` in the seat's line),
then the table fits its labels (``fitLabels``, as after every drawing), in one step.

The shared screen's list of moves (a box of fixed height whose lines wrap) showed the top half of
its last line; a line that would be cut at its foot is not drawn now.

Cost: one table of Kartu Terakhir (a person and three bots) on a phone, and its shared screen.
"""

from __future__ import annotations

import json
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
    out.push({seat: box.dataset.seat, cut: tag.scrollWidth > tag.clientWidth + 1, text: box.innerText,
              tag: [r.right, r.bottom], box: [b.right, b.bottom], below: box.classList.contains('badge-below'),
              inside: r.bottom <= b.bottom + 0.5 && r.right <= b.right + 0.5, height: b.height, before: before[i]});
  });
  return out;
}"""

#: the moves' list filled with long lines (as the table draws them), fitted: each line drawn, and whether whole
CAPTION = """() => {
  const box = document.getElementById('move-caption');
  const lines = Array.from({length: 8}, (_, k) => {
    const p = document.createElement('p');
    p.className = k ? 'earlier' : 'latest';
    p.textContent = 'Bot 3 played a Wild Draw Four and chose blue, and the direction turned ' + k;
    return p;
  });
  box.replaceChildren(...lines);
  window.meja.tableScreen.fitLabels();
  const foot = box.getBoundingClientRect().bottom;
  return lines.map((p) => ({shown: getComputedStyle(p).visibility !== 'hidden',
                            whole: p.getBoundingClientRect().bottom <= foot + 0.5}));
}"""


#: Ana's turn: the bots wait for her, so no move redraws or animates the boxes while they are measured
ANAS_TURN = "() => { const v = window.meja.view; return !!v && v.phase === 'play' && v.turn === window.meja.seat; }"


def check(page: Any, where: str) -> None:
    # (a box still growing or moving after the last move measured its tag outside it under load)
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    boxes = page.evaluate(TAGGED, "Last card!")
    assert boxes, where
    for box in boxes:
        assert not box["cut"] and box["inside"], (where, json.dumps(boxes))
        assert abs(box["height"] - box["before"]) < 0.5, (where, json.dumps(boxes))


def test_a_seats_tag_shows_whole_on_a_phone_and_a_shared_screen(server: Any, new_context: Any) -> None:
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    room = host_kt(phone, server.origin, name="Ana", seats=4)
    phone.click("#start")
    phone.wait_for_selector("#opponents .seat-box .seat-stats")
    phone.wait_for_function(ANAS_TURN, timeout=120_000)
    check(phone, "phone")
    tv = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    tv.goto(f"{server.origin}/tv/{room}")
    tv.wait_for_selector("#opponents .seat-box .seat-stats")
    check(tv, "shared screen")
    lines = tv.evaluate(CAPTION)
    assert lines[0]["shown"] and lines[0]["whole"], lines
    assert all(line["whole"] for line in lines if line["shown"]), lines
    assert not all(line["shown"] for line in lines), lines  # the premise: not all eight fit
