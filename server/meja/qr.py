"""A small QR code encoder for invite links: byte mode, error correction level M, versions 1-10.

Why our own: the lobby shows a QR code of the invite link (issue 5) and the
server hands it out as SVG at ``/qr/<CODE>.svg``; an invite link is at most a
couple of hundred bytes, so the whole of ISO/IEC 18004 is not needed, and a
dependency for ~250 lines was not worth its weight. What is implemented:

* one segment in byte mode (UTF-8 text, mode indicator ``0100``), terminator and
  pad bytes ``0xEC 0x11`` (18004 7.4.10);
* error correction level M only (about 15 % of the symbol can be damaged), the
  smallest version 1-10 that holds the text (up to 213 bytes at version 10);
  longer text raises :class:`ValueError`;
* Reed-Solomon codewords over GF(256) with the polynomial 0x11D, blocks
  interleaved as 18004 7.6 lays out;
* function patterns (finders, separators, timing, alignment, the dark module),
  the 15-bit format information (BCH(15,5), XOR mask 0x5412) and, from version
  7 on, the 18-bit version information (BCH(18,6), generator 0x1F25);
* all eight data masks scored with the four penalty rules of 18004 7.8.3; the
  lowest score wins (ties: the lower mask number), or a fixed mask for tests.

The output of :func:`qr_svg` is a standalone SVG (one ``path``, a quiet zone of
4 modules, black on white, ``shape-rendering="crispEdges"``) with a ``title``,
so it reads as an image to screen readers that open it on its own.

The tests (tests/test_qr.py) check the format and version bits against the
standard's tables and whole symbols against reference matrices produced by an
independent encoder and read back by a decoder.
"""

from __future__ import annotations

from typing import Final
from xml.sax.saxutils import escape

__all__ = ["MAX_VERSION", "QrCode", "encode", "qr_svg"]

MAX_VERSION: Final = 10

#: Error correction level M, versions 1..10 (18004 table 9): EC codewords per
#: block and the number of blocks. Index 0 is unused.
_ECC_PER_BLOCK_M: Final = (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26)
_BLOCKS_M: Final = (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5)
#: The two format bits of level M (18004 table 12: L=01, M=00, Q=11, H=10).
_ECL_BITS_M: Final = 0b00
_QUIET: Final = 4


# --------------------------------------------------------------------------- GF(256)

_EXP: list[int] = [0] * 512
_LOG: list[int] = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D  # x^8 + x^4 + x^3 + x^2 + 1 (18004 7.5.2)
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


def _gf_mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return _EXP[_LOG[a] + _LOG[b]]


def _rs_generator(degree: int) -> list[int]:
    """Coefficients (highest power first, leading 1 dropped) of prod (x - 2^i), i < degree."""
    poly = [1]
    for i in range(degree):
        nxt = [0] * (len(poly) + 1)
        for j, c in enumerate(poly):
            nxt[j] ^= c
            nxt[j + 1] ^= _gf_mul(c, _EXP[i])
        poly = nxt
    return poly[1:]


def _rs_remainder(data: bytes | list[int], generator: list[int]) -> list[int]:
    """The EC codewords: the remainder of data(x) * x^n divided by the generator."""
    rem = [0] * len(generator)
    for byte in data:
        factor = byte ^ rem[0]
        rem = rem[1:] + [0]
        for j, g in enumerate(generator):
            rem[j] ^= _gf_mul(g, factor)
    return rem


# --------------------------------------------------------------------------- sizes


def _size(version: int) -> int:
    return 17 + 4 * version


def _alignment_positions(version: int) -> list[int]:
    """Row/column centres of the alignment patterns (18004 annex E), e.g. [6, 22, 38] for version 7."""
    if version == 1:
        return []
    count = version // 7 + 2
    last = _size(version) - 7
    step = (version * 4 + count * 2 + 1) // (count * 2 - 2) * 2
    return [6] + [last - i * step for i in range(count - 2, -1, -1)]


def _raw_modules(version: int) -> int:
    """Modules left for data and EC codewords once the function patterns are placed."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        count = version // 7 + 2
        result -= (25 * count - 10) * count - 55
        if version >= 7:
            result -= 36
    return result


def _data_codewords(version: int) -> int:
    return _raw_modules(version) // 8 - _ECC_PER_BLOCK_M[version] * _BLOCKS_M[version]


def _capacity_bytes(version: int) -> int:
    """How many text bytes fit: 4 mode bits, 8 or 16 count bits (18004 table 3), 8 bits a byte."""
    count_bits = 8 if version < 10 else 16
    return (_data_codewords(version) * 8 - 4 - count_bits) // 8


# --------------------------------------------------------------------------- BCH


def format_bits(mask: int) -> int:
    """The 15 format bits for level M and ``mask``: BCH(15,5) with generator 0x537, XOR 0x5412 (18004 7.9)."""
    data = _ECL_BITS_M << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * 0x537)
    return (data << 10 | rem) ^ 0x5412


def version_bits(version: int) -> int:
    """The 18 version bits (versions 7+): BCH(18,6) with generator 0x1F25 (18004 7.10, annex D)."""
    rem = version
    for _ in range(12):
        rem = (rem << 1) ^ ((rem >> 11) * 0x1F25)
    return version << 12 | rem


# --------------------------------------------------------------------------- the symbol


class QrCode:
    """A finished symbol: ``version``, ``mask`` and ``modules[y][x]`` (True = dark)."""

    def __init__(self, version: int, mask: int, modules: list[list[bool]]) -> None:
        self.version = version
        self.mask = mask
        self.modules = modules

    @property
    def size(self) -> int:
        return len(self.modules)

    def rows(self) -> list[str]:
        """The matrix as text, ``#`` dark and ``.`` light, one string per row (for tests)."""
        return ["".join("#" if m else "." for m in row) for row in self.modules]


