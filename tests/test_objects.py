"""Compiled object files: LibYAML reads them exactly as the pure-Python YAML parser does, and writes
them byte for byte as the pure-Python emitter does.

The compiler reads and writes its own object files with PyYAML's C parser and emitter where PyYAML
has them (wikigen.model.objects), so what a file holds must not depend on which one ran. The C emitter
escapes some text the pure one writes as it is (emoji, NEL, the Unicode separators): an object
holding such text is written by the pure emitter, which this file shows too.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from wikigen.model import objects
from wikigen.model.objects import parse_object, render_object

pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without LibYAML")

# Text as sources bring it: any Unicode scalar (surrogates cannot be UTF-8), with the characters
# YAML treats specially made likely.
TEXT = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(list(":#-?&*!|>'\"%@`{}[],\n\t \\\u00a0\u2028\ufeff\x85")),
    ),
    max_size=80,
)
SCALAR = st.one_of(TEXT, st.integers(), st.booleans(), st.none(), st.sampled_from(["yes", "null", "1e3", "~"]))
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(TEXT, VALUE, min_size=1, max_size=6))
def test_libyaml_reads_what_the_compiler_writes_as_pure_python_does(data: dict[str, Any]) -> None:
    assert objects._LOADER is yaml.CSafeLoader
    written = objects._dump_yaml(data)
    # (the pure parser itself reads some text back changed, NEL ("\\x85") as a space: the same in both)
    assert yaml.load(written, Loader=yaml.CSafeLoader) == yaml.safe_load(written)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, VALUE, min_size=1, max_size=6))
def test_an_object_is_written_the_same_whichever_emitter_runs(data: dict[str, Any]) -> None:
    """R24."""
    pure = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100_000, default_flow_style=False)
    assert objects._dump_yaml(data) == pure


def test_an_object_file_round_trips_and_is_written_by_the_pure_emitter() -> None:
    concept = {
        "id": "concept/pid",
        "kind": "concept",
        "name": "PID",
        "aliases": ["process identifier"],
        "type": "concept",
        "definition": {"text": "A `PID` 😀 «process identifier»: 进程 #1", "status": "stated", "citations": []},
        "citations": [],
    }
    data = render_object(concept)
    assert "😀".encode() in data  # LibYAML's emitter would have written "\U0001F600"
    assert parse_object(data) == concept
