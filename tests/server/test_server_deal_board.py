"""Issue 21, part 3 (seed 000): the deal board. Two tables play the same deal; each sees the other's
result once its round has ended, never before; the short code names the deal (PROTOCOL.md 19)."""

from __future__ import annotations

from typing import Any

import pytest
from meja.server import dealboard
from server_helpers import events, host, play

STORES = ["memory", "redis"]


def round_done(wire: Any) -> bool:
    view = wire.view
    return view is not None and view["phase"] in ("round_over", "match_over")


async def board(wire: Any, code: str) -> dict[str, Any]:
    return await wire.request({"type": "deal_board", "code": code})


@pytest.mark.parametrize("store", STORES)
async def test_two_tables_play_one_deal_and_see_each_others_result(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann = await connect(server)
    table = (await host(ann, seats=2, options={"preset": "house", "target": 10}))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=round_done)
    await server.service.archived()  # the board is written beside the commit
    reveal = next(e for e in events(ann) if e["kind"] == "reveal")
    long_code = reveal["deal_code"]
    short = dealboard.short_code(long_code)
    assert len(short.replace("-", "")) == 10
    first = await board(ann, long_code)
    assert first["type"] == "deal_board" and first["code"] == short and first["deal_code"] == long_code, first
    assert first["game"] == "crazy_eights" and len(first["plays"]) == 1
    ann_play = first["plays"][0]
    ended = next(e for e in events(ann) if e["kind"] == "round_over")
    assert [s["points"] for s in ann_play["seats"]] == ended["penalties"] and ann_play["lower_wins"] is True
    assert ann_play["seats"][0] == {"seat": 0, "name": "Ann", "bot": False, "points": ended["penalties"][0]}
    assert ann_play["seats"][1]["bot"] is True and ann_play["seats"][1]["name"] == ""

    # Bea hosts the same deal by its short code (typed in lower case, without its hyphen).
    bea = await connect(server)
    joined = await bea.ok({"type": "host", "name": "Bea", "seats": 2, "deal_code": short.replace("-", "").lower()})
    assert joined["type"] == "joined", joined
    await bea.until(lambda m: m["type"] == "state")
    other = joined["table"]
    await bea.ok({"type": "start", "table": other})
    # Bea's round in play: the board holds Ann's round only, and nothing of Bea's.
    await play(bea, other, until=lambda w: w.version >= 6)
    assert not round_done(bea)
    await server.service.archived()
    during = await board(bea, short)
    assert [p["seats"][0]["name"] for p in during["plays"]] == ["Ann"], during
    assert "Bea" not in repr(during)
    await play(bea, other, until=round_done)
    await server.service.archived()
    assert next(e for e in events(bea) if e["kind"] == "reveal")["deal_code"] == long_code
    bea_ended = next(e for e in events(bea) if e["kind"] == "round_over")
    # Each sees the other's result: newest first.
    for wire in (ann, bea):
        got = await board(wire, short)
        assert [p["seats"][0]["name"] for p in got["plays"]] == ["Bea", "Ann"], got
        assert [s["points"] for s in got["plays"][0]["seats"]] == bea_ended["penalties"]
        assert got["plays"][1] == ann_play


async def test_short_codes_are_checked_not_found_and_rate_limited(serve: Any, connect: Any) -> None:
    server = await serve(code_attempts=4)
    eve = await connect(server)
    real = dealboard.short_code("not a deal")
    typo = real[:-1] + ("0" if real[-1] != "0" else "1")
    assert dealboard.read_short(typo) is None, "the check character catches a mistyped character"
    assert (await board(eve, real))["code"] == "deal/not_found"  # well formed, never played here
    assert (await board(eve, "hello"))["code"] == "deal/not_found"
    refused = await eve.request({"type": "host", "name": "Eve", "deal_code": real})
    assert refused["code"] == "deal/not_found", refused
    # Short codes spend the room-code budget (4 here): past it, refused whatever the code.
    for _ in range(3):
        await board(eve, dealboard.short_code(f"ABC{_}"))
    assert (await board(eve, real))["code"] == "table/code_rate_limited"


async def test_a_store_past_archive_full_pct_keeps_no_board(serve: Any, connect: Any) -> None:
    server = await serve()
    server.service.archiver.full = True  # what the memory watch sets past archive_full_pct
    ann = await connect(server)
    table = (await host(ann, seats=2, options={"preset": "house", "target": 10}))["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table, until=round_done)
    await server.service.archived()
    code = next(e for e in events(ann) if e["kind"] == "reveal")["deal_code"]
    assert (await board(ann, code))["plays"] == []


def test_short_codes_read_as_typed() -> None:
    code = dealboard.short_code("ABCDE-FGHJK")
    assert dealboard.read_short(code.lower().replace("-", " ")) == code
    assert dealboard.read_short(code + "0") is None
    assert dealboard.short_code("abcde fghjk") == code


def test_each_game_says_each_seats_points_in_a_round() -> None:
    from meja.rules import get_game, round_points

    def points(game: str, seats: int, data: dict[str, Any]) -> tuple[tuple[int, ...], bool] | None:
        g = get_game(game)
        got = round_points(g, g.options_from_wire(None), seats, data)
        return None if got is None else (got.points, got.lower_wins)

    assert points("crazy_eights", 3, {"penalties": [0, 12, 50], "winner": 0}) == ((0, 12, 50), True)
    assert points("kartu_terakhir", 3, {"winner": 1, "points": 37}) == ((0, 37, 0), False)
    assert points("eighty_three", 4, {"delta": [12, -30]}) == ((12, -30, 12, -30), False)
