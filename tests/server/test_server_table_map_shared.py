"""The table map's parts are the objects the last map had while what they are built from is the same
(issue 24): the hub's patches pass over a value that is the object they sent without encoding it, so
a move's table map costs them only what really changed. Built again from a decoded record (new
objects), the map is equal; a changed seat or talk setting gives a new part with the change."""

from __future__ import annotations

from meja.server import tables as t
from meja.server import talk
from meja.server.records import Table
from test_server_tables import SETTINGS, started

SHARED = ("link", "seats", "teams", "talk", "awaiting")


def _fresh(table: Table) -> dict[str, object]:
    """The map built from a decoded copy of the record: none of its objects are the table's."""
    return t.summary(Table.from_bytes(table.to_bytes()), SETTINGS)


def test_a_move_keeps_the_table_maps_parts() -> None:
    table = started().table
    first = t.summary(table, SETTINGS)
    moved = table.evolve(gv=table.gv + 1)  # a move: the seats, talk and options are kept
    second = t.summary(moved, SETTINGS)
    assert second is not first
    for key in SHARED:
        assert second[key] is first[key], key
    assert second == first == _fresh(moved)


def test_a_changed_seat_or_talk_setting_is_a_new_part() -> None:
    table = started().table
    first = t.summary(table, SETTINGS)
    away = table.with_seat(0, conn=None, away=table.created)
    second = t.summary(away, SETTINGS)
    assert second["seats"] is not first["seats"]
    assert second["seats"][0]["connected"] is False and first["seats"][0]["connected"] is True
    assert second["seats"][0]["bot_at"] == table.created + table.grace_s * 1000
    assert all(second["seats"][i] is first["seats"][i] for i in (1, 2))  # the unchanged seats' entries
    assert second == _fresh(away)
    quiet, _ = talk.set_policy(away, {"chat": "off"})
    third = t.summary(quiet, SETTINGS)
    assert third["talk"] is not second["talk"] and third["talk"]["chat"] == "off"
    assert second["talk"]["chat"] == "on"  # the shared part was not changed in place
    assert third["seats"] is second["seats"] and third == _fresh(quiet)
