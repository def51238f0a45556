"""The QR encoder behind the lobby's invite code (server/meja/qr.py).

What is checked, without trusting the encoder itself:

* the 15 format bits and 18 version bits against the tables printed in
  ISO/IEC 18004 (annex C table C.1, annex D table D.1);
* byte-mode capacities at level M against 18004 table 7;
* whole symbols (every module) against reference matrices made by an
  independent encoder (python-qrcode 8.2, byte mode, level M, the same version
  and mask; also read back with zxing-cpp when they were made): one symbol per
  structure that matters: version 1 (no alignment pattern), version 3 (one
  alignment pattern, an invite link) and version 7 (six alignment patterns and
  the version information blocks);
* the SVG draws exactly the dark modules, inside a 4-module quiet zone;
* when ``zxingcpp`` and ``numpy`` are installed (not a project dependency), a
  decoder reads back the text of symbols of every version 1-10.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from meja import qr

# 18004 table C.1, error correction level M, masks 0..7 (bit 14 first).
FORMAT_M = (
    "101010000010010",
    "101000100100101",
    "101111001111100",
    "101101101001011",
    "100010111111001",
    "100000011001110",
    "100111110010111",
    "100101010100000",
)
# 18004 table D.1, versions 7..10.
VERSION_INFO = {7: 0x07C94, 8: 0x085BC, 9: 0x09A99, 10: 0x0A4D3}
# 18004 table 7, byte mode, level M, versions 1..10.
CAPACITY_M = (14, 26, 42, 62, 84, 106, 122, 152, 180, 213)

# 'HELLO' -- version 1, mask 4
HELLO_V1_MASK4 = (
    "#######.##.#..#######",
    "#.....#..##.#.#.....#",
    "#.###.#..####.#.###.#",
    "#.###.#.#..#..#.###.#",
    "#.###.#.#...#.#.###.#",
    "#.....#.#.##..#.....#",
    "#######.#.#.#.#######",
    "........#####........",
    "#...#.######.#####..#",
    "...###..#.###..#.####",
    "#.##..#.#.##..###..#.",
    "###..#...#...##.#....",
    "..#.###..#..###...##.",
    "........###.###..#.##",
    "#######.##..##...#.#.",
    "#.....#....##..#...#.",
    "#.###.#.#..#..###.#.#",
    "#.###.#....##....#.##",
    "#.###.#..###..####...",
    "#.....#..#...##......",
    "#######.#...#####.#.#",
)

# 'http://127.0.0.1:8000/?join=AB12CD' -- version 3, mask 2
LINK_V3_MASK2 = (
    "#######..#######.#.#..#######",
    "#.....#...#..#####..#.#.....#",
    "#.###.#.##...#.#...##.#.###.#",
    "#.###.#.###...##.#.#..#.###.#",
    "#.###.#.#..##..#####..#.###.#",
    "#.....#.##..#....##...#.....#",
    "#######.#.#.#.#.#.#.#.#######",
    "........#.#...#.#.#..........",
    "#.#####..##.#....#..#.#####..",
    "...##...#.#..###.###.##.#...#",
    "#..#.###...#.###.#....#.#....",
    "#..#.#..#..###.##....##.#..#.",
    ".#..#.####....##.#..##.#.##..",
    "###.#..#.#.....#####..#.#.#.#",
    ".....##.#..#...##.#..#....#..",
    "..###..#..#.#.#......#.#...#.",
    "......##.##....#.#..##....#..",
    "#...##...#...#######.##.###.#",
    "#.###.##....####.#....##.##..",
    "#.####....##.#....#..####..#.",
    "#.##..####.#..###########.###",
    "........#.###....#.##...#####",
    "#######...#....##..##.#.###..",
    "#.....#.##..#.##....#...#..##",
    "#.###.#.#.#....##...########.",
    "#.###.#.##.##.#...#.##.#...##",
    "#.###.#.#...##.#..#.#.#.##.#.",
    "#.....#......#.....###.....#.",
    "#######.###..#.#........###..",
)

# LONG_TEXT -- version 7, mask 5
LONG_V7_MASK5 = (
    "#######....####.##..####..##..#.##..#.#######",
    "#.....#.##.##.##.#.#.#..#.####.#.#.#..#.....#",
    "#.###.#.##.#.#.........#.#####...#.#..#.###.#",
    "#.###.#.##..##..###...###..##..###.##.#.###.#",
    "#.###.#...#....#...########..###..###.#.###.#",
    "#.....#..#..#.#...#.#...#.............#.....#",
    "#######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######",
    "........#.##.#.#.####...##..#.#.###.#........",
    "#.....#.###.####..########...###....###..###.",
    "#.###..#..#.#..#.###..#.#.#.###..####.##.###.",
    "#.#.####...#####.......#..#.#.##########.#.#.",
    "###....###..#...######...###..#.#...#.#..##..",
    "#.###.###.##...##.##.#...#.##.#.#.##.##.####.",
    "###..#...####.#.#..##...##.#.###.#.###.#.#..#",
    "#.###.##.#.#..#.##..#..##.##.....##....#...#.",
    "##..#..#..###.#....##.###.#.......##..#..##..",
    "..#######....##.####....##....##.....#.....##",
    "#...#...###....#.....##..#.#.##.##.###..#.#.#",
    ".#.####..######.#####...######...#...##...#.#",
    ".###...##...##.#####..........#.####...#.###.",
    "#..#######..#..#.#########...###.##.#####.#..",
    "##.##...##.#....#.#.#...#.#####..##.#...####.",
    ".#.##.#.######.###..#.#.##.#..#######.#.#.#..",
    "#####...#.#.#..#....#...###.#.#.##..#...####.",
    "....######.###.....#######..#.#.#.#.#####....",
    "..#.##.##.#.#####.######.#...###.#..##.#....#",
    "....#.##.#.##..#.....#....##.....##.##...#.#.",
    ".#####.###....#...#######.#.##..##.#....#.###",
    "..#...#.###...##.#.##....#..#..#....#.#.##.##",
    "##..##.#.....#..###...#.##..####.#.#..##..#.#",
    "###..####.#......###....###..#...#..#####.#.#",
    "..####..#.####..#.#...#.#.....#.####..#..###.",
    ".#.#.###.##########....###...##..##.#####.#..",
    "...#.#..#...#..###......############.####.#.#",
    "....#.#######...###.#.#...##.....##.#..#####.",
    ".####..#.#...##..#....#####.#.#.#..##.######.",
    "#..##.##.####.#..#########..#.#.#.########.##",
    "........##...#...##.#...###.####.#.##...#####",
    "#######....#..#######.#.#...#....#.##.#.#.#..",
    "#.....#..#.####...###...##.#.#..#..##...###..",
    "#.###.#...#....#.##.#######....#.#########.##",
    "#.###.#..####.......###..#.#.###.#......#.#.#",
    "#.###.#..#..##.####..##......#.###..#.#.#...#",
    "#.....#....##.#..#..###.......####...#.#.##..",
    "#######.###....##.##..####.#.##....#..##.###.",
)

LONG_TEXT = "https://meja.example.org/?join=7K3QXM&name=" + "Ana" * 22


@pytest.mark.parametrize("mask", range(8))
def test_format_bits_match_the_standard_table(mask: int) -> None:
    assert qr.format_bits(mask) == int(FORMAT_M[mask], 2)


@pytest.mark.parametrize(("version", "bits"), sorted(VERSION_INFO.items()))
def test_version_bits_match_the_standard_table(version: int, bits: int) -> None:
    assert qr.version_bits(version) == bits


@pytest.mark.parametrize("version", range(1, 11))
def test_byte_capacity_at_level_m(version: int) -> None:
    cap = CAPACITY_M[version - 1]
    assert qr.encode("x" * cap).version == version
    if version < 10:
        assert qr.encode("x" * (cap + 1)).version == version + 1


def test_text_longer_than_version_10_is_refused() -> None:
    qr.encode("x" * 213)
    with pytest.raises(ValueError, match="does not fit"):
        qr.encode("x" * 214)


@pytest.mark.parametrize(
    ("text", "version", "mask", "rows"),
    [
        ("HELLO", 1, 4, HELLO_V1_MASK4),
        ("http://127.0.0.1:8000/?join=AB12CD", 3, 2, LINK_V3_MASK2),
        (LONG_TEXT, 7, 5, LONG_V7_MASK5),
    ],
)
def test_symbol_matches_reference(text: str, version: int, mask: int, rows: tuple[str, ...]) -> None:
    code = qr.encode(text, mask=mask)
    assert code.version == version
    assert code.rows() == list(rows)


def test_format_bits_are_drawn_in_both_copies() -> None:
    code = qr.encode("HELLO", mask=4)
    m, n = code.modules, code.size
    bits = [int(c) for c in reversed(FORMAT_M[4])]  # bit 0 first
    copy1 = [m[i][8] for i in range(6)] + [m[7][8], m[8][8], m[8][7]] + [m[8][14 - i] for i in range(9, 15)]
    copy2 = [m[8][n - 1 - i] for i in range(8)] + [m[n - 15 + i][8] for i in range(8, 15)]
    assert [int(b) for b in copy1] == bits
    assert [int(b) for b in copy2] == bits
    assert m[n - 8][8]  # the dark module


def test_the_best_mask_is_chosen_by_penalty() -> None:
    # The automatic choice is the mask with the lowest 18004 7.8.3 score.
    text = "http://127.0.0.1:8000/?join=AB12CD"
    chosen = qr.encode(text)
    scores = []
    for mask in range(8):
        b = qr._Builder(chosen.version)
        b.dark = [list(r) for r in qr.encode(text, mask=mask).modules]
        scores.append(b.penalty())
    assert chosen.mask == scores.index(min(scores))


def test_svg_draws_exactly_the_dark_modules() -> None:
    text = "http://127.0.0.1:8000/?join=AB12CD"
    code = qr.encode(text)
    svg = qr.qr_svg(text)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    assert root.get("viewBox") == f"0 0 {code.size + 8} {code.size + 8}"
    assert root.find(f"{ns}title").text == text  # type: ignore[union-attr]
    path = root.find(f"{ns}path")
    assert path is not None
    drawn = set()
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v1h-(\d+)z", path.get("d", ""))
    assert "".join(f"M{x} {y}h{w}v1h-{w2}z" for x, y, w, w2 in runs) == path.get("d")
    for x, y, w, w2 in runs:
        assert w == w2
        drawn.update((int(x) - 4 + k, int(y) - 4) for k in range(int(w)))
    dark = {(x, y) for y, row in enumerate(code.modules) for x, v in enumerate(row) if v}
    assert drawn == dark


def test_svg_escapes_the_title() -> None:
    svg = qr.qr_svg("a<b>&c")
    assert "<title>a&lt;b&gt;&amp;c</title>" in svg
    ET.fromstring(svg)


@pytest.mark.parametrize("length", [5, 20, 40, 60, 80, 100, 120, 150, 170, 213])
def test_a_decoder_reads_it_back(length: int) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    np = pytest.importorskip("numpy")
    text = ("https://meja.example/?join=ABCDEF&x=" + "0123456789" * 30)[:length]
    code = qr.encode(text)
    scale, quiet = 4, 4
    size = (code.size + 2 * quiet) * scale
    image = np.full((size, size), 255, dtype=np.uint8)
    for y, row in enumerate(code.modules):
        for x, dark in enumerate(row):
            if dark:
                image[(y + quiet) * scale : (y + quiet + 1) * scale, (x + quiet) * scale : (x + quiet + 1) * scale] = 0
    results = zxingcpp.read_barcodes(image)
    assert [r.text for r in results] == [text]
