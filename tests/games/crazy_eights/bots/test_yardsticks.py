"""Crazy Eights' yardsticks are frozen (tests/games/yardsticks.py), and greedy plays by the book."""

from __future__ import annotations

import hashlib

from meja.games.crazy_eights.bots import YARDSTICK_VERSION, get_bot
from meja.games.crazy_eights.bots.yardsticks import greedy_choice
from meja.games.crazy_eights.rules import Phase
from meja.rules import Card, get_game

from ...yardsticks import pinned_tests

GAME = get_game("crazy_eights")

#: Moved once without a change of yardstick: when deals moved to 128-bit seeds (rng v2), seeds 0-3
#: named other deals. The policies' code did not change (YARDSTICK_VERSION stays 1).
PINNED = {
    "random-any": "c3a00b026ebd6ffe",
    "random-card": "bacb7f9746f8f9ee",
    "greedy": "96fecbc96487ba28",
}


def _digest(name: str) -> str:
    bot = get_bot(name)
    h = hashlib.sha256()
    for preset, seats in (("house", 2), ("house", 3), ("classic", 3), ("party", 4)):
        for seed in range(4):
            tr = GAME.new_match(GAME.options(preset), seats, seed)
            state = tr.state
            while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT):
                seat = state.awaiting()[0]
                move = bot.choose(state.view(seat), [], state.bot_rng(seat).derive(f"decision/{state.version}"))
                h.update(str(move).encode() + b";")
                state = state.apply(seat, move).state
    return h.hexdigest()[:16]


test_version, test_yardstick_decisions_are_pinned = pinned_tests(YARDSTICK_VERSION, PINNED, _digest)


def test_greedy_by_the_book() -> None:
    """docs/bots.md greedy on stacked hands (the written definition, case by case)."""
    # Top 6H. Playable non-8s: 6S (spades: 6S 2S = 2 cards), KH (hearts: KH = 1): play 6S.
    state = GAME.stacked("house", hands=["6S 2S KH 8C 9C", "2D"], discard="6H")
    assert str(greedy_choice(state.view(0))) == "play 6S"
    # Both hearts, so the same suit count: the higher penalty (KH 10 over 4H 4).
    state = GAME.stacked("house", hands=["4H KH 8C 9C", "2D"], discard="6H")
    assert str(greedy_choice(state.view(0))) == "play KH"
    # Ties of penalty: 10H, JH, QH, KH all 10: the lowest card (10H).
    state = GAME.stacked("house", hands=["KH QH 10H JH 2C", "2D"], discard="6H")
    assert str(greedy_choice(state.view(0))) == "play 10H"
    # Only an 8: call the suit held most (clubs: 9C 3C), not the 8's own.
    state = GAME.stacked("house", hands=["8H 9C 3C KD", "2D"], discard="6S")
    assert str(greedy_choice(state.view(0))) == "play 8H C"
    # Suit counts tie (KD vs 9C): the higher penalty total, diamonds.
    state = GAME.stacked("house", hands=["8H 9C KD", "2D"], discard="6S")
    assert str(greedy_choice(state.view(0))) == "play 8H D"
    # Nothing playable: draw (never pass while a draw is allowed), and never a voluntary draw.
    state = GAME.stacked("house", hands=["9C 3C", "2D"], discard="6S", stock="2H")
    assert str(greedy_choice(state.view(0))) == "draw"
    # The last card is an 8: no suit (1.3.7).
    state = GAME.stacked("house", hands=["8H", "2D"], discard="6S")
    assert greedy_choice(state.view(0)).card == Card.parse("8H")
    assert greedy_choice(state.view(0)).suit is None
