"""The card play of the ``normal`` bot, and the fast playouts the ``hard`` bot's search runs with it.

Why not the engine for playouts? A search plays hundreds of hands' ends per
decision; the engine builds events, views and checks for every action (tens
of microseconds each). Here a hand in progress is four lists of card ids, the
trick and the cards gone, and a playout of six tricks takes about a hundred
microseconds. It is not a second copy of the rules: the cards a seat may play
are the rules' own :func:`..rules.playable` (through :func:`.common.playable`), the trick's
winner is :func:`..rules.trick_winner`, and every suit, power and point is
read from the rules' tables (:mod:`.common`). ``tests/games/eighty_three/test_bots.py``
plays hands through both side by side and checks that they agree card for card.

The policy (:func:`play_policy`), from what a seat sees (its hand, the trick,
the cards gone) and nothing more:

- **Lead**: the highest trump still out if it holds it (it wins, and draws
  trumps); else its lowest plain card; else its cheapest trump.
- **Partner winning**: if that is sure (it plays last, or the partner's trump
  cannot be beaten by any trump not gone and not in this hand) it gives the
  trick its highest point card; else it overtakes only with a sure winner on a
  trick worth 5 points or more, and otherwise plays its cheapest card (never
  trumping its partner's sure winner: plain cards are thrown before trumps).
- **Opponent winning**: last to play, it wins if it can (with a big point card
  if one wins, else as low as it can); earlier, it wins with a sure winner, or
  with its lowest winner when the trick holds 5 points or more; otherwise it
  throws its cheapest card (no points, plain before trump, low first).

**Styles read from the plays** (:func:`read_styles`): a search may play each other
seat by the style that explains its plays this hand (:data:`STYLES`: this policy,
or the yardstick's lowest card, which under trumps led throws the joker), drawn per
world by a prior times the plays' likelihood there, and weigh the world by that
likelihood. The default playout plays every seat by :func:`play_policy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from .common import ESUIT, PLAIN, POINTS, POWER, TRUMPS_HIGH_FIRST, Seen, hand_score, playable, trick_winner
from .yardstick import yardstick_card

__all__ = [
    "STYLES",
    "Policy",
    "cheapest",
    "is_sure",
    "lowest_policy",
    "play_policy",
    "playout",
    "read_styles",
    "style_likelihoods",
]

#: A card-play policy: (hand, legal cards, trick, seat, trump, cards gone) -> the card.
Policy = Callable[[Sequence[int], Sequence[int], Sequence[tuple[int, int]], int, int, set[int]], int]

#: A trick holding this many points is worth fighting for with a winner that may be overtaken.
CONTEST: Final = 5


def is_sure(card: int, hand: Sequence[int], gone: set[int], trump: int) -> bool:
    """Whether trump ``card`` beats every trump another seat might still hold (all higher ones gone or here)."""
    if ESUIT[trump][card] != PLAIN:
        return False
    for c in TRUMPS_HIGH_FIRST[trump]:
        if c == card:
            return True
        if c not in gone and c not in hand:
            return False
    return True


def cheapest(cards: Sequence[int], trump: int) -> int:
    """The card to throw away: no points first, plain before trump, lowest first."""
    es, pw, pts = ESUIT[trump], POWER[trump], POINTS[trump]
    return min(cards, key=lambda c: (pts[c], es[c] == PLAIN, pw[c], c))


def _win_key(trump: int) -> Callable[[int], tuple[int, int, int]]:
    """Which winning card to spend: a big point card (it is then ours), else the lowest."""
    pw, pts = POWER[trump], POINTS[trump]
    return lambda c: (-pts[c] if pts[c] >= CONTEST else 0, pw[c], c)


def play_policy(
    hand: Sequence[int], legal: Sequence[int], trick: Sequence[tuple[int, int]], seat: int, trump: int, gone: set[int]
) -> int:
    """The card ``seat`` plays (see the module docstring). ``gone``: cards played or shown, the trick's included."""
    if len(legal) == 1:
        return legal[0]
    es, pw, pts = ESUIT[trump], POWER[trump], POINTS[trump]
    if not trick:
        for c in TRUMPS_HIGH_FIRST[trump]:
            if c not in gone:
                if c in hand:
                    return c
                break
        plains = [c for c in legal if es[c] != PLAIN]
        if plains:
            return min(plains, key=lambda c: (pw[c], c))
        return min(legal, key=lambda c: (pts[c], pw[c], c))
    wseat = trick_winner(trick, trump)
    wcard = next(c for s, c in trick if s == wseat)
    last = len(trick) == 3
    trick_pts = sum(pts[c] for _, c in trick)
    wins = []
    for c in legal:
        if trick_winner((*trick, (seat, c)), trump) == seat:
            wins.append(c)
    key = _win_key(trump)
    if wseat == (seat + 2) % 4:
        if last or is_sure(wcard, hand, gone, trump):
            pointy = [c for c in legal if pts[c]]
            if pointy:
                return max(pointy, key=lambda c: (pts[c], -c))
            return cheapest(legal, trump)
        if trick_pts >= CONTEST:
            sure = [c for c in wins if is_sure(c, hand, gone, trump)]
            if sure:
                return min(sure, key=key)
        return cheapest(legal, trump)
    if wins:
        if last:
            return min(wins, key=key)
        sure = [c for c in wins if is_sure(c, hand, gone, trump)]
        if sure:
            return min(sure, key=key)
        if trick_pts >= CONTEST:
            return min(wins, key=lambda c: (pts[c], pw[c], c))
    return cheapest(legal, trump)


