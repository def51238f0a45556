"""A reaction's bubble covers neither the caption nor a seat's count (issue 20, point 2).

On a 390x844 phone at a Kartu Terakhir table (and Crazy Eights'), the player's own reaction and
another seat's each draw a bubble; once its entrance has ended (kept up for the measure), no
bubble's box crosses the caption's lines, the turn line, or any seat's count of cards, and the
bubble's words are whole (not cut with an ellipsis). In Focus (the hand alone) another seat's
reaction floated over the top of the felt, on the caption, cut ("Budi: One mom…").

Cost: about 15 s.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_shell_lobby_focus import phone_hosts, phone_joins

MEASURE = """async () => {
    const talk = window.meja.talk;
    for (const b of talk.bubbles.values()) b.until = Date.now() + 600000;  // kept up while measured
    talk.paint();
    // Their entrances ended (a drawing in between may cancel one, whose promise then rejects:
    // a loaded CI run's AbortError), then the bubbles as they are now.
    const drawn = () => [...document.querySelectorAll('.talk-bubble')].filter(b => b.getClientRects().length);
    await Promise.all(drawn().flatMap(b => b.getAnimations().map(a => a.finished.catch(() => null))));
    for (const b of drawn()) for (const a of b.getAnimations()) try { a.finish(); } catch { /* endless */ }
    const bubbles = drawn();
    const words = [...document.querySelectorAll(
        '#move-caption p, #turn-status, .opp-count, #my-count, .seat-name, #hand-title')]
        .filter(e => e.getClientRects().length && e.textContent.trim());
    const cross = (a, b) =>
        a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const over = [];
    for (const b of bubbles) {
        const r = b.getBoundingClientRect();
        for (const w of words) {
            const name = `${b.textContent} over ${w.id || w.className}: ${w.textContent}`;
            if (cross(r, w.getBoundingClientRect())) over.push(name);
        }
    }
    const cut = bubbles.filter(b => b.scrollWidth > b.clientWidth + 0.5).map(b => b.textContent);
    return {count: bubbles.length, over, cut};
}"""


def react(page: Any, reaction: str) -> None:
    page.click("#react-button")
    page.click(f"#react-{reaction}")


@pytest.mark.parametrize(
    ("game", "focus"), [("kartu_terakhir", False), ("kartu_terakhir", True), ("crazy_eights", False)]
)
def test_a_bubble_covers_neither_caption_nor_count(server: Any, new_context: Any, game: str, focus: bool) -> None:
    ana, room = phone_hosts(new_context, server.origin, game, 3)
    budi = phone_joins(new_context, server.origin, room, "Budi")
    ana.wait_for_selector("#start:not([disabled])")
    if focus:
        ana.click("#lobby-focus")
    ana.click("#start")
    for page in (ana, budi):
        page.wait_for_selector("#hand button.card")
    # A move or two, so that the caption has words.
    ana.wait_for_function("() => document.querySelector('#move-caption p') !== null", timeout=60000)
    react(budi, "one_moment")
    ana.wait_for_selector(".talk-bubble.float" if focus else '.seat-box[data-seat="1"] .talk-bubble')
    react(ana, "one_moment")
    ana.wait_for_selector("#my-area .talk-bubble")
    found = ana.evaluate(MEASURE)
    assert found["count"] >= 2, found
    assert found["over"] == [], found
    assert found["cut"] == [], found
