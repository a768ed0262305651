"""scripts/make_corpus.py: the synthetic scale corpus is deterministic and valid."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from wikigen.model.config import Config
from wikigen.model.sources import Source, parse_source
from wikigen.model.tree_problems import duplicate_id_problems

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "make_corpus.py"
_spec = importlib.util.spec_from_file_location("make_corpus", SCRIPT)
assert _spec is not None and _spec.loader is not None
make_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_corpus)


def test_same_seed_same_corpus_and_every_source_is_valid_in_its_category():
    files = list(make_corpus.generate(200, seed=3))
    assert files == list(make_corpus.generate(200, seed=3))
    assert files != list(make_corpus.generate(200, seed=4))
    assert len(files) == len({path for path, _ in files}) == 200
    parsed = [parse_source(path, data, "0" * 40, Config()) for path, data in files]
    assert all(isinstance(s, Source) for s in parsed), [p for p in parsed if not isinstance(p, Source)][:3]
    sources = [s for s in parsed if isinstance(s, Source)]
    assert {s.category for s in sources} == {"knowledge", "tasks", "retrospectives", "constraints"}
    assert all(s.path.split("/")[2] == s.category for s in sources)
    assert not duplicate_id_problems((s.path, s.id, s.id_line) for s in sources)
    assert all(re.search(r"^A \*[a-z]+\* is an? ", s.body, re.M) for s in sources)  # each defines a term
    sizes = sorted(len(s.body) for s in sources)
    assert sizes[0] >= 200 and sizes[-1] > 3 * sizes[len(sizes) // 2]  # a long tail
