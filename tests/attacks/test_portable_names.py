"""R40: names are portable — every commit the compiler makes checks out, and two sources that would
share a generated name are refused together, naming both files.

Before the fix, a valid 247-byte file name in 4-byte characters (or a long frontmatter id) passed
`check`, was compiled into an article whose file name was over 255 bytes, and the clone of the repo
then said "Clone succeeded, but checkout failed". Sources whose ids differ only by letter case,
Unicode normalization, `/` against `--` or a compatibility ligature passed `check` and `plan`, and
every compile then failed with "duplicate article …" naming no file.
"""

from __future__ import annotations

import subprocess
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV, GitRepo, source
from wikigen.model.ids import MAX_SLUG_BYTES, article_id, concept_id, slugify, topic_id
from wikigen.model.objects import object_path

K = "content/sources/knowledge"
WIDE = "\U00020000"  # a CJK letter outside the BMP: a word character of four UTF-8 bytes
BODY = "\nA long name is a test of what a file system can hold in one path component.\n"


def clone(repo: GitRepo, into: Path) -> subprocess.CompletedProcess[str]:
    import os

    return subprocess.run(
        ["git", "clone", "-q", str(repo.root), str(into)],
        capture_output=True, text=True, env={**os.environ, **GIT_ENV}, check=False,
    )


def test_a_compiled_long_name_in_wide_characters_checks_out_in_a_clone(git_repo: GitRepo, tmp_path: Path):
    """R40: a 247-byte file name in 4-byte characters and a 100-character frontmatter id compile
    into objects whose every path component is within 255 bytes: the compile updates its own work
    tree, and a clone checks out with a clean `git status`."""
    name = WIDE * 61 + ".md"
    assert len(name.encode()) == 247
    git_repo.commit(
        {
            f"{K}/{name}": source(f"# Wide\n{BODY}", title="Wide"),
            f"{K}/long-id.md": source(f"# Long id\n{BODY}", title="Long id", id=WIDE * 100),
        }
    )
    assert git_repo.wikigen("check").code == 0
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 0, compiled.err
    assert "not updated" not in compiled.err, compiled.err
    assert git_repo.git("status", "--porcelain").stdout == ""
    paths = git_repo.git("ls-tree", "-r", "--name-only", "-z", "HEAD").stdout.split("\0")
    assert max(len(part.encode()) for path in paths for part in path.split("/")) <= 255
    copy = tmp_path / "clone"
    result = clone(git_repo, copy)
    assert result.returncode == 0 and "checkout failed" not in result.stderr, result.stderr
    status = subprocess.run(["git", "status", "--porcelain"], cwd=copy, capture_output=True, text=True, check=True)
    assert status.stdout == ""


MAKERS = {
    "concept": lambda text: concept_id(text),
    "one-source article": lambda text: article_id([text], ""),
    "synthesis": lambda text: article_id([text, "b"], text),
    "topic": lambda text: topic_id(text, ["concept/a"]),
}


def test_every_object_file_name_is_within_255_bytes():
    """R40: whatever the text an id is made from, its object's file name fits 255 bytes, and the same
    text always gives the same id."""
    for text in (WIDE * 300, "knowledge/" + WIDE * 90, "𝔸" * 90 + "_x", "é" * 300, "a" * 300):
        for kind, make in MAKERS.items():
            oid = make(text)
            assert len(object_path(oid).rsplit("/", 1)[1].encode()) <= 255, (kind, text[:12])
            assert oid == make(text)


def test_a_slug_within_the_limit_is_unchanged():
    """R40: only a slug over the byte limit is cut; the ones that fitted keep their names (ids never
    change for what was already portable: existing snapshots stay byte-identical)."""
    assert slugify("Control plane") == "control_plane"
    assert slugify("kube-apiserver") == "kube-apiserver"
    assert slugify("中" * 72) == "中" * 72  # 216 bytes: fits
    fits = "knowledge--" + WIDE * 60  # 251 bytes, cut by no rule before
    assert slugify(fits) == fits and len(fits.encode()) <= MAX_SLUG_BYTES
    over = "knowledge--" + WIDE * 61  # 255 bytes
    cut = slugify(over)
    assert cut.startswith("knowledge--" + WIDE * 55) and len(cut.encode()) <= MAX_SLUG_BYTES
    assert cut != slugify("knowledge--" + WIDE * 62)  # the hash keeps long names apart


