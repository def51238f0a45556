"""``meja audit``: read tables from the store, replay their logs through the rules, check what clients were told.

    meja audit --redis URL [--claims FILE] [--json] [TABLE ...]

The ground truth is each table's record and log in the store (one log entry per
table version, :mod:`meja.server.records`). The audit answers two questions.

Is the log a history the rules could have produced? (:func:`replay`)
--------------------------------------------------------------------
- Its versions have no gap, from the first entry up to the record's version
  (entries past that version were committed after the record was read, and are
  left for the next read).
- Every game action a version applied is that version's ``act`` event (seat and
  the action's wire form; its audience is nobody, so it is never sent), at most
  one per version; every version with game events has one, except the first
  deal of a match.
- Replaying the actions through the game's rules gives, version by version,
  exactly the game events the log holds, and in the end exactly the state the
  record holds.

A table may hold several matches (``rematch``). Each match starts from a deal
the log does not carry, so each is dealt again from what is known of it:

- the **last** match (the one in the record) from the record's seed (and its
  deal code, for a first match hosted with one): replayed in full, to the
  stored state;
- an **earlier** match from the deal code its first round revealed when it
  ended (the ``reveal`` event; a deal code rebuilds the whole deal, by the game
  contract): replayed in full while it stays in that round. The match seed that
  dealt its later rounds is not kept anywhere (a rematch replaces it), so the
  versions of an earlier match after its first round are checked for shape only
  (contiguous, one well-formed ``act`` where the rules acted) and counted as
  ``unverified``. A game without deal codes leaves its earlier matches
  unverified in the same way. One-round matches are therefore replayed whole.

Were the clients told the truth? (:func:`check_claims`)
-------------------------------------------------------
Given, per human seat, what its client was told (:class:`SeatClaims`):

- **lost**: an action the server answered as applied at table version V (the
  ``update`` carrying the request's ``re``) is not that seat's action at V in
  the log, or is another action. When the answer was a ``state`` instead (the
  process had already passed that version on in a resynchronisation before its
  own commit's delivery: PROTOCOL.md 8), V is the table's version then, and the
  action must be in the log at a version after the one the request named and
  at most V;
- **applied twice** (``doubled``): an action of that seat in the log that no
  answer accounts for, and the server did not make for the seat (a bot while
  the seat was ``auto``, or a time limit's default move: a ``timeout`` event),
  and no request that went unanswered explains (one sent at an earlier
  version, with the same action, each explaining at most one);
- **refused but applied**: one of those that matches a request the server
  refused (sent at an earlier version, the same action): an error reply means
  nothing changed (PROTOCOL.md 10; ``internal``: "the table is unchanged"), so
  this is a lie to the client, counted apart (and also as applied twice: no
  answer accounts for it).

The same for the host's ``rematch`` requests, against the log's ``rematch``
events. Every check is exact: a doctored record or claim fails it (the fault
suite shows so: tests/faults/test_faults_audit.py, tests/faults/test_chaos.py).

The command
-----------
``--claims FILE``: a JSON document ``{"tables": [{"table": ID, "seats": [{"seat":
S, "accepted": [[V, ACTION], ...], "unanswered": [[V_SENT, ACTION], ...],
"refused": [[V_SENT, ACTION, CODE], ...]}, ...], "rematches": {"accepted": [V,
...], "unanswered": N}}, ...]}`` (``meja bench chaos`` writes one). An answer
that came as a ``state`` is written ``[V, ACTION, V_SENT]`` (a rematch's ``[V,
V_SENT]``): somewhere after V_SENT, at most V. Tables named
on the command line are replayed with no claims. It prints a summary (or one
JSON document with ``--json``: totals, then one entry per table) and exits 0
when every table replays and nothing was lost or applied twice, 1 otherwise,
2 when it could not read its input. Extra games (``MEJA_GAMES``, as for ``meja
serve``) are loaded first.

It imports no socket code: only the store, the records and the rules (it lives
in :mod:`meja.server` because the record format does; ``meja bench chaos``
runs it as a subprocess, since the benchmarks may not import the server).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from meja import games
from meja.rules import Event, get_game
from meja.store import open_store

from .records import FINISHED, Table, decode_entry
from .settings import Settings, SettingsError
from .tables import TABLE_EVENTS

__all__ = [
    "AuditError",
    "Log",
    "MatchReplay",
    "Replay",
    "SeatClaims",
    "SeatFindings",
    "TableClaims",
    "add_arguments",
    "audit",
    "audit_table",
    "check_claims",
    "read_table",
    "replay",
    "replay_table",
    "run",
    "server_made",
]

Log = list[tuple[int, tuple[Event, ...]]]
Wire = dict[str, Any]

#: How many failure messages the report keeps (the counts are always whole).
MAX_MESSAGES: Final = 50


class AuditError(Exception):
    """The log is not a history the rules could have produced; the message names the table and version."""


@dataclass
class MatchReplay:
    """One match of a table's log: where it starts, what it was dealt from, how far the rules followed it."""

    start: int  #: table version of its first deal
    dealt_from: str  #: "record" (its seed), "deal code" (revealed by its first round), "unknown"
    finished: bool = False  #: the rules say the match is over (its outcome is set)
    actions: int = 0
    #: versions whose action could not be replayed (see the module docstring), counted, not checked
    unverified: int = 0


