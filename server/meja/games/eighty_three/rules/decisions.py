"""Eighty-Three's discard decisions (4.6, 4.10): what a seat may keep, give and bury, the reasons a
decision is refused, and the automatic arrangement."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .tables import _ESUIT, _PLAIN, _POINTS, _POWER, KEEP, TEAM_TRUMPS

# --------------------------------------------------------------------------- the discard phase


@dataclass(frozen=True, slots=True)
class Counts:
    """What a seat may know when it decides in the discard phase (4.10.5).

    ``trumps``, ``points`` and ``plain``: its own trumps, point trumps and
    non-trumps at the start of the phase; ``partner_trumps`` and
    ``partner_points``: its partner's trumps and point trumps.
    """

    trumps: int
    points: int
    plain: int
    partner_trumps: int
    partner_points: int

    @property
    def excess(self) -> int:
        """Trumps over 6: what the seat must give or shed (4.6.3, 4.6.4)."""
        return max(0, self.trumps - KEEP)

    @property
    def team_excess(self) -> int:
        """Trumps over 12 the team must shed (4.6.5): ``max(0, N - 12)``."""
        return max(0, self.trumps + self.partner_trumps - TEAM_TRUMPS)


def _counts_of(hand: Sequence[int], partner: Sequence[int], trump: int) -> Counts:
    es, pts = _ESUIT[trump], _POINTS[trump]
    t = sum(1 for c in hand if es[c] == _PLAIN)
    return Counts(
        trumps=t,
        points=sum(1 for c in hand if pts[c]),
        plain=len(hand) - t,
        partner_trumps=sum(1 for c in partner if es[c] == _PLAIN),
        partner_points=sum(1 for c in partner if pts[c]),
    )


def infeasible(k: Counts, gives: int, point_gives: int, trump_discards: int, plain_discards: int) -> str | None:
    """Why a partial decision (so many of each step taken) can no longer end valid, or ``None``.

    The valid ends (4.6.6, 4.10.4), from what the seat knows (4.10.5): the seat
    keeps ``min(6, T)`` trumps and exactly 6 cards; its excess ``T - 6`` is
    split into ``g`` gives and ``x - g`` face-up discards of non-point trumps;
    the team sheds no more than ``N - 12`` trumps (none when ``N <= 12``); and
    the partner can trim what it receives: with ``Ko = min(6, partner trumps)``
    kept and at worst ``min(partner points, 6)`` of them scoring, the ``Ko + g - 6``
    trumps it must trim need as many non-point trumps among its kept and received.
    Point trumps are never discarded: the caller refuses that step outright.
    """
    x = k.excess
    kept_trumps = k.trumps - x
    team_excess = k.team_excess
    if trump_discards > team_excess:
        return "team_keeps" if k.trumps + k.partner_trumps <= TEAM_TRUMPS else "team_limit"
    if gives + trump_discards > x:
        return "excess"
    if plain_discards > k.plain - (KEEP - kept_trumps):
        return "six_cards"
    # Still to shed: x - gives - trump_discards trumps. Discards must be non-point trumps, so
    # whatever the non-point trumps left cannot cover must be given, as point trumps.
    nonpoint_left = (k.trumps - k.points) - (gives - point_gives) - trump_discards
    forced_point_gives = max(0, x - gives - trump_discards - nonpoint_left)
    low = max(gives + forced_point_gives, x - team_excess)  # the fewest gives a valid end has
    partner_kept = min(KEEP, k.partner_trumps)
    if low == 0 or low <= KEEP - partner_kept:
        return None  # the partner has room for every give: it trims no trump
    if point_gives + forced_point_gives <= KEEP - min(k.partner_points, KEEP):
        return None
    return "partner_trim"


_REASONS: Final = {
    "team_keeps": "the team holds 12 trumps or fewer: every trump is kept (eighty-three.md 4.6.3, 4.6.5)",
    "team_limit": "the team would shed more than its trumps over 12 (eighty-three.md 4.6.5)",
    "excess": "only the trumps over 6 may leave a seat's hand (eighty-three.md 4.6.3, 4.6.4)",
    "six_cards": "the decision would not leave exactly 6 cards with every trump it must keep (eighty-three.md 4.6.2)",
    "partner_trim": "the partner could then be unable to trim back to a valid hand (eighty-three.md 4.10.4)",
}


def decision_problems(
    hand: Sequence[int], partner: Sequence[int], trump: int, discards: Sequence[int], gives: Sequence[int]
) -> list[str]:
    """What is wrong with a whole discard-phase decision (empty: it is valid), checked card by card.

    ``hand`` is the seat's hand at the start of the phase and ``partner`` its
    partner's (only their counts matter, 4.10.5). The server runs this on every
    decision handed in: it is the end-state check of 4.6.6 and 4.10.4, written
    apart from the step-by-step refusals so that each checks the other.
    """
    out: list[str] = []
    held = set(hand)
    if len(set(discards) | set(gives)) != len(discards) + len(gives):
        out.append("a card is both discarded and given, or named twice")
    if not held >= set(discards) | set(gives):
        out.append("a card is not in the hand")
    k = _counts_of(hand, partner, trump)
    es, pts = _ESUIT[trump], _POINTS[trump]
    if len(hand) - len(discards) - len(gives) != KEEP:
        out.append(f"the decision leaves {len(hand) - len(discards) - len(gives)} cards, not 6")
    if any(es[c] != _PLAIN for c in gives):
        out.append("a non-trump is given")
    if any(pts[c] for c in discards):
        out.append("a point trump is discarded")
    if len(gives) > k.excess:
        out.append(f"{len(gives)} trumps given, more than the excess over 6 ({k.excess})")
    shed = sum(1 for c in discards if es[c] == _PLAIN)
    kept = k.trumps - shed - len(gives)
    if kept != min(KEEP, k.trumps):
        out.append(f"{kept} trumps kept, not {min(KEEP, k.trumps)}")
    if shed > k.team_excess:
        out.append(f"{shed} trumps discarded, more than the team's excess over 12 ({k.team_excess})")
    partner_kept = min(KEEP, k.partner_trumps)
    must_trim = partner_kept + len(gives) - KEEP
    if gives and must_trim > 0:
        spare = partner_kept - min(k.partner_points, KEEP) + sum(1 for c in gives if not pts[c])
        if spare < must_trim:
            out.append("the partner could be unable to trim back to a valid hand")
    return out


def _low_first(cards: Sequence[int], trump: int) -> list[int]:
    pw = _POWER[trump]
    return sorted(cards, key=lambda c: (pw[c], c))


def auto_decision(hand: Sequence[int], trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """4.10.6: ``(discards, gives)`` for ``hand`` at the start of the discard phase; always valid.

    Keep every point trump; give the whole excess over 6 trumps, non-point
    trumps first (lowest in the ranking first); discard non-trumps, lowest rank
    first, down to 6 cards. No trump is discarded here: a team that must shed
    trumps sheds them in the receiver's trim (:func:`auto_trim`).
    """
    es, pts = _ESUIT[trump], _POINTS[trump]
    trumps = [c for c in hand if es[c] == _PLAIN]
    plain = [c for c in hand if es[c] != _PLAIN]
    excess = max(0, len(trumps) - KEEP)
    order = _low_first([c for c in trumps if not pts[c]], trump) + _low_first([c for c in trumps if pts[c]], trump)
    gives = tuple(sorted(order[:excess]))
    keep_plain = KEEP - (len(trumps) - excess)
    discards = tuple(sorted(_low_first(plain, trump)[: len(plain) - keep_plain]))
    return discards, gives


def auto_trim(hand: Sequence[int], trump: int) -> tuple[int, ...]:
    """The trim of 4.10.6 for a hand of more than 6: non-trumps first, then non-point trumps, lowest first."""
    es, pts = _ESUIT[trump], _POINTS[trump]
    order = _low_first([c for c in hand if es[c] != _PLAIN], trump) + _low_first(
        [c for c in hand if es[c] == _PLAIN and not pts[c]], trump
    )
    return tuple(sorted(order[: len(hand) - KEEP]))
