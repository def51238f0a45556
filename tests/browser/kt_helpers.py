"""Kartu Terakhir in the browser: scripted deals, hosting through the form, and a player's turn.

Deals come from deal codes (the game's PROTOCOL.md section 8): :func:`find_deal` searches
seeds with the rules engine itself, the one the server runs, so a test knows the hands of
round 1 before the first card. The bots are whatever the game seats (today uniform over
the legal actions); nothing here depends on how they play.

A player's turn (:func:`take_turn`) is driven the way a person would, by mouse or by
keyboard only, and always through the page's own buttons and cards: the page must show
each choice (Last card, Catch, Draw 4 or Challenge, the colour chooser) for the test to
make it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from browser_helpers import open_more_options, tab_to, version, wait_version_after
from meja.games.kartu_terakhir.dealcode import DealSpec, encode
from meja.rules import get_game

GAME = get_game("kartu_terakhir")
COLOURS = ("R", "Y", "G", "B")


def find_deal(seats: int, dealer: int, predicate: Callable[[Any], bool], limit: int = 20_000) -> str:
    """The first deal code (``seats``, ``dealer``) whose round-1 state satisfies ``predicate``."""
    options = GAME.options()
    for seed in range(1, limit):
        code = encode(DealSpec(seats, dealer, seed))
        state = GAME.new_match(options, seats, 1, deal_code=code).state
        if predicate(state):
            return code
    raise AssertionError("no deal found")


def deal_view(code: str, seats: int, seat: int) -> dict[str, Any]:
    """Seat's wire view of round 1 of the deal ``code``."""
    return GAME.new_match(GAME.options(), seats, 1, deal_code=code).state.view(seat).to_wire()  # type: ignore[no-any-return]


def host_kt(
    page: Any,
    origin: str,
    *,
    name: str,
    seats: int,
    deal_code: str | None = None,
    reaction_ms: int | None = None,
    stacking: bool = False,
    match: str | None = None,
    bots: str | None = None,
) -> str:
    """Host a Kartu Terakhir table through the host form (mouse); returns the room code.
    ``bots``: the bots' level (the form's default otherwise)."""
    page.goto(origin + "/")
    page.fill("#name", name)
    if deal_code:
        # The page reads the code (the module's readDealCode): its game and seat count are
        # chosen in the form by the code alone.
        assert not page.is_checked("#game-kartu_terakhir")
        open_more_options(page)
        page.click(".deal-box summary")
        page.fill("#deal-code", deal_code)
        assert page.is_checked("#game-kartu_terakhir") and page.is_checked(f"#seats-{seats}")
    else:
        page.check("#game-kartu_terakhir")
        page.check(f"#seats-{seats}")
    # The form speaks the game's words: its rules in brief and its options' labels (strings.js).
    assert "2 to 10 players, 7 cards each" in page.inner_text("#rules-summary")
    assert page.text_content('label[for="opt-stacking"]') == "Stacking: answer a Draw card with a Draw card"
    if reaction_ms is not None or stacking or match or bots:
        open_more_options(page)
    if bots:
        page.select_option("#bots", bots)
    if match:
        page.check(f"#opt-match-{match}")
    if reaction_ms is not None:
        # (milliseconds on the wire, seconds in the form: the option's unit is "ms")
        page.fill("#opt-reaction_ms", f"{reaction_ms / 1000:g}")
    if stacking:
        page.check("#opt-stacking")
    page.click("#host")
    page.wait_for_selector("#room-code")
    return re.sub(r"\s", "", page.inner_text("#room-code"))


def join(page: Any, origin: str, room: str, name: str) -> None:
    page.goto(f"{origin}/?join={room}")
    page.fill("#name", name)
    page.click("#join")
    page.wait_for_selector("#room-code")


def view(page: Any) -> dict[str, Any]:
    return page.evaluate("() => window.meja.view")  # type: ignore[no-any-return]


def legal_kinds(page: Any) -> list[str]:
    return [str(a["kind"]) for a in (view(page) or {}).get("legal", [])]


