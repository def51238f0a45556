"""The QR code of an invite link, as SVG, for ``/qr/<CODE>.svg`` (the lobby shows it).

Encoding is segno's (https://segno.readthedocs.io, pure Python, ISO/IEC 18004):
error correction level M at least (about 15 % of the symbol may be damaged;
segno raises it for free when the same version holds more), the smallest
version that holds the text, the mask chosen by the standard's penalty rules.

The SVG is standalone (its own namespace, no XML declaration), black on white
with the standard's quiet zone of 4 modules, and a ``viewBox`` with no fixed
size, so the page sizes it with CSS; its ``title`` is the text itself, so the
image reads as its link to a screen reader that opens it alone.
"""

from __future__ import annotations

import io
from typing import Final

import segno

__all__ = ["QUIET_ZONE", "qr_code", "qr_svg"]

#: modules of white around the symbol (ISO/IEC 18004 asks for 4)
QUIET_ZONE: Final = 4


def qr_code(text: str) -> segno.QRCode:
    """The QR code of ``text`` (byte mode for a link), level M or better; never a Micro QR."""
    return segno.make(text, error="m", micro=False)


def qr_svg(text: str) -> str:
    """An SVG image of the QR code of ``text`` (see the module docstring)."""
    out = io.BytesIO()
    qr_code(text).save(
        out,
        kind="svg",
        border=QUIET_ZONE,
        dark="#000",
        light="#fff",
        title=text,
        xmldecl=False,
        svgclass=None,
        lineclass=None,
        omitsize=True,
    )
    return out.getvalue().decode("utf-8") + "\n"
