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
All public (every seat and spectator sees them):

===============  ===================================  ==========================================
kind             data                                 when
===============  ===================================  ==========================================
seat_changed     seat, to (the seat's new kind), name,  a seat taken, freed, handed to a bot, left
                 level?
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
===============  ===================================  ==========================================

Decisions where the issue is silent (written down here as the code does them)
-----------------------------------------------------------------------------
- A join after the start gets ``table/not_lobby`` (the seats are all taken by
  then: empty seats become bots at the start); the person may watch.
- ``leave`` in the lobby empties the seat; the host's ``leave`` closes the table
  (status ``finished``). After the start a bot takes the seat for good; a host
  who leaves gives up the host's powers (no rematch).
- ``seat`` (host, lobby) may not change the host's own seat (``seat/bad_seat``);
  a human moved out of a seat keeps watching as a spectator.
- An ``act`` is stale (``action/stale_version``) only if the *game* changed
  since the client's version: connects, disconnects and other table changes do
  not make a pending action stale.
- The deal code of the round in progress is added to a seat's view only when
  every other seat is a bot (crazy-eights.md 1.9.3; a bot standing in for an
  absent human does not count: that human will come back).
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Final

from meja.protocol.errors import (
    BadMessage,
    BadSeat,
    BadTableOptions,
    NotLobby,
    NotPlaying,
    SeatTaken,
    StaleVersion,
    TableFull,
)
from meja.rules import Event, get_game
from meja.rules import dealcode as deal_codes
from meja.rules.errors import BadOptionsError
from meja.store.base import Due

from .records import BOT, FINISHED, HUMAN, LOBBY, PLAYING, Commitment, SeatRecord, Table
from .settings import Settings

__all__ = [
    "BOT_NAME",
    "TABLE_EVENTS",
    "Mutation",
    "act",
    "bot_levels",
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
    "start",
    "summary",
    "view_for",
]

#: The kinds of the events the table adds to the game's.
TABLE_EVENTS: Final = frozenset(
    {"seat_changed", "connected", "away", "auto", "started", "rematch", "closed", "commitment", "reveal", "timeout"}
)
#: Events after which a new decision period starts (a fresh turn clock).
_PERIOD_EVENTS: Final = frozenset({"turn", "round_start", "round_over", "choose_suit", "match_over"})
BOT_NAME: Final = "Bot"


@dataclass(frozen=True, slots=True)
class Mutation:
    """The next table and the events of the version that commits it."""

    table: Table
    events: tuple[Event, ...]


def bot_levels() -> tuple[str, ...]:
    """The bot levels a table may use (:func:`meja.bots.names`)."""
    from meja.bots import names

    return names()


def clean_name(name: str) -> str:
    """A display name as shown: trimmed, inner spaces collapsed, printable only, 1-24 characters."""
    from meja.protocol.messages import MAX_NAME_CHARS

    text = " ".join(name.split())
    if not text:
        raise BadMessage("a name needs at least one visible character")
    if len(text) > MAX_NAME_CHARS:
        raise BadMessage(f"a name has at most {MAX_NAME_CHARS} characters")
    if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
        raise BadMessage(f"name {text!r} has a control or unassigned character")
    return text


def commitment_hash(deal_code: str, salt: str) -> str:
    """PROTOCOL.md 7: hex SHA-256 of ``deal_code + ":" + salt``."""
    return hashlib.sha256(f"{deal_code}:{salt}".encode()).hexdigest()


def _seat_event(seat: int, record: SeatRecord) -> Event:
    data: dict[str, Any] = {"seat": seat, "to": record.kind, "name": record.name}
    if record.kind == BOT:
        data["level"] = record.level
    return Event("seat_changed", data)


def _check_level(level: str) -> str:
    if level not in bot_levels():
        raise BadTableOptions(f"unknown bot level {level!r}; known: {list(bot_levels())}")
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
        spec = deal_codes.decode(deal_code)  # deal/bad_code if it does not read
        deal_code = deal_codes.encode(spec)  # canonical, grouped
        request.setdefault("preset", spec.preset)
    opts = the_game.options_from_wire(request)
    request.setdefault("preset", opts.preset)
    count = seats if seats is not None else (spec.seats if spec is not None else the_game.seat_range(opts).start)
    if count not in the_game.seat_range(opts):
        raise BadOptionsError(f"{opts.preset} is for {opts.min_seats}-{opts.max_seats} seats, not {count!r}")
    if spec is not None and (spec.preset != opts.preset or spec.seats != count):
        raise BadOptionsError(
            f"deal code {deal_code!r} is for {spec.preset} with {spec.seats} seats, not {opts.preset} with {count}"
        )
    level = _check_level(bots if bots is not None else settings.bot_level)
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
    host_seat = SeatRecord(kind=HUMAN, name=clean_name(name), token=seat_token, conn=conn)
    return Table(
        id=table_id,
        code=code,
        game=the_game.name,
        options=request,
        seats=(host_seat,) + (SeatRecord(),) * (count - 1),
        host=host_token,
        host_seat=0,
        status=LOBBY,
        bots=level,
        grace_s=grace,
        turn_limit_s=limit,
        seed=seed,
        deal_code=deal_code,
        state=None,
        created=now,
    )


def join(t: Table, *, name: str, seat: int | None, token: str, conn: tuple[str, str]) -> tuple[Mutation, int]:
    """A person takes ``seat`` (or the first free one) in the lobby."""
    display = clean_name(name)
    if t.status != LOBBY:
        raise NotLobby("the match has started: every seat is taken; watch instead")
    if seat is None:
        free = [i for i, s in enumerate(t.seats) if s.is_empty]
        if not free:
            raise TableFull(f"all {len(t.seats)} seats are taken")
        seat = free[0]
    elif not 0 <= seat < len(t.seats):
        raise BadSeat(f"no seat {seat!r} at a table of {len(t.seats)}")
    elif not t.seats[seat].is_empty:
        raise SeatTaken(f"seat {seat} is not free")
    record = SeatRecord(kind=HUMAN, name=display, token=token, conn=conn)
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
        record = SeatRecord(kind=BOT, name=BOT_NAME, level=_check_level(level if level is not None else t.bots))
    else:
        if level is not None:
            raise BadMessage("'level' goes only with to='bot'")
        record = SeatRecord()
    new = t.evolve(seats=t.seats[:seat] + (record,) + t.seats[seat + 1 :])
    return Mutation(new, (_seat_event(seat, record),))


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
    return _after_transition(base, base.awaiting(), transition.state, transition.events, events, version, now)


def rematch(t: Table, *, seed: int, version: int, now: int) -> Mutation:
    """The host starts a new match with the same seats (a fresh seed; no deal code)."""
    if t.status != FINISHED or t.state is None:
        raise NotPlaying("a rematch is possible only when the match is over")
    game = get_game(t.game)
    transition = game.new_match(t.game_options, len(t.seats), seed, None)
    base = t.evolve(status=PLAYING, seed=seed, deal_code=None)
    return _after_transition(base, (), transition.state, transition.events, [Event("rematch", {})], version, now)


def leave(t: Table, *, seat: int) -> Mutation:
    """The seat's holder gives it up (see the module docstring for what happens to it)."""
    if t.status == LOBBY:
        if seat == t.host_seat:
            return Mutation(t.evolve(status=FINISHED, host=None), (Event("closed", {}),))
        record = SeatRecord()
        host = t.host
    else:
        record = SeatRecord(kind=BOT, name=BOT_NAME, level=t.bots)
        host = None if seat == t.host_seat else t.host
    new = t.evolve(seats=t.seats[:seat] + (record,) + t.seats[seat + 1 :], host=host)
    return Mutation(new, (_seat_event(seat, record),))


# --------------------------------------------------------------------------- presence


def connect(t: Table, *, seat: int, conn: tuple[str, str]) -> Mutation:
    """The seat's holder (re)connects: it is theirs again, at once (no bot plays for it)."""
    new = t.with_seat(seat, conn=conn, away=None, auto=False)
    return Mutation(new, (Event("connected", {"seat": seat}),))


def disconnect(t: Table, *, seat: int, conn: tuple[str, str], now: int) -> Mutation | None:
    """The connection holding ``seat`` closed. ``None`` if another connection holds it by now."""
    record = t.seats[seat]
    if not record.is_human or record.conn != conn:
        return None
    new = t.with_seat(seat, conn=None, away=now)
    return Mutation(new, (Event("away", {"seat": seat}),))


def dead_process(t: Table, *, seat: int, conn: tuple[str, str], now: int) -> Mutation | None:
    """The process holding ``seat`` died: the player counts as away from now."""
    return disconnect(t, seat=seat, conn=conn, now=now)


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
    if client_version < t.gv:
        raise StaleVersion(
            f"the game moved on at version {t.gv}; you acted on version {client_version}: act on the latest update"
        )
    return play(t, seat, move, version=version, now=now)


def play(t: Table, seat: int, move: Any, *, version: int, now: int, before: Sequence[Event] = ()) -> Mutation:
    """Apply a game move for ``seat`` (a person's, a bot's or a timer's); rules errors propagate."""
    if t.state is None or t.status != PLAYING:
        raise NotPlaying("the table is not playing")
    transition = t.state.apply(seat, move)
    return _after_transition(t, t.awaiting(), transition.state, transition.events, list(before), version, now)


def _after_transition(
    t: Table,
    awaiting_before: tuple[int, ...],
    state: Any,
    game_events: Iterable[Event],
    events: list[Event],
    version: int,
    now: int,
) -> Mutation:
    """The table after the game moved: fair-deal commitments, status, decision periods."""
    commitment = t.commitment
    round_v = t.round_v
    kinds = set()
    for event in game_events:
        kinds.add(event.kind)
        if event.kind == "round_start":
            code = getattr(state, "deal_code", None)
            if isinstance(code, str):
                salt = secrets.token_hex(16)
                number = int(event.data.get("round", 1))
                commitment = Commitment(number, commitment_hash(code, salt), salt, code)
                events.append(Event("commitment", {"round": number, "hash": commitment.hash}))
            round_v = version
            events.append(event)
        elif event.kind == "round_over":
            events.append(event)
            if commitment is not None:
                # PROTOCOL.md 7: the code and the salt open the round's commitment.
                events.append(
                    Event("reveal", {"round": commitment.round, "deal_code": commitment.code, "salt": commitment.salt})
                )
        else:
            events.append(event)
    status = FINISHED if state.outcome() is not None else PLAYING
    new = t.evolve(state=state, status=status, gv=version, round_v=round_v, commitment=commitment)
    awaiting = new.awaiting()
    if kinds & _PERIOD_EVENTS or not set(awaiting) <= set(awaiting_before):
        new = new.evolve(turn_v=version, strikes=0, deadline=None)
    return Mutation(new, tuple(events))


def is_ready_wait(state: Any, seat: int) -> bool:
    """Whether ``seat``'s only decision is to say it is ready for the next round."""
    legal = state.legal_actions(seat)
    return len(legal) == 1 and legal[0].to_wire() == {"kind": "ready"}


# --------------------------------------------------------------------------- timers


def due_keys(t: Table) -> dict[str, tuple[str, int]]:
    """The timers a table needs, by key: ``{key: (kind, seat)}``.

    A key names its kind, seat and what must not have changed for it to fire
    (the game version ``gv``, the decision period ``turn_v.strikes``, the time a
    player went away), so a change that makes a timer moot changes its key:
    :func:`plan` cancels the old key and sets the new one in the same commit.

    - ``bot``: a seat played by a bot is awaited (only while some human is
      connected: with nobody watching, bots do not play on);
    - ``turn``: the turn limit of a present human's decision (same condition);
    - ``ready``: a human who has not said ``ready`` between rounds;
    - ``check``: an awaited human's server process may have died;
    - ``grace``: an absent player's grace period.
    """
    out: dict[str, tuple[str, int]] = {}
    if t.status != PLAYING or t.state is None:
        return out
    present = t.any_present_human()
    for s in t.awaiting():
        seat = t.seats[s]
        if seat.is_played_by_bot:
            if present:
                out[f"{t.id}|bot|{s}|{t.gv}"] = ("bot", s)
            continue
        if not seat.is_human:
            continue
        if is_ready_wait(t.state, s):
            if present:
                out[f"{t.id}|ready|{s}|{t.turn_v}"] = ("ready", s)
        elif t.turn_limit_s and present:
            out[f"{t.id}|turn|{s}|{t.turn_v}.{t.strikes}"] = ("turn", s)
        if seat.conn is not None:
            out[f"{t.id}|check|{s}|{t.gv}"] = ("check", s)
    for s, seat in enumerate(t.seats):
        if seat.is_human and seat.away is not None and seat.conn is None and not seat.auto:
            out[f"{t.id}|grace|{s}|{seat.away}"] = ("grace", s)
    return out


def parse_key(key: str) -> tuple[str, str, int, str]:
    """``(table_id, kind, seat, marker)`` of a timer key."""
    table_id, kind, seat, marker = key.split("|")
    return table_id, kind, int(seat), marker


def bot_pause_ms(settings: Settings, rand: Random, events: Iterable[Event]) -> int:
    """A bot's thinking pause (crazy-eights.md 1.8 F), longer after a reshuffle (1.5.3)."""
    pause = rand.randint(settings.bot_delay_min_ms, settings.bot_delay_max_ms)
    if any(e.kind == "reshuffle" for e in events):
        pause += settings.reshuffle_delay_ms
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
    has_turn = False
    for key, (kind, seat) in after.items():
        if kind == "turn":
            has_turn = True
        if key in before:
            continue
        if kind == "bot":
            assert new.state is not None
            if is_ready_wait(new.state, seat):
                due = now + settings.ready_delay_ms
            else:
                due = now + bot_pause_ms(settings, rand, events)
        elif kind == "ready":
            due = now + settings.ready_timeout_s * 1000
        elif kind == "turn":
            assert new.turn_limit_s is not None
            # Once the limit ran out this turn, the next default move comes at a bot's pace.
            limit_ms = new.turn_limit_s * 1000 if new.strikes == 0 else bot_pause_ms(settings, rand, events)
            due = now + limit_ms
            deadline = due
        elif kind == "check":
            due = now + int(settings.presence_check_s * 1000)
        else:  # grace
            away = new.seats[seat].away
            assert away is not None
            due = max(now, away + new.grace_s * 1000)
        schedule.append(Due(new.id, key, due))
    if not has_turn:
        deadline = None
    if deadline != new.deadline:
        new = new.evolve(deadline=deadline)
    cancel = [key for key in before if key not in after]
    return new, schedule, cancel


# --------------------------------------------------------------------------- what clients see


def summary(t: Table, settings: Settings) -> dict[str, Any]:
    """The table map of ``state`` and ``update`` (the same for every connection: no secrets)."""
    cached: dict[str, Any] | None = t.memo.get("summary")
    if cached is not None:
        return cached
    seats = []
    for i, s in enumerate(t.seats):
        entry: dict[str, Any] = {
            "seat": i,
            "kind": s.kind,
            "name": s.name,
            "connected": s.is_present or s.is_bot,
            "auto": s.auto,
        }
        if s.is_bot:
            entry["level"] = s.level
        elif s.auto:
            entry["level"] = t.bots
        seats.append(entry)
    out: dict[str, Any] = {
        "id": t.id,
        "code": t.code,
        "link": settings.invite_link(t.code),
        "game": t.game,
        "options": t.game_options.to_wire(),
        "status": t.status,
        "seats": seats,
        "host_seat": t.host_seat,
        "bots": t.bots,
        "grace_s": t.grace_s,
        "turn_limit_s": t.turn_limit_s,
    }
    if t.deadline is not None and t.status == PLAYING:
        out["turn_deadline_ms"] = t.deadline
    if t.commitment is not None:
        out["commitment"] = {"round": t.commitment.round, "hash": t.commitment.hash}
    if t.deal_code is not None and t.status == LOBBY:
        out["deal_code_given"] = True
    t.memo["summary"] = out
    return out


def view_for(t: Table, seat: int | None) -> dict[str, Any] | None:
    """The game view of ``seat`` (``None``: a spectator), nil in the lobby.

    The deal code of the round in progress joins the view only where every
    other seat is a bot (crazy-eights.md 1.9.3).
    """
    if t.state is None:
        return None
    key = f"view/{seat}"
    cached: dict[str, Any] | None = t.memo.get(key)
    if cached is not None:
        return cached
    view: dict[str, Any] = t.state.view(seat).to_wire()
    if (
        seat is not None
        and view.get("deal_code") is None
        and t.status == PLAYING
        and all(s.kind == BOT for i, s in enumerate(t.seats) if i != seat)
    ):
        code = getattr(t.state, "deal_code", None)
        if isinstance(code, str):
            view = {**view, "deal_code": code}
    t.memo[key] = view
    return view
