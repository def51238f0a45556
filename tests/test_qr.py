"""The QR code of an invite link (server/meja/qr.py, over segno) and ``/qr/<CODE>.svg``.

The encoding itself is segno's (its own tests hold it to ISO/IEC 18004); what
is checked here is what Meja asks of it and makes of it:

* error correction level M or better, a regular QR code (not Micro), the text
  unchanged in the symbol's data (read back from segno's matrix when a decoder
  is installed);
* the SVG: standalone (its namespace, no XML declaration), a ``viewBox`` of the
  symbol plus a 4-module quiet zone on each side, black on white, the text as
  its escaped ``title``, and its dark modules exactly segno's matrix;
* the route: ``/qr/<CODE>.svg`` draws the invite link of the configured public
  origin, 404 for text that is not a room code;
* when ``zxingcpp`` and ``numpy`` are installed (not a project dependency), a
  decoder reads the text back from a picture of the symbol: for links of many
  lengths, and for the SVG the server serves.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from meja import qr

SVG = "{http://www.w3.org/2000/svg}"
LINK = "http://127.0.0.1:8000/?join=AB12CD"


def test_level_m_or_better_and_not_micro() -> None:
    code = qr.qr_code(LINK)
    assert code.error in ("M", "Q", "H") and not code.is_micro and code.mode == "byte"
    assert qr.qr_code("https://meja.example/?join=ABCDEF&x=" + "0" * 150).error in ("M", "Q", "H")


def dark_modules_of_svg(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """The viewBox size and the dark modules an SVG of segno's draws (its stroked runs)."""
    root = ET.fromstring(svg)
    size = int(root.get("viewBox", "").split()[2])
    dark: set[tuple[int, int]] = set()
    for path in root.iter(f"{SVG}path"):
        if path.get("stroke") != "#000":
            continue
        x = y = 0.0
        for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.get("d", "")):
            if op == "M":
                x, y = float(a), float(b)
            elif op == "m":
                x, y = x + float(a), y + float(b)
            else:  # a horizontal run of dark modules along y (the line's middle is y + 0.5)
                dark.update((int(x) + k, int(y - 0.5)) for k in range(int(float(a))))
                x += float(a)
    return size, dark


def test_svg_draws_exactly_the_dark_modules() -> None:
    code = qr.qr_code(LINK)
    svg = qr.qr_svg(LINK)
    assert svg.startswith("<svg ") and "<?xml" not in svg
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    size = len(code.matrix) + 2 * qr.QUIET_ZONE
    assert root.get("viewBox") == f"0 0 {size} {size}"
    assert root.find(f"{SVG}title").text == LINK  # type: ignore[union-attr]
    fills = [p.get("fill") for p in root.iter(f"{SVG}path") if p.get("fill")]
    assert fills == ["#fff"]  # a white background under the modules
    viewbox, drawn = dark_modules_of_svg(svg)
    matrix = {(x + 4, y + 4) for y, row in enumerate(code.matrix) for x, v in enumerate(row) if v}
    assert viewbox == size and drawn == matrix


def test_svg_escapes_the_title() -> None:
    svg = qr.qr_svg("a<b>&c")
    assert "<title>a&lt;b&gt;&amp;c</title>" in svg
    ET.fromstring(svg)


def read_back(code: Any) -> list[str]:
    """The texts a real decoder reads from a picture of ``code`` (skipped without one)."""
    zxingcpp = pytest.importorskip("zxingcpp")
    np = pytest.importorskip("numpy")
    scale, quiet = 4, qr.QUIET_ZONE
    size = (len(code.matrix) + 2 * quiet) * scale
    image = np.full((size, size), 255, dtype=np.uint8)
    for y, row in enumerate(code.matrix):
        for x, dark in enumerate(row):
            if dark:
                image[(y + quiet) * scale : (y + quiet + 1) * scale, (x + quiet) * scale : (x + quiet + 1) * scale] = 0
    return [r.text for r in zxingcpp.read_barcodes(image)]


@pytest.mark.parametrize("length", [5, 20, 40, 60, 80, 100, 120, 150, 170, 213])
def test_a_decoder_reads_it_back(length: int) -> None:
    text = ("https://meja.example/?join=ABCDEF&x=" + "0123456789" * 30)[:length]
    assert read_back(qr.qr_code(text)) == [text]


def _get(url: str) -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


async def test_the_route_draws_the_invite_link() -> None:
    import asyncio

    from meja.server.app import MejaServer
    from meja.server.settings import Settings

    async with MejaServer(Settings(port=0, public_origin="https://cards.example.org")) as server:
        base = f"http://127.0.0.1:{server.port}"
        status, kind, svg = await asyncio.to_thread(_get, f"{base}/qr/ab12cd.svg")
        assert (status, kind) == (200, "image/svg+xml")
        link = "https://cards.example.org/?join=AB12CD"  # canonical code, the public origin
        assert ET.fromstring(svg).find(f"{SVG}title").text == link  # type: ignore[union-attr]
        _, drawn = dark_modules_of_svg(svg)
        code = qr.qr_code(link)
        assert drawn == {(x + 4, y + 4) for y, row in enumerate(code.matrix) for x, v in enumerate(row) if v}
        status, _, _ = await asyncio.to_thread(_get, f"{base}/qr/not-a-code.svg")
        assert status == 404
    assert read_back(code) == [link]
