"""The table's sounds (issue 20, point 6): made in the page, each moment its own, on and off.

A player at a Kartu Terakhir table against a bot, and the shared screen (`/tv/<code>`) beside
it. An init script counts the audio nodes each page starts (``createOscillator`` and
``createBufferSource`` of every AudioContext), and the sound module keeps the names of the
moments it sounded:

* the player's page (sound on by default; the Start click is the touch browsers ask for)
  sounds the new deal, its turn, a card played, a card drawn and a Last card call;
* the shared screen is silent by default: no audio node at all while the round is played,
  until its control is switched on; then the end of the round sounds (a round won);
* switched off, the player's page starts no audio node while the round goes on; the
  choice (and the volume) are remembered in localStorage;
* each playable card's ring stands apart from its coloured edge and from the hand (Kartu
  Terakhir's cards have an edge of their colour: the shell's blue ring was lost on blue);
* the shared screen showed "Last card!" on the seat of each seat that called (Kartu
  Terakhir's page module, through the frame's seat `badge`).

Cost: one round of two seats (about 20 s).
"""

from __future__ import annotations

import time
from typing import Any

from browser_helpers import version, wait_version_after
from kt_helpers import host_kt, pick_play, play_card, view

COUNT_NODES = """(() => {
    window.__audioNodes = 0;
    for (const Ctx of [window.AudioContext, window.webkitAudioContext]) {
        if (!Ctx) continue;
        for (const name of ['createOscillator', 'createBufferSource']) {
            const real = Ctx.prototype[name];
            Ctx.prototype[name] = function (...args) { window.__audioNodes += 1; return real.apply(this, args); };
        }
    }
})();"""

#: The shared screen's seat badges as they come and go: "seat:words" of each one ever drawn.
RECORD_BADGES = """(() => {
    window.__badges = [];
    new MutationObserver(() => {
        for (const b of document.querySelectorAll('.seat-box .seat-badge')) {
            const key = b.closest('.seat-box').dataset.seat + ':' + b.textContent;
            if (!window.__badges.includes(key)) window.__badges.push(key);
        }
    }).observe(document, {childList: true, subtree: true});
})();"""

OVER = ("round_over", "match_over")

#: Each playable card's ring (issue 20, point 13): wide enough, its outer ring apart from the
#: hand's white, and one of its rings apart from the card's coloured edge (contrast 3:1). The
#: problems found; None while no card is playable.
RING_PROBLEMS = """() => {
    const lum = (c) => {
        const v = c.match(/[\\d.]+/g).slice(0, 3).map((x) => Number(x) / 255)
            .map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4));
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
    };
    const contrast = (a, b) => {
        const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
        return (x + 0.05) / (y + 0.05);
    };
    const cards = Array.from(document.querySelectorAll('#hand button.card.playable'));
    if (!cards.length) return null;
    const paper = getComputedStyle(document.getElementById('my-area')).backgroundColor;
    const problems = [];
    for (const b of cards) {
        const cs = getComputedStyle(b);
        const rings = [...cs.boxShadow.matchAll(/(rgba?\\([^)]*\\)) 0px 0px 0px ([\\d.]+)px/g)]
            .map((m) => [m[1], parseFloat(m[2])]).sort((p, q) => p[1] - q[1]);
        const outer = rings[rings.length - 1];
        if (!outer || outer[1] < 5) problems.push(b.dataset.card + ': ring too thin ' + cs.boxShadow);
        else if (contrast(outer[0], paper) < 3) problems.push(b.dataset.card + ': ring lost on the hand');
        else if (Math.max(...rings.map((r) => contrast(r[0], cs.borderTopColor))) < 3)
            problems.push(b.dataset.card + ': ring lost on its edge ' + cs.borderTopColor);
    }
    return problems;
}"""


def nodes(page: Any) -> int:
    return int(page.evaluate("() => window.__audioNodes"))


def played(page: Any) -> set[str]:
    """The moments the page has sounded (each counted by the sound module)."""
    return set(page.evaluate("() => Object.keys(window.meja.sound.counts)"))


def step(page: Any, drew: list[bool]) -> bool:
    """One move of the player when the page offers one (Last card first, a draw once, else a
    play, else keep, draw or pass): whether it moved."""
    v = view(page)
    if not v or v["phase"] != "play":
        return False
    me = page.evaluate("() => window.meja.seat")
    kinds = [a["kind"] for a in v["legal"]]
    before = version(page)
    calling = v.get("window") == me or (v["turn"] == me and len(v["hand"]) == 2 and "play" in kinds)
    if "call" in kinds and calling and page.is_visible("#call"):
        page.click("#call")
        page.wait_for_function("v => window.meja.version > v", arg=before)
        return True
    if v["turn"] != me:
        return False
    if v.get("pending") and "take" in kinds:
        page.click("#take")
    elif not drew[0] and "draw" in kinds:
        drew[0] = True
        page.click("#draw")
    elif (action := pick_play(v)) and (not v["drew"] or action["card"] == v["drawn"]):
        play_card(page, action, keyboard=False, before=before)
        return True
    else:
        kind = next(k for k in ("keep", "draw", "pass") if k in kinds)
        page.click(f"#{kind}")
    wait_version_after(page, before)
    return True