def plays(page: Any) -> list[dict[str, Any]]:
    return [a for a in (view(page) or {}).get("legal", []) if a["kind"] == "play"]


def is_my_turn(page: Any) -> bool:
    return bool(
        page.evaluate(
            "() => { const v = window.meja.view; return !!v && v.phase === 'play' && v.turn === window.meja.seat; }"
        )
    )


def phase(page: Any) -> str | None:
    return page.evaluate("() => window.meja.view ? window.meja.view.phase : null")  # type: ignore[no-any-return]


#: The single keys the page lists for its buttons (English; strings.js "key.*").
KEYS = {
    "#draw": "d",
    "#keep": "k",
    "#pass": "p",
    "#take": "t",
    "#challenge": "h",
    "#call": "l",
    "#catch": "c",
    "#focus": "f",
}


def press(page: Any, selector: str, keyboard: bool, key: bool = False) -> None:
    """Press a button as a mouse user (click) or a keyboard user would: Tab to it and Enter, or
    (``key``) its single key as the page lists it."""
    assert page.is_visible(selector), f"{selector} is not shown"
    if keyboard and key:
        letter = KEYS[selector]
        assert page.get_attribute(selector, "aria-keyshortcuts") == letter.upper()
        page.keyboard.press(letter)
    elif keyboard:
        seen = []
        for _ in range(80):
            if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
                break
            page.keyboard.press("Tab")
            seen.append(page.evaluate("() => document.activeElement.id || document.activeElement.tagName"))
        else:
            hidden = page.evaluate("s => document.querySelector(s).hidden", selector)
            raise AssertionError(f"Tab never reached {selector} (hidden now: {hidden}); focus went {seen}")
        page.keyboard.press("Enter")
    else:
        page.click(selector)


def choose_card(page: Any, card: str, keyboard: bool) -> None:
    """Choose a card of the hand: click it where it shows, or Tab into the hand and arrow to it."""
    if keyboard:
        tab_to(page, "#hand button.card")
        page.keyboard.press("Home")
        cards = page.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)")
        for _ in range(cards.index(card)):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
        return
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
    assert point is not None, f"{card} shows nowhere"
    page.click(selector, position=point)


def choose_colour(page: Any, colour: str, keyboard: bool) -> None:
    """Answer the colour chooser (it must be open): arrows and Enter, or a click."""
    page.wait_for_selector("#colour-dialog[open]")
    if keyboard:
        page.wait_for_function("() => !!document.activeElement.dataset.colour")
        first = page.evaluate("() => document.activeElement.dataset.colour")
        steps = (COLOURS.index(colour) - COLOURS.index(first)) % 4
        for _ in range(steps):
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.dataset.colour") == colour
        page.keyboard.press("Enter")
    else:
        page.click(f'#colour-dialog button[data-colour="{colour}"]')


def best_colour(hand: list[str]) -> str:
    counts = {c: sum(1 for x in hand if x[0] == c and x not in ("W", "WD4")) for c in COLOURS}
    return max(COLOURS, key=lambda c: counts[c])


def play_card(page: Any, action: dict[str, Any], keyboard: bool, before: int | None = None) -> None:
    """Play a legal play action through the hand (and the colour chooser for a Wild with a colour)."""
    if before is None:
        before = version(page)
    choose_card(page, action["card"], keyboard)
    if action.get("colour"):
        choose_colour(page, action["colour"], keyboard)
    wait_version_after(page, before)


def pick_play(v: dict[str, Any]) -> dict[str, Any] | None:
    """The test players' policy on a view: a non-Wild first (highest points first), else a Wild
    naming the colour held most."""
    options = [a for a in v["legal"] if a["kind"] == "play"]
    if not options:
        return None
    plain = [a for a in options if not a.get("colour") and a["card"] not in ("W", "WD4")]
    if plain:
        return plain[-1]
    colour = best_colour(v["hand"])
    for a in options:
        if a.get("colour") in (None, colour):
            return a
    return options[0]
