"""Eighty-Three's guide for newcomers (``GamePlugin.lessons``, :mod:`meja.rules.lessons`).

Each step is a hand laid out with :meth:`EightyThree.stacked`, the learner at seat 0
(partner seat 2). The right answer is said in the engine's terms: a bid; the trump
suit that gives the most trumps (``is_trump``); a discard of a card that is not a
trump; the play that wins the trick (``trick_winner``, so the off-colour five and the
joker rank as the rules rank them); and, with a trump led, the trump the rules make
you play. A refused card's words come from the same predicates. The words are in
``page/strings.js`` (``learn.*``).
"""

from __future__ import annotations

import functools
from typing import Any

from meja.rules.lessons import Guide, Lesson

from .rules import (
    GAME,
    NAMES,
    EightyThreeState,
    Kind,
    is_trump,
    parse_cards,
    points,
    trick_winner,
)

__all__ = ["guide"]

# The learner's twelve cards in the auction: six hearts with the king, and the left pedro (5D):
# seven trumps with hearts named (the lesson's first step says so: tests/games/eighty_three/test_e83_lesson_words.py).
_MINE = "AH KH 10H 9H 5H 5D 2H 7C 8C 4S 6S 9D"
HEARTS = 1


def _auction() -> EightyThreeState:
    """The learner's hand, and the rest of the deck dealt in order to the others and the kitty."""
    mine = set(parse_cards(_MINE))
    rest = [NAMES[c] for c in range(len(NAMES)) if c not in mine]
    hands = [_MINE, " ".join(rest[0:12]), " ".join(rest[12:24]), " ".join(rest[24:36])]
    return GAME.stacked(hands=hands, kitty=" ".join(rest[36:41]), dealer=3)


@functools.cache
def _bid() -> int:
    """The bid the learner makes in the first step, the lowest the engine allows there (where the
    page's bid field starts): the later steps carry it, so the guide says one bid throughout."""
    return min(int(a.arg) for a in _auction().legal_actions(0) if a.kind == Kind.BID)


def _trump_phase(phase: str) -> EightyThreeState:
    """After the auction: the learner took the kitty (17 cards), and in ``discard``, named hearts."""
    state = _auction()
    hands = [" ".join(NAMES[c] for c in state.hands[0] + state.kitty)] + [
        " ".join(NAMES[c] for c in state.hands[s]) for s in (1, 2, 3)
    ]
    extra: dict[str, Any] = {"trump": "H"} if phase == "discard" else {}
    return GAME.stacked(hands=hands, phase=phase, bidder=0, bid=_bid(), dealer=3, **extra)


def _tricks(hands: list[str], trick: str, leader: int) -> EightyThreeState:
    """The tricks under hearts, the learner's bid by seat 0, the learner to play last in the trick in
    progress from ``leader``: with n cards in the learner's hand, 6 - n tricks taken (the bidders the
    odd one), and the page says "Trick 7 - n".

    Every point card laid out nowhere else lies in a team's tricks (4.6.5: none is ever discarded),
    and so does every other trump, so that no trump lies face up among the discards."""
    laid = {c for h in hands for c in parse_cards(h)} | set(parse_cards(trick))
    rest = sorted(
        (c for c in range(len(NAMES)) if c not in laid), key=lambda c: (not points(c, HEARTS), not is_trump(c, HEARTS))
    )
    done = 6 - len(parse_cards(hands[0]))
    pile = rest[: 4 * done]
    ours = 4 * ((done + 1) // 2)
    taken = (" ".join(NAMES[c] for c in pile[:ours]), " ".join(NAMES[c] for c in pile[ours:]))
    return GAME.stacked(
        hands=hands, phase="play", bidder=0, bid=_bid(), trump="H", leader=leader, trick=trick, taken=taken, dealer=3
    )


def _kind(kind: Kind) -> Any:
    return lambda state, action: action.kind == kind


def _plays(state: EightyThreeState, action: Any) -> bool:
    return bool(action.kind == Kind.PLAY)


def _most_trumps(state: EightyThreeState, action: Any) -> bool:
    """The suit under which the learner's hand holds the most trumps (4.3.1, 4.3.2)."""
    if action.kind != Kind.TRUMP:
        return False
    count = [sum(is_trump(c, suit) for c in state.hands[0]) for suit in range(4)]
    return bool(count[action.arg] == max(count))


def _sheds_plain(state: EightyThreeState, action: Any) -> bool:
    return action.kind == Kind.DISCARD and not is_trump(action.arg, state.trump)


def _wins_trick(state: EightyThreeState, action: Any) -> bool:
    """Played now, the card would win the trick so far (4.7.5; the ranking of 4.3.3)."""
    return action.kind == Kind.PLAY and trick_winner((*state.trick, (0, action.arg)), state.trump) == 0


def _card_refusal(state: EightyThreeState, seat: int, card: str) -> str | None:
    (c,) = parse_cards(card)
    if state.trump >= 0 and state.trick and is_trump(state.trick[0][1], state.trump):
        return "learn.why.follow_trump"  # 4.7.3
    if state.trump >= 0 and is_trump(c, state.trump):
        return "learn.why.keep_trump"  # 4.6.3
    if state.trump < 0:
        return "learn.why.not_yet"  # the auction, or trumps not named yet
    return None


def _refusal(state: EightyThreeState, seat: int, action: Any) -> str | None:
    if action.kind in (Kind.DISCARD, Kind.GIVE, Kind.PLAY):
        return _card_refusal(state, seat, NAMES[action.arg])
    return None


@functools.cache
def guide() -> Guide:
    """The steps: a bid, trumps, the discard, the ranking (off-colour five, joker), following a trump lead."""
    steps = (
        Lesson("bid", _auction(), 0, _kind(Kind.BID)),
        Lesson("trump", _trump_phase("trump"), 0, _most_trumps),
        Lesson("discard", _trump_phase("discard"), 0, _sheds_plain),
        # Trick 4, spades led by seat 1, the learner holds none: the joker, the lowest trump, wins; a club cannot.
        Lesson("rank", _tricks(["JK 7C 8C", "2C 3C", "2D 3D", "4D 6D"], "KS 4S 9S", 1), 0, _wins_trick),
        # Trick 5, a trump led: the learner must play one, and the 5 of diamonds is one (the left pedro), not the club.
        Lesson("follow", _tricks(["5D 7C", "2C", "2D", "4D"], "9H 4S 6S", 1), 0, _plays),
    )
    return Guide(steps=steps, refusal=_refusal, card_refusal=_card_refusal)
