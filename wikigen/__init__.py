"""wikigen: a git-native static wiki generator with strictly incremental compiles.

The names below are loaded when first asked for (PEP 562), so that ``wikigen compile`` can start
reading the work tree's status before the compiler's modules are imported (issue 14)."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Config": "wikigen.config",
    "Plan": "wikigen.plan",
    "Problem": "wikigen.errors",
    "Snapshot": "wikigen.snapshot",
    "Source": "wikigen.sources",
    "WikigenError": "wikigen.errors",
    "Workspace": "wikigen.workspace",
    "load_config": "wikigen.config",
    "load_snapshot": "wikigen.snapshot",
    "make_plan": "wikigen.plan",
    "parse_source": "wikigen.sources",
    "read_snapshot": "wikigen.snapshot",
    "snapshot_files": "wikigen.snapshot",
}

__all__ = [
    "Config",
    "Plan",
    "Problem",
    "Snapshot",
    "Source",
    "WikigenError",
    "Workspace",
    "__version__",
    "load_config",
    "load_snapshot",
    "make_plan",
    "parse_source",
    "read_snapshot",
    "snapshot_files",
]

if TYPE_CHECKING:
    from wikigen.config import Config, load_config
    from wikigen.errors import Problem, WikigenError
    from wikigen.plan import Plan, make_plan
    from wikigen.snapshot import Snapshot, load_snapshot, read_snapshot, snapshot_files
    from wikigen.sources import Source, parse_source
    from wikigen.workspace import Workspace


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wikigen' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
