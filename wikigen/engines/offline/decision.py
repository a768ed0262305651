"""The fitted decision (R20, precision first): which definitions and relations the offline engine keeps.

A logistic model over the features of :mod:`wikigen.engines.offline.features`, fitted at
development time on the judged rows of the dev corpora (``scripts/fit_decision.py``) and committed
as data (``decision.json`` beside this module). At run time it is plain arithmetic — no training,
no randomness: the score is ``1 / (1 + exp(-(bias + Σ weight × feature)))``, rounded to six
decimals, and an item is kept when its score reaches the table's threshold. A table with no
weights keeps everything.

``record``, when given, receives every scored item (the benchmark fits and measures with it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from wikigen.engines.offline.features import (
    DEFINITION_FEATURES,
    RELATION_FEATURES,
    DefinitionView,
    Feature,
    RelationView,
    measured,
)
from wikigen.model.errors import EngineError

WEIGHTS = Path(__file__).with_name("decision.json")


@dataclass(frozen=True, slots=True)
class Table:
    """One fitted model: a bias, a weight per feature and the threshold a score must reach."""

    bias: float = 0.0
    weights: Mapping[str, float] = field(default_factory=dict)
    threshold: float = 0.0

    def score(self, features: Mapping[str, float]) -> float:
        z = self.bias + sum(w * features.get(name, 0.0) for name, w in sorted(self.weights.items()))
        return round(1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z)))), 6)

    def keeps(self, features: Mapping[str, float]) -> bool:
        return not self.weights or self.score(features) >= self.threshold


@dataclass(frozen=True, slots=True)
class Decision:
    definitions: Table = Table()
    relations: Table = Table()
    record: Callable[[str, Mapping[str, Any], float, bool], None] | None = None

    @classmethod
    def load(cls, path: Path = WEIGHTS, record: Callable[..., None] | None = None) -> Decision:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(_table(data["definitions"], DEFINITION_FEATURES), _table(data["relations"], RELATION_FEATURES), record)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise EngineError(f"{path}: not a decision table ({error}); reinstall wikigen") from error

    @property
    def weighs(self) -> bool:
        """Whether there is anything to weigh or record: with no weights and no recorder every item
        is kept, and a caller builds no view."""
        return bool(self.definitions.weights or self.relations.weights or self.record is not None)

    def keeps_definition(self, view: DefinitionView, item: Mapping[str, Any]) -> bool:
        return self._keeps("definition", self.definitions, view, measured(DEFINITION_FEATURES, view), item)

    def keeps_relation(self, view: RelationView, item: Mapping[str, Any]) -> bool:
        return self._keeps("relation", self.relations, view, measured(RELATION_FEATURES, view), item)

    def _keeps(
        self,
        kind: str,
        table: Table,
        view: DefinitionView | RelationView,
        features: dict[str, float],
        item: Mapping[str, Any],
    ) -> bool:
        kept = table.keeps(features)
        if self.record is not None:
            self.record(kind, {**item, "view": asdict(view), "features": features}, table.score(features), kept)
        return kept


def _table(data: Mapping[str, Any], features: tuple[Feature, ...]) -> Table:
    known = {f.name for f in features}
    weights = {str(name): float(w) for name, w in data.get("weights", {}).items()}
    unknown = sorted(set(weights) - known)
    if unknown:
        raise ValueError(f"unknown features {', '.join(unknown)}")
    return Table(float(data.get("bias", 0.0)), weights, float(data.get("threshold", 0.0)))
