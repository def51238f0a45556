"""Issue 3, "Done when" 2: resume (PROTOCOL.md section 4), on one server process (memory store).

- A client cut off after two draws (no closing handshake) reconnects with its
  seat token and sees the same view, one draw left (house: up to 3 draws a
  turn, docs/rules/crazy-eights.md 1.4.2); the updates it missed come first, in order.
- A client cut off while the others play gets every event it missed, in order,
  each version exactly as a spectator saw it (the others' draws are hidden from
  it as from a spectator), then the current state.
- The seat token presented on a new connection makes it the seat's holder and
  closes the old connection with 4001; the host token gives host rights back.

Tables use a long grace period so that no bot takes over an absent seat during
the test. Cost: about 2 s.
"""

from __future__ import annotations

import asyncio

import pytest
from e2e_helpers import assert_contiguous, events_between, open_table, replayed_updates, start
from meja_client import ConnectionClosed, Player, ServerError, first_legal

DRAW = {"kind": "draw"}
GRACE = 600


@pytest.fixture
def url(memory_server):
    return memory_server.url


def round_one_over(client) -> bool:
    view = client.view
    return view is not None and (view["round"] > 1 or view["phase"] != "play")


async def test_cut_after_two_draws_resumes_same_view_one_draw_left(url, clients):
    table = await open_table(clients, url, humans=2, bots=0, grace_s=GRACE)
    spectator = await clients(url)
    await spectator.watch(table=table.id)
    await start(table)
    ann = table.host
    assert ann.view["turn"] == 0  # house, 1.2.1: the host's seat leads round 1

    for left in (2, 1):
        assert DRAW in ann.view["legal"]
        await ann.act(DRAW)
        await ann.wait_for(lambda c, left=left: c.view["draws_left"] == left)
    before, since, token = ann.view, ann.version, ann.token
    assert before["draws_left"] == 1 and before["draws_taken"] == 2
    assert len(before["hand"]) == before["hand_counts"][0]

    ann.cut()
    # The others see seat 0 go away (a committed table change, so a new version).
    await spectator.wait_for(lambda c: not c.table["seats"][0]["connected"])

    again = await clients(url)
    joined = await again.resume(table=table.id, token=token, since=since)
    assert joined["seat"] == 0 and joined["table"] == table.id
    assert again.view == before, "the resumed view differs from the view before the cut"
    assert again.view["draws_left"] == 1
    assert again.table["seats"][0]["connected"] and not again.table["seats"][0]["auto"]

    # What it missed came as updates, in order, before the state, as a spectator saw them.
    replayed = replayed_updates(again, since)
    assert replayed, "the disconnect itself is a table change the seat missed"
    await spectator.wait_for(lambda c: c.version >= again.version)
    for update in replayed:
        assert update["events"] == events_between(spectator, update["since"], update["version"])

    # The seat plays on from where it was: the third and last draw of the turn.
    await again.act(DRAW)
    await again.wait_for(lambda c: c.view["draws_left"] == 0 or c.view["turn"] != 0)
    assert DRAW not in (again.view["legal"] or [])
    assert not [e for e in again.errors if e.get("code") != "action/stale_version"]


async def test_missed_events_arrive_in_order(url, clients):
    table = await open_table(clients, url, humans=3, bots=0, grace_s=GRACE)
    spectator = await clients(url)
    await spectator.watch(code=table.code)
    await start(table)
    ann, bob, cat = table.humans
    hand, since, token = list(cat.view["hand"]), cat.version, cat.token
    cat.cut()
    await spectator.wait_for(lambda c: not c.table["seats"][2]["connected"])

    # Ann draws twice, then plays on; Bob takes his turn: until it is seat 2's turn again.
    await ann.act(DRAW)
    await ann.act(DRAW)
    players = [
        Player(c, first_legal, until=lambda c: c.view["turn"] == 2 or c.view["phase"] != "play") for c in (ann, bob)
    ]
    await asyncio.gather(*(p.run() for p in players))
    await spectator.wait_for(lambda c: c.view["turn"] == 2 or c.view["phase"] != "play")
    current = spectator.version

    again = await clients(url)
    await again.resume(table=table.id, token=token, since=since)
    replayed = replayed_updates(again, since)
    assert replayed[-1]["version"] >= current
    await spectator.wait_for(lambda c: c.version >= again.version)
    for update in replayed:
        # Seat 2 did nothing meanwhile, so it may see exactly what a spectator sees.
        assert update["events"] == events_between(spectator, update["since"], update["version"])
    kinds_missed = [e["kind"] for u in replayed for e in u["events"]]
    assert kinds_missed.count("draw") >= 2 and "turn" in kinds_missed
    assert all("card" not in e for u in replayed for e in u["events"] if e["kind"] == "draw")
    assert again.view["hand"] == hand
    assert again.view["top"] == spectator.view["top"]
    assert again.view["hand_counts"] == spectator.view["hand_counts"]
    assert again.version == spectator.version or again.version >= current
    assert_contiguous(again)
    assert_contiguous(spectator)


