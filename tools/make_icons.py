"""Draw the installable app's icons (server/meja/web/icons/): a white card with a felt-green
diamond on the table's green, as PNG at 192 and 512 pixels (what a phone's home screen asks
for; the whole square is drawn, so a launcher may cut it to a circle: "maskable") and the
same as SVG. Pure Python (zlib), no image library; run again after a change of colours:

    .venv/bin/python tools/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "server" / "meja" / "web" / "icons"
FELT = (0x14, 0x55, 0x3A)
CARD = (0xFF, 0xFF, 0xFF)
#: In a unit square: the card (inside the maskable safe zone, a circle of radius 0.4) and its corner radius.
CARD_BOX = (0.32, 0.2, 0.68, 0.8)
CARD_R = 0.05
#: The diamond on the card: centre and half-sizes.
DIAMOND = (0.5, 0.5, 0.12, 0.18)
SAMPLES = 4  # per axis, for smooth edges


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    x0, y0, x1, y1 = CARD_BOX
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return FELT
    # the card's rounded corners
    cx = min(max(x, x0 + CARD_R), x1 - CARD_R)
    cy = min(max(y, y0 + CARD_R), y1 - CARD_R)
    if (x - cx) ** 2 + (y - cy) ** 2 > CARD_R**2:
        return FELT
    dx, dy, hw, hh = DIAMOND
    if abs(x - dx) / hw + abs(y - dy) / hh <= 1:
        return FELT
    return CARD


def png(size: int) -> bytes:
    rows = []
    n = SAMPLES * SAMPLES
    for j in range(size):
        row = bytearray([0])  # filter: none
        for i in range(size):
            acc = [0, 0, 0]
            for sj in range(SAMPLES):
                for si in range(SAMPLES):
                    c = colour_at((i + (si + 0.5) / SAMPLES) / size, (j + (sj + 0.5) / SAMPLES) / size)
                    acc[0] += c[0]
                    acc[1] += c[1]
                    acc[2] += c[2]
            row += bytes(round(a / n) for a in acc)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def svg() -> str:
    x0, y0, x1, y1 = (v * 100 for v in CARD_BOX)
    dx, dy, hw, hh = (v * 100 for v in DIAMOND)
    felt = "#{:02x}{:02x}{:02x}".format(*FELT)
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{felt}"/>'
        f'<rect x="{x0:g}" y="{y0:g}" width="{x1 - x0:g}" height="{y1 - y0:g}" rx="{CARD_R * 100:g}" fill="#fff"/>'
        f'<path d="M{dx:g} {dy - hh:g}L{dx + hw:g} {dy:g}L{dx:g} {dy + hh:g}L{dx - hw:g} {dy:g}Z" fill="{felt}"/>'
        "</svg>\n"
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size))
    (OUT / "icon.svg").write_text(svg())


if __name__ == "__main__":
    main()
