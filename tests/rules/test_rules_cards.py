"""Unit tests of meja.rules.cards: card ids, parsing and printing, suits and ranks.

A card id is ``deck * 52 + suit * 13 + (rank - 1)``; the 104 ids cover the two
decks of ``party`` at 6-8 seats (docs/rules/crazy-eights.md 2.3.1), the second copy printing
with a ``.2`` suffix.
"""

from __future__ import annotations

import pytest
from meja.rules import CARDS, Card, Rank, Suit, parse_cards


def test_104_distinct_cards_with_the_documented_ids() -> None:
    assert len(CARDS) == 104
    assert [int(c) for c in CARDS] == list(range(104))
    for c in CARDS:
        assert int(c) == c.deck * 52 + int(c.suit) * 13 + int(c.rank) - 1
        assert Card.of(c.rank, c.suit, c.deck) is c
        assert c.face == int(c) % 52
    assert {c.deck for c in CARDS[:52]} == {0} and {c.deck for c in CARDS[52:]} == {1}
    assert all(CARDS[i].face == CARDS[i + 52].face for i in range(52))


def test_parse_print_round_trip_of_all_104_ids() -> None:
    names = [str(c) for c in CARDS]
    assert len(set(names)) == 104
    for c in CARDS:
        assert Card.parse(str(c)) is c
        assert eval(repr(c), {"Card": Card}) is c  # repr is Card.parse('...')
    assert names[:3] == ["AS", "2S", "3S"]
    assert names[9] == "10S" and names[12] == "KS"
    assert names[13] == "AH" and names[26] == "AD" and names[39] == "AC"
    assert names[52] == "AS.2" and names[103] == "KC.2"


def test_parse_is_case_insensitive_and_accepts_t_for_ten() -> None:
    for c in CARDS:
        name = str(c)
        assert Card.parse(name.lower()) is c
        assert Card.parse(f"  {name.lower()} ") is c
        if name.startswith("10"):
            assert Card.parse("T" + name[2:]) is c
            assert Card.parse("t" + name[2:].lower()) is c
    assert Card.parse("qh") is Card.of(Rank.QUEEN, Suit.HEARTS)
    assert Card.parse("8h.2") is Card.of(Rank.EIGHT, Suit.HEARTS, 1)


@pytest.mark.parametrize(
    "bad", ["", "8", "H", "8X", "1H", "11H", "0S", "8H.3", "8H.1", "8 H", "88H", "joker", "8HH"]
)
def test_parse_errors_show_the_bad_value(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(bad)
    assert repr(bad) in str(info.value)


@pytest.mark.parametrize("bad", [None, 8, 8.0, b"8H", ["8H"]])
def test_parse_refuses_non_strings_with_value_error(bad: object) -> None:
    with pytest.raises(ValueError) as info:
        Card.parse(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value)


def test_parse_cards() -> None:
    assert parse_cards("8H 10C, QS") == (Card.parse("8H"), Card.parse("10C"), Card.parse("QS"))
    assert parse_cards("") == ()
    assert parse_cards(" 5d,5D.2 ") == (Card.parse("5D"), Card.parse("5D.2"))
    with pytest.raises(ValueError, match="'ZZ'"):
        parse_cards("8H ZZ")


def test_rank_and_suit_properties() -> None:
    c = Card.parse("QH")
    assert (c.rank, c.suit, c.deck) == (Rank.QUEEN, Suit.HEARTS, 0)
    assert c.name == "Queen of hearts"  # the accessible name (1.9.4)
    assert Card.parse("10C").name == "Ten of clubs"
    assert Card.parse("AS.2").name == "Ace of spades"
    assert [s.letter for s in Suit] == ["S", "H", "D", "C"]  # the fixed order (1.8 E)
    assert [s.word for s in Suit] == ["Spades", "Hearts", "Diamonds", "Clubs"]
    assert [s.symbol for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [s.is_red for s in Suit] == [False, True, True, False]
    assert [int(r) for r in Rank] == list(range(1, 14))
    assert [r.label for r in Rank][:1] + [r.label for r in Rank][9:] == ["A", "10", "J", "Q", "K"]
    assert str(Rank.TEN) == "10" and str(Suit.CLUBS) == "C"


def test_suit_parse() -> None:
    for s in Suit:
        for text in (s.letter, s.letter.lower(), s.symbol, s.word, s.word.upper(), f" {s.word.lower()} "):
            assert Suit.parse(text) is s
    for bad in ("", "X", "spade", "♤", "SH"):
        with pytest.raises(ValueError) as info:
            Suit.parse(bad)
        assert repr(bad) in str(info.value)
    for junk in (None, 1):
        with pytest.raises(ValueError):
            Suit.parse(junk)  # type: ignore[arg-type]


def test_rank_parse() -> None:
    for r in Rank:
        assert Rank.parse(r.label) is r
        assert Rank.parse(r.label.lower()) is r
    assert Rank.parse("T") is Rank.TEN
    for bad in ("", "1", "11", "Z", "0"):
        with pytest.raises(ValueError) as info:
            Rank.parse(bad)
        assert repr(bad) in str(info.value)


@pytest.mark.parametrize("junk", [None, 10])
def test_rank_parse_refuses_non_strings_with_value_error(junk: object) -> None:
    with pytest.raises(ValueError) as info:
        Rank.parse(junk)  # type: ignore[arg-type]
    assert repr(junk) in str(info.value)
