"""Shared moves of the end-to-end tests: seat a table, play it out, and check what the clients saw.

The checks read only what came over the wire (the clients' recorded messages),
so they hold whatever the server does inside.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from meja.server.tables import TABLE_EVENTS
from meja_client import Client, Player, first_legal, is_match_over, random_policy
from table_truth import strings_in

OpenClient = Callable[..., Awaitable[Client]]
#: A wire message as a client recorded it.
Message = dict[str, Any]

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@dataclass
class Table:
    """A table the test opened: ``humans[0]`` is the host (seat 0)."""

    humans: list[Client]
    joined: dict[str, Any]
    bots: list[int] = field(default_factory=list)

    @property
    def host(self) -> Client:
        return self.humans[0]

    @property
    def id(self) -> str:
        return str(self.joined["table"])

    @property
    def code(self) -> str:
        return str(self.joined["code"])


async def open_table(
    open_client: OpenClient,
    url: str | Sequence[str],
    *,
    humans: int = 2,
    bots: int = 1,
    options: dict[str, Any] | None = None,
    deal_code: str | None = None,
    grace_s: int | None = None,
    record: bool = False,
) -> Table:
    """Host a table of ``humans + bots`` seats (humans first), fill the bot seats, do not start.

    ``url`` may be a list: the n-th human connects to ``url[n % len(url)]``
    (players on different server processes).
    """
    urls = [url] if isinstance(url, str) else list(url)
    seats = humans + bots
    host = await open_client(urls[0], record=record)
    joined = await host.host(seats=seats, name=NAMES[0], options=options, deal_code=deal_code, grace_s=grace_s)
    assert joined["seat"] == 0 and joined["token"] and joined.get("host_token")
    table = Table([host], joined)
    for n in range(1, humans):
        client = await open_client(urls[n % len(urls)], record=record)
        mine = await client.join(code=joined["code"], name=NAMES[n])
        assert mine["table"] == joined["table"] and mine["seat"] == n, mine
        table.humans.append(client)
    for seat in range(humans, seats):
        await host.seat_to(seat, "bot")
        table.bots.append(seat)
    return table


async def start(table: Table) -> None:
    """Start the table; return when every human has a view of round 1."""
    await table.host.start()
    await asyncio.gather(*(c.wait_for(lambda c: c.status == "playing" and c.view is not None) for c in table.humans))


async def play_out(
    clients: Sequence[Client], policies: Sequence[Any] | None = None, timeout: float = 60.0
) -> list[Player]:
    """Play every client's seat until the match is over; the players (their ``actions``)."""
    players = [Player(c, policies[i] if policies else first_legal, turn_timeout=timeout) for i, c in enumerate(clients)]
    await asyncio.gather(*(p.run() for p in players))
    for c in clients:
        await c.wait_for(is_match_over, timeout)
    return players


def seeded(n: int, base: int = 0) -> list[Any]:
    return [random_policy(base * 100 + i) for i in range(n)]


# ----------------------------------------------------------------------------- checks


def assert_contiguous(client: Client) -> None:
    """Every ``update`` starts where the previous ``state`` or ``update`` ended (PROTOCOL.md 3).

    An update holds the events of versions ``since+1 .. version``; a ``state``
    sets the base (it may repeat the version of the last update, as at the end
    of a resume). Nothing may be skipped or repeated.
    """
    base: int | None = None
    seen = 0
    for message in client.messages:
        if message["type"] == "state":
            assert base is None or message["version"] >= base, (base, message["version"])
            base = message["version"]
        elif message["type"] == "update":
            seen += 1
            if base is None:
                base = message["since"]  # a resume: the missed updates come before the state
            assert message["since"] == base, f"update {message['since']}..{message['version']} after {base}"
            assert message["version"] > message["since"], message["version"]
            base = message["version"]
    assert seen, "no update received"


def events_between(client: Client, after: int, upto: int) -> list[dict[str, Any]]:
    """The events ``client`` got for versions ``after+1 .. upto``, from updates that tile the range."""
    out: list[dict[str, Any]] = []
    at = after
    for update in client.updates:
        if update["since"] >= at and update["version"] <= upto:
            assert update["since"] == at, f"{client.seat}: versions {at}..{update['since']} missing"
            out.extend(update["events"])
            at = update["version"]
    assert at == upto, f"seat {client.seat}: got versions up to {at}, not {upto}"
    return out


def contradicted_replies(client: Client) -> set[Any]:
    """Request ids that got an ``update``/``state`` answer *and* an ``error``, or two answers.

    PROTOCOL.md 8: a request is answered once, accepted or refused. Empty when
    the server keeps that promise.
    """
    answers = Counter(m["re"] for m in client.messages if m["type"] in ("update", "state") and "re" in m)
    errors = {m["re"] for m in client.errors if "re" in m}
    return (set(answers) & errors) | {r for r, n in answers.items() if n > 1}


