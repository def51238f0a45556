"""Driving the client as players do (mouse or keyboard), and finding scripted deals.

Scripted deals: the tests host tables with a deal code (docs/rules/crazy-eights.md 1.9.3), so a
situation the test needs is in front of the human player from the first turn. The codes
are not hard-coded: :func:`find_deal` searches seeds with the rules engine itself
(``meja.rules``), the same engine the server runs, so the tests also know what the rules
say about each step (:func:`engine_after`).
"""

from __future__ import annotations

import asyncio
import queue
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from meja.games.crazy_eights.dealcode import DealSpec, encode
from meja.games.crazy_eights.rules import DRAW, CrazyEightsState
from meja.rules import get_game
from meja_client import Player, connect

GAME = get_game("crazy_eights")


def find_deal(
    seats: int, predicate: Callable[[CrazyEightsState], bool], limit: int = 20_000, preset: str = "house"
) -> str:
    """The first deal code of ``preset`` (seat 0 leads) whose round-1 state satisfies ``predicate``."""
    options = GAME.options(preset)
    for seed in range(1, limit):
        code = encode(DealSpec(preset, seats, 0, seed))
        state = GAME.new_match(options, seats, 1, deal_code=code).state
        if predicate(state):
            return code
    raise AssertionError("no deal found")


def deal_state(code: str, seats: int, preset: str = "house") -> CrazyEightsState:
    return GAME.new_match(GAME.options(preset), seats, 1, deal_code=code).state


def is_stuck(state: CrazyEightsState, seat: int = 0) -> bool:
    return not any(a.kind.wire == "play" for a in state.legal_actions(seat))


def engine_after(state: CrazyEightsState, draws: int, seat: int = 0) -> dict[str, Any]:
    """Seat's wire view after ``draws`` draws (what the rules say the buttons must show)."""
    for _ in range(draws):
        state = state.apply(seat, DRAW).state
    return state.view(seat).to_wire()


# --------------------------------------------------------------------------- page helpers


def version(page: Any) -> int:
    return int(page.evaluate("() => window.meja.version"))


def wait_version_after(page: Any, before: int) -> None:
    page.wait_for_function("v => window.meja.version > v", arg=before)


def hand(page: Any) -> list[str]:
    return [str(x) for x in page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")]


def hand_names(page: Any) -> list[str]:
    names = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.getAttribute('aria-label'))")
    return [str(x) for x in names]


def playable(page: Any) -> list[str]:
    return [
        str(x)
        for x in page.eval_on_selector_all(
            "#hand button.card:not([aria-disabled])", "els => els.map(e => e.dataset.card)"
        )
    ]


def is_my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            "() => { const v = window.meja.view; return !!v && v.phase === 'play' && v.turn === window.meja.seat; }"
        )
    )


def phase(page: Any) -> str | None:
    return page.evaluate("() => window.meja.view ? window.meja.view.phase : null")  # type: ignore[no-any-return]


def open_more_options(page: Any) -> None:
    """Open the host form's "bots, options and deal code" disclosure (if it is not open)."""
    if not page.evaluate("() => document.getElementById('more-options').open"):
        page.click("#more-options > summary")


def host_table(
    page: Any, origin: str, *, name: str, seats: int, deal_code: str | None = None, target: int | None = None
) -> str:
    """Host a house table from the home screen (mouse); returns the room code. ``target``: the
    match's points (a low one ends the match after a round)."""
    page.goto(origin + "/")
    page.fill("#name", name)
    page.check(f"#seats-{seats}")
    if deal_code:
        open_more_options(page)
        page.click(".deal-box summary")
        page.fill("#deal-code", deal_code)
    if target is not None:
        open_more_options(page)
        page.fill("#opt-target", str(target))
    page.click("#host")
    page.wait_for_selector("#room-code")
    return re.sub(r"\s", "", page.inner_text("#room-code"))


def join_by_link(page: Any, origin: str, room: str, name: str) -> None:
    """A guest opens the invite link of ``room``, types ``name`` and presses Join (mouse)."""
    page.goto(f"{origin}/?join={room}")
    page.fill("#name", name)
    page.click("#join")