@dataclass
class Replay:
    """What :func:`replay` found in a table's log."""

    table_id: str
    record: Table
    version: int
    log: Log
    #: (table version, seat, action) of every action in the log, in order (replayed or not)
    actions: list[tuple[int, int, Any]] = field(default_factory=list)
    matches: list[MatchReplay] = field(default_factory=list)

    def by_seat(self, seat: int) -> list[tuple[int, Any]]:
        return [(v, m) for v, s, m in self.actions if s == seat]

    def count_by_seat(self) -> Counter[int]:
        return Counter(seat for _, seat, _ in self.actions)

    @property
    def unverified(self) -> int:
        return sum(m.unverified for m in self.matches)

    def rematch_versions(self) -> list[int]:
        return [v for v, entry in self.log if any(e.kind == "rematch" for e in entry)]


# --------------------------------------------------------------------------- reading and replaying


async def read_table(store_url: str, table_id: str) -> tuple[int, Table, Log]:
    """``(version, record, [(version, events)...])`` of a table, straight from the store.

    Log entries past the record's version (committed after the record was read) are left out.
    """
    store = open_store(store_url)
    try:
        loaded = await store.load(table_id)
        if loaded is None:
            raise AuditError(f"table {table_id} is not in the store")
        version, raw = loaded
        log = await store.log_since(table_id, -1)
    finally:
        await store.aclose()
    return version, Table.from_bytes(raw), [(v, decode_entry(e)) for v, e in log if v <= version]


def _action(table_id: str, v: int, game: Any, entry: Iterable[Event]) -> tuple[int, Any] | None:
    """The action a version applied: its ``act`` event (seen by nobody; tables.play writes it)."""
    acts = [e for e in entry if e.kind == "act"]
    if not acts:
        return None
    if len(acts) > 1 or acts[0].only != ():
        raise AuditError(f"table {table_id} version {v}: {len(acts)} act events, or one someone may see")
    try:
        return int(acts[0].data["seat"]), game.decode_action(dict(acts[0].data["action"]))
    except Exception as exc:
        raise AuditError(f"table {table_id} version {v}: an act event that does not read: {exc}") from None


def _plain(events: Iterable[Event]) -> list[tuple[Any, ...]]:
    return [(e.kind, dict(e.data), None if e.only is None else tuple(e.only), tuple(e.hidden_from)) for e in events]


def _match_starts(log: Log) -> list[int]:
    """Indexes into ``log`` of each match's first deal: the first entry with game events, then each rematch."""
    starts: list[int] = []
    for i, (_, entry) in enumerate(log):
        rematch = any(e.kind == "rematch" for e in entry)
        if rematch or (not starts and any(e.kind not in TABLE_EVENTS for e in entry)):
            starts.append(i)
    return starts


def _first_code(log: Log, start: int, end: int) -> str | None:
    """The deal code the first round of the match in ``log[start:end]`` revealed, if any."""
    for _, entry in log[start:end]:
        for e in entry:
            if e.kind == "reveal":
                code = e.data.get("deal_code")
                return code if isinstance(code, str) else None
    return None


