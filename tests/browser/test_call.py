"""The video call in the room (PROTOCOL.md 16.5; server/meja/web/js/call.js), with real browsers.

Three people at one table, two of them on a second ``meja serve`` sharing the same Redis, join
the call with Chromium's fake camera and microphone. Each page must show the other two tiles
with frames arriving (the video has a size and ``getStats()``'s framesDecoded grows), sound
arriving (inbound audio packets grow), the microphone muted and the camera turned off by one
reaching the others, the call in the lobby and during play (the tiles move to the seats' boxes
and keep playing), one person leaving and coming back (a new call id: a new connection), and
one reloading mid-call (the page joins again by itself). Then the same with relays only: the
host's "hide addresses" option, coturn as the only ICE server (time-limited credentials from
the shared secret), and the selected candidate pair relayed on both ends.

Everything runs in a network namespace of its own with loopback alone (call_netns.py): WebRTC
offers a host candidate for each address of the machine, and here the only ones are loopback.

Cost: about 40 s.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import assert_clean_in_every_language, host_table
from call_netns import NetNS, netns, unavailable
from conftest import CHROMIUM, LAUNCH_ARGS, PageProblems
from kt_helpers import join

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=f"no network namespace for the call: {unavailable()}")

MEDIA_ARGS = [
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    "--allow-loopback-in-peer-connection",
    # A reload joins the call again without a click: its sound may play then (a person's first
    # click does the same in real life).
    "--autoplay-policy=no-user-gesture-required",
]
TURN_PORT = 3478
RELAY_PORTS = (49160, 49220)
SECRET = "meja-test-turn-secret"

#: Per other person in the call: what arrives from them, and over which candidate pair.
STATS = """async () => {
  const out = {};
  for (const [seat, peer] of window.meja.call.peers) {
    const stats = await peer.pc.getStats();
    let frames = 0, audio = 0, pair = null;
    stats.forEach((r) => {
      if (r.type === 'inbound-rtp' && r.kind === 'video') frames += r.framesDecoded || 0;
      if (r.type === 'inbound-rtp' && r.kind === 'audio') audio += r.packetsReceived || 0;
      if (r.type === 'transport' && r.selectedCandidatePairId) {
        const p = stats.get(r.selectedCandidatePairId);
        const l = p && stats.get(p.localCandidateId), rc = p && stats.get(p.remoteCandidateId);
        if (l && rc) pair = { local: l.candidateType, remote: rc.candidateType, address: l.address || l.ip };
      }
    });
    const live = peer.stream.getAudioTracks().filter((t) => t.readyState === 'live').length;
    out[seat] = { id: peer.id, state: peer.pc.connectionState, frames, audio, live, pair,
                  width: peer.video.videoWidth, height: peer.video.videoHeight };
  }
  return out;
}"""


class Stack:
    def __init__(self, ns: NetNS, origins: tuple[str, str], browser: Any) -> None:
        self.ns = ns
        self.one, self.two = origins
        self.browser = browser


@pytest.fixture(scope="module")
def stack(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """coturn, redis-server, two ``meja serve`` and a Chromium, all in a loopback-only namespace."""
    workdir: Path = tmp_path_factory.mktemp("call")
    with netns(workdir) as ns:
        ns.turn(TURN_PORT, SECRET, RELAY_PORTS)
        redis = ns.redis(6399)
        env = {"MEJA_ICE_SERVERS": f"turn:127.0.0.1:{TURN_PORT}?transport=udp", "MEJA_TURN_SECRET": SECRET}
        origins = (ns.meja(8101, redis, env), ns.meja(8102, redis, env))
        # The session's Playwright launches a second Chromium: this one inside the namespace.
        inside = browser.browser_type.launch(
            executable_path=ns.chromium(CHROMIUM), headless=True, args=[*LAUNCH_ARGS, *MEDIA_ARGS]
        )
        try:
            yield Stack(ns, origins, inside)
        finally:
            inside.close()


@pytest.fixture
def person(stack: Stack) -> Iterator[Any]:
    """``person()``: a new page in a context of its own (a person) in the namespace's Chromium; watched."""
    contexts: list[Any] = []
    problems = PageProblems()

    def make() -> Any:
        ctx = stack.browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
        ctx.grant_permissions(["camera", "microphone"])
        ctx.set_default_timeout(20_000)
        ctx.on("page", problems.watch)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()
    assert not problems.problems, "problems in the page:\n" + "\n".join(problems.problems)


