"""wikigen.yml → a frozen Config. Validation collects every problem before failing.

Precedence of every setting: command-line flag, then ``WIKIGEN_*`` environment variables, then
``wikigen.yml``, then the defaults below.
"""

from __future__ import annotations

import math
import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from wikigen.model.errors import ConfigError
from wikigen.model.yamlscan import refusal, safe_load

CONFIG_FILE = "wikigen.yml"
DEFAULT_SOURCES_DIR = "content/sources"  # one subfolder per category
SITE_DIR = "content"  # MkDocs' docs_dir: everything under it may reach the site
# Written only by the compiler: a sources folder may neither lie in nor hold one of these.
GENERATED_DIRS = ("content/wiki", "content/.wikigen")
CATEGORIES = ("knowledge", "tasks", "retrospectives", "constraints")
# R4: knowledge is always explicit, so only these three have a switch.
SWITCHED_CATEGORIES = ("tasks", "retrospectives", "constraints")
# R2: old names normalize to the four categories.
BUILTIN_ALIASES: Mapping[str, str] = {
    "requirements": "tasks",
    "decisions": "tasks",
    "requirements-decisions": "tasks",
    "task": "tasks",
    "preferences": "retrospectives",
    "experience": "retrospectives",
    "experiences": "retrospectives",
    "retrospective": "retrospectives",
    "environment": "constraints",
    "environments": "constraints",
    "constraint": "constraints",
    "professional": "knowledge",
    "uploads": "knowledge",
}
STAGES = ("analyze", "recheck")
ENGINES = ("offline", "http")
# The longest deadline the waits it bounds can hold (a socket's timeout overflows near 10**10 s).
MAX_DEADLINE_S = 1_000_000


@dataclass(frozen=True, slots=True)
class Caps:
    """R15: hard caps per increment. Over one: fail, never trim."""

    anchors: int = 100
    articles: int = 200
    relations: int = 300
    fragments: int = 1000
    input_bytes: int = 100_000


@dataclass(frozen=True, slots=True)
class Budget:
    """Per compile run, across --batch increments; None means no limit."""

    max_sent_bytes: int | None = None
    max_engine_calls: int | None = None


@dataclass(frozen=True, slots=True)
class EngineSettings:
    name: str = "offline"
    base_url: str | None = None
    models: tuple[tuple[str, str], ...] = ()
    api_key_env: str = "WIKIGEN_API_KEY"
    deadline_s: float = 600.0

    def model_for(self, stage: str) -> str | None:
        return dict(self.models).get(stage)


@dataclass(frozen=True, slots=True)
class Paths:
    """Where the repository keeps what wikigen reads: ``sources`` is the sources folder, relative to
    the repository root, in POSIX form without a trailing slash."""

    sources: str = DEFAULT_SOURCES_DIR


@dataclass(frozen=True, slots=True)
class Config:
    aliases: tuple[tuple[str, str], ...] = tuple(sorted(BUILTIN_ALIASES.items()))
    auto_archive: tuple[tuple[str, bool], ...] = tuple((c, True) for c in SWITCHED_CATEGORIES)
    caps: Caps = field(default_factory=Caps)
    budget: Budget = field(default_factory=Budget)
    engine: EngineSettings = field(default_factory=EngineSettings)
    private: tuple[str, ...] = ()
    paths: Paths = field(default_factory=Paths)

    @property
    def sources_dir(self) -> str:
        """The sources folder (``paths.sources``), relative to the repository root: only the ``*.md``
        files under it are sources."""
        return self.paths.sources

    @property
    def folder_categories(self) -> bool:
        """R2: in content/sources/ the first folder is the category; in a folder a repo adopted in
        place (``paths.sources: docs``) folders only organize files."""
        return self.paths.sources == DEFAULT_SOURCES_DIR

    def normalize_category(self, name: str) -> str | None:
        """The canonical category for a folder or frontmatter name, or None when unknown."""
        key = " ".join(str(name).split()).casefold()
        if key in CATEGORIES:
            return key
        return dict(self.aliases).get(key)

    def archives(self, category: str) -> bool:
        """R4: is automatic compiling on for this category? knowledge is always explicit."""
        return dict(self.auto_archive).get(category, True)


