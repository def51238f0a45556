"""Issue 3, "Done when" 6: nothing leaks over the wire.

Every frame sent to every seat and spectator of many seeded games (each preset,
2 to 6 seats, humans and bots, round 1 from a deal code made from the seed) is
recorded and checked after the fact:

- **cards**: every card named anywhere in a message to seat X must be one X may
  know at that moment: in X's own hand (from the view in that same message), in
  the discard pile (rebuilt from the public events X got: the starter, every
  play, a reshuffle keeps only the top card; checked against the view's top card
  and discard count), or a starter 8 buried back into the stock in ``classic``
  (2.2.2: shown to all). So no card of another hand or of the stock. The only
  places that show the hands of a *finished* round, ``round_over.hands`` and the
  view's ``last_round``, are checked separately to be about a finished round.
- **deal codes and salts**: the deal code of a round (and the salt of its
  commitment) appears in no frame before the round is over, except to a seat
  whose opponents are all bots (PROTOCOL.md 7), which the test checks it does get.
- **tokens**: no connection ever receives another connection's seat or host token.

The ground truth comes from the wire alone (each seat's own views and the public
events), so the check holds whatever the server does inside. Cost: about 5-10 s.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from e2e_helpers import open_table, play_out, seeded, start
from meja.games.crazy_eights import dealcode
from meja_client import Client
from wire_cards import cards_in

#: (preset, humans, bots, target): every preset, 2 to 6 seats, bots and no bots
GAMES = [
    ("house", 2, 0, 40),
    ("house", 2, 1, 40),
    ("house", 3, 0, 40),
    ("classic", 2, 0, 30),
    ("classic", 3, 1, 30),
    ("party", 3, 0, 30),
    ("party", 4, 2, 30),
    ("house", 1, 1, 30),  # one human against a bot: may see the deal code of the round in play
]




def check_cards(client: Client, who: str) -> int:
    """The card rule of the module docstring for one connection; the number of messages checked."""
    pile: list[str] = []
    buried: set[str] = set()
    checked = 0
    for message in client.messages:
        events = message.get("events") or [] if message["type"] == "update" else []
        named: set[str] = set()
        for event in events:
            kind = event["kind"]
            if kind == "round_start":
                pile = [event["starter"]]
                buried = set(event.get("buried") or [])
            elif kind == "play":
                pile.append(event["card"])
            elif kind == "reshuffle":
                pile = pile[-1:]
            if kind == "round_over":
                named |= cards_in(event, skip=frozenset({"hands"}))
            else:
                named |= cards_in(event)
        view = message.get("view")
        hand: list[str] = []
        if isinstance(view, dict):
            hand = view.get("hand") or []
            named |= cards_in(view, skip=frozenset({"last_round"}))
            if view["phase"] in ("play", "choose_suit"):
                assert pile and pile[-1] == view["top"], f"{who}: rebuilt pile {pile[-3:]} vs top {view['top']}"
                assert len(pile) == view["discard_count"], f"{who}: pile of {len(pile)} vs {view['discard_count']}"
                last = view.get("last_round")
                assert last is None or last["round"] < view["round"], f"{who}: last_round is the current round"
        named |= cards_in({k: v for k, v in message.items() if k not in ("events", "view")})
        allowed = set(hand) | set(pile) | buried
        leaked = named - allowed
        assert not leaked, f"{who} was sent {sorted(leaked)} in a {message['type']} at version {message.get('version')}"
        checked += 1
    return checked


def secrets_by_round(spectator: Client) -> dict[int, list[bytes]]:
    """Each round's deal code (both spellings) and commitment salt, from the reveal events."""
    out: dict[int, list[bytes]] = {}
    for event in spectator.events:
        if event["kind"] == "reveal":
            code = event["deal_code"]
            plain = dealcode.normalize(code) if hasattr(dealcode, "normalize") else code.replace("-", "")
            out[event["round"]] = [code.encode(), plain.encode(), event["salt"].encode()]
    return out


def frames_before_round_end(client: Client, round_no: int) -> list[bytes]:
    """The frames ``client`` got before the one that ends round ``round_no`` (round_over or reveal)."""
    out: list[bytes] = []
    for frame, message in zip(client.frames, client.messages, strict=True):
        if message["type"] == "update" and any(
            e["kind"] in ("round_over", "reveal") and e.get("round") == round_no for e in message["events"]
        ):
            break
        out.append(frame if isinstance(frame, bytes) else frame.encode())
    return out


