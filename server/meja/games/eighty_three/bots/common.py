"""What every Eighty-Three bot reads from its seat's view and history, and the rules' tables it uses.

Nothing here is a second copy of a rule: the effective suits, trump powers and
card points are :mod:`..rules`' own per-trump tables (``ESUIT``, ``POWER``,
``POINTS``, built there from ``TRUMP_RANKING`` and ``POINT_TABLE``), the trick
winner is :func:`..rules.trick_winner` and the cards a seat may play are
:func:`..rules.playable`, the function the engine itself calls.

:class:`Seen` is what one seat knows in the tricks, rebuilt from its view and
the wire events it saw since the hand began (``history``): its cards at the
deal (and the kitty if it took it), its partner's trump counts at the start of
the discard phase (4.10.5), the trumps it gave and received, the counts every
seat passed, the trumps shown face up, every card played by whom, and the
voids the plays revealed. A bot asked with an empty history (a test, or a
server that sends none) still gets what the view alone says.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from meja.rules.events import EventKinds

from .. import rules
from ..rules import (
    AUTO,
    DONE,
    ESUIT,
    KEEP,
    PASS,
    PLAIN,
    POINTS,
    POWER,
    READY,
    auto_decision,
    auto_trim,
    parse_card,
    trick_winner,
)
from ..rules.events import HandDealt, Kitty, PartnerTrumps, Play

__all__ = [
    "AUTO",
    "DONE",
    "ESUIT",
    "PASS",
    "PLAIN",
    "POINTS",
    "POWER",
    "READY",
    "TRUMPS_HIGH_FIRST",
    "Decision",
    "Seen",
    "arrange",
    "cards_of",
    "hand_score",
    "playable",
    "read_seen",
    "shuffled",
    "trick_winner",
]

SUIT_OF: Final = "SHDC"


#: Per trump suit: the 15 trump card ids from the highest to the lowest (from the rules' POWER table).
def _high_first(trump: int) -> tuple[int, ...]:
    power = POWER[trump]
    return tuple(sorted((c for c in range(53) if ESUIT[trump][c] == PLAIN), key=lambda c: -power[c]))


TRUMPS_HIGH_FIRST: Final = tuple(_high_first(t) for t in range(4))


def playable(
    hands: Sequence[Sequence[int]], seat: int, trick: Sequence[tuple[int, int]], trump: int
) -> tuple[int, ...]:
    """The cards ``seat`` may play to ``trick``: the engine's own following rules (4.7.2-4.7.4)."""
    return rules.playable(hands[seat], trick, trump)


def cards_of(names: Sequence[str] | None) -> list[int]:
    return [parse_card(n) for n in names or ()]


def hand_score(captured: int, bid: int, bidders: bool) -> int:
    """What a team scores for a hand (4.8.2, 4.8.3): defenders what they took, bidders all or minus the bid."""
    if bidders and captured < bid:
        return -bid
    return captured


Decision = tuple[tuple[int, ...], tuple[int, ...]]  # a seat's discard-phase decision: (discards, gives)


def arrange(hands: list[list[int]], trump: int, decisions: Sequence[Decision] | None = None) -> list[list[int]]:
    """The discard phase with every seat on ``auto_arrange`` (4.10.6), by the rules' own functions.

    ``decisions``: each seat's (discards, gives) instead (the searched seat's own, the
    others' ``auto_arrange``). Receivers trim as ``auto_arrange`` does. Returns the four
    6-card hands the tricks start with; trumps shed face up are dropped.
    """
    if decisions is None:
        decisions = [auto_decision(h, trump) for h in hands]
    out: list[list[int]] = []
    for s in range(4):
        drop, gives = decisions[s]
        gone = set(drop) | set(gives)
        out.append([c for c in hands[s] if c not in gone] + list(decisions[(s + 2) % 4][1]))
    for s in range(4):
        if len(out[s]) > KEEP:
            trimmed = set(auto_trim(out[s], trump))
            out[s] = [c for c in out[s] if c not in trimmed]
    return out


