"""wikigen: a git-native static wiki generator with strictly incremental compiles."""

from __future__ import annotations

from wikigen.config import Config, load_config
from wikigen.errors import Problem, WikigenError
from wikigen.plan import Plan, make_plan
from wikigen.snapshot import Snapshot, load_snapshot, read_snapshot, snapshot_files
from wikigen.sources import Source, parse_source
from wikigen.workspace import Workspace

__version__ = "0.1.0"

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
