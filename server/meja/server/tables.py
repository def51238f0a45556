"""What happens to a table: pure functions from a table record to the next one and its events.

Every change to a table (a seat taken, the start, an action, a player going
away, a bot's move, a timer running out) is one of the functions here: given
the current :class:`~meja.server.records.Table` and the request, it either
raises a wire error (:mod:`meja.protocol.errors`, or a rules error passed
through unchanged) and nothing changes, or returns a :class:`Mutation`: the
next table and the events of that version. :mod:`meja.server.service` commits
it with compare-and-set; :func:`plan` says which timers the change sets and
cancels. No I/O here, so every rule of the table is testable without a loop.

Table events (besides the game's own)
-------------------------------------
All public (every seat and spectator sees them), but ``act``:

===============  ===================================  ==========================================
kind             data                                 when
===============  ===================================  ==========================================
seat_changed     seat, to (the seat's new kind), name,  a seat taken, freed, handed to a bot, left,
                 level?, kicked?, left?, moved_to?,     or a person moved (``sit``: the old seat's
                 moved_from?                            entry, then the new one's)
connected        seat                                 a player (re)connects: the seat is theirs again
away             seat                                 a player's connection closed (or its server died)
auto             seat                                 the grace period ran out: a bot plays for them
started          seats (kinds)                        the host started: empty seats became bots
rematch          --                                   the host started a new match at the table
closed           --                                   the host left the lobby: the table is closed
commitment       round, hash                          a round was dealt (fair deals, PROTOCOL.md 7)
reveal           round, deal_code, salt               that round ended: ``sha256(f"{deal_code}:{salt}")``
                                                      is the committed hash
timeout          seat, limit ("turn" or "ready")      a time limit ran out; the default move follows
talk_changed     chat, spectators, table_talk, relay  the host changed the table's talk settings
host_changed     seat, handed                         the host's rights went to ``seat`` (``handed``),
                                                      or back to the host (seat: the host's, nil
                                                      for a host without a seat)
muted            seat, muted                          the host muted (or unmuted) a seat's person
act              seat, action (its wire form)         every game action, for the log alone: its
                                                      audience is nobody (``only=()``), so it is never
                                                      sent; a table's log replays through the rules
                                                      from these, whatever the game
===============  ===================================  ==========================================

Decisions where the issue is silent (written down here as the code does them)
-----------------------------------------------------------------------------
- A join after the start gets ``table/not_lobby`` (the seats are all taken by
  then: empty seats become bots at the start); the person may watch.
- ``leave`` in the lobby empties the seat; the host's ``leave`` closes the table
  (status ``finished``). During a match a bot takes the seat for good; after it
  (``finished``) the seat keeps the person's name for the result, marked ``left``
  with no token, and a rematch seats a bot there. A host who leaves gives up the
  host's powers (no rematch).
- ``seat`` (host, lobby) may not change the host's own seat (``seat/bad_seat``);
  a human moved out of a seat keeps watching as a spectator.
- ``sit`` (a seated person, lobby) moves its sender to an empty seat: its seat
  record goes whole (token, connection, origin, presence), so a resume with the
  same token, a mute (kept by token) and a kick (kept by origin) follow it; the
  host may move too, and ``host_seat`` follows, as do the host's rights handed to
  the mover (``delegate``). The update has two ``seat_changed`` entries, the old
  seat's (``to: empty``, ``moved_to``) then the new one's (``moved_from``): a
  client that keeps its seats from ``seat_changed`` stays right without knowing
  moves.
- **A kick sticks.** A host who frees a person's seat, or hands it to a bot,
  with ``seat`` in the lobby has *kicked* them: they may not ``join`` that table
  again (``seat/kicked``; they may still ``watch``). What identifies them is the
  client address their seat was taken from (the address the per-address limits
  count: an IPv4 address, an IPv6 /64, the forwarded address behind a trusted
  proxy), kept in the seat as an HMAC tag keyed with the table's secret seed
  (:func:`meja.server.records.origin_tag`: no address is stored, and tags of two
  tables do not match) and, on the kick, in the table's ``kicked`` list (at most
  ``MAX_KICKED``, the oldest forgotten). Not their connection (a new one is free
  to open), nor a token the client would keep (a kicked client would simply drop
  it): an address is what a person cannot change at will, at the price that
  everybody behind the same address (a household's router, a carrier's NAT) is
  kept out of that one table too, which is the host's call. The kicked seat's
  token no longer opens it (``auth/bad_token``) either. A player who leaves by
  themselves is not kicked.
- An ``act`` is stale (``action/stale_version``) only if the *game* changed
  since the client's version: connects, disconnects and other table changes do
  not make a pending action stale.
- The deal code of the round in progress is added to a seat's view only when
  every other seat is a bot (a bot standing in for an absent human does not
  count: that human will come back).
- A host may give a deal code: round 1 is then a deal somebody chose, and the
  host may know every hand (issue 12, finding 2). That is allowed (replaying a
  deal together is the point of deal codes) and said to everyone before the
  first card: the lobby's table map has ``deal_code_given``, and round 1's
  commitment (event and table map) ``chosen: true``, so a page shows it in the
  lobby and on the table and its fair-deal check says "chosen by the host"
  instead of "fixed before the round". A rematch deals afresh.

What the table asks of the game (:mod:`meja.rules.game`; no game is named here)
-------------------------------------------------------------------------------
Who may act (``actors``) and whose decision holds the game up (``awaiting``);
when a seat's pending decision goes stale (``epoch``, kept per seat in
``Table.epochs``); when a new decision period starts (``period``, the turn
clock); round boundaries (``in_round``, the ``GameInfo.round_start`` and
``round_end`` events) and the deal code, for the fair-deal commitments; the
default action when time runs out; the actions it takes by itself after a
delay (``timed_actions``); and which events the table holds for
(``GameInfo.hold_events``: bots pause longer).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import is_
from random import Random
from typing import Any, Final, NamedTuple

from meja import games
from meja.protocol.errors import (
    BadMessage,
    BadSeat,
    BadTableOptions,
    InternalError,
    Kicked,
    NameReserved,
    NameTaken,
    NotFinished,
    NotLobby,
    NotPlaying,
    SeatTaken,
    StaleVersion,
    TableFull,
)
from meja.rules import Event, get_game
from meja.rules.errors import BadOptionsError, IllegalActionError
from meja.rules.game import TABLE_EVENT_KINDS
from meja.store.base import Due

from . import names, talk
from .records import (
    BOT,
    EMPTY,
    FINISHED,
    HUMAN,
    LOBBY,
    MAX_KICKED,
    PLAYING,
    Commitment,
    SeatRecord,
    Table,
    archive_id,
    origin_tag,
    seed_screen_token,
)
from .settings import Settings

__all__ = [
    "BOT_NAME",
    "LIFECYCLE",
    "TABLE_EVENTS",
    "TIMERS",
    "TIMER_KINDS",
    "Mutation",
    "TimerKey",
    "TimerKind",
    "act",
    "archived",
    "between_rounds",
    "bot_levels",
    "check_lifecycle",
    "clean_name",
    "commitment_hash",
    "connect",
    "dead_process",
    "disconnect",
    "due_keys",
    "go_auto",
    "join",
    "leave",
    "new_table",
    "parse_key",
    "plan",
    "play",
    "rematch",
    "set_seat",
    "sit",
    "start",
    "still_due",
    "summary",
    "view_for",
    "view_parts",
]

#: The kinds of the events the table adds to the game's.
TABLE_EVENTS: Final = TABLE_EVENT_KINDS  # the contract reserves them: no game uses these kinds
BOT_NAME: Final = "Bot"


@dataclass(frozen=True, slots=True)
class Mutation:
    """The next table and the events of the version that commits it."""

    table: Table
    events: tuple[Event, ...]


def bot_levels(game: str) -> tuple[str, ...]:
    """The bots a table of ``game`` may seat: its levels, then its yardsticks."""
    return games.get(game).bot_names()


def clean_name(name: str) -> str:
    """A display name as stored and shown (:func:`meja.server.names.clean`: NFKC, trimmed, visible,
    few stacked marks, 1-24 characters), refused with ``name/reserved`` if it could pass for a bot's."""
    text = names.clean(name)
    if names.passes_for_a_bot(text):
        raise NameReserved(f"name {text!r} looks like a bot's: bots are named {BOT_NAME!r}")
    return text