async def play_game(url: str, clients: Any, n: int, preset: str, humans: int, bots: int, target: int) -> None:
    seats = humans + bots
    seed = 1_000_003 * (n + 1) % (1 << dealcode.SEED_BITS)
    code = dealcode.encode(dealcode.DealSpec(preset, seats, n % seats, seed))
    table = await open_table(
        clients, url, humans=humans, bots=bots, options={"preset": preset, "target": target},
        deal_code=code, grace_s=600, record=True,
    )
    spectator = await clients(url, record=True)
    await spectator.watch(table=table.id)
    await start(table)
    await play_out(table.humans, seeded(humans, base=n))
    await spectator.wait_for(lambda c: c.view is not None and c.view["phase"] == "match_over")

    connections = [*table.humans, spectator]
    names = [f"game {n} ({preset}) seat {c.seat}" for c in connections]
    assert all(len(c.frames) == len(c.messages) for c in connections) and not any(c.bad_frames for c in connections)
    checked = sum(check_cards(c, who) for c, who in zip(connections, names, strict=True))
    assert checked > 50

    rounds = secrets_by_round(spectator)
    assert sorted(rounds) == list(range(1, spectator.view["round"] + 1)), sorted(rounds)
    assert rounds[1][0] == code.encode() or rounds[1][1] == dealcode.normalize(code).encode()
    for client, who in zip(connections, names, strict=True):
        alone_with_bots = client.seat is not None and humans == 1
        for round_no, secrets in rounds.items():
            early = b"".join(frames_before_round_end(client, round_no))
            deal_secrets = secrets[2:] if alone_with_bots else secrets
            for secret in deal_secrets:
                assert secret not in early, f"{who}: a secret of round {round_no} before its end"
        if alone_with_bots:
            # PROTOCOL.md 7: every other seat is a bot, so this seat may see the deal code in play.
            assert any(
                (isinstance(m.get("view"), dict) and m["view"]["phase"] == "play" and m["view"].get("deal_code"))
                or (isinstance(m.get("table"), dict) and m["table"].get("deal_code"))
                for m in client.messages
            ), f"{who}: never shown the deal code though every other seat is a bot"

    tokens = {c: [c.token.encode()] + ([c.host_token.encode()] if c.host_token else []) for c in table.humans}
    for client, who in zip(connections, names, strict=True):
        received = b"".join(f if isinstance(f, bytes) else f.encode() for f in client.frames)
        for owner, secrets in tokens.items():
            if owner is not client:
                assert not any(s in received for s in secrets), f"{who} received seat {owner.seat}'s token"


async def test_no_leak_over_the_wire(memory_server, clients):
    games = [play_game(memory_server.url, clients, n, *game) for n, game in enumerate(GAMES)]
    for i in range(0, len(games), 4):
        await asyncio.gather(*games[i : i + 4])


class _Recorded:
    """Just what check_cards reads of a client."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages


def test_the_card_check_catches_a_leak() -> None:
    """The checker itself: a hand, a play, then one message naming a card nobody showed."""
    view = {"phase": "play", "hand": ["2C", "7H"], "top": "9H", "discard_count": 1, "round": 1, "last_round": None}
    start_update = {"type": "update", "version": 1, "events": [{"kind": "round_start", "starter": "9H"}],
                    "view": view}
    fine = [start_update, {"type": "update", "version": 2, "events": [{"kind": "play", "card": "7H"}],
                           "view": {**view, "hand": ["2C"], "top": "7H", "discard_count": 2}}]
    assert check_cards(_Recorded(fine), "fine") == 2
    leak = [start_update, {"type": "update", "version": 2, "events": [{"kind": "draw", "seat": 1, "card": "KS"}],
                           "view": view}]
    with pytest.raises(AssertionError, match="KS"):
        check_cards(_Recorded(leak), "leak")
    stale_top = [start_update, {"type": "update", "version": 2, "events": [], "view": {**view, "top": "5D"}}]
    with pytest.raises(AssertionError, match="pile"):
        check_cards(_Recorded(stale_top), "top")
