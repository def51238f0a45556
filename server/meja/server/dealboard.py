"""The deal board: how everyone who played one deal on this server did (PROTOCOL.md 19).

Every round that ends at a table of this server reveals its deal code (PROTOCOL.md 12),
and its results are written then, against that deal: a round hosted from a shared
code, and any other round too, so that a code shared after its round ended already
has that first result to compare with. One entry per round (a table's play of the
deal): when it ended, the preset, and per seat its name (``bot`` for a bot), its
points (:func:`meja.rules.round_points`) and whether fewer points are better. The
board keeps the newest ``deal_board_size`` entries for ``deal_board_ttl_s`` after the
last one (:meth:`meja.store.base.Store.deal_record`). Nothing is written before the
round's end event, so the board never holds anything of a round still in play.

A deal's **short code** names its board on this server: 9 characters of the room
codes' alphabet taken from a hash of the deal code, and a check character (Luhn mod
32, as deal codes), shown ``XXXXX-XXXXX``. It is derived, not drawn: the server keeps
no map from short to long codes besides the board itself, whose entries carry the
deal code; a short code opens nothing until a round of its deal has ended here. Like
the deal code it comes from, it is shown only after the round ends. Lookups by short
code (``deal_board``, ``host`` with a short code) spend the address's room-code
budget: 45 bits are guessed no faster than room codes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgpack  # type: ignore[import-untyped]

from meja.rules import BadDealCodeError, Event, get_game, round_points
from meja.rules.dealcode import normalize, pack, unpack
from meja.store.base import Store

from .records import Table
from .settings import Settings

__all__ = ["SHORT_CHARS", "decode", "is_short", "play", "plays_wire", "read_short", "short_code"]

#: Data characters of a short code (a check character follows).
SHORT_CHARS: Final = 9


def short_code(deal_code: str) -> str:
    """The short code (``XXXXX-XXXXX``) of a canonical deal code on this server."""
    digest = hashlib.sha256(b"meja deal board\0" + normalize(deal_code).encode()).digest()
    number = int.from_bytes(digest[:8], "big") >> (64 - 5 * SHORT_CHARS)
    return pack(number, SHORT_CHARS, (5, 5))


def read_short(text: str) -> str | None:
    """The short code ``text`` stands for (canonical, with its hyphen), or ``None`` if it is not one."""
    try:
        canonical = normalize(text)
        if len(canonical) != SHORT_CHARS + 1:
            return None
        number = unpack(canonical, SHORT_CHARS)
    except BadDealCodeError:
        return None
    return pack(number, SHORT_CHARS, (5, 5))


def is_short(text: str) -> bool:
    """Whether ``text`` reads as a short code (of the right length, its check character right)."""
    return read_short(text) is not None


def play(table: Table, end: Event, deal_code: str, *, now_ms: int) -> dict[str, Any] | None:
    """The board entry of the round that ``end`` (the game's round-end event) ended at ``table``."""
    game = get_game(table.game)
    state = table.state
    if state is None:
        return None
    options = game.options_from_wire(table.options)
    seats = state.seats
    points = round_points(game, options, seats, end.data)
    return {
        "at": now_ms,
        "game": table.game,
        "deal_code": deal_code,
        "preset": table.options.get("preset", game.info.default_preset),
        "lower_wins": None if points is None else points.lower_wins,
        "seats": [
            {
                "seat": s,
                "name": "" if table.seats[s].is_bot else table.seats[s].name,
                "bot": table.seats[s].is_bot,
                "points": None if points is None else points.points[s],
            }
            for s in range(seats)
        ],
    }


def encode(entry: Mapping[str, Any]) -> bytes:
    return bytes(msgpack.packb(dict(entry), use_bin_type=True))


def decode(raw: bytes) -> dict[str, Any] | None:
    """A board entry from its stored bytes, or ``None`` if they do not read as one."""
    try:
        data = msgpack.unpackb(raw, raw=False)
    except Exception:
        return None
    return data if isinstance(data, dict) and isinstance(data.get("deal_code"), str) else None


def plays_wire(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ``plays`` of a ``deal_board`` reply: what a client may read of each entry."""
    return [
        {"at": e["at"], "preset": e["preset"], "lower_wins": e["lower_wins"], "seats": list(e["seats"])}
        for e in entries
    ]


async def record(store: Store, settings: Settings, table: Table, events: Sequence[Event], *, now_ms: int) -> int:
    """Write the results of every round that ``events`` (one commit's) ended; how many were written."""
    if settings.deal_board_ttl_s <= 0 or table.state is None:
        return 0
    end_kind = get_game(table.game).info.round_end
    written = 0
    end: Event | None = None
    for event in events:
        if event.kind == end_kind:
            end = event
        elif event.kind == "reveal" and end is not None:
            code = event.data.get("deal_code")
            if isinstance(code, str):
                entry = play(table, end, code, now_ms=now_ms)
                if entry is not None:
                    await store.deal_record(
                        short_code(code).replace("-", ""),
                        encode(entry),
                        keep=settings.deal_board_size,
                        ttl_ms=settings.deal_board_ttl_s * 1000,
                    )
                    written += 1
            end = None
    return written


async def load(store: Store, short: str) -> list[dict[str, Any]]:
    """The entries of the board of ``short`` (a canonical short code), newest first."""
    out = []
    for raw in await store.deal_plays(short.replace("-", "")):
        entry = decode(raw)
        if entry is not None:
            out.append(entry)
    return out