def confirmed(player: Player) -> int:
    """How many of the player's actions were accepted and not contradicted by a later error."""
    bad = contradicted_replies(player.client)
    return sum(1 for rid in player.accepted_ids if rid not in bad)


def kinds(events: Sequence[dict[str, Any]]) -> list[str]:
    return [str(e["kind"]) for e in events]


def assert_fair_deals(events: Sequence[dict[str, Any]]) -> int:
    """Every round's ``reveal`` opens its ``commitment`` (PROTOCOL.md 7); the number of rounds checked."""
    commitments = {e["round"]: e["hash"] for e in events if e["kind"] == "commitment"}
    reveals = [e for e in events if e["kind"] == "reveal"]
    results = {e["round"]: e["deal_code"] for e in events if e["kind"] == "round_over"}
    assert reveals, "no reveal event"
    for reveal in reveals:
        r = reveal["round"]
        assert r in commitments, f"round {r} revealed without a commitment"
        digest = hashlib.sha256(f"{reveal['deal_code']}:{reveal['salt']}".encode()).hexdigest()
        assert digest == commitments[r], f"round {r}: the reveal does not open the commitment"
        assert results.get(r) == reveal["deal_code"], f"round {r}: revealed code is not the round's"
    return len(reveals)


def assert_match_result(view: dict[str, Any]) -> None:
    """The view shows a finished match to the target: the lowest total wins (1.6.5-1.6.7)."""
    assert view["phase"] == "match_over", view["phase"]
    scores = view["scores"]
    assert max(scores) >= view["target"], scores
    assert view["winners"] == [s for s, v in enumerate(scores) if v == min(scores)], view


def seat_events(client: Client, kind: str, seat: int) -> list[dict[str, Any]]:
    return [e for e in client.events if e["kind"] == kind and e.get("seat") == seat]


def match_over(client: Client) -> bool:
    """Whether the client's view says the match is over."""
    return client.view is not None and client.view["phase"] == "match_over"


def documented(game: str, section: str) -> frozenset[str]:
    """The backticked words of the first column of the tables in ``game``'s PROTOCOL.md ``section``."""
    from meja import games

    plugin = games.get(game)
    assert plugin.protocol is not None
    text = plugin.protocol.read_text(encoding="utf-8")
    body = text.split(f"\n## {section}.", 1)[1].split("\n## ", 1)[0]
    words: set[str] = set()
    for line in body.splitlines():
        if line.startswith("| `"):
            words |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    return frozenset(words)


def first_difference(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> str:
    """Where a client's events first differ from the log's, in words."""
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w:
            return f"event {i}: got {json.dumps(g)}, the log has {json.dumps(w)}"
    return f"got {len(got)} events, the log has {len(want)}"


class Planted:
    """A stand-in client holding messages a test makes up (to show a check can fail)."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages


def judged_messages(
    client: Client,
    seat: int | None,
    truth: Any,
    documented: tuple[frozenset[str], str, frozenset[str], str],
    who: str,
) -> Iterator[tuple[dict[str, Any], dict[str, Any] | None]]:
    """Each ``state`` and ``update`` message ``client`` got, as ``(message, its view or None)``, once
    checked that it is for ``seat``, names no card of ``truth.names`` that ``truth.seen(seat, first,
    last)`` leaves out over the versions it covers, and holds only the view fields and event kinds
    its game's PROTOCOL.md section documents (``documented``: view fields, their section, event
    kinds, theirs). The game's own checks of its view and events follow in the caller."""
    view_fields, view_section, event_kinds, event_section = documented
    # A resume's missed updates carry the current table and view (PROTOCOL.md 9): the state's that follows.
    states = [i for i, m in enumerate(client.messages) if m["type"] == "state"]
    current = client.messages[states[0]]["version"] if states else None
    for i, message in enumerate(client.messages):
        kind = message["type"]
        if kind not in ("state", "update"):
            continue
        assert message.get("seat") == seat, (who, kind, message.get("seat"))
        first, last = (message["since"], message["version"]) if kind == "update" else (message["version"],) * 2
        if current is not None and i < states[0]:
            last = current
        named = {s for s in strings_in({k: v for k, v in message.items() if k != "table"}) if s in truth.names}
        leaked = named - truth.seen(seat, first, last)
        assert not leaked, f"{who} was sent {sorted(leaked)} in a {kind} at version {last}"
        view = message.get("view")
        if isinstance(view, dict):
            extra = set(view) - view_fields
            unnamed = f"that PROTOCOL.md section {view_section} does not name"
            assert not extra, f"{who}: view fields {sorted(extra)} {unnamed}"
            assert view["seat"] == seat, (who, view["seat"])
        for event in message.get("events") or ():
            ek = event["kind"]
            assert ek in event_kinds or ek in TABLE_EVENTS, f"{who}: an event {ek!r} that section {event_section} omits"
        yield message, view if isinstance(view, dict) else None


