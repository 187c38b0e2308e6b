"""The finance panel tells a person at once what happened: a file it already knows is ready
without a reload, and a question sent brings its run into view."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import problems, sign_up_and_open_workspace

pytestmark = pytest.mark.browser

PRICES = "Date,Close\n" + "\n".join(f"2024-02-{day:02d},{200 + day}.25" for day in range(1, 29))


def test_a_known_file_uploaded_again_is_ready_without_a_reload(page, tmp_path):
    prices = tmp_path / "prices.csv"
    prices.write_text(PRICES + "\n")
    sign_up_and_open_workspace(page, "First", "finance")
    page.set_input_files("#fin-file", str(prices))
    page.locator(".fin-doc[data-status=ready]").wait_for(timeout=30_000)

    # The same bytes in another workspace: ingestion is a cache hit, over in milliseconds.
    page.goto("/workspaces/")
    page.fill("input[name=name]", "Second")
    page.select_option("select[name=kind]", "finance")
    page.click("button[type=submit]:has-text('Create')")
    page.wait_for_url(re.compile(r"/workspaces/\d+/$"))
    assert page.locator(".fin-doc").count() == 0
    page.set_input_files("#fin-file", str(prices))
    # Without a reload (before the fix it stayed "Queued" for good); the margin is for a busy CI.
    page.locator(".fin-doc[data-status=ready]").wait_for(timeout=20_000)

    assert "prices.csv" in page.inner_text(".fin-doc[data-status=ready]")
    assert "data file" in page.inner_text(".fin-doc[data-status=ready]")
    assert page.inner_text("#fin-upload-state") == "ready"
    assert page.locator(".fin-doc[data-status=processing]").count() == 0
    assert problems(page) == []


def test_after_send_the_new_run_is_scrolled_into_view(page):
    page.set_viewport_size({"width": 1280, "height": 520})  # the panel fills the first screen
    sign_up_and_open_workspace(page, "Questions", "finance")

    page.fill("textarea[name=prompt]", "hello")
    page.click("#ask-form button[type=submit]")
    page.wait_for_url(re.compile(r"/workspaces/\d+/\?run=\d+$"))
    page.wait_for_function("() => window.scrollY > 0")

    top = page.locator("#run").evaluate("el => el.getBoundingClientRect().top")
    assert 0 <= top <= 520 - 60, top  # the run's head is on screen, not below the panel
    assert problems(page) == []
