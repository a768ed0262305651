"""The HTTP engine (R21): any OpenAI-compatible chat-completions server, through httpx.

One ``run`` is one engine call (one stage); it may take several HTTP attempts. Structured output is
asked for with a JSON Schema (``response_format: json_schema``). A server that rejects it — known by
its answer naming ``response_format`` or ``json_schema``, whatever the status (llama-cpp-python says
so with a 500) — gets JSON mode with the schema beside it (``{"type": "json_object", "schema": …}``,
which llama-cpp-python enforces with a grammar), then plain JSON mode; the step that worked is
remembered for the rest of the process. A server that rejects all three is told apart from one that
is failing. Every attempt shares the stage's deadline; 429, 5xx and connection errors are retried
with exponential backoff and jitter, honouring ``Retry-After``, but never past the deadline.

The API key is read from the environment at call time and only ever placed in the Authorization
header: every text that leaves this module (errors, the per-attempt trace) is scrubbed of it.
Reading a 200 answer into a delta is ``completions.py``'s; how structured output is asked for,
``output.py``'s; when to try again, ``retries.py``'s; the scrubbing, ``redaction.py``'s.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx

from wikigen.engines.contract import STAGES, Delta
from wikigen.engines.http import prompts
from wikigen.engines.http.completions import (
    ERROR_TEXT_CHARS,
    Call,
    DeltaError,
    HttpEngineError,
    error_text,
    read_completion,
)
from wikigen.engines.http.output import FORMATS, JSON_OBJECT_SCHEMA, JSON_SCHEMA, rejects_format, stage_schema
from wikigen.engines.http.redaction import _Scrub, url_secrets
from wikigen.engines.http.retries import BACKOFF_S, MAX_ATTEMPTS, MAX_BACKOFF_S, RETRY_STATUSES, _retry_after
from wikigen.engines.route import host_of
from wikigen.model.config import EngineSettings
from wikigen.model.errors import ConfigError, EngineError

__all__ = ["DeltaError", "HttpEngine", "HttpEngineError"]

POLL_S = 0.05  # how often a waiting call looks at the cancellation event
KEY_ENV = "WIKIGEN_API_KEY"

# (base_url, model) → the first format its server accepted: later calls start there.
_FORMAT: dict[tuple[str, str], str] = {}
_FORMAT_LOCK = threading.Lock()


@dataclass(frozen=True, slots=True)
class _Answer:
    status: int
    headers: Mapping[str, str]
    body: bytes


class _Stop(Exception):
    """The deadline passed or the call was cancelled while waiting for an answer."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class HttpEngine:
    """An OpenAI-compatible chat-completions server as a wikigen engine."""

    name = "http"
    # Requests leave this machine: private sources never reach this engine.
    remote = True

    def __init__(
        self,
        settings: EngineSettings,
        *,
        transport: httpx.BaseTransport | None = None,
        environ: Mapping[str, str] | None = None,
        max_attempts: int = MAX_ATTEMPTS,
        backoff_s: float = BACKOFF_S,
        seed: int = 0,
    ) -> None:
        self.settings = settings
        self._transport = transport
        self._environ = environ
        self.max_attempts = max(1, max_attempts)
        self.backoff_s = backoff_s
        self._random = random.Random(seed)  # jitter, reproducible

    def route(self, stage: str) -> str:
        return f"http/{self.host}/{self.settings.model_for(stage) or '(no model)'}"

    @property
    def host(self) -> str:
        """The base URL's host and port, never its user name or password."""
        return host_of(self.settings.base_url) or "(no base_url)"

    def run(self, stage: str, request: Mapping[str, Any], deadline: float, cancel: threading.Event) -> Delta:
        if stage not in STAGES:
            raise EngineError(f"unknown stage {stage!r}; the http engine runs {' and '.join(STAGES)}")
        url, model = self._target(stage)
        key = self._key()
        scrub = _Scrub(key, *url_secrets(self.settings.base_url))
        calls: list[Call] = []
        attempt = 0
        failures = 0  # retryable failures so far
        server = (self.settings.base_url or "", model)
        with _FORMAT_LOCK:
            step = FORMATS.index(_FORMAT.get(server, JSON_SCHEMA))
        first_step = step
        while True:
            self._check(stage, deadline, cancel, calls)
            attempt += 1
            response_format = FORMATS[step]
            payload = self._payload(stage, request, model, response_format)
            call: Call = {
                "stage": stage,
                "attempt": attempt,
                "model": model,
                "model_reported": None,
                "response_format": response_format,
                "status": None,
                "latency_ms": None,
                "error": None,
            }
            calls.append(call)
            started = time.monotonic()
            try:
                answer = self._send(url, payload, key, deadline, cancel)
            except _Stop as stop:
                call["latency_ms"] = _ms(started)
                call["error"] = stop.why
                raise self._stopped(stage, stop.why, calls) from None
            except (httpx.InvalidURL, httpx.UnsupportedProtocol) as exc:
                raise ConfigError(
                    f"engine.base_url {self._display_url()!r} is not a usable URL ({exc}); use the server's "
                    "OpenAI-compatible root, e.g. http://localhost:8000/v1"
                ) from None
            except httpx.TimeoutException:
                call["latency_ms"] = _ms(started)
                call["error"] = "deadline passed"
                raise self._stopped(stage, "deadline passed", calls) from None
            except httpx.HTTPError as exc:
                # Connection refused, reset, protocol errors: retried like a 503.
                call["latency_ms"] = _ms(started)
                call["error"] = scrub(f"{type(exc).__name__}: {exc}")[:ERROR_TEXT_CHARS]
                failures += 1
                if failures >= self.max_attempts:
                    raise HttpEngineError(
                        f"{stage}: could not reach {self._display_url()} after {attempt} attempt(s) "
                        f"({call['error']}). Check engine.base_url (or WIKIGEN_BASE_URL) and that the "
                        "server is running; nothing was published.",
                        calls,
                    ) from None
                self._wait(stage, self._backoff(failures), deadline, cancel, calls, call["error"])
                continue
            call["latency_ms"] = _ms(started)
            call["status"] = answer.status
            if cancel.is_set():
                call["error"] = "cancelled"
                raise self._stopped(stage, "cancelled", calls)

            if answer.status == 200:
                try:
                    data, usage, reported = read_completion(stage, answer.body, scrub)
                    data, reported = scrub.json(data), scrub(reported) if reported is not None else None
                except DeltaError as exc:
                    call["error"] = f"invalid delta: {len(exc.problems)} problem(s)"
                    raise DeltaError(list(exc.problems), calls) from None
                except HttpEngineError as exc:
                    call["error"] = exc.message[:ERROR_TEXT_CHARS]
                    raise HttpEngineError(exc.message, calls) from None
                call["model_reported"] = reported
                if step != first_step:
                    with _FORMAT_LOCK:
                        _FORMAT[server] = response_format
                return Delta(
                    data=data,
                    route=self.route(stage),
                    usage=usage,
                    model=reported,
                    calls=tuple(dict(c) for c in calls),
                )

            text = scrub(error_text(answer.body))
            call["error"] = f"HTTP {answer.status}: {text}"[:ERROR_TEXT_CHARS]
            # The whole message: a long one (a validation error listing fields) may name it late.
            if rejects_format(answer.status, error_text(answer.body, limit=None), response_format):
                # Not a failing server: one without this kind of structured output. The next kind,
                # remembered if it works; when none is left, say so instead of retrying.
                if step + 1 < len(FORMATS):
                    step += 1
                    continue
                raise HttpEngineError(self._no_json(stage, model, answer.status, text), calls)
            if answer.status in RETRY_STATUSES or answer.status >= 500:
                failures += 1
                if failures >= self.max_attempts:
                    raise HttpEngineError(
                        f"{stage}: {self.host} answered HTTP {answer.status} {attempt} time(s) in a row "
                        f"({text}). The server is overloaded or failing; try again later or raise "
                        "engine.deadline_s. Nothing was published.",
                        calls,
                    )
                delay = _retry_after(answer.headers)
                self._wait(
                    stage,
                    self._backoff(failures) if delay is None else delay,
                    deadline,
                    cancel,
                    calls,
                    call["error"],
                )
                continue
            raise HttpEngineError(self._refused(stage, model, answer.status, text, key is not None), calls)

    def _key(self) -> str | None:
        """WIKIGEN_API_KEY when set (the environment overrides wikigen.yml), else engine.api_key_env's."""
        environ = os.environ if self._environ is None else self._environ
        name = KEY_ENV if environ.get(KEY_ENV) else self.settings.api_key_env
        key = (environ.get(name) or "").strip()
        if key and not (key.isascii() and key.isprintable() and " " not in key):
            # Said without the key itself: it must never reach a message.
            raise ConfigError(
                f"the API key in ${name} has spaces or non-ASCII characters; set it to the key alone"
            )
        return key or None

    # -- the request ------------------------------------------------------------------------------

    def _target(self, stage: str) -> tuple[str, str]:
        base_url = self.settings.base_url
        model = self.settings.model_for(stage)
        missing = []
        if not base_url:
            missing.append("engine.base_url (or WIKIGEN_BASE_URL), e.g. http://localhost:11434/v1")
        if not model:
            missing.append(f"engine.models.{stage} (or WIKIGEN_MODEL for every stage)")
        if base_url and self.host == "(invalid base_url)":
            raise ConfigError(
                "engine.base_url is not a valid URL; use the server's OpenAI-compatible root, "
                "e.g. http://localhost:8000/v1"
            )
        if missing or base_url is None or model is None:
            raise ConfigError(
                "the http engine needs "
                + " and ".join(missing)
                + "; set them in wikigen.yml or the environment"
            )
        return base_url.rstrip("/") + "/chat/completions", model

    def _payload(self, stage: str, request: Mapping[str, Any], model: str, response_format: str) -> bytes:
        schema = stage_schema(stage)
        json_mode = response_format != JSON_SCHEMA
        body: dict[str, Any] = {
            "model": model,
            # In JSON mode the server may not enforce the schema, so the prompt carries it too: the
            # one both stages share, so that their system messages stay the same (recheck's limits
            # are in its task).
            "messages": prompts.messages(
                stage, request, schema=stage_schema("analyze") if json_mode else None
            ),
            "stream": False,
        }
        if response_format == JSON_SCHEMA:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "wikigen_delta", "schema": schema, "strict": False},
            }
        elif response_format == JSON_OBJECT_SCHEMA:
            body["response_format"] = {"type": "json_object", "schema": schema}
        else:
            body["response_format"] = {"type": "json_object"}
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    def _send(
        self, url: str, payload: bytes, key: str | None, deadline: float, cancel: threading.Event
    ) -> _Answer:
        """POST in a worker thread, so that the deadline and the cancellation stop the wait at once.

        The worker owns its client and closes it itself; an abandoned request ends at the latest
        when its own timeout (the time that was left) runs out.
        """
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise _Stop("deadline passed")
        headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "wikigen"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        done = threading.Event()
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                with httpx.Client(transport=self._transport, timeout=httpx.Timeout(remaining)) as client:
                    response = client.post(url, content=payload, headers=headers)
                    box["answer"] = _Answer(response.status_code, dict(response.headers), response.content)
            except BaseException as exc:
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="wikigen-http", daemon=True).start()
        while not done.wait(min(POLL_S, max(0.0, deadline - time.monotonic()))):
            if cancel.is_set():
                raise _Stop("cancelled")
            if time.monotonic() >= deadline:
                raise _Stop("deadline passed")
        error = box.get("error")
        if error is not None:
            raise error
        answer: _Answer = box["answer"]
        return answer

    # -- waiting, stopping, failing ---------------------------------------------------------------

    def _backoff(self, failures: int) -> float:
        delay = min(MAX_BACKOFF_S, self.backoff_s * float(2 ** (failures - 1)))
        return delay * (0.5 + 0.5 * self._random.random())

    def _wait(
        self,
        stage: str,
        delay: float,
        deadline: float,
        cancel: threading.Event,
        calls: list[Call],
        last: str,
    ) -> None:
        if time.monotonic() + delay >= deadline:
            raise HttpEngineError(
                f"{stage}: the deadline passed (engine.deadline_s = {self.settings.deadline_s:g} s) before a "
                f"retry could be made in {delay:.1f} s; last answer: {last}. Raise engine.deadline_s "
                "(or WIKIGEN_DEADLINE) or try later; nothing was published.",
                calls,
            )
        if cancel.wait(delay):
            raise self._stopped(stage, "cancelled", calls)

    def _check(self, stage: str, deadline: float, cancel: threading.Event, calls: list[Call]) -> None:
        if cancel.is_set():
            raise self._stopped(stage, "cancelled", calls)
        if time.monotonic() >= deadline:
            raise self._stopped(stage, "deadline passed", calls)

    def _stopped(self, stage: str, why: str, calls: list[Call]) -> HttpEngineError:
        if why == "cancelled":
            return HttpEngineError(
                f"{stage}: cancelled; the request was stopped and nothing was published", calls
            )
        return HttpEngineError(
            f"{stage}: the deadline passed (engine.deadline_s = {self.settings.deadline_s:g} s) while waiting "
            f"for {self.host}; the request was stopped and nothing was published. Raise engine.deadline_s "
            "(or WIKIGEN_DEADLINE), use a faster model or split the change with --batch.",
            calls,
        )

    def _refused(self, stage: str, model: str, status: int, text: str, sent_key: bool) -> str:
        env = self.settings.api_key_env
        if env != KEY_ENV:
            env = f"{KEY_ENV} or ${env}"
        if status in (401, 403):
            advice = (
                f"check the key in ${env} (engine.api_key_env)"
                if sent_key
                else f"no key was sent because ${env} (engine.api_key_env) is not set; set it"
            )
            return f"{stage}: {self.host} refused the request (HTTP {status}: {text}); {advice}."
        if status == 404:
            return (
                f"{stage}: HTTP 404 for POST {self._display_url()}/chat/completions ({text}). Check "
                f"engine.base_url (OpenAI-compatible servers usually end in /v1) and that model {model!r} "
                "exists on the server."
            )
        return (
            f"{stage}: {self.host} rejected the request (HTTP {status}: {text}). Check engine.models.{stage} "
            f"({model!r}) and the server's limits (context length, structured output support)."
        )

    def _no_json(self, stage: str, model: str, status: int, text: str) -> str:
        return (
            f"{stage}: {self.host} does not accept structured output for model {model!r}: it refused a JSON "
            f"Schema, JSON mode with a schema and plain JSON mode (last answer HTTP {status}: {text}). wikigen "
            "needs one of them; use a server or model that supports response_format json_schema or "
            "json_object. Nothing was published."
        )

    def _display_url(self) -> str:
        try:
            parts = urlsplit((self.settings.base_url or "").rstrip("/"))
        except ValueError:
            return self.host
        return f"{parts.scheme}://{self.host}{parts.path}"


def _ms(started: float) -> int:
    return round((time.monotonic() - started) * 1000)
