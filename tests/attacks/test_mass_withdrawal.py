"""R29: renaming the sources folder withdraws every source. A compile that would withdraw more
than half of the compiled sources, and more than 10 at once, refuses without
`--allow-mass-withdrawal`, naming the count.

Before the fix, `git mv content/sources/knowledge content/sources/kb` followed by a compile withdrew
every source and revoked the whole wiki without a word (or, with the renamed folder an unknown
category, failed on the sources instead of the withdrawal).
"""

from __future__ import annotations

from tests.conftest import GitRepo, source

K = "content/sources/knowledge"


def library(count: int, folder: str = K) -> dict[str, str]:
    return {
        f"{folder}/s{i:02}.md": source(
            f"# Topic {i}\n\nTopic {i} is described here at enough length to be a passage of its own.\n",
            title=f"Topic {i}",
        )
        for i in range(count)
    }


def compiled_library(repo: GitRepo, count: int) -> None:
    repo.commit(library(count))
    result = repo.wikigen("compile", "--engine", "offline")
    assert result.code == 0, result


def test_withdrawing_most_sources_at_once_is_refused_with_the_count(git_repo: GitRepo):
    """R29: 12 of 14 sources removed at once (a moved folder with ids by path): refused,
    no commit, the count and the flag named; with --allow-mass-withdrawal it publishes."""
    compiled_library(git_repo, 14)
    git_repo.commit({path: None for path in list(library(14))[:12]}, message="moved the folder away")
    head = git_repo.head()
    result = git_repo.wikigen("compile", "--engine", "offline")
    assert result.code == 1 and git_repo.head() == head, result
    assert "withdraw 12 of the 14 compiled sources" in result.err and K in result.err
    assert "--allow-mass-withdrawal" in result.err and "Traceback" not in result.err
    forced = git_repo.wikigen("compile", "--engine", "offline", "--allow-mass-withdrawal")
    assert forced.code == 0, forced
    assert sorted(git_repo.snapshot().manifest) == ["knowledge/s12", "knowledge/s13"]


def test_renamed_sources_folder_is_refused(git_repo: GitRepo):
    """R29: `git mv` of the category folder to an alias folder (ids follow the path): every
    old id is withdrawn and every new one added — refused, naming the count."""
    compiled_library(git_repo, 11)
    git_repo.git("mv", K, "content/sources/requirements")  # an alias of tasks: valid, new ids
    git_repo.git("commit", "-q", "-m", "rename the folder")
    result = git_repo.wikigen("compile", "--engine", "offline")
    assert result.code == 1 and "withdraw 11 of the 11 compiled sources" in result.err, result


def test_small_or_partial_withdrawals_need_no_flag(git_repo: GitRepo):
    """R29: both limits must be passed: 10 of 12 (not over 10) and 11 of 24 (not over
    half) compile as before."""
    compiled_library(git_repo, 12)
    git_repo.commit({path: None for path in list(library(12))[:10]}, message="ten")
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.commit(library(24), message="more")
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    git_repo.commit({path: None for path in list(library(24))[:11]}, message="eleven of 24")
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
