"""The strict codec (meja.protocol.codec): what a client frame may be, and every way it may not."""

from __future__ import annotations

import msgpack
import pytest
from meja.protocol import CodecLimits, MalformedFrame, decode, encode
from meja.protocol.codec import check_encodable
from meja.protocol.errors import CloseCode


def test_round_trip_of_a_plain_map() -> None:
    message = {"type": "act", "id": 3, "table": "t", "version": 7, "action": {"kind": "play", "card": "8H"}}
    assert decode(encode(message)) == message


def test_encode_keeps_str_as_str_and_bytes_as_bin() -> None:
    frame = encode({"type": "pong"})
    assert msgpack.unpackb(frame, raw=True) == {b"type": b"pong"}  # str type, not bin
    assert frame[1] == 0xA4  # fixstr of 4 bytes: "type"


@pytest.mark.parametrize(
    ("frame", "why"),
    [
        (b"", "empty"),
        (b"\xc1", "never-used byte"),
        (b"\xc1\xc1\xc1\xc1", "not msgpack"),
        (b"\x92\x01\x02", "an array, not a map"),
        (b"\xa4ping", "a string, not a map"),
        (b"\x81\xa4type\xd6\xff\x00\x00\x00\x01", "timestamp extension"),
        (b"\x81\xa4type\xd4\x05\x00", "fixext 1"),
        (b"\x81\xa4type\xc7\x00\x05", "zero-length extension"),
        (b"\x82\xa4type\xa4ping\xa2id\xc4\x01\x00", "a binary value"),
        (b"\x82\xa4type\xa4ping\xa2id\xc4\x00", "an empty binary value"),
        (b"\x82\xa4type\xa4ping\x01\x02", "an int key"),
        (b"\x82\xa4type\xa4ping\xc4\x01k\x02", "a bin key"),
        (b"\x82\xa4type\xa4ping\xa4type\xa4ping", "a repeated key"),
        (encode({"type": "ping"}) + b"\x00", "trailing bytes"),
        (b"\x82\xa4type", "truncated"),
        (b"\x81\xa1a\xa2\xff\xfe", "invalid utf-8"),
        (b"\x81\xa4type\xdd\xff\xff\xff\xff", "array header announcing 2**32-1 items"),
        (b"\x81\xa4type\xdf\xff\xff\xff\xff", "map header announcing 2**32-1 entries"),
        (b"\x81\xa4type\xdb\xff\xff\xff\xff", "str header announcing 4 GiB"),
        (b"\x91" * 100_000 + b"\xc0", "array nesting bomb"),
        (b"\x81\xa1a" * 20_000 + b"\xc0", "map nesting bomb"),
    ],
)
def test_malformed_frames_are_refused(frame: bytes, why: str) -> None:
    with pytest.raises(MalformedFrame) as refused:
        decode(frame)
    assert refused.value.close == CloseCode.MALFORMED == 4000, why


def test_text_frames_are_malformed() -> None:
    with pytest.raises(MalformedFrame, match="text frames"):
        decode('{"type": "ping"}')


def test_depth_limit() -> None:
    limits = CodecLimits(max_depth=4)
    ok = {"a": {"b": {"c": {"d": 1}}}}  # four maps deep
    assert decode(encode(ok), limits) == ok
    with pytest.raises(MalformedFrame, match="deeper than 4"):
        decode(encode({"a": {"b": {"c": {"d": {"e": 1}}}}}), limits)
    with pytest.raises(MalformedFrame, match="deeper than 4"):
        decode(encode({"a": [[[1]]], "b": [[[[1]]]]}), limits)


@pytest.mark.parametrize(
    ("message", "limits", "match"),
    [
        ({"s": "x" * 33}, CodecLimits(max_str_len=32), "max_str_len"),
        ({"x" * 33: 1}, CodecLimits(max_str_len=32), "max_str_len"),
        ({"a": list(range(9))}, CodecLimits(max_array_len=8), "max_array_len"),
        ({str(i): i for i in range(9)}, CodecLimits(max_map_len=8), "max_map_len"),
        ({"s": "x" * 200}, CodecLimits(max_frame_bytes=100), "100-byte limit"),
    ],
)
def test_length_limits(message: dict[str, object], limits: CodecLimits, match: str) -> None:
    with pytest.raises(MalformedFrame, match=match):
        decode(encode(message), limits)


def test_limits_are_inclusive() -> None:
    limits = CodecLimits(max_str_len=32, max_array_len=8, max_map_len=8)
    message = {"s": "x" * 32, "a": list(range(8))}
    assert decode(encode(message), limits) == message


def test_plain_scalars_are_kept() -> None:
    message = {"n": None, "t": True, "i": -(2**63), "u": 2**64 - 1, "f": 1.5, "s": "é"}
    assert decode(encode(message)) == message


@pytest.mark.parametrize("bad", [object(), {"x": {1, 2}}, Exception("x")])
def test_encode_refuses_objects(bad: object) -> None:
    with pytest.raises(TypeError):
        encode({"type": "x", "value": bad})


@pytest.mark.parametrize("bad", [b"bytes", {1: "int key"}, object(), {"x": {1, 2}}])
def test_check_encodable_refuses_what_is_not_plain_data(bad: object) -> None:
    with pytest.raises(TypeError):
        check_encodable({"type": "x", "value": bad})
    check_encodable({"type": "x", "value": [1, 2.5, None, True, "s", {"k": ()}]})
