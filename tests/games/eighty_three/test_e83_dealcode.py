"""Eighty-Three deal codes: game tag 3, the dealer in a 2-bit header, the hand's 128-bit seed.

The format is pinned twice: by example codes computed once and written here,
and by an independent encoder written from the docstring alone
(``_reference_encode``: from the least significant bit, 2 bits format (2), 5
game tag (3), 2 dealer, 128 seed; 28 Crockford base32 characters and a Luhn
mod 32 check character, grouped 5-5-5-5-9). Then: a code names hand 1's deal,
``read_deal_code`` and ``new_match(deal_code=...)`` honour it, the state's
``deal_code`` is the current hand's, and it is secret until the hand ends.
"""

from __future__ import annotations

import random

import pytest
from meja.games.crazy_eights import dealcode as ce_dealcode
from meja.games.eighty_three.dealcode import DealSpec, decode, encode
from meja.rules import BadDealCodeError, BadOptionsError
from meja.rules.dealcode import game_tag

from ..dealcode_reference import luhn32
from .e83_helpers import GAME, READY, Phase

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

PINNED = [
    (DealSpec(0, 0), "00000-00000-00000-00000-0000000E4"),
    (DealSpec(3, 2**128 - 1), "3ZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZZWEY"),
    (DealSpec(1, 123456789), "00000-00000-00000-00000-1TVSMAME4"),
    (DealSpec(2, 0xABCDEF0123456789ABCDEF0123456789), "2NWVV-R14D2-PF2DB-SQQG2-8T5CY4REY"),
]


def _reference_encode(dealer: int, seed: int, tag: int = 3, fmt: int = 2) -> str:
    number = ((seed << 2 | dealer) << 5 | tag) << 2 | fmt
    values = [(number >> (5 * (27 - i))) & 31 for i in range(28)]
    values.append(luhn32(values))
    text = "".join(ALPHABET[v] for v in values)
    return "-".join([text[0:5], text[5:10], text[10:15], text[15:20], text[20:29]])


@pytest.mark.parametrize(("spec", "code"), PINNED, ids=[c for _, c in PINNED])
def test_pinned_example_codes(spec: DealSpec, code: str) -> None:
    assert encode(spec) == code
    assert decode(code) == spec
    assert game_tag(code) == 3


def test_layout_matches_the_documented_format() -> None:
    rnd = random.Random(3)  # test inputs only
    for _ in range(500):
        spec = DealSpec(rnd.randrange(4), rnd.getrandbits(128))
        code = encode(spec)
        assert code == _reference_encode(spec.dealer, spec.seed)
        assert decode(code) == spec
        assert decode(code.lower().replace("-", " ")) == spec  # as typed
        assert len(code) == 33 and set(code.replace("-", "")) <= set(ALPHABET)


def test_bad_codes_say_what_is_wrong() -> None:
    code = encode(DealSpec(1, 99))
    typo = code[:-2] + ("0" if code[-2] != "0" else "1") + code[-1]
    with pytest.raises(BadDealCodeError, match="mistyped"):
        decode(typo)
    with pytest.raises(BadDealCodeError, match="another game"):
        decode(ce_dealcode.encode(ce_dealcode.DealSpec("house", 2, 0, 5)))
    with pytest.raises(BadDealCodeError, match="another game"):
        decode(_reference_encode(1, 99, tag=1))  # our length, Crazy Eights' tag
    with pytest.raises(BadDealCodeError, match="format"):
        decode(_reference_encode(1, 99, fmt=1))
    for junk in ("", "hello", "12345-!", 42):
        with pytest.raises(BadDealCodeError):
            GAME.read_deal_code(junk)  # type: ignore[arg-type]
    for dealer, seed in ((4, 0), (-1, 0), (0, -1), (0, 2**128)):
        with pytest.raises(BadDealCodeError):
            DealSpec(dealer, seed)


def test_a_code_names_the_first_hands_deal() -> None:
    code = encode(DealSpec(2, 0xABCDEF0123456789ABCDEF0123456789))
    info = GAME.read_deal_code(code.lower())
    assert (info.preset, info.seats, info.code) == ("standard", 4, code)
    a = GAME.new_match("standard", 4, 1, deal_code=code).state
    b = GAME.new_match(GAME.options(must_win_on_own_bid=True), 4, 999, deal_code=code).state
    assert a.hands == b.hands and a.kitty == b.kitty and a.dealer == b.dealer == 2
    assert a.deal_code == b.deal_code == code
    assert a.turn == 3  # the dealer's left bids first
    with pytest.raises(BadDealCodeError):
        GAME.new_match("standard", 4, 1, deal_code="not-a-code")
    with pytest.raises(BadOptionsError):
        GAME.new_match("standard", 2, 1, deal_code=code)


def test_later_hands_come_from_the_match_seed_and_have_their_own_codes() -> None:
    code = encode(DealSpec(0, 77))
    codes = []
    for seed in (5, 6):
        state = GAME.new_match("standard", 4, seed, deal_code=code).state
        assert state.deal_code == code
        while state.phase <= Phase.PLAY:
            seat = state.awaiting()[0]
            state = state.apply(seat, state.default_action(seat) or state.legal_actions(seat)[0]).state
        assert state.last_hand is not None and state.last_hand.deal_code == code
        for seat in range(4):
            state = state.apply(seat, READY).state
        assert state.dealer == 1 and state.deal_code != code
        assert decode(state.deal_code) == DealSpec(1, state.seed)
        codes.append(state.deal_code)
    assert codes[0] != codes[1]  # hand 2 is drawn from each match's own seed


def test_the_code_is_secret_while_the_hand_is_played() -> None:
    t = GAME.new_match("standard", 4, 12)
    state = t.state
    code = state.deal_code
    assert all(code not in repr(e.data) for e in t.events)
    while state.phase <= Phase.PLAY:
        for seat in (None, 0, 1, 2, 3):
            wire = state.view(seat).to_wire()
            assert wire["deal_code"] is None and code not in repr(wire)
        seat = state.awaiting()[0]
        t = state.apply(seat, state.default_action(seat) or state.legal_actions(seat)[0])
        state = t.state
        if state.phase <= Phase.PLAY:
            assert all(code not in repr(e.data) for e in t.events)
    over = next(e for e in t.events if e.kind == GAME.info.round_end)
    assert over.data["deal_code"] == code
    assert state.view(None).to_wire()["deal_code"] == code
    assert GAME.info.deal_codes