def replay(table_id: str, version: int, record: Table, log: Log) -> Replay:
    """Check a table's log against the rules (see the module docstring); what it holds.

    Raises :class:`AuditError` at the first version that is not what the rules give.
    """
    versions = [v for v, _ in log]
    if not versions or versions != list(range(versions[0], version + 1)):
        raise AuditError(f"table {table_id}: log versions are not contiguous up to {version}: {versions[:5]}...")
    if record.state is None:
        raise AuditError(f"table {table_id}: never started")
    game = get_game(record.game)
    options = game.options_from_wire(record.options)
    seats = len(record.seats)
    out = Replay(table_id, record, version, log)
    starts = _match_starts(log)
    if not starts:
        raise AuditError(f"table {table_id}: started, but no version deals a match")
    if any(e.kind not in TABLE_EVENTS for _, entry in log[: starts[0]] for e in entry):
        raise AuditError(f"table {table_id}: game events before the first deal")
    state: Any = None
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(log)
        last = end == len(log)
        v0, entry0 = log[start]
        if state is not None and state.outcome() is None:
            raise AuditError(f"table {table_id} version {v0}: a rematch before the match was over")
        if last:
            match = MatchReplay(v0, "record")
            deal: Any = game.new_match(options, seats, record.seed, record.deal_code if n == 0 else None, record.carry)
        else:
            code = _first_code(log, start, end)
            match = MatchReplay(v0, "deal code" if code is not None else "unknown")
            deal = game.new_match(options, seats, 0, code) if code is not None else None
        out.matches.append(match)
        rules0 = [e for e in entry0 if e.kind not in TABLE_EVENTS]
        if _action(table_id, v0, game, entry0) is not None:
            raise AuditError(f"table {table_id} version {v0}: an action in the version that deals a match")
        if deal is not None and _plain(deal.events) != _plain(rules0):
            raise AuditError(f"table {table_id} version {v0}: the first deal differs from the seed's")
        state = None if deal is None else deal.state
        first_round = None if state is None else state.round
        for v, entry in log[start + 1 : end]:
            rules_events = [e for e in entry if e.kind not in TABLE_EVENTS]
            found = _action(table_id, v, game, entry)
            if found is None:
                if rules_events:
                    raise AuditError(f"table {table_id} version {v}: game events with no action: {rules_events}")
                continue
            seat, move = found
            out.actions.append((v, seat, move))
            match.actions += 1
            if state is None:  # an earlier match past what the log can deal again: shape only
                match.unverified += 1
                continue
            try:
                step = state.apply(seat, move)
            except Exception as exc:
                raise AuditError(f"table {table_id} version {v}: seat {seat} {move} is not legal here: {exc}") from None
            if not last and step.state.round != first_round:
                # This action dealt the next round of an earlier match from its match seed, which
                # no record keeps: from here to the rematch, count and check the shape only.
                state = None
                match.unverified += 1
                continue
            if _plain(step.events) != _plain(rules_events):
                raise AuditError(
                    f"table {table_id} version {v}: the log's events are not what {move} gives: "
                    f"{_plain(rules_events)} vs {_plain(step.events)}"
                )
            state = step.state
        # An earlier match the rules could not follow to its end was over all the same: a rematch
        # needs a finished match (tables.rematch).
        match.finished = state.outcome() is not None if state is not None else not last
    if state is None or state.to_data() != record.state.to_data():
        raise AuditError(f"table {table_id}: replaying the log does not give the stored state")
    if not out.matches[-1].finished and record.status == FINISHED:
        # A finished record's match is over (a closed lobby never deals, so it has no state).
        raise AuditError(f"table {table_id}: the record is finished but the replayed match is not over")
    return out


async def replay_table(store_url: str, table_id: str) -> Replay:
    """Read a table from the store and :func:`replay` its log."""
    version, record, log = await read_table(store_url, table_id)
    return replay(table_id, version, record, log)


# --------------------------------------------------------------------------- claims


def server_made(rep: Replay, seat: int) -> set[int]:
    """Versions where the server acted for ``seat``: while a bot played for it, or at a time limit."""
    out: set[int] = set()
    auto = False
    for v, entry in rep.log:
        timeout = False
        for e in entry:
            if e.data.get("seat") != seat:
                continue
            if e.kind == "auto":
                auto = True
            elif e.kind == "connected":
                auto = False
            elif e.kind == "seat_changed":
                auto = e.data.get("to") == "bot"
            elif e.kind == "timeout":
                timeout = True
        if auto or timeout:
            out.add(v)
    return out


