"""What a new user found wrong in the shell's words (their walk through Meja, items 7, 10, 13,
19 and 20), each checked in Chromium against the real server.

* The name field of the home page is empty for a newcomer, with a placeholder saying what to
  type (a pre-filled "Player" was joined with unnoticed); a name this browser used comes back.
* The log's time-limit lines name the seat at the head of the sentence, so "You" and "Kamu" read
  right there, say nothing of a "server", and no "You was made ready".
* A finished match in "Your recent matches" numbers its bots as the table does ("Bot 2"), and
  names its game by its title.
* The replay with every hand open is nobody's view: its captions and its round's headline name
  each seat, never "You".
"""

from __future__ import annotations

from typing import Any

from browser_helpers import play_in_thread, take

#: The shell's time-limit lines, and the one game that says the ready line its own way.
TIMEOUT_LINES = """async () => {
  const s = await import('/js/strings.js');
  const e83 = await import('/games/eighty_three/strings.js');
  const out = [];
  for (const lang of Object.keys(s.LANGUAGES)) {
    s.setLanguage(lang);
    const you = s.t('table.you');
    for (const who of [you, 'Dewi']) {
      for (const key of ['log.timeout.turn', 'log.timeout.ready']) {
        out.push({ lang, who, key, text: s.t(key, { who }) });
      }
      const own = e83.STRINGS[lang]['log.timeout.ready'];
      out.push({ lang, who, key: 'eighty_three', text: own.replace('{who}', who) });
    }
  }
  s.setLanguage('en');
  return out;
}"""


def test_the_name_field_is_empty_for_a_newcomer_and_keeps_a_known_name(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#name")
    assert page.input_value("#name") == ""
    assert page.get_attribute("#name", "placeholder") == "Type the name others will see"
    # An empty name is refused with the home page's own message, as before.
    page.evaluate("() => localStorage.setItem('meja.name', 'Sari')")
    page.reload()
    page.wait_for_selector("#name")
    assert page.input_value("#name") == "Sari"


def test_the_time_limit_lines_read_right_for_you_and_for_others(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    page.wait_for_selector("#name")
    lines = page.evaluate(TIMEOUT_LINES)
    assert len(lines) == 4 * 2 * 3
    for line in lines:
        text = line["text"]
        # the seat heads the sentence: "You ran out of time ...", "Kamu kehabisan waktu ..."
        assert text.startswith(line["who"] + " "), line
        assert text.count(line["who"]) == 1, line
        low = text.lower()
        for word in ("server", "máy chủ", "made ready", "dibuat siap", "was made", "satt klar"):
            assert word not in low, line


def test_recent_matches_number_the_bots_and_the_open_replay_names_every_seat(
    server: Any, new_context: Any, shot: Any
) -> None:
    codes = play_in_thread(server.origin)
    code = take(codes, 30)
    page = new_context().new_page()
    page.goto(f"{server.origin}/?watch={code}")
    table = take(codes, 180)
    page.locator("#replay-link").wait_for(timeout=30_000)

    # Home: the match this browser watched, its bot numbered as at the table.
    page.goto(server.origin + "/")
    item = page.locator("#replay-recent li").first
    item.wait_for()
    assert "Mira, Bot 2" in item.inner_text()
    # the game by its title, once the catalog came (it said "kartu_terakhir")
    page.wait_for_function("() => document.querySelector('#replay-recent li').textContent.startsWith('Kartu Terakhir')")
    assert "Bot," not in item.inner_text() and not item.inner_text().rstrip().endswith("Bot")
    shot(page, "newuser-recent")

    # The replay with every hand open: no seat is "You", in the captions or the headline.
    page.goto(f"{server.origin}/replay/{table['archive']}?seat=all")
    page.wait_for_function("() => document.getElementById('replay-position').textContent.length > 0")
    page.locator(".replay-open-hand").nth(1).wait_for()
    captions = []
    for n in range(1, 7):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("n => location.search === `?step=${n}&seat=all`", arg=n)
        captions.append(page.inner_text("#move-caption"))
    assert any("Mira" in c for c in captions), captions  # Mira moved in the first six steps
    for c in captions:
        assert not c.startswith("You") and " you" not in c.lower(), captions
    page.keyboard.press("End")
    page.locator("#replay-summary h3").wait_for()
    headline = page.inner_text("#replay-summary h3")
    assert headline.startswith(("Mira ", "Bot 2 ")), headline  # "Mira went out and scores ..."
    shot(page, "newuser-replay-open")
