"""The table a player sees (issue 11): a card table that holds still, one screen, moves you can see.

One match against a bot, to a low target so that it ends after one round:

* the hand's, the pile's, the stock's and the opponent's boxes do not move across turn
  changes (recorded in the page each time the turn line changes);
* with a hand of 12 cards (drawn up to it), every enabled control of the decision (the
  playable cards, Draw, Pass, the stock) lies inside the viewport at 1280x800 and at
  390x844, without scrolling, and the fanned hand keeps every card's index in view;
* each time a bot played before a decision of the player, the caption by the pile named
  the bot and the card before the player decided;
* the tab's title says it is the player's turn while the tab is hidden, and the turn
  sounds;
* the result: a winner banner, Rematch and Leave in view at both sizes and not touching;
  the round's penalties card by card.

Cost: about 30 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import (
    assert_clean_in_every_language,
    click_card,
    find_deal,
    grow_hand_to,
    hand,
    host_table,
    is_my_turn,
    phase,
    play_turn_mouse,
    playable,
    short,
    start,
    wait_my_turn,
)

SIZES = ((1280, 800), (390, 844))

RECORD_BOXES = """() => {
    window.__boxes = [];
    const rect = (sel) => {
        const e = document.querySelector(sel);
        if (!e) return null;
        const r = e.getBoundingClientRect();
        return [r.x, r.y, r.width, r.height].map(Math.round);
    };
    const record = () => {
        const v = window.meja.view;
        if (!v || v.phase !== 'play') return;
        window.__boxes.push({status: document.getElementById('turn-status').textContent,
            hand: rect('#hand'), pile: rect('#top-card'), stock: rect('#stock'),
            opponent: rect('#opponents .seat-box'), draw: rect('#draw'), scroll: window.scrollY});
    };
    new MutationObserver(record).observe(document.getElementById('turn-status'),
        {childList: true, characterData: true, subtree: true});
    record();
    // The pieces that travel between the seats and the piles.
    window.__flights = [];
    new MutationObserver((changes) => {
        for (const c of changes) {
            for (const n of c.addedNodes) window.__flights.push((n.firstElementChild || n).className);
        }
    }).observe(document.querySelector('.motion-layer'), {childList: true});
}"""

#: Every enabled control of the decision in front of the player, with its box (viewport coordinates).
CONTROLS = """() => {
    window.scrollTo(0, 0);
    const out = [];
    const add = (kind, e) => {
        const r = e.getBoundingClientRect();
        out.push({kind, id: e.id || e.dataset.card || '', left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    };
    document.querySelectorAll('#hand button.card.playable').forEach(e => add('card', e));
    for (const id of ['draw', 'pass', 'next-round', 'rematch', 'leave-table']) {
        const e = document.getElementById(id);
        if (e && !e.disabled && e.offsetParent !== null) add('button', e);
    }
    // Draw and Pass, and why not, are in view even while disabled: they say what the decision is.
    for (const id of ['draw', 'pass', 'draw-reason', 'pass-reason']) {
        const e = document.getElementById(id);
        if (e && e.offsetParent !== null && e.textContent) add('action', e);
    }
    const stock = document.getElementById('stock');
    if (stock && stock.classList.contains('can-draw')) add('stock', stock);
    return {controls: out, width: window.innerWidth, height: window.innerHeight};
}"""

#: How much of each card of the hand shows (its left strip, where the index is): the smallest width
#: (the last card of a row shows whole).
SMALLEST_STRIP = """() => {
    const cards = Array.from(document.querySelectorAll('#hand button.card'));
    let least = Infinity;
    cards.forEach((c, i) => {
        const r = c.getBoundingClientRect();
        const next = cards[i + 1];
        const sameRow = next && c.offsetTop === next.offsetTop;
        const shown = sameRow ? next.getBoundingClientRect().left - r.left : r.width;
        least = Math.min(least, shown);
    });
    return least;
}"""


#: The hand's box on the table (from the felt's top left corner).
IN_FELT = """() => {
    const f = document.getElementById('felt').getBoundingClientRect();
    const r = document.getElementById('hand').getBoundingClientRect();
    return [r.x - f.x, r.y - f.y, r.width, r.height].map(Math.round);
}"""


def outside(info: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        c
        for c in info["controls"]
        if c["left"] < 0 or c["top"] < 0 or c["right"] > info["width"] + 0.5 or c["bottom"] > info["height"] + 0.5
    ]


def assert_controls_in_view(page: Any, expect: set[str], what: str) -> None:
    original = page.viewport_size
    try:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(150)  # the fan is laid out again for the new width
            info = page.evaluate(CONTROLS)
            kinds = {c["kind"] for c in info["controls"]} | {c["id"] for c in info["controls"]}
            assert expect <= kinds, f"{what} at {width}x{height}: expected {expect}, found {info['controls']}"
            assert not outside(info), f"{what} at {width}x{height}: outside the viewport: {outside(info)}"
    finally:
        page.set_viewport_size(original)


def test_the_table_holds_still_shows_moves_and_fits_one_screen(server: Any, new_context: Any, shot: Any) -> None:
    code = find_deal(2, lambda s: True)
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    host_table(page, server.origin, name="Rina", seats=2, deal_code=code, target=10)
    start(page)
    page.evaluate(RECORD_BOXES)

    # The hand grows to 12 cards (three draws a turn, house rules); meanwhile the bot plays.
    grow_hand_to(page, 12)
    assert len(hand(page)) >= 12
    # The fanned hand keeps a strip of every card in view (its index), at both sizes.
    assert_controls_in_view(page, {"card", "draw", "pass"}, "a 12-card hand's decision")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        assert page.evaluate(SMALLEST_STRIP) >= 20, f"a card's index is covered at {width}x{height}"
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, "table-twelve-cards")

    # The tab says it is the player's turn while the tab is hidden, and the turn sounds (on by default).
    assert page.get_attribute("#sound-button", "aria-pressed") == "true"
    page.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
            window.meja.attention.setWaiting(false);  // as if the turn had just passed to the bot
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    title = page.title()
    heard = page.evaluate("() => window.meja.sound.played.length")
    play_turn_mouse(page)
    wait_my_turn(page)
    if phase(page) == "play":
        assert page.title().startswith("▶ Your turn · "), page.title()
        assert "turn" in page.evaluate("n => window.meja.sound.played.slice(n)", heard)
    page.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    assert page.title() == title == "Meja: Crazy Eights"

    # Play the round out; before each decision, the caption names what the bot just did.
    captions_checked = 0
    while phase(page) == "play":
        wait_my_turn(page)
        if phase(page) != "play":
            break
        last = page.evaluate(
            """() => { const ms = window.meja.logEvents.filter(e => ['play', 'draw', 'pass'].includes(e.kind));
                       return ms.length ? ms[ms.length - 1] : null; }"""
        )
        if last and last["kind"] == "play" and last["seat"] == 1:
            caption = page.inner_text("#move-caption .latest")
            assert caption.startswith(f"Bot 2 played {short(last['card'])}"), caption
            box = page.inner_text('#opponents .seat-box[data-seat="1"] .seat-last')
            assert box.startswith(f"played {short(last['card'])}"), box
            captions_checked += 1
        if captions_checked == 1:
            shot(page, "table-caption-after-a-bot")
        assert is_my_turn(page)
        play_turn_mouse(page)
    assert captions_checked >= 1, "the bot never played before the player's decision"

    # Nothing moved while the turn went back and forth.
    boxes = page.evaluate("() => window.__boxes")
    statuses = {b["status"] for b in boxes}
    assert {"Your turn", "Bot 2's turn"} <= statuses, statuses
    for key in ("hand", "pile", "stock", "opponent", "draw"):
        seen = {tuple(b[key]) for b in boxes if b[key] is not None}
        assert len(seen) == 1, f"the {key} box moved across turn changes: {sorted(seen)}"
    assert {b["scroll"] for b in boxes} == {0}
    # Plays and draws travelled: card faces (to the pile; drawn ones from the stock to the hand),
    # and card backs from the stock to the bot when the bot drew.
    flights = page.evaluate("() => window.__flights")
    moves = page.evaluate("() => window.meja.logEvents.filter(e => ['play', 'draw', 'pass'].includes(e.kind))")
    assert len(flights) >= len(moves) - 1 and any("card-face" in f for f in flights), (len(moves), flights)
    if any(m["kind"] == "draw" and m["seat"] == 1 for m in moves):
        assert any("back" in f for f in flights), flights

    # The match is over (target 10): a winner banner, Rematch and Leave in view, not touching.
    page.wait_for_selector("#summary:not([hidden]) .result-banner")
    assert phase(page) == "match_over", page.evaluate("() => [window.meja.table.options, window.meja.view.scores]")
    winners = page.evaluate("() => window.meja.view.winners")
    heading = page.inner_text("#summary-title")
    assert heading == ("You win the match!" if winners == [0] else "Bot 2 wins the match"), heading
    assert page.locator("#winners").count() == 0  # said once: no "Winner: Bot 2" under it
    assert page.locator("#my-area").is_hidden()  # no empty hand panel under the result
    assert_controls_in_view(page, {"rematch", "leave-table"}, "the match's end")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        gap = page.evaluate(
            """() => { const a = document.getElementById('rematch').getBoundingClientRect();
                       const b = document.getElementById('leave-table').getBoundingClientRect();
                       const dx = Math.max(b.left - a.right, a.left - b.right);
                       const dy = Math.max(b.top - a.bottom, a.top - b.bottom);
                       return Math.max(dx, dy); }"""
        )
        assert gap >= 16, f"Rematch and Leave are {gap} px apart at {width}x{height}"
    page.set_viewport_size({"width": 1280, "height": 800})
    assert_clean_in_every_language(page, "match over")
    shot(page, "match-over")
    # Penalties card by card, in the round's table.
    result = page.evaluate("() => window.meja.view.last_round")
    loser = 1 if result["winner"] == 0 else 0
    assert page.locator(f'#scores tr[data-seat="{loser}"] .penalty-card').count() == len(result["hands"][loser])


def test_next_round_is_in_view_and_focus_stays_on_the_table(server: Any, new_context: Any, shot: Any) -> None:
    # A round to its end (target 100: the match goes on), by keyboard where it matters:
    # after Start the focus is on the hand; when Draw is disabled by a draw, focus goes to the hand.
    code = find_deal(2, lambda s: any(a.kind.wire == "play" for a in s.legal_actions(0)))
    page = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    host_table(page, server.origin, name="Sari", seats=2, deal_code=code)
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand button.card")
    page.wait_for_function("() => document.getElementById('hand').contains(document.activeElement)")
    page.evaluate(RECORD_BOXES)  # on the phone too, nothing may move while the turn goes back and forth
    wait_my_turn(page)
    first_in_felt = page.evaluate(IN_FELT)
    # The keys of the decision are listed on the page and work: D draws three times, then Draw is off.
    # (The line itself is not drawn on a touch screen, where it would only be cut off.)
    assert page.text_content("#keys-hint").startswith("Keys: D Draw · P Pass")
    assert not page.is_visible("#keys-hint")
    for left in (2, 1, 0):
        before = page.evaluate("() => window.meja.version")
        page.keyboard.press("d")
        page.wait_for_function("v => window.meja.version > v", arg=before)
        assert page.inner_text("#draw") == f"Draw ({left} left)"
    assert not page.is_enabled("#draw")
    assert page.evaluate("() => document.getElementById('hand').contains(document.activeElement)")
    # From the buttons back to the hand is one Shift+Tab away (the buttons follow the hand).
    if page.is_enabled("#pass"):
        page.focus("#pass")
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("() => document.getElementById('hand').contains(document.activeElement)")
    # Now play on, by touch, to the round's end.
    while phase(page) == "play":
        wait_my_turn(page)
        if phase(page) != "play":
            break
        cards = playable(page)
        if cards:
            before = page.evaluate("() => window.meja.version")
            click_card(page, cards[0])
            if page.is_visible("#suit-dialog"):
                page.click('#suit-dialog button[data-suit="S"]')
            page.wait_for_function("v => window.meja.version > v || window.meja.view.phase !== 'play'", arg=before)
        else:
            play_turn_mouse(page)
    boxes = page.evaluate("() => window.__boxes")
    assert {"Your turn", "Bot 2's turn"} <= {b["status"] for b in boxes}
    for key in ("hand", "pile", "stock", "opponent", "draw"):
        seen = {tuple(b[key]) for b in boxes if b[key] is not None}
        assert len(seen) == 1, f"the {key} box moved across turn changes on the phone: {sorted(seen)}"
    page.wait_for_selector("#summary:not([hidden])")
    if phase(page) == "round_over":
        assert_controls_in_view(page, {"next-round", "leave-table"}, "the round's end")  # leave between rounds too
        assert page.evaluate("() => document.activeElement.id") == "summary-title"
        shot(page, "round-over")
        page.click("#next-round")
        # The button is gone (waiting for the bot): the focus stays in the summary, not on the page.
        page.wait_for_function("() => !document.getElementById('next-round')")
        page.wait_for_function("() => document.activeElement !== document.body")
        # Round 2: the table comes back where it was, the page not scrolled (issue 20, point 11:
        # a phone's page stayed 90 px down, where the result had been brought up).
        page.wait_for_function("() => window.meja.view.round === 2 && window.meja.view.phase === 'play'")
        page.wait_for_selector("#summary", state="hidden")
        wait_my_turn(page)
        assert page.evaluate("() => window.scrollY") == 0
        # On the table the hand is where it was (the bar above it may lose round 1's "a deal the host
        # chose" line).
        in_felt = page.evaluate(IN_FELT)
        assert in_felt == first_in_felt, (in_felt, first_in_felt)


def test_a_long_caption_is_read_whole_on_a_phone(server: Any, new_context: Any) -> None:
    # The longest captions are a bot's 8 with the suit it named, in Vietnamese or Indonesian.
    page = new_context(viewport={"width": 390, "height": 844}).new_page()
    host_table(page, server.origin, name="Tuti", seats=2)
    start(page)
    height_before = page.evaluate("() => document.getElementById('move-caption').getBoundingClientRect().height")
    fits = page.evaluate(
        """() => {
            const latest = document.querySelector('#move-caption .latest')
                || document.getElementById('move-caption')
                    .appendChild(Object.assign(document.createElement('p'), {className: 'latest'}));
            latest.textContent = 'Bot 2 đã đánh 8♠ và gọi chất cơ, rồi bốc thêm hai lá';
            return {wide: latest.scrollWidth <= latest.clientWidth,
                    tall: latest.scrollHeight <= latest.clientHeight + 1,
                    lines: Math.round(latest.getBoundingClientRect().height
                                      / parseFloat(getComputedStyle(latest).lineHeight)),
                    height: document.getElementById('move-caption').getBoundingClientRect().height};
        }"""
    )
    assert fits["wide"] and fits["tall"] and fits["lines"] == 2, fits
    assert fits["height"] == height_before  # the caption's box keeps its size: nothing below it moves
