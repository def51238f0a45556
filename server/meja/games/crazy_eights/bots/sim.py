"""A compact Crazy Eights simulator for the search bot's sampled worlds.

Why a second implementation of the rules? The engine (:mod:`meja.games.crazy_eights.rules`)
is built for the server: immutable states, events for every seat, legality
errors with reasons. That costs about 15-20 microseconds an action, and the
hard bot plays hundreds of whole rounds per decision. Here a round in progress
is a handful of ints: hands are bitmasks (:mod:`.tables`), the stock a
list popped from the end, the discard pile below the top card a bitmask (its
order matters only to the engine's reshuffle, whose seed a seat never knows), so
a greedy playout of a whole round costs tens of microseconds.

Scope: one round, in the ``play`` and ``choose_suit`` phases, of any preset
(``house``, ``classic`` with forced or optional play of a drawn card, ``party``).
What ends the round is a seat emptying its hand (1.6.1); scoring is left to the
caller (:func:`meja.games.crazy_eights.bots.tables.hand_penalty`). ``tests/games/crazy_eights/bots/test_sim.py`` plays
random and greedy rounds through this simulator and the engine side by side and
checks that every legal-action set, hand and outcome agrees.

Actions are ``(kind, card, suit)`` tuples of ints, with the engine's
:class:`~meja.games.crazy_eights.rules.Kind` numbers and ``-1`` for "none".
"""

from __future__ import annotations

import random
from typing import Final

from ..rules import PLAYABLE
from .tables import EIGHTS, NON_EIGHT_SUIT_MASK, PENALTY, RANK, SUIT, bits, suit_key

__all__ = [
    "DRAW_ACT",
    "PASS_ACT",
    "Action",
    "Rules",
    "Sim",
    "follow_mask",
    "greedy_move",
    "greedy_play",
    "greedy_suit",
    "playout",
]

Action = tuple[int, int, int]
PLAY: Final = 0
SUIT_KIND: Final = 1
DRAW: Final = 2
PASS: Final = 3
DRAW_ACT: Final[Action] = (DRAW, -1, -1)
PASS_ACT: Final[Action] = (PASS, -1, -1)

# after_draw modes
ANY: Final = 0  # house 1.4.4: play anything or draw again
END_TURN: Final = 1  # party 2.3.3: the turn passes
DRAWN: Final = 2  # classic 2.2.3: only the drawn card, if legal


class Rules:
    """The rule switches of one preset that matter inside a round."""

    __slots__ = ("after_draw", "decks", "forced", "max_draws", "stuck_only")

    def __init__(self, max_draws: int, stuck_only: bool, after_draw: str, forced: bool, decks: int):
        self.max_draws = max_draws
        self.stuck_only = stuck_only
        self.after_draw = {"any": ANY, "end_turn": END_TURN, "drawn": DRAWN}[after_draw]
        self.forced = forced
        self.decks = decks

    @classmethod
    def of(cls, options: object, seats: int) -> Rules:
        """From a :class:`~meja.games.crazy_eights.rules.CrazyEightsOptions` (duck-typed: bots never build one)."""
        o: object = options
        return cls(
            max_draws=o.max_draws,  # type: ignore[attr-defined]
            stuck_only=o.draw_only_when_stuck,  # type: ignore[attr-defined]
            after_draw=o.after_draw,  # type: ignore[attr-defined]
            forced=o.drawn_card_play == "forced",  # type: ignore[attr-defined]
            decks=o.decks(seats),  # type: ignore[attr-defined]
        )


#: _FOLLOW[active suit][top card]: the cards that may be played on it (1.3.1), as a bitmask:
#: the rules' own table (rules.PLAYABLE), not a second statement of the rule.
_FOLLOW: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << c for c, ok in enumerate(PLAYABLE[a * 13 + RANK[t]]) if ok) for t in range(104)) for a in range(4)
)


def follow_mask(active: int, top: int) -> int:
    """The cards that may be played with ``active`` suit in force and ``top`` on the pile (1.3.1)."""
    return _FOLLOW[active][top]


def greedy_suit(hand: int) -> int:
    """docs/bots.md greedy: call the suit held most (non-8 cards), then the higher penalty total, then S, H, D, C."""
    best = 0
    best_key = suit_key(hand, 0)
    for s in (1, 2, 3):
        k = suit_key(hand, s)
        if k > best_key:
            best, best_key = s, k
    return best


def greedy_play(hand: int, playable: int) -> tuple[int, int]:
    """docs/bots.md greedy, given a non-empty ``playable`` subset of ``hand``: ``(card, suit or -1)``.

    A non-8 if there is one: the one whose suit the hand holds most of (non-8
    cards, counting the card itself), then the higher penalty, then the lower
    card id. Otherwise the lowest 8, calling :func:`greedy_suit` of what is left
    (no suit when it is the last card, 1.3.7).
    """
    non8 = playable & ~EIGHTS
    if non8:
        best = -1
        best_key = -1
        m = non8
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            k = (hand & NON_EIGHT_SUIT_MASK[SUIT[c]]).bit_count() * 4096 + PENALTY[c] * 128 + 127 - c
            if k > best_key:
                best, best_key = c, k
        return best, -1
    c = (playable & -playable).bit_length() - 1
    rest = hand ^ (1 << c)
    return c, (greedy_suit(rest) if rest else -1)


