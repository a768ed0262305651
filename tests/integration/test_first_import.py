"""A first import, as a new user would do it: `wikigen init` in a repo holding docs written by
others — some too large for one increment, one with Jekyll frontmatter, the rest plain — then
`check`, the fixes it asks for, a plain compile that names the command that works, that command (no
--retry), progress lines in a log that is no terminal, and `status` naming an edit not yet committed
(R5, R15, R16, R33)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV

pytestmark = pytest.mark.integration
BIN = Path(sys.executable).parent
K = "content/sources/knowledge"
CAP = 6000  # small caps keep it fast; set in the environment, as a user would


def run(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_ENV, "PATH": f"{BIN}:{os.environ['PATH']}", "WIKIGEN_CAPS_INPUT_BYTES": str(CAP)}
    # stdout and stderr are pipes, as in CI: no terminal
    result = subprocess.run(list(args), cwd=cwd, text=True, capture_output=True, env=env, timeout=900)
    if check and result.returncode != 0:
        raise AssertionError(f"{args} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def doc(topic: str, sections: int) -> str:
    """Markdown as other projects write it: a title, then sections that each define a term."""
    parts = [f"# {topic.title()} guide\n"]
    for n in range(sections):
        term = f"{topic.title()} Unit {n}"
        parts.append(
            f"\n## {term}\n\nA **{term}** is a component of the {topic} system that stores records for "
            f"section {n}. The {term} keeps its records on disk and answers queries from clients.\n"
        )
    return "".join(parts)


def split_by_section(text: str, per_part: int = 12) -> list[str]:
    head, *sections = re.split(r"(?m)^(?=## )", text)
    return [head + "".join(sections[i : i + per_part]) for i in range(0, len(sections), per_part)]


def test_first_import_of_foreign_docs(tmp_path: Path):
    kb = tmp_path / "kb"
    kb.mkdir()
    run(kb, "git", "init", "-q", "-b", "main")
    run(kb, "wikigen", "init", ".", "--install-spec", "wikigen-compiler==0.1.0")
    run(kb, "git", "config", "core.hooksPath", "hooks")
    docs = {f"{K}/{topic}.md": doc(topic, 3) for topic in ("cache", "queue", "ledger", "index", "mailer")}
    oversized = {f"{K}/{topic}-reference.md": doc(topic, 36) for topic in ("storage", "network")}
    foreign = f"{K}/scheduler.md"
    docs[foreign] = (
        "---\nlayout: post\ntitle: Scheduler\ncategory: Concepts\ndate: 2021-03-04 10:00:00\n"
        "permalink: /scheduler/\ntags: [ops]\n---\n" + doc("scheduler", 2)
    )
    for rel, text in {**docs, **oversized}.items():
        (kb / rel).write_text(text, encoding="utf-8")

    # check names every source that can never fit (with by how much) and the foreign category's fix.
    checked = run(kb, "wikigen", "check", check=False)
    assert checked.returncode == 1
    problems = checked.stdout.splitlines()
    too_large = sorted(line.split(":")[0] for line in problems if "too large to compile" in line)
    assert too_large == sorted(oversized), checked.stdout
    assert all(re.search(r"\d[\d,]* over caps\.input_bytes \(6,000\)", line) for line in problems if "too large" in line)
    [category] = [line for line in problems if line.startswith(f"{foreign}:4: unknown category 'Concepts'")]
    setting = re.search(r"`categories: \{aliases: \{(.+?)\}\}`", category)
    assert setting is not None and setting.group(1) == "concepts: knowledge"
    assert len(problems) == 3

    # A --batch run lists every such source before its first engine call; nothing is published.
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "import docs", "--no-verify")
    head = run(kb, "git", "rev-parse", "HEAD").stdout
    batch = run(kb, "wikigen", "compile", "--batch", check=False)
    assert batch.returncode == 1 and "nothing was published" in batch.stderr
    assert all(path in batch.stderr for path in oversized) and "snapshot 1" not in batch.stderr
    assert run(kb, "git", "rev-parse", "HEAD").stdout == head

    # The fixes the messages ask for: split by section, alias the category (the setting's exact line).
    for rel, text in oversized.items():
        (kb / rel).unlink()
        for n, part in enumerate(split_by_section(text)):
            (kb / rel.replace(".md", f"-{n:02}.md")).write_text(part, encoding="utf-8")
    settings = kb / "wikigen.yml"
    settings.write_text(settings.read_text().replace("aliases: {}", "aliases: {" + setting.group(1) + "}"))
    assert run(kb, "wikigen", "check").stdout == ""
    run(kb, "git", "add", "-A")
    run(kb, "git", "commit", "-qm", "split the references, alias Jekyll's category")  # the hook passes

    # A plain compile breaks a cap: it is the invocation's problem, and the message has the command.
    plain = run(kb, "wikigen", "compile", check=False)
    assert plain.returncode == 1 and "caps.input_bytes" in plain.stderr
    found = re.search(r"`(wikigen compile[^`]*)`", plain.stderr)
    assert found is not None and found.group(1) == "wikigen compile --batch", plain.stderr
    assert "--retry" not in plain.stderr

    # That command works without --retry, and a log that is no terminal shows every increment.
    compiled = run(kb, *found.group(1).split())
    progress = [line for line in compiled.stderr.splitlines() if line.startswith("wikigen: snapshot ")]
    increments = int(re.search(r"in (\d+) increment", compiled.stdout).group(1))  # type: ignore[union-attr]
    assert increments > 1 and len(progress) == increments, compiled.stderr
    assert all(re.search(r"\d+ engine call\(s\), [\d,]+ bytes sent .* elapsed; ", line) for line in progress)
    assert progress[-1].endswith("nothing left")
    assert run(kb, "wikigen", "verify").returncode == 0
    built = run(kb, "wikigen", "build", "--strict")  # the README's next step; Jekyll's keys stay inert
    assert (kb / "site/index.html").is_file() and "NO_MKDOCS_2_WARNING" not in built.stdout + built.stderr
    print("\n".join(["", *problems, plain.stderr, compiled.stderr, compiled.stdout]))  # the figures, with -s

    # An edit not yet committed: compile has nothing to do, and both it and status name the file.
    (kb / f"{K}/cache.md").write_text(doc("cache", 4), encoding="utf-8")
    status = run(kb, "wikigen", "status")
    assert f"changed: {K}/cache.md" in status.stdout and "not committed" in status.stdout
    again = run(kb, "wikigen", "compile")
    assert again.stdout.startswith("nothing to compile") and f"{K}/cache.md" in again.stdout
