"""The archive of finished matches: one immutable record per match, its replay, rebuilt by the rules.

When a match ends, the commit that ends it sets an ``archive`` timer due at once
(:data:`meja.server.tables.TIMERS`): whichever process runs it reads the table's log,
writes one record under the archive's own key (:meth:`meja.store.base.Store.archive`),
kept ``archive_ttl_s`` whatever becomes of the table, then commits the table's
``archived`` field (``yes``, or why not), which ends the timer. A process that dies
between the ending commit and the write leaves the timer due: another process, or
the same one restarted, writes the record. The record holds what it
takes to play the match again, not its frames (the rules rebuild those):

===========  ====================================================================
field        meaning
===========  ====================================================================
v            :data:`FORMAT`
game         the game's name
options      the host's options request (``{"preset": ..., ...}``)
seats        one map per seat: ``name``, ``kind`` (human|bot), ``level`` (bots)
seed         the match seed (hex; it deals every round: it never leaves the server)
deal_code    the deal code the host gave for round 1, or nil
carry        what the match before it at the table handed it (``State.carry()``), or nil
rounds       per round dealt: ``round``, ``hash`` (the commitment every seat was sent),
             ``code`` and ``salt`` (revealed when the round ended), ``chosen``
actions      ``[seat, action]`` (the action's wire form) in the order the table applied them
timeouts     the steps (1-based, as in ``actions``) whose move a time limit made
outcome      ``Outcome.to_wire()`` of the match
final        SHA-256 (hex) of the final state's data (canonical JSON): a rebuild must end there
ended        epoch ms the record was written
===========  ====================================================================

It is msgpack, compressed with zlib (a match's actions repeat the same few words).

The archive id is :func:`meja.server.records.archive_id` of the match seed: 128 bits
nobody can compute before the match ends (the seed is secret), the same in every
process (a retry writes nothing new: a record is written once), so the table map of
the finished match names it without storing it, once its record says ``archived: yes``
(a skipped archive is named nowhere). Archiving stops above
``archive_full_pct`` of the store's memory limit (below ``store_full_pct``, where
new tables stop), so archives give way before tables do. A match whose log no
longer reaches back to its deal (longer than ``log_keep`` versions) is not
archived; the server logs it.

A replay (:func:`rebuild`) deals the match again from the seed and applies the
actions through the game's rules, one step per action (step 0: the deal); each
step's view of a seat is the rules' own ``view``. A record whose actions the rules
refuse, or that does not end in the recorded final state, says so (``check``):
the page's fair-deal check shows it.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import zlib
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, TypeVar

import msgpack  # type: ignore[import-untyped]

from meja.protocol import codec, messages
from meja.protocol.errors import LimitExceeded
from meja.rules import Event, get_game
from meja.store.base import Store

from .limits import Buckets
from .records import FINISHED, Table, archive_id, decode_entry
from .settings import Settings

__all__ = [
    "FORMAT",
    "Archiver",
    "Rebuilt",
    "add_arguments",
    "build",
    "decode",
    "encode",
    "final_digest",
    "is_archive_id",
    "public",
    "rebuild",
    "rebuild_cost",
    "replay_cost",
    "replay_frame",
    "run",
    "steps_wire",
    "text",
]

log = logging.getLogger("meja.server.archive")

_T = TypeVar("_T")

#: The record's format number.
FORMAT: Final = 1
#: Rebuilt matches a process keeps (a replay page asks for one match step range after another).
_CACHED: Final = 16
_ID_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def is_archive_id(text: str) -> bool:
    """Whether ``text`` has the shape of an archive id (22 base64url characters)."""
    return len(text) == 22 and set(text) <= _ID_CHARS


def final_digest(state: Any) -> str:
    """SHA-256 (hex) of a state's data as canonical JSON."""
    data = json.dumps(state.to_data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()


def build(record: Table, log_: Sequence[tuple[int, bytes]], *, now: int) -> dict[str, Any] | None:
    """The archive record of the finished match in ``record`` from the table's log (raw entries,
    oldest first, up to the record's version); ``None`` if the log no longer reaches its deal."""
    if record.status != FINISHED or record.state is None or record.state.outcome() is None:
        return None
    entries = [(v, decode_entry(raw)) for v, raw in log_]
    start = None
    for i, (_, entry) in enumerate(entries):
        if any(e.kind in ("started", "rematch") for e in entry):
            start = i
    if start is None:
        return None
    versions = [v for v, _ in entries[start:]]
    if versions != list(range(versions[0], versions[0] + len(versions))):
        return None
    actions: list[list[Any]] = []
    timeouts: list[int] = []
    rounds: dict[int, dict[str, Any]] = {}
    for _, entry in entries[start:]:
        timed = False
        for e in entry:
            if e.kind == "timeout":
                timed = True
            elif e.kind == "act":
                actions.append([int(e.data["seat"]), dict(e.data["action"])])
                if timed:
                    timeouts.append(len(actions))
            elif e.kind == "commitment":
                rounds[int(e.data["round"])] = {
                    "round": int(e.data["round"]),
                    "hash": e.data["hash"],
                    "chosen": bool(e.data.get("chosen", False)),
                }
            elif e.kind == "reveal" and int(e.data["round"]) in rounds:
                rounds[int(e.data["round"])].update(code=e.data["deal_code"], salt=e.data["salt"])
    first_match = not any(e.kind == "rematch" for e in entries[start][1])
    return {
        "v": FORMAT,
        "game": record.game,
        "options": dict(record.options),
        "seats": [{"name": s.name, "kind": s.kind, "level": s.level if s.is_bot else None} for s in record.seats],
        "seed": f"{record.seed:032x}",
        "deal_code": record.deal_code if first_match else None,
        "carry": record.carry,
        "rounds": [rounds[r] for r in sorted(rounds)],
        "actions": actions,
        "timeouts": timeouts,
        "outcome": record.state.outcome().to_wire(),
        "final": final_digest(record.state),
        "ended": now,
    }


def encode(data: dict[str, Any]) -> bytes:
    """The stored bytes of an archive record: msgpack, then zlib."""
    return zlib.compress(msgpack.packb(data, use_bin_type=True), 9)


def decode(raw: bytes) -> dict[str, Any]:
    """An archive record from its stored bytes; :class:`ValueError` if they are not one."""
    try:
        data = msgpack.unpackb(zlib.decompress(raw), raw=False)
    except Exception as exc:
        raise ValueError(f"not an archive record: {exc}") from None
    if not isinstance(data, dict) or data.get("v") != FORMAT:
        raise ValueError(f"not an archive record of format {FORMAT}")
    return data


@dataclass(frozen=True)
class Rebuilt:
    """A match played again by the rules: ``states[n]`` and ``events[n]`` after step ``n``
    (step 0 is the deal). ``broken_at``: the first step the rules refused (the steps stop
    before it), or ``None``. ``ends_as_recorded``: the last state is the recorded final one."""

    data: dict[str, Any]
    states: tuple[Any, ...]
    events: tuple[tuple[Event, ...], ...]
    broken_at: int | None
    ends_as_recorded: bool

    @property
    def ok(self) -> bool:
        return self.broken_at is None and self.ends_as_recorded


def rebuild(data: dict[str, Any]) -> Rebuilt:
    """Deal the match again from its seed and apply its actions through the rules (see the module docstring)."""
    game = get_game(data["game"])
    options = game.options_from_wire(data["options"])
    deal = game.new_match(options, len(data["seats"]), int(data["seed"], 16), data.get("deal_code"), data.get("carry"))
    states = [deal.state]
    events = [tuple(deal.events)]
    broken_at = None
    for n, (seat, action) in enumerate(data["actions"], start=1):
        try:
            step = states[-1].apply(int(seat), game.decode_action(action))
        except Exception:
            broken_at = n
            break
        states.append(step.state)
        events.append(tuple(step.events))
    ends = broken_at is None and final_digest(states[-1]) == data.get("final")
    return Rebuilt(data, tuple(states), tuple(events), broken_at, ends)


def public(rebuilt: Rebuilt) -> dict[str, Any]:
    """What any client may read of an archived match (no seed): the ``match`` map of a ``replay`` reply."""
    data = rebuilt.data
    game = get_game(data["game"])
    options = game.options_from_wire(data["options"])
    return {
        "game": data["game"],
        "preset": data["options"].get("preset", game.info.default_preset),
        "options": options.to_wire(),
        "teams": [list(team) for team in game.teams(options, len(data["seats"]))],
        "seats": data["seats"],
        "rounds": data["rounds"],
        "outcome": data["outcome"],
        "ended": data["ended"],
        "steps": len(rebuilt.states),
        "moves": len(data["actions"]),
        "check": {"replays": rebuilt.ok, "at": rebuilt.broken_at},
    }


def _visible(events: Sequence[Event], seat: int | None, open_: bool) -> list[dict[str, Any]]:
    if open_:
        # Every hand open: the full form of each private fact, never its redacted twin.
        return [e.to_wire() for e in events if not e.hidden_from]
    return [e.to_wire() for e in events if e.is_seen_by(seat)]


def steps_wire(rebuilt: Rebuilt, *, first: int, count: int, seat: int | None, open_: bool) -> list[dict[str, Any]]:
    """Steps ``first`` .. ``first + count - 1`` (those that exist) as seen from ``seat`` (``None``: a
    spectator), or with every hand open (``open_``: each seat's view)."""
    out = []
    seats = len(rebuilt.data["seats"])
    timeouts = set(rebuilt.data.get("timeouts") or ())
    for n in range(max(first, 0), min(first + count, len(rebuilt.states))):
        state = rebuilt.states[n]
        step: dict[str, Any] = {"n": n, "events": _visible(rebuilt.events[n], seat, open_)}
        if n > 0:
            mover, action = rebuilt.data["actions"][n - 1]
            step.update(seat=mover, action=action, timeout=n in timeouts)
        if open_:
            step["views"] = [state.view(s).to_wire() for s in range(seats)]
        else:
            step["view"] = state.view(seat).to_wire()
        out.append(step)
    return out


def replay_frame(
    rebuilt: Rebuilt, *, key: str, first: int, count: int, seat: int | None, open_: bool, re: int | str | None
) -> bytes:
    """The encoded ``replay`` reply with steps ``first`` .. ``first + count - 1`` (built in the replay thread)."""
    steps = steps_wire(rebuilt, first=first, count=count, seat=seat, open_=open_)
    return codec.encode(messages.replay(archive=key, match=public(rebuilt), seat=seat, open=open_, steps=steps, re=re))


#: Actions re-applied by a rebuild per view of the replay budget it is charged (re-applying an
#: action costs about a tenth of building a view: a long match of 3000 actions took 160 ms).
REBUILD_ACTIONS_PER_VIEW: Final = 10


def rebuild_cost(data: dict[str, Any]) -> int:
    """The views of the replay budget that rebuilding the archive record ``data`` is charged."""
    actions = data.get("actions")
    return 1 + (len(actions) if isinstance(actions, list) else 0) // REBUILD_ACTIONS_PER_VIEW


def replay_cost(rebuilt: Rebuilt, *, first: int, count: int, open_: bool) -> int:
    """The views a ``replay`` of steps ``first`` .. ``first + count - 1`` builds (every seat's with hands open)."""
    steps = max(0, min(first + count, len(rebuilt.states)) - max(first, 0))
    return steps * (len(rebuilt.data["seats"]) if open_ else 1)


class Archiver:
    """Writes the archive of each finished match whose ``archive`` timer this process runs, and reads archives back.

    A replay's steps (each a view of every seat with hands open, then the reply's encoding: a
    10-seat match's 50 open steps are about 200 KB and tens of milliseconds of CPU) are built in
    one thread of the process's own, off the event loop, so a client asking for replays delays no
    table (a hostile player's finding: built on the loop, one connection at the rate limit stalled
    every table of the process). The requests wait for that thread in a queue of at most
    ``replay_queue`` (past it: ``limit/exceeded``), and each client address may ask for
    ``replay_steps_per_s`` views a second (bursts of ``replay_steps_burst``; past it:
    ``limit/exceeded``). A match no longer cached is rebuilt in the same thread, within the same
    queue and budget, charged before it runs (:meth:`load`)."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        #: set by the service's memory watch: the store is past ``archive_full_pct``
        self.full = False
        #: how many matches were archived, and how many not (store too full, log trimmed)
        self.written = 0
        self.skipped = 0
        self._cache: OrderedDict[str, Rebuilt] = OrderedDict()
        #: per client address, the views of replay steps it may still ask for (:meth:`replay`)
        self._views = Buckets(settings.replay_steps_per_s, settings.replay_steps_burst)
        self._thread: ThreadPoolExecutor | None = None
        #: replay requests queued for (or in) the replay thread
        self.building = 0

    async def replay(
        self,
        rebuilt: Rebuilt,
        *,
        key: str,
        first: int,
        count: int,
        seat: int | None,
        open_: bool,
        address: str,
        re: int | str | None,
    ) -> bytes:
        """The encoded ``replay`` reply, built off the event loop; ``limit/exceeded`` past the
        address's budget of views or the queue's bound (see the class docstring)."""
        return await self._in_thread(
            replay_cost(rebuilt, first=first, count=count, open_=open_),
            address,
            functools.partial(replay_frame, rebuilt, key=key, first=first, count=count, seat=seat, open_=open_, re=re),
        )

    async def _in_thread(self, cost: int, address: str, work: Callable[[], _T]) -> _T:
        """``work()`` run in the replay thread once the queue's bound and ``cost`` views of the
        address's budget (at most the burst) allow it; ``limit/exceeded`` (nothing run) if not."""
        settings = self.settings
        if self.building >= max(1, settings.replay_queue):
            raise LimitExceeded("this server is busy replaying matches: ask again in a moment")
        cost = min(cost, settings.replay_steps_burst)
        bucket = self._views.bucket(address)
        if bucket.available() < cost:
            raise LimitExceeded(
                f"replays from this address are limited to {settings.replay_steps_per_s:g} step views a second: "
                "ask again in a moment"
            )
        bucket.tokens -= cost
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="meja-replay")
        self.building += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, work)
        finally:
            self.building -= 1

    def close(self) -> None:
        """Stop the replay thread (the server stops; a build under way is dropped)."""
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None

    async def keep(self, table_id: str, version: int, record: Table, now: int) -> str:
        """Archive the match that ``record`` (version ``version``) finished: ``yes`` (written, or
        already there: the id is the seed's), or why not: ``off``, ``full``, ``log`` (the values of
        the table record's ``archived``)."""
        if self.settings.archive_ttl_s <= 0:
            return "off"
        if self.full:
            self.skipped += 1
            log.warning("table %s: match not archived, the store is past archive_full_pct", table_id)
            return "full"
        entries = [(v, e) for v, e in await self.store.log_since(table_id, -1) if v <= version]
        data = build(record, entries, now=now)
        if data is None:
            self.skipped += 1
            log.warning("table %s: match not archived, its log no longer reaches its deal (log_keep)", table_id)
            return "log"
        key = archive_id(record.seed)
        if await self.store.archive(key, encode(data), ttl_ms=self.settings.archive_ttl_s * 1000):
            self.written += 1  # (a second run of the timer finds it written: it is counted once)
        return "yes"

    async def load(self, key: str, *, address: str) -> Rebuilt | None:
        """The archived match ``key`` played again by the rules, or ``None`` (no such archive).

        A match not among the :data:`_CACHED` is rebuilt in the replay thread, like a replay's
        steps (a long match's rebuild is a tenth of a second of CPU), once the queue's bound and
        the address's budget allow it: :func:`rebuild_cost` views, charged before it runs, so a
        refused request rebuilds nothing."""
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        if not is_archive_id(key):
            return None
        raw = await self.store.archived(key)
        if raw is None:
            return None
        try:
            data = decode(raw)
        except Exception:
            log.exception("archive %s does not read", key)
            return None
        cost = rebuild_cost(data)
        try:
            rebuilt = await self._in_thread(cost, address, lambda: rebuild(data))
        except LimitExceeded:
            raise
        except Exception:
            log.exception("archive %s does not read", key)
            return None
        self._cache[key] = rebuilt
        while len(self._cache) > _CACHED:
            self._cache.popitem(last=False)
        return rebuilt