def _shuffled(cards: list[int], rnd: random.Random) -> list[int]:
    # Fisher-Yates over rnd.random(): stable across Python versions for an int
    # seed (random.shuffle's algorithm is not promised to be).
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def playout(
    hands: list[int],
    stock: list[int],
    disc: int,
    top: int,
    active: int,
    turn: int,
    draws: int,
    rules: Rules,
    rseed: int,
    cap: int = 400,
) -> tuple[int, int]:
    """Play the round to its end with every seat greedy; return the winner (``-1`` past ``cap`` steps) and the steps.

    Starts in the play phase with ``turn`` to act having drawn ``draws`` cards
    this turn. ``hands`` and ``stock`` are consumed (mutated). A reshuffle
    (1.5) shuffles the discard pile below the top with ``random.Random(rseed)``,
    so that candidates compared on one world meet the same reshuffles (common
    random numbers). The greedy choice is :func:`greedy_play`, inlined.
    """
    n = len(hands)
    max_draws = rules.max_draws
    mode = rules.after_draw
    rnd: random.Random | None = None
    follow = _FOLLOW
    non8_mask = NON_EIGHT_SUIT_MASK
    suit_of = SUIT
    rank_of = RANK
    pen = PENALTY
    eights = EIGHTS
    for step in range(cap):
        h = hands[turn]
        playable = h & follow[active][top]
        if playable:
            non8 = playable & ~eights
            if non8:
                if non8 & (non8 - 1):
                    c = -1
                    best_key = -1
                    m = non8
                    while m:
                        low = m & -m
                        cc = low.bit_length() - 1
                        m ^= low
                        k = (h & non8_mask[suit_of[cc]]).bit_count() * 4096 + pen[cc] * 128 + 127 - cc
                        if k > best_key:
                            c, best_key = cc, k
                else:
                    c = non8.bit_length() - 1
                h ^= 1 << c
                hands[turn] = h
                if not h:
                    return turn, step
                disc |= 1 << top
                top = c
                active = suit_of[c]
            else:
                c = (playable & -playable).bit_length() - 1
                h ^= 1 << c
                hands[turn] = h
                if not h:
                    return turn, step
                disc |= 1 << top
                top = c
                active = greedy_suit(h)
            turn += 1
            if turn == n:
                turn = 0
            draws = 0
            continue
        if draws < max_draws and (stock or disc):
            if not stock:
                if rnd is None:
                    rnd = random.Random(rseed)
                stock = _shuffled(bits(disc), rnd)
                disc = 0
            c = stock.pop()
            h |= 1 << c
            hands[turn] = h
            draws += 1
            if mode == ANY:
                continue
            if mode == DRAWN and follow[active][top] >> c & 1:
                # classic 2.2.3: the legal drawn card is played (greedy plays it when optional too)
                h ^= 1 << c
                hands[turn] = h
                disc |= 1 << top
                top = c
                active = greedy_suit(h) if rank_of[c] == 7 else suit_of[c]
        turn += 1
        if turn == n:
            turn = 0
        draws = 0
    return -1, cap


