"""meja_client: the Python client of the Meja wire protocol (client-protocol/PROTOCOL.md).

Tests, load tests and remote bots use it::

    from meja_client import connect, Player, random_policy

    async with connect("ws://127.0.0.1:8080/ws") as ann:
        joined = await ann.host(seats=3, name="Ann")      # seat 0; joined["code"] is the room code
        async with connect("ws://127.0.0.1:8080/ws") as bob:
            await bob.join(code=joined["code"], name="Bob")
            await ann.seat_to(2, "bot")
            await ann.start()
            await asyncio.gather(Player(ann).run(), Player(bob, random_policy(7)).run())

It depends on ``msgpack`` and ``websockets`` only, never on the server's code.
"""

from .client import DEFAULT_TIMEOUT, PROTOCOL_VERSION, Client, connect
from .codec import MAX_FRAME, DecodeError, decode, encode
from .errors import ClientError, ConnectionClosed, ServerError
from .patch import PatchError, apply_patch
from .player import Player, first_legal, is_match_over, is_my_decision, random_policy

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_FRAME",
    "PROTOCOL_VERSION",
    "Client",
    "ClientError",
    "ConnectionClosed",
    "DecodeError",
    "PatchError",
    "Player",
    "ServerError",
    "apply_patch",
    "connect",
    "decode",
    "encode",
    "first_legal",
    "is_match_over",
    "is_my_decision",
    "random_policy",
]
