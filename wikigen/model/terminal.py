"""Text from sources made safe to print (R41): a terminal shows every character and acts on none.

A file name or a title can hold an escape sequence (``ESC [31m`` colours the rest of the screen,
``ESC ] 0 ; … BEL`` retitles the window, some terminals act on OSC 52 by writing the clipboard), a
carriage return that overwrites what was printed, or a bidirectional control that shows the text
in another order than it has. Printed through :func:`visible`, each is written as an escape
(``\\x1b``, ``\\u202e``) instead.
"""

from __future__ import annotations

import re

# R41: what a terminal acts on instead of showing. C0 controls but newline and tab (ESC, BEL, CR, …);
# then DEL, the C1 controls (CSI as one character) and the Unicode controls that reorder or hide
# text (bidirectional embeddings, overrides, isolates and marks), which `json.dumps` leaves as they are.
_C0 = "\x00-\x08\x0b-\x1f"
_BEYOND_C0 = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_IN_LINE = re.compile(f"[{_C0}{_BEYOND_C0}\n]")
_IN_TEXT = re.compile(f"[{_C0}{_BEYOND_C0}]")
_IN_JSON = re.compile(f"[{_BEYOND_C0}]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with every control character written as an escape (``\\x1b``, ``\\u202e``); with
    ``lines``, its newlines stay (a message of several lines), else a newline is shown as ``\\n``
    too, so that one record prints as one line. Tabs stay: a terminal only moves the cursor."""
    return (_IN_TEXT if lines else _IN_LINE).sub(_escape, text)


def visible_json(text: str) -> str:
    """JSON text with the controls that ``json.dumps`` leaves as they are (DEL, C1, bidirectional)
    written as ``\\uXXXX``: the same JSON value, nothing a terminal acts on. (It escapes C0 itself.)"""
    return _IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