def commitment_hash(deal_code: str, salt: str) -> str:
    """PROTOCOL.md 7: hex SHA-256 of ``deal_code + ":" + salt``."""
    return hashlib.sha256(f"{deal_code}:{salt}".encode()).hexdigest()


def _default_level(settings: Settings, plugin: games.GamePlugin) -> str:
    """The operator's default level where the game has it, else the game's own default."""
    return settings.bot_level if settings.bot_level in plugin.levels else plugin.default_level


def _seat_event(seat: int, record: SeatRecord, *, kicked: bool = False, left: str | None = None) -> Event:
    data: dict[str, Any] = {"seat": seat, "to": record.kind, "name": record.name}
    if record.kind == BOT:
        data["level"] = record.level
    if kicked:
        data["kicked"] = True
    if left is not None:
        data["left"] = left
    return Event("seat_changed", data)


def _check_level(game: str, level: str) -> str:
    known = bot_levels(game)
    if level not in known:
        raise BadTableOptions(f"unknown bot level {level!r}; known: {list(known)}")
    return level


# --------------------------------------------------------------------------- lobby


def new_table(
    settings: Settings,
    *,
    table_id: str,
    code: str,
    name: str,
    game: str,
    options: Mapping[str, Any] | None,
    seats: int | None,
    bots: str | None,
    deal_code: str | None,
    grace_s: int | None,
    turn_limit_s: int | None,
    talk_request: Mapping[str, Any] | None = None,
    seated: bool = True,
    host_token: str,
    seat_token: str,
    conn: tuple[str, str],
    seed: int,
    now: int,
) -> Table:
    """The lobby of a new table with its host in seat 0 (``host``); raises on bad options.

    ``host_token`` and ``seat_token`` are the hashes to store. ``turn_limit_s``
    absent or nil: the server's default (``Settings.turn_limit_s``, off unless
    configured); 0: no limit.
    """
    the_game = get_game(game)
    request = dict(options or {})
    spec = None
    if deal_code is not None:
        spec = the_game.read_deal_code(deal_code)  # deal/bad_code if it does not read
        deal_code = spec.code  # canonical, grouped
        request.setdefault("preset", spec.preset)
    opts = the_game.options_from_wire(request)
    preset = request.setdefault("preset", the_game.info.default_preset)
    allowed = the_game.seat_range(opts)
    count = seats if seats is not None else (spec.seats if spec is not None else allowed.start)
    if count not in allowed:
        raise BadOptionsError(f"{preset} is for {allowed.start}-{allowed.stop - 1} seats, not {count!r}")
    if spec is not None and (spec.preset != preset or spec.seats != count):
        raise BadOptionsError(
            f"deal code {deal_code!r} is for {spec.preset} with {spec.seats} seats, not {preset} with {count}"
        )
    plugin = games.get(the_game.name)
    level = _check_level(the_game.name, bots if bots is not None else _default_level(settings, plugin))
    grace = settings.grace_s if grace_s is None else grace_s
    if not settings.grace_min_s <= grace <= settings.grace_max_s:
        raise BadTableOptions(f"grace_s must be {settings.grace_min_s}-{settings.grace_max_s}, not {grace!r}")
    limit = settings.turn_limit_s if turn_limit_s is None else turn_limit_s
    if limit == 0:
        limit = None
    if limit is not None and not settings.turn_limit_min_s <= limit <= settings.turn_limit_max_s:
        raise BadTableOptions(
            f"turn_limit_s must be {settings.turn_limit_min_s}-{settings.turn_limit_max_s} or nil, not {limit!r}"
        )
    if seated:
        host_record = SeatRecord(kind=HUMAN, name=clean_name(name), token=seat_token, conn=conn)
        seat_records = (host_record,) + (SeatRecord(),) * (count - 1)
    else:
        clean_name(name)  # a host without a seat is named too (the shared screen's), checked alike
        seat_records = (SeatRecord(),) * count
    return Table(
        id=table_id,
        code=code,
        game=the_game.name,
        options=request,
        seats=seat_records,
        host=host_token,
        host_seat=0 if seated else None,
        status=LOBBY,
        bots=level,
        grace_s=grace,
        turn_limit_s=limit,
        seed=seed,
        deal_code=deal_code,
        state=None,
        created=now,
        talk=talk.from_request(talk_request),
        screen=seed_screen_token(seed),
    )


