"""Untrusted text from files (names, stories, file names) made safe to show."""

from __future__ import annotations

import re

# C0 and C1 control characters, DEL, and the bidirectional overrides that can disguise text
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def clean(text) -> str:
    """The text without control characters: a terminal and a page get the same, harmless text."""
    return _CONTROL.sub("", str(text))
