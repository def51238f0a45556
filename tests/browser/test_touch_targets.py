"""On a touch screen every button is a finger's size (a new-user trial, h10 finding 3).

At 390x844 with touch, the trial measured "Suggest a move" 150x30, React, Chat, Join call,
Rules and the sound button 35 px tall, the host's "Seat a bot" 101x35 in the lobby. Here every
button shown in the host's lobby and at the table (the hand's cards aside: they are larger) is at
least 44 px tall, and the turn line's row keeps its height whether "Suggest a move" shows or not:
that button is 44 px tall too, reaching above and below the row (style.css; test_hint_button_reach).

Cost: about 15 s (one table, a phone).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import find_deal, host_table, is_stuck, play_turn_mouse, play_until_round_over, start, wait_my_turn

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: The shown buttons shorter than 44 px: [id or text, height].
SHORT = """() => Array.from(document.querySelectorAll('button')).filter((b) => {
  if (b.closest('[hidden]') || b.matches('button.card')) return false;
  const r = b.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && r.height < 44;
}).map((b) => [b.id || b.textContent.trim(), Math.round(b.getBoundingClientRect().height)])"""


def test_a_phones_buttons_are_44_px_tall(server: Any, new_context: Any) -> None:
    page = new_context(**PHONE).new_page()
    assert page.evaluate("() => matchMedia('(pointer: coarse)').matches")
    host_table(page, server.origin, name="Ana", seats=3)
    page.wait_for_selector("#seat-control-1")
    assert page.evaluate(SHORT) == [], "the lobby"
    start(page)
    wait_my_turn(page)
    page.wait_for_selector("#hint-button", state="visible")
    assert page.evaluate(SHORT) == [], "the table at the turn"
    row = page.evaluate("() => document.getElementById('status-row').getBoundingClientRect().height")
    page.evaluate("() => { document.getElementById('hint-button').hidden = true; }")
    assert page.evaluate("() => document.getElementById('status-row').getBoundingClientRect().height") == row


#: How far the ringed card's ring reaches above the card (its outline or its halo, the larger)
#: and the hand's heading line's bottom, in the viewport.
RING = """() => {
  const a = window.meja.view.legal.find((x) => x.kind === 'play');
  window.meja.tableScreen.showHint(a);
  const card = document.querySelector('#hand .hint-target');
  const s = getComputedStyle(card);
  const px = /(-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px (-?[\\d.]+)px/g;
  const spreads = [...s.boxShadow.matchAll(px)].map((m) => Number(m[4]));
  const reach = Math.max(parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth), ...spreads);
  const heading = document.getElementById('my-seat').getBoundingClientRect().bottom;
  return {ringTop: card.getBoundingClientRect().top - reach, heading};
}"""


def test_a_ringed_card_leaves_the_hands_heading_clear(server: Any, new_context: Any) -> None:
    """h10 finding 8: the suggested card's ring covered the hand's heading ("Bài của bạn") on a phone."""
    page = new_context(**PHONE).new_page()
    # A deal where the host leads with a card to play (a random one could leave it only a draw).
    host_table(page, server.origin, name="Ana", seats=2, deal_code=find_deal(2, lambda s: not is_stuck(s)))
    start(page)
    wait_my_turn(page)
    page.wait_for_function("() => window.meja.view.legal.some((x) => x.kind === 'play')")
    got = page.evaluate(RING)
    assert got["ringTop"] >= got["heading"], got


#: The heights of the header's Home link and of each shown fold title (a <summary>): [id or text, px].
LINKS = """() => [document.getElementById('home-link'), ...document.querySelectorAll('summary')]
  .filter((e) => !e.closest('[hidden]') && e.getBoundingClientRect().height > 0)
  .map((e) => [e.id || e.textContent.trim(), Math.round(e.getBoundingClientRect().height)])"""


def test_a_phones_home_link_and_folds_are_44_px_tall(server: Any, new_context: Any) -> None:
    """h6 F16: on a phone the Home link was 67x19 px, the round summary's "Moves" and "Fair deal"
    folds 23-24 px tall. At the table and on the round's summary each is at least 44 px tall."""
    page = new_context(**PHONE).new_page()
    host_table(page, server.origin, name="Ana", seats=2, deal_code=find_deal(2, lambda s: not is_stuck(s)))
    start(page)
    wait_my_turn(page)
    at_table = page.evaluate(LINKS)
    assert "home-link" in [name for name, _ in at_table] and "Moves" in [name for name, _ in at_table], at_table
    assert [x for x in at_table if x[1] < 44] == [], "the table"
    play_until_round_over([(page, play_turn_mouse)])
    page.wait_for_selector("#fair-summary", state="visible")
    on_summary = page.evaluate(LINKS)
    assert "fair-summary" in [name for name, _ in on_summary], on_summary
    assert [x for x in on_summary if x[1] < 44] == [], "the round's summary"