def test_each_moment_sounds_while_on_and_none_while_off(new_context: Any, server: Any) -> None:
    ana_ctx = new_context(viewport={"width": 1280, "height": 800})
    ana_ctx.add_init_script(COUNT_NODES)
    ana = ana_ctx.new_page()
    room = host_kt(ana, server.origin, name="Ana", seats=2)
    tv_ctx = new_context(viewport={"width": 1280, "height": 720})
    tv_ctx.add_init_script(COUNT_NODES)
    tv_ctx.add_init_script(RECORD_BADGES)
    tv = tv_ctx.new_page()
    tv.goto(f"{server.origin}/tv/{room.lower()}")
    tv.wait_for_selector("#room-code")

    ana.click("#start")
    ana.wait_for_selector("#hand button.card")
    # The player's page: on by default, its control says so.
    assert ana.get_attribute("#sound-button", "aria-pressed") == "true"
    assert ana.is_visible("#sound-volume")
    ana.wait_for_function("() => !!window.meja.sound.counts.shuffle")
    # A move, a draw, a call and the turn (the bot plays uniformly at random: the round goes on
    # until the player has been heard doing each, or ends).
    drew = [False]
    deadline = time.monotonic() + 120
    want = {"shuffle", "turn", "play", "draw", "call"}
    rings_seen = 0
    while not want <= played(ana) and time.monotonic() < deadline:
        if (view(ana) or {}).get("phase") in OVER:
            break
        problems = ana.evaluate(RING_PROBLEMS)
        if problems is not None:
            assert problems == [], problems
            rings_seen += 1
        if not step(ana, drew):
            ana.wait_for_timeout(30)
    assert rings_seen, "no playable card was seen"
    heard = played(ana)
    assert want <= heard, f"missing moments: {want - heard}"
    sounded = ana.evaluate("() => Object.values(window.meja.sound.counts).reduce((a, b) => a + b, 0)")
    assert nodes(ana) >= sounded, "each moment starts audio nodes"

    # The shared screen: silent by default, not one audio node so far; its control says so.
    tv.wait_for_selector("#sound-button")
    assert tv.get_attribute("#sound-button", "aria-pressed") == "false"
    assert nodes(tv) == 0 and played(tv) == set()
    tv.click("#sound-button")
    assert tv.get_attribute("#sound-button", "aria-pressed") == "true"
    assert tv.evaluate("() => localStorage.getItem('meja.sound.tv')") == "on"
    # The player sets the volume, then switches the sound off: nothing sounds from then on.
    ana.fill("#sound-volume", "30")
    assert ana.evaluate("() => localStorage.getItem('meja.sound.volume')") == "0.3"
    ana.click("#sound-button")
    assert ana.get_attribute("#sound-button", "aria-pressed") == "false"
    assert not ana.is_visible("#sound-volume")
    assert ana.evaluate("() => localStorage.getItem('meja.sound')") == "off"
    silent_from = nodes(ana)
    moves_off = 0
    deadline = time.monotonic() + 180
    while (view(ana) or {}).get("phase") not in OVER and time.monotonic() < deadline:
        if step(ana, [True]):
            moves_off += 1
        else:
            ana.wait_for_timeout(30)
    assert (view(ana) or {}).get("phase") in OVER, "the round did not end"
    tv.wait_for_selector("#summary:not([hidden])")
    # The shared screen heard the round's end; the player's page, off, started no audio node.
    tv.wait_for_function("() => !!window.meja.sound.counts.win")
    assert nodes(tv) > 0
    assert nodes(ana) == silent_from, "audio nodes started while the sound was off"

    # "Last card!" stood on the seat of each seat that called, on the shared screen (issue 20,
    # point 3): not only in the caption; no other seat wore it.
    callers = set(ana.evaluate("() => window.meja.logEvents.filter(e => e.kind === 'call').map(e => e.seat)"))
    assert callers, "nobody called Last card"
    badges = set(tv.evaluate("() => window.__badges"))
    assert badges == {f"{seat}:Last card!" for seat in callers}, (badges, callers)


def test_a_reopened_table_makes_no_audio_until_it_is_touched(new_context: Any, server: Any) -> None:
    """A new user's trial (2026-12-07): a tab opened again on a table sounded its first update
    with an audio context made before any touch, which the browser may not start (it says so
    in the console). The page now makes its audio on the first touch, and sounds after it."""
    ctx = new_context(viewport={"width": 1280, "height": 800})
    ana = ctx.new_page()
    host_kt(ana, server.origin, name="Ana", seats=3)
    ana.click("#start")
    ana.wait_for_selector("#hand button.card")
    address = ana.url
    ana.close()

    again = ctx.new_page()
    warnings: list[str] = []
    again.on("console", lambda m: warnings.append(m.text) if "AudioContext" in m.text else None)
    again.goto(address)
    again.wait_for_selector("#hand button.card")
    # Updates come while nobody touches the page, each one a moment to sound: the bots' moves, and
    # on Ana's turn her move sent by the page's own function (no pointer or key event: nothing a
    # browser counts as a touch of the page; a fresh-clone run waited on Ana's turn for nothing).
    me = again.evaluate("() => window.meja.seat")
    for _ in range(3):
        before = version(again)
        v = view(again)
        if v["phase"] == "play" and v["turn"] == me and v["legal"]:
            again.evaluate("a => window.meja.act(a)", pick_play(v) or v["legal"][0])
        wait_version_after(again, before)
    assert again.get_attribute("#sound-button", "aria-pressed") == "true"
    assert again.evaluate("() => window.meja.sound.audio") is None
    assert warnings == []
    # The first touch makes it, and it runs.
    again.mouse.click(5, 400)
    again.wait_for_function("() => window.meja.sound.audio && window.meja.sound.audio.state === 'running'")
    assert warnings == []
