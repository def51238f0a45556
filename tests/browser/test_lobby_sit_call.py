"""The call follows a person who moves seats in the lobby ("Sit here": `sit`, PROTOCOL.md 5 and 16.5).

Two people in the lobby's call, on two server processes sharing Redis (test_call.py's stack:
a loopback-only network namespace, Chromium's fake camera and microphone). Budi moves to an
empty seat, then back to one below the host's (which of two people offers the connection
depends on their seats): each time both pages show the other's tile at the other's seat with
frames and sound arriving, and the call id is the mover's own all along (they never left it).

Cost: about 25 s.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import host_table
from call_netns import unavailable
from kt_helpers import join
from test_call import person, stack, tile, wait_media  # noqa: F401 (the fixtures are used by name)

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=f"no network namespace for the call: {unavailable()}")


def test_the_call_follows_a_person_who_moves(stack: Any, person: Any) -> None:  # noqa: F811
    ani, budi = person(), person()
    host_table(ani, stack.one, name="Ani", seats=3)
    code = "".join(ani.inner_text("#room-code").split())
    join(budi, stack.two, code, "Budi")  # the second process
    for page in (ani, budi):
        page.click("#call-join")
        page.wait_for_function("() => !!window.meja.call.me")
    wait_media(ani, [1])
    wait_media(budi, [0])
    mine = budi.evaluate("() => window.meja.call.me.id")

    # Budi moves from seat 1 to seat 2 (the host still offers: 0 < 2).
    budi.click("#sit-2")
    budi.wait_for_function("() => window.meja.seat === 2")
    got = wait_media(ani, [2])
    assert got["2"]["id"] == mine and "1" not in got, got
    ani.wait_for_selector(f'li.seat[data-seat="2"] {tile(ani, 2)}.video video')
    assert ani.locator(tile(ani, 1)).count() == 0
    wait_media(budi, [0])
    budi.wait_for_selector(f'li.seat[data-seat="0"] {tile(budi, 0)}.video video')

    # The host moves to seat 1, then Budi to seat 0: now Budi's page offers the connection.
    ani.click("#sit-1")
    ani.wait_for_function("() => window.meja.seat === 1")
    wait_media(budi, [1])
    wait_media(ani, [2])
    budi.click("#sit-0")
    budi.wait_for_function("() => window.meja.seat === 0")
    got = wait_media(ani, [0])
    assert got["0"]["id"] == mine and set(got) == {"0"}, got
    assert set(wait_media(budi, [1])) == {"1"}
    assert budi.evaluate("() => window.meja.call.me.id") == mine
