"""Where CI can install wikigen from: read off how this copy was installed.

wikigen is published on PyPI as ``wikigen-compiler`` (the name ``wikigen`` there belongs to another
project); the import package and the command are ``wikigen``. pip records a direct install in the
distribution's ``direct_url.json`` (PEP 610); an install from a package index has none. The workflow
`wikigen init` writes installs the same thing again, so it must be something a CI runner can reach:
a package index, a VCS URL pinned to its commit, or an archive URL. A local folder or file (an
editable checkout, a wheel built here) is not, and then the workflow installs this version from PyPI
and `init` says so.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import metadata
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

import wikigen
from wikigen.model.errors import UsageError

DISTRIBUTION = "wikigen-compiler"
EXAMPLE = f"{DISTRIBUTION} @ git+https://github.com/OWNER/wikigen@COMMIT"


class InstallSpec(NamedTuple):
    """What the workflow installs, and a line for the user when that is not how this copy was
    installed (None when it is)."""

    spec: str
    note: str | None = None


def install_spec(direct_url: Mapping[str, Any] | None, version: str) -> str:
    """The pip requirement that installs this copy again, from ``direct_url.json``'s contents
    (None: installed from an index). A local install, which a CI runner cannot reach, gives this
    version from the package index."""
    url = str((direct_url or {}).get("url") or "")
    if direct_url is None or urlsplit(url).scheme in ("", "file"):
        return f"{DISTRIBUTION}=={version}"
    subdirectory = direct_url.get("subdirectory")
    fragment = f"#subdirectory={subdirectory}" if subdirectory else ""
    vcs_info = direct_url.get("vcs_info")
    if isinstance(vcs_info, Mapping):
        # Pinned to the commit that was installed, never to a branch that moves.
        return f"{DISTRIBUTION} @ {vcs_info['vcs']}+{url}@{vcs_info['commit_id']}{fragment}"
    return f"{DISTRIBUTION} @ {url}{fragment}"


def local_install(direct_url: Mapping[str, Any] | None) -> str | None:
    """How a local install came about ("an editable install of /path"), or None when a CI runner
    can install the same thing."""
    if direct_url is None:
        return None
    url = str(direct_url.get("url") or "")
    parts = urlsplit(url)
    if parts.scheme not in ("", "file"):
        return None
    dir_info = direct_url.get("dir_info") or {}
    how = "an editable install of" if dir_info.get("editable") else "installed from"
    return f"{how} {parts.path or url}"


def checked_spec(spec: str) -> str:
    """An --install-spec as given, once it reads as a pip requirement for wikigen-compiler."""
    try:
        requirement = Requirement(spec)
    except InvalidRequirement as exc:
        raise UsageError(
            f"--install-spec {spec!r} is not a pip requirement ({exc}); e.g. '{EXAMPLE}' or "
            f"'{DISTRIBUTION}=={wikigen.__version__}'"
        ) from None
    if canonicalize_name(requirement.name) != DISTRIBUTION:
        raise UsageError(
            f"--install-spec {spec!r} installs {requirement.name!r}, not {DISTRIBUTION} (wikigen's name on "
            f"PyPI); e.g. '{EXAMPLE}' or '{DISTRIBUTION}=={wikigen.__version__}'"
        )
    return spec


def _index_note(spec: str, why: str) -> str:
    return (
        f"the workflow installs {spec} from PyPI: {why}; to install something else, edit WIKIGEN_INSTALL "
        "in .github/workflows/wikigen.yml, or delete that file and run `wikigen init --install-spec SPEC`"
    )


def this_install_spec() -> InstallSpec:
    """The spec for the wikigen that is running (see :func:`install_spec`), with a note when this
    copy is a local install or is not installed under the name ``wikigen-compiler``."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        spec = f"{DISTRIBUTION}=={wikigen.__version__}"
        return InstallSpec(spec, _index_note(spec, f"this copy of wikigen is not installed as {DISTRIBUTION}"))
    text = dist.read_text("direct_url.json")
    direct_url = json.loads(text) if text else None
    spec = install_spec(direct_url, dist.version)
    local = local_install(direct_url)
    if local is None:
        return InstallSpec(spec)
    return InstallSpec(spec, _index_note(spec, f"this copy of wikigen is {local}, which a CI runner cannot reach"))
