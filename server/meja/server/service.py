"""The table service: every request and every timer becomes one committed change of a table.

The path of one change (docs/architecture.md 1)::

    request or timer -> current record (this process's cache, or the store)
      -> tables.<change>(record) -> Mutation(next record, events)   [pure; may refuse]
      -> tables.plan(): the timers it sets and cancels
      -> store.commit(expected=version): compare-and-set, log entry, publish, timers, expiry
      -> hub.apply(): this process's connections get their updates at once;
         every other process gets the change from the store's pub/sub.

Commits to one table take turns within a process (a bot's move racing a
player's is settled from the cache, at no round trip). A commit that loses the
compare-and-set (another process committed first) is recomputed on the fresh
record, up to ``Settings.commit_attempts`` times: a person's action is checked again (and is
stale only if the game moved on), a timer finds it has nothing left to do.

Timers (keys ``<table>|<kind>|<seat>|<marker>``, see :func:`meja.server.tables.due_keys`)
fire through :meth:`TableService.on_due`: a bot's move, a turn limit's default
move, a ``ready`` timeout, the end of a grace period, or a check that an
awaited player's server process is still alive. Each rereads the table and
does nothing if the marker no longer matches; so a timer delivered twice, or
late, or after the player came back, changes nothing.

Bots act through :func:`meja.server.tables.play`, the same validated path as a
person's action, with what :meth:`meja.server.botplay.BotPlay.decide` chose (the
table's game's bot, wherever it thinks, its choice checked once there). A bot is
asked for every seat that may act, out of turn included; for a seat the game does
not wait for, it may decline.

A timer that meets a bug in a game (its rules or its bot raise) is logged with
the table and version and dropped: it never comes back to fail again, and the
table is unchanged.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from meja import games
from meja.bots.base import why_is_sound
from meja.protocol.errors import (
    ArchiveNotFound,
    BadMessage,
    BadToken,
    CodeRateLimited,
    DealNotFound,
    HintsOff,
    InternalError,
    LimitExceeded,
    NotHost,
    NotSeated,
    SeatTaken,
    ServerFull,
    StaleVersion,
    TableNotFound,
)
from meja.protocol.messages import Host
from meja.rules import Event
from meja.rules.dealcode import DealCodeLengthError
from meja.rules.errors import NotYourTurnError, RulesError
from meja.rules.rng import SEED_BITS
from meja.store.base import Change, Store

from . import dealboard, tables, talk
from .archive import Archiver, Rebuilt
from .botplay import BotPlay, BotPool
from .hub import Hub, Reply
from .limits import Buckets
from .records import FINISHED, PLAYING, SeatRecord, Table, encode_entry
from .rooms import new_code, new_table_id, new_token, normalize_code, same_token, token_hash
from .settings import Settings

__all__ = ["Asker", "Committed", "DueOutcome", "Learned", "Seated", "TableService", "wall_ms"]

log = logging.getLogger("meja.server.service")

#: Tables whose change budgets are kept (the least recent go: a bucket refills in seconds anyway).
_CHANGE_BUCKETS = 4096

Fn = Callable[[Table, int, int], "tables.Mutation | Learned | None"]


class AheadOfTable(Exception):
    """A request names a version past the table as this process read it: a protocol error,
    unless the read was this process's cache a moment behind the store (then it reads again)."""


@dataclass(frozen=True, slots=True)
class Learned:
    """What a change returns when it learned something its caller needs (the seat a ``join``
    took): the mutation (``None``: nothing to commit) and that value, which the commit returns."""

    mutation: tables.Mutation | None
    value: Any


@dataclass(frozen=True, slots=True)
class Committed:
    """What a commit did: the version it wrote (``None``: the change had nothing to commit), and
    what the change learned (:class:`Learned`) on the attempt that committed."""

    version: int | None
    learned: Any = None


#: What a timer's run asks of the runner (see :meth:`TableService.on_due`).
DueOutcome = Literal["finish", "finished", "keep"]


def wall_ms() -> int:
    """Milliseconds since the epoch (timers are shared between processes: wall clock)."""
    import time

    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Seated:
    """What ``host``, ``join`` and ``resume`` tell their connection (``joined``)."""

    table_id: str
    code: str
    seat: int | None  #: None: a host without a seat
    token: str | None
    token_hash: str | None
    host_token: str | None
    host_token_hash: str | None


