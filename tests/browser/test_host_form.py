"""The host form is built from the catalog's option specs, and a deal code alone hosts its deal.

Cost: about 5 s.
"""

from __future__ import annotations

from typing import Any

from browser_helpers import open_more_options, set_language
from meja.games.crazy_eights.dealcode import DealSpec, encode


def test_option_specs_become_fields(server: Any, new_context: Any) -> None:
    # Crazy Eights has int and choice options; a bool option (no game has one yet) is a checkbox.
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    # The first screen holds the game, its rules, the table and the button; the rest is one click further.
    assert page.locator("#opt-target").is_hidden() and page.locator("#bots").is_hidden()
    open_more_options(page)
    assert page.get_attribute("#opt-target", "type") == "number"
    assert page.get_attribute("#opt-target", "min") == "10" and page.get_attribute("#opt-target", "max") == "1000"
    assert page.inner_text('label[for="opt-target"]') == "Match ends at (points)"  # the game's own words
    assert page.is_checked("#opt-match_mode-points") and not page.is_checked("#opt-match_mode-wins")
    # Every game of the catalog is a choice, named in the game's words, the server's default first.
    catalog = page.evaluate("() => window.meja.games.list.map(g => g.name)")
    radios = page.locator('input[name="game"][type="radio"]')
    assert [radios.nth(i).get_attribute("value") for i in range(radios.count())] == catalog
    assert page.is_checked("#game-crazy_eights") and page.inner_text('label[for="game-crazy_eights"]') == "Crazy Eights"
    # The options box is named for the rules chosen (never "House" options under other rules).
    assert page.inner_text("#options-legend") == "Options for these rules: House (the table's own rules)"
    page.select_option("#preset", "classic")
    assert page.inner_text("#options-legend") == "Options for these rules: Classic"
    assert page.locator("#opt-drawn_card_play-forced").count() == 1
    page.select_option("#preset", "house")
    field = page.evaluate(
        """() => {
            const desc = {name: "no_such_game"};
            const loud = {name: "loud", type: "bool", default: true, label: "option.loud"};
            const box = window.meja.optionField(desc, loud);
            const radios = window.meja.optionField(desc, {name: "side", type: "choice", default: "far_left",
                                                          choices: ["near", "far_left"], label: "option.side"});
            const input = box.querySelector("input");
            return {type: input.type, checked: input.checked, label: box.querySelector("label").textContent,
                    legend: radios.querySelector(".label").textContent,
                    choices: Array.from(radios.querySelectorAll("label")).map(l => l.textContent),
                    picked: radios.querySelector("input:checked").value};
        }"""
    )
    assert field == {
        "type": "checkbox", "checked": True, "label": "Loud",
        "legend": "Side", "choices": ["Near", "Far left"], "picked": "far_left",
    }  # fmt: skip


def test_a_deal_code_alone_hosts_its_deal(server: Any, new_context: Any, shot: Any) -> None:
    code = encode(DealSpec("party", 4, 1, 77))
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    page.fill("#name", "Wati")
    open_more_options(page)
    page.click(".deal-box summary")
    page.fill("#deal-code", code.lower())
    # The form shows what the code deals...
    assert page.input_value("#preset") == "party" and page.is_checked("#seats-4")
    shot(page, "home-deal-code")
    # ... but the code alone is enough: with the form moved to other rules, only the code is sent.
    page.select_option("#preset", "house")
    request = page.evaluate("() => window.meja.hostRequest(document.getElementById('host-form'))")
    assert request == {"type": "host", "deal_code": code.lower(), "bots": "normal"}
    page.click("#host")
    page.wait_for_selector("#room-code")
    terms = page.locator("#table-rules dt").all_inner_texts()
    rules = dict(zip(terms, page.locator("#table-rules dd").all_inner_texts(), strict=True))
    assert rules["Rules"] == "Party"
    # A deal the host chose is said so before the first card (PROTOCOL.md 12).
    chosen = "Round 1 is a deal the host chose with a deal code: the host may know every hand."
    assert rules["Deal code"].startswith(chosen)
    assert page.locator("#seats li").count() == 4
    shot(page, "lobby-party-deal")
    table = page.evaluate("() => window.meja.table")
    assert (table["game"], table["preset"], len(table["seats"])) == ("crazy_eights", "party", 4)


def test_the_language_switch_keeps_the_form(server: Any, new_context: Any) -> None:
    """Issue 20, point 4: changing the language on the home page drew the form afresh, and the
    name, the game, the seats and the options the host had set were gone."""
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#host")
    page.fill("#name", "Sari")
    page.check("#game-kartu_terakhir")
    page.check("#seats-5")
    open_more_options(page)
    page.check("#opt-stacking")
    # Issue 26, point 1 and issue 20: a wait in milliseconds on the wire (its spec's unit "ms") is
    # shown and typed in seconds, the unit's word beside it, never "(ms)" or 1500.
    assert "(ms)" not in page.inner_text("label[for=opt-reaction_ms]")
    assert page.input_value("#opt-reaction_ms") == "1.5" and page.get_attribute("#opt-reaction_ms", "max") == "5"
    assert page.get_attribute("#opt-reaction_ms", "step") == "0.1"
    assert page.inner_text("#opt-reaction_ms-unit") == "seconds"
    page.fill("#opt-reaction_ms", "2.5")
    page.select_option("#turn-limit", "30")
    page.fill("#code", "ab12")
    for lang, host in (("id", "Buka meja"), ("nb", None), ("en", "Host the table")):
        set_language(page, lang)
        if host:
            assert page.inner_text("#host") == host  # drawn again, in the new words
        assert page.input_value("#name") == "Sari"
        assert page.is_checked("#game-kartu_terakhir") and page.is_checked("#seats-5")
        assert page.evaluate("() => document.getElementById('more-options').open")
        assert page.is_checked("#opt-stacking") and page.input_value("#opt-reaction_ms") == "2.5"
        assert page.inner_text("#opt-reaction_ms-unit") == {"id": "detik", "nb": "sekunder", "en": "seconds"}[lang]
        assert page.input_value("#turn-limit") == "30" and page.input_value("#code") == "ab12"
    # What is kept is what is sent: the table is hosted with it.
    page.click("#host")
    page.wait_for_selector("#room-code")
    table = page.evaluate("() => window.meja.table")
    assert table["game"] == "kartu_terakhir" and len(table["seats"]) == 5 and table["turn_limit_s"] == 30
    assert table["options"]["stacking"] is True and table["options"]["reaction_ms"] == 2500
    assert page.inner_text('#table-rules dd[data-key="reaction_ms"]') == "2.5 s"  # the lobby says it so too
