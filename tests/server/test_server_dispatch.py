"""Requests dispatch through an explicit table (meja.server.session.HANDLERS), one handler for each
client message type the protocol declares (meja.protocol.messages.CLIENT_MESSAGES), no more, no less."""

from __future__ import annotations

import dataclasses
import inspect
import typing

from meja.protocol import messages
from meja.server.session import HANDLERS, Session


def test_every_client_message_has_exactly_one_handler() -> None:
    assert set(HANDLERS) == set(messages.CLIENT_MESSAGES)


def test_each_handler_takes_its_own_message() -> None:
    for kind, handler in HANDLERS.items():
        hints = typing.get_type_hints(handler, vars(messages) | {"messages": messages})
        assert hints["msg"] is messages.CLIENT_MESSAGES[kind], (kind, handler)


def test_no_handler_is_left_out_of_the_table() -> None:
    """A request method written on the session but not listed would never run."""
    methods = {name for name, _ in inspect.getmembers(Session, inspect.iscoroutinefunction) if name.startswith("_on_")}
    assert methods == {h.__name__ for h in HANDLERS.values()}


def test_each_client_message_is_declared_once() -> None:
    """CLIENT_FIELDS is read from the dataclasses: every field but ``id`` is on the wire, and a
    field is required on the wire exactly when its dataclass gives it no default."""
    for kind, cls in messages.CLIENT_MESSAGES.items():
        declared = [f for f in dataclasses.fields(cls) if f.name != "id"]  # type: ignore[arg-type]
        listed = messages.CLIENT_FIELDS[kind]
        assert [f.name for f in listed] == [f.name for f in declared], kind
        for spec, field in zip(listed, declared, strict=True):
            assert spec.required == (field.default is dataclasses.MISSING), (kind, spec.name)
