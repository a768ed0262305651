"""Keeping the API key out of every text the HTTP engine lets out: the secrets a base URL's userinfo
carries, and the scrubber that replaces each secret with ``***`` in a message, a trace or a JSON value.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit


def url_secrets(base_url: str | None) -> list[str]:
    """What a base URL's userinfo carries: its password, or a lone user name (a token as the user)."""
    try:
        parts = urlsplit(base_url or "")
    except ValueError:
        return []
    if parts.password:
        return [unquote(parts.password), parts.password]
    return [unquote(parts.username), parts.username] if parts.username else []


class _Scrub:
    """Removes the API key (and a key in the base URL's userinfo) from any text before it reaches a
    message, a trace or a file."""

    def __init__(self, key: str | None, *others: str) -> None:
        # Longest first, so that a secret containing another is replaced whole.
        self.secrets = sorted({s for s in (key, *others) if s}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text

    def json(self, value: Any) -> Any:
        """Every string of a JSON value scrubbed, keys included: a server may echo the key into an
        object (a definition, a title), which would then be committed."""
        if isinstance(value, str):
            return self(value)
        if isinstance(value, list):
            return [self.json(v) for v in value]
        if isinstance(value, dict):
            return {self(k): self.json(v) for k, v in value.items()}
        return value
