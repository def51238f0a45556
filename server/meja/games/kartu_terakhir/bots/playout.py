"""A fast playout of one round for the ``hard`` search: the engine's rollout, on mutable lists.

:func:`.search.rollout` plays a sampled world to the end of its round through the
engine (:meth:`..rules.KartuTerakhirState.apply`): every action builds a new frozen
state, its events and its legal actions, which is most of the search's time.
:func:`playout` plays the same round, seat for seat and card for card, on plain
lists: the same policy (:func:`.common.greedy_turn`, inlined on the hand for a plain turn and a
drawn card, with the engine's own tables; each seat's colour counts kept as cards come and
go), the same stock order, the same reshuffles
(:func:`..rules.reshuffled`), the same challenge coin. It restates no rule's *table*
(what plays on what, what answers a penalty, points, the reshuffle's stream all come
from :mod:`..rules`); it restates the turn's flow (3.3-3.5, 3.7's stacking, 3.6.4's
going out), and ``tests/games/kartu_terakhir/test_kt_bots.py`` checks that it ends
every round exactly as the engine's rollout does (winner, points, hands, actions),
at 2 to 10 seats, with stacking off and on, cut off or played out.

About eight times faster than the engine's rollout (the former replay, which built the legal
plays and called :func:`.common.greedy_turn` at every turn, about five; measured on this
project's 2-core machine under load, 2026-12-06).

What a rollout leaves out, it leaves out too: nobody calls "last card" or catches
(so catch windows change nothing), and a challenged hand shown to its challenger
changes nothing a greedy seat decides.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from typing import Final

from .. import rules as R
from ..rules import KartuTerakhirState, Move
from .common import CHALLENGE, TAKE, greedy_turn

__all__ = ["Playout", "Seen", "playout"]

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
#: per card id: the cards that make the next seat lose its turn (Skip, Draw Two; and Reverse at 2 seats)
_HURTS: Final = tuple(_SYM[c] in (_SKIP, _DRAW_TWO) for c in range(R.CARD_COUNT))
_HURTS2: Final = tuple(_SYM[c] in (_SKIP, _DRAW_TWO, _REVERSE) for c in range(R.CARD_COUNT))
#: per card id: greedy's preference among playable coloured cards (its points, then the colour held
#: most: ``+ 256 *`` the count, added per turn, then the lower name); a hurting card adds :data:`_HURT_KEY`
_KEY: Final = tuple(_POINTS[c] << 20 | 63 - _NAMEIX[c] for c in range(R.CARD_COUNT))
_HURT_KEY: Final = 1 << 30
_KEPT_KEY: Final = 1 << 29  # a card that keeps the colour away from the one to avoid

Seen = tuple[Sequence[int], Sequence[int]]
"""What the seats' greedy play in a playout reads from the round so far: per seat, the colour its last
play made active and the colour of the card it last played (4: a Wild; -1 for both: it has not played)."""

Playout = tuple[int, int, list[list[int]], int]
"""What :func:`playout` returns: the winner (-1: cut off before anyone went out), the points
the winner scored (3.8.2; 0 when cut off), the hands at the end, and the number of actions."""


def playout(
    state: KartuTerakhirState,
    seed: int = 0,
    cap: int = 600,
    seen: Seen | None = None,
    first: int = -1,
    split: bool = False,
) -> Playout:
    """Play ``state``'s round on as :func:`.search.rollout` does, at most ``cap`` actions (see the module).

    Greedy's turn (:func:`.common.greedy_turn` without ``avoid`` or ``lacks``, as the rollout calls it)
    is inlined on the hand for a plain turn and a drawn card: the dearest playable coloured card (a
    card that hurts a next seat at 2 cards or fewer first; ties: the colour held most of, then the
    lower name), else a Wild (the Wild Draw Four first) naming :func:`.common.greedy_colour`'s colour.
    Each seat's colour counts are kept as cards come and go. A stacking answer still goes through
    :func:`.common.greedy_turn` (rare). The test that compares this with the engine's rollout guards
    the inlining.

    With ``seen`` (:data:`Seen`, read from the history by :func:`.search.seen_of`), every seat plays
    as the ``greedy`` yardstick does in full: it steers away from the colour a near-out seat last made
    active (:func:`.common.avoid_colour`), and it challenges a Wild Draw Four whose player's previous
    card was of the colour in force before it (:func:`.yardsticks.challenge_policy`; else the coin).

    ``first`` (a play, ``name * 5 + slot``, legal for the seat on turn in ``state``): that seat plays it
    first, as the engine's ``state.apply`` would, and the round goes on from there; it is not counted in
    the actions or the cap, so ``playout(state, seed, cap, first=m)`` is ``playout(state.apply(seat,
    m).state, seed, cap)`` without building the engine's state (a test checks it). With ``seen``, the
    seats' model also sees that play (its colour, a Wild Draw Four's sign).

    ``split``: each seat draws from its own share of the stock (every ``seats``-th card, a seat whose
    share is spent draws from the largest other share; a reshuffle's stock is shared out again), not
    from the top of one pile. In a world whose stock is dealt at random, a seat's next draw is a
    random unseen card either way; but two candidates played on the same world now hand each seat
    the same cards in the same order, though one made a seat draw more or sooner than the other: a
    difference between their playouts is more often theirs, less often the draw's luck (the search's
    common random numbers hold further into the round). The engine's rollout draws from one pile, so
    only ``split=False`` is compared with it."""
    hands = [list(h) for h in state.hands]
    counts = [len(h) for h in hands]
    ccs = []  # per seat: cards of each colour (4: Wilds)
    for h in hands:
        cc = [0, 0, 0, 0, 0]
        for c in h:
            cc[_COLOUR[c]] += 1
        ccs.append(cc)
    n = state.seats
    stock = list(state.stock)
    piles = [stock[k::n] for k in range(n)] if split else []  # with ``split``: per seat, its share
    left = len(stock)  # cards in the shares
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
    x = seed & 0xFFFFFFFF or 1
    model = seen is not None
    made = list(seen[0]) if seen is not None else []  # per seat: the colour its last play made active
    prev = list(seen[1]) if seen is not None else []  # per seat: its last played card's colour (4: a Wild)
    sign = False  # the pending Wild Draw Four's player's previous card was of the colour before it
    ahead = [[(s + k) % n for k in range(1, n)] for s in range(n)] if model else []  # the others in turn order
    behind = [[(s - k) % n for k in range(1, n)] for s in range(n)] if model else []
    hurt = _HURTS2 if n == 2 else _HURTS
    sym_of = _SYM
    colour_of = _COLOUR
    key_of = _KEY
    playable_of = _PLAYABLE

    def give(seat: int, count: int) -> int:
        """``seat`` draws ``count`` cards (fewer if none are left); the last one drawn, -1: none."""
        nonlocal stock, discard, reshuffles, piles, left
        hand = hands[seat]
        cc = ccs[seat]
        card = -1
        for _ in range(count):
            if not (left if split else stock):
                if len(discard) < 2:
                    break  # 3.3.5: both piles exhausted
                reshuffles += 1
                stock = list(R.reshuffled(world_seed, reshuffles, discard[:-1]))
                discard = discard[-1:]
                if split:
                    piles = [stock[k::n] for k in range(n)]
                    left = len(stock)
            if split:
                card = (piles[seat] or max(piles, key=len)).pop()
                left -= 1
            else:
                card = stock.pop()
            insort(hand, card)
            cc[colour_of[card]] += 1
            counts[seat] += 1
        return card

    steps = 0
    forced = first
    while steps < cap:
        if forced < 0:
            steps += 1
        s = turn
        hand = hands[s]
        cc = ccs[s]
        avoid = -1
        if model and min(counts) <= 2:
            for t in (ahead if d > 0 else behind)[s]:
                if counts[t] <= 2:
                    avoid = made[t]
                    break
        if forced >= 0:  # the searching seat's candidate
            slot = forced % 5
            i = bisect_left(hand, _FIRST_ID[forced // 5])
            forced = -1
        elif pending:
            legal: list[Move] = []
            if stacking:
                answers = _ANSWER_WD4 if sym_of[discard[-1]] == _WD4 else _ANSWER_D2
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
                    if sign:
                        move = CHALLENGE
                    else:
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
            move = greedy_turn(hand, legal, n, s, d, counts, avoid)
            name = move // 5
            slot = move % 5
            i = bisect_left(hand, _FIRST_ID[name])
        elif drawn >= 0:  # greedy plays a drawn card that plays (a Wild names a colour, even as the last card)
            c = drawn
            i = bisect_left(hand, _FIRST_ID[_NAMEIX[c]])
            slot = greedy_colour_of(hand, avoid) if _IS_WILD[c] else _NO_COLOUR
        else:
            playable = playable_of[colour * 15 + sym_of[discard[-1]]]
            threat = counts[(s + d) % n] <= 2
            best = -1
            best_key = -1
            wild = -1
            for j, c in enumerate(hand):
                if playable[c]:
                    k = colour_of[c]
                    if k == _NO_COLOUR:
                        if wild < 0 or sym_of[c] == _WD4:
                            wild = j
                    else:
                        key = key_of[c] + cc[k] * 256
                        if k != avoid:
                            key += _KEPT_KEY
                        if threat and hurt[c]:
                            key += _HURT_KEY
                        if key > best_key:
                            best_key = key
                            best = j
            if best >= 0:
                i = best
                slot = _NO_COLOUR
            elif wild >= 0:
                i = bisect_left(hand, _FIRST_ID[_NAMEIX[hand[wild]]])
                slot = _NO_COLOUR if len(hand) == 1 else greedy_colour_of(hand, avoid)
            else:
                if stock and not split:  # 3.3.3: draw one (``give`` inlined); 3.3.4: play it next, if it plays
                    card = stock.pop()
                    insort(hand, card)
                    cc[colour_of[card]] += 1
                    counts[s] += 1
                    if playable[card]:
                        drawn = card
                    else:
                        turn = (s + d) % n
                elif (split and left) or len(discard) > 1:  # the same from a share, or after a reshuffle (3.3.5)
                    card = give(s, 1)
                    if playable[card]:
                        drawn = card
                    else:
                        turn = (s + d) % n
                else:
                    turn = (s + d) % n  # 3.3.5: nothing to draw: pass
                continue
        card = hand.pop(i)
        counts[s] -= 1
        cc[colour_of[card]] -= 1
        sym = sym_of[card]
        before = colour
        if slot < 4:
            colour = slot
        elif sym < _WILD:
            colour = colour_of[card]
        discard.append(card)
        drawn = -1
        if model:
            if sym == _WD4:
                sign = prev[s] == before
            prev[s] = colour_of[card]
            made[s] = colour
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
                    bluff = cc[before] > 0  # it held a card of the colour in force before (3.5.3)
                pending += 4
            else:
                pending += 2
                challenge = False
    return -1, 0, hands, steps


def greedy_colour_of(hand: list[int], avoid: int) -> int:
    """:func:`.common.greedy_colour` for a Wild of ``hand`` (none known lacking): not ``avoid``, then the
    colour held most, then the most points, then R Y G B."""
    cc = [0, 0, 0, 0, 0]
    pts = [0, 0, 0, 0, 0]
    for c in hand:
        k = _COLOUR[c]
        cc[k] += 1
        pts[k] += _POINTS[c]
    best = 0
    best_key = -1
    for k in range(4):
        key = cc[k] * 4096 + pts[k] + (0 if k == avoid else 1 << 20)
        if key > best_key:
            best_key = key
            best = k
    return best