_ENV_KEYS = {
    "WIKIGEN_ENGINE": ("engine", "name"),
    "WIKIGEN_BASE_URL": ("engine", "base_url"),
    "WIKIGEN_DEADLINE": ("engine", "deadline_s"),
    "WIKIGEN_CAPS_ANCHORS": ("caps", "anchors"),
    "WIKIGEN_CAPS_ARTICLES": ("caps", "articles"),
    "WIKIGEN_CAPS_RELATIONS": ("caps", "relations"),
    "WIKIGEN_CAPS_FRAGMENTS": ("caps", "fragments"),
    "WIKIGEN_CAPS_INPUT_BYTES": ("caps", "input_bytes"),
    "WIKIGEN_MAX_SENT_BYTES": ("budget", "max_sent_bytes"),
    "WIKIGEN_MAX_ENGINE_CALLS": ("budget", "max_engine_calls"),
}


def load_config(
    root: Path,
    *,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    text: str | None = None,
) -> Config:
    """Read ``wikigen.yml`` under ``root`` (missing file: defaults), then apply env and flags.

    ``overrides`` holds command-line flags as dotted keys (``engine.name``); ``text`` replaces the
    file's content (used to read the config from a git tree).
    """
    environ = os.environ if environ is None else environ
    raw = _parsed(_read(root / CONFIG_FILE) if text is None else text)
    data: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in raw.items()}

    layers: list[dict[tuple[str, str], Any]] = []
    env_layer: dict[tuple[str, str], Any] = {}
    variables: dict[tuple[str, str], str] = {}  # the setting → the environment variable that set it
    problems = _Problems(variables)
    # WIKIGEN_MODEL names the model for every stage unless a flag says otherwise.
    for var, key in (*_ENV_KEYS.items(), ("WIKIGEN_MODEL", ("engine", "models"))):
        setting = environ.get(var)
        if not setting:
            continue
        if not setting.isascii() and not _is_utf8(setting):
            problems.found.append((True, f"the environment variable {var} is not valid UTF-8; set it again as UTF-8 text"))
            continue
        variables[key] = var
        env_layer[key] = {s: setting for s in STAGES} if var == "WIKIGEN_MODEL" else setting
    layers.append(env_layer)
    flag_layer: dict[tuple[str, str], Any] = {}
    for dotted, value in (overrides or {}).items():
        if value is None:
            continue
        section, _, name = dotted.partition(".")
        flag_layer[(section, name)] = value
    layers.append(flag_layer)
    for layer in layers:
        for (section, name), value in layer.items():
            current = data.get(section)
            if not isinstance(current, dict):
                current = {}
            if name == "models" and isinstance(current.get("models"), dict):
                value = {**current["models"], **value}
            data[section] = {**current, name: value}
            if layer is flag_layer:
                variables.pop((section, name), None)  # a flag's value is click's, already checked

    config = _build(data, problems)
    if problems.found:
        raise ConfigError(problems.report())
    return config


def _is_utf8(value: str) -> bool:
    """False for text holding bytes that were not UTF-8: Python keeps them in ``os.environ`` as lone
    surrogates, which no request, file or terminal can take."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _read(path: Path) -> str | None:
    """The text of wikigen.yml; None when there is none."""
    if not os.path.lexists(path):
        return None
    if not path.is_file():
        what = "a folder" if path.is_dir() else "not a regular file (a broken link?)"
        raise ConfigError(
            f"{path} is {what}; wikigen.yml must be a YAML file of settings — remove it or replace it "
            "with one (`wikigen init` writes one with every default)"
        )
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(
            f"{CONFIG_FILE}:{line}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start:,}); "
            "save the file as UTF-8"
        ) from None


def _parsed(text: str | None) -> dict[Any, Any]:
    """wikigen.yml's settings as a mapping; ConfigError with the line of what YAML refuses."""
    if text is None:
        return {}
    try:
        # Refused: a setting written twice (YAML keeps the last silently), anchors and aliases.
        refused = refusal(text, CONFIG_FILE, first_line=1)
        if refused is not None:
            raise ConfigError(f"{CONFIG_FILE}:{refused[0]}: {refused[1]}")
        raw = safe_load(text) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 1
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{CONFIG_FILE}:{line}: not valid YAML: {reason}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{CONFIG_FILE}:1: expected a mapping of settings, got {type(raw).__name__}")
    return raw


