"""Fixtures of the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The system's Chromium, driven by Playwright (skipped without either)."""
    from .browser import CHROMIUM, FLAGS, sync_api

    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()
