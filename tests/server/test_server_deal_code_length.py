"""Which game a deal code no game reads is blamed on: the one whose codes have its length (a typo,
blamed on the check character), found by the type of the error (:class:`DealCodeLengthError`),
never by the words of its message (a reviewer's finding: rewording the message, or a game with a
length error of its own, brought back a typo blamed on another game's length)."""

from __future__ import annotations

from typing import Any

import pytest
from meja import games
from meja.protocol.messages import Host
from meja.rules.dealcode import DealCodeLengthError, read_deal_code, unpack
from meja.rules.errors import BadDealCodeError


def test_a_code_of_the_wrong_length_raises_the_typed_error() -> None:
    with pytest.raises(DealCodeLengthError):
        read_deal_code("ABCDE", tag=1, header_bits=20)
    with pytest.raises(DealCodeLengthError):
        unpack("ABCDE", 20)
    # It is still a deal/bad_code error.
    assert issubclass(DealCodeLengthError, BadDealCodeError)
    assert DealCodeLengthError.code == "deal/bad_code"


async def test_the_game_blamed_is_found_by_the_error_type_not_its_words(
    serve: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await serve()
    coded = [p for p in games.plugins() if p.game.info.deal_codes]
    assert len(coded) >= 2, "needs two games with deal codes"
    mistyped_in = coded[-1]

    def refuse(plugin: Any) -> Any:
        def read(code: str) -> Any:
            if plugin is mistyped_in:
                raise BadDealCodeError("a typo")
            raise DealCodeLengthError("worded in any way at all")  # not the words dealcode.py uses

        return read

    for plugin in coded:
        monkeypatch.setattr(plugin.game, "read_deal_code", refuse(plugin))
    msg = Host(name="Ann", deal_code="0000-0000")
    assert server.service.game_of(msg) == mistyped_in.name
