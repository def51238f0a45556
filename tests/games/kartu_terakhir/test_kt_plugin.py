"""Kartu Terakhir as the registry holds it: the plugin, its bots, its protocol section and fixtures.

The game is not yet in ``meja.games.BUILT_IN`` (the lead adds it), so it is
loaded here as the server loads an extra game, and its fixtures folder is
written and checked with the fixtures tool's own functions
(``client-protocol/tools/make_fixtures.py``), exactly as the tool will once the
game is built in: ``python tests/games/kartu_terakhir/test_kt_plugin.py
--write-fixtures`` regenerates it.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # when run as a script (--write-fixtures)

from meja import protocol
from meja.bots.base import RandomAnyBot, decision_rng
from meja.protocol import messages
from meja.rules import events_for

from games.kartu_terakhir.kt_helpers import GAME, PLUGIN, act, play, stacked

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "server" / "meja" / "games" / "kartu_terakhir"
FIXTURES = HERE / "fixtures"
PROTOCOL_MD = (HERE / "PROTOCOL.md").read_text(encoding="utf-8")


# =========================================================================== the plugin


def test_the_plugin_describes_the_game() -> None:
    assert PLUGIN.name == "kartu_terakhir" and PLUGIN.game.info.title == "Kartu Terakhir"
    assert PLUGIN.levels == ("easy", "normal", "hard") and PLUGIN.yardsticks == ("random-any", "random", "greedy")
    assert PLUGIN.default_level == "normal"
    assert PLUGIN.protocol == HERE / "PROTOCOL.md" and PLUGIN.protocol.is_file()
    assert PLUGIN.fixtures == "meja.games.kartu_terakhir.fixtures"
    assert PLUGIN.playouts.flags == ("stacking",) and PLUGIN.playouts.seats == (2, 4, 7, 10)
    described = PLUGIN.describe()
    assert described["name"] == "kartu_terakhir" and described["seats"] == [2, 10]
    # The game's page module (page/page.js, its stylesheet and strings beside it), served at /games/<name>/.
    assert PLUGIN.page == HERE / "page" and (HERE / "page" / "page.js").is_file()
    assert described["page"] == "/games/kartu_terakhir/page.js"
    json.dumps(described)


def test_the_bots_play_legal_actions() -> None:
    # (test_kt_bots.py tests them at length; random-any is still the shared RandomAnyBot)
    assert isinstance(PLUGIN.bot("random-any"), RandomAnyBot)
    with pytest.raises(ValueError):
        PLUGIN.bot("grandmaster")
    state = GAME.new_match(GAME.options(), 4, 3).state
    seat = state.awaiting()[0]
    move = PLUGIN.bot("normal").choose(state.view(seat), [], decision_rng(state, seat))
    assert move in state.legal_actions(seat)


def test_terms_are_kept_out_of_the_shell() -> None:
    """The words the shell may not use (GamePlugin.terms) are not in it today (what test_game_free will check)."""
    shell = [ROOT / "server/meja" / part for part in ("server", "store", "protocol", "web")]
    suffixes = (".py", ".js", ".css", ".html")
    shell_files = [p for d in shell for p in d.rglob("*") if p.is_file() and p.suffix in suffixes]
    shell_files = [p for p in shell_files if "vendor" not in p.parts]  # third-party code, not the shell's words
    shell_files.append(ROOT / "client-protocol" / "PROTOCOL.md")
    texts = [p.read_text(encoding="utf-8", errors="replace").lower() for p in shell_files]
    assert len(PLUGIN.terms) >= 10
    for term in PLUGIN.shell_terms():
        pattern = re.compile(rf"\b{re.escape(term.lower())}\b")
        hits = [str(p) for p, text in zip(shell_files, texts, strict=False) if pattern.search(text)]
        assert not hits, f"the shell names {term!r}: {hits}"


# =========================================================================== the protocol section


def _all_event_kinds() -> set[str]:
    """The event kinds the conformance runs of the game show (tests/games/conformance.py)."""
    from games.conformance import MATCHES, Run, configs

    kinds: set[str] = set()
    for config in (c for c in configs() if c.game == "kartu_terakhir"):
        run = Run(config)
        for number in range(MATCHES):
            run.play(number, checks=False)
        kinds |= {k.split(" ", 1)[1] for k in run.stats if k.startswith("event ")}
    return kinds


def test_protocol_md_documents_every_action_view_field_and_event() -> None:
    for kind in ("play", "draw", "keep", "pass", "take", "challenge", "call", "catch", "ready", "draw_keep",
                 "timer_take"):
        assert f'{{"kind": "{kind}"' in PROTOCOL_MD, kind
    for option in ("stacking", "stacking_mandatory", "match", "reaction_ms"):
        assert f"| `{option}` |" in PROTOCOL_MD, option
    view = stacked(hands=["R5 R6", "B1"], discard="R9").view(0).to_wire()
    for field in view:
        assert re.search(rf"`{field}`", PROTOCOL_MD), f"view field {field!r} is not documented"
    for kind in _all_event_kinds():
        assert f"| `{kind}` |" in PROTOCOL_MD, f"event {kind!r} is not documented"
    for reason in ("draw", "penalty", "catch", "challenge"):
        assert f'`"{reason}"`' in PROTOCOL_MD


def test_the_protocol_example_is_what_the_engine_does() -> None:
    # section 9: seat 0 plays R5 to one card; seat 2's view; its catch; seat 1's catch comes second
    state = stacked(hands=["R5 R6", "B1 B2", "G1 G2"], discard="R9", stock="Y1 Y2")
    opened = act(state, 0, play("R5")).state
    view = opened.view(2).to_wire()
    assert (view["turn"], view["top"], view["colour"], view["window"]) == (1, "R5", "R", 0)
    assert view["hand_counts"] == [1, 2, 2] and view["legal"] == [{"kind": "catch"}]
    t = act(opened, 2, GAME.decode_action({"kind": "catch"}))
    mine = [e.to_wire() for e in events_for(t.events, 0)]
    theirs = [e.to_wire() for e in events_for(t.events, 1)]
    assert {"kind": "draw", "seat": 0, "cards": ["Y1", "Y2"], "count": 2, "reason": "catch"} in mine
    assert {"kind": "draw", "seat": 0, "count": 2, "reason": "catch"} in theirs
    assert {"kind": "catch", "seat": 2, "target": 0} in theirs
    assert "00000-00000-00000-00000-0K9P6-S24A4" in PROTOCOL_MD


# =========================================================================== fixtures


def test_fixture_frames_are_valid_messages() -> None:
    from meja.games.kartu_terakhir import fixtures

    frames = fixtures.frames("4f2a9c1e7b3d4e5fa0b1c2d3e4f50617")
    kinds = {f[3]["action"]["kind"] for f in frames if f[3]["type"] == "act"}
    assert kinds == {"play", "draw", "keep", "pass", "take", "challenge", "call", "catch", "ready", "draw_keep",
                     "timer_take"}
    for direction, _name, _description, message in frames:
        frame = protocol.encode(message)
        assert protocol.decode(frame) == message
        if direction == "client":
            parsed = protocol.parse_client(message)
            assert message["type"] == parsed.TYPE
            if message["type"] == "act":
                GAME.decode_action(message["action"])  # every action frame is an action of the game
            if message["type"] == "host" and "options" in message:
                GAME.options_from_wire(message["options"])
            if message["type"] == "host" and "deal_code" in message:
                assert GAME.read_deal_code(message["deal_code"]).seats == 4
        else:
            fields = {f.name: f for f in messages.SERVER_FIELDS[message["type"]]}
            for name, value in message.items():
                if name != "type":
                    fields[name].check(value)