def join(
    t: Table, *, name: str, seat: int | None, token: str, conn: tuple[str, str], address: str | None = None
) -> tuple[Mutation, int]:
    """A person takes ``seat`` (or the first free one) in the lobby; ``address``: theirs, as the
    per-address limits count it (see "A kick sticks" in the module docstring)."""
    display = clean_name(name)
    if t.status != LOBBY:
        raise NotLobby("the match has started: every seat is taken; watch instead")
    origin = None if address is None else origin_tag(t.seed, address)
    if origin is not None and origin in t.kicked:
        raise Kicked("the host took your seat at this table: you may watch it, not sit at it again")
    if seat is None:
        free = [i for i, s in enumerate(t.seats) if s.is_empty]
        if not free:
            raise TableFull(f"all {len(t.seats)} seats are taken")
        seat = free[0]
    elif not 0 <= seat < len(t.seats):
        raise BadSeat(f"no seat {seat!r} at a table of {len(t.seats)}")
    elif not t.seats[seat].is_empty:
        raise SeatTaken(f"seat {seat} is not free")
    for i, other in enumerate(t.seats):
        if other.is_human and other.name and names.look_alike(display, other.name):
            raise NameTaken(f"name {display!r} looks like {other.name!r}, the name of seat {i}: choose another")
    record = SeatRecord(kind=HUMAN, name=display, token=token, conn=conn, origin=origin)
    new = t.evolve(seats=t.seats[:seat] + (record,) + t.seats[seat + 1 :])
    return Mutation(new, (_seat_event(seat, record),)), seat


def set_seat(t: Table, *, seat: int, to: str, level: str | None) -> Mutation:
    """The host frees a seat or hands it to a bot, before the start."""
    if t.status != LOBBY:
        raise NotLobby("seats can be changed only before the start")
    if not 0 <= seat < len(t.seats):
        raise BadSeat(f"no seat {seat!r} at a table of {len(t.seats)}")
    if seat == t.host_seat:
        raise BadSeat("the host's own seat cannot be changed")
    if to == "bot":
        record = SeatRecord(kind=BOT, name=BOT_NAME, level=_check_level(t.game, level if level is not None else t.bots))
    else:
        if level is not None:
            raise BadMessage("'level' goes only with to='bot'")
        record = SeatRecord()
    kicked = t.kicked
    taken = t.seats[seat]
    delegate = None if seat == t.delegate else t.delegate
    if taken.is_human and taken.origin is not None and taken.origin not in kicked:
        kicked = (*kicked, taken.origin)[-MAX_KICKED:]  # the kick sticks (module docstring)
    new = t.evolve(seats=t.seats[:seat] + (record,) + t.seats[seat + 1 :], kicked=kicked, delegate=delegate)
    return Mutation(new, (_seat_event(seat, record, kicked=taken.is_human),))


def sit(t: Table, *, seat: int, to: int) -> Mutation:
    """The person at ``seat`` moves to the empty seat ``to``, before the start (see the module
    docstring): their record goes with them whole (name, token, connection, origin, presence),
    and so does whatever the table keeps by their seat (the host's seat, the host's rights)."""
    if t.status != LOBBY:
        raise NotLobby("seats can be chosen only before the start")
    if not 0 <= to < len(t.seats):
        raise BadSeat(f"no seat {to!r} at a table of {len(t.seats)}")
    record = t.seats[seat]
    if not record.is_human:
        raise BadSeat(f"seat {seat} holds no person to move")
    if to == seat:
        raise SeatTaken(f"seat {to} is yours already")
    if not t.seats[to].is_empty:
        raise SeatTaken(f"seat {to} is not free")
    seats = list(t.seats)
    seats[seat], seats[to] = SeatRecord(), record
    new = t.evolve(
        seats=tuple(seats),
        host_seat=to if seat == t.host_seat else t.host_seat,
        delegate=to if seat == t.delegate else t.delegate,
    )
    # Two entries, as any other seat change: the old seat empty, then the new one taken; each
    # names the other seat, so a log says who moved from where to where (PROTOCOL.md 7.3).
    freed = Event("seat_changed", {"seat": seat, "to": EMPTY, "name": "", "moved_to": to})
    taken = Event("seat_changed", {"seat": to, "to": HUMAN, "name": record.name, "moved_from": seat})
    return Mutation(new, (freed, taken))


