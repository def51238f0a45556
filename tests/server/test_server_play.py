"""A table from start to end over real websockets, on the memory store and on Redis.

Each test runs a ``MejaServer`` task with fast timers (conftest.FAST) and talks
to it with plain msgpack frames. Cost: about 1-2 s per test and store.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from server_helpers import assert_contiguous, assert_fair_deals, events, host, join, match_over, play

STORES = ["memory", "redis"]
#: every test here runs with whole views and with patches (PROTOCOL.md 7.4)
pytestmark = pytest.mark.usefixtures("frame_form")


def last_play(view: dict[str, Any]) -> dict[str, Any]:
    """The last legal play (the highest card), else draw or pass: a policy unlike the first seat's."""
    plays = [a for a in view["legal"] if a["kind"] == "play"]
    action: dict[str, Any] = (plays or view["legal"])[-1]
    return action


@pytest.mark.parametrize("store", STORES)
async def test_whole_match_against_two_greedy_bots(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann = await connect(server)
    joined = await host(ann, seats=3)
    table = joined["table"]
    assert ann.table["status"] == "lobby" and ann.view is None
    spectator = await connect(server)
    state = await spectator.ok({"type": "watch", "code": joined["code"].lower()})
    assert state["type"] == "state" and state["seat"] is None and not state["is_host"]

    started = await ann.ok({"type": "start", "table": table})
    assert started["type"] == "update"
    kinds = [e["kind"] for e in started["events"]]
    # The empty seats became bots, then round 1 was committed and dealt.
    assert kinds[:4] == ["seat_changed", "seat_changed", "started", "commitment"], kinds
    assert kinds.index("commitment") + 1 == kinds.index("round_start")
    assert [s["kind"] for s in started["table"]["seats"]] == ["human", "bot", "bot"]
    assert started["table"]["commitment"]["round"] == 1
    assert len(started["view"]["hand"]) == 5  # house, 3 seats: 5 cards (docs/rules/crazy-eights.md 1.1.4)

    await play(ann, table)
    await spectator.until(lambda m: m["type"] == "update" and m["view"]["phase"] == "match_over")
    view = ann.view
    assert view["phase"] == "match_over" and ann.table["status"] == "finished"
    scores = view["scores"]
    assert max(scores) >= 100 and view["winners"] == [s for s, v in enumerate(scores) if v == min(scores)]
    assert spectator.view["scores"] == scores and spectator.view["hand"] is None
    seen = events(spectator)
    assert any(e["kind"] == "play" and e["seat"] == 1 for e in seen), "the bot in seat 1 never played"
    assert assert_fair_deals(seen) == view["round"]
    assert not any(e["kind"] == "hand" for e in seen), "a spectator was shown a hand"
    for wire in (ann, spectator):
        assert_contiguous(wire)


@pytest.mark.parametrize("store", STORES)
async def test_two_humans_and_a_bot_play_to_the_end(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=3, options={"preset": "house", "target": 50})
    mine = await join(bob, code=joined["code"], name="Bob")
    assert mine["seat"] == 1 and "host_token" not in mine and mine["token"] != joined["token"]
    table = joined["table"]
    await ann.ok({"type": "seat", "table": table, "seat": 2, "to": "bot", "level": "greedy"})
    await ann.ok({"type": "start", "table": table})
    await asyncio.gather(play(ann, table), play(bob, table, policy=last_play))
    assert ann.view["scores"] == bob.view["scores"] and max(ann.view["scores"]) >= 50
    assert ann.table["seats"][2]["level"] == "greedy"
    mine_seen = events(bob)
    # Bob saw his own drawn cards and no one else's (docs/rules/crazy-eights.md: draws are private).
    assert all("card" not in e for e in mine_seen if e["kind"] == "draw" and e["seat"] != 1)
    assert all(e["seat"] == 1 for e in mine_seen if e["kind"] == "hand")
    for wire in (ann, bob):
        assert_contiguous(wire)


@pytest.mark.parametrize("store", STORES)
async def test_rematch_after_the_match(store: str, serve: Any, connect: Any) -> None:
    server = await serve(redis=store == "redis")
    ann = await connect(server)
    joined = await host(ann, seats=2, options={"target": 10})
    table = joined["table"]
    await ann.ok({"type": "start", "table": table})
    await play(ann, table)
    first_scores = ann.view["scores"]
    update = await ann.ok({"type": "rematch", "table": table})
    kinds = [e["kind"] for e in update["events"]]
    assert kinds[:3] == ["rematch", "commitment", "round_start"], kinds
    assert update["table"]["status"] == "playing" and update["view"]["scores"] == [0, 0]
    assert update["view"]["round"] == 1 and max(first_scores) >= 10
    # The host's shared screen reloads after the rematch (a new seed): its token still watches,
    # and the host resuming is handed the same one (a hostile player's finding: auth/bad_token).
    tv = await connect(server)
    assert (await tv.ok({"type": "watch", "table": table, "screen": joined["screen_token"]}))["type"] == "state"
    again = await connect(server)
    resumed = await again.ok(
        {"type": "resume", "table": table, "token": joined["token"], "host_token": joined["host_token"]}
    )
    assert resumed["type"] == "joined" and resumed["screen_token"] == joined["screen_token"], resumed
    await play(again, table)
    assert match_over(again)


async def test_leaving_a_finished_match_keeps_the_name_on_its_result(serve: Any, connect: Any) -> None:
    """Bob leaves once the match is over: his seat keeps his name for the result (marked ``left``,
    no token), and the rematch seats a bot there (PROTOCOL.md 5 ``leave``, 7.1). A new user's trial
    read "Bot 1 wins the match" on every screen once the winner had left."""
    server = await serve()
    ann, bob = await connect(server), await connect(server)
    joined = await host(ann, seats=2, options={"target": 10})
    table = joined["table"]
    mine = await join(bob, code=joined["code"], name="Bob")
    await ann.ok({"type": "start", "table": table})
    await asyncio.gather(play(ann, table), play(bob, table))
    outcome = ann.table["outcome"]
    await bob.ok({"type": "leave", "table": table})
    await ann.until(lambda m: m["type"] == "update" and m["table"]["seats"][1].get("left"))
    seat = ann.table["seats"][1]
    assert seat["kind"] == "human" and seat["name"] == "Bob" and not seat["connected"], seat
    assert ann.table["outcome"] == outcome and ann.table["status"] == "finished"
    changed = [e for e in events(ann) if e["kind"] == "seat_changed" and e.get("left") == "Bob"]
    assert changed and changed[-1]["to"] == "human", changed
    # His token no longer opens the seat.
    again = await connect(server)
    await again.error({"type": "resume", "table": table, "token": mine["token"]}, "auth/bad_token")
    update = await ann.ok({"type": "rematch", "table": table})
    assert update["table"]["seats"][1]["kind"] == "bot" and "left" not in update["table"]["seats"][1]
    assert [e["seat"] for e in update["events"] if e["kind"] == "seat_changed" and e["to"] == "bot"] == [1]
    await play(ann, table)
    assert match_over(ann)


async def test_deal_code_table_plays_that_deal(serve: Any, connect: Any) -> None:
    from meja.games.crazy_eights import dealcode
    from meja.rules import get_game

    code = dealcode.encode(dealcode.DealSpec("house", 2, 1, 987654321))
    server = await serve()
    ann = await connect(server)
    joined = await host(ann, deal_code=code.lower().replace("-", " "))
    table = joined["table"]
    assert ann.table["seats"][1]["kind"] == "empty" and ann.table["deal_code_given"] is True
    update = await ann.ok({"type": "start", "table": table})
    game = get_game("crazy_eights")
    expected = game.new_match(game.options("house"), 2, 0, code).state
    assert update["view"]["hand"] == [str(c) for c in expected.hands[0]]
    assert update["view"]["turn"] == 1  # the code's leader leads
    # Every other seat is a bot: this seat may see the deal code during the round (1.9.3).
    assert update["view"]["deal_code"] == code


async def test_bots_wait_while_no_human_is_connected(serve: Any, connect: Any) -> None:
    server = await serve(presence_check_s=60)
    ann = await connect(server)
    joined = await host(ann, seats=3, grace_s=0)
    table = joined["table"]
    # Seat 0 leads round 1 (docs/rules/crazy-eights.md 1.2.1): act so that the bots are awaited, then leave.
    await ann.ok({"type": "start", "table": table})
    await ann.close()
    await asyncio.sleep(0.3)
    spectator = await connect(server)
    state = await spectator.ok({"type": "watch", "table": table})
    version = state["version"]
    await asyncio.sleep(0.3)  # well past every bot pause
    assert spectator.version == version, "bots played on with no human at the table"
    again = await connect(server)
    await again.ok({"type": "resume", "table": table, "token": joined["token"]})
    await again.until(lambda m: m["type"] == "state")
    assert again.table["seats"][0]["connected"] and not again.table["seats"][0]["auto"]
