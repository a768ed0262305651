"""V3, R31: the communities record (its shards, ``content/.wikigen/communities/``) is the compiler's
like every generated file, so a hand edit of it fails `verify`, naming it."""

from __future__ import annotations

from tests.conftest import GitRepo, source
from wikigen.compiler.community_record import COMMUNITIES_DIR

K = "content/sources/knowledge"
POD = (
    "# Pods\n\nA pod is a group of one or more containers that share storage and network resources.\n\n"
    "A pod runs on a node, and the kubelet starts every pod that the scheduler binds to its node.\n"
)
NODE = (
    "# Nodes\n\nA node is a worker machine that runs pods and is managed by the control plane.\n\n"
    "The kubelet runs on every node and starts the containers of each pod.\n"
)


def test_a_hand_edited_communities_record_fails_verify(git_repo: GitRepo) -> None:
    git_repo.commit({f"{K}/pod.md": source(POD, title="Pods"), f"{K}/node.md": source(NODE, title="Nodes")})
    assert git_repo.wikigen("compile", "--engine", "offline").code == 0
    shards = sorted((git_repo.root / COMMUNITIES_DIR).rglob("*.json"))
    assert shards  # relations were found, so communities were recorded
    shard = shards[0].relative_to(git_repo.root).as_posix()
    assert git_repo.wikigen("verify").code == 0
    git_repo.commit({shard: git_repo.read(shard).replace("{", '{"edited": "1",', 1)}, message="hand edit")
    verify = git_repo.wikigen("verify")
    assert verify.code == 1 and shard in verify.out
