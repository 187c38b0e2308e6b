"""The finance workspace in a real browser: upload a 10-K with progress, ask for an analysis,
read the note, and follow a number to the page that prints it."""

from __future__ import annotations

import re

import pytest

from tests.browser.pages import problems, save_screenshot, sign_up_and_open_workspace
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.browser

NETFLIX = SHARED_DATA / "finance" / "filings" / "NETFLIX_2017_10K.pdf"


@pytest.mark.skipif(not NETFLIX.exists(), reason=f"shared filings not found at {NETFLIX}")
def test_upload_analyse_and_follow_a_number_to_its_page(page, tmp_path):
    sign_up_and_open_workspace(page, "Netflix research", "finance")

    # Upload through the panel: the bars appear, then the document is listed as ready with
    # links to its statement pages.
    page.set_input_files("#fin-file", str(NETFLIX))
    page.wait_for_selector("#fin-bars:not([hidden])")
    document = page.locator(".fin-doc[data-status=ready]")
    document.wait_for(timeout=60_000)
    assert "NETFLIX_2017_10K.pdf" in document.inner_text()
    assert "Income statement p. 42" in document.inner_text()

    # Ask for the analysis; the timeline shows the plan's steps and announces the note.
    page.fill("textarea[name=prompt]", "Analyse this 10-K")
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#run-status.status-succeeded", timeout=90_000)
    timeline = page.inner_text("#timeline")
    for step in ("list_documents", "analyse_financials", "search_document", "write_note"):
        assert step in timeline
    note_link = page.locator("#timeline .research-note a")
    assert "Netflix" in note_link.inner_text()
    assert page.locator("#fin-notes li[data-note]").count() == 1  # the panel's list, live
    save_screenshot(page, tmp_path, "finance-workspace")

    # The note: sections, a chart, and every statement figure is a link.
    note_link.click()
    page.wait_for_url(re.compile(r"/finance/notes/\d+/$"))
    assert page.locator("article h2", has_text="margins").count() >= 1
    assert page.locator("figure img").count() >= 1
    revenue = page.locator("a.num", has_text="11,692.7").first
    save_screenshot(page, tmp_path, "finance-note")

    # Following the revenue figure opens its page with the value's box drawn over the image.
    revenue.click()
    page.wait_for_url(re.compile(r"/finance/documents/\d+/pages/41/"))
    page.wait_for_function(
        "() => { const img = document.querySelector('.fin-page img');"
        " return img && img.complete && img.naturalWidth > 0; }"
    )
    box = page.locator("#fin-box").bounding_box()
    image = page.locator(".fin-page img").bounding_box()
    assert box and image
    assert image["x"] < box["x"] < image["x"] + image["width"]
    assert image["y"] < box["y"] < image["y"] + image["height"]
    assert "page 42 of 73" in page.inner_text(".fin-viewer-head")
    save_screenshot(page, tmp_path, "finance-page-viewer")
    assert problems(page) == []
