"""Rating a finished run from the workspace page, and its trajectory download, in a real browser."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.browser.pages import problems, save_screenshot, sign_up_and_open_workspace
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser


def test_thumbs_up_with_a_comment_is_stored_and_shown(page, app: Stack, tmp_path: Path) -> None:
    sign_up_and_open_workspace(page, "Rated sums", "finance")
    page.fill("#id_prompt", "what is 6*7")
    page.click("#ask-form button[type=submit]")
    page.wait_for_url(re.compile(r"\?run=\d+$"))
    page.wait_for_selector("#run[data-status=succeeded]")
    page.wait_for_selector("#run-feedback:not([hidden])")  # shown as soon as the run ended

    page.fill("#feedback-comment", "right answer")
    page.click("#thumb-up")
    page.wait_for_selector("#thumb-up[aria-pressed=true]")
    assert page.get_attribute("#thumb-down", "aria-pressed") == "false"
    assert page.inner_text("#feedback-state") == "saved"
    save_screenshot(page, tmp_path, "run-feedback")

    stored = page.evaluate(
        """async () => {
            const url = document.getElementById("run-feedback").dataset.feedbackUrl;
            const response = await fetch(url, {credentials: "same-origin"});
            return await response.json();
        }"""
    )
    assert (stored["rating"], stored["comment"]) == (1, "right answer")

    page.reload()  # the page shows the stored rating
    page.wait_for_selector("#thumb-up[aria-pressed=true]")
    assert page.input_value("#feedback-comment") == "right answer"

    with page.expect_download() as download:
        page.click("#trajectory-link")
    lines = Path(download.value.path()).read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["reward"]["user"] == 1.0
    assert record["messages"][1]["content"] == "what is 6*7"
    assert not problems(page), problems(page)
