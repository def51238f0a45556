"""A fast playout of one round for the ``hard`` search: the engine's rollout, on mutable lists.

:func:`.search.rollout` plays a sampled world to the end of its round through the
engine (:meth:`..rules.KartuTerakhirState.apply`): every action builds a new frozen
state, its events and its legal actions, which is most of the search's time.
:func:`playout` plays the same round, seat for seat and card for card, on plain
lists: the same policy (:func:`.common.greedy_turn`, handed legal plays built from the
engine's own tables), the same stock order, the same reshuffles
(:func:`..rules.reshuffled`), the same challenge coin. It restates no rule's *table*
(what plays on what, what answers a penalty, points, the reshuffle's stream all come
from :mod:`..rules`); it restates the turn's flow (3.3-3.5, 3.7's stacking, 3.6.4's
going out), and ``tests/games/kartu_terakhir/test_kt_bots.py`` checks that it ends
every round exactly as the engine's rollout does (winner, points, hands, actions),
at 2 to 10 seats, with stacking off and on, cut off or played out.

What a rollout leaves out, it leaves out too: nobody calls "last card" or catches
(so catch windows change nothing), and a challenged hand shown to its challenger
changes nothing a greedy seat decides.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from typing import Final

from .. import rules as R
from ..rules import KartuTerakhirState, Move
from .common import CHALLENGE, TAKE, greedy_turn

__all__ = ["Playout", "playout"]

_SYM: Final = R.SYM
_COLOUR: Final = R.COLOUR
_POINTS: Final = R.POINTS
_NAMEIX: Final = R.NAMEIX
_IS_WILD: Final = R.IS_WILD
_PLAYABLE: Final = R.PLAYABLE
_FIRST_ID: Final = R.FIRST_ID
_PLAY_OF: Final = R.PLAY_OF
_WILD_PLAYS: Final = R.WILD_PLAYS
_ANSWER_D2: Final = R.ANSWER_D2
_ANSWER_WD4: Final = R.ANSWER_WD4
_NO_COLOUR: Final = R.NO_COLOUR
_SKIP: Final = R.SKIP
_REVERSE: Final = R.REVERSE
_DRAW_TWO: Final = R.DRAW_TWO
_WILD: Final = R.WILD
_WD4: Final = R.WILD_DRAW_FOUR

Playout = tuple[int, int, list[list[int]], int]
"""What :func:`playout` returns: the winner (-1: cut off before anyone went out), the points
the winner scored (3.8.2; 0 when cut off), the hands at the end, and the number of actions."""


def playout(state: KartuTerakhirState, seed: int = 0, cap: int = 600) -> Playout:
    """Play ``state``'s round on as :func:`.search.rollout` does, at most ``cap`` actions (see the module)."""
    hands = [list(h) for h in state.hands]
    counts = [len(h) for h in hands]
    stock = list(state.stock)
    discard = list(state.discard)
    colour = state.colour
    d = state.direction
    turn = state.turn
    drawn = state.drawn
    pending = state.pending
    challenge = state.challenge
    bluff = state.bluff
    wd4_by = state.wd4_by
    stacking = state.options.stacking
    world_seed = state.seed
    reshuffles = state.reshuffles
    n = state.seats
    x = seed & 0xFFFFFFFF or 1

    def give(seat: int, count: int) -> int:
        """``seat`` draws ``count`` cards (fewer if none are left); the last one drawn, -1: none."""
        nonlocal stock, discard, reshuffles
        hand = hands[seat]
        card = -1
        for _ in range(count):
            if not stock:
                if len(discard) < 2:
                    break  # 3.3.5: both piles exhausted
                reshuffles += 1
                stock = list(R.reshuffled(world_seed, reshuffles, discard[:-1]))
                discard = discard[-1:]
            card = stock.pop()
            insort(hand, card)
            counts[seat] += 1
        return card

    steps = 0
    while steps < cap:
        steps += 1
        s = turn
        hand = hands[s]
        legal: list[Move] | tuple[Move, ...]
        if pending:
            legal = []
            if stacking:
                answers = _ANSWER_WD4 if _SYM[discard[-1]] == _WD4 else _ANSWER_D2
                last = -1
                for c in hand:
                    if answers[c] and _NAMEIX[c] != last:
                        last = _NAMEIX[c]
                        if len(hand) == 1 or not _IS_WILD[c]:
                            legal.append(_PLAY_OF[c][_NO_COLOUR])
                        else:
                            legal.extend(_WILD_PLAYS[c])
            if not legal:  # take the penalty (a Draw Two's without stacking draws by itself, 3.4: the same)
                move: Move = TAKE
                if challenge:
                    x = (x * 1103515245 + 12345) & 0x7FFFFFFF  # the rollout's coin
                    if (x >> 16) & 3 == 0:
                        move = CHALLENGE
                if move == TAKE:
                    give(s, pending)
                    pending = 0
                    challenge = False
                    turn = (s + d) % n
                else:
                    pending = 0
                    challenge = False
                    if bluff:
                        give(wd4_by, 4)  # 3.5.4: the challenger plays its turn
                    else:
                        give(s, 6)  # 3.5.5
                        turn = (s + d) % n
                continue
        elif drawn >= 0:
            c = drawn
            legal = _WILD_PLAYS[c] if _IS_WILD[c] else _PLAY_OF[c][_NO_COLOUR : _NO_COLOUR + 1]
        else:
            playable = _PLAYABLE[colour * 15 + _SYM[discard[-1]]]
            legal = []
            last = -1
            for c in hand:
                if playable[c] and _NAMEIX[c] != last:
                    last = _NAMEIX[c]
                    if not _IS_WILD[c] or len(hand) == 1:
                        legal.append(_PLAY_OF[c][_NO_COLOUR])
                    else:
                        legal.extend(_WILD_PLAYS[c])
            if not legal:
                if stock or len(discard) > 1:  # 3.3.3: draw one; 3.3.4: play it next, if it plays
                    card = give(s, 1)
                    if _PLAYABLE[colour * 15 + _SYM[discard[-1]]][card]:
                        drawn = card
                    else:
                        turn = (s + d) % n
                else:
                    turn = (s + d) % n  # 3.3.5: nothing to draw: pass
                continue
        move = greedy_turn(hand, legal, n, s, d, counts)
        name = move // 5
        slot = move % 5
        i = bisect_left(hand, _FIRST_ID[name])
        card = hand.pop(i)
        counts[s] -= 1
        sym = _SYM[card]
        before = colour
        if slot < 4:
            colour = slot
        elif sym < _WILD:
            colour = _COLOUR[card]
        discard.append(card)
        drawn = -1
        if not hand:  # 3.6.4: out; the next seat draws a Draw Two's or Wild Draw Four's penalty first
            penalty = pending + (2 if sym == _DRAW_TWO else 4 if sym == _WD4 else 0)
            if penalty:
                give((s + d) % n, penalty)
            points = 0
            for h in hands:
                for c in h:
                    points += _POINTS[c]
            return s, points, hands, steps
        if sym < _SKIP or sym == _WILD:
            turn = (s + d) % n
        elif sym == _SKIP:
            turn = (s + 2 * d) % n
        elif sym == _REVERSE:
            d = -d
            turn = s if n == 2 else (s + d) % n
        else:
            turn = (s + d) % n
            if sym == _WD4:
                challenge = not pending
                if challenge:
                    wd4_by = s
                    bluff = any(_COLOUR[c] == before for c in hand)
                pending += 4
            else:
                pending += 2
                challenge = False
    return -1, 0, hands, steps
