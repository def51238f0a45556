"""A refusal speaks to the player (issue 20, point 2): no wire notation, no rule numbers, said once.

Each game, one human and bots, 1280x800: the test provokes the refusals a player meets by
tapping a card that may not be chosen, and the server's own refusals (`action/illegal`,
whose message is written for developers: "'discard 6S' refused: ... (eighty-three.md 4.6.3)")
by sending steps the view does not list, as a page racing the table would. After each one,
no text of the page (what shows, and what a screen reader reads) looks like wire notation
(`'discard 6S'`, `action/illegal`, `6S`), a rule file (`.md`) or a rule number (`4.6.3`).

Eighty-Three's discard phase (the case the issue met): a trump the team must keep says why in
plain words under the buttons, and not again in a notice; such cards look kept (a green edge
and band, full colour), neither special (cream, gold edge) nor disabled (greyed, dashed).

Cost: about 15 s.
"""

from __future__ import annotations

import re
from typing import Any

from browser_helpers import assert_clean_in_every_language, host_table, start, wait_my_turn
from e83_browser import (
    auction_mouse,
    host_e83,
    press_card,
    trump_keeping_some_mouse,
    trumps_with_kitty,
    view,
    wait_decision,
)
from e83_browser import find_deal as e83_deal
from kt_helpers import host_kt
from meja.games.eighty_three.rules import NAMES, is_trump

SUITS = "SHDC"

#: What a player must never read: wire notation, error codes, rule files and rule numbers.
WIRE = [
    re.compile(r"'[a-z_]+(?: [^' ]+)?'"),  # an action as the server quotes it: 'discard 6S', 'keep'
    re.compile(r"\b[a-z_]+/[a-z_]+\b"),  # an error code: action/illegal
    re.compile(r"\.md\b"),  # a rule file
    re.compile(r"\b\d+\.\d+\.\d+\b|\(\d+\.\d+(?:, [\d.]+)*\)"),  # a rule number: 4.6.3, (3.3.5)
    re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b"),  # a card's wire name: 6S, 10C
    re.compile(r"\bseat \d\b"),  # the engine's seat numbers from 0
]

#: Every text of the page a player may meet: what shows, and the words only a screen reader reads.
PAGE_TEXT = """() => {
  const parts = [document.body.innerText];
  for (const e of document.querySelectorAll('[aria-label]')) parts.push(e.getAttribute('aria-label'));
  for (const e of document.querySelectorAll('[title]')) parts.push(e.getAttribute('title'));
  return parts.join('\\n');
}"""


def assert_plain(page: Any, what: str) -> str:
    text = str(page.evaluate(PAGE_TEXT))
    found = [m.group(0) for rx in WIRE for m in rx.finditer(text)]
    assert not found, f"{what}: the page shows developer's words {found}:\n{text}"
    return text


def clear_toast(page: Any) -> None:
    page.evaluate("() => { const t = document.getElementById('toast'); t.hidden = true; t.textContent = ''; }")


def refused_by_server(page: Any, action: dict[str, Any], what: str) -> None:
    """Send a step the view does not list (as a page racing the table would): the server refuses it,
    and the page says so in plain words, once."""
    clear_toast(page)
    reply = page.evaluate("a => window.meja.act(a)", action)
    assert reply is None, f"{what}: the server took {action}"
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") in ("That move is not allowed now.", "That move is not part of this game."), what
    assert_plain(page, what)


def _weak_suit(state: Any) -> int | None:
    """A suit that gives seat 0 (with the kitty) 1 to 6 trumps and its team 12 or fewer: every
    trump is kept (eighty-three.md 4.6.3, 4.6.5)."""
    for suit in range(4):
        mine = trumps_with_kitty(state, suit)
        team = mine + sum(is_trump(c, suit) for c in state.hands[2])
        if 2 <= mine <= 6 and team <= 12:
            return suit
    return None


