"""A real browser (Debian's chromium, driven by Playwright) against the app on its embedded default.

Never runs `playwright install`: the browser is the system's /usr/bin/chromium (CI installs it with
apt-get); the tests are skipped, saying so, where it is absent.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.failure_logs import (  # noqa: F401 - a hook and a fixture, by name
    _app_logs_on_failure,
    pytest_runtest_makereport,
)
from tests.integration.stack import Stack, embedded

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--use-angle=swiftshader",  # WebGL for the studio viewer, on the CPU
    "--enable-unsafe-swiftshader",
]


def _needs_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's (apt-get install chromium)")


# Module scope: Playwright's sync API keeps an event loop running while it is started, which
# other test modules' asyncio.run() must not meet.
@pytest.fixture(scope="module")
def browser():
    _needs_chromium()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="package")
def app(tmp_path_factory) -> Iterator[Stack]:
    """The app on SQLite + the filesystem broker + a threads-pool worker, served by uvicorn.

    One for every browser test: each signs up its own user, so they share nothing else."""
    _needs_chromium()
    with embedded(tmp_path_factory.mktemp("browser-stack")) as stack:
        yield stack


@pytest.fixture
def page(browser, app: Stack):
    context = browser.new_context(base_url=app.base_url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("pageerror", lambda error: console.append(f"page error: {error}"))

    def on_response(response) -> None:
        if response.status >= 400:
            console.append(f"http error: {response.status} {response.url}")

    page.on("response", on_response)
    page.console_messages = console
    try:
        yield page
    finally:
        context.close()