def host_relayed(page: Any, origin: str, name: str) -> str:
    """Host a table whose call goes through the relay only (the host form's talk option)."""
    page.goto(origin + "/")
    page.fill("#name", name)
    page.click("#more-options > summary")
    page.check("#host-talk-relay")
    page.click("#host")
    page.wait_for_selector("#room-code")
    return "".join(page.inner_text("#room-code").split())


#: Each seat's box with a call tile: whether its name and its count show whole, and clear of the tile.
SEAT_TEXT = """() => [...document.querySelectorAll('.seat-box')]
  .filter((b) => b.querySelector('.call-tile')).map((box) => {
    const tile = box.querySelector('.call-tile').getBoundingClientRect();
    const out = {seat: box.dataset.seat};
    for (const part of ['seat-who', 'opp-count']) {
        const node = box.querySelector('.' + part);
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        const covered = r.left < tile.right && r.right > tile.left && r.top < tile.bottom && r.bottom > tile.top;
        const line = node.closest('p');
        out[part] = {text: node.textContent, cut: line.scrollWidth > line.clientWidth, covered};
    }
    return out;
})"""


def stats(page: Any) -> dict[str, dict[str, Any]]:
    return page.evaluate(STATS)  # type: ignore[no-any-return]


def wait_media(page: Any, seats: list[int], timeout_s: float = 30.0) -> dict[str, dict[str, Any]]:
    """Wait until video frames and sound keep arriving from each of ``seats``; their stats then."""
    deadline = time.monotonic() + timeout_s
    before: dict[str, dict[str, Any]] | None = None
    while True:
        now = stats(page)
        ready = all(
            now.get(str(s), {}).get("state") == "connected" and now[str(s)]["width"] > 0 and now[str(s)]["live"] > 0
            for s in seats
        )
        if ready and before is not None and all(
            now[str(s)]["frames"] > before[str(s)]["frames"] and now[str(s)]["audio"] > before[str(s)]["audio"]
            for s in seats
        ):
            return now
        before = now if ready else None
        assert time.monotonic() < deadline, f"no media from seats {seats}: {now}"
        time.sleep(0.7)


def tile(page: Any, seat: int) -> str:
    return f'.call-tile[data-seat="{seat}"]'


