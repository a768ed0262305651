"""Where CI can install wikigen from: read off how this copy was installed.

pip records a direct install in the distribution's ``direct_url.json`` (PEP 610); an install from a
package index has none. The workflow `wikigen init` writes installs the same thing again, so it must
be something a CI runner can reach: a package index, a VCS URL pinned to its commit, or an archive
URL. A local folder or file (an editable checkout, a wheel built here) is not, and then the spec has
to be given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import metadata
from typing import Any
from urllib.parse import urlsplit

from packaging.requirements import InvalidRequirement, Requirement

from wikigen.model.errors import UsageError

DISTRIBUTION = "wikigen"
EXAMPLE = "wikigen @ git+https://github.com/OWNER/wikigen@COMMIT"


def install_spec(direct_url: Mapping[str, Any] | None, version: str) -> str:
    """The pip requirement that installs this copy again, from ``direct_url.json``'s contents
    (None: installed from an index). A local install raises a UsageError that asks for the spec."""
    if direct_url is None:
        return f"{DISTRIBUTION}=={version}"
    url = str(direct_url.get("url") or "")
    parts = urlsplit(url)
    if parts.scheme in ("", "file"):
        dir_info = direct_url.get("dir_info") or {}
        how = "an editable install of" if dir_info.get("editable") else "installed from"
        raise UsageError(
            f"this copy of wikigen is {how} {parts.path or url}, a path on this machine that a CI runner "
            "cannot install from, so `wikigen init` does not know what to write in the workflow's install "
            f"step. Say it with --install-spec, e.g. --install-spec '{EXAMPLE}' (a pushed commit) or "
            "--install-spec 'wikigen==VERSION' (a package index)"
        )
    subdirectory = direct_url.get("subdirectory")
    fragment = f"#subdirectory={subdirectory}" if subdirectory else ""
    vcs_info = direct_url.get("vcs_info")
    if isinstance(vcs_info, Mapping):
        # Pinned to the commit that was installed, never to a branch that moves.
        return f"{DISTRIBUTION} @ {vcs_info['vcs']}+{url}@{vcs_info['commit_id']}{fragment}"
    return f"{DISTRIBUTION} @ {url}{fragment}"


def checked_spec(spec: str) -> str:
    """An --install-spec as given, once it reads as a pip requirement for wikigen."""
    try:
        requirement = Requirement(spec)
    except InvalidRequirement as exc:
        raise UsageError(
            f"--install-spec {spec!r} is not a pip requirement ({exc}); e.g. '{EXAMPLE}' or 'wikigen==0.1.0'"
        ) from None
    if requirement.name.lower() != DISTRIBUTION:
        raise UsageError(
            f"--install-spec {spec!r} installs {requirement.name!r}, not wikigen; e.g. '{EXAMPLE}'"
        )
    return spec


def this_install_spec() -> str:
    """The spec for the wikigen that is running (see :func:`install_spec`)."""
    dist = metadata.distribution(DISTRIBUTION)
    text = dist.read_text("direct_url.json")
    return install_spec(json.loads(text) if text else None, dist.version)
