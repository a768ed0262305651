"""`wikigen serve` stops its `mkdocs serve` child when wikigen is stopped: a real repo with a compiled
snapshot, the real CLI on a free loopback port, SIGTERM or SIGINT to wikigen's pid; afterwards the
port refuses connections and no process of that server remains."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.error import URLError
from urllib.request import urlopen

import pytest

from tests.conftest import GitRepo, source
from tests.engines import extract
from wikigen.compiler.driver import compile_repo
from wikigen.engines.scripted import ScriptedEngine

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MKDOCS_YML = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
START_SECONDS = 120.0  # the first build of the site comes before the port answers
STOP_SECONDS = 10.0  # wikigen's grace period for the server, with room to spare


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    """A knowledge repo with one compiled source and the project's mkdocs.yml."""
    repo = GitRepo(tmp_path_factory.mktemp("serve") / "repo")
    repo.commit(
        {
            "mkdocs.yml": MKDOCS_YML,
            ".gitignore": "site/\n",
            "content/manual/index.md": "# Manual\n\nHow this wiki works.\n",
            "content/sources/knowledge/pods.md": source(
                "# Pods\n\nConcept Pod: a group of containers.\n", title="Pods"
            ),
        },
        message="sources",
    )
    compile_repo(repo.root, engine=ScriptedEngine(extract))
    return repo


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def servers_on(addr: str) -> list[int]:
    """Pids of the live processes whose command line names ``addr`` (the serve and its mkdocs)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if addr.encode() in cmdline and state != "Z":
            pids.append(int(entry.name))
    return pids


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_stopping_wikigen_serve_stops_its_mkdocs_server(repo: GitRepo, signum: signal.Signals) -> None:
    """A stopped `wikigen serve` leaves no server behind: the port is free and its mkdocs is gone."""
    port = free_port()
    addr = f"127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_MKDOCS_2_WARNING": "1"}
    wikigen = subprocess.Popen(
        [sys.executable, "-m", "wikigen", "serve", "-a", addr],
        cwd=repo.root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def answers_http() -> bool:
            try:
                with urlopen(f"http://{addr}/", timeout=2) as response:
                    return bool(response.status == 200)
            except (URLError, OSError):
                return False

        assert wait_for(lambda: answers_http() or wikigen.poll() is not None, START_SECONDS)
        assert wikigen.poll() is None, "wikigen serve exited before serving"
        assert answers_http()
        assert len(servers_on(addr)) == 2  # wikigen and its mkdocs child

        wikigen.send_signal(signum)
        status = wikigen.wait(timeout=STOP_SECONDS)
        assert wait_for(lambda: not port_answers(port), STOP_SECONDS), "the port still answers"
        assert wait_for(lambda: not servers_on(addr), STOP_SECONDS), f"left running: {servers_on(addr)}"
        assert status == 128 + signum
    finally:
        for pid in servers_on(addr):  # nothing outlives the test, even when it fails
            os.kill(pid, signal.SIGKILL)
        if wikigen.poll() is None:
            wikigen.kill()
            wikigen.wait(timeout=STOP_SECONDS)
