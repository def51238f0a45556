"""Driving Eighty-Three's page as a player does (mouse or keyboard), for the browser tests.

The page is the game's module (server/meja/games/eighty_three/page/); what a decision
needs is read from the seat's view (``window.meja.view``), as the page itself reads it, and
the engine (``meja.games.eighty_three.rules``) finds the deals the tests want and says what
a card is. Nothing here waits a fixed time for the page: every step waits for the page to
show the next decision (:func:`wait_decision`), or for the table's version to move on.
"""

from __future__ import annotations

import time
from typing import Any

from browser_helpers import TWO_FRAMES, click_card, open_more_options, tab_to, version, wait_version_after
from meja.games.eighty_three.dealcode import DealSpec, encode
from meja.games.eighty_three.rules import GAME, NAMES, is_trump, points

SUITS = "SHDC"


def host_e83(page: Any, origin: str, *, name: str, deal_code: str | None = None) -> str:
    """Host an Eighty-Three table from the home screen (mouse) and start it; returns the room code."""
    page.goto(origin + "/")
    page.fill("#name", name)
    page.check("#game-eighty_three")
    if deal_code:
        open_more_options(page)
        page.click(".deal-box summary")
        page.fill("#deal-code", deal_code)
    page.click("#host")
    page.wait_for_selector("#room-code")
    return "".join(page.inner_text("#room-code").split())


def find_deal(predicate: Any, dealer: int = 3, limit: int = 50_000) -> str:
    """The first deal code (``dealer`` deals) whose hand-1 state satisfies ``predicate``."""
    for i in range(1, limit):
        code = encode(DealSpec(dealer, (i * 0x9E3779B97F4A7C15_F39CC0605CEDC834) % (1 << 128)))
        state = GAME.new_match(GAME.options("standard"), 4, 1, deal_code=code).state
        if predicate(state):
            return code
    raise AssertionError("no deal found")


def trumps_with_kitty(state: Any, suit: int, seat: int = 0) -> int:
    return sum(is_trump(c, suit) for c in (*state.hands[seat], *state.kitty))


def best_suit(cards: list[str]) -> str:
    """The suit that gives these cards the most trumps (then the most trump points)."""
    ids = [NAMES.index(c) for c in cards]

    def strength(suit: str) -> tuple[int, int]:
        i = SUITS.index(suit)
        return sum(is_trump(c, i) for c in ids), sum(points(c, i) for c in ids)

    return max(SUITS, key=strength)


# --------------------------------------------------------------------------- the page's state

#: What decision of this seat the page shows now, once the table drawn is the view's (no hold
#: in progress): "auction", "trump", "discard", "trim", "play", "hand_over", "finished", or null.
DECISION = """() => {
  const m = window.meja;
  const v = m && m.view;
  if (!v || !m.table) return null;
  const centre = document.querySelector('.e83-centre');
  if (!centre || centre.dataset.version !== String(v.version)) return null;
  const hold = document.getElementById('hold');
  if (hold && !hold.hidden) return null;
  if (m.table.status === 'finished') return document.querySelector('.result-banner.match') ? 'finished' : null;
  if (v.phase === 'hand_over') return document.getElementById('next-round') ? 'hand_over' : null;
  if (!(v.awaiting || []).includes(m.seat)) return null;
  const on = (s) => { const e = document.querySelector(s); return !!e && !e.closest('[hidden]') && !e.disabled; };
  if (v.phase === 'auction') return on('#bid') || on('#pass') ? 'auction' : null;
  if (v.phase === 'trump') return on('.trump-choice') ? 'trump' : null;
  if (v.phase === 'discard' || v.phase === 'trim') return on('#auto-arrange') ? v.phase : null;
  if (v.phase === 'play') return document.querySelector('#hand button.card:not([aria-disabled])') ? 'play' : null;
  return null;
}"""


def wait_decision(page: Any, timeout_s: float = 60.0) -> str:
    handle = page.wait_for_function(DECISION, timeout=timeout_s * 1000)
    return str(handle.json_value())


def text(page: Any, selector: str) -> str:
    """An element's text as one line (its parts may be laid out on several)."""
    return " ".join(page.inner_text(selector).split())


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.meja.view")  # type: ignore[no-any-return]


#: This seat's own part of the discard phase: other seats act at the same time (their steps
#: move the version on too), so a step of ours is waited for by what it changes of ours.
MINE = """() => {
  const v = window.meja.view;
  return JSON.stringify([v.phase, v.round, v.hand, v.selected, (v.decided || [])[window.meja.seat]]);
}"""


def mine(page: Any) -> str:
    return str(page.evaluate(MINE))


def wait_mine_after(page: Any, before: str) -> None:
    """Wait until this seat's own part of the view changed (its step, its decision) from ``before``."""
    page.wait_for_function(f"b => ({MINE})() !== b", arg=before)


def legal(page: Any, kind: str) -> list[dict[str, Any]]:
    return [a for a in view(page)["legal"] if a["kind"] == kind]


#: The enabled controls of the decision in hand that lie outside the viewport at scroll 0.
OUT_OF_VIEW = """() => {
  window.scrollTo(0, 0);
  const H = window.innerHeight, W = window.innerWidth;
  const out = [];
  const sel = '#bid-value, #bid, #pass, .trump-choice, #auto-arrange, #done, #undo, #next-round, #rematch, '
    + '#hint-button, #hand button.card:not([aria-disabled])';
  for (const e of document.querySelectorAll(sel)) {
    if (e.closest('[hidden]') || e.disabled) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.bottom > H + 0.5 || r.top < -0.5 || r.right > W + 0.5 || r.left < -0.5) {
      out.push(`${e.id || e.dataset.card || e.className} at ${Math.round(r.top)}..${Math.round(r.bottom)} of ${H}`);
    }
  }
  return out;
}"""