class Sim:
    """One round in progress as plain ints, with the engine's legal actions and transitions.

    The general (slower) path: the search applies each candidate with
    :meth:`apply` and then hands the fields to :func:`playout`; the tests drive
    whole rounds through it beside the engine.
    """

    __slots__ = (
        "active",
        "chooser",
        "disc",
        "drawn",
        "draws",
        "hands",
        "phase",
        "rnd",
        "rules",
        "start_choice",
        "stock",
        "top",
        "turn",
        "winner",
    )

    PLAY_PHASE: Final = 0
    CHOOSE_PHASE: Final = 1

    def __init__(
        self,
        rules: Rules,
        hands: list[int],
        stock: list[int],
        disc: int,
        top: int,
        active: int,
        turn: int,
        draws: int = 0,
        drawn: int = -1,
        chooser: int = -1,
        start_choice: bool = False,
        rnd: random.Random | None = None,
    ):
        self.rules = rules
        self.hands = hands
        self.stock = stock
        self.disc = disc
        self.top = top
        self.active = active
        self.turn = turn
        self.draws = draws
        self.drawn = drawn
        self.chooser = chooser
        self.phase = self.CHOOSE_PHASE if chooser >= 0 else self.PLAY_PHASE
        self.start_choice = start_choice
        self.rnd = rnd or random.Random(0)
        self.winner = -1

    def actor(self) -> int:
        return self.chooser if self.phase == self.CHOOSE_PHASE else self.turn

    def is_playable(self, c: int) -> bool:
        return RANK[c] == 7 or SUIT[c] == self.active or RANK[c] == RANK[self.top]

    def can_draw_any(self) -> bool:
        return bool(self.stock) or bool(self.disc)

    def playable(self) -> int:
        """The playable cards of the seat on turn (only the drawn card while one is pending)."""
        h = self.hands[self.turn] if self.drawn < 0 else 1 << self.drawn
        return h & _FOLLOW[self.active][self.top]

    def legal(self) -> list[Action]:
        """The legal actions of the seat to act, in the engine's order (docs/rules/crazy-eights.md 1.3-1.5, 2.2-2.3)."""
        if self.winner >= 0:
            return []
        if self.phase == self.CHOOSE_PHASE:
            return [(SUIT_KIND, -1, s) for s in range(4)]
        out: list[Action] = []
        last = self.hands[self.turn].bit_count() == 1
        for c in bits(self.playable()):
            if RANK[c] == 7 and not last:
                out.extend((PLAY, c, s) for s in range(4))
            else:
                out.append((PLAY, c, -1))
        stuck = not out
        r = self.rules
        if self.draws < r.max_draws and self.can_draw_any() and (stuck or not r.stuck_only):
            out.append(DRAW_ACT)
        if self.drawn >= 0 or (stuck and not (self.draws < r.max_draws and self.can_draw_any())):
            out.append(PASS_ACT)
        return out

    def _next(self, seat: int) -> None:
        self.turn = (seat + 1) % len(self.hands)
        self.draws = 0
        self.drawn = -1

    def apply(self, action: Action) -> None:
        """Apply a legal action (not checked: the callers only apply what :meth:`legal` offered)."""
        kind, c, s = action
        seat = self.turn
        if kind == PLAY:
            h = self.hands[seat] ^ (1 << c)
            self.hands[seat] = h
            self.disc |= 1 << self.top
            self.top = c
            self.active = SUIT[c] if s < 0 else s
            if not h:
                self.winner = seat
                return
            self._next(seat)
        elif kind == DRAW:
            if not self.stock:
                self.stock = _shuffled(bits(self.disc), self.rnd)  # 1.5: the top card stays
                self.disc = 0
            c = self.stock.pop()
            self.hands[seat] |= 1 << c
            self.draws += 1
            mode = self.rules.after_draw
            if mode == END_TURN:
                self._next(seat)
            elif mode == DRAWN:
                if not self.is_playable(c):
                    self._next(seat)
                elif not self.rules.forced:
                    self.drawn = c
                elif RANK[c] == 7:
                    # The drawn 8 is played for the seat, which then names the suit.
                    self.hands[seat] ^= 1 << c
                    self.disc |= 1 << self.top
                    self.top = c
                    self.active = SUIT[c]
                    self.phase = self.CHOOSE_PHASE
                    self.chooser = seat
                    self.start_choice = False
                else:
                    self.apply((PLAY, c, -1))
        elif kind == PASS:
            self._next(seat)
        else:  # SUIT
            self.active = s
            chooser = self.chooser
            self.phase = self.PLAY_PHASE
            self.chooser = -1
            if self.start_choice:
                self.start_choice = False
                self.draws = 0
                self.drawn = -1
            else:
                self._next(chooser)

    def greedy(self) -> Action:
        """The greedy yardstick's action for the seat to act (:func:`greedy_move`)."""
        return greedy_move(self)

    def run_greedy(self, rseed: int, cap: int = 400) -> tuple[int, int]:
        """Finish the round with every seat greedy (via :func:`playout`): the winner (or -1) and the steps."""
        if self.winner >= 0:
            return self.winner, 0
        if self.phase == self.CHOOSE_PHASE:
            self.apply((SUIT_KIND, -1, greedy_suit(self.hands[self.chooser])))
        if self.drawn >= 0:
            self.apply(greedy_move(self))
            if self.winner >= 0:
                return self.winner, 1
        self.winner, steps = playout(
            self.hands,
            self.stock,
            self.disc,
            self.top,
            self.active,
            self.turn,
            self.draws,
            self.rules,
            rseed,
            cap,
        )
        return self.winner, steps


def greedy_move(sim: Sim) -> Action:
    """docs/bots.md greedy as a simulator action: play (:func:`greedy_play`), else draw, else pass.

    Never draws while it holds a legal card; in the suit phase it calls :func:`greedy_suit`.
    """
    if sim.phase == Sim.CHOOSE_PHASE:
        return (SUIT_KIND, -1, greedy_suit(sim.hands[sim.chooser]))
    playable = sim.playable()
    if playable:
        c, s = greedy_play(sim.hands[sim.turn], playable)
        return (PLAY, c, s)
    legal = sim.legal()
    return DRAW_ACT if DRAW_ACT in legal else PASS_ACT