@dataclass
class SeatClaims:
    """What one human seat's client was told about its own actions."""

    seat: int
    #: table version -> action (wire form), for every action answered as applied there
    accepted: dict[int, Wire] = field(default_factory=dict)
    #: (version seen, action) of requests that got no answer (the connection closed, or it was given up)
    unanswered: list[tuple[int, Wire]] = field(default_factory=list)
    #: (version seen, action, error code) of requests the server refused (an error reply: nothing changed)
    refused: list[tuple[int, Wire, str]] = field(default_factory=list)
    #: answer version -> the version the request named, for the answers of ``accepted`` that came as
    #: a ``state``: the action is somewhere after that version, at most the answer's
    after: dict[int, int] = field(default_factory=dict)

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> SeatClaims:
        accepted = list(d.get("accepted", ()))
        return cls(
            seat=int(d["seat"]),
            accepted={int(e[0]): dict(e[1]) for e in accepted},
            unanswered=[(int(v), dict(a)) for v, a in d.get("unanswered", ())],
            refused=[(int(v), dict(a), str(c)) for v, a, c in d.get("refused", ())],
            after={int(e[0]): int(e[2]) for e in accepted if len(e) > 2},
        )


@dataclass
class TableClaims:
    """What a table's clients were told: each human seat's actions, and the host's rematches."""

    table_id: str
    seats: list[SeatClaims] = field(default_factory=list)
    rematches: list[int] = field(default_factory=list)  #: versions of the rematches answered as applied
    rematches_unanswered: int = 0
    #: as :attr:`SeatClaims.after`, for the rematches answered by a ``state``
    rematches_after: dict[int, int] = field(default_factory=dict)

    @classmethod
    def from_data(cls, d: Mapping[str, Any]) -> TableClaims:
        rematches = d.get("rematches") or {}
        answered = [e if isinstance(e, list) else [e] for e in rematches.get("accepted", ())]
        return cls(
            table_id=str(d["table"]),
            seats=[SeatClaims.from_data(s) for s in d.get("seats", ())],
            rematches=[int(e[0]) for e in answered],
            rematches_unanswered=int(rematches.get("unanswered", 0)),
            rematches_after={int(e[0]): int(e[1]) for e in answered if len(e) > 1},
        )


@dataclass
class SeatFindings:
    """The claims of one seat held against the log (see the module docstring)."""

    seat: int
    confirmed: int = 0  #: accepted actions found where the answer said
    in_log: int = 0  #: the seat's actions in the log
    by_server: int = 0  #: of those, made by the server for the seat
    explained_by_unanswered: int = 0
    lost: list[str] = field(default_factory=list)
    doubled: list[str] = field(default_factory=list)
    refused_but_applied: list[str] = field(default_factory=list)


