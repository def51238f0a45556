"""Display names (server/meja/server/names.py; issue 12, finding 9).

A hostile player found that invisible names (U+3164, U+2800, combining marks
alone), stacks of combining marks, and names that look like "Bot" or like
another seat's name were all accepted. Unit checks of the rules first, then
the same over the wire: the refusal's code, and nothing changed at the table.
"""

from __future__ import annotations

from typing import Any

import pytest
from meja.protocol.errors import BadMessage, NameTaken
from meja.server import names
from meja.server.tables import clean_name
from server_helpers import host, join

BLANK_LOOKING = [
    "\u3164",  # HANGUL FILLER
    "\u115f\u1160",  # Hangul choseong and jungseong fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u2800\u2800",  # BRAILLE PATTERN BLANK
    "\u0301",  # a combining mark alone
    "\u0301\u0308\u0323",  # combining marks alone
    " \u3000 ",  # ideographic space: white space only
    "Ann\u3164",  # a filler after a name: looks like "Ann"
    "\u0308Ann",  # a mark with nothing to sit on (it would sit on the page's text before it)
    "\u200bAnn",  # zero-width space
]


@pytest.mark.parametrize("name", BLANK_LOOKING)
def test_blank_looking_names_are_refused(name: str) -> None:
    with pytest.raises(BadMessage):
        clean_name(name)


def test_emoji_joined_by_a_zero_width_joiner_are_names() -> None:
    """A hostile player's finding (2026-12-07): common emoji made of two joined by U+200D were
    refused as holding a format character. The joiner is allowed between two emoji (a skin tone
    or the presentation selector may come between), nowhere else; joined and unjoined look alike."""
    for name in (
        "Ann \U0001f469\u200d\U0001f4bb",
        "\U0001f3f3\ufe0f\u200d\U0001f308",
        "\u2764\ufe0f\u200d\U0001f525",
        "\U0001f468\U0001f3fd\u200d\U0001f4bb Bo",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    ):
        assert clean_name(name) == name
    for name in (
        "a\u200db",
        "Ann \U0001f469\u200d",
        "\u200d\U0001f469 Ann",
        "Ann\u200d\u200d\U0001f469",
        "\U0001f469\u200d\u200d\U0001f4bb",
    ):
        with pytest.raises(BadMessage):
            clean_name(name)
    assert names.look_alike("Ann \U0001f469\u200d\U0001f4bb", "Ann \U0001f469\U0001f4bb")


def test_stacked_marks_are_limited() -> None:
    base = "x"  # no precomposed form: NFKC leaves every mark on it
    marks = "\u0300\u0301\u0302\u0303\u0304"
    assert clean_name(base + marks[:3]) == base + marks[:3]
    with pytest.raises(BadMessage, match="at most 3 combining marks"):
        clean_name(base + marks[:4])
    with pytest.raises(BadMessage, match="repeats a combining mark"):
        clean_name("x\u0301\u0301")
    with pytest.raises(BadMessage):
        clean_name("Z\u0336\u0321\u0328\u0335a\u0334\u0322\u0327lgo")  # "zalgo"
    # Counted decomposed: a precomposed letter's own marks count (NFKC folds a + U+0301 into
    # U+00E1, and a hostile player stacked three more on it; U+1EC7 already holds two).
    for stack in ("a\u0301\u0302\u0303\u0304", "\u1ec7\u0301\u0300"):
        with pytest.raises(BadMessage, match="at most 3 combining marks"):
            clean_name(stack)
    assert clean_name("Nguy\u1ec5n Th\u1ecb Hu\u1ec7") == "Nguyễn Thị Huệ"  # Vietnamese: two each, fine
    assert clean_name("\u1faf") == "\u1faf"  # Greek omega with three: fine


def test_names_are_nfkc() -> None:
    assert clean_name("  Ｃａｔ   Lee ") == "Cat Lee"
    assert clean_name("\U0001d40c\U0001d422\U0001d41a") == "Mia"  # mathematical bold letters
    # Ordinary writing in any script passes (Thai: a tone mark over a vowel; Vietnamese; an emoji).
    for name in (
        "José",
        "ภาษาไทย",
        "Nguyễn Thị",
        "Zoë",
        "❤️ Ann",
        "李小龍",
        "Robot",
        "Botan",
        "ROBOT",
        "Abbott",
        "BOTANY",
        "McBride",
    ):
        assert clean_name(name) == name


BOTLIKE = [
    "Bot",
    "bot",
    "BOT",
    "B0t",
    "Bot 2",
    "bot2",
    "Вот",
    "Bοt",
    "Ｂｏｔ",
    "Ann (bot)",
    "Bót",
    "ʙᴏᴛ",
    "B o t",
    "B.o.t",
    "b-o-t 3",  # small capitals; letters spaced out (a hostile player's)
    "BotBot",
    "AnnBot",
    "TheBOT",
    "BotAnn",
    "annВот",  # camel case read as words
    "ANNBot",
    "anNBot",
    "Ann\u0316Bot",
    "x\u0332Bot",
    "Ann\u0640Bot",
    "Ann\u3005Bot",
    "Ann\u0299ot",
    "Ann\u0299OT",
]  # ... past capitals, marks, modifier letters and small capitals (a hostile player's)


@pytest.mark.parametrize("name", BOTLIKE)
def test_no_name_passes_for_a_bot(name: str) -> None:
    with pytest.raises(NameTaken):
        clean_name(name)


def test_look_alike_names() -> None:
    for a, b in [("Ann", "ann"), ("Ann", "Аnn"), ("Bill", "BiII"), ("Jo", "J0"), ("Mia", "Mía"), ("Ann", "Ann\ufe0f")]:
        assert names.look_alike(a, b), (a, b)
    for a, b in [("Ann", "Anne"), ("Bob", "Rob"), ("Li", "Lu")]:
        assert not names.look_alike(a, b), (a, b)


async def test_names_over_the_wire(serve: Any, connect: Any) -> None:
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    for name in ("\u3164", "\u2800", "\u0301", "x\u0300\u0301\u0302\u0303"):
        await ann.error({"type": "host", "name": name}, "protocol/bad_message")
    for name in ("Bot", "B0t 2", "Ｂｏｔ"):
        await ann.error({"type": "host", "name": name}, "name/reserved")
    assert server.hub.tables == {}
    joined = await host(ann, seats=3)
    version = ann.version
    for name, code in [
        ("Аnn", "name/taken"),
        ("ANN", "name/taken"),
        ("Ann\u0301", "name/taken"),
        ("Bot", "name/reserved"),
        ("\u3164", "protocol/bad_message"),
    ]:
        await bob.error({"type": "join", "code": joined["code"], "name": name}, code)
    assert ann.version == version, "a refused name changed the table"
    await join(bob, code=joined["code"], name="Ｃａｔ")
    assert ann.table is not None
    await ann.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["name"] == "Cat")
