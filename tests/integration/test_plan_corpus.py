"""R7 on the 6,643 tldr pages: a no-op plan reads 0 blobs, one edit reads exactly 1."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.corpora import baseline_files, commit_files, corpus_available, corpus_files
from wikigen.store.workspace import Workspace

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not corpus_available("tldr"), reason="../shared/corpora/tldr-pages is not beside the repo"
    ),
]


def test_tldr_noop_reads_no_blob_and_one_edit_reads_one(git_repo: GitRepo):
    """R7."""
    files = corpus_files("tldr")
    assert len(files) == 6643
    commit_files(git_repo.repo, dict(files))
    plan = Workspace.open(git_repo.root).plan()
    assert len(plan.added) == 6643 and not plan.invalid
    # The baseline is written by the snapshot module's own writer, as the compiler does.
    commit_files(git_repo.repo, baseline_files(git_repo.repo, plan), "baseline")

    noop = Workspace.open(git_repo.root).plan()
    assert noop.blobs_read == 0 and noop.unchanged == 6643 and not noop.needs_compile

    path = "content/sources/knowledge/tldr/linux/apx.md"
    commit_files(
        git_repo.repo, {path: files[path] + b"\n- One more example line for this page:\n\n`apx help`\n"}
    )
    edit = Workspace.open(git_repo.root).plan()
    assert edit.blobs_read == 1 and edit.updated == ("knowledge/tldr/linux/apx",) and edit.unchanged == 6642
