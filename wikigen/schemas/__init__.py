"""The JSON Schemas of the engine contract (R19), beside the files that define them.

The compiler (``validate``) and the HTTP engine (which checks a server's answer before it returns
it) both list a delta's schema problems here; this module imports nothing from wikigen, so either
can use it without importing the other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

import jsonschema

_validators: dict[str, jsonschema.protocols.Validator] = {}


def load_schema(name: str) -> dict[str, Any]:
    """The schema ``wikigen/schemas/<name>.json`` (``delta`` or ``request``) as a dict."""
    text = resources.files("wikigen").joinpath(f"schemas/{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _validator() -> jsonschema.protocols.Validator:
    if "delta" not in _validators:
        _validators["delta"] = jsonschema.Draft202012Validator(load_schema("delta"))
    return _validators["delta"]


def schema_problems(delta: Mapping[str, Any], stage: str) -> list[str]:
    """Every way ``delta`` breaks the delta schema, in path order, plus recheck's relations-only rule."""
    problems = []
    for error in sorted(_validator().iter_errors(delta), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        problems.append(f"{stage}: schema: {where}: {error.message}")
    if stage == "recheck":
        for key in ("articles", "concepts", "topics"):
            if delta.get(key):
                problems.append(f"recheck: may only add relations, but returned {key}")
    return problems