def watch_by_code(page: Any, origin: str, room: str) -> None:
    """A spectator types the room code on the home screen and presses Watch (mouse)."""
    page.goto(origin + "/")
    page.fill("#code", room)
    page.click("#watch")


SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def short(card: str) -> str:
    """A card as the caption writes it: "8♠", "10♥"."""
    return card[:-1] + SIGNS[card[-1]]


def wait_my_turn(page: Any, timeout_s: float = 20.0) -> None:
    page.wait_for_function(
        "() => { const v = window.meja.view; return !!v && (v.phase !== 'play' || v.turn === window.meja.seat); }",
        timeout=timeout_s * 1000,
    )


def grow_hand_to(page: Any, size: int) -> None:
    """Take turns (draw while allowed, else play, else pass) until it is this seat's turn with ``size`` cards."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the hand did not grow"
        wait_my_turn(page)
        assert phase(page) == "play", f"the round ended before the hand held {size} cards"
        if len(hand(page)) >= size:
            return
        before = version(page)
        if page.is_enabled("#draw"):
            page.click("#draw")
        elif playable(page):
            click_card(page, choose_card(playable(page)))
            if page.is_visible("#suit-dialog"):
                page.click('#suit-dialog button[data-suit="C"]')
        else:
            page.click("#pass")
        wait_version_after(page, before)


def start(page: Any) -> None:
    page.click("#start")
    page.wait_for_selector("#hand button.card")


def tab_to(page: Any, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches ``selector`` (keyboard only)."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector!r}")


SUITS = ("S", "H", "D", "C")


def choose_card(cards: list[str]) -> str:
    """The human's policy in the tests: the first playable non-8, else the first 8."""
    for c in cards:
        if not c.startswith("8"):
            return c
    return cards[0]


def click_card(page: Any, card: str) -> None:
    """Click a card of the hand where it shows: the hand is a fan, each card under the next
    one but for its left strip (and the keyboard's card in front): the first point, from the
    left, where the card itself is what the pointer would hit."""
    selector = f'#hand button.card[data-card="{card}"]'
    point = page.evaluate(
        """s => {
            const b = document.querySelector(s);
            b.scrollIntoView({block: 'nearest'});
            const r = b.getBoundingClientRect();
            for (let x = 4; x < r.width; x += 4) {
                const hit = document.elementFromPoint(r.left + x, r.top + r.height / 2);
                if (hit && hit.closest('button.card') === b) return {x, y: r.height / 2};
            }
            return null;
        }""",
        selector,
    )
    assert point is not None, f"{card} shows nowhere: another card covers it whole"
    page.click(selector, position=point)


def play_turn_mouse(page: Any, suit: str = "C") -> str:
    """One action by mouse: play a card (naming ``suit`` for an 8), else draw, else pass."""
    before = version(page)
    cards = playable(page)
    if cards:
        card = choose_card(cards)
        click_card(page, card)
        if card.startswith("8") and page.is_visible("#suit-dialog"):
            page.click(f'#suit-dialog button[data-suit="{suit}"]')
        done = f"play {card}"
    elif page.is_enabled("#draw"):
        page.click("#draw")
        done = "draw"
    else:
        page.click("#pass")
        done = "pass"
    wait_version_after(page, before)
    return done


def play_turn_keyboard(page: Any, suit: str = "H") -> str:
    """One action by keyboard only: Tab into the hand, arrows to the card, Enter."""
    before = version(page)
    cards = playable(page)
    if cards:
        card = choose_card(cards)
        tab_to(page, "#hand button.card")
        page.keyboard.press("Home")
        target = hand(page).index(card)
        for _ in range(target):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
        if card.startswith("8"):
            page.wait_for_selector("#suit-dialog[open]")
            for _ in range(SUITS.index(suit)):
                page.keyboard.press("ArrowRight")
            assert page.evaluate("() => document.activeElement.dataset.suit") == suit
            page.keyboard.press("Enter")
        done = f"play {card}"
    elif page.is_enabled("#draw"):
        tab_to(page, "#draw")
        page.keyboard.press("Enter")
        done = "draw"
    else:
        tab_to(page, "#pass")
        page.keyboard.press("Enter")
        done = "pass"
    wait_version_after(page, before)
    return done