def start(t: Table, *, version: int, now: int) -> Mutation:
    """The host starts: empty seats become bots, round 1 is dealt (from the deal code if one was given)."""
    if t.status != LOBBY:
        raise NotLobby("the table has already started")
    seats = tuple(SeatRecord(kind=BOT, name=BOT_NAME, level=t.bots) if s.is_empty else s for s in t.seats)
    events = [_seat_event(i, s) for i, s in enumerate(seats) if t.seats[i].is_empty]
    events.append(Event("started", {"seats": [s.kind for s in seats]}))
    game = get_game(t.game)
    transition = game.new_match(t.game_options, len(seats), t.seed, t.deal_code)
    base = t.evolve(seats=seats, status=PLAYING)
    return _after_transition(base, None, transition.state, transition.events, events, version, now)


def rematch(t: Table, *, seed: int, version: int, now: int) -> Mutation:
    """The host starts a new match with the same seats (a fresh seed; no deal code; what the
    finished match hands the next, its ``carry``, kept in the record for replays)."""
    if t.status != FINISHED or t.state is None:
        raise NotFinished("a rematch is possible only when the match is over")
    game = get_game(t.game)
    carry = t.state.carry()
    transition = game.new_match(t.game_options, len(t.seats), seed, None, carry)
    # Where a person left the finished match, a bot plays the new one (the seat kept their name for the result).
    seats = tuple(SeatRecord(kind=BOT, name=BOT_NAME, level=t.bots) if s.left else s for s in t.seats)
    events = [Event("rematch", {})]
    events += [_seat_event(i, s) for i, s in enumerate(seats) if t.seats[i].left]
    base = t.evolve(seats=seats, status=PLAYING, seed=seed, deal_code=None, carry=carry, archived=None)
    return _after_transition(base, None, transition.state, transition.events, events, version, now)


def leave(t: Table, *, seat: int) -> Mutation:
    """The seat's holder gives it up (see the module docstring for what happens to it)."""
    if t.status == LOBBY:
        if seat == t.host_seat:
            return Mutation(t.evolve(status=FINISHED, host=None), (Event("closed", {}),))
        record = SeatRecord()
        host = t.host
    elif t.status == FINISHED:
        # The match's result stays theirs (the others' result screens, the recent matches, the
        # shared screen name who played): the seat keeps the name, gives up its token and
        # connection, and a rematch seats a bot there. A new user's trial read "Bot 1 wins the
        # match" once the winner had left.
        record = replace(t.seats[seat], token=None, conn=None, away=None, auto=False, left=True)
        host = None if seat == t.host_seat else t.host
    else:
        record = SeatRecord(kind=BOT, name=BOT_NAME, level=t.bots)
        host = None if seat == t.host_seat else t.host
    # (who left, by name: the seat's new name is the bot's, and the others' logs say who went)
    events = [_seat_event(seat, record, left=t.seats[seat].name)]
    delegate = t.delegate
    if seat == delegate:  # the host's rights go back to the host
        delegate = None
        events.append(Event("host_changed", {"seat": t.host_seat, "handed": False}))
    new = t.evolve(seats=t.seats[:seat] + (record,) + t.seats[seat + 1 :], host=host, delegate=delegate)
    return Mutation(new, tuple(events))


def hand_host(t: Table, *, seat: int | None) -> Mutation:
    """The host's rights go to the person at ``seat``, or back to the host (``None``).

    While they are handed, that seat does what the host does (start, seats and bots, kicks,
    rematch, talk); the host (its token) may only take them back or hand them on. A shared
    screen that hosts hands them to a phone and back (issue 26)."""
    if seat is None:
        if t.host is None:
            raise BadSeat("the host has left: the rights stay where they are")
        new = t.evolve(delegate=None)
        return Mutation(new, (Event("host_changed", {"seat": t.host_seat, "handed": False}),))
    if not 0 <= seat < len(t.seats):
        raise BadSeat(f"no seat {seat!r} at a table of {len(t.seats)}")
    record = t.seats[seat]
    if not record.is_human or record.auto or record.left:
        raise BadSeat(f"seat {seat} holds no person to hand the host's rights to")
    new = t.evolve(delegate=None if seat == t.host_seat else seat)
    return Mutation(new, (Event("host_changed", {"seat": seat, "handed": seat != t.host_seat}),))


# --------------------------------------------------------------------------- presence


def connect(t: Table, *, seat: int, conn: tuple[str, str]) -> Mutation:
    """The seat's holder (re)connects: it is theirs again, at once (no bot plays for it).

    The away clock it ends is kept (``was_away``, ``was_auto``) until the connection has
    had its ``state``: see :func:`disconnect`.
    """
    record = t.seats[seat]
    if record.conn is not None:  # taken over from a connection that held it: nobody was away
        was_away, was_auto = None, False
    else:
        was_away = record.away if record.away is not None else record.was_away
        was_auto = record.auto or record.was_auto
    new = t.with_seat(seat, conn=conn, away=None, auto=False, was_away=was_away, was_auto=was_auto)
    return Mutation(new, (Event("connected", {"seat": seat}),))


def disconnect(t: Table, *, seat: int, conn: tuple[str, str], now: int, delivered: bool = True) -> Mutation | None:
    """The connection holding ``seat`` closed. ``None`` if another connection holds it by now.

    A connection that never got the ``state`` seating it (``delivered`` false: it dropped,
    or was closed, during its resume) leaves the away clock as it found it: otherwise a
    client retrying a resume that cannot complete would restart the grace period each
    time, and no bot would ever play for the seat (issue 12, finding 3).
    """
    record = t.seats[seat]
    if not record.is_human or record.conn != conn:
        return None
    if not delivered and record.was_away is not None:
        new = t.with_seat(seat, conn=None, away=record.was_away, auto=record.was_auto, was_away=None, was_auto=False)
        events: tuple[Event, ...] = (Event("away", {"seat": seat}),)
        if record.was_auto:
            events += (Event("auto", {"seat": seat}),)
        return Mutation(new, events)
    new = t.with_seat(seat, conn=None, away=now, was_away=None, was_auto=False)
    return Mutation(new, (Event("away", {"seat": seat}),))