@dataclass(slots=True)
class _Problems:
    """Every problem in the settings, each said where it was set: wikigen.yml, or the environment
    variable that overrides it (``variables``: (section, name) → the variable)."""

    variables: Mapping[tuple[str, str], str]
    found: list[tuple[bool, str]] = field(default_factory=list)  # (from the environment, message)

    def name(self, section: str, key: str) -> str:
        var = self.variables.get((section, key))
        return f"the environment variable {var}" if var else f"{section}.{key}"

    def add(self, message: str, section: str = "", key: str = "") -> None:
        """``message`` names the setting by :meth:`name` when ``section`` and ``key`` are given."""
        self.found.append(((section, key) in self.variables, message))

    def report(self) -> str:
        lines = [message if env else f"{CONFIG_FILE}: {message}" for env, message in self.found]
        places = [CONFIG_FILE] if any(not env for env, _ in self.found) else []
        if any(env for env, _ in self.found):
            places.append("the WIKIGEN_* environment variables")
        return "\n".join(
            [*lines, f"{len(lines)} problem(s) in {' and '.join(places)}; see the manual's config page."]
        )


def _int(value: Any, section: str, key: str, problems: _Problems, *, allow_none: bool = False) -> int | None:
    where = problems.name(section, key)
    if value is None and allow_none:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        problems.add(f"{where} must be a whole number, got {value!r}", section, key)
        return None
    if isinstance(value, bool) or number <= 0 or str(number) != str(value).strip():
        problems.add(f"{where} must be a positive whole number, got {value!r}", section, key)
        return None
    return number


def _build(data: dict[str, Any], problems: _Problems) -> Config:
    known = {"categories", "caps", "budget", "engine", "paths", "private"}
    for key in sorted(set(data) - known):
        problems.add(f"unknown setting {key!r} (known: {', '.join(sorted(known))})")

    defaults = Config()
    aliases = dict(defaults.aliases)
    auto_archive = dict(defaults.auto_archive)
    categories = data.get("categories") or {}
    if not isinstance(categories, dict):
        problems.add("categories must be a mapping with 'aliases' and 'auto_archive'")
        categories = {}
    for key in sorted(set(categories) - {"aliases", "auto_archive"}):
        problems.add(f"unknown setting categories.{key}")
    for alias, target in (categories.get("aliases") or {}).items():
        norm = str(target).casefold()
        if norm not in CATEGORIES:
            problems.add(f"categories.aliases.{alias}: {target!r} is not one of {', '.join(CATEGORIES)}")
        else:
            aliases[" ".join(str(alias).split()).casefold()] = norm
    for category, switch in (categories.get("auto_archive") or {}).items():
        if category == "knowledge":
            problems.add(
                "categories.auto_archive.knowledge: knowledge is always explicit and has no switch"
            )
        elif category not in SWITCHED_CATEGORIES:
            problems.add(f"categories.auto_archive.{category}: unknown category")
        elif not isinstance(switch, bool):
            problems.add(f"categories.auto_archive.{category} must be true or false, got {switch!r}")
        else:
            auto_archive[category] = switch

    caps_raw = data.get("caps") or {}
    caps_values: dict[str, int] = {}
    if not isinstance(caps_raw, dict):
        problems.add("caps must be a mapping")
        caps_raw = {}
    for key, value in caps_raw.items():
        if key not in Caps.__dataclass_fields__:
            problems.add(f"unknown cap caps.{key} (known: {', '.join(Caps.__dataclass_fields__)})")
            continue
        number = _int(value, "caps", key, problems)
        if number is not None:
            caps_values[key] = number

    budget_raw = data.get("budget") or {}
    budget_values: dict[str, int | None] = {}
    if not isinstance(budget_raw, dict):
        problems.add("budget must be a mapping")
        budget_raw = {}
    for key, value in budget_raw.items():
        if key not in Budget.__dataclass_fields__:
            problems.add(f"unknown setting budget.{key} (known: max_sent_bytes, max_engine_calls)")
            continue
        budget_values[key] = _int(value, "budget", key, problems, allow_none=True)

    engine_raw = data.get("engine") or {}
    if isinstance(engine_raw, str):
        engine_raw = {"name": engine_raw}
    if not isinstance(engine_raw, dict):
        problems.add("engine must be a mapping or an engine name")
        engine_raw = {}
    engine = EngineSettings()
    for key in sorted(set(engine_raw) - {"name", "base_url", "models", "api_key_env", "deadline_s"}):
        problems.add(f"unknown setting engine.{key}")
    name = str(engine_raw.get("name", engine.name))
    if name not in ENGINES:
        problems.add(
            f"{problems.name('engine', 'name')}: unknown engine {name!r} (known: {', '.join(ENGINES)})", "engine", "name"
        )
    models_raw = engine_raw.get("models") or {}
    if isinstance(models_raw, str):
        models_raw = {s: models_raw for s in STAGES}
    models: dict[str, str] = {}
    if not isinstance(models_raw, dict):
        problems.add("engine.models must map a stage (analyze, recheck) to a model name")
    else:
        for stage, model in models_raw.items():
            if stage not in STAGES:
                problems.add(f"engine.models.{stage}: unknown stage (known: {', '.join(STAGES)})")
            else:
                models[stage] = str(model)
    deadline: float = engine.deadline_s
    if "deadline_s" in engine_raw:
        try:
            deadline = math.nan if isinstance(engine_raw["deadline_s"], bool) else float(engine_raw["deadline_s"])
        except (TypeError, ValueError):
            deadline = math.nan
        if not 0 < deadline <= MAX_DEADLINE_S:  # nan and inf too: each would make a wait never end or overflow
            problems.add(
                f"{problems.name('engine', 'deadline_s')} must be a number of seconds above 0 and at most "
                f"{MAX_DEADLINE_S:,} (e.g. 600), got {engine_raw['deadline_s']!r}",
                "engine",
                "deadline_s",
            )
            deadline = engine.deadline_s
    api_key_env = str(engine_raw.get("api_key_env", engine.api_key_env))
    base_url = engine_raw.get("base_url")
    if base_url is not None and not str(base_url).startswith(("http://", "https://")):
        # Said without the text itself, which may hold a key (`user:KEY@host`).
        problems.add(
            f"{problems.name('engine', 'base_url')} must start with http:// or https://, e.g. http://localhost:8000/v1",
            "engine",
            "base_url",
        )

    private_raw = data.get("private") or []
    if isinstance(private_raw, str):
        private_raw = [private_raw]
    if not isinstance(private_raw, list):
        problems.add("private must be a list of glob patterns")
        private_raw = []

    return Config(
        aliases=tuple(sorted(aliases.items())),
        auto_archive=tuple(sorted(auto_archive.items())),
        caps=replace(Caps(), **caps_values),
        budget=replace(Budget(), **budget_values),
        engine=EngineSettings(
            name=name,
            base_url=str(base_url) if base_url is not None else None,
            models=tuple(sorted(models.items())),
            api_key_env=api_key_env,
            deadline_s=deadline,
        ),
        private=tuple(str(p) for p in private_raw),
        paths=_paths(data.get("paths"), problems),
    )