ROUND_OVER = ("round_over", "match_over")


def play_until_round_over(pages: list[tuple[Any, Any]], timeout_s: float = 180.0) -> list[str]:
    """Each (page, play_turn) acts whenever it is that page's turn, until the round is over."""
    done: list[str] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if all(phase(p) in ROUND_OVER for p, _ in pages):
            return done
        acted = False
        for page, play_turn in pages:
            if phase(page) not in ROUND_OVER and is_my_turn(page):
                done.append(play_turn(page))
                acted = True
        if not acted:
            pages[0][0].wait_for_timeout(40)
    raise AssertionError(f"the round did not end in {timeout_s} s; actions: {done[-20:]}")


def play_until_match_over(pages: list[tuple[Any, Any]], rounds: int = 6) -> None:
    """Play rounds as :func:`play_until_round_over` does, each page pressing Next round after one,
    until the match is over: a low target usually ends it with the first round, but a round whose
    loser holds few points does not (a random deal timed a test out that way)."""
    first = pages[0][0]
    for _ in range(rounds):
        play_until_round_over(pages)
        if phase(first) == "match_over":
            return
        for page, _ in pages:
            page.wait_for_selector("#next-round")
            page.click("#next-round")
        first.wait_for_function("() => window.meja.view.phase !== 'round_over'")
    raise AssertionError(f"the match did not end in {rounds} rounds")


# --------------------------------------------------------------------------- accessibility

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def audit(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, once the pieces in flight have landed (a
    piece is faint over words and fades as it lands: a decorative copy, hidden from assistive
    technology, of what the caption says, which axe would measure mid-fade)."""
    page.wait_for_function("() => !document.querySelector('.motion-layer > *')")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE)
    return page.evaluate(  # type: ignore[no-any-return]
        """async () => {
            const r = await axe.run(document, {resultTypes: ["violations"]});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                           targets: v.nodes.map(n => n.target.join(" "))}));
        }"""
    )


def assert_clean(page: Any, screen: str) -> None:
    violations = audit(page)
    assert violations == [], f"axe violations on the {screen} screen: {violations}"


#: The page's languages (strings.js LANGUAGES).
LANGUAGES = ("en", "id", "vi", "nb")


#: Two rendering frames, waited for at most a second (a CI run hung for good on a promise of two
#: frames when no frame came after a screenshot): ``page.evaluate(TWO_FRAMES)``.
TWO_FRAMES = "() => new Promise((r) => { requestAnimationFrame(() => requestAnimationFrame(r)); setTimeout(r, 1000); })"


def set_language(page: Any, lang: str) -> None:
    """Choose the page's language in its menu (by script, so that it works while a modal dialog is open)."""
    page.evaluate(
        "l => { const s = document.getElementById('lang'); s.value = l; s.dispatchEvent(new Event('change')); }", lang
    )
    assert page.evaluate("() => document.documentElement.lang") == lang


def assert_clean_in_every_language(page: Any, screen: str) -> None:
    """axe-core finds nothing on the screen in each of the page's languages; English again after."""
    for lang in LANGUAGES:
        set_language(page, lang)
        assert_clean(page, f"{screen} ({lang})")
    set_language(page, "en")


# --------------------------------------------------------------------------- a suggested move

#: What the page shows of a suggested move: the action the server suggested (the screen keeps
#: it until the next update), and the control ringed for it.
HINT_SHOWN = """() => {
    const s = window.meja.tableScreen;
    const n = document.querySelector('.hint-target');
    if (!s || !s.hint || !n) return null;
    return {action: s.hint.action, version: s.hint.version, current: window.meja.version,
            legal: window.meja.view.legal, focused: document.activeElement === n,
            card: n.dataset.card || null, id: n.id || null, suit: n.dataset.suit || null,
            said: document.getElementById('hint-live').textContent};
}"""