def check_claims(rep: Replay, claims: TableClaims) -> tuple[list[SeatFindings], dict[str, Any]]:
    """Hold each seat's claims, and the rematches, against the log: per seat findings, and the rematches'."""
    table = rep.table_id
    out = []
    for record in claims.seats:
        seat = record.seat
        found = SeatFindings(seat)
        logged = {v: m for v, m in rep.by_seat(seat)}
        found.in_log = len(logged)
        made = server_made(rep, seat)
        placed: set[int] = set()  # the log versions that the answers account for
        for v, action in sorted(record.accepted.items()):
            if v in record.after:
                at = _place(logged, action, record.after[v], v, taken=placed, made=made)
                if at is None:
                    found.lost.append(
                        f"table {table} seat {seat}: accepted {action} (answered by a state at version "
                        f"{v}, sent at {record.after[v]}) is not in the log in between"
                    )
                    continue
                placed.add(at)
                found.confirmed += 1
                continue
            move = logged.get(v)
            if move is None:
                found.lost.append(f"table {table} seat {seat}: accepted {action} at version {v} is not in the log")
            elif move.to_wire() != action:
                found.lost.append(
                    f"table {table} seat {seat}: the log has {move.to_wire()} at version {v}, "
                    f"the client was told {action} was applied there"
                )
            else:
                placed.add(v)
                found.confirmed += 1
        found.by_server = sum(1 for v in logged if v in made and v not in placed)
        extra = [(v, m) for v, m in sorted(logged.items()) if v not in placed and v not in made]
        unused = list(record.unanswered)
        for v, move in extra:
            wire = move.to_wire()
            match = next((i for i, (sent, a) in enumerate(unused) if a == wire and sent < v), None)
            if match is not None:
                unused.pop(match)
                found.explained_by_unanswered += 1
                continue
            message = (
                f"table {table} seat {seat}: {wire} at version {v} was applied but never accepted "
                f"(applied twice, or by nobody)"
            )
            # Any error reply promises that nothing changed (PROTOCOL.md 10): a refused request explains nothing.
            refused = [code for sent, a, code in record.refused if a == wire and sent < v]
            if refused:
                message += f"; the server refused it with {refused[-1]!r} (PROTOCOL.md 10: the table is unchanged)"
                found.refused_but_applied.append(message)
            found.doubled.append(message)
        out.append(found)
    in_log = rep.rematch_versions()
    rematch_at = {v: {"kind": "rematch"} for v in in_log}
    placed_rematches: set[int] = set()
    lost_rematches = []
    for v in claims.rematches:
        at = _place(
            rematch_at, {"kind": "rematch"}, claims.rematches_after.get(v, v - 1), v, taken=placed_rematches, made=set()
        )
        if at is None:
            lost_rematches.append(v)
        else:
            placed_rematches.add(at)
    extra_rematches = [v for v in in_log if v not in placed_rematches]
    rematches = {
        "accepted": len(claims.rematches),
        "in_log": len(in_log),
        "lost": [f"table {table}: rematch answered at version {v} is not in the log" for v in lost_rematches],
        "doubled": [
            f"table {table}: rematch at version {v} that no answer or unanswered request accounts for"
            for v in extra_rematches[claims.rematches_unanswered :]
        ],
    }
    return out, rematches


def _place(
    logged: Mapping[int, Any], action: Wire, after: int, at_most: int, *, taken: set[int], made: set[int]
) -> int | None:
    """The log version, after ``after`` and at most ``at_most``, where an answered ``action`` went.

    Not one an earlier answer took; one the server did not make for the seat first (a time
    limit's default move may be the same action), the earliest of those.
    """

    def matches(u: int) -> bool:
        m = logged.get(u)
        return u not in taken and m is not None and (m if isinstance(m, dict) else m.to_wire()) == action

    found = [u for u in range(after + 1, at_most + 1) if matches(u)]
    return next((u for u in found if u not in made), found[0] if found else None)


# --------------------------------------------------------------------------- the report


def audit_table(rep: Replay, claims: TableClaims | None) -> dict[str, Any]:
    """One table's entry of the report (plain data)."""
    counts = rep.count_by_seat()
    entry: dict[str, Any] = {
        "table": rep.table_id,
        "replayed": True,
        "version": rep.version,
        "status": rep.record.status,
        "actions": len(rep.actions),
        "actions_by_seat": {str(s): counts[s] for s in range(len(rep.record.seats))},
        "seat_kinds": [s.kind for s in rep.record.seats],
        "matches": len(rep.matches),
        "matches_finished": sum(1 for m in rep.matches if m.finished),
        "matches_dealt_from": dict(Counter(m.dealt_from for m in rep.matches)),
        "unverified_actions": rep.unverified,
        "lost": 0,
        "doubled": 0,
        "refused_but_applied": 0,
        "messages": [],
    }
    if claims is None:
        return entry
    findings, rematches = check_claims(rep, claims)
    messages: list[str] = []
    for f in findings:
        messages += f.lost + f.doubled
    messages += rematches["lost"] + rematches["doubled"]
    entry.update(
        lost=sum(len(f.lost) for f in findings),
        doubled=sum(len(f.doubled) for f in findings),
        refused_but_applied=sum(len(f.refused_but_applied) for f in findings),
        confirmed=sum(f.confirmed for f in findings),
        by_server=sum(f.by_server for f in findings),
        explained_by_unanswered=sum(f.explained_by_unanswered for f in findings),
        rematches={
            "accepted": rematches["accepted"],
            "in_log": rematches["in_log"],
            "lost": len(rematches["lost"]),
            "doubled": len(rematches["doubled"]),
        },
        messages=messages[:MAX_MESSAGES],
    )
    return entry