def assert_leak_is_caught(
    check: Callable[[Any], object], visible: dict[int, dict[int | None, set[str]]], seat: int, other: int, who: str
) -> None:
    """The leak check can fail: ``other``'s cards that ``seat`` may not see (``visible``: a truth's
    version -> seat -> cards), planted in an update to ``seat`` at the last version that has some,
    make ``check(client)`` fail, saying ``who`` was sent them."""
    hand_at = max(v for v, seen in visible.items() if seen[other] - seen[seat])
    secret = sorted(visible[hand_at][other] - visible[hand_at][seat])
    update = {"type": "update", "seat": seat, "since": hand_at - 1, "version": hand_at}
    planted = Planted([{**update, "events": [{"kind": "hand", "seat": other, "cards": secret}]}])
    with pytest.raises(AssertionError, match=f"{who} was sent"):
        check(planted)


async def seat_and_start(
    clients: OpenClient, host: Client, joined: dict[str, Any], url: str, seat: int, name: str, bots: dict[int, str]
) -> tuple[Client, Client]:
    """The second person joins the table ``host`` made (``joined``: the host's answer) at ``seat``
    through ``url``, a spectator watches there, the host seats ``bots`` (seat -> level) and starts:
    the person and the spectator, once the person sees the game."""
    person = await clients(url)
    assert (await person.join(code=joined["code"], name=name, seat=seat))["seat"] == seat
    spectator = await clients(url)
    await spectator.watch(code=joined["code"])
    for bot, level in bots.items():
        await host.seat_to(bot, "bot", level=level)
    await host.start()
    await person.wait_for(lambda c: c.view is not None)
    return person, spectator


async def play_out_people(people: Sequence[Any], spectator: Client, timeout: float) -> None:
    """Run every person's ``play()`` until the match is over as the spectator sees it, then make sure
    every update sent to the people and the spectator has arrived."""
    await asyncio.wait_for(asyncio.gather(*(p.play() for p in people)), timeout=timeout)
    await spectator.wait_for(match_over, timeout=30)
    for client in (*(p.client for p in people), spectator):
        await client.ping()  # every update sent before has arrived


@dataclass
class Resume:
    """One drop and resume of a person's connection, moving it to the other server process."""

    seat: int
    moved: tuple[str, str]  #: (from process, to process)
    since: int  #: the last version the dropped connection got
    version: int  #: the version of the resume's state
    missed: list[dict[str, Any]]  #: the game events of the versions missed
    achieved: bool  #: the resume came at the moment its test meant it for


@dataclass
class TwoProcesses:
    """What the two people of a two-process test share: the processes' URLs, who sits on which,
    the spectator, a way to open a client, and the resumes so far."""

    urls: dict[str, str]
    where: dict[int, str]
    spectator: Client
    open_client: OpenClient
    resumes: list[Any] = field(default_factory=list)


def audiences(
    people: dict[int, Any], names: dict[int, str], spectator: Client
) -> list[tuple[list[Client], int | None, str]]:
    """Who saw the table, to check what each saw: every person's connections with its seat and name,
    then the spectator (seat ``None``)."""
    return [
        *((person.connections, seat, names[seat]) for seat, person in people.items()),
        ([spectator], None, "spectator"),
    ]


async def resume_seat(
    match: TwoProcesses, there: str, seat: int, since: int, **resume: Any
) -> tuple[Client, list[dict[str, Any]], int]:
    """Take ``seat`` back on process ``there`` with a new client, resuming from version ``since``
    (``resume``: the rest of the ``resume`` request, the table and the token). What it missed must
    come first, as updates tiling ``since + 1`` .. the state's version, and there must be some (the
    disconnect itself is a change). The new client, those updates and the state's version."""
    new = await match.open_client(match.urls[there])
    joined = await new.resume(since=since, **resume)
    assert joined["seat"] == seat and new.seat == seat and new.view is not None
    assert new.table is not None and new.table["seats"][seat]["connected"]
    replayed = replayed_updates(new, since)
    assert replayed, "the disconnect itself is a table change the seat missed"
    state_version = int(replayed[-1]["version"])  # the state's version: the updates tile up to it
    return new, replayed, state_version


def replayed_updates(client: Client, since: int) -> list[dict[str, Any]]:
    """The updates that came before the first ``state`` of a resume (PROTOCOL.md 4).

    They must cover versions ``since+1 ..`` the state's version, in order, each once.
    """
    first_state = next(i for i, m in enumerate(client.messages) if m["type"] == "state")
    replayed = [m for m in client.messages[:first_state] if m["type"] == "update"]
    at = since
    for update in replayed:
        assert update["since"] == at and update["version"] > at, (at, update["since"], update["version"])
        at = update["version"]
    assert client.messages[first_state]["version"] == at, (client.messages[first_state]["version"], at)
    return replayed
