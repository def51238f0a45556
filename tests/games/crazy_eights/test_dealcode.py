"""Unit tests of Crazy Eights' deal codes: the typeable name of a deal (docs/rules/crazy-eights.md 1.9.3).

The format is pinned twice: by example codes computed once and written here,
and by an independent encoder written from the docstrings alone
(``_reference_encode``: from the least significant bit, 2 bits format (2), 5
game tag (1), 3 leader, 3 seats-2, 2 preset, 128 seed; 29 Crockford base32
characters plus a Luhn mod 32 check character, in groups of five), so neither
the bit layout nor the check can change silently.
"""

from __future__ import annotations

import random

import pytest
from meja.games.crazy_eights.dealcode import PRESET_IDS, DealSpec, decode, encode, normalize
from meja.rules import BadDealCodeError

from ..dealcode_reference import luhn32

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U

PINNED = [
    (DealSpec("house", 2, 0, 0), "00000-00000-00000-00000-00000-0006M"),
    (DealSpec("house", 3, 2, 2**128 - 1), "7ZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-Z186N"),
    (DealSpec("classic", 4, 3, 123456789), "00000-00000-00000-00000-3NQK8-NAC6J"),
    (DealSpec("party", 8, 7, 0xABCDEF0123456789ABCDEF0123456789), "5BSQQ-G28T5-CY4TQ-KFF04-HMASW-9PW6P"),
    (DealSpec("party", 6, 0, 1), "00000-00000-00000-00000-00000-1M06A"),
]


def _reference_encode(fmt: int, preset: int, seats_field: int, leader: int, seed: int, tag: int = 1) -> str:
    """Any field values (even invalid ones), laid out as the docstrings say, with a valid check."""
    header = (preset << 3 | seats_field) << 3 | leader
    number = ((seed << 8 | header) << 5 | tag) << 2 | fmt
    values = [(number >> (5 * (28 - i))) & 31 for i in range(29)]
    values.append(luhn32(values))
    text = "".join(ALPHABET[v] for v in values)
    return "-".join(text[i : i + 5] for i in range(0, 30, 5))


def _specs(count: int, seed: int = 1993) -> list[DealSpec]:
    rnd = random.Random(seed)  # only to pick test inputs; the format itself uses no randomness
    out = [DealSpec(p, s, 0, 0) for p in PRESET_IDS for s in range(2, 9)]
    out += [DealSpec(p, 8, 7, 2**128 - 1) for p in PRESET_IDS]
    for _ in range(count):
        seats = rnd.randint(2, 8)
        out.append(DealSpec(rnd.choice(PRESET_IDS), seats, rnd.randrange(seats), rnd.getrandbits(128)))
    return out


# =========================================================================== format


@pytest.mark.parametrize(("spec", "code"), PINNED, ids=[c for _, c in PINNED])
def test_pinned_example_codes(spec: DealSpec, code: str) -> None:
    assert encode(spec) == code
    assert decode(code) == spec


def test_layout_matches_the_documented_format() -> None:
    for spec in _specs(500):
        code = encode(spec)
        assert code == _reference_encode(2, PRESET_IDS.index(spec.preset), spec.seats - 2, spec.leader, spec.seed)
        assert len(code) == 35 and [code[i] for i in (5, 11, 17, 23, 29)] == ["-"] * 5
        assert set(code.replace("-", "")) <= set(ALPHABET)


def test_round_trip_over_many_specs() -> None:
    specs = _specs(3000)
    for spec in specs:
        assert decode(encode(spec)) == spec
    assert len({encode(s) for s in specs}) == len(set(specs))


# =========================================================================== reading as typed


def test_case_insensitive_and_separators_ignored() -> None:
    rnd = random.Random(7)
    for spec in _specs(200):
        code = encode(spec)
        assert decode(code.lower()) == spec
        bare = code.replace("-", "")
        assert decode(bare) == spec
        assert normalize(code.lower()) == bare
        # hyphens and spaces anywhere, in any number
        messy = "".join(c + rnd.choice(["", " ", "-", "--", " - "]) for c in bare)
        assert decode(f"  {messy}  ") == spec


def test_look_alikes_i_l_o() -> None:
    """Crockford: I and L read as 1, O as 0, in either case."""
    spec = DealSpec("party", 6, 0, 1)
    code = encode(spec)  # mostly 0s, some 1s
    assert "0" in code and "1" in code
    for one in "IiLl":
        for zero in "Oo":
            assert decode(code.replace("1", one).replace("0", zero)) == spec
    assert normalize("i-l-o-0") == "110" + "0"


