"""The discard phase (docs/rules/eighty-three.md 4.6, 4.10.4-4.10.6) checked against independent enumerations.

- **The step refusals are exact** (4.10.4): a partial decision's steps are
  accepted exactly when some whole decision containing them is valid, where
  "valid" is :func:`decision_problems` (the card-by-card end-state check) and
  "some whole decision" is found by enumerating every count of gives, point
  gives, trump discards and plain discards. Checked for every combination of a
  seat's and its partner's trump counts the deck allows, at 12 and 17 cards.
- **Steps commute**: any order of a valid decision's steps is accepted.
- **Any two accepted decisions are valid together** (the point of 4.10.5):
  random deals rigged towards heavy trump hands (both partners above 6, point
  trumps piled on one seat), random step-walks for all four seats in random
  interleavings, random trims: the team end state (4.6.6) always holds, and the
  trim never gets stuck.
- **auto_arrange is always valid** (4.10.6) and is one action.
"""

from __future__ import annotations

import itertools
import os
import random
from functools import cache

import pytest
from meja.games.eighty_three.rules import (
    Counts,
    auto_decision,
    decision_problems,
    infeasible,
    is_trump,
)

from .e83_helpers import AUTO, DONE, GAME, NAMES, UNDO, Action, EightyThreeState, Kind, Phase, act, points

LONG = os.environ.get("MEJA_LONG") == "1"
H = 1
TRUMPS = [c for c in range(53) if is_trump(c, H)]
POINT_TRUMPS = [c for c in TRUMPS if points(c, H)]
PLAIN_TRUMPS = [c for c in TRUMPS if not points(c, H)]
PLAINS = [c for c in range(53) if not is_trump(c, H)]


def _hands(size: int, t: int, p: int, to: int, po: int) -> tuple[list[int], list[int]] | None:
    """A seat's hand (``size`` cards, ``t`` trumps, ``p`` scoring) and its partner's (12 cards), or None."""
    if p > t or po > to or t - p + to - po > len(PLAIN_TRUMPS) or p + po > len(POINT_TRUMPS):
        return None
    if t > size or to > 12:
        return None
    mine = POINT_TRUMPS[:p] + PLAIN_TRUMPS[: t - p] + PLAINS[: size - t]
    theirs = POINT_TRUMPS[p : p + po] + PLAIN_TRUMPS[t - p : t - p + to - po] + PLAINS[size - t : size - t + 12 - to]
    return mine, theirs


@cache
def _valid_finals(size: int, t: int, p: int, to: int, po: int) -> frozenset[tuple[int, int, int, int]]:
    """Every ``(gives, point gives, trump discards, plain discards)`` of a valid whole decision."""
    hands = _hands(size, t, p, to, po)
    assert hands is not None
    mine, theirs = hands
    points_, plain_trumps, plains = mine[:p], mine[p:t], mine[t:]
    out = set()
    for g in range(t + 1):
        for q in range(min(g, p) + 1):
            if g - q > t - p:
                continue
            for d in range(t - p - (g - q) + 1):  # trump discards: non-point ones only (more is refused outright)
                e = size - 6 - g - d
                if not 0 <= e <= len(plains):
                    continue
                gives = points_[:q] + plain_trumps[: g - q]
                drops = plain_trumps[g - q : g - q + d] + plains[:e]
                if not decision_problems(mine, theirs, H, drops, gives):
                    out.add((g, q, d, e))
    return frozenset(out)


def _configs() -> list[tuple[int, int, int, int, int]]:
    out = []
    for size in (12, 17):
        for t, p, to, po in itertools.product(range(16), range(11), range(13), range(11)):
            if _hands(size, t, p, to, po) is not None:
                out.append((size, t, p, to, po))
    return out


CONFIGS = _configs()


def test_the_step_refusals_are_exact() -> None:
    """infeasible (the step checks) agrees with an enumeration of valid whole decisions."""
    checked = 0
    for size, t, p, to, po in CONFIGS:
        finals = _valid_finals(size, t, p, to, po)
        k = Counts(t, p, size - t, to, po)
        assert finals, f"no valid decision for {(size, t, p, to, po)}"  # 4.6.6: one always exists
        x = max(0, t - 6)
        for g0, q0, d0 in itertools.product(range(x + 1), range(min(x, p) + 1), range(x + 1)):
            if q0 > g0 or g0 - q0 + d0 > t - p:
                continue
            for e0 in range(size - t + 1):
                reachable = any(
                    g >= g0 and q >= q0 and g - q >= g0 - q0 and d >= d0 and e >= e0 for g, q, d, e in finals
                )
                assert (infeasible(k, g0, q0, d0, e0) is None) == reachable, (size, t, p, to, po, g0, q0, d0, e0)
                checked += 1
    assert len(CONFIGS) > 2_000 and checked > 100_000


def _rigged(rng: random.Random) -> EightyThreeState:
    """A discard-phase hand, hearts trumps, seat 0 the bidder, team 0 holding 8-15 trumps, often both
    partners above 6 and point trumps piled on one seat."""
    trumps = TRUMPS[:]
    rng.shuffle(trumps)
    if rng.random() < 0.5:  # pile the scoring trumps on one partner
        trumps.sort(key=lambda c: (points(c, H) == 0, rng.random()))
    n0 = rng.randint(8, 15)
    k0 = rng.randint(max(0, n0 - 12), min(n0, 15))
    team0, rest = trumps[:n0], trumps[n0:]
    seat0, seat2 = team0[:k0], team0[k0:]
    if len(seat2) > 12:
        seat0, seat2 = team0[: n0 - 12], team0[n0 - 12 :]
    plains = PLAINS[:]
    rng.shuffle(plains)
    others = rest + plains
    hands: list[list[int]] = [seat0, [], seat2, []]
    sizes = [17, 12, 12, 12]
    for s in (0, 2, 1, 3):
        while len(hands[s]) < sizes[s]:
            hands[s].append(others.pop())
    assert not others
    return GAME.stacked(
        hands=[" ".join(NAMES[c] for c in h) for h in hands], phase="discard", bidder=0, bid=40, trump="H"
    )