def playout(
    hands: list[list[int]],
    trick: list[tuple[int, int]],
    turn: int,
    trump: int,
    gone: set[int],
    captured: list[int],
    policies: Sequence[Policy] | None = None,
) -> list[int]:
    """Play the hand to its end with :func:`play_policy` at every seat; returns each team's captured points.

    ``policies``: each seat's policy instead (:func:`read_styles`). ``hands``, ``trick``,
    ``gone`` and ``captured`` are consumed (pass copies).
    """
    pts = POINTS[trump]
    while True:
        hand = hands[turn]
        if not hand:
            return captured
        legal = playable(hands, turn, trick, trump)
        policy = play_policy if policies is None else policies[turn]
        card = policy(hand, legal, trick, turn, trump, gone)
        hand.remove(card)
        gone.add(card)
        trick.append((turn, card))
        if len(trick) == 4:
            w = trick_winner(trick, trump)
            captured[w % 2] += pts[trick[0][1]] + pts[trick[1][1]] + pts[trick[2][1]] + pts[trick[3][1]]
            trick = []
            turn = w
        else:
            turn = (turn + 1) % 4


def margin(captured: Sequence[int], team: int, bidder: int, bid: int) -> int:
    """``team``'s hand score minus the other team's (4.8), from the points each captured."""
    bt = bidder % 2
    mine = hand_score(captured[team], bid, team == bt)
    theirs = hand_score(captured[1 - team], bid, team != bt)
    return mine - theirs


# --------------------------------------------------------------------------- styles read from the plays


def lowest_policy(
    hand: Sequence[int], legal: Sequence[int], trick: Sequence[tuple[int, int]], seat: int, trump: int, gone: set[int]
) -> int:
    """The yardstick's play: the highest trump that wins the trick, else the lowest card (trumps led: the joker)."""
    return yardstick_card(legal, trick, seat, trump)


#: The styles another seat's card play is read as: ``normal``'s policy, the yardstick's lowest card.
STYLES: Final[tuple[Policy, ...]] = (play_policy, lowest_policy)


def style_likelihoods(
    seen: Seen, hands: Sequence[Sequence[int]], eps: float, styles: Sequence[Policy] = STYLES
) -> list[list[float]]:
    """How well each style explains each seat's plays this hand, were ``hands`` the hands now.

    A seat's hand before each of its plays is its hand in ``hands`` and the cards it played
    since; a style that would have played the card scores 1 for that play, another ``eps``
    (plays with one legal card say nothing). Per seat (the seat itself: all 1), per style, the
    product over its plays. Without the hand's earlier tricks (no history) only the trick in
    progress is read.
    """
    out = [[1.0] * len(styles) for _ in range(4)]
    plays, trump = seen.plays, seen.trump
    start = len(plays) - len(seen.trick)
    first = 0 if start % 4 == 0 else start
    gone = {c for _, c in seen.shown} | {c for _, c in plays[:first]}
    for k in range(first, len(plays)):
        s, card = plays[k]
        if s != seen.seat:
            at = first + (k - first) // 4 * 4
            trick = plays[at:k]
            hand = list(hands[s]) + [c for t, c in plays[k:] if t == s]
            legal = playable([hand] * 4, s, trick, trump)
            if len(legal) > 1 and card in legal:
                row = out[s]
                for i, style in enumerate(styles):
                    if style(hand, legal, trick, s, trump, gone) != card:
                        row[i] *= eps
        gone.add(card)
    return out


def read_styles(
    seen: Seen,
    hands: Sequence[Sequence[int]],
    rnd: random.Random,
    prior: Sequence[float],
    eps: float,
    styles: Sequence[Policy] = STYLES,
) -> tuple[list[Policy], float]:
    """Each seat's policy for a playout in the world ``hands``, and the world's weight.

    Every other seat's style is drawn by ``prior`` times how well it explains the seat's
    plays there (:func:`style_likelihoods`); the seat itself plays :func:`play_policy`. The
    weight is the product over the other seats of their plays' likelihood (the prior's mixture).
    """
    lik = style_likelihoods(seen, hands, eps, styles)
    policies: list[Policy] = [play_policy] * 4
    weight = 1.0
    for s in range(4):
        if s == seen.seat:
            continue
        w = [p * x for p, x in zip(prior, lik[s], strict=True)]
        total = sum(w)
        weight *= total
        r = rnd.random() * total
        for i, x in enumerate(w):
            r -= x
            if r < 0 or i == len(w) - 1:
                policies[s] = styles[i]
                break
    return policies, weight
