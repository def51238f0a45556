"""A guest who joins at once, on a slow phone (found by two loaded CI runs, 2026-12-07).

Two faults, each with the timing that showed it made certain here:
- Join pressed before the connection's welcome failed at once with "not connected" (the
  host never saw the guest): a host/join/watch request now waits for the welcome (net.js,
  `request(..., {wait: true})`). The welcome is held back here by delaying the socket's open.
- The lobby's headings were focusable by script only in the first drawing: the next change
  (someone else joining) drew the lobby again and the focus, given back to the heading by its
  id, fell to the page's body. A screen reader user lost their place whenever anyone joined.

Cost: about 15 s.
"""

from __future__ import annotations

from typing import Any

from kt_helpers import host_kt

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# The socket's open event (and so the hello, and the welcome) comes 1.5 s late.
SLOW_OPEN = """
(() => {
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    set onopen(fn) { super.onopen = (ev) => setTimeout(() => fn(ev), 1500); }
    get onopen() { return super.onopen; }
  };
})();
"""


def test_join_pressed_before_the_welcome_goes_through(server: Any, new_context: Any) -> None:
    host = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_kt(host, server.origin, name="Ana", seats=4)
    guest = new_context(**PHONE).new_page()
    guest.add_init_script(SLOW_OPEN)
    guest.goto(f"{server.origin}/?join={room}")
    guest.fill("#name", "Budi")
    # Pressed while the welcome is still on its way (the page says it has none yet).
    assert guest.evaluate("() => !window.meja.conn.ready")
    guest.click("#join")
    guest.wait_for_selector("#seats-title")
    host.wait_for_selector('#seats li[data-seat="1"] .person-name')
    assert "Budi" in host.inner_text("#seats")


def test_the_seats_heading_keeps_the_focus_when_someone_else_joins(server: Any, new_context: Any) -> None:
    host = new_context(viewport={"width": 1280, "height": 800}).new_page()
    room = host_kt(host, server.origin, name="Ana", seats=4)
    guest = new_context(**PHONE).new_page()
    guest.goto(f"{server.origin}/?join={room}")
    guest.fill("#name", "Budi")
    guest.click("#join")
    guest.wait_for_function("() => document.activeElement && document.activeElement.id === 'seats-title'")
    other = new_context(**PHONE).new_page()
    other.goto(f"{server.origin}/?join={room}")
    other.fill("#name", "Citra")
    other.click("#join")
    # The guest's lobby is drawn again with Citra in it; the focus is where it was.
    guest.wait_for_function("() => document.getElementById('seats').textContent.includes('Citra')")
    assert guest.evaluate("() => document.activeElement && document.activeElement.id") == "seats-title"
