"""Kartu Terakhir's deal codes: game tag 2 in the shared format, a header of seat count and dealer.

The format is pinned twice: by example codes computed once and written here,
and by an independent encoder written from the docstrings alone
(``_reference_encode``: from the least significant bit, 2 bits format (2), 5
game tag (2), 4 dealer, 4 seats-2, 128 seed; 29 Crockford base32 characters
plus a Luhn mod 32 check character, in groups of five). And a deal is pinned:
one code's hands, starter and next stock cards, so the deal procedure (the
shuffle, the order cards go out, the number starter) cannot change silently.
"""

from __future__ import annotations

import random

import pytest
from meja.games.kartu_terakhir.dealcode import DealSpec, decode, encode, normalize
from meja.games.kartu_terakhir.rules import DECK
from meja.rules import BadDealCodeError, BadOptionsError
from meja.rules.dealcode import deal_code as shared_code

from ..dealcode_reference import luhn32
from .kt_helpers import GAME, act

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

PINNED = [
    (DealSpec(2, 0, 0), "00000-00000-00000-00000-00000-000AC"),
    (DealSpec(10, 9, 2**128 - 1), "7ZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZZZZZ-ZH4AG"),
    (DealSpec(4, 3, 123456789), "00000-00000-00000-00000-3NQK8-N4CAP"),
    (DealSpec(7, 6, 0xABCDEF0123456789ABCDEF0123456789), "5BSQQ-G28T5-CY4TQ-KFF04-HMASW-9ARAB"),
    (DealSpec(3, 1, 1), "00000-00000-00000-00000-00000-124A3"),
]


def _reference_encode(seats_field: int, dealer: int, seed: int, tag: int = 2, fmt: int = 2) -> str:
    header = seats_field << 4 | dealer
    number = ((seed << 8 | header) << 5 | tag) << 2 | fmt
    values = [(number >> (5 * (28 - i))) & 31 for i in range(29)]
    values.append(luhn32(values))
    text = "".join(ALPHABET[v] for v in values)
    return "-".join(text[i : i + 5] for i in range(0, 30, 5))


@pytest.mark.parametrize(("spec", "code"), PINNED, ids=[c for _, c in PINNED])
def test_pinned_example_codes(spec: DealSpec, code: str) -> None:
    assert encode(spec) == code and decode(code) == spec


def test_layout_matches_the_documented_format() -> None:
    rnd = random.Random(2)  # only picks test inputs
    specs = [DealSpec(n, d, 0) for n in range(2, 11) for d in range(n)]
    for _ in range(500):
        n = rnd.randint(2, 10)
        specs.append(DealSpec(n, rnd.randrange(n), rnd.getrandbits(128)))
    for spec in specs:
        code = encode(spec)
        assert code == _reference_encode(spec.seats - 2, spec.dealer, spec.seed)
        assert code == shared_code(2, (spec.seats - 2) << 4 | spec.dealer, 8, spec.seed)
        assert decode(code) == spec and len(code) == 35


def test_codes_read_as_typed() -> None:
    spec = DealSpec(4, 3, 123456789)
    code = encode(spec)
    assert decode(code.lower()) == spec and decode(code.replace("-", " ")) == spec
    assert normalize(code.replace("0", "o")) == code.replace("-", "")


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "characters"),
        ("00000-00000-00000-00000-00000-000AD", "mistyped"),
        # a Crazy Eights code (game tag 1)
        ("00000-00000-00000-00000-00000-0006M", "another game"),
        ("00000-00000-00000-00000-00000-0U0AC", "character"),
    ],
)
def test_bad_codes_say_what_is_wrong(code: str, message: str) -> None:
    with pytest.raises(BadDealCodeError, match=message):
        decode(code)


def test_headers_outside_the_game_are_refused() -> None:
    too_many = _reference_encode(9, 0, 5)  # 11 seats
    with pytest.raises(BadDealCodeError, match="seats"):
        decode(too_many)
    dealer_out = _reference_encode(0, 2, 5)  # dealer 2 at 2 seats
    with pytest.raises(BadDealCodeError, match="dealer"):
        decode(dealer_out)
    for bad in ((1, 0, 0), (11, 0, 0), (3, 3, 0), (2, 0, -1), (2, 0, 2**128)):
        with pytest.raises(BadDealCodeError):
            DealSpec(*bad)


def test_a_code_pins_its_deal() -> None:
    """The deal of one code, card for card (seat 2, the dealer's left, plays first)."""
    code = encode(DealSpec(3, 1, 20240601))
    assert code == "00000-00000-00000-00000-0K9P6-S24A4"
    state = GAME.new_match(GAME.options(), 3, 7, deal_code=code).state
    assert [[DECK[c] for c in h] for h in state.hands] == [
        ["Y1", "Y6", "G5", "G9", "GS", "B4", "W"],
        ["R1", "R6", "YS", "G4", "B0", "B8", "BS"],
        ["R4", "R7", "RR", "RD2", "B2", "BR", "WD4"],
    ]
    assert DECK[state.discard[-1]] == "Y8" and state.turn == 2 and state.dealer == 1
    assert [DECK[c] for c in state.stock[-5:][::-1]] == ["YR", "Y3", "G5", "G0", "R8"]
    assert state.deal_code == code


def test_the_game_reads_codes_and_new_match_honours_them() -> None:
    code = encode(DealSpec(5, 4, 99))
    info = GAME.read_deal_code(code.lower())
    assert (info.preset, info.seats, info.code) == ("standard", 5, code)
    with pytest.raises(BadOptionsError, match="5 seats"):
        GAME.new_match(GAME.options(), 4, 1, deal_code=code)
    a = GAME.new_match(GAME.options(), 5, 1, deal_code=code).state
    b = GAME.new_match(GAME.options(), 5, 2, deal_code=code).state
    assert a.hands == b.hands and a.dealer == 4 and a.turn == 0 and a.seed == 99
    # options do not change a deal
    c = GAME.new_match(GAME.options(stacking=True, match="500"), 5, 3, deal_code=code).state
    assert c.hands == a.hands and c.stock == a.stock


def test_each_round_has_its_own_code_and_it_is_revealed_when_it_ends() -> None:
    t = GAME.new_match(GAME.options(match="500"), 2, 31)
    state = t.state
    code = state.deal_code
    assert decode(code) == DealSpec(2, state.dealer, state.seed)
    assert all(code not in str(e.data) for e in t.events)
    # play it out with the first legal action; the round_over event carries the code
    while state.in_round():
        seat = state.awaiting()[0] if state.awaiting() else state.timed_actions()[0].seat
        move = state.legal_actions(seat)[0] if state.awaiting() else state.timed_actions()[0].action
        t = act(state, seat, move)
        state = t.state
        if state.in_round():
            assert all(code not in str(e.data) for e in t.events)
    [over] = [e for e in t.events if e.kind == "round_over"]
    assert over.data["deal_code"] == code and state.view(0).to_wire()["last_round"]["deal_code"] == code
    nxt = state
    for seat in range(2):
        nxt = act(nxt, seat, nxt.legal_actions(seat)[0]).state
    assert nxt.round == 2 and nxt.deal_code != code and nxt.dealer == (state.dealer + 1) % 2
