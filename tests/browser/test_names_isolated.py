"""A right-to-left name keeps to its place in the page's sentences (a new-user trial, h5 point 5).

Only the call's roster isolated names (test_call_bidi); in the chat, the move log, the caption
and the turn line a Hebrew name ran into the words next to it: "שרה: 3 cats" was drawn with
the 3 before the name, as a right-to-left run. Every name put into a sentence is now an
island of its own (FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE, strings.js isolate):
here a Hebrew-named player's chat line keeps its words after the name, and her name in the
log, the caption and the turn line is isolated.

Cost: about 10 s (two people at a Crazy Eights table of two, a chosen deal).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import choose_card, click_card, find_deal, host_table, is_stuck, open_chat, playable, start
from kt_helpers import join

SARA = "\u05e9\u05e8\u05d4"  # Hebrew
ISOLATED = f"\u2068{SARA}\u2069"

#: In the chat line that holds ``said``: the right edge of the name's letters and the left
#: edge of the said words' first character, as drawn (Range rects).
CHAT_EDGES = """([name, said]) => {
  const line = [...document.querySelectorAll('#chat-lines li')].find((li) => li.textContent.includes(said));
  if (!line) return null;
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  const chars = []; let n;
  while ((n = walker.nextNode())) for (let i = 0; i < n.data.length; i++) chars.push([n, i]);
  const flat = chars.map(([node, i]) => node.data[i]).join('');
  const box = (k) => { const [node, i] = chars[k]; const r = document.createRange();
    r.setStart(node, i); r.setEnd(node, i + 1); return r.getBoundingClientRect(); };
  const at = flat.indexOf(name);
  let right = -Infinity;
  for (let k = at; k < at + name.length; k++) right = Math.max(right, box(k).right);
  return {nameRight: right, saidLeft: box(flat.indexOf(said)).left, text: flat};
}"""


def test_a_right_to_left_name_stays_in_its_place(server: Any, new_context: Any) -> None:
    # Two seats, Budi leads with a card to play; Sara's move follows it.
    code = find_deal(2, lambda s: not is_stuck(s, 0))
    budi = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_table(budi, server.origin, name="Budi", seats=2, deal_code=code)
    sara = new_context(viewport={"width": 1280, "height": 800}).new_page()
    join(sara, server.origin, room, SARA)
    budi.wait_for_selector('#seats li[data-seat="1"].seat-human')
    start(budi)
    sara.wait_for_selector("#hand button.card")

    # The turn line on Budi's page, at Sara's turn: her name isolated.
    card = choose_card(playable(budi))
    click_card(budi, card)
    if budi.is_visible("#suit-dialog"):
        budi.click('#suit-dialog button[data-suit="C"]')
    budi.wait_for_function("() => window.meja.view.turn === 1")
    budi.wait_for_function("t => document.getElementById('turn-status').textContent.includes(t)", arg=SARA)
    assert ISOLATED in budi.inner_text("#turn-status")

    # Sara moves: the caption and the move log on Budi's page name her, isolated.
    sara.wait_for_function("() => window.meja.view.turn === window.meja.seat")
    if playable(sara):
        click_card(sara, choose_card(playable(sara)))
        if sara.is_visible("#suit-dialog"):
            sara.click('#suit-dialog button[data-suit="C"]')
    else:
        sara.click("#draw")
    budi.wait_for_function("t => document.getElementById('move-caption').textContent.includes(t)", arg=SARA)
    assert ISOLATED in budi.evaluate("() => document.getElementById('move-caption').textContent")
    budi.wait_for_function(
        "t => [...document.querySelectorAll('#log li')].some((li) => li.textContent.includes(t))", arg=SARA
    )
    lines = budi.eval_on_selector_all("#log li", "els => els.map((e) => e.textContent)")
    assert [line for line in lines if SARA in line and ISOLATED not in line] == [], lines

    # Her chat line: "<name>: 3 cats", the words drawn after (right of) the name.
    open_chat(sara)
    sara.fill("#chat-input", "3 cats")
    sara.press("#chat-input", "Enter")
    budi.wait_for_function(
        "() => [...document.querySelectorAll('#chat-lines li')].some((li) => li.textContent.includes('3 cats'))"
    )
    edges = budi.evaluate(CHAT_EDGES, [SARA, "3 cats"])
    assert edges["nameRight"] <= edges["saidLeft"], f"the words went before the name: {edges}"
