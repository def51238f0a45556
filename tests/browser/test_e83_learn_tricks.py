"""Eighty-Three's guide says the trick each of its last two steps shows (issue 20, a new-user trial).

Steps 4 and 5 both showed "Trick 5": the steps are two positions of the tricks, and a newcomer
read the second as the first again. Now step 4 is trick 4 (three cards in the learner's hand) and
step 5 trick 5 (two), and each question opens with the trick the table's note says, in each of
the page's four languages.

Cost: the guide's five steps by keyboard, once (about 10 s).
"""

from __future__ import annotations

from typing import Any

from browser_helpers import LANGUAGES, set_language, tab_to
from test_learn import make, moves, verdict

GAME = "eighty_three"


def test_e83_guide_says_the_trick_each_step_shows(server: Any, new_context: Any) -> None:
    page = new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(server.origin + "/")
    tab_to(page, f'#learn-links a[data-game="{GAME}"]')
    page.keyboard.press("Enter")
    said: dict[int, dict[str, tuple[str, str]]] = {}
    for step in range(5):
        page.wait_for_selector(f"#learn-progress:text-is('Step {step + 1} of 5')")
        if step >= 3:
            said[step] = {}
            for lang in LANGUAGES:
                set_language(page, lang)
                note = page.inner_text("#trick-note").split(" · ")[0]
                said[step][lang] = (note, page.inner_text("#learn-ask"))
            set_language(page, "en")
        make(page, moves(GAME, step)[0])
        verdict(page, "right")
        if step < 4:
            page.keyboard.press("Enter")
    assert said[3]["en"][0] == "Trick 4 of 6" and said[4]["en"][0] == "Trick 5 of 6", said
    for step in (3, 4):
        for lang, (note, ask) in said[step].items():
            assert ask.startswith(note + ":"), (step, lang, note, ask)
    assert page.locator("#hand button.card").count() == 1  # trick 5: two cards, one played
