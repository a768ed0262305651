"""When the HTTP engine tries a request again: the statuses worth another attempt, how many attempts,
the exponential backoff's first and longest wait, and the wait a server asks for in ``retry-after-ms``
or ``Retry-After``.
"""

from __future__ import annotations

import email.utils
from collections.abc import Mapping
from datetime import datetime, timezone

RETRY_STATUSES = frozenset({408, 429})  # plus every 5xx
MAX_ATTEMPTS = 5
BACKOFF_S = 0.5
MAX_BACKOFF_S = 30.0


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds to wait from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date)."""
    lowered = {k.lower(): v for k, v in headers.items()}
    millis = lowered.get("retry-after-ms")
    if millis is not None:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = lowered.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())
