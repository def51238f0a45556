"""The tip a card play is explained by (bots/explain.py ``_play``) says what the trick holds.

A new user's hint read "These cards are worth points: win them" when the bot overtook a lone queen
of clubs (no points) with the eight of hearts (none either): a trick with no points in it, nor in
the card, is won for the next lead (``take_lead``); one with points is still ``win_worth``.
"""

from __future__ import annotations

from types import SimpleNamespace

from meja.games.eighty_three.bots.common import cards_of
from meja.games.eighty_three.bots.explain import _play

SPADES, HEARTS = 0, 1  # trump suits as the bots number them ("SHDC")


def _seen(trick: list[tuple[int, str]], hand: list[str], trump: int = SPADES) -> SimpleNamespace:
    return SimpleNamespace(
        trump=trump,
        trick=[(seat, cards_of([name])[0]) for seat, name in trick],
        seat=1,
        partner=3,
        hand=cards_of(hand),
        gone=lambda: set(),
    )


def test_overtaking_a_trick_of_no_points_is_for_the_lead() -> None:
    seen = _seen([(0, "QC")], ["KC", "9D", "4H"])
    assert _play(seen, cards_of(["KC"])[0]) == {"kind": "tip", "tip": "take_lead"}


def test_overtaking_a_trick_with_points_is_for_them() -> None:
    seen = _seen([(0, "10S")], ["KS", "9D", "4H"])  # the ten of trumps scores (4.4); the ace is still out
    assert _play(seen, cards_of(["KS"])[0]) == {"kind": "tip", "tip": "win_worth"}