def assert_in_view(page: Any, what: str, sizes: tuple[tuple[int, int], ...] = ()) -> None:
    """Every enabled control of the decision lies in the viewport, at the page's size and at each of ``sizes``."""
    original = page.viewport_size
    try:
        for size in (None, *sizes):
            if size is not None:
                page.set_viewport_size({"width": size[0], "height": size[1]})
                page.wait_for_function("w => window.innerWidth === w", arg=size[0])
                # the hand lays its cards out again when its width changes (a ResizeObserver):
                # measured before that, a loaded run found a phone's cards still spread for 1280 px
                page.evaluate(TWO_FRAMES)
            out = page.evaluate(OUT_OF_VIEW)
            assert out == [], f"{what} at {size or original}: controls below the fold: {out}"
    finally:
        page.set_viewport_size(original)
        page.wait_for_function("w => window.innerWidth === w", arg=original["width"])


def log_text(page: Any) -> str:
    """The move log's lines (read from the page whether its box is folded or not)."""
    lines = page.evaluate("() => Array.from(document.querySelectorAll('#log li'), li => li.textContent)")
    return "\n".join(lines)


# --------------------------------------------------------------------------- mouse


def auction_mouse(page: Any, bid: int | None = None) -> str:
    """Pass (or bid ``bid`` if given and legal); a dealer who must bid bids the lowest."""
    before = version(page)
    bids = [a["value"] for a in legal(page, "bid")]
    if bid is not None and bid in bids:
        page.select_option("#bid-value", str(bid))
        page.click("#bid")
        done = f"bid {bid}"
    elif page.is_enabled("#pass"):
        page.click("#pass")
        done = "pass"
    else:
        assert page.inner_text("#pass-reason") == "The other three passed: the dealer must bid."
        page.select_option("#bid-value", str(bids[0]))
        page.click("#bid")
        done = f"bid {bids[0]}"
    wait_version_after(page, before)
    return done


def trump_mouse(page: Any) -> str:
    suit = best_suit(view(page)["hand"])
    before = version(page)
    page.click(f"#trump-{suit}")
    wait_version_after(page, before)
    return suit


def trump_keeping_some_mouse(page: Any, marks: str = "SHDC") -> str:
    """Names trumps in a mark of which the player holds 2 to 6 trumps (so some must be kept and
    some may go: the discard's refusals have a card to refuse), by mouse; returns the mark."""
    hand = view(page)["hand"]
    counts = {m: sum(is_trump(NAMES.index(c), marks.index(m)) for c in hand) for m in marks}
    suit = next(m for m in marks if 2 <= counts[m] <= 6)
    before = version(page)
    page.click(f"#trump-{suit}")
    wait_version_after(page, before)
    return suit


def discard_by_hand_mouse(page: Any, before_done: Any = None) -> list[str]:
    """Come down to 6 by clicking cards: give trumps to the partner first, then discard; then Done
    (``before_done()``, if given, runs with every card picked, before Done)."""
    steps: list[str] = []
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, f"the discard did not end: {steps}"
        v = view(page)
        kinds = {a["kind"] for a in v["legal"]}
        if "done" in kinds:
            if before_done:
                before_done()
            before = mine(page)
            page.click("#done")
            wait_mine_after(page, before)
            steps.append("done")
            return steps
        gives = [a["card"] for a in v["legal"] if a["kind"] == "give"]
        discards = [a["card"] for a in v["legal"] if a["kind"] == "discard"]
        card = gives[0] if gives else discards[0]
        before = mine(page)
        click_card(page, card)
        if card in gives and card in discards:
            page.wait_for_selector("#step-dialog[open]")
            page.click('#step-dialog button[data-kind="give"]')
        wait_mine_after(page, before)
        steps.append(("give " if card in gives else "discard ") + card)
        page.wait_for_function(DECISION)


def auto_arrange_mouse(page: Any) -> None:
    """Come down to 6 with Auto-arrange, then Done if the arrangement waits for it."""
    before = mine(page)
    page.click("#auto-arrange")
    wait_mine_after(page, before)
    if page.is_enabled("#done"):
        before = mine(page)
        page.click("#done")
        wait_mine_after(page, before)


def play_mouse(page: Any) -> str:
    cards = page.eval_on_selector_all("#hand button.card:not([aria-disabled])", "els => els.map(e => e.dataset.card)")
    before = version(page)
    click_card(page, cards[0])
    wait_version_after(page, before)
    return f"play {cards[0]}"


def finish_hand_mouse(page: Any) -> None:
    """Play the hand out by mouse (the first playable card each trick; Auto-arrange for a discard
    or a trim) up to its summary or the match's end."""
    while True:
        decision = wait_decision(page)
        if decision == "play":
            play_mouse(page)
        elif decision in ("discard", "trim"):
            auto_arrange_mouse(page)
        else:
            break
    assert decision in ("hand_over", "finished"), decision


# --------------------------------------------------------------------------- keyboard


def press_card(page: Any, card: str) -> None:
    """Keyboard only: Tab into the hand, Home, arrows to the card, Enter."""
    tab_to(page, "#hand button.card")
    page.keyboard.press("Home")
    cards = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")
    for _ in range(cards.index(card)):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.card") == card
    page.keyboard.press("Enter")


def press(page: Any, selector: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Enter")


def choose_in_dialog(page: Any, kind: str) -> None:
    """The step dialog is open with focus on its first choice: arrows to ``kind``, Enter."""
    page.wait_for_selector("#step-dialog[open]")
    for _ in range(4):
        if page.evaluate("() => document.activeElement.dataset.kind") == kind:
            break
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.kind") == kind
    page.keyboard.press("Enter")