class _Builder:
    def __init__(self, version: int) -> None:
        self.version = version
        self.size = _size(version)
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.function = [[False] * self.size for _ in range(self.size)]

    def set_function(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.function[y][x] = True

    def draw_function_patterns(self) -> None:
        n = self.size
        for i in range(n):  # timing patterns (18004 6.3.5)
            self.set_function(6, i, i % 2 == 0)
            self.set_function(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (n - 4, 3), (3, n - 4)):  # finders with their separators (6.3.3)
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < n and 0 <= y < n:
                        dist = max(abs(dx), abs(dy))
                        self.set_function(x, y, dist not in (2, 4))
        pos = _alignment_positions(self.version)
        last = len(pos) - 1
        for i, cy in enumerate(pos):  # alignment patterns, not over the finders (6.3.6)
            for j, cx in enumerate(pos):
                if (i, j) in ((0, 0), (0, last), (last, 0)):
                    continue
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        self.set_function(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1)
        self.draw_format(0)  # reserve the format areas; the real bits come with the mask
        if self.version >= 7:
            bits = version_bits(self.version)
            for i in range(18):  # two 6x3 blocks by the top-right and bottom-left finders
                bit = (bits >> i) & 1 == 1
                a, b = n - 11 + i % 3, i // 3
                self.set_function(a, b, bit)
                self.set_function(b, a, bit)

    def draw_format(self, mask: int) -> None:
        n = self.size
        bits = format_bits(mask)

        def bit(i: int) -> bool:
            return (bits >> i) & 1 == 1

        # Copy 1, around the top-left finder (bit 0 is the least significant).
        for i in range(6):
            self.set_function(8, i, bit(i))
        self.set_function(8, 7, bit(6))
        self.set_function(8, 8, bit(7))
        self.set_function(7, 8, bit(8))
        for i in range(9, 15):
            self.set_function(14 - i, 8, bit(i))
        # Copy 2, split between the top-right and bottom-left finders.
        for i in range(8):
            self.set_function(n - 1 - i, 8, bit(i))
        for i in range(8, 15):
            self.set_function(8, n - 15 + i, bit(i))
        self.set_function(8, n - 8, True)  # the dark module (6.3.9 / 7.9.1)

    def place_data(self, codewords: list[int]) -> None:
        """Two-column zigzag from the bottom right, skipping the vertical timing column (7.7.3)."""
        n = self.size
        i = 0
        total = len(codewords) * 8
        right = n - 1
        while right >= 1:
            if right == 6:
                right = 5
            for vert in range(n):
                for j in range(2):
                    x = right - j
                    upward = ((right + 1) & 2) == 0
                    y = n - 1 - vert if upward else vert
                    if not self.function[y][x] and i < total:
                        self.dark[y][x] = (codewords[i >> 3] >> (7 - (i & 7))) & 1 == 1
                        i += 1
                    # Remainder bits (0-7 of them) stay light, as 7.7.3 requires.
            right -= 2

    def apply_mask(self, mask: int) -> None:
        """XOR the data modules with mask pattern ``mask`` (18004 table 10); applying twice undoes it."""
        for y in range(self.size):
            for x in range(self.size):
                if self.function[y][x]:
                    continue
                if mask == 0:
                    flip = (x + y) % 2 == 0
                elif mask == 1:
                    flip = y % 2 == 0
                elif mask == 2:
                    flip = x % 3 == 0
                elif mask == 3:
                    flip = (x + y) % 3 == 0
                elif mask == 4:
                    flip = (x // 3 + y // 2) % 2 == 0
                elif mask == 5:
                    flip = x * y % 2 + x * y % 3 == 0
                elif mask == 6:
                    flip = (x * y % 2 + x * y % 3) % 2 == 0
                else:
                    flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                if flip:
                    self.dark[y][x] = not self.dark[y][x]

    def penalty(self) -> int:
        """The mask score of 18004 7.8.3 (N1 = 3, N2 = 3, N3 = 40, N4 = 10); lower is better."""
        n = self.size
        grid = self.dark
        score = 0
        lines = [grid[y] for y in range(n)] + [[grid[y][x] for y in range(n)] for x in range(n)]
        finder_like = ([True, False, True, True, True, False, True, False, False, False, False],
                       [False, False, False, False, True, False, True, True, True, False, True])
        for line in lines:
            run = 1
            for k in range(1, n + 1):
                if k < n and line[k] == line[k - 1]:
                    run += 1
                    continue
                if run >= 5:
                    score += 3 + run - 5  # N1: runs of 5 or more of one colour
                run = 1
            # N3: 1:1:3:1:1 finder-like patterns with 4 light modules on one side;
            # the light modules beyond the symbol count as light (the quiet zone).
            padded = [False] * 4 + list(line) + [False] * 4
            for k in range(len(padded) - 10):
                window = padded[k : k + 11]
                if window == finder_like[0] or window == finder_like[1]:
                    score += 40
        for y in range(n - 1):  # N2: 2x2 blocks of one colour
            for x in range(n - 1):
                c = grid[y][x]
                if c == grid[y][x + 1] == grid[y + 1][x] == grid[y + 1][x + 1]:
                    score += 3
        dark = sum(sum(row) for row in grid)
        total = n * n
        # N4: 10 points for every 5 % step away from half dark.
        k = (abs(dark * 20 - total * 10) + total - 1) // total - 1
        score += 10 * max(0, k)
        return score


def _codewords(data: bytes, version: int) -> list[int]:
    """Data bits -> data codewords with padding -> blocks with EC -> interleaved (7.4-7.6)."""
    count_bits = 8 if version < 10 else 16
    bits: list[int] = []

    def put(value: int, length: int) -> None:
        bits.extend((value >> i) & 1 for i in range(length - 1, -1, -1))

    put(0b0100, 4)  # byte mode
    put(len(data), count_bits)
    for b in data:
        put(b, 8)
    capacity = _data_codewords(version) * 8
    put(0, min(4, capacity - len(bits)))  # terminator
    put(0, -len(bits) % 8)
    pad = 0xEC
    while len(bits) < capacity:
        put(pad, 8)
        pad ^= 0xEC ^ 0x11
    words = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8)]

    blocks = _BLOCKS_M[version]
    ecc_len = _ECC_PER_BLOCK_M[version]
    raw = _raw_modules(version) // 8
    short_blocks = blocks - raw % blocks
    short_len = raw // blocks  # data + EC codewords of a short block
    generator = _rs_generator(ecc_len)
    data_blocks: list[list[int]] = []
    ecc_blocks: list[list[int]] = []
    k = 0
    for i in range(blocks):
        length = short_len - ecc_len + (0 if i < short_blocks else 1)
        chunk = words[k : k + length]
        k += length
        data_blocks.append(chunk)
        ecc_blocks.append(_rs_remainder(chunk, generator))
    out: list[int] = []
    for i in range(max(len(b) for b in data_blocks)):
        out.extend(b[i] for b in data_blocks if i < len(b))
    for i in range(ecc_len):
        out.extend(b[i] for b in ecc_blocks)
    return out


