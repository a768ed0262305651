"""Whether a short name stands for a long one (R25): its letters are the long name's initials
("HPA" of "HorizontalPodAutoscaler", "CRI" of "Container Runtime Interface"), or the long name
spells them out ("process identifier" for PID).
"""

from __future__ import annotations

import re


def has_initials(long: str, short: str) -> bool:
    """The short name's letters (a plural "s" aside) are the long name's initials, its CamelCase
    words split ("HPA" of "HorizontalPodAutoscaler"), or as many initials that open with its first
    two letters."""
    words = [part for word in re.split(r"[\s-]+", long) for part in _CAMEL_PARTS.findall(word)]
    letters = "".join(word[0] for word in words).casefold()
    wanted = short.rstrip("s").casefold()
    return letters == wanted or (
        len(wanted) >= 2 and letters.startswith(wanted[:2]) and len(letters) == len(wanted)
    )


# "HorizontalPodAutoscaler" is "Horizontal", "Pod", "Autoscaler"; "DNS" and "kube" stay whole
_CAMEL_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[^\sA-Za-z0-9]+")


def is_spelled_out(long: str, short: str) -> bool:
    """ "process identifier" for PID, "time to live" for TTL: the words' initials, in order, are the
    letters, at most one letter (an inner one, "IDentifier") taken from inside a word."""
    letters = "".join(word[0] for word in re.split(r"[\s-]+", long) if word).casefold()
    wanted = short.rstrip("s").casefold()
    if len(letters) < 2 or letters[0] != wanted[0] or len(letters) < len(wanted) - 1:
        return False
    rest = iter(wanted)
    return all(letter in rest for letter in letters)
