"""The service worker as the server writes it (meja.server.pwa): the shell's files and a version.

The version is a hash of the listed files, so a changed file of the page is a new worker with
a new cache name (an installed page is never stuck on an old version); the list holds the
shell's files only (no hidden file, no licence text, not the worker itself), each game's page
files under /games/<name>/.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from meja.server.pwa import service_worker

WEB = Path(__file__).resolve().parents[2] / "server" / "meja" / "web"


def written(root: Path, games: dict[str, Path]) -> tuple[str, list[str]]:
    worker = service_worker(root, games)
    assert worker is not None
    body = worker.decode()
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', body)
    shell = re.search(r"const SHELL = (\[.*?\]);", body)
    assert version and shell, body[:400]
    return version.group(1), json.loads(shell.group(1))


def test_the_list_is_the_shell_and_the_version_follows_the_files(tmp_path: Path) -> None:
    root = tmp_path / "web"
    (root / "js").mkdir(parents=True)
    (root / "vendor").mkdir()
    shutil.copy(WEB / "sw.js", root / "sw.js")
    (root / "index.html").write_text("<!doctype html>")
    (root / "style.css").write_text("body {}")
    (root / "js" / "app.js").write_text("export const a = 1;")
    (root / "vendor" / "LICENSE").write_text("licence")
    (root / ".hidden.js").write_text("secret")
    game = tmp_path / "game"
    game.mkdir()
    (game / "page.js").write_text("export {};")

    version, shell = written(root, {"cards": game})
    assert shell == ["/", "/js/app.js", "/style.css", "/games/cards/page.js"]
    assert written(root, {"cards": game})[0] == version  # the same files, the same worker

    (root / "js" / "app.js").write_text("export const a = 2;")
    changed, _ = written(root, {"cards": game})
    assert changed != version
    (game / "page.js").write_text("export const b = 1;")
    assert written(root, {"cards": game})[0] != changed
    (root / "sw.js").unlink()
    assert service_worker(root, {}) is None  # an operator's own web root without a worker: none served