def _walk(state: EightyThreeState, seat: int, rng: random.Random) -> EightyThreeState:
    """One random step (undo now and then) for ``seat``; auto_arrange is never chosen."""
    legal = [a for a in state.legal_actions(seat) if a is not AUTO]
    if UNDO in legal and rng.random() < 0.9:
        legal.remove(UNDO)
    return act(state, seat, rng.choice(legal)).state


def test_any_two_accepted_decisions_are_valid_together() -> None:
    rng = random.Random(2024)
    hands = 5000 if LONG else 500
    kinds_seen = set()
    for _ in range(hands):
        state = _rigged(rng)
        k0, k2 = state.counts(0), state.counts(2)
        kinds_seen.add((k0.trumps > 6, k2.trumps > 6, k0.trumps + k2.trumps > 12))
        while state.phase in (Phase.DISCARD, Phase.TRIM):
            seat = rng.choice(state.awaiting())
            state = _walk(state, seat, rng)
        assert state.phase == Phase.PLAY
        assert state.end_state_problems() == []
    # the walks reached the hard cases: both partners above 6, and one above 6 with a short partner
    assert {(True, True, True), (True, False, True), (True, False, False)} <= kinds_seen


def test_steps_commute() -> None:
    rng = random.Random(7)
    for _ in range(40):
        state = _rigged(rng)
        walked = state
        while not walked.decided[0]:
            walked = _walk(walked, 0, rng) if DONE not in walked.legal_actions(0) else act(walked, 0, DONE).state
        steps = list(walked.pending[0])
        for _ in range(3):
            rng.shuffle(steps)
            again = state
            for step in steps:
                kind = Kind.GIVE if step >= 100 else Kind.DISCARD
                again = act(again, 0, Action.card(kind, step % 100)).state
            again = act(again, 0, DONE).state
            assert sorted(again.pending[0]) == sorted(walked.pending[0])


def test_auto_arrange_is_always_valid_and_one_action() -> None:
    rng = random.Random(11)
    for _ in range(300):
        state = _rigged(rng)
        for seat in range(4):
            partner = (seat + 2) % 4
            drops, gives = auto_decision(state.hands[seat], H)
            assert decision_problems(state.hands[seat], state.hands[partner], H, drops, gives) == []
        for seat in rng.sample(range(4), 4):
            if rng.random() < 0.5:  # after some steps of its own, too: auto completes them
                state = _walk(state, seat, rng) if state.pending[seat] == () else state
            state = act(state, seat, AUTO).state
        while state.phase == Phase.TRIM:
            state = act(state, state.awaiting()[0], AUTO).state
        assert state.phase == Phase.PLAY and state.end_state_problems() == []


@pytest.mark.parametrize("seed", range(3))
def test_a_seats_legal_steps_depend_only_on_what_it_sees(seed: int) -> None:
    """4.10.5: permute the cards a seat cannot see (its partner's keeping their trump and point-trump
    counts, and the opponents'): the seat's legal actions do not change."""
    rng = random.Random(seed)
    state = _rigged(rng)
    for seat in range(4):
        hidden = [c for s in range(4) if s != seat for c in state.hands[s]]
        legal = state.legal_actions(seat)
        for _ in range(10):
            # reshuffle the hidden cards by class, so the partner keeps its counts
            classes: dict[int, list[int]] = {}
            for c in hidden:
                classes.setdefault(0 if not is_trump(c, H) else 1 if points(c, H) else 2, []).append(c)
            pools = {k: rng.sample(v, len(v)) for k, v in classes.items()}
            new = [list(h) for h in state.hands]
            for s in range(4):
                if s == seat:
                    continue
                new[s] = [pools[0 if not is_trump(c, H) else 1 if points(c, H) else 2].pop() for c in state.hands[s]]
            other = state._evolve(hands=tuple(tuple(sorted(h)) for h in new))
            assert other.counts(seat) == state.counts(seat)
            assert other.legal_actions(seat) == legal


def test_auto_arrange_keeps_the_steps_taken_and_the_view_says_it_first() -> None:
    """Issue 20, point 13: auto_arrange completes the decision from a seat's own steps (a
    player's picks are not thrown away), ends valid, and the seat's view says beforehand,
    in ``arranged``, exactly what it will hand in (the page shows it before it is pressed)."""
    rng = random.Random(20)
    kept = 0
    for _ in range(200):
        state = _rigged(rng)
        for seat in rng.sample(range(4), 4):
            for _ in range(rng.randint(0, 4)):
                if DONE in state.legal_actions(seat):
                    break
                state = _walk(state, seat, rng)
            taken = state.pending[seat]
            shown = state.view(seat).to_wire()["arranged"]
            state = act(state, seat, AUTO).state
            final = state.pending[seat] if state.phase == Phase.DISCARD else None
            if final is not None:
                assert set(taken) <= set(final), "a step the seat took was thrown away"
                kept += bool(taken)
                drops = sorted(NAMES[c] for c in final if c < 100)
                gives = sorted(NAMES[c - 100] for c in final if c >= 100)
                assert sorted(shown["discards"]) == drops and sorted(shown["gives"]) == gives
                assert state.view(seat).to_wire()["arranged"] is None  # handed in: nothing to show
        while state.phase == Phase.TRIM:
            state = act(state, state.awaiting()[0], AUTO).state
        assert state.phase == Phase.PLAY and state.end_state_problems() == []
    assert kept > 100
