"""The connection's state (web/js/link.js), unit by unit, in Chromium (issue 22).

link.js is pure: a frozen start value and named transitions that each give the next value. The
module is imported into a page the test server serves (the browser loads it as the page does,
no build step) and each transition is checked on its own and in the sequence the App drives:
a resume that asked for the missed versions and lost its connection marks `sinceFailed`, so the
next resume asks for the state alone; a state clears it. No transition changes the value it
was given.

Cost: about 2 s.
"""

from __future__ import annotations

from typing import Any

CHECKS = """async () => {
    const { LINK_START, linkAfter } = await import('/js/link.js');
    const out = {};
    out.start = {...LINK_START};
    out.frozen = Object.isFrozen(LINK_START);
    const opened = linkAfter.welcome(LINK_START);
    out.welcome = opened;
    const asked = linkAfter.resumeSent(opened, 5, true);
    out.resumeSent = asked;
    out.lostAsking = linkAfter.lost(asked);
    const alone = linkAfter.resumeSent(opened, undefined, false);
    out.lostAlone = linkAfter.lost(alone);
    out.lostIdleSame = linkAfter.lost(opened) === opened;
    out.refused = linkAfter.resumeRefused(asked);
    out.state = linkAfter.state({...asked, sinceFailed: true});
    // The App's sequence: asked for versions, lost; asked for the state alone, lost again; a state.
    let link = linkAfter.welcome(LINK_START);
    link = linkAfter.lost(linkAfter.resumeSent(link, 12, true));
    out.seq1 = link.sinceFailed;
    link = linkAfter.lost(linkAfter.resumeSent(link, undefined, false));
    out.seq2 = link.sinceFailed;
    link = linkAfter.state(linkAfter.resumeSent(link, undefined, false));
    out.seq3 = link;
    out.untouched = JSON.stringify(asked);  // after every transition above took it
    return out;
}"""


def test_link_transitions(server: Any, new_context: Any) -> None:
    page = new_context().new_page()
    page.goto(server.origin + "/")
    got = page.evaluate(CHECKS)
    start = {"opened": False, "resuming": None, "catchingUp": False, "sinceFailed": False}
    assert got["start"] == start and got["frozen"] is True
    assert got["welcome"] == {**start, "opened": True}
    assert got["resumeSent"] == {"opened": True, "resuming": {"since": 5}, "catchingUp": True, "sinceFailed": False}
    # Lost while a resume for versions waited: the next asks for the state alone.
    assert got["lostAsking"] == {"opened": True, "resuming": None, "catchingUp": True, "sinceFailed": True}
    # Lost while a resume for the state alone waited: nothing failed that a retry should avoid.
    assert got["lostAlone"]["sinceFailed"] is False and got["lostAlone"]["resuming"] is None
    assert got["lostIdleSame"] is True  # nothing waited: the same value
    assert got["refused"] == {"opened": True, "resuming": {"since": 5}, "catchingUp": False, "sinceFailed": False}
    assert got["state"] == {"opened": True, "resuming": None, "catchingUp": False, "sinceFailed": False}
    assert got["seq1"] is True and got["seq2"] is True
    assert got["seq3"] == {"opened": True, "resuming": None, "catchingUp": False, "sinceFailed": False}
    assert got["untouched"] == '{"opened":true,"resuming":{"since":5},"catchingUp":true,"sinceFailed":false}'