def shuffled(items: Sequence[int], rnd: random.Random) -> list[int]:
    """A Fisher-Yates shuffle drawing only ``rnd.random()`` (stable across Python versions for an int seed)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rnd.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out


@dataclass
class Seen:
    """What one seat knows of the hand in progress (see the module docstring). Cards are ids."""

    seat: int
    phase: str
    hand: list[int]
    trump: int
    bidder: int
    bid: int
    dealer: int
    high_bid: int
    hand_counts: list[int]
    #: the auction so far: (seat, bid), 0 for a pass
    calls: list[tuple[int, int]]
    #: the cards this seat was dealt, and the kitty if it took it
    mine: set[int] = field(default_factory=set)
    kitty: list[int] = field(default_factory=list)
    received: list[int] = field(default_factory=list)
    given: list[int] = field(default_factory=list)
    buried: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    shown: list[tuple[int, int]] = field(default_factory=list)
    #: the partner's trumps and point trumps at the start of the discard phase (4.10.5), -1 unknown
    partner_trumps: int = -1
    partner_points: int = -1
    #: every card played this hand, (seat, card) in order; the trick in progress is the last len(trick)
    plays: list[tuple[int, int]] = field(default_factory=list)
    trick: list[tuple[int, int]] = field(default_factory=list)
    #: per seat: the effective suits (0-3 plain, PLAIN for trumps) it has shown it lacks
    voids: list[set[int]] = field(default_factory=lambda: [set(), set(), set(), set()])
    #: the points each team has captured so far
    points: list[int] = field(default_factory=lambda: [0, 0])
    scores: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def team(self) -> int:
        return self.seat % 2

    def gone(self) -> set[int]:
        """The cards out of play for everyone to see: played or shown face up."""
        return {c for _, c in self.plays} | {c for _, c in self.shown}


#: the kinds read_seen folds (any other entry, or a malformed one, is skipped at the cost of a look-up)
_SEEN_KINDS: Final = EventKinds(HandDealt, Kitty, PartnerTrumps, Play)


def read_seen(view: Any, history: Sequence[Mapping[str, Any]]) -> Seen:
    """Rebuild :class:`Seen` from the seat's view (``view.data``) and its history since the hand began."""
    d = view.data
    seat = d["seat"]
    trump = SUIT_OF.index(d["trump"]) if d.get("trump") else -1
    seen = Seen(
        seat=seat,
        phase=d["phase"],
        hand=cards_of(d.get("hand")),
        trump=trump,
        bidder=d["bidder"] if d.get("bidder") is not None else -1,
        bid=d["bid"] or d.get("high_bid") or 0,
        dealer=d["dealer"],
        high_bid=d.get("high_bid") or 0,
        hand_counts=list(d["hand_counts"]),
        calls=[(c["seat"], c["bid"] or 0) for c in d.get("auction") or ()],
        scores=list(d.get("scores") or (0, 0)),
    )
    seen.shown = [(x["seat"], parse_card(x["card"])) for x in d.get("shown") or ()]
    seen.trick = [(x["seat"], parse_card(x["card"])) for x in d.get("trick") or ()]
    seen.points = list(d.get("points") or (0, 0))
    if d.get("passed_counts"):
        seen.passed = list(d["passed_counts"])
    seen.given = cards_of(d.get("given"))
    seen.received = cards_of(d.get("received"))
    seen.buried = cards_of(d.get("discarded"))
    pt = d.get("partner_trumps")
    if pt:
        seen.partner_trumps, seen.partner_points = pt["trumps"], pt["points"]
    seen.mine = set(seen.hand)
    plays: list[tuple[int, int]] = []
    # Typed events (rules/events.py): an entry that is not a well-formed event of these kinds is
    # skipped, so a bad history costs knowledge, never an exception.
    for e in _SEEN_KINDS.known(history):
        if isinstance(e, HandDealt) and e.seat == seat:
            seen.mine |= set(e.cards)
        elif isinstance(e, Kitty) and e.seat == seat and e.cards:
            seen.kitty = list(e.cards)
            seen.mine |= set(seen.kitty)
        elif isinstance(e, PartnerTrumps) and e.seat == seat:
            seen.partner_trumps, seen.partner_points = e.trumps, e.points
        elif isinstance(e, Play) and 0 <= e.seat < 4:
            plays.append((e.seat, e.card))
    # The history's plays end with the trick in progress; without a history, the view's trick alone.
    if not plays or (seen.trick and plays[-len(seen.trick) :] != seen.trick):
        plays = list(seen.trick)
    seen.plays = plays
    seen.mine |= set(seen.given) | set(seen.buried) | {c for s, c in plays if s == seat}
    seen.mine |= {c for s, c in seen.shown if s == seat}
    seen.mine -= set(seen.received)
    if trump >= 0:
        es = ESUIT[trump]
        for i in range(0, len(plays), 4):
            trick = plays[i : i + 4]
            led = es[trick[0][1]]
            for s, c in trick[1:]:
                suit = es[c]
                if led == PLAIN and suit != PLAIN:
                    seen.voids[s].add(PLAIN)  # 4.7.3: a trump was led and it played none
                elif led != PLAIN and suit != led and suit != PLAIN:
                    seen.voids[s].add(led)  # 4.7.4: a third suit only when void in the led one
    return seen
