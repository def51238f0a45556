"""Fixtures of the browser tests: a private redis-server, ``meja serve`` in a subprocess, Chromium.

These tests run in their own pytest invocation (``pytest -p no:asyncio tests/browser``,
as ``make test`` does): sync Playwright runs its own event loop, which clashes with
pytest-asyncio's.

* Chromium is Debian's (``/usr/bin/chromium``, or ``MEJA_CHROMIUM``), driven by the
  pinned Python Playwright; no browser is downloaded. Each test gets fresh browser
  contexts (a fresh profile each: storage, cookies), so two contexts are two players.
* The server is the real one (``meja serve``) on a free port, on a real redis-server
  started here on another free port with no persistence, with short bot pauses so that
  a round is quick. One server serves the whole session.
* Every page is watched: a console error, an uncaught exception or a
  Content-Security-Policy violation fails the test that caused it.
* Screenshots of every screen the tests visit go to ``tests/browser/screenshots/`` (or
  ``MEJA_SCREENSHOTS``), each at 1280x800 and at 390x844 (``shot``); the repository's
  .gitignore leaves the folder out.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_helpers import TWO_FRAMES
from browser_server import QR_MISSING_OK, Server, private_redis

try:
    import playwright.sync_api as playwright_sync
except ImportError as exc:  # a clear message rather than a silent skip: CI must run these
    raise ImportError("tests/browser needs Playwright: pip install -e '.[test]' (playwright==1.65.2)") from exc

HERE = Path(__file__).resolve().parent
CHROMIUM = os.environ.get("MEJA_CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("MEJA_SCREENSHOTS", HERE / "screenshots"))
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="meja-browser-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url(workdir: Path) -> Iterator[str]:
    """A private redis-server on a free port, no persistence, stopped after the session."""
    with private_redis(workdir) as url:
        yield url


@pytest.fixture(scope="session")
def server(redis_url: str, workdir: Path) -> Iterator[Server]:
    srv = Server(redis_url, workdir)
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run tools/ensure-deps.sh (Debian's chromium package)")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


class PageProblems:
    """What went wrong in a page: console errors, uncaught exceptions, CSP violations."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def watch(self, page: Any) -> None:
        def on_console(msg: Any) -> None:
            # A failed load is reported by URL below; the console line does not name it.
            if msg.type == "error" and not msg.text.startswith("Failed to load resource"):
                self.problems.append(f"console error: {msg.text}")

        def on_response(response: Any) -> None:
            path = urlsplit(response.url).path
            if response.status >= 400 and not (response.status == 404 and path.startswith("/qr/") and QR_MISSING_OK):
                self.problems.append(f"HTTP {response.status} for {path}")

        page.on("console", on_console)
        page.on("response", on_response)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))


@pytest.fixture
def new_context(browser: Any) -> Iterator[Callable[..., Any]]:
    """``new_context(**options)``: a fresh browser context (a new player); pages in it are watched."""
    contexts: list[Any] = []
    problems = PageProblems()

    def make(**options: Any) -> Any:
        options.setdefault("locale", "en-US")
        options.setdefault("viewport", {"width": 1024, "height": 900})
        ctx = browser.new_context(**options)
        ctx.set_default_timeout(15_000)
        ctx.on("page", problems.watch)
        contexts.append(ctx)
        return ctx

    yield make
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()
    # Ignore the browser's own notes on resources the tests make fail on purpose.
    real = [p for p in problems.problems if "ERR_CONNECTION_REFUSED" not in p and "WebSocket connection" not in p]
    assert not real, "problems in the page:\n" + "\n".join(real)


#: The screen sizes every screenshot is taken at: a laptop, and a phone held upright.
SHOT_SIZES = ((1280, 800), (390, 844))


@pytest.fixture(scope="session")
def shot() -> Callable[[Any, str], list[Path]]:
    """``shot(page, "name")`` saves full-page screenshots of the screen as it is, at each of
    :data:`SHOT_SIZES`, as ``screenshots/name-1280x800.png`` and ``screenshots/name-390x844.png``;
    the page's own viewport is put back afterwards."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page: Any, name: str) -> list[Path]:
        original = page.viewport_size
        paths = []
        try:
            for width, height in SHOT_SIZES:
                page.set_viewport_size({"width": width, "height": height})
                path = SCREENSHOTS / f"{name}-{width}x{height}.png"
                page.screenshot(path=str(path), full_page=True)
                paths.append(path)
        finally:
            if original:
                page.set_viewport_size(original)
                # The page's media-query listeners (a log that folds on a phone) run at the next
                # rendering step: let two frames pass, so the test goes on with the page as it was
                # (at most a second: a CI run hung here for good when no frame came after a shot).
                page.evaluate(TWO_FRAMES)
        return paths

    return take
