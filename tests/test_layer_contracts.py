"""The layer contracts in `.importlinter` name every module of the compiler, so that a new module
cannot stand outside them (the contracts themselves run as `lint-imports` in `make test`)."""

from __future__ import annotations

import configparser

from tests.corpora import REPO_ROOT


def test_every_compiler_module_is_the_driver_or_a_stage_the_contracts_name():
    """A module added under wikigen/compiler/ must be placed: in the driver's layers, or among the
    pure stages that may never import the store."""
    contracts = configparser.ConfigParser()
    contracts.read(REPO_ROOT / ".importlinter", encoding="utf-8")
    layers = contracts["importlinter:contract:layers"]["layers"]
    stages = contracts["importlinter:contract:stages"]["source_modules"].split()
    named = {m.strip() for line in layers.splitlines() for m in line.replace("|", ":").split(":") if m.strip()}
    modules = {
        f"wikigen.compiler.{path.stem}" for path in (REPO_ROOT / "wikigen/compiler").glob("*.py") if path.stem != "__init__"
    }
    assert modules - named == set()
    driver_level = {
        "wikigen.compiler.driver",
        "wikigen.compiler.increment_run",
        "wikigen.compiler.preflight",
        "wikigen.compiler.increments",
    }
    assert modules - driver_level == set(stages)


def test_the_folders_only_the_compiler_writes_are_named_the_same_in_the_stdlib_helper():
    """R31: the git command-line helper imports the standard library alone, so it names the compiler's
    folders again; they are the configuration's."""
    from wikigen.model.config import GENERATED_DIRS
    from wikigen.store.git_cli import GENERATED

    assert tuple(f"{folder}/" for folder in GENERATED_DIRS) == GENERATED