def dead_process(t: Table, *, seat: int, conn: tuple[str, str], now: int) -> Mutation | None:
    """The process holding ``seat`` died: the player counts as away from now."""
    return disconnect(t, seat=seat, conn=conn, now=now)


def archived(t: Table, result: str) -> Mutation | None:
    """The finished match's archive is done: ``result`` is what became of it (``yes``, or why not:
    the record's ``archived``). Nothing if the table is no longer that finished match."""
    if t.status != FINISHED or t.archived is not None or t.state is None:
        return None
    return Mutation(t.evolve(archived=result), ())


def go_auto(t: Table, *, seat: int, away: int) -> Mutation | None:
    """The grace period of an absent player ran out: a bot plays for them until they return."""
    record = t.seats[seat]
    if t.status != PLAYING or not record.is_human or record.away != away or record.conn is not None or record.auto:
        return None
    return Mutation(t.with_seat(seat, auto=True), (Event("auto", {"seat": seat}),))


# --------------------------------------------------------------------------- play


def act(t: Table, *, seat: int, action: Mapping[str, Any], client_version: int, version: int, now: int) -> Mutation:
    """A seat's holder acts. Stale if the game changed after ``client_version``."""
    if t.status == LOBBY or t.state is None:
        raise NotPlaying("the table has not started")
    if t.status == FINISHED:
        raise NotPlaying("the match is over")
    move = get_game(t.game).decode_action(action)
    epoch = t.epoch_of(seat) if 0 <= seat < len(t.seats) else t.gv
    if client_version < epoch:
        raise StaleVersion(
            f"the game moved on at version {epoch}; you acted on version {client_version}: act on the latest update"
        )
    if move not in t.state.legal_actions(seat):
        # The rules' own refusal where they refuse it; what they accept but never list is a move
        # only the server makes for a seat whose time ran out (``State.default_action``), which a
        # person may not choose: a game's timer may take what its rules make a person answer
        # (issue 25).
        t.state.apply(seat, move)
        raise IllegalActionError("only the server makes that move, for a seat whose time ran out")
    return play(t, seat, move, version=version, now=now)


def play(t: Table, seat: int, move: Any, *, version: int, now: int, before: Sequence[Event] = ()) -> Mutation:
    """Apply a game move for ``seat`` (a person's, a bot's or a timer's); rules errors propagate."""
    if t.state is None or t.status != PLAYING:
        raise NotPlaying("the table is not playing")
    transition = t.state.apply(seat, move)
    # The action itself, for the log alone (seen by nobody): what a replay of the log applies.
    events = [*before, Event("act", {"seat": seat, "action": move.to_wire()}, only=())]
    return _after_transition(t, t.state, transition.state, transition.events, events, version, now)


def _after_transition(
    t: Table,
    before: Any,
    state: Any,
    game_events: Iterable[Event],
    events: list[Event],
    version: int,
    now: int,
) -> Mutation:
    """The table after the game moved (``before``: the state it moved from, ``None`` at a deal):
    fair-deal commitments and reveals, status, each seat's epoch, the decision period."""
    info = get_game(t.game).info
    commitment = t.commitment
    round_v = t.round_v
    for event in game_events:
        if event.kind == info.round_start:
            code = state.deal_code
            if isinstance(code, str):
                salt = secrets.token_hex(16)
                # The host's deal code is round 1 of the match (and of no rematch): a deal somebody
                # chose, who may know every hand. Every seat is told so before the first card.
                chosen = t.deal_code is not None and state.round == 1 and code == t.deal_code
                commitment = Commitment(state.round, commitment_hash(code, salt), salt, code, chosen)
                data: dict[str, Any] = {"round": state.round, "hash": commitment.hash}
                if chosen:
                    data["chosen"] = True
                events.append(Event("commitment", data))
            round_v = version
            events.append(event)
        elif event.kind == info.round_end:
            events.append(event)
            if commitment is not None:
                # PROTOCOL.md 12: the code and the salt open the round's commitment.
                events.append(
                    Event("reveal", {"round": commitment.round, "deal_code": commitment.code, "salt": commitment.salt})
                )
        else:
            events.append(event)
    status = FINISHED if state.outcome() is not None else PLAYING
    n = state.seats
    if before is None or len(t.epochs) != n:
        epochs: tuple[int, ...] = (version,) * n
    else:
        # A seat's epoch moves to this version when the game says its decision went stale now.
        v = state.version
        old = t.epochs
        epochs = tuple(version if state.epoch(s) == v else old[s] for s in range(n))
    new = t.evolve(state=state, status=status, gv=version, round_v=round_v, commitment=commitment, epochs=epochs)
    if before is None or before.period() != state.period():
        new = new.evolve(turn_v=version, strikes=0, deadline=None)
    return Mutation(new, tuple(events))


def between_rounds(state: Any) -> bool:
    """Whether the match waits between two rounds (every awaited seat's decision: to be ready)."""
    return not state.in_round() and state.outcome() is None


# --------------------------------------------------------------------------- the lifecycle