def test_every_single_character_typo_is_rejected() -> None:
    """Luhn mod 32 catches every substitution of one character, look-alikes included."""
    typeable = ALPHABET + "ILO" + ALPHABET.lower() + "ilo"
    value = {c: ALPHABET.index(c) for c in ALPHABET}
    value.update({"I": 1, "L": 1, "O": 0})
    checked = 0
    for spec in [s for s, _ in PINNED] + _specs(12, seed=5):
        bare = encode(spec).replace("-", "")
        for i, original in enumerate(bare):
            for typed in typeable:
                if value[typed.upper()] == value[original]:
                    continue  # the same character (or its look-alike): not a typo
                wrong = bare[:i] + typed + bare[i + 1 :]
                with pytest.raises(BadDealCodeError):
                    decode(wrong)
                checked += 1
    assert checked > 50000  # 41 codes x 30 positions x ~66 other typeable characters


@pytest.mark.parametrize("bad", ["U", "!", "é", "_", ".", "\t"])
def test_characters_outside_the_alphabet_are_rejected(bad: str) -> None:
    code = encode(DealSpec("house", 2, 0, 42)).replace("-", "")
    typed = code[:4] + bad + code[5:]
    with pytest.raises(BadDealCodeError) as info:
        decode(typed)
    assert repr(typed) in str(info.value)  # the code as typed, and the character named
    assert repr(bad.upper()) in str(info.value)


def test_adjacent_swaps_are_mostly_caught() -> None:
    """The docstring promises 'most swaps of two neighbours'; measure it over many codes."""
    caught = total = 0
    for spec in _specs(120, seed=11):
        bare = encode(spec).replace("-", "")
        for i in range(len(bare) - 1):
            if bare[i] == bare[i + 1]:
                continue
            swapped = bare[:i] + bare[i + 1] + bare[i] + bare[i + 2 :]
            total += 1
            try:
                decode(swapped)  # a swap that reads as some valid deal is not caught
            except BadDealCodeError:
                caught += 1
    assert caught / total > 0.99, (caught, total)


def test_wrong_length_is_rejected() -> None:
    bare = encode(DealSpec("classic", 3, 1, 987654)).replace("-", "")
    for wrong in (bare[:-1], bare[1:], bare + "0", "0" + bare, bare[:5], "", "-", bare * 2):
        with pytest.raises(BadDealCodeError) as info:
            decode(wrong)
        assert "characters" in str(info.value)


@pytest.mark.parametrize("junk", [None, 123, b"80000-00000", ["80000-00000"]])
def test_non_text_is_rejected(junk: object) -> None:
    with pytest.raises(BadDealCodeError):
        decode(junk)  # type: ignore[arg-type]


def test_fields_out_of_range_are_rejected_even_with_a_valid_check() -> None:
    """A well-checked code whose format, game, preset, seats or leader is not valid."""
    cases = [
        ((0, 0, 0, 0, 1), "format"),
        ((1, 0, 0, 0, 1), "format"),
        ((3, 0, 0, 0, 1), "format"),
        ((2, 0, 0, 0, 1, 2), "another game"),
        ((2, 0, 0, 0, 1, 31), "another game"),
        ((2, 3, 0, 0, 1), "preset"),
        ((2, 0, 7, 0, 1), "seats"),  # 9 seats
        ((2, 0, 0, 2, 1), "leader"),  # leader 2 at a 2-seat table
        ((2, 1, 2, 4, 1), "leader"),  # leader 4 at 4 seats
    ]
    for fields, word in cases:
        code = _reference_encode(*fields)
        with pytest.raises(BadDealCodeError) as info:
            decode(code)
        assert word in str(info.value), (code, str(info.value))


def test_deal_spec_validates_its_fields() -> None:
    for args in (
        ("euchre", 2, 0, 0),
        ("house", 1, 0, 0),
        ("house", 9, 0, 0),
        ("house", 3, 3, 0),
        ("house", 3, -1, 0),
        ("house", 2, 0, 2**128),
        ("house", 2, 0, -1),
    ):
        with pytest.raises(BadDealCodeError):
            DealSpec(*args)  # type: ignore[arg-type]
    assert BadDealCodeError.code == "deal/bad_code"


def test_a_format_1_code_is_refused_with_a_clear_message() -> None:
    """Codes of format 1 (11 characters, a 40-bit seed) named deals anyone could find by search."""
    with pytest.raises(BadDealCodeError) as info:
        decode("80DMW-RW6PCZ")
    assert "format" in str(info.value) or "characters" in str(info.value)