async def audit(store_url: str, claims: Sequence[TableClaims], tables: Sequence[str] = ()) -> dict[str, Any]:
    """Replay every table of ``claims`` (checking its claims) and of ``tables`` (replay only); the report."""
    todo: list[tuple[str, TableClaims | None]] = [(c.table_id, c) for c in claims]
    todo += [(t, None) for t in tables]
    entries: list[dict[str, Any]] = []
    for table_id, claim in todo:
        try:
            rep = await replay_table(store_url, table_id)
        except AuditError as exc:
            entries.append({"table": table_id, "replayed": False, "failure": str(exc)})
            continue
        entries.append(audit_table(rep, claim))
    replayed = [e for e in entries if e["replayed"]]

    def total(key: str) -> int:
        return sum(int(e.get(key, 0)) for e in replayed)

    rematch_lost = sum(e.get("rematches", {}).get("lost", 0) for e in replayed)
    rematch_doubled = sum(e.get("rematches", {}).get("doubled", 0) for e in replayed)
    failures = [e["failure"] for e in entries if not e["replayed"]]
    messages = failures + [m for e in replayed for m in e["messages"]]
    report: dict[str, Any] = {
        "tables": len(entries),
        "replayed": len(replayed),
        "replay_failures": len(failures),
        "actions": total("actions"),
        "confirmed": total("confirmed"),
        "by_server": total("by_server"),
        "explained_by_unanswered": total("explained_by_unanswered"),
        "unverified_actions": total("unverified_actions"),
        "matches": total("matches"),
        "matches_finished": total("matches_finished"),
        "matches_dealt_from": dict(sum((Counter(e["matches_dealt_from"]) for e in replayed), Counter())),
        "lost": total("lost"),
        "doubled": total("doubled"),
        "refused_but_applied": total("refused_but_applied"),
        "rematches_lost": rematch_lost,
        "rematches_doubled": rematch_doubled,
        "messages": messages[:MAX_MESSAGES],
        "per_table": entries,
    }
    report["ok"] = not (failures or report["lost"] or report["doubled"] or rematch_lost or rematch_doubled)
    return report


# --------------------------------------------------------------------------- the command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--redis", metavar="URL", required=True, help="the store to read (a Redis URL)")
    parser.add_argument("--claims", metavar="FILE", help="what the clients were told, as JSON (see meja.server.audit)")
    parser.add_argument("--json", action="store_true", help="print one JSON document instead of a summary")
    parser.add_argument("tables", nargs="*", metavar="TABLE", help="table ids to replay (no claims)")


def _print_summary(report: Mapping[str, Any]) -> None:
    print(
        f"meja audit: {report['replayed']} of {report['tables']} tables replay to their stored state; "
        f"{report['actions']} actions, {report['matches_finished']} of {report['matches']} matches finished "
        f"({report['unverified_actions']} actions unverified)"
    )
    print(
        f"  lost {report['lost']}, applied twice {report['doubled']} "
        f"(refused but applied {report['refused_but_applied']}); rematches lost {report['rematches_lost']}, "
        f"doubled {report['rematches_doubled']}; confirmed {report['confirmed']}, made by the server "
        f"{report['by_server']}, unanswered but applied {report['explained_by_unanswered']}"
    )
    for message in report["messages"][:10]:
        print(f"  {message}")


def run(args: argparse.Namespace) -> int:
    """Audit (see the module docstring); print the report. The exit status."""
    try:
        for module in Settings.from_env().game_modules():
            games.load(module)
        claims: list[TableClaims] = []
        if args.claims:
            doc = json.loads(Path(args.claims).read_text(encoding="utf-8"))
            claims = [TableClaims.from_data(t) for t in doc["tables"]]
    except (OSError, ValueError, KeyError, TypeError, SettingsError) as exc:
        print(f"meja audit: cannot read the claims: {exc}", file=sys.stderr)
        return 2
    if not claims and not args.tables:
        print("meja audit: name tables, or give --claims", file=sys.stderr)
        return 2
    report = asyncio.run(audit(args.redis, claims, args.tables))
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        _print_summary(report)
    return 0 if report["ok"] else 1
