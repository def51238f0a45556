"""Inference from a seat's history never excludes the truth, and it does learn something.

Rounds are played through the engine; at every decision the deciding seat's
information set is rebuilt from its view and history, and the real hands must
satisfy every constraint (else the search would sample impossible worlds and
never the real one).
"""

from __future__ import annotations

import random

import pytest
from meja.games.crazy_eights.bots import make_bot
from meja.games.crazy_eights.bots.infoset import World, read_infoset
from meja.games.crazy_eights.bots.tables import stuck_mask
from meja.games.crazy_eights.rules import Phase
from meja.rules import Card, get_game

from .helpers import mask

GAME = get_game("crazy_eights")


def _rounds(preset: str, seats: int, bot_name: str, games: int, overrides: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """Yield (state, seat, history) at every decision of ``games`` rounds played by ``bot_name``."""
    options = GAME.options(preset, **(overrides or {}))
    bot = make_bot(bot_name)
    for g in range(games):
        tr = GAME.new_match(options, seats, 777 + g)
        state = tr.state
        hist: list[list[dict[str, object]]] = [[] for _ in range(seats)]
        for e in tr.events:
            for s in range(seats):
                if e.is_seen_by(s):
                    hist[s].append(e.to_wire())
        decisions = 0
        while state.phase in (Phase.PLAY, Phase.CHOOSE_SUIT) and decisions < 150:
            decisions += 1  # random-any can draw for a very long time: 150 decisions are plenty
            seat = state.awaiting()[0]
            yield state, seat, hist[seat]
            move = bot.choose(state.view(seat), hist[seat], state.bot_rng(seat).derive(str(state.version)))
            tr = state.apply(seat, move)
            state = tr.state
            for e in tr.events:
                for s in range(seats):
                    if e.is_seen_by(s):
                        hist[s].append(e.to_wire())


@pytest.mark.parametrize(
    ("preset", "seats", "bot", "draws_reveal", "overrides"),
    [
        ("house", 2, "greedy", True, None),
        ("house", 3, "random-card", True, None),
        ("house", 3, "random-any", False, None),  # voluntary draws: only passes reveal
        ("classic", 3, "random-card", False, None),
        ("classic", 2, "greedy", False, {"drawn_card_play": "optional"}),
        ("party", 4, "random-card", False, None),
        ("party", 7, "greedy", False, None),
    ],
)
def test_the_truth_is_always_a_possible_world(
    preset: str, seats: int, bot: str, draws_reveal: bool, overrides: dict[str, str] | None
) -> None:
    checked = constrained = 0
    for state, seat, history in _rounds(preset, seats, bot, 15, overrides):
        view = state.view(seat)
        info = read_infoset(view, history, draws_reveal)
        hands = [mask(h) for h in state.hands]
        assert info.hidden_pile == 0
        assert info.pile == mask(state.discard)
        assert info.unknown == sum(h for s, h in enumerate(hands) if s != seat) | mask(state.stock)
        assert info.true_world_check(hands)
        assert info.reset_seats == []
        constrained += sum(
            1
            for s, gs in enumerate(info.groups)
            if s != seat
            for g in gs
            if g[1] & info.unknown != info.unknown
        )
        # Every sampled world deals the right number of cards to the right places.
        world = info.sample(random.Random(checked))
        assert [h.bit_count() for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.stock) == len(state.stock)
        assert world.hands[seat] == hands[seat]
        checked += 1
    assert checked > 300
    assert constrained > 0  # the inference learned something in these rounds


def test_history_from_round_start_learns_a_void() -> None:
    """In house, after seat 1 passes, no card of its hand may be of the active suit, the top's rank, or an 8."""
    options = GAME.options("house")
    found = 0
    for seed in range(200):
        tr = GAME.new_match(options, 2, seed)
        state = tr.state
        hist = [e.to_wire() for e in tr.events if e.is_seen_by(0)]
        greedy = make_bot("greedy")
        while state.phase == Phase.PLAY:
            seat = state.turn
            move = greedy.choose(state.view(seat), [], state.bot_rng(seat))
            tr = state.apply(seat, move)
            state = tr.state
            hist += [e.to_wire() for e in tr.events if e.is_seen_by(0)]
            passes = [e for e in tr.events if e.kind == "pass" and e.data["seat"] == 1]
            if passes and state.phase == Phase.PLAY:
                info = read_infoset(state.view(0), hist, draws_reveal=False)
                p = passes[0].data
                void = stuck_mask("SHDC".index(p["active_suit"]), int(Card.parse(p["top"])))
                # docs/rules/crazy-eights.md 1.4.5: it held no card of the suit, of the top's rank, no 8.
                assert info.groups[1]
                assert all(g[1] & void == 0 for g in info.groups[1])
                found += 1
                break
        if found >= 3:
            break
    assert found >= 3


def test_greedy_opponents_are_never_surprising_in_the_true_world() -> None:
    """The opponent model rebuilds past hands correctly: with greedy opponents, the truth has surprise 0.

    Checked where each other seat still holds only its dealt group (no draw
    yet), so the true cards of every group are known.
    """
    checked = 0
    for state, seat, history in _rounds("house", 3, "greedy", 25):
        info = read_infoset(state.view(seat), history, True)
        if not info.observed or any(
            len(gs) != 1 or gs[0][2] != 0 for s, gs in enumerate(info.groups) if s != seat
        ):
            continue  # some seat holds drawn cards (or its dealt cards are all gone)
        hands = [mask(h) for h in state.hands]
        parts = [[hands[s]] if s != seat else [] for s in range(state.seats)]
        world = World(hands, [int(c) for c in state.stock], mask(state.discard[:-1]), parts)
        assert info.surprise(world) == 0
        checked += 1
    assert checked > 30