#: Every way a table's status may change, and the change that makes it: the table's lifecycle as
#: data. A table is made in the lobby (:func:`new_table`); a commit whose change moves the status
#: any other way is refused (:func:`check_lifecycle`) and nothing is written.
LIFECYCLE: Final[Mapping[tuple[str, str], str]] = {
    (LOBBY, PLAYING): "start",  # the host starts: empty seats become bots, round 1 is dealt
    (LOBBY, FINISHED): "leave",  # the host leaves the lobby: the table is closed
    (PLAYING, FINISHED): "play",  # the game reached its outcome
    (FINISHED, PLAYING): "rematch",  # the host starts a new match with the same seats
}


def check_lifecycle(old: Table, new: Table) -> None:
    """:class:`InternalError` where ``new``'s status is not one :data:`LIFECYCLE` allows after ``old``'s."""
    if old.status != new.status and (old.status, new.status) not in LIFECYCLE:
        raise InternalError(f"a table may not go from {old.status!r} to {new.status!r}: the table is unchanged")


# --------------------------------------------------------------------------- timers


class TimerKey(NamedTuple):
    """A timer's key, ``<table>|<kind>|<seat>|<marker>``: ``str(key)`` prints it, :meth:`parse` reads it.

    The marker names what must not have changed for the timer to fire (a seat's epoch, a
    version, a decision period, the time a player went away): a change that makes a timer
    moot changes the key the table derives (:func:`due_keys`), so :func:`plan` cancels the
    old key and sets the new one in the same commit, and a timer that fires anyway is still
    due only if the fresh table still derives its key (:func:`still_due`).
    """

    table: str
    kind: str
    seat: int
    marker: str

    def __str__(self) -> str:
        return f"{self.table}|{self.kind}|{self.seat}|{self.marker}"

    @classmethod
    def parse(cls, key: str) -> TimerKey:
        table, kind, seat, marker = key.split("|")
        return cls(table, kind, int(seat), marker)


@dataclass(frozen=True)
class _Scan:
    """What every kind's keys are derived from, read off a table once."""

    t: Table
    state: Any
    present: bool
    awaiting: tuple[int, ...]
    interlude: bool

    def awaited_humans(self) -> Iterable[tuple[int, SeatRecord]]:
        """Seats that may act now, held by a person (no bot plays them), whose decision holds the game up."""
        for s in self.state.actors():
            seat = self.t.seats[s]
            if seat.is_human and not seat.is_played_by_bot and s in self.awaiting:
                yield s, seat


@dataclass(frozen=True)
class _When:
    """What a new timer's due time is computed from (:func:`plan`)."""

    new: Table
    key: TimerKey
    events: Sequence[Event]
    now: int
    settings: Settings
    rand: Random


def _bot_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    if x.present:
        for s in x.state.actors():
            if x.t.seats[s].is_played_by_bot:
                yield s, x.t.epoch_of(s)


def _bot_due(w: _When) -> int:
    state = w.new.state
    assert state is not None
    if between_rounds(state):
        return w.now + w.settings.ready_delay_ms
    if w.key.seat in state.awaiting():
        return w.now + bot_pause_ms(w.settings, w.rand, w.events, get_game(w.new.game).info.hold_events)
    # out of turn: a reflex, not a think (a catch)
    return w.now + w.rand.randint(w.settings.bot_react_min_ms, w.settings.bot_react_max_ms)


def _turn_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    if x.present and x.t.turn_limit_s and not x.interlude:
        for s, _ in x.awaited_humans():
            yield s, f"{x.t.turn_v}.{x.t.strikes}"


def _turn_due(w: _When) -> int:
    assert w.new.turn_limit_s is not None
    if w.new.strikes == 0:
        return w.now + w.new.turn_limit_s * 1000
    # Once the limit ran out this turn, the next default move comes at a bot's pace.
    return w.now + bot_pause_ms(w.settings, w.rand, w.events, get_game(w.new.game).info.hold_events)


def _ready_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    if x.present and x.interlude:
        for s, _ in x.awaited_humans():
            yield s, x.t.turn_v


def _auto_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    if x.present:
        for timed in x.state.timed_actions():
            yield timed.seat, timed.since


def _auto_due(w: _When) -> int:
    since, state = int(w.key.marker), w.new.state
    assert state is not None
    delay: int = next(a.delay_ms for a in state.timed_actions() if a.seat == w.key.seat and a.since == since)
    return w.now + delay


def _check_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    for s, seat in x.awaited_humans():
        if seat.conn is not None:
            yield s, x.t.gv


def _grace_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    for s, seat in enumerate(x.t.seats):
        if seat.is_human and seat.away is not None and seat.conn is None and not seat.auto:
            yield s, seat.away


def _grace_due(w: _When) -> int:
    away = w.new.seats[w.key.seat].away
    assert away is not None
    return max(w.now, away + w.new.grace_s * 1000)


def _archive_keys(x: _Scan) -> Iterable[tuple[int, object]]:
    if x.t.archived is None and x.state.outcome() is not None:
        yield 0, x.t.gv


@dataclass(frozen=True)
class TimerKind:
    """One kind of timer, said once: which keys a table derives for it, when a new one falls due,
    and what runs it (the name of the :class:`~meja.server.service.TableService` method that does,
    called with the fresh table's version and record and the key)."""

    name: str
    #: what the kind is for, in a line (the docs and the metrics' help are made from it)
    doc: str
    keys: Callable[[_Scan], Iterable[tuple[int, object]]]
    due: Callable[[_When], int]
    run: str
    #: who acts when it runs, for the metrics (``meja.server.metrics.SOURCE``)
    source: str = "timer"
    #: the seat's decision it makes is the turn's: the table's turn deadline is its due time
    sets_deadline: bool = False
    #: the table status whose tables derive its keys
    status: str = PLAYING


