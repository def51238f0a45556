"""The lesson's first step counts the learner's cards as the lesson deals them (a new user's trial,
h6 F5: "seven hearts" over a hand of six hearts, seven trumps once the 5 of diamonds is counted)."""

from __future__ import annotations

import re
from pathlib import Path

from meja.games.eighty_three import lessons
from meja.games.eighty_three.rules import NAMES, parse_cards
from meja.games.eighty_three.rules.tables import is_trump

STRINGS = Path(lessons.__file__).with_name("page") / "strings.js"

#: each language's words for the two counts, in the order strings.js holds the languages
WORDS = {
    "en": {"hearts": "{n} hearts", "trumps": "{n} trumps", 6: "six", 7: "seven"},
    "id": {"hearts": "{n} hati", "trumps": "{n} truf", 6: "enam", 7: "tujuh"},
    "vi": {"hearts": "{n} lá cơ", "trumps": "{n} lá chủ", 6: "sáu", 7: "bảy"},
    "nb": {"hearts": "{n} hjerter", "trumps": "{n} trumfer", 6: "seks", 7: "sju"},
}


def test_the_auction_step_counts_the_hearts_and_trumps_it_deals() -> None:
    cards = parse_cards(lessons._MINE)
    hearts = sum(NAMES[c].endswith("H") for c in cards)
    trumps = sum(is_trump(c, lessons.HEARTS) for c in cards)
    assert (hearts, trumps) == (6, 7)  # the 5 of diamonds is the seventh trump
    asks = re.findall(r'"learn\.bid\.ask": "([^"]*)"', STRINGS.read_text(encoding="utf-8"))
    assert len(asks) == len(WORDS)
    for (lang, words), text in zip(WORDS.items(), asks, strict=True):
        for what, n in (("hearts", hearts), ("trumps", trumps)):
            said = str(words[what]).format(n=words[n])
            assert said in text.lower(), (lang, said, text)
