"""A three-turn conversation with the studio agent in the workspace page, as a designer holds it:
type a request in the prompt box, watch the run end in the timeline and the viewer change, type the
next. The scene is edited, never rebuilt: the ball keeps its name, the table its size until it is
asked to change, and every turn adds revisions to the history strip. Reverting to the first
revision from the strip brings the red ball back as a new "revert to 1" revision."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import (
    hidden_part,
    problems,
    save_screenshot,
    sign_up_and_open_workspace,
)
from tests.browser.test_studio_viewer import api
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser

ENDED = "#run:is([data-status=succeeded], [data-status=failed], [data-status=cancelled])"
SIZE_TOLERANCE = 0.005  # metres: "keeps its size"


def revision_numbers(page, workspace: int) -> list[int]:
    listed = api(page, "GET", f"/api/v1/studio/workspaces/{workspace}/revisions")
    assert listed["status"] == 200, listed
    return sorted(int(item["number"]) for item in listed["body"])


def strip_numbers(page) -> list[int]:
    return page.eval_on_selector_all(
        "#sv-history button.sv-rev", "buttons => buttons.map(b => Number(b.dataset.number))"
    )


def wait_for_viewer(page, latest: int, count: int) -> None:
    """The strip lists `count` revisions and the viewer has drawn revision `latest`."""
    page.wait_for_function(
        """([latest, count]) => {
            const viewer = window.studioViewer;
            return Boolean(viewer) && viewer.revision === latest && viewer.frames > 0
                && !viewer.busy && viewer.objects().length > 0
                && document.querySelectorAll("#sv-history button.sv-rev").length === count;
        }""",
        arg=[latest, count],
        timeout=30_000,
    )


def drawn(page) -> dict[str, dict[str, Any]]:
    """What the viewer draws, by object name: colour (linear RGB), world size and centre."""
    return {item["name"]: item for item in page.evaluate("window.studioViewer.objects()")}


def ask(page, workspace: int, prompt: str, before: list[int]) -> tuple[list[int], str]:
    """Type a request in the page's prompt box, wait for its run to end in the timeline and the
    viewer to show the newest revision; return the revisions and the run's final answer."""
    previous_run = (
        page.get_attribute("#run", "data-run-id") if page.query_selector("#run") else None
    )
    page.fill("#id_prompt", prompt)
    page.click("#ask-form button[type=submit]")
    page.wait_for_function(
        "previous => { const run = document.getElementById('run');"
        " return run && run.dataset.runId !== previous; }",
        arg=previous_run,
    )
    page.wait_for_url(re.compile(r"\?run=\d+$"))
    assert page.inner_text("#run .prompt") == f"You: {prompt}"
    page.wait_for_selector(f"{ENDED} #timeline li.end", timeout=30_000)
    status = page.get_attribute("#run", "data-status")
    answer = page.inner_text("#timeline li.message.final")
    assert status == "succeeded", f"{prompt!r} ended {status}: {answer}"
    assert page.inner_text("#timeline li.end") == "Finished"
    # In place: the page (with its viewer) stayed, and the answer is in view in the chat column.
    assert page.evaluate("window.__samePage === 1"), "the page reloaded"
    assert hidden_part(page, "#timeline li.message.final") == {"above": 0, "below": 0}

    numbers = revision_numbers(page, workspace)
    assert len(numbers) > len(before), f"{prompt!r} stored no revision"
    assert numbers[: len(before)] == before  # history only grows
    wait_for_viewer(page, numbers[-1], len(numbers))
    assert strip_numbers(page) == numbers
    return numbers, answer


def outliner_names(page) -> list[str]:
    return page.eval_on_selector_all(
        "#sv-outliner button[data-name]", "buttons => buttons.map(b => b.dataset.name)"
    )


def is_red(item: dict[str, Any]) -> bool:
    r, g, b = item["color"]
    return r > 0.3 and r > 4 * g and r > 4 * b