async def test_token_on_new_connection_replaces_old(url, clients):
    table = await open_table(clients, url, humans=2, bots=1, grace_s=GRACE)
    ann, bob = table.humans
    token = bob.token

    bob2 = await clients(url)
    await bob2.resume(table=table.id, token=token)
    assert await bob.wait_closed() == 4001
    assert bob2.seat == 1 and bob2.token == token

    # The host's connection is cut in the lobby; its tokens give the seat and host rights back.
    ann.cut()
    ann2 = await clients(url)
    joined = await ann2.resume(table=table.id, token=ann.token, host_token=table.joined["host_token"])
    assert joined["seat"] == 0 and ann2.state["is_host"]
    await ann2.start()
    await bob2.wait_for(lambda c: c.view is not None)
    with pytest.raises(ConnectionClosed):
        await bob.act(DRAW)

    # A third connection with the same token replaces the second one in the middle of play.
    bob3 = await clients(url)
    await bob3.resume(table=table.id, token=token)
    assert await bob2.wait_closed() == 4001
    players = [Player(c, until=round_one_over) for c in (ann2, bob3)]
    await asyncio.gather(*(p.run() for p in players))
    assert players[1].actions, "the new connection never acted for seat 1"
    # A wrong token does not take the seat, and the holder keeps it.
    intruder = await clients(url)
    with pytest.raises(ServerError) as refused:
        await intruder.resume(table=table.id, token=token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    assert refused.value.code == "auth/bad_token"
    await bob3.ping()
    assert not bob3.closed


async def test_absent_player_gets_a_bot_after_grace_then_the_seat_back(url, clients):
    # Grace of 1 s: the bot plays for the absent seat until its player comes back (PROTOCOL.md 4, 9).
    table = await open_table(clients, url, humans=2, bots=0, grace_s=1)
    await start(table)
    ann, bob = table.humans
    since, token = bob.version, bob.token
    seen_at_cut = len(ann.events)
    bob.cut()
    await ann.wait_for(lambda c: c.table["seats"][1]["auto"], timeout=30)
    assert [e for e in ann.events if e["kind"] == "auto" and e["seat"] == 1]

    # Ann plays; the bot answers for seat 1 (a move by seat 1 while nobody holds it).
    def bot_played_for_bob(c) -> bool:
        return any(e.get("seat") == 1 and e["kind"] in ("play", "draw", "pass") for e in c.events[seen_at_cut:])

    await Player(ann, first_legal, until=bot_played_for_bob).run()

    again = await clients(url)
    await again.resume(table=table.id, token=token, since=since)
    assert again.table["seats"][1]["connected"] and not again.table["seats"][1]["auto"]
    await ann.wait_for(lambda c: c.table["seats"][1]["connected"] and not c.table["seats"][1]["auto"])
    missed = [e for u in again.updates for e in u["events"]]
    assert any(e["kind"] == "auto" and e["seat"] == 1 for e in missed)
    assert any(e["kind"] == "connected" and e["seat"] == 1 for e in again.events + ann.events)
    # The seat is the player's again: it acts for itself from here on.
    players = [Player(c, until=lambda c: c.view["round"] > 1 or c.view["phase"] != "play") for c in (ann, again)]
    await asyncio.gather(*(p.run() for p in players))
