"""Archived matches replay to the live table's final state, for every game (issue 21, part 3).

The conformance suite's archive check: every registered game, each preset at its default seat
count, seeded matches played whole through the server's own table functions (the path every
live change takes: :func:`meja.server.tables.start`, ``play``, ``rematch``) by seeded random
legal actions (a game's timed actions when nobody is awaited), with the log entries the server
would commit. At the end of each match the archive record is built from that log
(:func:`meja.server.archive.build`), stored as bytes and read back, and played again by the
rules: it must accept every action, end in exactly the live table's final state (``to_data``),
give every seat the same last view, and open every round's commitment with its code and salt.
The second match of each table is a rematch (what the first carried, and a fresh seed); a first
match dealt from a host's deal code is among them where the game has codes.
"""

from __future__ import annotations

import hashlib
import random

import pytest
from meja import games
from meja.bots import decision_rng
from meja.server import archive, tables
from meja.server.records import Table, archive_id, encode_entry
from meja.server.rooms import token_hash
from meja.server.settings import Settings

#: Seeded matches per game and preset (two a table: a match and its rematch).
TABLES = 2
#: A bound on one match's actions (none comes near it: a runaway fails the test).
MAX_ACTIONS = 20_000

CASES = [(p.name, preset.name) for p in games.plugins() for preset in p.game.info.presets]


def _play_match(t: Table, log: list[tuple[int, bytes]], rand: random.Random) -> Table:
    """The game's default bots (a seeded random legal action one time in twenty, and a timed action
    when nobody may act) until the match is over, logging each version."""
    plugin = games.get(t.game)
    bot = plugin.bot(plugin.default_level)
    for _ in range(MAX_ACTIONS):
        state = t.state
        if state.outcome() is not None:
            return t
        actors = state.actors()
        if actors:
            seat = rand.choice(actors)
            move = None if rand.random() < 0.05 else bot.choose(state.view(seat), [], decision_rng(state, seat))
            if move is None:
                move = rand.choice(state.legal_actions(seat))
        else:
            timed = state.timed_actions()[0]
            seat, move = timed.seat, timed.action
        mutation = tables.play(t, seat, move, version=len(log), now=0)
        log.append((len(log), encode_entry(mutation.events)))
        t = mutation.table
    raise AssertionError("the match did not end")


def _check_archive(t: Table, log: list[tuple[int, bytes]], where: str) -> None:
    data = archive.build(t, log, now=1)
    assert data is not None, f"{where}: not archived"
    rebuilt = archive.rebuild(archive.decode(archive.encode(data)))
    assert rebuilt.broken_at is None, f"{where}: the rules refuse move {rebuilt.broken_at}"
    final = rebuilt.states[-1]
    assert final.to_data() == t.state.to_data(), f"{where}: the archive does not end in the live state"
    assert rebuilt.ends_as_recorded and rebuilt.ok
    for seat in [None, *range(len(t.seats))]:
        assert final.view(seat).to_wire() == t.state.view(seat).to_wire(), f"{where}: seat {seat}'s last view"
    public = archive.public(rebuilt)
    assert public["outcome"] == t.state.outcome().to_wire() and public["moves"] == len(data["actions"])
    assert "seed" not in public
    rounds = data["rounds"]
    assert bool(rounds) == games.get(t.game).game.info.deal_codes, f"{where}: rounds {rounds}"
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1)), f"{where}: rounds {rounds}"
    for r in rounds:
        assert hashlib.sha256(f"{r['code']}:{r['salt']}".encode()).hexdigest() == r["hash"], f"{where}: {r}"
    assert archive_id(t.seed) and archive.is_archive_id(archive_id(t.seed))


@pytest.mark.parametrize(("game", "preset"), CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_archives_replay_to_the_live_tables_final_state(game: str, preset: str) -> None:
    plugin = games.get(game)
    info = plugin.game.info.preset(preset)
    settings = Settings()
    for n in range(TABLES):
        rand = random.Random(f"{game} {preset} {n}")
        seed = rand.getrandbits(128)
        deal_code = None
        if plugin.game.info.deal_codes and n == 1:
            # A host's deal code: round 1 is that deal (a code the rules made for this seat count).
            probe = plugin.game.new_match(plugin.game.options_from_wire({"preset": preset}), info.default_seats,
                                          seed ^ 1)
            deal_code = probe.state.deal_code
        t = tables.new_table(
            settings, table_id="ab" * 16, code="K7M2QX", name="Ann", game=game, options={"preset": preset},
            seats=info.default_seats, bots=None, deal_code=deal_code, grace_s=None, turn_limit_s=None,
            host_token=token_hash("h"), seat_token=token_hash("s"), conn=("p", "c"), seed=seed, now=0,
        )  # fmt: skip
        log: list[tuple[int, bytes]] = [(0, encode_entry([]))]
        mutation = tables.start(t, version=1, now=0)
        log.append((1, encode_entry(mutation.events)))
        t = _play_match(mutation.table, log, rand)
        _check_archive(t, log, f"{game}/{preset} table {n} match 1")
        # The rematch: its own archive, from what the first match carried and a fresh seed.
        mutation = tables.rematch(t, seed=rand.getrandbits(128), version=len(log), now=0)
        log.append((len(log), encode_entry(mutation.events)))
        t2 = _play_match(mutation.table, log, rand)
        assert archive_id(t2.seed) != archive_id(t.seed)
        _check_archive(t2, log, f"{game}/{preset} table {n} match 2")


def test_a_log_that_no_longer_reaches_the_deal_is_not_archived() -> None:
    game = games.names()[0]
    info = games.get(game).game.info.presets[0]
    t = tables.new_table(
        Settings(), table_id="cd" * 16, code="K7M2QX", name="Ann", game=game, options=None, seats=info.default_seats,
        bots=None, deal_code=None, grace_s=None, turn_limit_s=None, host_token=token_hash("h"),
        seat_token=token_hash("s"), conn=("p", "c"), seed=7, now=0,
    )  # fmt: skip
    log: list[tuple[int, bytes]] = [(0, encode_entry([]))]
    mutation = tables.start(t, version=1, now=0)
    log.append((1, encode_entry(mutation.events)))
    t = _play_match(mutation.table, log, random.Random(7))
    assert archive.build(t, log, now=1) is not None
    assert archive.build(t, log[2:], now=1) is None, "a trimmed log (log_keep) must not make a record"


