"""Room codes, table ids and tokens (meja.server.rooms)."""

from __future__ import annotations

import math

from meja.server.rooms import (
    CODE_ALPHABET,
    CODE_CHARS,
    new_code,
    new_table_id,
    new_token,
    normalize_code,
    same_token,
    token_hash,
)


def test_codes_have_at_least_30_bits_from_an_alphabet_without_look_alikes() -> None:
    assert len(set(CODE_ALPHABET)) == 32 and not set("ILOU") & set(CODE_ALPHABET)
    assert CODE_CHARS * math.log2(len(CODE_ALPHABET)) >= 30
    codes = {new_code() for _ in range(2000)}
    assert len(codes) == 2000  # 2000 draws from 2**30: a collision would be a broken generator
    assert all(len(c) == 6 and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert set("".join(codes)) == set(CODE_ALPHABET)


def test_codes_read_in_any_case_with_look_alikes_and_separators() -> None:
    assert normalize_code("k7m2qx") == "K7M2QX"
    assert normalize_code(" k7m-2qx ") == "K7M2QX"
    assert normalize_code("IOLoil") == "101011"
    assert normalize_code("ABCDE") is None and normalize_code("ABCDEFG") is None
    assert normalize_code("ABCDE!") is None and normalize_code("ABCDEU") is None


def test_tokens_are_128_bits_and_compared_by_hash() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) == 22 for t in tokens)  # 16 bytes, urlsafe base64
    token = new_token()
    stored = token_hash(token)
    assert len(stored) == 64 and token not in stored
    assert same_token(token, stored) and not same_token(token + "x", stored) and not same_token(token, None)
    assert len(new_table_id()) == 32 and int(new_table_id(), 16) >= 0