#: Every timer kind, in the order a table derives them. Only ``check``, ``grace`` and ``archive``
#: run while no person is connected: with nobody watching, bots and the game's clock do not play on.
#: ``archive`` is the one kind of a finished table: the archive write is a due action, so a process
#: that dies before it leaves it due for another one (or for itself, restarted).
TIMERS: Final[tuple[TimerKind, ...]] = (
    TimerKind(
        "bot",
        "a seat a bot plays may act (awaited, or out of turn: its bot may decline), keyed by the seat's epoch",
        _bot_keys,
        _bot_due,
        "_bot_turn",
        source="bot",
    ),
    TimerKind(
        "turn",
        "the turn limit of a present person's awaited decision, keyed by the decision period and the strikes",
        _turn_keys,
        _turn_due,
        "_turn_limit",
        sets_deadline=True,
    ),
    TimerKind(
        "ready",
        "a person who has not said they are ready between rounds",
        _ready_keys,
        lambda w: w.now + w.settings.ready_timeout_s * 1000,
        "_ready_timeout",
    ),
    TimerKind(
        "auto", "an action the game takes by itself after a delay (timed_actions)", _auto_keys, _auto_due, "_timed"
    ),
    TimerKind(
        "check",
        "an awaited person's server process may have died, keyed by the game version",
        _check_keys,
        lambda w: w.now + int(w.settings.presence_check_s * 1000),
        "_check",
    ),
    TimerKind(
        "grace", "an absent person's grace period, keyed by when they went away", _grace_keys, _grace_due, "_grace"
    ),
    TimerKind(
        "archive",
        "a finished match not yet archived (nor skipped), keyed by its last game version: due at once",
        _archive_keys,
        lambda w: w.now,
        "_archive",
        status=FINISHED,
    ),
)
TIMER_KINDS: Final[Mapping[str, TimerKind]] = {k.name: k for k in TIMERS}


def due_keys(t: Table) -> dict[str, TimerKey]:
    """The timers a table needs, by key (each kind's rule: :data:`TIMERS`). Kept with the table (its
    memo): a change's plan asks for the keys of the table before it, which the change before asked
    for; read it, never change it."""
    known: dict[str, TimerKey] | None = t.memo.get("due")
    if known is not None:
        return known
    out: dict[str, TimerKey] = {}
    t.memo["due"] = out
    state = t.state
    if t.status not in (PLAYING, FINISHED) or state is None:
        return out
    scan = _Scan(t, state, t.any_present_human(), state.awaiting(), between_rounds(state))
    for kind in TIMERS:
        if kind.status != t.status:
            continue
        for seat, marker in kind.keys(scan):
            key = TimerKey(t.id, kind.name, seat, str(marker))
            out[str(key)] = key
    return out


def still_due(t: Table, key: TimerKey) -> bool:
    """Whether the table still derives ``key``: the one test of whether a timer is moot."""
    return str(key) in due_keys(t)


def parse_key(key: str) -> TimerKey:
    """A timer key read back (:meth:`TimerKey.parse`)."""
    return TimerKey.parse(key)


def bot_pause_ms(settings: Settings, rand: Random, events: Iterable[Event], hold: frozenset[str]) -> int:
    """A bot's thinking pause, longer after an event the table holds for (``GameInfo.hold_events``)."""
    pause = rand.randint(settings.bot_delay_min_ms, settings.bot_delay_max_ms)
    if hold and any(e.kind in hold for e in events):
        pause += settings.hold_delay_ms
    return pause


def plan(
    old: Table | None, new: Table, events: Sequence[Event], now: int, settings: Settings, rand: Random
) -> tuple[Table, list[Due], list[str]]:
    """The timers a change sets and cancels, and the table with its turn deadline set.

    Timers whose key is unchanged keep their time; new keys get theirs from now.
    """
    before = due_keys(old) if old is not None else {}
    after = due_keys(new)
    schedule: list[Due] = []
    deadline = new.deadline
    has_deadline = False
    for text, key in after.items():
        kind = TIMER_KINDS[key.kind]
        has_deadline = has_deadline or kind.sets_deadline
        if text in before:
            continue
        due = kind.due(_When(new, key, events, now, settings, rand))
        if kind.sets_deadline:
            deadline = due
        schedule.append(Due(new.id, text, due))
    if not has_deadline:
        deadline = None
    if deadline != new.deadline:
        new = new.evolve(deadline=deadline)
    cancel = [key for key in before if key not in after]
    return new, schedule, cancel


# --------------------------------------------------------------------------- what clients see


def summary(t: Table, settings: Settings) -> dict[str, Any]:
    """The table map of ``state`` and ``update`` (the same for every connection: no secrets).

    Its ``link``, ``seats`` (and each seat's entry), ``teams``, ``talk`` and ``awaiting`` are the
    very objects the last map had while what they are built from is the same (:func:`_reused`): a
    patch's diff passes over a value that is the object it was without encoding it (PROTOCOL.md
    7.5), and a move rebuilds none of them. They are shared: read them, never change them.
    """
    cached: dict[str, Any] | None = t.memo.get("summary")
    if cached is not None:
        return cached
    playing = t.status == PLAYING
    game = get_game(t.game)
    options = t.game_options
    seats = t.seats
    n = len(seats)
    now = talk.allowed_now(t)
    out: dict[str, Any] = {
        "id": t.id,
        "code": t.code,
        "link": _reused(("link", t.code), (settings,), lambda: settings.invite_link(t.code)),
        "game": t.game,
        "preset": t.options.get("preset", game.info.default_preset),
        "options": _reused(("options",), (options,), options.to_wire),
        "status": t.status,
        "seats": _reused(
            ("seats", playing, t.bots, t.grace_s), (seats,), lambda: [_seat_entry(t, i, playing) for i in range(n)]
        ),
        "teams": _reused(("teams", n), (options,), lambda: [list(team) for team in game.teams(options, n)]),
        "host_seat": t.host_seat,
        "host_rights": t.delegate,
        "bots": t.bots,
        "grace_s": t.grace_s,
        "turn_limit_s": t.turn_limit_s,
        "talk": _reused(("talk", t.status, now), (t.talk, seats), lambda: talk.summary(t)),
    }
    if playing:
        out["awaiting"] = _awaiting(tuple(t.awaiting()))
    if t.deadline is not None and playing:
        out["turn_deadline_ms"] = t.deadline
    if t.commitment is not None:
        out["commitment"] = {"round": t.commitment.round, "hash": t.commitment.hash}
        if t.commitment.chosen:
            out["commitment"]["chosen"] = True
    if t.deal_code is not None and t.status == LOBBY:
        out["deal_code_given"] = True
    if t.state is not None and t.status == FINISHED:
        outcome = t.state.outcome()
        if outcome is not None:
            out["outcome"] = outcome.to_wire()
            if t.archived == "yes":
                # The replay's id (meja.server.archive): derived from the secret seed, named once the
                # archive is written (the record says so: not when it was skipped, nor before).
                out["archive"] = archive_id(t.seed)
    t.memo["summary"] = out
    return out


