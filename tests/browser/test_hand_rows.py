"""The hand widget (js/hand.js) with many cards on a phone: one fanned row while every card
shows more than half of itself (its index, and its centre for a finger to hit), then rows of
equal length, each fanned alike, never wider than the hand; the keyboard still walks every card.

The widget is given plain 56 px cards (a game's size on a phone) in a hand 340 px wide, as
the table lays it out at 390x844. Cost: about 2 s.
"""

from __future__ import annotations

from typing import Any

LAYOUT = """async (n) => {
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
    })));
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
            widest: Math.max(...cards.map((c) => c.right)), width: hr.width};
}"""


def test_a_big_hand_takes_rows_and_every_card_stays_readable(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    seen = {}
    for n in (7, 12, 14, 17, 18, 19, 20, 30, 52):
        got = page.evaluate(LAYOUT, n)
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
