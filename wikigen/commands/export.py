"""`wikigen export okf DEST` (V6): the committed snapshot as an Open Knowledge Format v0.2 bundle in
a folder, or in a zip archive when DEST ends in ``.zip``.

The bundle is made whole in a folder beside DEST and then put in its place, so an interrupted
export leaves the previous one. A DEST that already exists is replaced only when it is empty or a
bundle this command wrote; any other folder is refused, never overwritten.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from wikigen.model.errors import NotFoundError, UsageError
from wikigen.views.agent_files import OKF_FOLDER
from wikigen.views.okf.archive import write_files, zip_bytes
from wikigen.views.okf.bundle import Bundle, load_bundle
from wikigen.views.okf.indexes import EXPORT_MARK, OKF_VERSION


def export_okf(root: Path | str, dest: Path | str) -> dict[str, Any]:
    """Write the bundle of HEAD's snapshot to ``dest``; the report of what was written."""
    bundle = load_bundle(root)
    if bundle.snapshot == 0:
        raise NotFoundError(
            "there is no compiled snapshot to export yet: run `wikigen compile` and commit, then export"
        )
    target = Path(dest)
    if target.suffix.lower() == ".zip":
        _write_zip(bundle, target)
    else:
        _write_folder(bundle, target)
    return report(bundle, str(target))


def report(bundle: Bundle, dest: str) -> dict[str, Any]:
    return {
        "dest": dest,
        "okf_version": OKF_VERSION,
        "snapshot": bundle.snapshot,
        "commit": bundle.commit,
        "documents": bundle.counts(),
        "verified": len(bundle.verified),
        "files": len(bundle.files),
    }


def _write_folder(bundle: Bundle, target: Path) -> None:
    if target.exists() and not _replaceable(target):
        raise UsageError(
            f"{target} already exists and is not a bundle written by `wikigen export okf`; "
            "give a new or empty folder (it is never overwritten)"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    staging.chmod(0o777 & ~_umask())  # a folder as `mkdir` would make it, not mkdtemp's 0700
    try:
        write_files(staging, bundle.files)
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent))
            os.replace(target, old / target.name)
            os.replace(staging, target)
            shutil.rmtree(old)
        else:
            os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def _replaceable(target: Path) -> bool:
    """An empty folder, or one whose ``index.md`` is the root index of a bundle this command wrote."""
    if not target.is_dir() or target.is_symlink():
        return False
    if not any(target.iterdir()):
        return True
    index = target / "index.md"
    try:
        text = index.read_text(encoding="utf-8") if index.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return False
    return text.startswith(f'---\nokf_version: "{OKF_VERSION}"\n---\n') and EXPORT_MARK in text


def _write_zip(bundle: Bundle, target: Path) -> None:
    if target.is_dir():
        raise UsageError(f"{target} is a folder; give the name of the zip file to write")
    target.parent.mkdir(parents=True, exist_ok=True)
    data = zip_bytes(bundle.files, OKF_FOLDER)  # the folder an archive unpacks into
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # a file as `open` would make it, not mkstemp's 0600
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
