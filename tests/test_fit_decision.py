"""scripts/fit_decision.py's leave-one-corpus-out table, which scripts/bench_quality.py --loo prints:
each corpus left out is measured on its own judged items with a decision fitted on the others."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "fit_decision.py"
_spec = importlib.util.spec_from_file_location("fit_decision", SCRIPT)
assert _spec is not None and _spec.loader is not None
fit_decision = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = fit_decision
_spec.loader.exec_module(fit_decision)


def _item(kind: str, verdict: str, **fired: float) -> dict[str, object]:
    names = [f.name for f in fit_decision.KINDS[kind]]
    return {"kind": kind, "verdict": verdict, "features": {n: fired.get(n, 0.0) for n in names}}


def test_each_left_out_corpus_is_measured_on_its_own_judged_items(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42, leave one corpus out: the row of a corpus left out gives the engine's own precision
    on that corpus's judged items ("before"), whatever the others hold."""
    recorded = {
        "farm": [_item("definition", "ok"), _item("definition", "ok", negation=1.0), _item("definition", "wrong", negation=1.0)],
        "mill": [_item("definition", "ok"), _item("definition", "wrong", negation=1.0), _item("definition", "wrong")],
        "barn": [_item("definition", "ok"), _item("definition", "ok"), _item("definition", "ok"), _item("definition", "wrong")],
    }
    fit_decision.print_left_out(recorded, 0.9)
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| farm") or line.startswith("| mill") or line.startswith("| barn")]
    cells = {tuple(c.strip() for c in row.strip("|").split("|"))[:4] for row in rows}
    assert ("farm", "definition", "3", "0.667") in cells
    assert ("mill", "definition", "3", "0.333") in cells
    assert ("barn", "definition", "4", "0.75") in cells
    assert ("barn", "relation", "0", "None") in cells
