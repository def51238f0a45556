"""The hand widget (js/hand.js) with many cards on a phone: one fanned row while every card
shows more than half of itself (its index, and its centre for a finger to hit), then rows of
equal length, each fanned alike, never wider than the hand; the keyboard still walks every card.

The widget is given plain 56 px cards (a game's size on a phone) in a hand 340 px wide, as
the table lays it out at 390x844. A hand keeps the room of a second row from its first card
only where it can need one: always, unless the game says how many cards it can hold (`most`).
Cost: about 3 s.
"""

from __future__ import annotations

from typing import Any

LAYOUT = """async ([n, most]) => {
    const {HandWidget} = await import('/js/hand.js');
    let box = document.getElementById('hand-test');
    if (box) box.remove();
    box = document.createElement('div');
    box.id = 'hand-test';
    box.style.width = '340px';
    document.body.prepend(box);
    const hand = new HandWidget({labelledBy: 'x', onChoose: () => {}, emptyText: () => 'none'});
    box.append(hand.node);
    hand.set(Array.from({length: n}, (_, i) => ({
        id: `c${i}`, label: `card ${i}`, playable: i % 3 === 0,
        face: (b) => { b.style.width = '56px'; b.style.height = '80px'; b.textContent = String(i); },
    })), most);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    // Layout boxes (offset*), not drawn ones: a playable card is drawn raised a little.
    const hr = hand.node.getBoundingClientRect();
    const cards = Array.from(hand.node.querySelectorAll('button.card')).map((c) => {
        const r = c.getBoundingClientRect();
        const left = r.left - hr.left;
        return {left, right: left + c.offsetWidth, top: c.offsetTop};
    });
    const rows = [...new Set(cards.map((c) => c.top))].sort((a, b) => a - b);
    const strips = cards.map((c, i) => {
        const next = cards[i + 1];
        return next && next.top === c.top ? next.left - c.left : c.right - c.left;
    });
    return {rows: rows.map((t) => cards.filter((c) => c.top === t).length), least: Math.min(...strips),
            widest: Math.max(...cards.map((c) => c.right)), width: hr.width, height: hr.height,
            card: hand.node.querySelector('button.card').offsetHeight};
}"""


def test_a_big_hand_takes_rows_and_every_card_stays_readable(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    seen = {}
    for n in (7, 12, 14, 17, 18, 19, 20, 30, 52):
        got = page.evaluate(LAYOUT, [n, None])
        seen[n] = got["rows"]
        assert sum(got["rows"]) == n
        assert got["least"] >= 56 / 2 + 2, (n, got)  # the card's centre is its own
        assert got["widest"] <= got["width"], (n, got)
        assert max(got["rows"]) - min(got["rows"]) <= max(got["rows"]) // 2, (n, got)  # rows of like length
    assert seen[7] == [7]  # one row while it reads
    assert seen[12] == [6, 6] and seen[17] == [9, 8] and seen[20] == [10, 10] and len(seen[52]) >= 4, seen
    # The keyboard walks every card across the rows: End reaches the last, Right wraps to the first.
    page.focus("#hand-test button.card")
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.textContent") == "51"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.textContent") == "0"


def test_a_hand_keeps_a_second_row_only_where_it_can_need_one(server: Any, new_context: Any) -> None:
    """A phone's hand of 7 keeps the room of a second row while it may grow (the game does not say
    how far, or says 12 or 17), so that nothing under it moves when a draw adds the row; a hand the
    game says cannot grow past 7 (one that only sheds, as in Eighty-Three's tricks) shows no empty
    row."""
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    one_row = page.evaluate(LAYOUT, [7, 7])
    assert one_row["rows"] == [7] and one_row["height"] < 1.5 * one_row["card"], one_row
    for most in (None, 12, 17):
        kept = page.evaluate(LAYOUT, [7, most])
        grown = page.evaluate(LAYOUT, [12, most])
        assert kept["rows"] == [7] and len(grown["rows"]) == 2, (most, kept, grown)
        # the room of two rows from the first card: the hand's box does not grow with the row
        assert kept["height"] == grown["height"] > 2 * kept["card"], (most, kept, grown)