def _paths(raw: Any, problems: _Problems) -> Paths:
    """The ``paths`` section; the sources folder is checked to be a folder of the repository that
    neither holds nor lies in what the compiler writes, and outside the site's folder unless it is
    the default (MkDocs would publish its files raw beside the pages made of them)."""
    if raw is None:
        return Paths()
    if not isinstance(raw, dict):
        problems.add("paths must be a mapping, e.g. `paths: {sources: docs}`")
        return Paths()
    for key in sorted(set(raw) - {"sources"}):
        problems.add(f"unknown setting paths.{key} (known: sources)")
    if "sources" not in raw:
        return Paths()
    folder, problem = sources_folder(raw["sources"])
    if problem is not None:
        problems.add(f"paths.sources: {problem}; e.g. `paths: {{sources: docs}}` for a docs/ folder")
    return Paths(sources=folder)


def sources_folder(value: Any) -> tuple[str, str | None]:
    """``value`` as a sources folder (POSIX, relative to the repository root, no trailing slash) and
    None; or the default folder and why ``value`` cannot be one: it must lie inside the repository,
    neither hold nor lie in what the compiler writes, and lie outside the site's folder unless it is
    the default (MkDocs would publish its files raw beside the pages made of them)."""
    if not isinstance(value, str) or not value.strip():
        return DEFAULT_SOURCES_DIR, f"{value!r} is not a folder name"
    folder = posixpath.normpath(value.strip().replace("\\", "/"))
    parts = folder.split("/")
    if folder.startswith("/") or folder == "." or ".." in parts or any(p.startswith(".") for p in parts):
        return DEFAULT_SOURCES_DIR, (
            f"{value!r} is not a folder inside the repository (relative to its root, no '..', no hidden folder)"
        )
    for generated in GENERATED_DIRS:
        if folder == generated or folder.startswith(generated + "/") or generated.startswith(folder + "/"):
            return DEFAULT_SOURCES_DIR, f"{value!r} overlaps {generated}/, which only the compiler writes"
    if folder.startswith(SITE_DIR + "/") and folder != DEFAULT_SOURCES_DIR:
        return DEFAULT_SOURCES_DIR, (
            f"{value!r} lies in {SITE_DIR}/, the site's folder, whose other files are published as they are; "
            f"use {DEFAULT_SOURCES_DIR} or a folder outside {SITE_DIR}/"
        )
    return folder, None