# --------------------------------------------------------------------------- meja replay ID


def add_arguments(parser: Any) -> None:
    parser.add_argument(
        "archive", metavar="ID", help="the archive id (the end of a /replay/ link; after `--` if it begins with -)"
    )
    parser.add_argument("--redis", metavar="URL", help="the store to read (default: the server's MEJA_REDIS_URL)")
    parser.add_argument("--json", action="store_true", help="print the public record and every move as JSON")


def _words(action: dict[str, Any]) -> str:
    rest = " ".join(f"{k}={v}" if not isinstance(v, str) else v for k, v in action.items() if k != "kind")
    return f"{action.get('kind', '?')} {rest}".strip()


def text(rebuilt: Rebuilt) -> list[str]:
    """A match's moves as lines of text (what ``meja replay`` prints)."""
    data = rebuilt.data
    seats = data["seats"]

    def who(seat: int) -> str:
        s = seats[seat]
        return f"seat {seat} {s['name']}" + (f" (bot, {s['level']})" if s["kind"] == "bot" else "")

    rounds = {r["round"]: r for r in data["rounds"]}
    lines = [
        f"{data['game']} {json.dumps(data['options'], sort_keys=True)}; {len(data['actions'])} moves",
        "seats: " + ", ".join(who(i) for i in range(len(seats))),
    ]
    timeouts = set(data.get("timeouts") or ())
    current = None
    for n, state in enumerate(rebuilt.states):
        if state.round != current and (n == 0 or state.in_round()):
            current = state.round
            r = rounds.get(current)
            opened = r is not None and "code" in r
            fair = (
                ""
                if r is None
                else (
                    f": deal {r['code']}, salt {r['salt']}, commitment "
                    + (
                        "opens"
                        if opened and hashlib.sha256(f"{r['code']}:{r['salt']}".encode()).hexdigest() == r["hash"]
                        else "DOES NOT OPEN"
                    )
                )
            )
            lines.append(f"round {current}{fair}")
        if n == 0:
            continue
        seat, action = data["actions"][n - 1]
        late = " (time ran out)" if n in timeouts else ""
        lines.append(f"  {n:4d}. {who(int(seat))}: {_words(action)}{late}")
    outcome = data["outcome"]
    lines.append(f"outcome: winners {outcome['winners']}, scores {outcome['scores']}")
    if rebuilt.broken_at is not None:
        lines.append(f"CHECK FAILED: the rules refuse move {rebuilt.broken_at}")
    elif not rebuilt.ends_as_recorded:
        lines.append("CHECK FAILED: the moves do not end in the recorded final state")
    else:
        lines.append("check: the rules replay every move to the recorded final state")
    return lines


