"""Reading an OpenAI-compatible chat completion: the server's answer → (delta, usage, model).

No repair: the content must be one JSON object that passes the delta schema, and every problem
fails the call (a ``DeltaError`` lists them all). Sending, retrying and the deadline are
``client.py``'s; the errors both raise live here, below it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from wikigen.engines.contract import Usage
from wikigen.model.errors import EngineError, ValidationError
from wikigen.schemas import schema_problems

ERROR_TEXT_CHARS = 300

Call = dict[str, Any]


class HttpEngineError(EngineError):
    """An HTTP engine call failed; ``calls`` holds its attempts for the failure record (R33)."""

    def __init__(self, message: str, calls: list[Call] | tuple[Call, ...] = ()) -> None:
        super().__init__(message)
        self.calls: tuple[Call, ...] = tuple(calls)


class DeltaError(ValidationError):
    """The server answered, but its output is not a valid delta; every problem is listed."""

    def __init__(self, problems: list[str], calls: list[Call] | tuple[Call, ...] = ()) -> None:
        super().__init__(problems)
        self.calls: tuple[Call, ...] = tuple(calls)


def read_completion(
    stage: str, raw: bytes, scrub: Callable[[str], str]
) -> tuple[dict[str, Any], Usage, str | None]:
    """A chat completion → (delta, usage, model reported). No repair: every problem fails the call."""
    try:
        return _read_completion(stage, raw, scrub)
    except RecursionError:  # a hostile server's deeply nested JSON is its failure, not ours
        raise HttpEngineError(
            f"{stage}: the server's answer is nested too deeply to read ({len(raw):,} bytes); a delta is a few "
            "levels deep — check that engine.base_url is the model server you meant"
        ) from None


def _read_completion(
    stage: str, raw: bytes, scrub: Callable[[str], str]
) -> tuple[dict[str, Any], Usage, str | None]:
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise HttpEngineError(
            f"{stage}: the server's answer is not JSON ({scrub(snippet(raw))!r}); is engine.base_url an "
            "OpenAI-compatible endpoint?"
        ) from None
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise HttpEngineError(
            f"{stage}: the server's answer has no choices ({scrub(snippet(raw))!r}); is engine.base_url an "
            "OpenAI-compatible chat-completions endpoint?"
        )
    reported = body.get("model") if isinstance(body.get("model"), str) else None
    usage = _usage(body.get("usage"))
    choice: dict[str, Any] = choices[0]
    raw_message = choice.get("message")
    message: dict[str, Any] = raw_message if isinstance(raw_message, dict) else {}
    content = message.get("content")
    problems: list[str] = []
    if choice.get("finish_reason") == "length":
        problems.append(
            f"{stage}: the output was truncated (finish_reason: length) after {usage.output or 'an unknown number of'} "
            "output tokens; raise the server's output limit or split the change with --batch"
        )
    if message.get("refusal"):
        problems.append(f"{stage}: the model refused: {scrub(str(message['refusal']))[:ERROR_TEXT_CHARS]}")
    if not isinstance(content, str) or not content.strip():
        problems.append(f"{stage}: the answer's choices[0].message.content is empty")
        raise DeltaError(problems)
    try:
        delta = json.loads(content)
    except json.JSONDecodeError as exc:
        problems.append(
            f"{stage}: the output is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno}): "
            f"{scrub(snippet(content))!r}"
        )
        raise DeltaError(problems) from None
    if not isinstance(delta, dict):
        problems.append(f"{stage}: the output is JSON but not an object: {scrub(snippet(content))!r}")
        raise DeltaError(problems)
    problems += [scrub(p) for p in schema_problems(delta, stage)]
    if problems:
        raise DeltaError(problems)
    return delta, usage, reported


def _usage(raw: Any) -> Usage:
    """R32: counts as reported; one the server did not send is None, never 0."""
    if not isinstance(raw, dict):
        return Usage()
    prompt = _count(raw.get("prompt_tokens"))
    details = raw.get("prompt_tokens_details")
    cached = _count(details.get("cached_tokens")) if isinstance(details, dict) else None
    completion_details = raw.get("completion_tokens_details")
    reasoning = (
        _count(completion_details.get("reasoning_tokens")) if isinstance(completion_details, dict) else None
    )
    non_cached = prompt - cached if prompt is not None and cached is not None else prompt
    return Usage(
        input=non_cached,
        cached_input=cached,
        output=_count(raw.get("completion_tokens")),
        reasoning=reasoning,
    )


def _count(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


def error_text(raw: bytes, limit: int | None = ERROR_TEXT_CHARS) -> str:
    """The server's own error message (OpenAI shape ``{"error": {"message": …}}``), else its text;
    cut to ``limit`` characters (None: whole, to read what it names)."""
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return snippet(raw, limit)
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return snippet(error["message"], limit)
        if isinstance(error, str):
            return snippet(error, limit)
        if isinstance(body.get("detail"), str):
            return snippet(body["detail"], limit)
    return snippet(raw, limit)


def snippet(raw: bytes | str, limit: int | None = ERROR_TEXT_CHARS) -> str:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    text = " ".join(text.split())
    return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"