def _seat_entry(t: Table, i: int, playing: bool) -> dict[str, Any]:
    """Seat ``i``'s entry of the table map: the last one made while its record is the same."""
    s = t.seats[i]
    entry: dict[str, Any] = _reused(
        ("seat", i, playing, t.bots, t.grace_s), (s,), lambda: _new_seat_entry(t, i, s, playing)
    )
    return entry


def _new_seat_entry(t: Table, i: int, s: SeatRecord, playing: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seat": i,
        "kind": s.kind,
        "name": s.name,
        "connected": s.is_present or s.is_bot,
        "auto": s.auto,
    }
    if s.left:
        entry["left"] = True
    if s.is_bot:
        entry["level"] = s.level
    elif s.auto:
        entry["level"] = t.bots
    elif s.is_human and s.away is not None and playing:
        # when a bot takes the absent player's turns (epoch ms): every page counts down to the
        # same moment, and a reload keeps it (issue 20, point 9)
        entry["bot_at"] = s.away + t.grace_s * 1000
    return entry


#: Parts of table maps (:func:`summary`) by what they are made of: a key of values, the ids of the
#: objects they were built from, and those objects (held, so the ids stay theirs) with the part.
_REUSED: dict[tuple[Any, ...], tuple[tuple[Any, ...], Any]] = {}
#: When :data:`_REUSED` is emptied (a server's tables each keep a handful of entries).
_REUSED_MAX: Final = 8192


def _reused(key: tuple[Any, ...], sources: tuple[Any, ...], make: Callable[[], Any]) -> Any:
    """``make()``, or what it gave last for the same ``key`` and the very same ``sources``
    (compared by identity: a table evolved from another keeps its seats, talk settings and
    options objects while they do not change)."""
    full = (*key, *map(id, sources))
    got = _REUSED.get(full)
    if got is not None and all(map(is_, got[0], sources)):
        return got[1]
    if len(_REUSED) >= _REUSED_MAX:
        _REUSED.clear()
    made = make()
    _REUSED[full] = (sources, made)
    return made


@functools.lru_cache(maxsize=512)
def _awaiting(seats: tuple[int, ...]) -> list[int]:
    """The table map's ``awaiting``: one list for every equal tuple of seats (ints only)."""
    return list(seats)


def view_for(t: Table, seat: int | None) -> dict[str, Any] | None:
    """The game view of ``seat`` (``None``: a spectator), nil in the lobby.

    The deal code of the round in progress joins the view only where every
    other seat is a bot: nobody is there to cheat.
    """
    if t.state is None:
        return None
    key = f"view/{seat}"
    cached: dict[str, Any] | None = t.memo.get(key)
    if cached is not None:
        return cached
    view: dict[str, Any] = t.state.view(seat).to_wire()
    if view.get("deal_code") is None:
        code = _own_deal_code(t, seat)
        if code is not None:
            view = {**view, "deal_code": code}
    t.memo[key] = view
    return view


def view_parts(t: Table, seat: int | None) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``seat``'s view in two parts, ``(public, own)``: what every seat and a spectator see alike
    (one map a version, the very object for every seat) and what only ``seat`` sees
    (``State.own_view``); :func:`view_for` is ``{**public, **own}`` (its keys in another order).
    ``None``: in the lobby, for a game that does not tell its seats' own parts, and for a seat whose
    view the shell adds to (the deal code of a seat playing alone with bots)."""
    state = t.state
    if state is None:
        return None
    key = f"own/{seat}"
    own: dict[str, Any] | None = t.memo.get(key)
    if own is None:
        if _own_deal_code(t, seat) is not None:
            return None
        own = state.own_view(seat)
        if own is None:
            return None
        t.memo[key] = own
    public: dict[str, Any] | None = t.memo.get("view/public")
    if public is None:
        spectator = view_for(t, None)
        assert spectator is not None
        public = t.memo["view/public"] = {k: v for k, v in spectator.items() if k not in own}
    return public, own


def _own_deal_code(t: Table, seat: int | None) -> str | None:
    """The deal code of the round in progress where ``seat`` may see it: where every other seat
    is a bot (nobody is there to cheat)."""
    if seat is None or t.status != PLAYING:
        return None
    people: frozenset[int] | None = t.memo.get("people")
    if people is None:
        people = t.memo["people"] = frozenset(i for i, s in enumerate(t.seats) if s.kind != BOT)
    if not people <= {seat}:
        return None
    code = None if t.state is None else t.state.deal_code
    return code if isinstance(code, str) else None
