"""R31, E5: a committed hand edit of a generated file makes `verify` fail naming the file, and the
next compile refuses with the command that restores it (`git checkout <compiler commit> -- path`).

Before the fix, the hand edit survived the next compile (it even became part of the new snapshot's
tree), and `verify` said only "edited by hand?" without the fix.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import GitRepo, source
from wikigen.model.objects import object_path
from wikigen.model.snapshot import SNAPSHOT_PATH

K = "content/sources/knowledge"
POD = "# Pods\n\nA pod is a group of one or more containers that share storage and network resources.\n"
NODE = "# Nodes\n\nA node is a worker machine that runs pods and is managed by the control plane.\n"
ARTICLE = object_path("article/knowledge--pod")


def compiled(repo: GitRepo) -> str:
    repo.commit({f"{K}/pod.md": source(POD, title="Pods")})
    assert repo.wikigen("compile", "--engine", "offline").code == 0
    return repo.head()


def restore(repo: GitRepo, text: str) -> None:
    """Run the command the message gives, then commit, as a user would."""
    command = re.search(r"`(git checkout [0-9a-f]{12} -- [^`]+)`", text)
    assert command is not None, text
    repo.git(*command.group(1).split()[1:])
    repo.git("commit", "-q", "-m", "restore the compiler's files")


EDITS = {
    "article edited": lambda repo: {ARTICLE: repo.read(ARTICLE).replace("A pod is", "A pod was")},
    "article deleted": lambda repo: {ARTICLE: None},
    "snapshot edited": lambda repo: {
        SNAPSHOT_PATH: repo.read(SNAPSHOT_PATH).replace('"version": 1', '"version": 9', 1)
    },
}
NAMED = {"article edited": ARTICLE, "article deleted": ARTICLE, "snapshot edited": SNAPSHOT_PATH}


@pytest.mark.parametrize("case", sorted(EDITS))
def test_hand_edit_fails_verify_and_compile_names_the_restore(git_repo: GitRepo, case: str):
    """R31: verify fails naming the file; compile refuses (no engine call, no commit) with
    `git checkout <last compiler commit> -- path`; that command, committed, makes both pass again."""
    published = compiled(git_repo)
    git_repo.commit(EDITS[case](git_repo), message="hand edit")
    git_repo.commit({f"{K}/node.md": source(NODE, title="Nodes")}, message="an unrelated source")
    path = NAMED[case]

    verify = git_repo.wikigen("verify")
    assert verify.code == 1 and path in verify.out and f"git checkout {published[:12]} -- {path}" in verify.out

    head = git_repo.head()
    result = git_repo.wikigen("compile", "--engine", "offline")
    assert result.code == 1 and git_repo.head() == head
    assert path in result.err and f"`git checkout {published[:12]} -- {path}`" in result.err
    assert "Traceback" not in result.err

    restore(git_repo, result.err)
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    assert git_repo.wikigen("verify").code == 0
    assert json.loads(git_repo.read(SNAPSHOT_PATH))["version"] == 2


def test_people_s_own_files_in_generated_folders_are_not_hand_edits(git_repo: GitRepo):
    """R38: a file the snapshot does not own is left alone, edited or not."""
    compiled(git_repo)
    git_repo.commit({"content/wiki/notes.md": "# my notes\n"}, message="mine")
    git_repo.commit({"content/wiki/notes.md": "# my notes, edited\n",
                     f"{K}/node.md": source(NODE, title="Nodes")}, message="mine again")
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    assert git_repo.wikigen("verify").code == 0
    assert git_repo.read("content/wiki/notes.md") == "# my notes, edited\n"