def run(args: Any) -> int:
    """``meja replay ID``: print an archived match's moves; 0, 1 (no such archive) or 2 (cannot read)."""
    import asyncio
    import sys

    from meja import games
    from meja.store import open_store

    from .settings import SettingsError

    try:
        settings = Settings.from_env()
        for module in settings.game_modules():
            games.load(module)
    except SettingsError as exc:
        print(f"meja replay: {exc}", file=sys.stderr)
        return 2
    url = args.redis or settings.redis_url
    if not url:
        print("meja replay: name the store with --redis URL (or MEJA_REDIS_URL)", file=sys.stderr)
        return 2

    async def read() -> bytes | None:
        store = open_store(url)
        try:
            return await store.archived(args.archive) if is_archive_id(args.archive) else None
        finally:
            await store.aclose()

    raw = asyncio.run(read())
    if raw is None:
        print(f"meja replay: no finished match {args.archive!r} in the archive", file=sys.stderr)
        return 1
    rebuilt = rebuild(decode(raw))
    if args.json:
        doc = {
            **public(rebuilt),
            "moves": [{"n": n, "seat": s, "action": a} for n, (s, a) in enumerate(rebuilt.data["actions"], start=1)],
        }
        print(json.dumps(doc, indent=1))
    else:
        print("\n".join(text(rebuilt)))
    return 0 if rebuilt.ok else 1
