"""The hard bot's reader with ``tight`` (bots/infoset.py ``_place``; off by default).

A reshuffle breaks the nesting of a seat's groups that the default reader relies on (a group
drawn after it may hold only the names that were in the pile), so taking a played card from
the oldest group that may hold it can leave no group for a later card: the history then reads
inconsistent and the bot deals worlds that know nothing. ``tight`` takes the card from the most
constrained group and, when none still holding cards may hold it, moves earlier plays between
the groups that could have held them.
"""

from __future__ import annotations

import random

from meja.games.kartu_terakhir.bots import make_bot
from meja.games.kartu_terakhir.bots.common import NAMEIX_OF
from meja.games.kartu_terakhir.bots.infoset import _ALL, Group, _place, _Placed, _remove, read_infoset

from ...typed_events import spoil
from ..test_kt_events import _histories

_G0, _R5 = NAMEIX_OF["G0"], NAMEIX_OF["R5"]
#: the names in the pile at a reshuffle: no G0 (it was in a hand then)
_MOVED = _ALL & ~(1 << _G0)


def test_the_oldest_group_first_loses_a_card_that_tight_places() -> None:
    # dealt (any name), then one card drawn after a reshuffle (no G0); it plays R5, then G0
    old = [Group(1, _ALL), Group(1, _MOVED)]
    assert _remove(old, _R5, False, False) == (True, False)
    assert _remove(old, _G0, False, False)[0] is False  # R5 used up the only group G0 fits
    new = [Group(1, _ALL), Group(1, _MOVED)]
    placed: list[_Placed] = []
    assert _place(new, placed, _R5, False, False) == (True, False)
    assert [g.count for g in new] == [1, 0]  # the narrower group gave R5
    assert _place(new, placed, _G0, False, False) == (True, False)
    assert [g.count for g in new] == [0, 0]


def test_tight_moves_an_earlier_play_when_no_group_is_left() -> None:
    # R5 fits both groups and leaves the narrower one, which alone may hold G0: G0 takes its place
    # there and R5 moves to the other group (an augmenting path)
    narrow = Group(1, (1 << _G0) | (1 << _R5))
    wide = Group(1, _MOVED)
    groups = [narrow, wide]
    placed: list[_Placed] = []
    assert _place(groups, placed, _R5, False, False)[0] and placed[0].group is narrow
    assert _place(groups, placed, _G0, False, False)[0]
    assert placed[0].group is wide and placed[1].group is narrow and [g.count for g in groups] == [0, 0]
    # and a third card has nowhere to go
    assert _place(groups, placed, _R5, False, False)[0] is False


def test_tight_reads_whole_what_the_default_drops_and_the_same_without_a_reshuffle() -> None:
    cases = dropped = reshuffled = 0
    for view, history in _histories():
        cases += 1
        default, tight = read_infoset(view, history), read_infoset(view, history, tight=True)
        assert tight.consistent
        if not default.consistent:
            dropped += 1
            # the default then knows nothing: every hand plain and the pile unknown
            assert default.under is None and all(m == _ALL for gs in default.groups for _, m in gs)
            assert tight.under is not None and len(tight.under) == view.discard_count - 1
        if any(e["kind"] == "reshuffle" for e in history):
            reshuffled += 1
        else:  # the groups are nested: the most constrained is the oldest, as the default takes
            assert default.consistent
            assert (tight.pool, tight.known, tight.groups, tight.under) == (
                default.pool,
                default.known,
                default.groups,
                default.under,
            )
        hands, _, _ = tight.sample(random.Random(cases))
        assert [len(h) for h in hands] == list(view.hand_counts)
    # the default (unchanged) still drops about a third of the histories with a reshuffle (312 of 853)
    assert cases > 1000 and reshuffled > 500 and dropped > 0.25 * reshuffled


def test_a_spoilt_history_never_crashes_the_tight_reader() -> None:
    rnd = random.Random(5)
    for n, (view, history) in enumerate(_histories()):
        if n % 3:
            continue
        info = read_infoset(view, spoil(history, rnd, (-1, 10, 99)), tight=True)
        hands, _, _ = info.sample(random.Random(n))
        assert [len(h) for h in hands] == list(view.hand_counts)
        assert sorted(hands[view.seat]) == sorted(view.hand or ())


def test_the_hard_bot_reads_tight_by_default_and_can_read_as_before() -> None:
    """On by default as a correctness fix: the former reader dropped a reshuffled round's every reading."""
    assert make_bot("hard").tight is True
    assert make_bot("hard", tight=False).tight is False
