"""Kartu Terakhir and Crazy Eights on a phone (390x844): what a decision needs is whole and in view.

Issue 20 (a new-user trial at 390x844):
* labels were cut with an ellipsis: the turn line after a draw ("Play the drawn car…") and
  Indonesian's Wild Draw Four question ("Ambil 4 atau ta…"). Here the turn line and every
  button and line the game draws for the decision must be whole (scrollWidth <= clientWidth)
  in all four languages;
* the answers to a Wild Draw Four (Draw 4, Challenge) fell below the fold, under the words that
  explain them; the refusal said after a card that may not be played must show too. Both
  must lie in the viewport as the page stands, without scrolling, in all four languages;
* with stacking off, the refusal of a card while a Wild Draw Four waits said "answer it with a
  Draw card" (no card may answer it there).

Cost: about 40 s (three tables, a phone each).
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LANGUAGES, set_language, version, wait_version_after
from browser_helpers import find_deal as find_ce_deal
from browser_helpers import host_table as host_ce
from kt_helpers import find_deal, host_kt, join, play_card, view

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: Each shown element of the selectors, with whether its text is cut (wider than its box) and
#: whether it lies wholly in the viewport as the page stands (no scrolling by the test: after
#: two frames, for what the page does itself once a frame is drawn).
MEASURE = """async sels => {
  await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const out = [];
  for (const sel of sels) {
    for (const e of document.querySelectorAll(sel)) {
      const r = e.getBoundingClientRect();
      if (e.closest('[hidden]') || (r.width === 0 && r.height === 0)) continue;
      out.push({sel, id: e.id, text: e.innerText, cut: e.scrollWidth > e.clientWidth,
                inView: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth,
                box: [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]});
    }
  }
  return out;
}"""


def measure(page: Any, selectors: list[str]) -> list[dict[str, Any]]:
    return page.evaluate(MEASURE, selectors)  # type: ignore[no-any-return]


def assert_whole(page: Any, selectors: list[str], in_view: list[str], what: str) -> None:
    """In every language: no element of ``selectors`` is cut, and those of ``in_view`` show without scrolling."""
    for lang in LANGUAGES:
        set_language(page, lang)
        seen = measure(page, selectors + in_view)
        assert {m["sel"] for m in seen} >= set(in_view), (what, lang, seen)
        cut = [m for m in seen if m["cut"]]
        assert not cut, f"{what} ({lang}): cut {cut}"
        below = [m for m in seen if m["sel"] in in_view and not m["inView"]]
        assert not below, f"{what} ({lang}): not in view {below}"
    set_language(page, "en")


#: The turn line with each of the game's status words (a bot's name, a +4), measured in place
#: and put back: [key, cut]. ``alone``: "Suggest a move" hidden, as on another seat's turn.
STATUS_CUT = """([keys, alone]) => {
  const s = document.getElementById('turn-status'), hint = document.getElementById('hint-button');
  const text = s.textContent, hidden = hint.hidden;
  if (alone) hint.hidden = true;
  const out = keys.map(k => {
    s.textContent = window.meja.tableScreen.game.t(k, {name: 'Bot 2', n: 4, card: '+4'});
    return [k, s.textContent, s.scrollWidth > s.clientWidth];
  });
  s.textContent = text;
  hint.hidden = hidden;
  return out;
}"""
#: What the turn line says on this seat's own decision ("Suggest a move" beside it) ...
MINE = ["status.catch", "status.call_now", "status.challenge", "status.pending_you", "status.take_you", "status.drew"]
#: ... and on another seat's turn (the line alone).
THEIRS = ["status.pending_other", "status.challenge_other", "status.react", "table.turn_of"]


def tap_unplayable(page: Any) -> str:
    """Tap a card of the hand that no legal play names (as a finger would: a click on it); its card."""
    v = view(page)
    card = next(c for c in v["hand"] if not any(a.get("card") == c for a in v["legal"]))
    page.evaluate("c => document.querySelector(`#hand button.card[data-card='${c}']`).click()", card)
    page.wait_for_function("() => document.getElementById('play-notice').textContent !== ''")
    return card


def test_a_drawn_card_on_a_phone(server: Any, new_context: Any) -> None:
    """Budi draws a card that fits: the turn line, Keep and the reason are whole and in view."""

    def fits_after_draw(s: Any) -> bool:
        draws = [a for a in s.legal_actions(0) if a.kind.wire == "draw"]
        if not draws:
            return False
        v = s.apply(0, draws[0]).state.view(0).to_wire()
        return bool(v.get("drew")) and any(a["kind"] == "play" for a in v["legal"])

    phone = new_context(**PHONE).new_page()
    host_kt(phone, server.origin, name="Budi", seats=2, deal_code=find_deal(2, 1, fits_after_draw))
    phone.click("#start")
    phone.wait_for_selector("#hand button.card")
    before = version(phone)
    phone.click("#draw")
    wait_version_after(phone, before)
    phone.wait_for_selector("#keep:visible")
    v = view(phone)
    assert v["drew"] and v["drawn"]
    assert phone.inner_text("#turn-status").startswith("Play ")
    assert_whole(phone, ["#turn-status", "#kt-actions button"], ["#keep", "#turn-reason"], "a drawn card")
    # Every other turn line the game says, with a bot's name, fits too (the hint button shown: it is).
    assert phone.is_visible("#hint-button")
    for lang in LANGUAGES:
        set_language(phone, lang)
        cut = phone.evaluate(STATUS_CUT, [MINE, False]) + phone.evaluate(STATUS_CUT, [THEIRS, True])
        assert not [c for c in cut if c[2]], (lang, cut)
    set_language(phone, "en")


@pytest.mark.parametrize("seats", [4, 10])
def test_a_wild_draw_four_on_a_phone(server: Any, new_context: Any, seats: int) -> None:
    """Ana (a laptop) plays a Wild Draw Four on Budi (a phone) at four seats: his question, Draw 4
    and Challenge are whole and in view; a card he taps is refused in words that fit the table."""

    def wd4_first(s: Any) -> bool:
        v = s.view(0).to_wire()
        return v["turn"] == 0 and any(a["kind"] == "play" and a["card"] == "WD4" for a in v["legal"])

    ana = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_kt(ana, server.origin, name="Ana", seats=seats, deal_code=find_deal(seats, seats - 1, wd4_first))
    budi = new_context(**PHONE).new_page()
    join(budi, server.origin, room, "Budi")
    ana.wait_for_selector('#seats li[data-seat="1"]:has-text("Budi")')
    ana.click("#start")
    ana.wait_for_selector("#hand button.card")
    budi.wait_for_selector("#hand button.card")
    action = next(a for a in view(ana)["legal"] if a["kind"] == "play" and a["card"] == "WD4")
    play_card(ana, action, keyboard=False)
    budi.wait_for_selector("#challenge:visible")
    assert budi.inner_text("#turn-status") == "Challenge +4?"
    assert budi.inner_text("#take") == "Draw 4"
    assert_whole(budi, ["#turn-status", "#kt-actions button"], ["#take", "#challenge"], "a Wild Draw Four")
    # A card while the Wild Draw Four waits: refused, in view, and never "answer it with a Draw card".
    tap_unplayable(budi)
    notice = budi.inner_text("#play-notice")
    assert notice == "First draw 4 or challenge: no card answers a Wild Draw Four here.", notice
    assert measure(budi, ["#play-notice"])[0]["inView"]


def test_crazy_eights_on_a_phone(server: Any, new_context: Any) -> None:
    """Crazy Eights at three seats on a phone: the turn line, Draw and Pass whole; a refused card said in view."""

    def mixed_hand(s: Any) -> bool:
        v = s.view(0).to_wire()
        plays = {a["card"] for a in v["legal"] if a["kind"] == "play"}
        return v["turn"] == 0 and bool(plays) and len(plays) < len(set(v["hand"]))

    phone = new_context(**PHONE).new_page()
    host_ce(phone, server.origin, name="Citra", seats=3, deal_code=find_ce_deal(3, mixed_hand))
    phone.click("#start")
    phone.wait_for_selector("#hand button.card")
    phone.wait_for_function("() => window.meja.view.turn === window.meja.seat")
    assert_whole(phone, ["#turn-status", ".actions button", ".actions .reason"], ["#draw", "#pass"], "a turn")
    cut = []
    for lang in LANGUAGES:
        set_language(phone, lang)
        said = phone.evaluate(STATUS_CUT, [["table.your_turn", "table.choosing_you"], False])
        said += phone.evaluate(STATUS_CUT, [["table.turn_of", "table.choosing"], True])
        cut += [(lang, c) for c in said if c[2]]
    set_language(phone, "en")
    assert not cut, cut
    card = tap_unplayable(phone)
    assert "does not fit" in phone.inner_text("#play-notice"), card
    assert measure(phone, ["#play-notice"])[0]["inView"]


def test_indonesian_says_babak_for_a_round() -> None:
    """Issue 20: the page says "Babak" for a round (the shell's "Babak {n}"); Kartu Terakhir's
    round's first card and the match options said "putaran". No browser: the strings file as text."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "server/meja/games/kartu_terakhir/page/strings.js").read_text("utf-8")
    indonesian = text[text.index("\n  id: {") : text.index("\n  vi: {")]
    assert "Putaran" not in indonesian and "putaran" not in indonesian
    assert '"move.round_start": "Babak {round}' in indonesian


def test_four_opponents_on_a_phone_each_have_a_readable_box(server: Any, new_context: Any) -> None:
    """Five seats on a phone: the four other seats share one row as equals (a new user's trial,
    2026-12-07: the two across the table got 54 px each, their counts cut to "9 c…", beside two
    of 115 px). Each box is as wide as the others, and its name and count are whole, in every
    language."""
    phone = new_context(**PHONE).new_page()
    host_kt(phone, server.origin, name="Rizky", seats=5)
    phone.click("#start")
    phone.wait_for_selector("#hand button.card")
    widths = phone.evaluate("() => [...document.querySelectorAll('#opponents .seat-box')].map(b => b.clientWidth)")
    assert len(widths) == 4 and max(widths) - min(widths) <= 4, widths
    assert_whole(phone, ["#opponents .seat-who", "#opponents .seat-stats"], [], "four other seats")
