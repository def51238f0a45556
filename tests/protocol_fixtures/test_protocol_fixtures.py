"""The golden frames of the protocol core and of every game, against both Python codecs.

The core's are in client-protocol/fixtures/, each game's in its folder
(``meja/games/<name>/fixtures/``). For every frame of every index.json:

- the client library's codec (``meja_client.codec``) and the server's
  (``meja.protocol``) decode it to the value the index describes, and encode that
  value back to the same bytes;
- a client frame parses as a valid message of its type (``parse_client``); a
  server frame has exactly the fields PROTOCOL.md lists for its type
  (``SERVER_FIELDS``: the required ones, no unknown ones);
- every client and server message type has at least one frame.

Every frame in ``invalid`` is refused by the server's codec or parser with the
documented answer. And the fixtures are what tools/make_fixtures.py generates
now: a change to the protocol layer that changes a frame fails here until the
fixtures are regenerated (and the diff reviewed). Cost: well under a second.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from meja import protocol
from meja.protocol import messages
from meja_client import codec as client_codec

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "client-protocol" / "fixtures"
INDEX = json.loads((FIXTURES / "index.json").read_text())


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("make_fixtures", ROOT / "client-protocol/tools/make_fixtures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass needs its module registered
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


TOOL = _tool()
#: every folder of fixtures: the core's, then each game's
FOLDERS: list[Path] = [FIXTURES, *TOOL.game_folders().values()]
FRAMES = [(folder, e) for folder in FOLDERS for e in json.loads((folder / "index.json").read_text())["frames"]]


def _frame(entry: dict[str, Any], folder: Path = FIXTURES) -> bytes:
    data = (folder / entry["file"]).read_bytes()
    assert data.hex() == entry["hex"], f"{entry['file']}: the index's hex is not the file"
    return data


def test_every_game_has_fixtures() -> None:
    from meja import games

    assert len(FOLDERS) == 1 + len([p for p in games.built_in() if p.fixtures is not None])


@pytest.mark.parametrize(("folder", "entry"), FRAMES, ids=lambda x: x["file"] if isinstance(x, dict) else x.parent.name)
def test_frame_decodes_and_reencodes_byte_for_byte(folder: Path, entry: dict[str, Any]) -> None:
    frame = _frame(entry, folder)
    value = entry["value"]
    assert client_codec.decode(frame) == value
    assert client_codec.encode(value) == frame
    assert client_codec.encode(client_codec.decode(frame)) == frame
    assert protocol.encode(value) == frame
    assert value["type"] == entry["type"]
    if entry["direction"] == "client":
        assert protocol.decode(frame) == value
        message = protocol.parse_client(protocol.decode(frame))
        assert entry["type"] == message.TYPE
    else:
        fields = {f.name: f for f in messages.SERVER_FIELDS[entry["type"]]}
        extra = set(value) - set(fields) - {"type"}
        assert not extra, f"{entry['file']}: fields not in SERVER_FIELDS: {sorted(extra)}"
        for name, field in fields.items():
            if field.required:
                assert name in value, f"{entry['file']}: missing {name!r}"
            if name in value:
                field.check(value[name])


def test_every_message_type_has_a_frame() -> None:
    client = {e["type"] for e in INDEX["frames"] if e["direction"] == "client"}
    server = {e["type"] for e in INDEX["frames"] if e["direction"] == "server"}
    assert client == set(messages.CLIENT_FIELDS)
    assert server == set(messages.SERVER_FIELDS)


@pytest.mark.parametrize("entry", INDEX["invalid"], ids=lambda e: e["file"])
def test_invalid_frame_gets_its_documented_answer(entry: dict[str, Any]) -> None:
    frame = _frame(entry)
    expect = entry["expect"]
    if "close" in expect:
        with pytest.raises(protocol.MalformedFrame) as refused:
            protocol.decode(frame)
        assert refused.value.close == expect["close"]
    else:
        with pytest.raises(protocol.ProtocolError) as refused:
            protocol.parse_client(protocol.decode(frame))
        assert refused.value.code == expect["error"]
        assert refused.value.close is None


def test_fixtures_are_up_to_date() -> None:
    """Every fixture, the core's and each game's, is regenerated here and must equal what is committed."""
    files = TOOL.build()
    on_disk = {p for folder in FOLDERS for p in folder.rglob("*") if p.is_file()}
    assert on_disk == set(files), "a fixtures folder has files the generator does not make, or lacks some"
    stale = [str(p.relative_to(ROOT)) for p, data in files.items() if p.read_bytes() != data]
    assert not stale, f"out of date (run client-protocol/tools/make_fixtures.py): {stale}"


def test_the_patch_fixture_applied_gives_the_whole_update() -> None:
    """PROTOCOL.md 7.5 as an outside client reads it: ``patch_play`` applied (the client library's
    ``apply_patch``) to ``state_seat1``'s table map and view gives ``update_play``'s, and is smaller."""
    from meja_client import apply_patch

    def frame(name: str) -> bytes:
        return _frame(next(e for e in INDEX["frames"] if e["file"].endswith(f"/{name}.msgpack")))

    base, patched, whole = (client_codec.decode(frame(n)) for n in ("state_seat1", "patch_play", "update_play"))
    assert patched["type"] == "patch" and patched["table"] == base["table"]["id"]
    assert patched["version"] == whole["version"] and patched["events"] == whole["events"]
    got = apply_patch({"table": base["table"], "view": base["view"]}, patched["patch"])
    assert got == {"table": whole["table"], "view": whole["view"]}
    assert len(frame("patch_play")) < len(frame("update_play")) / 2
