"""wikigen: a git-native static wiki generator with strictly incremental compiles.

The names below are loaded when first asked for (PEP 562), so that ``wikigen compile`` can start
reading the work tree's status before the compiler's modules are imported."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS = {
    "Config": "wikigen.model.config",
    "Plan": "wikigen.compiler.plan",
    "Problem": "wikigen.model.errors",
    "Snapshot": "wikigen.store.snapshot",
    "Source": "wikigen.model.sources",
    "WikigenError": "wikigen.model.errors",
    "Workspace": "wikigen.store.workspace",
    "load_config": "wikigen.model.config",
    "load_snapshot": "wikigen.store.snapshot",
    "make_plan": "wikigen.compiler.plan",
    "parse_source": "wikigen.model.sources",
    "read_snapshot": "wikigen.store.snapshot",
    "snapshot_files": "wikigen.store.snapshot",
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
    from wikigen.compiler.plan import Plan, make_plan
    from wikigen.model.config import Config, load_config
    from wikigen.model.errors import Problem, WikigenError
    from wikigen.model.snapshot import Snapshot
    from wikigen.model.sources import Source, parse_source
    from wikigen.store.snapshot import load_snapshot, read_snapshot, snapshot_files
    from wikigen.store.workspace import Workspace


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'wikigen' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
