"""CLI contract: exit codes, `path:line: message`, init, --version (R5, R34's checking half)."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo, source
from wikigen import __version__

K = "content/sources/knowledge"

BAD = {
    "unknown category": ("content/sources/gossip/x.md", "# X\n\nbody\n", 1, "unknown category folder"),
    "category disagrees": (f"{K}/x.md", "---\ntitle: X\ncategory: tasks\n---\nbody\n", 3, "folder"),
    "bad yaml": (f"{K}/x.md", "---\ntitle: X\ntags: [a, b\n---\nbody\n", 4, "not valid YAML"),
    "non utf8": (f"{K}/x.md", b"---\ntitle: X\n---\nbad \xff byte\n", 4, "UTF-8"),
    "binary": (f"{K}/x.md", b"# X\n\x00\x01\x02", 2, "binary"),
    "too big": (f"{K}/x.md", "---\ntitle: X\n---\n" + "a" * 100_001, 4, "over caps.input_bytes (100,000)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_check_fails_with_path_and_line(git_repo: GitRepo, case: str):
    """R5."""
    path, text, line, words = BAD[case]
    git_repo.commit({f"{K}/good.md": source("\nfine\n", title="Good")})
    git_repo.write({path: text})
    result = git_repo.wikigen("check")
    assert result.code == 1
    assert result.out.startswith(f"{path}:{line}: "), result.out
    assert words in result.out
    assert "Traceback" not in result.out + result.err


def test_duplicate_id_names_both_files(git_repo: GitRepo):
    """R5."""
    git_repo.write({f"{K}/a.md": source("\nA\n", id="same"), f"{K}/b.md": source("\nB\n", id="same")})
    result = git_repo.wikigen("check")
    assert result.code == 1
    assert result.out.splitlines() == [
        f"{K}/a.md:2: duplicate id 'same', also used by {K}/b.md",
        f"{K}/b.md:2: duplicate id 'same', also used by {K}/a.md",
    ]


def test_check_staged_judges_the_index_and_check_file_finds_a_duplicate_id(git_repo: GitRepo):
    """R5: `check --staged` judges what is staged, not the work tree, and `check FILE` still finds an
    id the committed manifest holds."""
    git_repo.commit({f"{K}/good.md": source("\nfine\n", title="Good")})
    git_repo.publish_baseline()
    git_repo.write({f"{K}/bad.md": "---\ntitle: [x\n---\n"})
    assert git_repo.wikigen("check", "--staged").code == 0  # not staged yet
    assert git_repo.wikigen("check", str(git_repo.root / K / "good.md")).code == 0
    git_repo.stage({f"{K}/bad.md": "---\ntitle: [x\n---\n"})
    result = git_repo.wikigen("check", "--staged")
    assert result.code == 1 and result.out.startswith(f"{K}/bad.md:")
    # A file given alone still meets the duplicate-id check against the committed manifest.
    git_repo.write({f"{K}/dup.md": source("\nx\n", id="knowledge/good")})
    result = git_repo.wikigen("check", str(git_repo.root / K / "dup.md"))
    assert result.code == 1 and "duplicate id 'knowledge/good'" in result.out


def test_plan_lists_invalid_and_exits_1(git_repo: GitRepo):
    """R5."""
    git_repo.commit({f"{K}/bad.md": "---\nverification: perhaps\n---\nbody\n"})
    result = git_repo.wikigen("plan", "--json")
    assert result.code == 1
    import json

    invalid = json.loads(result.out)["invalid"]
    assert invalid == [
        {
            "path": f"{K}/bad.md",
            "line": 2,
            "message": "verification must be one of unverified, verified, rejected, got 'perhaps'",
        }
    ]


def test_version_and_usage_errors(git_repo: GitRepo):
    result = git_repo.wikigen("--version")
    assert result.code == 0 and result.out.strip() == f"wikigen {__version__}"
    assert git_repo.wikigen("no-such-command").code == 2
    assert git_repo.wikigen("plan", "--no-such-flag").code == 2


def test_outside_a_git_repo_is_a_clear_error(tmp_path):
    import contextlib
    import io

    from tests.conftest import GitRepo as _  # noqa: F401
    from wikigen.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["-C", str(tmp_path), "plan"])
    assert code == 1 and "not inside a git repository" in err.getvalue()


def test_init_writes_layout_once_and_never_overwrites(git_repo: GitRepo):
    (git_repo.root / ".gitignore").write_text("node_modules/\n")
    (git_repo.root / "content/sources/knowledge").mkdir(parents=True)
    (git_repo.root / "content/sources/knowledge/mine.md").write_text("# Mine\n\nmy own text\n")
    first = git_repo.wikigen("init", str(git_repo.root), "--install-spec", "wikigen-compiler==0.1.0")
    assert first.code == 0 and "created wikigen.yml" in first.out
    assert "content/sources/knowledge" not in first.out  # an existing knowledge base gets no example
    assert git_repo.read(".gitignore") == "node_modules/\n# the built site (mkdocs build)\nsite/\n"
    assert git_repo.read("content/sources/knowledge/mine.md") == "# Mine\n\nmy own text\n"
    second = git_repo.wikigen("init", str(git_repo.root))
    assert second.code == 0 and "nothing to do" in second.out
    git_repo.commit({}, "init")
    git_repo.repo.index.add_all()
    git_repo.repo.index.write()
    git_repo.commit({}, "init")
    assert git_repo.wikigen("check").code == 0
    plan = git_repo.json("plan")
    assert "tasks/adopt-wikigen" in plan["pending"]


def test_progress_outside_a_terminal_is_one_line_per_increment(git_repo: GitRepo, monkeypatch):
    """R16: stderr that is no terminal gets a line per increment; --quiet silences it."""
    files = {f"{K}/s{i}.md": source(f"Body of source number {i} with some words.\n" * 3, title=f"S{i}") for i in range(6)}
    git_repo.commit(files)
    monkeypatch.setenv("WIKIGEN_CAPS_INPUT_BYTES", "1500")
    quiet = git_repo.wikigen("compile", "--batch", "--quiet", "--engine", "offline")
    assert quiet.code == 0 and quiet.err == "", quiet.err
    git_repo.commit({f"{K}/s{i}.md": source(f"Changed body of source {i} with some words.\n" * 3, title=f"S{i}") for i in range(6)})
    result = git_repo.wikigen("compile", "--batch")
    assert result.code == 0, result.err
    lines = [line for line in result.err.splitlines() if line.startswith("wikigen: snapshot ")]
    assert len(lines) > 1 and result.err.startswith("wikigen: compiling 6 changed source(s)")
    assert all("engine call(s)" in line and "bytes sent" in line and "elapsed" in line for line in lines)
    assert "source(s) left" in lines[0] and lines[-1].endswith("nothing left")


def test_status_and_an_empty_compile_name_uncommitted_sources(git_repo: GitRepo):
    """R7: compile reads commits only, so changed, staged and untracked sources are named."""
    git_repo.commit({f"{K}/a.md": source("\nAlpha is the first source of this repo.\n", title="A")})
    assert git_repo.wikigen("compile", "--quiet").code == 0
    git_repo.write({f"{K}/a.md": source("\nAlpha, edited and not committed.\n", title="A")})
    git_repo.stage({f"{K}/b.md": source("\nBeta is staged.\n", title="B")})
    git_repo.write({f"{K}/c.md": source("\nGamma is untracked.\n", title="C"), f"{K}/pic.png": b"\x89PNG"})
    result = git_repo.wikigen("status")
    assert result.code == 0
    note = [line for line in result.out.splitlines() if line.startswith("not committed")]
    assert note == [
        f"not committed, so not compiled (staged: {K}/b.md; changed: {K}/a.md; untracked: {K}/c.md) — compile "
        "reads commits only: `git add` and `git commit` them, then compile"
    ]
    assert git_repo.json("status")["uncommitted"] == {"staged": [f"{K}/b.md"], "changed": [f"{K}/a.md"], "untracked": [f"{K}/c.md"]}
    compiled = git_repo.wikigen("compile")
    assert compiled.code == 0 and compiled.out.startswith("nothing to compile") and f"changed: {K}/a.md" in compiled.out


def test_init_ends_with_the_first_import_command_then_build_and_serve(git_repo: GitRepo):
    """R16: a first import is a large change, so init shows `wikigen compile --batch`."""
    result = git_repo.wikigen("init", str(git_repo.root), "--install-spec", "wikigen-compiler==0.1.0")
    assert result.code == 0
    tail = result.out.split("\nNext:\n", 1)[1]
    commands = [line.split("#")[0].strip() for line in tail.splitlines()]
    assert commands[-3:] == ["wikigen compile --batch", "wikigen build", "wikigen serve"]