def encode(text: str, mask: int | None = None, version: int | None = None) -> QrCode:
    """Encode ``text`` (UTF-8, byte mode, level M) in the smallest version that holds it.

    ``mask`` and ``version`` fix those choices (tests compare against reference
    symbols made with the same mask); by default the best-scoring mask is used.
    """
    data = text.encode("utf-8")
    if version is None:
        for v in range(1, MAX_VERSION + 1):
            if len(data) <= _capacity_bytes(v):
                version = v
                break
        else:
            raise ValueError(
                f"text of {len(data)} bytes does not fit a version {MAX_VERSION} QR code"
                f" ({_capacity_bytes(MAX_VERSION)} bytes at most)"
            )
    elif not 1 <= version <= MAX_VERSION or len(data) > _capacity_bytes(version):
        raise ValueError(f"text of {len(data)} bytes does not fit version {version!r}")
    if mask is not None and not 0 <= mask <= 7:
        raise ValueError(f"mask must be 0..7, not {mask!r}")
    builder = _Builder(version)
    builder.draw_function_patterns()
    builder.place_data(_codewords(data, version))
    if mask is None:
        best, best_score = 0, -1
        for m in range(8):
            builder.apply_mask(m)
            builder.draw_format(m)
            score = builder.penalty()
            if best_score < 0 or score < best_score:
                best, best_score = m, score
            builder.apply_mask(m)  # undo
        mask = best
    builder.apply_mask(mask)
    builder.draw_format(mask)
    return QrCode(version, mask, builder.dark)


def qr_svg(text: str) -> str:
    """An SVG image of the QR code of ``text`` (an invite link), black on white with a quiet zone."""
    code = encode(text)
    size = code.size + 2 * _QUIET
    parts = []
    for y, row in enumerate(code.modules):
        x = 0
        while x < code.size:
            if row[x]:
                start = x
                while x < code.size and row[x]:
                    x += 1
                parts.append(f"M{start + _QUIET} {y + _QUIET}h{x - start}v1h{start - x}z")
            else:
                x += 1
    title = escape(text)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'width="{size * 4}" height="{size * 4}" shape-rendering="crispEdges" role="img">'
        f"<title>{title}</title>"
        f'<rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{"".join(parts)}"/>'
        "</svg>\n"
    )
