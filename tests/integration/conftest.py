"""One browser per test session, shared by every browser test (only one sync Playwright per thread)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's chromium driven by Playwright; Playwright never downloads a browser here."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (a dev dependency)")
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (`make browser` or apt-get install chromium)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
