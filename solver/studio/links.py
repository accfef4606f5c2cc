"""The links people open on their own devices (the host's, each seat's) and their QR codes, made
by segno: rows of modules for the page to draw as SVG, and a block drawing for the terminal."""

from __future__ import annotations

import io

import segno


def qr_rows(url: str) -> list[str]:
    """The QR code of ``url``: one string per row, '1' a dark module, without the quiet zone."""
    code = segno.make(url, error="m", micro=False)
    return ["".join("1" if v else "0" for v in row) for row in code.matrix]


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, two rows a line, for a terminal."""
    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()
