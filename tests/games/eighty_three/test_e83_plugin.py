"""Eighty-Three as a plugin: its description, its interim bots, its protocol section, fixtures and benchmark.

The game is not built in yet (the lead adds it to ``meja.games.BUILT_IN``), so
``client-protocol/tools/make_fixtures.py`` does not write its frames yet. This
module writes them the way that tool will (its own functions, on this plugin)
with ``python tests/games/eighty_three/test_e83_plugin.py --write-fixtures``,
and checks that the committed ones are up to date and decode as the protocol
fixtures test decodes every game's.
"""

from __future__ import annotations

import functools
import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

if __package__ in (None, ""):  # run as a script: the fixtures writer
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    __package__ = "games.eighty_three"

from meja import games, protocol
from meja.bots.base import RandomAnyBot, decision_rng
from meja.games.eighty_three.rules import Phase
from meja.protocol import messages

from .e83_helpers import GAME, PASS, PLUGIN

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "server" / "meja" / "games" / "eighty_three"
PROTOCOL_MD = (FOLDER / "PROTOCOL.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the plugin


def test_the_plugin_describes_the_game() -> None:
    assert games.get("eighty_three") is PLUGIN
    described = PLUGIN.describe()
    assert described["name"] == "eighty_three" and described["title"] == "Eighty-Three"
    assert described["teams"] == "partners" and described["deal_codes"] is True
    assert described["seats"] == [4, 4] and described["default_preset"] == "standard"
    assert described["levels"] == ["easy", "normal", "hard"] and described["page"] == "/games/eighty_three/page.js"
    assert PLUGIN.yardsticks == ("yardstick", "random-any")
    assert PLUGIN.protocol == FOLDER / "PROTOCOL.md" and PLUGIN.protocol.is_file()
    assert PLUGIN.fixtures == "meja.games.eighty_three.fixtures"
    assert PLUGIN.playouts.unit == "hand" and set(PLUGIN.playouts.policies) == {"random-any", "random-arrange"}
    assert (GAME.info.round_start, GAME.info.round_end) == ("hand_start", "hand_over")
    assert "eighty_three" in [p.name for p in games.built_in()]


def test_the_shell_never_uses_the_games_words() -> None:
    """The terms (and the name and title) appear nowhere in the server, store, protocol core or page shell."""
    terms = PLUGIN.shell_terms()
    assert {"trump", "kitty", "trick"} <= set(terms)
    shell = [ROOT / "server" / "meja" / part for part in ("server", "store", "protocol", "web")]
    for folder in shell:
        for path in folder.rglob("*"):
            if path.suffix not in (".py", ".js", ".css", ".html") or "vendor" in path.parts:
                continue
            text = path.read_text(encoding="utf-8").lower()
            for term in terms:
                assert term.lower() not in text, f"{path.relative_to(ROOT)} names {term!r}"


# --------------------------------------------------------------------------- the bots


def test_every_bot_name_is_a_bot_of_this_game() -> None:
    assert PLUGIN.levels == ("easy", "normal", "hard")
    assert PLUGIN.yardsticks == ("yardstick", "random-any")
    for name in PLUGIN.bot_names():
        assert PLUGIN.bot(name).name == name
    assert isinstance(PLUGIN.bot("random-any"), RandomAnyBot)
    with pytest.raises(ValueError):
        PLUGIN.bot("greedy")
    assert PLUGIN.bench_bots == "meja.games.eighty_three.bench_bots"


def test_bots_finish_hands_from_their_views_alone() -> None:
    """Bots asked for every actor, as the server asks them: each move is legal, and hands end."""
    bot = PLUGIN.bot("normal")
    rng = random.Random(4)
    for seed in range(30):
        state = GAME.new_match("standard", 4, seed).state
        actions = 0
        while state.phase <= Phase.PLAY:
            seat = rng.choice(state.actors())
            move = bot.choose(state.view(seat), [], decision_rng(state, seat))
            assert move in state.legal_actions(seat)
            state = state.apply(seat, move).state
            actions += 1
            assert actions < 5_000
        assert state.last_hand is not None and sum(state.last_hand.captured) == 83


# --------------------------------------------------------------------------- the protocol section


@functools.cache
def _played_kinds_and_fields() -> tuple[frozenset[str], frozenset[str]]:
    kinds: set[str] = set()
    fields: set[str] = set()
    rng = random.Random(1)
    for seed in range(12):
        t = GAME.new_match("standard", 4, seed)
        state = t.state
        kinds |= {e.kind for e in t.events}
        while state.phase != Phase.MATCH_OVER:
            seat = rng.choice(state.awaiting())
            legal = state.legal_actions(seat)
            move = legal[int(rng.random() * len(legal))]
            if state.phase == Phase.AUCTION:  # low bids, so that matches end (random bids sink both teams)
                move = PASS if PASS in legal and rng.random() < 0.7 else legal[0]
            t = state.apply(seat, move)
            state = t.state
            kinds |= {e.kind for e in t.events}
            fields |= set(state.view(seat).to_wire())
            for e in t.events:
                fields |= {f"{e.kind}.{k}" for k in e.data}
    return frozenset(kinds), frozenset(fields)


def test_no_event_kind_is_the_tables() -> None:
    from meja.rules.game import TABLE_EVENT_KINDS

    kinds, _ = _played_kinds_and_fields()
    assert len(kinds) >= 20 and not kinds & TABLE_EVENT_KINDS


def test_protocol_md_documents_every_action_event_and_view_field() -> None:
    kinds, fields = _played_kinds_and_fields()
    actions = {"bid", "pass", "trump", "discard", "give", "undo", "done", "auto_arrange", "play", "ready"}
    for kind in actions:
        assert f'| `{kind}` | `{{"kind": "{kind}"' in PROTOCOL_MD, kind
    events = re.findall(r"^\| `([a-z_]+)` \| ", PROTOCOL_MD[PROTOCOL_MD.index("## 9. Events") :], re.M)
    assert kinds - {"hand_start"} <= set(events) and "hand_start" in events
    assert {"trim_phase", "exchange", "received", "kitty", "partner_trumps", "match_over"} <= kinds
    view = PROTOCOL_MD[PROTOCOL_MD.index("## 8. The view") : PROTOCOL_MD.index("## 9. Events")]
    for name in sorted(f for f in fields if "." not in f):
        assert f"`{name}`" in view, f"view field {name!r} is not documented"
    events_md = PROTOCOL_MD[PROTOCOL_MD.index("## 9. Events") :]
    for name in sorted(f for f in fields if "." in f):
        kind, key = name.split(".")
        rows = [line for line in events_md.splitlines() if line.startswith(f"| `{kind}` |")]
        assert any(f"`{key}`" in row for row in rows), f"event field {name!r} is not documented"
    assert "game tag 3" in PROTOCOL_MD and "2-bit header" in PROTOCOL_MD


# --------------------------------------------------------------------------- fixtures (written and checked with
# every game's by client-protocol/tools/make_fixtures.py and tests/protocol_fixtures)


def test_every_frame_is_a_valid_message() -> None:
    index = json.loads((FOLDER / "fixtures" / "index.json").read_text())
    names = set()
    for entry in index["frames"]:
        frame = (FOLDER / "fixtures" / entry["file"]).read_bytes()
        assert frame.hex() == entry["hex"]
        value = protocol.decode(frame)
        assert value == entry["value"] and protocol.encode(value) == frame
        if entry["direction"] == "client":
            message = protocol.parse_client(value)
            assert entry["type"] == message.TYPE
            if entry["type"] == "act":
                assert GAME.decode_action(value["action"]).to_wire() == value["action"]
            if entry["type"] == "host":
                info = GAME.read_deal_code(value["deal_code"])
                assert (info.preset, info.seats) == ("standard", 4)
                assert GAME.options_from_wire(value["options"]).must_win_on_own_bid
        else:
            fields = {f.name: f for f in messages.SERVER_FIELDS[entry["type"]]}
            assert set(value) - set(fields) - {"type"} == set()
            assert value["code"] == "action/illegal"
        names.add(entry["file"])
    kinds = {e["value"]["action"]["kind"] for e in index["frames"] if e["type"] == "act"}
    assert kinds == {"bid", "pass", "trump", "discard", "give", "undo", "done", "auto_arrange", "play", "ready"}
    assert "server/error_point_trump.msgpack" in names and "client/host_deal_code.msgpack" in names


@pytest.mark.parametrize("action", [
    {"kind": "trump", "suit": "h"}, {"kind": "trump", "suit": " H"}, {"kind": "trump", "suit": "SH"},
    {"kind": "trump", "suit": ""}, {"kind": "play", "card": "qh"}, {"kind": "play", "card": " QH"},
    {"kind": "play", "card": "QH\n"}, {"kind": "play", "card": "jk"}, {"kind": "play", "card": "TH"},
    {"kind": "play", "card": "8H.2"}, {"kind": "discard", "card": "10h"},
])
def test_wire_names_have_one_spelling(action: dict[str, Any]) -> None:
    """PROTOCOL.md section 4: a card is one of the 53 names, a suit one of S H D C, exactly: another
    case, spacing or T for 10 is ``action/bad_action`` (a hostile player found them read leniently,
    so a seat off turn got ``not_your_turn`` for a card that is no card)."""
    from meja.rules import BadActionError

    with pytest.raises(BadActionError):
        GAME.decode_action(action)
    exact = {k: v.strip().upper().replace("TH", "10H") if k != "kind" else v for k, v in action.items()}
    if exact.get("card", "JK") != "8H.2" and exact.get("suit") != "SH" and exact.get("suit") != "":
        assert GAME.decode_action(exact).to_wire() == exact
