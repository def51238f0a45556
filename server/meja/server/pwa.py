"""The installable page (a web app): the service worker, as the server serves it at ``/sw.js``.

``web/sw.js`` is a template: the server writes into it the list of the page shell's files
(``web/`` and each game's page folder: HTML, scripts, style sheets, icons, the manifest) and
a version, a hash of those files' contents. A service worker is updated when its script
changes by a byte, so a new version of any shell file is a new worker with a new cache
name, and the old cache is deleted when it activates: an installed page is never stuck on
an old version. Nothing but these files is listed, so nothing else is kept: no table data
(that travels on the websocket), no QR code, no ``/tv/...`` state.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Final

#: What a shell file is, by its name's ending.
SHELL_SUFFIXES: Final = frozenset({".html", ".js", ".mjs", ".css", ".svg", ".png", ".webmanifest"})
WORKER: Final = "sw.js"


def _files(root: Path) -> Iterator[tuple[str, Path]]:
    """(path under ``root`` with "/" separators, file) for each shell file, in name order."""
    for file in sorted(root.rglob("*")):
        rel = file.relative_to(root)
        hidden = any(part.startswith(".") for part in rel.parts)
        if not file.is_file() or hidden or file.suffix.lower() not in SHELL_SUFFIXES:
            continue
        yield rel.as_posix(), file


def shell_files(web_root: Path, game_pages: Mapping[str, Path]) -> list[tuple[str, Path]]:
    """The page shell as URL paths and files: ``/`` for index.html, every other file of
    ``web_root`` at its path (the worker itself left out), each game's page files at
    ``/games/<name>/...``."""
    found: list[tuple[str, Path]] = []
    for rel, file in _files(web_root):
        if rel == WORKER:
            continue
        found.append(("/" if rel == "index.html" else "/" + rel, file))
    for name in sorted(game_pages):
        found.extend((f"/games/{name}/{rel}", file) for rel, file in _files(game_pages[name]))
    return found


def service_worker(web_root: Path, game_pages: Mapping[str, Path]) -> bytes | None:
    """``web_root/sw.js`` with its shell list and version written in (None: a web root without one)."""
    if not (web_root / WORKER).is_file():
        return None
    files = shell_files(web_root, game_pages)
    digest = hashlib.sha256()
    for path, file in files:
        data = file.read_bytes()
        digest.update(f"{path}\0{len(data)}\0".encode())
        digest.update(data)
    template = (web_root / WORKER).read_text(encoding="utf-8")
    body = template.replace("__MEJA_VERSION__", digest.hexdigest()[:16]).replace(
        "__MEJA_SHELL__", json.dumps([path for path, _ in files])
    )
    return body.encode()