def is_blue(item: dict[str, Any]) -> bool:
    r, g, b = item["color"]
    return b > 0.2 and b > 2 * r and b > 1.2 * g


def assert_same_size(now: dict[str, Any], before: dict[str, Any]) -> None:
    assert now["size"] == pytest.approx(before["size"], abs=SIZE_TOLERANCE), (now, before)


def test_three_turns_then_revert_from_the_strip(page, app: Stack, tmp_path: Path) -> None:
    workspace = sign_up_and_open_workspace(page, "Conversation", "studio")
    page.wait_for_selector("#sv-status:has-text('no scene yet')")
    page.evaluate("window.__samePage = 1")  # every turn is asked on this page, never reloaded

    # Turn 1: a new scene.
    history, answer = ask(page, workspace, "a red ball on a wooden table", [])
    first = drawn(page)
    assert set(first) == {"ball", "table"}, first
    assert sorted(outliner_names(page)) == ["ball", "table"]
    ball, table = first["ball"], first["table"]
    assert is_red(ball), ball
    assert table["size"][1] == pytest.approx(0.75, abs=0.05)  # a table's usual height
    assert ball["center"][1] - ball["size"][1] / 2 == pytest.approx(table["size"][1], abs=0.02)
    assert "ball" in answer and "table" in answer, answer

    # Turn 2: the same ball turns blue; the table is left as it was.
    history, answer = ask(page, workspace, "make the ball blue", history)
    second = drawn(page)
    assert set(second) == {"ball", "table"}, second  # edited, not rebuilt: same names
    assert sorted(outliner_names(page)) == ["ball", "table"]
    assert is_blue(second["ball"]), second["ball"]
    assert_same_size(second["ball"], ball)
    assert_same_size(second["table"], table)
    assert second["table"]["center"] == pytest.approx(table["center"], abs=SIZE_TOLERANCE)
    assert "blue" in answer, answer

    # Turn 3: the table grows to 1 m; the ball stays blue and rides up on it.
    history, answer = ask(page, workspace, "make the table 1 m tall", history)
    third = drawn(page)
    assert set(third) == {"ball", "table"}, third
    assert third["table"]["size"][1] == pytest.approx(1.0, abs=0.01)
    assert is_blue(third["ball"]), third["ball"]
    assert_same_size(third["ball"], ball)
    top = third["table"]["center"][1] + third["table"]["size"][1] / 2
    assert third["ball"]["center"][1] - third["ball"]["size"][1] / 2 == pytest.approx(top, abs=0.02)
    assert "resized table" in answer, answer
    assert page.locator("#run-status").inner_text() == "succeeded"
    assert page.locator(".run-list li").count() == 3
    save_screenshot(page, tmp_path, "studio-conversation-turn3")

    # Revert: pick the first revision in the strip, see it, and make it the newest.
    page.click("#sv-history button.sv-rev[data-number='1']")
    wait_for_viewer(page, 1, len(history))
    back = drawn(page)
    assert is_red(back["ball"]), back["ball"]
    assert_same_size(back["table"], table)
    assert page.is_enabled("#sv-revert")
    page.click("#sv-revert")
    reverted = history[-1] + 1
    wait_for_viewer(page, reverted, len(history) + 1)
    assert revision_numbers(page, workspace) == [*history, reverted]
    newest = page.locator(f"#sv-history button.sv-rev[data-number='{reverted}']")
    assert newest.get_attribute("title").startswith("revert to 1"), newest.get_attribute("title")
    assert f"revision {reverted} · revert to 1" in page.inner_text("#sv-status")
    after = drawn(page)
    assert set(after) == {"ball", "table"}
    assert is_red(after["ball"]), after["ball"]
    assert_same_size(after["table"], table)
    assert page.is_disabled("#sv-revert")  # the newest revision is the one shown
    save_screenshot(page, tmp_path, "studio-conversation-reverted")
    assert not problems(page), problems(page)
