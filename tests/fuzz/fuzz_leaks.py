"""What a seat or a spectator may see, checked on every frame it was sent, from the wire alone.

:func:`check_connection` takes one connection's recorded frames (``meja_client``
with ``record=True``) and raises :class:`Leak` at the first thing that
connection should not have been sent. The ground truth is the connection's own
view (its hand) and the public events it got, so the check holds whatever the
server does inside (the rules' own ``view`` is not consulted):

1. **every frame decodes** with the client's strict codec;
2. **allow-lists** (PROTOCOL.md 6, 7.1-7.3): every message, table map, seat
   entry, view, ``last_round`` and event carries only the fields the protocol
   lists for it. A new field must be added here on purpose, after asking who may
   see it (docs/architecture.md 3.3: views are built from an allow-list; boardgame.io's
   leaks came from copying state and deleting secrets);
3. **cards**: every card named anywhere in a message to seat X is in X's own
   hand (the same message's view; for a message without one, such as a
   ``hint`` and its ``why``, the last view X got), on the discard pile as rebuilt from the
   public events X got (the starter, every play; a reshuffle keeps only the top
   card), or a starter 8 put back into the stock in ``classic`` (2.2.2, shown to
   all). The hands of a *finished* round (``round_over.hands``, the view's
   ``last_round``) are checked to be about a finished round. So no card of
   another hand, and none of the stock;
4. **a seat's view is its own**: ``seat`` is the connection's, ``hand`` has
   ``hand_counts[seat]`` cards; a spectator's view has no hand, no legal
   actions, no drawn card; an event meant for one seat (``hand``, a ``draw``
   with its ``card``) goes to that seat only;
5. **secrets**: a round's deal code and commitment salt appear in no frame
   before the round is over, except the deal code in the view of a seat all of
   whose opponents are bots (PROTOCOL.md 12); no connection is sent another's
   seat or host token.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from meja_client import Client, PatchError, apply_patch, decode
from wire_cards import cards_in


class Leak(AssertionError):
    """A connection was sent something it may not see."""


MESSAGE_KEYS: Mapping[str, frozenset[str]] = {
    "welcome": frozenset({"type", "protocol", "server", "limits", "games", "catalog", "re"}),
    "joined": frozenset({"type", "table", "code", "link", "seat", "token", "host_token", "screen_token", "re"}),
    "state": frozenset({"type", "table", "version", "seat", "is_host", "view", "re"}),
    "update": frozenset({"type", "table", "version", "since", "events", "seat", "is_host", "view", "re"}),
    "patch": frozenset({"type", "table", "version", "since", "events", "seat", "is_host", "patch", "re"}),
    "error": frozenset({"type", "code", "message", "re"}),
    "pong": frozenset({"type", "re"}),
    "talk": frozenset({"type", "table", "lines", "history", "re"}),
    "call": frozenset({"type", "table", "peers", "video_max", "re"}),
    "ice": frozenset({"type", "table", "id", "servers", "relay", "re"}),
    "signal": frozenset({"type", "table", "from", "peer", "kind", "sdp", "candidates"}),
    "hint": frozenset({"type", "table", "version", "action", "why", "re"}),
    "learn": frozenset({"type", "game", "step", "steps", "seat", "table", "view", "ask", "re"}),
    "learn_try": frozenset({"type", "game", "step", "right", "why", "view", "events", "re"}),
    "replay": frozenset({"type", "archive", "match", "seat", "open", "steps", "re"}),
    "deal_board": frozenset({"type", "code", "deal_code", "game", "plays", "re"}),
}
#: a hint's reason (PROTOCOL.md 16.1): a tip's name, or a search's figures and the closest other move
WHY_KEYS = frozenset({"kind", "tip", "deals", "won", "alt", "alt_won", "ahead", "behind"})
#: a deal board's play and its seats (PROTOCOL.md 19): finished rounds' results, no card, no table id
PLAY_KEYS = frozenset({"at", "preset", "lower_wins", "seats"})
PLAY_SEAT_KEYS = frozenset({"seat", "name", "bot", "points"})
TALK_KEYS = frozenset({"chat", "spectators", "table_talk", "relay", "hints", "muted", "now"})
LINE_KEYS = frozenset({"id", "seat", "name", "at", "text", "reaction"})
PEER_KEYS = frozenset({"seat", "id", "mic", "cam", "speaking"})
TABLE_KEYS = frozenset({"id", "code", "link", "game", "preset", "options", "status", "seats", "teams", "host_seat",
                        "bots", "grace_s", "turn_limit_s", "awaiting", "turn_deadline_ms", "commitment",
                        "deal_code_given",
                        "outcome", "talk", "host_rights", "archive"})
SEAT_KEYS = frozenset({"seat", "kind", "name", "level", "connected", "auto", "bot_at", "left"})
COMMITMENT_KEYS = frozenset({"round", "hash", "chosen"})
VIEW_KEYS = frozenset({
    "game", "preset", "seat", "seats", "version", "phase", "round", "hand", "hand_counts", "top", "discard_count",
    "stock_count", "active_suit", "turn", "dealer", "leader", "chooser", "draws_taken", "draws_left", "max_draws",
    "drawn", "can_draw", "can_pass", "draw_blocked", "pass_blocked", "legal", "scores", "wins", "ready",
    "match_mode", "target", "rounds", "last_round", "deal_code", "winners",
})
LAST_ROUND_KEYS = frozenset({"round", "winner", "penalties", "hands", "deal_code"})
#: PROTOCOL.md 7.3, event by event (plus ``kind``). Two table events differ from the document's
#: table: ``seat_changed`` names the seat's new kind ``to`` and ``timeout`` its limit ``limit``, since
#: a data field called ``kind`` would clash with the event's own ``kind`` (reported to the lead).
EVENT_KEYS: Mapping[str, frozenset[str]] = {
    "round_start": frozenset({"round", "dealer", "leader", "starter", "active_suit", "hand_counts", "stock_count",
                              "buried"}),
    "hand": frozenset({"seat", "cards"}),
    "turn": frozenset({"seat"}),
    "play": frozenset({"seat", "card", "active_suit", "suit", "drawn", "forced"}),
    "draw": frozenset({"seat", "card", "draws_left"}),
    "reshuffle": frozenset({"moved", "count"}),
    "pass": frozenset({"seat", "active_suit", "top", "kept"}),
    "choose_suit": frozenset({"seat"}),
    "suit": frozenset({"seat", "suit", "active_suit"}),
    "ready": frozenset({"seat"}),
    "round_over": frozenset({"round", "winner", "penalties", "hands", "deal_code", "scores", "wins"}),
    "match_over": frozenset({"winners", "scores", "wins"}),
    "seat_changed": frozenset({"seat", "to", "name", "level", "kicked"}),
    "connected": frozenset({"seat"}),
    "away": frozenset({"seat"}),
    "auto": frozenset({"seat"}),
    "started": frozenset({"seats"}),
    "rematch": frozenset(),
    "closed": frozenset(),
    "commitment": frozenset({"round", "hash", "chosen"}),
    "reveal": frozenset({"round", "deal_code", "salt"}),
    "timeout": frozenset({"seat", "limit"}),
    "talk_changed": frozenset({"chat", "spectators", "table_talk", "relay", "hints"}),
    "host_changed": frozenset({"seat", "handed"}),
    "muted": frozenset({"seat", "muted"}),
}


def _only(keys: Iterable[str], allowed: frozenset[str], where: str) -> None:
    extra = set(keys) - allowed
    if extra:
        raise Leak(f"{where}: fields {sorted(extra)} are not in the protocol's list")




#: the patch form's operations (PROTOCOL.md 7.5) and the length of each
PATCH_OPS: Mapping[str, int] = {"s": 3, "d": 2, "t": 4}


def messages_of(client: Client, who: str) -> Iterator[dict[str, Any]]:
    """Each frame ``client`` got, decoded. A ``patch`` is checked for its own fields and operations,
    then applied as a client applies it (the client library's ``apply_patch``) to the table map and
    view this connection last got: it is judged as the whole ``update`` it stands for."""
    last: dict[str, dict[str, Any]] = {}
    for frame in client.frames:
        if not isinstance(frame, bytes):
            raise Leak(f"{who}: a text frame")
        message = decode(frame)
        if message.get("type") == "patch":
            _only(message, MESSAGE_KEYS["patch"], f"{who}: patch v{message.get('version')}")
            for op in message["patch"]:
                if not (isinstance(op, list) and op and PATCH_OPS.get(op[0]) == len(op)):
                    raise Leak(f"{who}: a patch operation {op!r}")
            base = last.get(message["table"])
            if base is None:
                raise Leak(f"{who}: a patch of table {message['table']!r} before any whole view of it")
            try:
                document = apply_patch(base, message["patch"])
            except PatchError as exc:
                raise Leak(f"{who}: a patch that does not fit what it was sent: {exc}") from exc
            message = {**{k: v for k, v in message.items() if k != "patch"}, "type": "update", **document}
        table = message.get("table")
        if message.get("type") in ("state", "update") and isinstance(table, dict):
            last[table["id"]] = {"table": table, "view": message.get("view")}
        yield message


def check_structure(message: dict[str, Any], who: str) -> None:
    kind = message.get("type")
    if kind not in MESSAGE_KEYS:
        raise Leak(f"{who}: a message of unknown type {kind!r}")
    where = f"{who}: {kind} v{message.get('version')}"
    _only(message, MESSAGE_KEYS[kind], where)
    table = message.get("table")
    if isinstance(table, dict):
        _only(table, TABLE_KEYS, f"{where} table")
        if "archive" in table and table.get("status") != "finished":
            # The replay's id opens every hand of the match: named only once it is over (PROTOCOL.md 18).
            raise Leak(f"{where}: the table map names its archive before the match is over")
        for seat in table.get("seats", []):
            _only(seat, SEAT_KEYS, f"{where} table seat")
        if isinstance(table.get("commitment"), dict):
            _only(table["commitment"], COMMITMENT_KEYS, f"{where} commitment")
        if isinstance(table.get("talk"), dict):
            _only(table["talk"], TALK_KEYS, f"{where} talk")
    if kind == "hint" and "why" in message:
        _only(message["why"], WHY_KEYS, f"{where} why")
    for line in message.get("lines") or [] if kind == "talk" else []:
        _only(line, LINE_KEYS, f"{where} line")
    for peer in message.get("peers") or [] if kind == "call" else []:
        _only(peer, PEER_KEYS, f"{where} peer")
    for play in message.get("plays") or [] if kind == "deal_board" else []:
        _only(play, PLAY_KEYS, f"{where} play")
        for seat in play.get("seats") or []:
            _only(seat, PLAY_SEAT_KEYS, f"{where} play seat")
    view = message.get("view")
    if isinstance(view, dict):
        _only(view, VIEW_KEYS, f"{where} view")
        if isinstance(view.get("last_round"), dict):
            _only(view["last_round"], LAST_ROUND_KEYS, f"{where} view.last_round")
    for event in message.get("events") or []:
        ekind = event.get("kind")
        if ekind not in EVENT_KEYS:
            raise Leak(f"{where}: an event of unknown kind {ekind!r}")
        _only(set(event) - {"kind"}, EVENT_KEYS[ekind], f"{where} event {ekind}")


def check_talk(
    message: dict[str, Any], who: str, seat: int | None, call_ids: set[str], spectators_read: bool
) -> None:
    """Talk reaches its audience only (PROTOCOL.md 16.3): chat lines a spectator only while the
    host lets spectators read, an ``ice`` only a seat that asked, a signal only a seat in the call
    (with an id it was given) and never from itself."""
    kind = message["type"]
    if kind == "talk" and seat is None and not spectators_read:
        said = [line for line in message["lines"] if "text" in line]
        if said:
            raise Leak(f"{who}: a spectator was sent chat lines {said}")
    elif kind == "ice":
        if seat is None:
            raise Leak(f"{who}: a spectator was sent the call's ice servers")
        call_ids.add(message["id"])
    elif kind == "signal":
        if seat is None or not call_ids:
            raise Leak(f"{who}: a signal reached a connection that never joined the call: {message}")
        if message["from"] == seat:
            raise Leak(f"{who}: its own signal came back")


def check_connection(client: Client, who: str, seat: int | None) -> int:
    """Rules 1-4 of the module docstring for one connection; the number of messages checked."""
    if client.bad_frames:
        raise Leak(f"{who}: {len(client.bad_frames)} frames did not decode")
    pile: list[str] = []
    buried: set[str] = set()
    checked = 0
    call_ids: set[str] = set()  # this connection's ids in the call (each from an ``ice`` it asked for)
    spectators_read = False
    held: list[str] = []  # the seat's hand in the last view it got (a hint's cards are of it)
    for message in messages_of(client, who):
        check_structure(message, who)
        kind = message["type"]
        if isinstance(message.get("table"), dict) and "talk" in message["table"]:
            spectators_read = message["table"]["talk"]["spectators"]
        check_talk(message, who, seat, call_ids, spectators_read)
        if kind in ("state", "update") and message.get("seat") != seat:
            raise Leak(f"{who}: a {kind} for seat {message.get('seat')!r}")
        named: set[str] = set()
        for event in message.get("events") or [] if kind == "update" else []:
            ekind = event["kind"]
            if ekind == "round_start":
                pile = [event["starter"]]
                buried = set(event.get("buried") or [])
            elif ekind == "play":
                pile.append(event["card"])
            elif ekind == "reshuffle":
                pile = pile[-1:]
            private = ekind == "hand" or (ekind == "draw" and "card" in event)
            if private and (seat is None or event.get("seat") != seat):
                raise Leak(f"{who}: seat {event.get('seat')}'s private {ekind} event: {event}")
            named |= cards_in(event, skip=frozenset({"hands"})) if ekind == "round_over" else cards_in(event)
        view = message.get("view")
        hand: list[str] = [] if isinstance(view, dict) else held
        if isinstance(view, dict):
            if seat is None:
                if view.get("hand") is not None or view.get("legal") or view.get("drawn") is not None:
                    raise Leak(f"{who}: a spectator's view with a hand, legal actions or a drawn card")
            else:
                hand = held = list(view.get("hand") or [])
                if view.get("seat") != seat or len(hand) != view["hand_counts"][seat]:
                    raise Leak(f"{who}: a view of {len(hand)} cards for seat {view.get('seat')}, "
                               f"counted {view['hand_counts'][view.get('seat') or 0]}")
            named |= cards_in(view, skip=frozenset({"last_round"}))
            if view["phase"] in ("play", "choose_suit"):
                if not pile or pile[-1] != view["top"] or len(pile) != view["discard_count"]:
                    raise Leak(f"{who}: rebuilt pile {pile[-3:]} ({len(pile)}) vs top {view['top']} "
                               f"({view['discard_count']}): an event is missing or extra")
                last = view.get("last_round")
                if last is not None and last["round"] >= view["round"]:
                    raise Leak(f"{who}: last_round is the round in play")
        named |= cards_in({k: v for k, v in message.items() if k not in ("events", "view")})
        leaked = named - set(hand) - set(pile) - buried
        if leaked:
            raise Leak(f"{who} was sent {sorted(leaked)} in a {kind} at version {message.get('version')}")
        checked += 1
    return checked


def round_secrets(spectator: Client) -> dict[int, list[bytes]]:
    """Each round's deal code (as shown and without its hyphens) and salt, from the reveal events."""
    out: dict[int, list[bytes]] = {}
    for event in spectator.events:
        if event["kind"] == "reveal":
            code = str(event["deal_code"])
            out[int(event["round"])] = [code.encode(), code.replace("-", "").encode(), str(event["salt"]).encode()]
    return out


def frames_before_round_end(client: Client, round_no: int) -> list[bytes]:
    """The frames ``client`` got before the one that ends round ``round_no``."""
    out: list[bytes] = []
    for frame in client.frames:
        assert isinstance(frame, bytes)
        message = decode(frame)
        if message["type"] in ("update", "patch") and any(
            e["kind"] in ("round_over", "reveal") and e.get("round") == round_no for e in message["events"]
        ):
            break
        out.append(frame)
    return out


def check_secrets(connections: Sequence[tuple[Client, str, int | None]], spectator: Client,
                  alone_with_bots: set[int]) -> int:
    """Rule 5 of the module docstring; the number of rounds checked."""
    rounds = round_secrets(spectator)
    for client, who, seat in connections:
        for round_no, secrets in rounds.items():
            early = b"".join(frames_before_round_end(client, round_no))
            hidden = secrets[2:] if seat in alone_with_bots else secrets
            for secret in hidden:
                if secret in early:
                    raise Leak(f"{who}: a secret of round {round_no} before its end")
    tokens = {c: [t.encode() for t in (c.token, c.host_token) if t] for c, _, seat in connections if seat is not None}
    for client, who, _ in connections:
        received = b"".join(f for f in client.frames if isinstance(f, bytes))
        for owner, owned in tokens.items():
            if owner is not client and any(t in received for t in owned):
                raise Leak(f"{who} received seat {owner.seat}'s token")
    return len(rounds)
