"""A bundle as a zip archive whose bytes depend only on its files (pure): entries sorted, one fixed
time and mode, the same compression level everywhere; and as plain files under a folder (the one
function here that writes)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
FILE_MODE = 0o100644 << 16  # a regular file, rw-r--r--
UNIX = 3  # "made on" Unix, whatever the machine that writes it


def zip_bytes(files: Mapping[str, bytes], folder: str) -> bytes:
    """The files (path → bytes) under ``folder/`` in one archive."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files):
            info = zipfile.ZipInfo(f"{folder}/{path}", date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = UNIX
            info.external_attr = FILE_MODE
            archive.writestr(info, files[path], compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return buffer.getvalue()


def write_files(folder: Path, files: Mapping[str, bytes]) -> None:
    """Each file (bundle path → bytes) under ``folder``."""
    for path, data in files.items():
        out = folder / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
