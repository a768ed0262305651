"""The fitted decision's features and its arithmetic (R20: the offline engine, precision first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wikigen.engines.offline.decision import WEIGHTS, Decision, Table
from wikigen.engines.offline.features import (
    DEFINITION_FEATURES,
    RELATION_FEATURES,
    DefinitionView,
    Feature,
    measured,
)
from wikigen.model.errors import EngineError

ROWS = [*(("definition", f) for f in DEFINITION_FEATURES), *(("relation", f) for f in RELATION_FEATURES)]


@pytest.mark.parametrize(("kind", "feature"), ROWS, ids=[f"{k}-{f.name}" for k, f in ROWS])
def test_each_feature_fires_on_its_example_and_not_on_its_counter_example(kind: str, feature: Feature) -> None:
    """R20: every feature the decision weighs is a table row proved by the example it must fire on
    and the one it must not."""
    assert feature.test(feature.fires_on) > 0, feature.what
    assert feature.test(feature.not_on) == 0, feature.what


def test_feature_names_are_unique_per_table() -> None:
    """R20: a weight names one feature."""
    for table in (DEFINITION_FEATURES, RELATION_FEATURES):
        names = [f.name for f in table]
        assert len(names) == len(set(names))


def test_a_table_without_weights_keeps_everything() -> None:
    """R20: with no fitted weights the decision keeps every definition and relation."""
    features = measured(DEFINITION_FEATURES, DefinitionView("s", "Here, `s` will be a copy.", "copula"))
    assert Table().keeps(features)


def test_a_fitted_table_drops_what_scores_under_its_threshold() -> None:
    """R20, precision first: an item is kept where its score reaches the threshold, by plain
    arithmetic (the same features give the same score)."""
    table = Table(bias=1.0, weights={"leans_back": -3.0, "short_name": -2.0}, threshold=0.5)
    leaning = measured(DEFINITION_FEATURES, DefinitionView("s", "Here, `s` will be a copy.", "copula"))
    defining = measured(DEFINITION_FEATURES, DefinitionView("Pod", "A Pod is a group of containers.", "copula"))
    assert not table.keeps(leaning)
    assert table.keeps(defining)
    assert table.score(defining) == table.score(dict(defining)) == 0.731059


def test_the_committed_table_loads_and_names_only_known_features() -> None:
    """R20: the committed weights are data the engine reads; every weight names a feature."""
    decision = Decision.load()
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert set(decision.definitions.weights) == set(data["definitions"].get("weights", {}))
    assert set(decision.relations.weights) == set(data["relations"].get("weights", {}))


def test_a_table_naming_an_unknown_feature_is_refused(tmp_path: Path) -> None:
    """R20: a weight for a feature the engine does not compute is an error naming the file."""
    path = tmp_path / "decision.json"
    path.write_text(json.dumps({"definitions": {"weights": {"nope": 1}}, "relations": {}}), encoding="utf-8")
    with pytest.raises(EngineError, match=r"decision\.json.*nope"):
        Decision.load(path)