def test_three_people_in_a_call_across_two_servers(stack: Stack, person: Any, shot: Any) -> None:
    ani, budi, cici = person(), person(), person()
    code = host_table(ani, stack.one, name="Ani", seats=3)
    join(budi, stack.two, code, "Budi")  # the second process
    join(cici, stack.one, code, "Cici")
    for page in (ani, budi, cici):
        page.click("#call-join")
        page.wait_for_function("() => !!window.meja.call.me")
    # The ICE servers are the operator's alone (here the test's coturn): no public STUN server.
    servers = ani.evaluate("() => window.meja.call.me.servers")
    assert servers and all(u.startswith("turn:127.0.0.1:") for s in servers for u in s["urls"]), servers
    assert servers[0]["username"] and servers[0]["credential"]

    # In the lobby: everyone sees and hears the two others, at their seats' rows.
    for page, others in ((ani, [1, 2]), (budi, [0, 2]), (cici, [0, 1])):
        got = wait_media(page, others)
        for s in others:
            assert page.locator(f'li.seat[data-seat="{s}"] {tile(page, s)}.video video').count() == 1
            # Loopback only, and not relayed: the host's relay option is off.
            assert got[str(s)]["pair"]["local"] == "host", got
            assert got[str(s)]["pair"]["address"] in ("127.0.0.1", "::1"), got
    ani.wait_for_function("() => document.getElementById('call-roster').textContent.includes('Budi')")

    # Ani mutes her microphone and turns her camera off: both reach the others.
    ani.click("#call-mic")
    for page in (budi, cici):
        page.wait_for_selector(f"{tile(page, 0)} .mic-off")
        assert "Ani (microphone off)" in page.inner_text("#call-roster")
    assert ani.inner_text("#call-mic") == "Unmute"
    ani.click("#call-cam")
    for page in (budi, cici):
        page.wait_for_selector(f"{tile(page, 0)}:not(.video) .cam-off")
        assert page.locator(f"{tile(page, 0)} video").count() == 0
    ani.click("#call-mic")
    ani.click("#call-cam")
    budi.wait_for_selector(f"{tile(budi, 0)}.video video")
    budi.wait_for_function("() => window.meja.call.roster.find((p) => p.seat === 0).mic === true")

    # During play the tiles sit in the seats' boxes and keep playing.
    ani.click("#start")
    for page, others in ((ani, [1, 2]), (budi, [0, 2]), (cici, [0, 1])):
        page.wait_for_selector("#felt")
        for s in others:
            page.wait_for_selector(f'.seat-box[data-seat="{s}"] {tile(page, s)}.video video')
        wait_media(page, others)
    shot(budi, "call-table")
    # A phone (390 px) in the call during a round: the other seats' names and counts whole,
    # beside the tiles (a tile took half of each box: "A…", "7 card").
    budi.set_viewport_size({"width": 390, "height": 844})
    boxes = budi.evaluate(SEAT_TEXT)
    assert len(boxes) == 2, boxes
    for box in boxes:
        for part in ("seat-who", "opp-count"):
            assert not box[part]["cut"] and not box[part]["covered"], boxes
    budi.set_viewport_size({"width": 1280, "height": 800})
    # Labelled and readable with the call open (tiles, buttons, the roster), in every language.
    assert_clean_in_every_language(budi, "table in a call")

    # Someone speaks (the fake microphone beeps): the others see it in the roster.
    ani.wait_for_function("() => window.meja.call.roster.some((p) => p.seat !== 0 && p.speaking)", timeout=15_000)

    # Cici leaves the call, and comes back: a new call id, a new connection.
    old = stats(ani)["2"]["id"]
    cici.click("#call-leave")
    ani.wait_for_function("() => !window.meja.call.peers.has(2)")
    ani.wait_for_selector(tile(ani, 2), state="detached")
    assert cici.evaluate("() => window.meja.call.peers.size") == 0
    cici.click("#call-join")
    got = wait_media(ani, [1, 2])
    assert got["2"]["id"] != old
    wait_media(cici, [0, 1])

    # Budi reloads mid-call: the page joins the call again by itself, and the media flows again.
    old = stats(ani)["1"]["id"]
    budi.reload()
    budi.wait_for_selector("#felt")
    wait_media(budi, [0, 2], timeout_s=40)
    assert wait_media(ani, [1, 2])["1"]["id"] != old
    wait_media(cici, [0, 1])


def test_a_relayed_call_uses_the_turn_server_only(stack: Stack, person: Any) -> None:
    ani, budi, cici = person(), person(), person()
    code = host_relayed(ani, stack.one, "Ani")
    join(budi, stack.two, code, "Budi")
    join(cici, stack.two, code, "Cici")
    assert ani.evaluate("() => window.meja.table.talk.relay") is True
    # The higher seats first: the lower seat offers, so each one's offers go out on the first
    # roster that names it, which comes after its `ice` (PROTOCOL.md 16.5).
    for page in (cici, budi, ani):
        page.click("#call-join")
        page.wait_for_function("() => !!window.meja.call.me")
    assert ani.evaluate("() => window.meja.call.me.relay") is True
    for page, others in ((ani, [1, 2]), (budi, [0, 2]), (cici, [0, 1])):
        got = wait_media(page, others)
        for s in others:
            pair = got[str(s)]["pair"]
            assert pair["local"] == "relay" and pair["remote"] == "relay", got
            assert pair["address"] == "127.0.0.1", got
