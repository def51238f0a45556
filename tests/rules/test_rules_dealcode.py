"""The deal-code format every game shares (meja.rules.dealcode, format 2): tags, headers, 128-bit seeds."""

from __future__ import annotations

import pytest
from meja.rules import BadDealCodeError
from meja.rules import dealcode as codec
from meja.rules.rng import SEED_BITS


def test_a_code_carries_its_game_header_and_a_128_bit_seed() -> None:
    for tag, bits in ((1, 8), (2, 8), (3, 2), (31, 0)):
        for header in (0, (1 << bits) - 1):
            for seed in (0, 1, 2**127 + 3, 2**SEED_BITS - 1):
                code = codec.deal_code(tag, header, bits, seed)
                assert codec.game_tag(code) == tag
                assert codec.read_deal_code(code, tag, bits) == (header, seed)
                assert codec.read_deal_code(code.lower().replace("-", " "), tag, bits) == (header, seed)


def test_lengths_and_groups() -> None:
    code = codec.deal_code(1, 5, 8, 2**128 - 1)
    assert [len(g) for g in code.split("-")] == [5] * 6  # 29 characters and the check
    short = codec.deal_code(3, 1, 2, 12345)
    assert len(short.replace("-", "")) == 29  # 137 bits: 28 characters and the check
    assert [len(g) for g in short.split("-")] == [5, 5, 5, 5, 9]


def test_a_code_of_another_game_says_so() -> None:
    code = codec.deal_code(2, 3, 8, 99)
    with pytest.raises(BadDealCodeError, match="another game"):
        codec.read_deal_code(code, 1, 8, "Crazy Eights")
    other_length = codec.deal_code(3, 1, 2, 99)
    with pytest.raises(BadDealCodeError, match="another game"):
        codec.read_deal_code(other_length, 1, 8, "Crazy Eights")


def test_out_of_range_fields_are_refused() -> None:
    for args in ((0, 0, 8, 0), (32, 0, 8, 0), (1, 256, 8, 0), (1, 0, 8, 2**128), (1, 0, 8, -1)):
        with pytest.raises(BadDealCodeError):
            codec.deal_code(*args)


def test_game_tag_of_text_that_is_no_code() -> None:
    assert codec.game_tag("") is None
    assert codec.game_tag("0") is None
    with pytest.raises(BadDealCodeError):
        codec.game_tag("not a code!")