K2 = "content/sources/knowledge"
COLLIDING = {
    "letter case": ("Pods.md", "pods.md", {}, {}),
    "NFC and NFD": (unicodedata.normalize("NFC", "café.md"), unicodedata.normalize("NFD", "café.md"), {}, {}),
    "slash and double hyphen": ("a/b.md", "a--b.md", {}, {}),
    "compatibility ligature": ("ﬁle.md", "file.md", {}, {}),
    "frontmatter ids by case": ("one.md", "two.md", {"id": "Shared"}, {"id": "shared"}),
}


# Ids that stay apart in their generated names (`a b` and `a_b`, `a-b` and `a--b`): never refused.
LOOK_ALIKES = {
    f"{K2}/alike/one.md": source(f"# One\n{BODY}", title="One", id="a b"),
    f"{K2}/alike/two.md": source(f"# Two\n{BODY}", title="Two", id="a_b"),
    f"{K2}/alike/a-b.md": source(f"# Three\n{BODY}", title="Three"),
    f"{K2}/alike/a--b.md": source(f"# Four\n{BODY}", title="Four"),
}


@pytest.mark.parametrize("case", sorted(COLLIDING))
def test_sources_whose_ids_collide_are_refused_with_both_files_named(git_repo: GitRepo, case: str):
    """R40, R5: `check` (work tree, --staged), `plan` and `compile` refuse two sources that would be
    compiled to the same article, each problem naming the other file; nothing is published. Ids
    that only look alike pass."""
    first, second, front1, front2 = COLLIDING[case]
    one, two = f"{K2}/{first}", f"{K2}/{second}"
    git_repo.commit(
        {
            one: source(f"# One\n{BODY}", title="One", **front1),
            two: source(f"# Two\n{BODY}", title="Two", **front2),
            **LOOK_ALIKES,
        }
    )
    head = git_repo.head()
    for args in (("check",), ("check", "--staged"), ("plan",)):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        assert f"{one}:" in result.out and f"{two}:" in result.out, (args, result.out)
        line = next(x for x in result.out.splitlines() if x.startswith(f"{one}:"))
        assert two in line, line  # each problem names the other file
        assert not any(path in result.out for path in LOOK_ALIKES), result.out
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1 and one in compiled.err and two in compiled.err, compiled.err
    assert "duplicate article" not in compiled.err
    assert git_repo.head() == head


def test_check_of_one_named_file_names_the_committed_file_it_collides_with(git_repo: GitRepo):
    """R40: `check FILE` (how pre-commit calls it) finds the collision with a compiled source."""
    git_repo.commit({f"{K2}/pods.md": source(f"# Pods\n{BODY}", title="Pods")})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.write({f"{K2}/Pods.md": source(f"# Pods again\n{BODY}", title="Pods again")})
    result = git_repo.wikigen("check", str(git_repo.root / K2 / "Pods.md"))
    assert result.code == 1
    assert f"{K2}/Pods.md:1: " in result.out and f"{K2}/pods.md" in result.out, result.out


def test_a_source_added_beside_a_compiled_one_it_collides_with_is_refused(git_repo: GitRepo):
    """R40: a plan made from the diff alone (R7: unchanged sources are never read) still finds
    that a new id is one name with a compiled source's, and names both files."""
    git_repo.commit({f"{K2}/pods.md": source(f"# Pods\n{BODY}", title="Pods")})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.commit({f"{K2}/Pods.md": source(f"# Pods again\n{BODY}", title="Pods again")})
    head = git_repo.head()
    for args in (("plan",), ("check", "--staged"), ("hook",)):
        result = git_repo.wikigen(*args)
        assert result.code == 1, (args, result)
        assert f"{K2}/Pods.md:1: " in result.out and f"{K2}/pods.md:1: " in result.out, (args, result.out)
    compiled = git_repo.wikigen("compile", "--engine", "offline")
    assert compiled.code == 1 and f"{K2}/Pods.md" in compiled.err and f"{K2}/pods.md" in compiled.err
    assert git_repo.head() == head