def ask_hint(page: Any) -> dict[str, Any]:
    """Press "Suggest a move" (by mouse): the server's move for this version is one of the view's
    legal actions, its control is ringed and focused, and a screen reader is told it in words.
    Returns what :data:`HINT_SHOWN` says; a card control names the action's card."""
    page.click("#hint-button")
    page.wait_for_function(f"() => {{ const h = ({HINT_SHOWN})(); return !!h && h.said !== ''; }}")
    shown = page.evaluate(HINT_SHOWN)
    assert shown["version"] == shown["current"] and shown["action"] in shown["legal"], shown
    assert shown["focused"], shown
    assert shown["said"].startswith("Suggested move: ") and len(shown["said"]) > len("Suggested move: "), shown
    if shown["card"]:
        assert shown["action"].get("card") == shown["card"], shown
    return shown


def press_hinted(page: Any) -> None:
    """Press the ringed control (Enter: it has the focus) and see the table move on: it sent a
    legal action. A card that asks a question first (an 8's suit) gets the answer the chooser
    focused: the suggested one, ringed as the card was."""
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_function("v => window.meja.version > v || !!document.querySelector('dialog[open]')", arg=before)
    if page.evaluate("() => !!document.querySelector('dialog[open]')"):
        page.keyboard.press("Enter")
    wait_version_after(page, before)


def open_chat(page: Any) -> None:
    """Open the chat panel where it is folded away, and wait until it shows.

    The toggle is read once it is drawn: a page still coming up showed no panel yet, the old
    check clicked the toggle, and a wide screen (whose panel opens by itself) closed it."""
    page.wait_for_selector("#chat-toggle", state="visible")
    if page.get_attribute("#chat-toggle", "aria-expanded") != "true":
        page.click("#chat-toggle")
    page.wait_for_selector("#chat-panel", state="visible")


def say(page: Any, text: str) -> None:
    """Say a chat line (the chat opened first where it is folded away); it is sent once the box empties."""
    open_chat(page)
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")
    page.wait_for_function("() => document.getElementById('chat-input').value === ''")


def turn_hints_off(page: Any) -> None:
    """The host unticks "Allow suggested moves" at the table (when the seat has a move to make): the button goes."""
    page.wait_for_selector("#hint-button", state="visible")
    open_chat(page)
    if not page.is_visible("#live-talk-hints"):
        page.click("#talk-people-box > summary")
    page.uncheck("#live-talk-hints")
    page.wait_for_selector("#hint-button", state="hidden")
    assert page.locator("#hint-button").count() == 1 and not page.evaluate("() => window.meja.table.talk.hints")


# --------------------------------------------------------------------------- a person at a table, in Python


def play_in_thread(
    origin: str,
    *,
    game: str = "kartu_terakhir",
    seats: int = 2,
    options: dict[str, Any] | None = None,
    wait_s: float = 1.5,
) -> queue.Queue[Any]:
    """Host a table for one person (the Python client, "Mira") and normal bots, start it after
    ``wait_s`` (a page comes to watch first), play the person's seat to the match's end (its first
    legal action), in a thread and loop of its own. The queue gets the room code, then the table
    map once it names the match's archive (written just after the end), or the exception that
    stopped it: :func:`take` them."""
    codes: queue.Queue[Any] = queue.Queue()

    async def run() -> None:
        async with connect(origin.replace("http", "ws") + "/ws") as client:
            await client.host(name="Mira", game=game, seats=seats, bots="normal", options=options)
            codes.put(client.code)
            await asyncio.sleep(wait_s)
            await client.start()
            await Player(client, turn_timeout=60).run()
            await client.wait_for(lambda c: "archive" in (c.table or {}), 60)
            codes.put(client.table)

    def main() -> None:
        try:
            asyncio.run(run())
        except Exception as exc:  # the test fails on it, not the thread
            codes.put(exc)

    threading.Thread(target=main, daemon=True).start()
    return codes


def take(codes: queue.Queue[Any], timeout: float) -> Any:
    """The next thing :func:`play_in_thread` put, or its exception raised here."""
    item = codes.get(timeout=timeout)
    if isinstance(item, Exception):
        raise item
    return item