def test_eighty_three_refusals_are_plain_and_kept_trumps_look_kept(server: Any, new_context: Any, shot: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_e83(page, server.origin, name="Wulan", deal_code=e83_deal(lambda s: _weak_suit(s) is not None))
    page.click("#start")
    assert wait_decision(page) == "auction"
    refused_by_server(page, {"kind": "bid", "value": 20}, "a bid under 30")
    assert auction_mouse(page, 83) == "bid 83"
    assert wait_decision(page) == "trump"
    suit = trump_keeping_some_mouse(page, SUITS)
    assert wait_decision(page) == "discard"
    v = view(page)
    steps = {a["card"] for a in v["legal"] if "card" in a}
    kept = [c for c in v["hand"] if is_trump(NAMES.index(c), SUITS.index(suit))]
    assert kept and not steps & set(kept), "every trump is kept"

    # Kept trumps look kept, neither special nor disabled: full colour, a solid green edge and a
    # green band along the top (a card that may go has no band); none is greyed or dashed.
    looks = page.evaluate(
        """() => [...document.querySelectorAll('#hand button.card')].map(b => {
             const s = getComputedStyle(b);
             return {card: b.dataset.card, filter: s.filter, edge: s.borderTopStyle, colour: s.borderTopColor,
                     band: getComputedStyle(b, '::after').backgroundColor};
           })"""
    )
    green = "rgb(15, 107, 58)"
    for look in looks:
        held = look["card"] in kept
        assert "grayscale" not in look["filter"] and look["edge"] == "solid", look
        assert (look["band"] == green) == held and (look["colour"] == green) == held, look

    # A kept trump, chosen: why it stays, in plain words, under the buttons, and no notice besides.
    clear_toast(page)
    press_card(page, kept[0])
    page.wait_for_selector("#step-error:not(:empty)")
    error = page.inner_text("#step-error")
    assert "stays in your hand" in error and "more than 6" in error, error
    assert page.is_hidden("#toast")
    assert_plain(page, "a kept trump chosen")
    assert_clean_in_every_language(page, "a kept trump's reason")
    shot(page, "refusal-e83-kept-trump")

    # The same step sent as a racing page would: the server's refusal is said in plain words.
    refused_by_server(page, {"kind": "discard", "card": kept[0]}, "a kept trump discarded")
    refused_by_server(page, {"kind": "give", "card": v["hand"][-1]}, "a plain card given")
    refused_by_server(page, {"kind": "done"}, "done with 17 cards")


def test_crazy_eights_and_kartu_terakhir_refusals_are_plain(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Ana", seats=2)
    start(page)
    wait_my_turn(page)
    v = view(page)
    locked = page.eval_on_selector_all("#hand button.card[aria-disabled]", "els => els.map(e => e.dataset.card)")
    if locked:
        page.click(f'#hand button.card[data-card="{locked[0]}"]', force=True)
        page.wait_for_selector("#play-notice:not(:empty)")
        assert_plain(page, "crazy eights: a card that does not match")
    refused_by_server(page, {"kind": "suit", "suit": "S"}, "crazy eights: a suit named with no 8 played")
    if any(a["kind"] == "play" for a in v["legal"]):
        refused_by_server(page, {"kind": "pass"}, "crazy eights: a pass with a playable card")
    refused_by_server(page, {"kind": "ready"}, "crazy eights: ready during the round")

    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_kt(page, server.origin, name="Ana", seats=2)
    start(page)
    # My turn with no Wild Draw Four to answer (a bot may open with one: then a challenge is legal, and
    # a fresh-clone CI run saw the server rightly take it). Answer it without challenging, and wait on.
    my_turn = "() => { const v = window.meja.view; return v && v.phase === 'play' && v.turn === window.meja.seat; }"
    for _ in range(10):
        page.wait_for_function(my_turn)
        legal = page.evaluate("() => window.meja.view.legal")
        if not any(a["kind"] == "challenge" for a in legal):
            break
        version = page.evaluate("() => window.meja.version")
        page.evaluate("a => window.meja.act(a)", next(a for a in legal if a["kind"] != "challenge"))
        page.wait_for_function("v => window.meja.version > v", arg=version)
    else:
        raise AssertionError("kartu terakhir: ten turns in a row with a Wild Draw Four to answer")
    refused_by_server(page, {"kind": "challenge"}, "kartu terakhir: a challenge with no Wild Draw Four")
    refused_by_server(page, {"kind": "keep"}, "kartu terakhir: keep with no card drawn")
    refused_by_server(page, {"kind": "catch", "seat": 0}, "kartu terakhir: catching oneself")
    refused_by_server(page, {"kind": "ready"}, "kartu terakhir: ready during the round")
