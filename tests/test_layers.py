"""The package's layers, read from the source with ``ast`` (nothing is imported).

Three layers, from the bottom:

- **the core**: every module of ``wikigen/`` outside the other two, i.e. the pure stages (plan,
  invalidate, context, validate, merge), the stores (gitstore, snapshot, publish, sourceset), the
  leaves everyone uses (errors, config, hashing, ids, schemas, evidence) and the commands that need
  no engine (checks, status, verify, scaffold, workspace), plus the public API in ``__init__``;
- **the engines** (``wikigen/engines/``): ``base`` is the contract (Usage, Delta, Engine, STAGES,
  empty_delta), the others implement it, and ``engines/__init__`` holds the factory;
- **the edges**: the driver ``pipeline`` (the only code that runs an engine), the commands built on
  it (``remote``: compile, then push), the command line (``cli``, ``__main__``) and the reader's
  site (``wikigen/views/``), which reads committed objects and never runs an engine.

The rules: the core imports only the core, so it never reaches an engine or the driver, however
indirectly; the contract imports no engine and nothing of the core but the leaves it needs; the
HTTP engine takes schema checking from ``wikigen.schemas``, not from the compiler's ``validate``;
and no module imports, at any depth and lazily or not, one that imports it back.

An import counts wherever it is written (module level, inside a function, under TYPE_CHECKING).
``from pkg import name`` counts as an import of ``pkg.name`` when that is a module, else of ``pkg``;
the parent packages Python runs on the way are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

from tests.corpora import REPO_ROOT

PACKAGE = REPO_ROOT / "wikigen"
EDGE_MODULES = {"wikigen.compiler.driver", "wikigen.commands.push", "wikigen.cli", "wikigen.__main__"}
EDGE_PACKAGES = ("wikigen.engines", "wikigen.views")
# What the contract may lean on: leaves that import nothing of wikigen themselves.
CONTRACT_MAY_IMPORT = {"wikigen.model.hashing", "wikigen.model.errors"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str) -> set[str]:
    """The wikigen modules ``name`` imports."""
    path = MODULES[name]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        found.update(target for target in targets if target.split(".")[0] == "wikigen")
    found.discard(name)
    return found


def _is_core(name: str) -> bool:
    return name not in EDGE_MODULES and not any(
        name == package or name.startswith(package + ".") for package in EDGE_PACKAGES
    )


CORE = sorted(name for name in MODULES if _is_core(name))
ENGINES = sorted(name for name in MODULES if name.startswith("wikigen.engines."))


def test_the_layers_are_what_the_docstring_says():
    # A renamed or new module must land in a layer on purpose.
    assert {"wikigen.compiler.context", "wikigen.compiler.resolve", "wikigen.model.hashing", "wikigen.schemas", "wikigen"} <= set(CORE)
    assert {"wikigen.engines.contract", "wikigen.engines.offline.engine", "wikigen.engines.http.client"} <= set(ENGINES)
    assert set(MODULES) >= EDGE_MODULES


@pytest.mark.parametrize("name", CORE)
def test_the_core_imports_only_the_core(name: str):
    outside = sorted(target for target in _imports(name) if not _is_core(target))
    assert not outside, f"{name} (core) imports {outside}: engines, views and the driver sit above it"


def test_the_engine_contract_knows_no_engine_and_no_compiler():
    imported = _imports("wikigen.engines.contract")
    assert imported <= CONTRACT_MAY_IMPORT, f"engines/base.py imports {sorted(imported - CONTRACT_MAY_IMPORT)}"


@pytest.mark.parametrize("name", ENGINES)
def test_engines_never_import_the_compiler_or_the_driver(name: str):
    # An engine sees a request and returns a delta (plain JSON); the compiler's context, validation
    # and the driver that calls it are none of its business.
    forbidden = {"wikigen.compiler.context", "wikigen.compiler.resolve", "wikigen.compiler.merge", *EDGE_MODULES}
    imported = _imports(name)
    assert not imported & forbidden, f"{name} imports {sorted(imported & forbidden)}"
    assert not any(target.startswith("wikigen.views") for target in imported), name


def test_the_http_engine_checks_schemas_without_the_compiler():
    for name in ("wikigen.engines.http.client", "wikigen.engines.http.completions"):
        assert "wikigen.compiler.resolve" not in _imports(name), name
    assert "wikigen.schemas" in _imports("wikigen.engines.http.completions")


def test_the_factory_lives_beside_the_engines():
    tree = ast.parse(MODULES["wikigen.engines.contract"].read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert "make_engine" not in defined
    assert {"wikigen.engines.offline.engine", "wikigen.engines.http.client"} <= _imports("wikigen.engines")


def test_no_import_cycles():
    graph = nx.DiGraph()
    for name in MODULES:
        graph.add_node(name)
        graph.add_edges_from((name, target) for target in _imports(name) if target in MODULES)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return
    pytest.fail("import cycle: " + " → ".join([edge[0] for edge in cycle] + [cycle[-1][1]]))
