"""How the HTTP engine asks for structured output: the three ways, most exact first (a JSON Schema, JSON
mode with the schema beside it, plain JSON mode), the delta schema as each stage's contract, and
telling an error answer that refuses the way it was asked from one that refuses the request.

The schema sent is the delta schema without its annotations (titles, descriptions, ``$id``): what
they say, the instructions say (R19, R22), and a server enforcing the schema reads none of it. The
answer is checked against the whole schema either way.
"""

from __future__ import annotations

from typing import Any

from wikigen.schemas import load_schema

# How structured output is asked for, most exact first: a server that rejects one gets the next.
JSON_SCHEMA = "json_schema"
JSON_OBJECT_SCHEMA = "json_object+schema"  # JSON mode with the schema beside it (llama-cpp-python)
JSON_OBJECT = "json_object"
FORMATS = (JSON_SCHEMA, JSON_OBJECT_SCHEMA, JSON_OBJECT)


# Keywords that describe a schema without constraining it: the instructions carry their meaning.
ANNOTATIONS = frozenset({"$schema", "$id", "title", "description"})


def stage_schema(stage: str) -> dict[str, Any]:
    """The delta schema as this stage's contract: recheck may only add relations, so its articles,
    concepts and topics are empty arrays. A server that enforces the schema (a grammar, strict
    structured output) then cannot break the rule; the compiler checks it either way."""
    schema: dict[str, Any] = _constraints(load_schema("delta"))
    if stage != "recheck":
        return schema
    properties = {**schema["properties"]}
    for key in ("articles", "concepts", "topics"):
        # Items kept: llama.cpp's grammar maker ignores maxItems on an array without them (any array).
        properties[key] = {**properties[key], "maxItems": 0}
    return {**schema, "properties": properties}


def rejects_format(status: int, text: str, response_format: str) -> bool:
    """Whether an error answer refuses the way structured output was asked for, not the request.

    Told by what the answer names, never by its status alone: servers say it with 400, 422 or 500.
    """
    if status < 400:
        return False
    lowered = text.lower()
    named: tuple[str, ...] = ("response_format", "response format", "json_schema", "json schema")
    if response_format == JSON_OBJECT_SCHEMA:
        # A server may take JSON mode but not the schema beside it (or fail to make a grammar of it).
        named += ("schema", "grammar")
    return any(word in lowered for word in named)


def _constraints(schema: Any) -> Any:
    """``schema`` without its annotations (:data:`ANNOTATIONS`); ``properties`` keeps every name."""
    if isinstance(schema, dict):
        return {
            key: (
                {name: _constraints(value) for name, value in sub.items()}
                if key in ("properties", "$defs") and isinstance(sub, dict)
                else _constraints(sub)
            )
            for key, sub in schema.items()
            if key not in ANNOTATIONS
        }
    if isinstance(schema, list):
        return [_constraints(item) for item in schema]
    return schema
