"""Views in two parts for the patch form (issue 24): the hub patches what every seat sees alike once
a version and each seat's own part apart (``State.own_view``, :func:`tables.view_parts`), and what a
patch-form connection rebuilds is still, frame after frame, the whole view a whole-form connection is
sent. Every seat of these tables is a person with a connection of its own, as at a table of friends.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from meja.server import hub as hub_module
from meja.server import tables
from meja.server.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))

import replay_frames

GAMES = {"kartu_terakhir": 6, "crazy_eights": 3, "eighty_three": 4}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_patches_in_two_parts_rebuild_the_whole_views(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = GAMES[game]
    played = [replay_frames.play(game, seats, seed, 160) for seed in range(2)]
    split: Counter[int | None] = Counter()
    real = tables.view_parts

    def counted(t: Any, seat: int | None) -> Any:
        parts = real(t, seat)
        if parts is not None:
            split[seat] += 1
        return parts

    monkeypatch.setattr(hub_module, "view_parts", counted)
    compared, patches = replay_frames.check(played, seats)
    assert compared > 250 and patches > compared * 0.9, (compared, patches)
    # every seat's patches came from its view in two parts (not from its whole view, compared)
    versions = sum(len(p) - 2 for p in played)
    assert all(split[seat] >= versions for seat in range(seats)), (split, versions)


def test_a_seat_alone_with_bots_keeps_its_deal_code_in_the_patch_form() -> None:
    """The shell adds the round's deal code to the view of a seat whose every other seat is a bot: that
    seat's view is not in two parts (its own part would not say it), a spectator's still is."""
    t = tables.new_table(
        Settings(), table_id="T1", code="C1", name="ann", game="kartu_terakhir", options=None, seats=3,
        bots=None, deal_code=None, grace_s=None, turn_limit_s=None, host_token="h", seat_token="t0",
        conn=("p", "c0"), seed=11, now=0,
    )  # fmt: skip
    t = tables.start(t, version=1, now=0).table
    whole = tables.view_for(t, 0)
    assert whole is not None and isinstance(whole.get("deal_code"), str)
    assert tables.view_parts(t, 0) is None
    parts = tables.view_parts(t, None)
    assert parts is not None and {**parts[0], **parts[1]} == tables.view_for(t, None)
