"""What the browser tests do on the pages a person uses: sign up, open a workspace, look."""

from __future__ import annotations

import os
import re
import shutil
import uuid
from pathlib import Path

SCREENSHOT_COPY = "BROWSER_SCREENSHOT_DIR"  # where a copy of the screenshots goes, if set


def sign_up_and_open_workspace(page, name: str, kind: str) -> int:
    """Sign up a new user through the form, create a workspace of `kind`; return its id."""
    username = f"user{uuid.uuid4().hex[:8]}"
    password = f"Pw-{uuid.uuid4().hex}"
    page.goto("/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.click("button[type=submit]:has-text('Create account')")
    page.wait_for_url(re.compile(r"/workspaces/$"))
    assert username in page.inner_text("header")
    page.fill("input[name=name]", name)
    page.select_option("select[name=kind]", kind)
    page.click("button[type=submit]:has-text('Create')")
    page.wait_for_url(re.compile(r"/workspaces/\d+/$"))
    assert page.inner_text("aside h2") == name
    match = re.search(r"/workspaces/(\d+)/", page.url)
    assert match
    return int(match.group(1))


def problems(page, allowed: tuple[str, ...] = ()) -> list[str]:
    """Script errors and failed requests the page met (the icon's included)."""
    return [
        line
        for line in page.console_messages
        if (
            line.startswith(("page error", "http error"))
            or (line.startswith("error") and "Failed to load resource" not in line)
        )
        and not any(text in line for text in allowed)
    ]


def save_screenshot(page, tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    copy_to = os.environ.get(SCREENSHOT_COPY)
    if copy_to:
        Path(copy_to).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(copy_to) / path.name)
    return path


def hidden_part(page, selector: str) -> dict[str, float]:
    """How many pixels of the element are out of sight above and below: cut off by the window or
    by a box it scrolls in (both 0 when a person sees all of it without scrolling)."""
    return page.locator(selector).evaluate(
        """node => {
            const rect = node.getBoundingClientRect();
            let top = 0, bottom = window.innerHeight;
            for (let box = node.parentElement; box && box !== document.body;) {
                const clips = getComputedStyle(box).overflowY !== "visible";
                const edges = box.getBoundingClientRect();
                box = box.parentElement;
                if (!clips) continue;
                top = Math.max(top, edges.top);
                bottom = Math.min(bottom, edges.bottom);
            }
            return {above: Math.max(0, top - rect.top), below: Math.max(0, rect.bottom - bottom)};
        }"""
    )
