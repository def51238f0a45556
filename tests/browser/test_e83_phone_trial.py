"""Eighty-Three on a phone, as a second new-user trial met it (issue 20), in real Chromium at 390x844 (touch).

One hand from the auction (three bots bid before the player, who wins it at 83) to its summary:

* **The auction**: the high bid is said at most twice on the table (its chip among the calls and
  the contract line: not again in the bidder's box, nor in a caption, nor by a token flying over
  the box), and the bid's advice ("Your hand is worth about …") lies whole on the screen.
* **The partner's box** is tall enough for its name's pill over its last line (it was 40 px, the
  pill touching its top); it stays opposite the player, and the hand's box keeps its place.
* **A refusal in the discard** (a trump that must be kept, tapped): why it stays lies wholly on the
  screen with no scrolling, in the four languages, and begins with a capital (Norwegian's card
  names are lower case: "spar 3 blir på hånden").
* **The hand's count** follows the hand: after a card is picked to discard, "16 cards", not 17.
* **Locked cards** look locked (dimmed, a lock on them) and their names say they cannot be
  discarded; the kitty's mark in a card's name is in the page's language.
* **The summary's headings** each lie on one line in the four languages (no "Poi/nts", "Đi/ể/m").

Screenshots: ``e83-phone-trial-*``. Cost: about 40 s.
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import LANGUAGES, set_language
from e83_browser import (
    auction_mouse,
    auto_arrange_mouse,
    find_deal,
    finish_hand_mouse,
    host_e83,
    mine,
    trump_keeping_some_mouse,
    view,
    wait_decision,
    wait_mine_after,
)
from meja.games.eighty_three.bots.yardstick import best_suit as worth_suit
from meja.games.eighty_three.bots.yardstick import estimate
from meja.games.eighty_three.rules import NAMES, is_trump
from test_refusals import _weak_suit

SUITS = "SHDC"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def _deal(state: Any) -> bool:
    """Seat 0 calls last (seat 0 deals), after a bot that opens; and a suit keeps every trump of seat 0."""
    hand = list(state.hands[1])
    return _weak_suit(state) is not None and estimate(hand, worth_suit(hand)) >= 45


def box(page: Any, selector: str) -> dict[str, float] | None:
    return page.evaluate(  # type: ignore[no-any-return]
        """s => {
          const e = document.querySelector(s);
          if (!e || e.closest('[hidden]') || !e.getClientRects().length) return null;
          const r = e.getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, h: r.height};
        }""",
        selector,
    )


def wholly_in_view(page: Any, selector: str) -> bool:
    b = box(page, selector)
    return b is not None and b["top"] >= 0 and b["bottom"] <= 844 and b["left"] >= 0 and b["right"] <= 390


#: The words the table shows (its seats, its middle, its turn line), as a player reads them.
TABLE_TEXT = """() => Array.from(document.querySelectorAll('#opponents, .centre-area, #status-row'))
  .filter((e) => !e.closest('[hidden]')).map((e) => e.innerText).join('\\n')"""

#: Each heading of the hand's table: its text's height against its line's.
HEADINGS = """() => Array.from(document.querySelectorAll('#hand-scores thead th'), (th) => {
  const r = document.createRange(); r.selectNodeContents(th);
  return {text: th.textContent, lines: r.getClientRects().length, h: r.getBoundingClientRect().height,
          line: parseFloat(getComputedStyle(th).lineHeight)};
})"""


def test_e83_hand_on_a_phone_as_a_new_player_meets_it(server: Any, new_context: Any, shot: Any) -> None:
    page = new_context(**PHONE).new_page()
    host_e83(page, server.origin, name="Dewi", deal_code=find_deal(_deal, dealer=0))
    hand_top = None
    page.click("#start")

    # ---- the auction, at the player's call: the bots have bid
    assert wait_decision(page) == "auction"
    v = view(page)
    high = v["high_bid"]
    assert high, v["auction"]
    page.wait_for_timeout(600)  # a flight, if any, would be under way
    said = re.findall(rf"\b{high}\b", page.evaluate(TABLE_TEXT))
    assert 1 <= len(said) <= 2, page.evaluate(TABLE_TEXT)
    assert page.locator(".bid-token").count() == 0
    assert page.inner_text("#bid-worth-shown").startswith("Your hand is worth about")
    assert wholly_in_view(page, "#bid-worth-shown"), box(page, "#bid-worth-shown")
    assert page.get_attribute("#bid-value", "aria-describedby") == "bid-worth"
    # the partner's box: its pill with room over its last line, opposite the player
    partner = page.evaluate(
        """() => {
          const b = document.querySelector('#opponents .side-top .seat-box');
          const p = b.querySelector('.seat-name, .bot-badge, .seat-who > *');
          const r = b.getBoundingClientRect(), q = p.getBoundingClientRect();
          return {seat: Number(b.dataset.seat), h: r.height, above: q.top - r.top, below: r.bottom - q.bottom};
        }"""
    )
    assert partner["seat"] == 2 and partner["h"] >= 46 and partner["above"] >= 2 and partner["below"] >= 2, partner
    hand_top = box(page, "#hand")
    shot(page, "e83-phone-trial-auction")
    assert auction_mouse(page, 83) == "bid 83"

    # ---- trumps: a suit that keeps every trump of the player
    assert wait_decision(page) == "trump"
    suit = trump_keeping_some_mouse(page, SUITS)

    # ---- the discard: locked cards, a refusal, the count
    assert wait_decision(page) == "discard"
    assert box(page, "#hand") == hand_top
    v = view(page)
    steps = {a["card"] for a in v["legal"] if "card" in a}
    kept = [c for c in v["hand"] if is_trump(NAMES.index(c), SUITS.index(suit))]
    assert kept and not steps & set(kept)
    looks = page.evaluate(
        r"""() => Array.from(document.querySelectorAll('#hand button.card'), (b) => {
             const m = b.querySelector('.lock-mark'), r = m ? m.getBoundingClientRect() : null;
             const corner = b.querySelector('.corner');
             // the index's contrast on the card's face, its fading counted (WCAG's formula)
             const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
             const lum = (v) => v.map((x) => x / 255)
                                 .map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
                                 .reduce((s, x, i) => s + x * [0.2126, 0.7152, 0.0722][i], 0);
             const a = Number(getComputedStyle(corner).opacity), fg = rgb(getComputedStyle(corner).color);
             const bg = rgb(getComputedStyle(b).backgroundColor);
             const [x, y] = [lum(fg.map((f, i) => f * a + bg[i] * (1 - a))), lum(bg)].sort((p, q) => q - p);
             const hit = r && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
             return {card: b.dataset.card, label: b.getAttribute('aria-label'), locked: b.classList.contains('locked'),
                     lock: !!r && r.width > 8 && !!hit && hit.closest('button.card') === b,
                     faded: Number(getComputedStyle(corner).opacity) < 0.8,
                     contrast: (x + 0.05) / (y + 0.05),
                     face: getComputedStyle(b).backgroundColor}; })"""
    )
    for look in looks:
        held = look["card"] in kept
        assert look["locked"] == held and look["lock"] == held and look["faded"] == held, look
        assert ("cannot be discarded" in look["label"]) == held, look
        # faded, yet its index readable (a third trial found locked trumps hard to read at 0.45)
        assert look["contrast"] >= 3, look
        if held:
            assert look["face"] not in ("rgb(255, 251, 234)", "rgb(255, 255, 255)"), look  # not cream, not white
    # the kitty's mark in a card's name, in the page's language
    kitty_cards = [c for c in looks if "(from the kitty)" in c["label"]]
    assert kitty_cards
    for lang in ("id", "vi", "nb"):
        set_language(page, lang)
        label = page.get_attribute(f'#hand button.card[data-card="{kitty_cards[0]["card"]}"]', "aria-label")
        assert "kitty" not in label.lower(), (lang, label)
    set_language(page, "en")

    # a kept trump, tapped: why it stays, wholly on the screen with no scrolling, in every language
    tap = page.eval_on_selector(
        f'#hand button.card[data-card="{kept[0]}"]',
        "b => { const r = b.getBoundingClientRect(); return [r.left + 8, r.top + r.height / 2]; }",
    )
    page.touchscreen.tap(tap[0], tap[1])
    page.wait_for_selector("#step-error:not(:empty)")
    assert page.evaluate("() => window.scrollY") == 0
    for lang in LANGUAGES:
        set_language(page, lang)
        text = page.inner_text("#step-error")
        assert text[0] == text[0].upper() and text[0].isalpha(), (lang, text)
        assert wholly_in_view(page, "#step-error-box"), (lang, box(page, "#step-error-box"))
        shot(page, f"e83-phone-trial-refusal-{lang}")
    set_language(page, "en")
    assert box(page, "#hand") == hand_top
    page.click(".step-error-close")
    assert page.is_hidden("#step-error-box")

    # the count follows the hand
    assert page.inner_text("#my-count") == "17 cards"
    gives = {a["card"] for a in v["legal"] if a["kind"] == "give"}
    card = next(a["card"] for a in v["legal"] if a["kind"] == "discard" and a["card"] not in gives)
    before = mine(page)
    page.click(f'#hand button.card[data-card="{card}"]')
    wait_mine_after(page, before)
    wait_decision(page)
    assert page.inner_text("#my-count") == f"{len(view(page)['hand'])} cards" == "16 cards"
    auto_arrange_mouse(page)

    # ---- the tricks, then the summary's headings
    finish_hand_mouse(page)
    for lang in LANGUAGES:
        set_language(page, lang)
        for th in page.evaluate(HEADINGS):
            assert th["lines"] == 1 and th["h"] < 1.5 * th["line"], (lang, th)
        shot(page, f"e83-phone-trial-summary-{lang}")
    set_language(page, "en")