@dataclass(eq=False)
class _Turns:
    """One table's commits in this process take turns: the lock, and how many hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableService:
    """Requests and timers as committed changes; see the module docstring."""

    def __init__(
        self,
        store: Store,
        hub: Hub,
        settings: Settings,
        process_id: str,
        *,
        clock: Callable[[], int] = wall_ms,
        on_schedule: Callable[[int], None] | None = None,
        on_commit: Callable[[Table, Table, tuple[Event, ...]], None] | None = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.process_id = process_id
        self.clock = clock
        self.on_schedule = on_schedule
        #: called after every successful commit with (table before, table after, the version's
        #: events): the operators' metrics count accepted actions here (people's and bots' alike)
        self.on_commit = on_commit
        #: pauses only (never game state): the game's chance is in its own seeded RNG
        self.rand = random.Random()
        #: the tables with a commit in progress here, and their turns (see commit())
        self._turns: dict[str, _Turns] = {}
        #: the bots of this process's tables: who plays, what they saw, where they think (botplay.py)
        self.bots = BotPlay(store, settings)
        #: seconds this process has reached the store without a failed heartbeat (timers.Heartbeat):
        #: a dead-process check judges nobody dead before this reaches a heartbeat TTL
        self.reached_store_for: Callable[[], float] = lambda: float("inf")
        #: the store's memory use, as last read: ``(used, limit)`` or ``None`` (no limit); above
        #: ``store_full_pct`` of the limit, new tables are refused (see :meth:`watch_memory`)
        self.store_memory: tuple[int, int] | None = None
        self.store_full = False
        #: per table, the budget of its non-game changes made here (joins, resumes, seat moves)
        self._changes = Buckets(settings.table_changes_per_s, settings.table_changes_burst, keep=_CHANGE_BUCKETS)
        #: per client address, the missed versions this process replays to it (:meth:`replay_allowance`)
        self._replays = Buckets(settings.replay_per_s, settings.replay_burst)
        #: per seat of a table, its private steps (:meth:`_spend_private`)
        self._private_steps = Buckets(settings.private_steps_per_s, settings.private_steps_burst)
        #: per seat of a table, its holder's moves to another seat (:meth:`sit`; carried with them)
        self._moves = Buckets(settings.seat_moves_per_min / 60, settings.seat_moves_burst)
        #: talk at the table and the call's signals (not changes of the table: notes of the store)
        self.talk = talk.Talk(hub)
        #: the archive of finished matches (:mod:`meja.server.archive`; its writes are ``archive``
        #: timers), and the deal boards' writes under way
        self.archiver = Archiver(store, settings)
        self._archiving: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ the commit path

    async def commit(
        self,
        table_id: str,
        fn: Fn,
        *,
        reply: Reply | None = None,
        fresh: bool = False,
        first: tuple[int, Table] | None = None,
        finishes: str | None = None,
    ) -> Committed:
        """Apply ``fn(table, next_version, now)`` and commit it; the new version and what ``fn`` learned.

        The first attempt works on this process's cache unless ``fresh``; a lost
        compare-and-set reloads from the store. Timers pass ``fresh``: a cache a
        moment behind the store would make a due bot move look moot (``fn``
        returns ``None``) and drop it, where a request on a stale cache merely
        loses the compare-and-set and is checked again. ``first``: the
        ``(version, table)`` the caller has just read, for the first attempt (a timer
        that read the table to decide does not read it twice). ``finishes``: the key of
        the timer making this change, removed by the same commit (no separate
        :meth:`~meja.store.base.Store.finish_due` round trip).

        Raises what ``fn`` raises (nothing is committed), :class:`TableNotFound`,
        or :class:`InternalError` when the table stays too contended.
        """
        # One commit at a time per table in this process: a second one (a bot's move racing a
        # player's) then starts from the first's result in the cache and is checked without a
        # round trip, instead of losing the compare-and-set in Redis and reloading. Commits of
        # other processes are still caught by the compare-and-set.
        turns = self._turns.get(table_id)
        if turns is None:
            turns = self._turns[table_id] = _Turns()
        turns.users += 1
        try:
            async with turns.lock:
                return await self._commit(table_id, fn, reply=reply, fresh=fresh, first=first, finishes=finishes)
        finally:
            turns.users -= 1
            if not turns.users:
                del self._turns[table_id]

    async def _commit(
        self,
        table_id: str,
        fn: Fn,
        *,
        reply: Reply | None,
        fresh: bool,
        first: tuple[int, Table] | None,
        finishes: str | None,
    ) -> Committed:
        settings = self.settings
        for attempt in range(settings.commit_attempts):
            if attempt == 0 and first is not None:
                cached = self.hub.cached(table_id)
                # (a commit made here while this one waited for its turn is in the cache)
                current: tuple[int, Table] | None = (
                    (cached.version, cached.table) if cached is not None and cached.version > first[0] else first
                )
            else:
                current = await self.hub.current(table_id, fresh=fresh or attempt > 0)
            if current is None:
                raise TableNotFound(f"no table {table_id!r} (it may have expired)")
            version, table = current
            now = self.clock()
            try:
                result = fn(table, version + 1, now)
            except AheadOfTable as exc:
                if attempt == 0 and not fresh:
                    continue  # this process's cache may be a moment behind the store: look again
                raise BadMessage(str(exc)) from None
            learned: Any = None
            mutation: tables.Mutation | None
            if isinstance(result, Learned):
                mutation, learned = result.mutation, result.value
            else:
                mutation = result
            if mutation is None:
                return Committed(None, learned)
            tables.check_lifecycle(table, mutation.table)
            new, schedule, cancel = tables.plan(table, mutation.table, mutation.events, now, settings, self.rand)
            if finishes is not None and finishes not in cancel:
                cancel = [*cancel, finishes]  # cancel comes before schedule: a re-scheduled key stays
            new = new.evolve(commit=secrets.token_hex(8))
            record = new.to_bytes()
            entry = encode_entry(mutation.events)
            ttl = settings.finished_ttl_s if new.status == FINISHED else settings.table_ttl_s
            # The hub answers the request with the frame of the version this commit writes, if it
            # does (whichever copy of the change reaches the hub first: see Hub.answering).
            with self.hub.answering(table_id, version + 1, new.commit, reply):
                ok = await self.store.commit(
                    table_id,
                    version,
                    record,
                    entry,
                    schedule=schedule,
                    cancel=cancel,
                    ttl_ms=ttl * 1000,
                    log_keep=settings.log_keep,
                )
                if ok:
                    if self.on_commit is not None:
                        self.on_commit(table, new, mutation.events)
                    if not self.archiver.full and any(e.kind == "reveal" for e in mutation.events):
                        # (past archive_full_pct the boards stop too: they give way to live games)
                        self._board_soon(table_id, new, mutation.events, now)
                    await self.hub.apply(Change(table_id, version + 1, record, entry), new, mutation.events)
            if ok:
                if schedule and self.on_schedule is not None:
                    self.on_schedule(min(d.due_ms for d in schedule))
                return Committed(version + 1, learned)
        raise InternalError(f"table {table_id!r} is too busy right now: try again")

    def _board_soon(self, table_id: str, table: Table, events: tuple[Event, ...], now: int) -> None:
        """Write the results of the rounds this commit ended to their deals' boards (dealboard.py)."""

        async def keep() -> None:
            try:
                await dealboard.record(self.store, self.settings, table, events, now_ms=now)
            except Exception:
                log.exception("table %s: could not write the round's results to its deal's board", table_id)

        task = asyncio.get_running_loop().create_task(keep())
        self._archiving.add(task)
        task.add_done_callback(self._archiving.discard)

    async def _count_code(self, address: str) -> None:
        """Spend one of the address's room-code lookups (room codes, replays, short deal codes)."""
        settings = self.settings
        count = await self.store.hit(f"code:{address}", settings.code_window_s * 1000)
        if count > settings.code_attempts:
            raise CodeRateLimited(
                f"too many room codes, replays and deals tried from this address: wait up to {settings.code_window_s} s"
            )

    async def deal_board(self, code: str, *, address: str, counted: bool) -> dict[str, Any]:
        """The board of a deal named by its short code or its deal code: ``code`` (short), ``deal_code``,
        ``game`` and ``plays``. A short code ``counted`` (the connection has not opened it yet) spends the
        room-code budget; one with no finished round here, or a code that reads as neither:
        ``deal/not_found``. A deal code always answers (whoever holds it knows the deal): its plays may
        be none yet."""
        short = dealboard.read_short(code)
        if short is not None:
            if counted:
                await self._count_code(address)
            entries = await dealboard.load(self.store, short)
            if not entries:
                raise DealNotFound(f"no finished round of deal {code!r} on this server")
            return {
                "code": short,
                "deal_code": entries[0]["deal_code"],
                "game": entries[0]["game"],
                "plays": dealboard.plays_wire(entries),
            }
        for plugin in games.plugins():
            if plugin.game.info.deal_codes:
                try:
                    canonical = plugin.game.read_deal_code(code).code
                except RulesError:
                    continue
                short = dealboard.short_code(canonical)
                entries = await dealboard.load(self.store, short)
                return {
                    "code": short,
                    "deal_code": canonical,
                    "game": plugin.name,
                    "plays": dealboard.plays_wire(entries),
                }
        raise DealNotFound(f"{code!r} is neither a deal code nor a deal's short code")

    async def long_code(self, msg: Host, *, address: str) -> Host:
        """``msg`` with a short deal code replaced by the deal code its board names (``deal/not_found``
        if none); any other ``host`` unchanged."""
        if msg.deal_code is None or dealboard.read_short(msg.deal_code) is None:
            return msg
        board = await self.deal_board(msg.deal_code, address=address, counted=True)
        return dataclasses.replace(
            msg, deal_code=board["deal_code"], game=msg.game if msg.game is not None else board["game"]
        )

    async def archived(self) -> None:
        """Wait for the deal boards' writes under way (tests, and a shutdown that lets them end)."""
        while self._archiving:
            await asyncio.gather(*self._archiving, return_exceptions=True)

    async def replay(self, key: str, *, address: str, counted: bool) -> Rebuilt:
        """An archived match, played again by the rules. A lookup ``counted`` (the connection has not
        opened this archive yet) spends the address's room-code budget, found or not: ids are guessed
        no faster than room codes. A malformed id, one never written or expired: ``archive/not_found``."""
        if counted:
            await self._count_code(address)
        found = await self.archiver.load(key, address=address)
        if found is None:
            raise ArchiveNotFound(f"no finished match {key!r} in the archive")
        return found

    def game_of(self, msg: Host) -> str:
        """The game a ``host`` asks for: named, else the one whose deal code it gives, else the default."""
        if msg.game is not None:
            return msg.game
        if msg.deal_code is not None:
            fits = None
            for plugin in games.plugins():
                if plugin.game.info.deal_codes:
                    try:
                        plugin.game.read_deal_code(msg.deal_code)
                    except RulesError as exc:
                        # A code no game reads is refused by a game whose codes have its length (a
                        # typo: "its check character does not match"), not by another game's length.
                        if fits is None and not isinstance(exc, DealCodeLengthError):
                            fits = plugin.name
                        continue
                    return plugin.name
            if fits is not None:
                return fits
        return self.default_game

    @property
    def default_game(self) -> str:
        """The game of a ``host`` that names none: the setting, else the first registered game."""
        return self.settings.default_game or games.names()[0]

    def _spend(self, table_id: str) -> None:
        """Take one of a table's non-game changes (a join, a seat moved) from its budget; ``table_id``
        with ``/seat`` is one seat's budget, which its resumes spend.

        Every change is a new version pushed to every member, and restarts the table's expiry:
        past ``table_changes_per_s`` (bursts of ``table_changes_burst``) from this process, the
        request is refused with ``limit/exceeded`` and nothing changes (issue 12, finding 4).
        """
        if not self._changes.bucket(table_id).take():
            raise LimitExceeded("too many changes at this table right now (joins, resumes, seats): wait a moment")

    def replay_allowance(self, address: str, wanted: int) -> int:
        """How many of ``wanted`` missed versions to replay to ``address`` now (the most recent ones).

        Each replayed version is a frame with the whole table and view, and a ``resume`` or a
        ``watch`` with ``since`` is a short request: unbudgeted, a client asking again and again
        had a process send thousands of frames for each of its messages (a hostile player's
        finding). Past the address's budget the client gets fewer, down to none: the ``state``
        that follows is the whole picture all the same (PROTOCOL.md 9).
        """
        return self._replays.bucket(address).take_up_to(max(0, wanted))

    def may_replay(self, address: str) -> bool:
        """Whether ``address`` has any replay budget left (else its missed versions are not even read)."""
        return self._replays.bucket(address).available() >= 1

    # ------------------------------------------------------------------ finding tables

    async def resolve(self, *, code: str | None, table: str | None, address: str) -> str:
        """The id of the table a ``join``/``watch`` names. Room-code lookups are rate-limited per address."""
        if table is not None:
            return table
        assert code is not None
        settings = self.settings
        # Every lookup by code counts, found or not: a guesser must not learn which codes live.
        count = await self.store.hit(f"code:{address}", settings.code_window_s * 1000)
        if count > settings.code_attempts:
            raise CodeRateLimited(f"too many room codes tried from this address: wait up to {settings.code_window_s} s")
        canonical = normalize_code(code)
        found = None if canonical is None else await self.store.lookup(canonical)
        if found is None:
            raise TableNotFound(f"no table with room code {code!r}")
        return found

    # ------------------------------------------------------------------ lobby

    async def watch_memory(self) -> None:
        """Read the store's memory use every ``memory_check_s``; mark the store full past ``store_full_pct``.

        A Redis at ``maxmemory`` with ``noeviction`` refuses every write: commits, and the
        timer claims that run bots and grace periods everywhere. So new tables stop well
        before it (``server/full``), and the room left is the live tables' to finish in.
        """
        settings = self.settings
        while True:
            try:
                usage = await self.store.memory()
            except Exception as exc:
                log.warning("could not read the store's memory use: %s", exc)
            else:
                self.store_memory = usage
                self.archiver.full = usage is not None and usage[0] * 100 >= usage[1] * settings.archive_full_pct
                full = usage is not None and usage[0] * 100 >= usage[1] * settings.store_full_pct
                if full != self.store_full:
                    if full:
                        assert usage is not None
                        log.warning(
                            "the store uses %d of %d bytes (%d%%, above store_full_pct %d%%): new tables are "
                            "refused (server/full) until it has room again",
                            usage[0], usage[1], usage[0] * 100 // usage[1], settings.store_full_pct,
                        )  # fmt: skip
                    else:
                        log.warning("the store has room again: new tables are accepted")
                self.store_full = full
            await asyncio.sleep(settings.memory_check_s)

    async def host(self, msg: Host, *, conn: tuple[str, str], address: str) -> Seated:
        """Open a table with its host in seat 0 (a short deal code names its deal: :meth:`long_code`)."""
        settings = self.settings
        if self.store_full:
            raise ServerFull("the server is full right now: no new tables until the games in play make room")
        msg = await self.long_code(msg, address=address)
        seat_token, host_token = new_token(), new_token()
        now = self.clock()
        counted = False
        for _ in range(8):
            code = new_code()
            table_id = new_table_id(code)  # in the code's store bucket (a Redis Cluster needs it)
            table = tables.new_table(
                settings,
                table_id=table_id,
                code=code,
                name=msg.name,
                game=self.game_of(msg),
                options=msg.options,
                seats=msg.seats,
                bots=msg.bots,
                deal_code=msg.deal_code,
                grace_s=msg.grace_s,
                turn_limit_s=msg.turn_limit_s,
                talk_request=msg.talk,
                seated=msg.seated is not False,
                host_token=token_hash(host_token),
                seat_token=token_hash(seat_token),
                conn=conn,
                seed=secrets.randbits(SEED_BITS),
                now=now,
            )
            if not counted:
                # Counted once the request makes a table (issue 25: refused ones used the quota up).
                counted = True
                hosted = await self.store.hit(f"host:{address}", settings.host_window_s * 1000)
                if hosted > settings.hosts_per_window:
                    raise LimitExceeded(
                        f"too many tables hosted from this address: wait up to {settings.host_window_s} s"
                    )
            first = (
                []
                if table.host_seat is None
                else [Event("seat_changed", {"seat": 0, "to": "human", "name": table.seats[0].name})]
            )
            entry = encode_entry(first)
            if await self.store.create(table_id, code, table.to_bytes(), entry, ttl_ms=settings.table_ttl_s * 1000):
                if table.host_seat is None:
                    return Seated(table_id, code, None, None, None, host_token, token_hash(host_token))
                return Seated(table_id, code, 0, seat_token, token_hash(seat_token), host_token, token_hash(host_token))
        raise InternalError("could not find a free room code: try again")

    async def join(
        self, table_id: str, *, name: str, seat: int | None, conn: tuple[str, str], address: str | None = None
    ) -> Seated:
        """Give a person a seat in the lobby, with a fresh seat token (``address``: theirs, for kicks)."""
        token = new_token()
        hashed = token_hash(token)

        def change(t: Table, version: int, now: int) -> Learned:
            # Checked before it is charged: a join the table refuses (not in the lobby, full, a
            # name taken) commits nothing and costs the table nothing, so that a stranger's
            # refused joins cannot drain the budget its people need to come back (a hostile
            # player's finding).
            mutation, chosen = tables.join(t, name=name, seat=seat, token=hashed, conn=conn, address=address)
            self._spend(t.id)
            return Learned(mutation, (chosen, t.code))

        seat, code = (await self.commit(table_id, change)).learned
        return Seated(table_id, code, seat, token, hashed, None, None)

    async def resume(self, table_id: str, *, token: str, host_token: str | None, conn: tuple[str, str]) -> Seated:
        """Make this connection the holder of the seat whose token is ``token``."""
        hashed = token_hash(token)
        # Each resume is a version pushed to everyone (``connected``): counted per seat in the store,
        # so alternating between processes does not multiply the budget (issue 25, finding 1).
        window = self.settings.seat_resumes_per_min
        if window and await self.store.hit(f"resume:{table_id}:{hashed[:16]}", 60_000) > window:
            raise LimitExceeded(f"more than {window} returns with this seat token in a minute: wait a moment")

        def change(t: Table, version: int, now: int) -> Learned:
            seat = t.seat_of_token(hashed)
            if seat is None:
                raise BadToken("that seat token is not valid at this table")
            if host_token is not None and not same_token(host_token, t.host):
                raise BadToken("that host token is not valid at this table")
            record = t.seats[seat]
            if record.conn == conn and record.away is None and not record.auto:
                # this connection holds the seat already: nothing to commit (issue 12, 4)
                return Learned(None, (seat, t.code))
            # One seat a connection at a table, as for a join: taking a second one left the first
            # marked connected with nobody behind it, never away, so no bot ever played for it
            # (an outside client's finding: the table waited on that seat for good).
            held = next((i for i, r in enumerate(t.seats) if i != seat and r.is_human and r.conn == conn), None)
            if held is not None:
                raise SeatTaken(f"this connection already holds seat {held} at that table")
            # Each seat's resumes from its own budget: a holder taking its seat again and again
            # (from fresh connections) spends its own, and never locks another person out.
            self._spend(f"{t.id}/{seat}")
            return Learned(tables.connect(t, seat=seat, conn=conn), (seat, t.code))

        seat, code = (await self.commit(table_id, change)).learned
        host_hash = None if host_token is None else token_hash(host_token)
        return Seated(table_id, code, seat, token, hashed, host_token, host_hash)

    async def reclaim(self, table_id: str, *, seat: int, token_hash_: str, conn: tuple[str, str]) -> None:
        """Give ``seat`` back to the live connection ``conn`` that holds its token, if nobody holds it.

        A process that lost Redis for longer than its heartbeat lives is taken for dead and
        its players are marked away; its connections were alive all along (Hub.on_orphan).
        """

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            record = t.seats[seat] if 0 <= seat < len(t.seats) else None
            if record is None or record.conn is not None or record.token is None:
                return None
            if not _eq(record.token, token_hash_):  # both are hashes
                return None
            return tables.connect(t, seat=seat, conn=conn)

        await self.commit(table_id, change)

    async def set_seat(
        self, table_id: str, *, host: Asker, seat: int, to: str, level: str | None, reply: Reply | None
    ) -> None:
        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host)
            self._spend(t.id)
            return tables.set_seat(t, seat=seat, to=to, level=level)

        await self.commit(table_id, change, reply=reply)

    async def talk_policy(self, table_id: str, *, host: Asker, changes: dict[str, Any], reply: Reply | None) -> None:
        """The host changes the table's talk settings (a committed change: every process agrees)."""

        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host)
            self._spend(t.id)
            return tables.Mutation(*talk.set_policy(t, changes))

        await self.commit(table_id, change, reply=reply)

    async def mute(self, table_id: str, *, host: Asker, seat: int, muted: bool, reply: Reply | None) -> None:
        """The host mutes a seat's person for the whole table (sticks across reconnects)."""

        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host)
            self._spend(t.id)
            return tables.Mutation(*talk.mute(t, seat=seat, muted=muted))

        await self.commit(table_id, change, reply=reply)

    async def hand_host(self, table_id: str, *, host: Asker, seat: int | None, reply: Reply | None) -> None:
        """The host's rights to the person at ``seat``, or back to the host (``None``)."""

        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host, or_owner=True)
            self._spend(t.id)
            return tables.hand_host(t, seat=seat)

        await self.commit(table_id, change, reply=reply)

    async def start(self, table_id: str, *, host: Asker, reply: Reply | None) -> None:
        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host)
            return tables.start(t, version=version, now=now)

        await self.commit(table_id, change, reply=reply)

    async def rematch(self, table_id: str, *, host: Asker, reply: Reply | None) -> None:
        seed = secrets.randbits(SEED_BITS)

        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_host(t, host)
            return tables.rematch(t, seed=seed, version=version, now=now)

        await self.commit(table_id, change, reply=reply)

    async def leave(self, table_id: str, *, seat: int, token: str, conn: tuple[str, str], reply: Reply | None) -> None:
        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_seat(t, seat, token, conn)
            return tables.leave(t, seat=seat)

        await self.commit(table_id, change, reply=reply)

    async def sit(
        self, table_id: str, *, seat: int, token: str, conn: tuple[str, str], to: int, reply: Reply | None
    ) -> None:
        """The person at ``seat`` moves to the empty seat ``to`` in the lobby (tables.sit)."""

        def change(t: Table, version: int, now: int) -> tables.Mutation:
            _check_seat(t, seat, token, conn)
            # Checked before it is charged, as a join: a refused move costs the table nothing.
            mutation = tables.sit(t, seat=seat, to=to)
            # The person's own moves first: hopping between two seats drained the table's budget,
            # which the host's requests share (a hostile player's review), a move a message.
            if not self._moves.bucket(f"{t.id}/{seat}").take():
                raise LimitExceeded(
                    f"more than {self.settings.seat_moves_per_min:g} seat moves a minute: wait a moment"
                )
            self._spend(t.id)
            return mutation

        await self.commit(table_id, change, reply=reply)
        # The budgets this process keeps by seat go with the person (a move must not refill them).
        self._changes.carry(f"{table_id}/{seat}", f"{table_id}/{to}")
        self._moves.carry(f"{table_id}/{seat}", f"{table_id}/{to}")
        self.talk.carry(table_id, seat, to)

    # ------------------------------------------------------------------ play

    async def act(
        self,
        table_id: str,
        *,
        seat: int,
        token: str,
        conn: tuple[str, str],
        action: dict[str, Any],
        version: int,
        reply: Reply | None,
    ) -> None:
        def change(t: Table, next_version: int, now: int) -> tables.Mutation:
            _check_seat(t, seat, token, conn)
            if version >= next_version:
                raise AheadOfTable(f"version {version} is ahead of the table (at {next_version - 1})")
            mutation = tables.act(t, seat=seat, action=action, client_version=version, version=next_version, now=now)
            if _private(mutation.events, seat, len(t.seats)):
                self._spend_private(t.id, seat)
            return mutation

        await self.commit(table_id, change, reply=reply)

    def _spend_private(self, table_id: str, seat: int) -> None:
        """A private step (no other seat nor spectator sees anything of it: a step of a decision
        taken in any order) from the seat's budget. Such steps send the others nothing, but each
        is a version written to the store and published: a seat looping one and its undo made
        16 versions a second (issue 25, finding 1)."""
        if not self._private_steps.bucket(f"{table_id}/{seat}").take():
            raise LimitExceeded(
                f"more than {self.settings.private_steps_per_s:g} steps a second at this table: wait a moment"
            )

    # ------------------------------------------------------------------ presence

    async def disconnect(self, table_id: str, *, seat: int, conn: tuple[str, str], delivered: bool = True) -> None:
        """The connection holding ``seat`` closed (a no-op if another one holds it by now).

        ``delivered``: whether the connection ever got the ``state`` that seated it there; one
        that did not gives the seat back with the away clock it found (tables.disconnect).
        """

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            return tables.disconnect(t, seat=seat, conn=conn, now=now, delivered=delivered)

        await self.commit(table_id, change)

    # ------------------------------------------------------------------ timers

    async def on_due(self, key: str) -> DueOutcome:
        """Run the timer ``key``: ``"finished"``: its commit removed it; ``"finish"``: done, nothing
        committed (the runner removes it); ``"keep"``: leave it leased (it comes again).

        A timer whose key the table no longer derives is moot (:func:`meja.server.tables.still_due`);
        its kind (:data:`meja.server.tables.TIMERS`) names the method that runs it."""
        timer = tables.parse_key(key)
        kind = tables.TIMER_KINDS.get(timer.kind)
        if kind is None:
            log.warning("unknown timer kind in %r", key)
            return "finish"
        cached = self.hub.cached(timer.table)
        if timer.kind == "bot" and cached is not None and tables.still_due(cached.table, timer):
            # The cache shows the move is due: no need to read the store (if the store has
            # moved on since, the commit's compare-and-set says so and the move is checked
            # again on a fresh read). A cache where it is not due may merely be behind the
            # version that set this timer: it is not trusted to drop the move.
            current: tuple[int, Table] | None = (cached.version, cached.table)
        else:
            current = await self.hub.current(timer.table, fresh=True)
        if current is None:
            return "finish"  # the table expired
        if not tables.still_due(current[1], timer):
            return "finish"
        run: Callable[[tuple[int, Table], tables.TimerKey], Awaitable[int | DueOutcome | None]]
        run = getattr(self, kind.run)
        try:
            outcome = await run(current, timer)
        except TableNotFound:
            return "finish"
        except RulesError:
            # A game refused what it asked for itself (a bug in its rules or its bot): drop the
            # timer, or it would fail again after every lease, for ever. The table is unchanged.
            log.exception("timer %r: the game refused its own action at table %s v%d", key, timer.table, current[1].gv)
            return "finish"
        if isinstance(outcome, str):
            return outcome
        return "finish" if outcome is None else "finished"

    async def hint(self, table_id: str, *, seat: int) -> tuple[int, dict[str, Any], dict[str, Any] | None]:
        """A suggested move for ``seat``: what the game's default bot would choose from the seat's own
        view and the events it saw (nothing a bot playing the seat would not know), the table
        version it is for, and the bot's reason where it gives one (PROTOCOL.md 16.1 ``why``: built
        from the same view, naming no action but the seat's legal ones, else left out). Refused
        where the host turned hints off, or the seat has nothing to do."""
        current = await self.hub.current(table_id)
        if current is None:
            raise TableNotFound(f"no table {table_id!r} (it may have expired)")
        version, table = current
        if not talk.policy(table)["hints"]:
            raise HintsOff("the host turned suggested moves off at this table")
        if table.status != PLAYING or table.state is None or not table.state.legal_actions(seat):
            raise NotYourTurnError("there is nothing for you to decide now")
        self.talk.spend(table_id, seat)  # a hint costs a search: from the seat's talk budget
        level = self.plugin(table).default_level
        move, why = await self.bots.decide_why(table, seat, level, await self.bots.history(table, seat))
        legal = table.state.legal_actions(seat)
        if move is None:
            move, why = legal[0], None
        if why is not None and not why_is_sound(why, [a.to_wire() for a in legal]):
            log.error("bot %r gave an unsound reason at table %s v%d seat %d: %r", level, table_id, version, seat, why)
            why = None
        wire: dict[str, Any] = move.to_wire()
        return version, wire, why

    @property
    def bot_pool(self) -> BotPool | None:
        """The worker processes of the bots that search (``None``: they think in a thread here)."""
        return self.bots.pool

    def plugin(self, table: Table) -> games.GamePlugin:
        return games.get(table.game)

    async def _bot_turn(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        _, table = current
        seat = timer.seat
        record = table.seats[seat]
        level = record.level if record.is_bot and record.level else table.bots
        # The history costs a read of the round's log: only for bots that use it.
        history = await self.bots.history(table, seat) if self.bots.needs_history(table.game, level) else []
        move = await self.bots.decide(table, seat, level, history)
        if move is None:
            return None  # declined to act out of turn; the timer is done

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            assert t.state is not None
            if move not in t.state.legal_actions(seat):
                # Others acted since without making this seat's decision stale, yet the move no
                # longer stands (a game whose epochs are too coarse): decide again on this table.
                again = self.bots.choose(t, seat, level, history)
                if again is None:
                    return None
                return tables.play(t, seat, again, version=version, now=now)
            return tables.play(t, seat, move, version=version, now=now)

        return (await self.commit(table.id, change, fresh=True, first=current, finishes=str(timer))).version

    async def _turn_limit(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        _, table = current
        seat = timer.seat
        state = table.state
        assert state is not None
        # The game's default move for a seat out of time; where it leaves the move open,
        # its default bot's (as for a player gone past the grace period).
        move = state.default_action(seat)
        if move is None:
            level = self.plugin(table).default_level
            move = await self.bots.decide(table, seat, level, await self.bots.history(table, seat))
        if move is None:
            return None

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            timeout = Event("timeout", {"seat": seat, "limit": "turn"})
            mutation = tables.play(t, seat, move, version=version, now=now, before=(timeout,))
            if mutation.table.turn_v == t.turn_v:  # the same seat still has the turn
                return tables.Mutation(mutation.table.evolve(strikes=t.strikes + 1), mutation.events)
            return mutation

        return (await self.commit(table.id, change, fresh=True, finishes=str(timer))).version

    async def _ready_timeout(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            assert t.state is not None
            ready = t.state.default_action(timer.seat)
            if ready is None:
                return None
            timeout = Event("timeout", {"seat": timer.seat, "limit": "ready"})
            return tables.play(t, timer.seat, ready, version=version, now=now, before=(timeout,))

        return (await self.commit(timer.table, change, fresh=True, finishes=str(timer))).version

    async def _timed(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        """An action the game takes by itself (``State.timed_actions``), if it still lists it."""

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            assert t.state is not None
            since = int(timer.marker)
            for timed in t.state.timed_actions():
                if timed.seat == timer.seat and timed.since == since:
                    return tables.play(t, timer.seat, timed.action, version=version, now=now)
            return None

        return (await self.commit(timer.table, change, fresh=True, finishes=str(timer))).version

    async def _grace(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            return tables.go_auto(t, seat=timer.seat, away=int(timer.marker))

        return (await self.commit(timer.table, change, fresh=True, finishes=str(timer))).version

    async def _archive(self, current: tuple[int, Table], timer: tables.TimerKey) -> int | None:
        """Archive the finished match (idempotent: its id is the seed's), then say so in its record."""
        version, table = current
        result = await self.archiver.keep(table.id, version, table, self.clock())

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            return tables.archived(t, result)

        return (await self.commit(table.id, change, fresh=True, first=current, finishes=str(timer))).version

    async def _check(self, current: tuple[int, Table], timer: tables.TimerKey) -> DueOutcome:
        _, table = current
        conn = table.seats[timer.seat].conn
        assert conn is not None  # the key is derived only for a seat held by a connection
        proc, cid = conn
        if proc != self.process_id and self.reached_store_for() < self.settings.heartbeat_ttl_s:
            # Just back from an outage (or starting): the other process's heartbeat may have lapsed
            # in the same outage. Judge nobody dead before a whole TTL of reaching the store (the
            # chaos run: after Redis restarts, live processes were taken for dead).
            return "keep"
        # A seat held here is alive if its connection is; elsewhere, if its process heartbeats.
        alive = self.hub.has_connection(cid) if proc == self.process_id else (await self.store.alive([proc]))[0]
        if alive:
            return "keep"  # left leased: checked again after the lease

        log.info("table %s seat %d: process %s is gone; the player counts as away", table.id, timer.seat, proc)

        def change(t: Table, version: int, now: int) -> tables.Mutation | None:
            if not tables.still_due(t, timer):
                return None
            return tables.dead_process(t, seat=timer.seat, conn=conn, now=now)

        committed = await self.commit(table.id, change, fresh=True, finishes=str(timer))
        return "finish" if committed.version is None else "finished"


def _private(events: tuple[Event, ...], seat: int, seats: int) -> bool:
    """Whether no seat but ``seat``, and no spectator, sees any of ``events``."""
    return not any(e.is_seen_by(other) for e in events for other in (None, *range(seats)) if other != seat)


class Asker(NamedTuple):
    """Who asks for what the host does: its seat, host token hash and connection (the hub's member)."""

    seat: int | None
    host_token: str | None
    conn: tuple[str, str]


def _check_host(t: Table, host: Asker, *, or_owner: bool = False) -> None:
    """The host's rights: the seat they were handed to (held by this very connection), else the
    host token's holder; ``or_owner``: the host token's holder in any case (to take them back)."""
    held = t.holds_rights(host.seat, host.host_token)
    if held and (t.delegate is None or (host.seat is not None and t.seats[host.seat].conn == host.conn)):
        return
    if or_owner and t.is_the_host(host.host_token):
        return
    raise NotHost("only the host may do this")


def _check_seat(t: Table, seat: int, token: str, conn: tuple[str, str]) -> None:
    record: SeatRecord | None = t.seats[seat] if 0 <= seat < len(t.seats) else None
    if record is None or record.token is None or not _eq(record.token, token):
        raise NotSeated("this connection holds no seat at that table")
    if record.conn is None:
        # Nobody holds it: the seat was marked away while this connection was silent (its process
        # stopped, say); the connection is taken back in a moment (a ``connected`` event). Not
        # "not seated", which would tell a client its seat is gone: decide again, as after a change.
        raise StaleVersion(
            "the seat was marked away while this connection was silent: decide again on the latest update"
        )
    if record.conn != conn:
        raise NotSeated("another connection holds this seat now")


def _eq(a: str, b: str) -> bool:
    import hmac

    return hmac.compare_digest(a, b)
