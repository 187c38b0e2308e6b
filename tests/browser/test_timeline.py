"""The live step timeline in a real browser: sign up, create a workspace, ask, watch, cancel."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.pages import problems, save_screenshot, sign_up_and_open_workspace
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser

ARITHMETIC = "what is 17*23+4 and 2**10"


def timeline_seqs(page) -> tuple[list[int], list[int]]:
    """data-seq of every timeline item, and the data-result-seq that tool items also carry."""
    items = page.eval_on_selector_all(
        "#timeline > li",
        "items => items.map(li => [Number(li.dataset.seq), Number(li.dataset.resultSeq || 0)])",
    )
    return [seq for seq, _ in items], [result for _, result in items if result]


def test_run_streams_into_timeline_and_survives_reload(page, app: Stack, tmp_path: Path) -> None:
    sign_up_and_open_workspace(page, "Arithmetic", "finance")

    page.fill("#id_prompt", ARITHMETIC)
    page.click("#ask-form button[type=submit]")
    page.wait_for_url(re.compile(r"\?run=\d+$"))
    page.wait_for_selector("#timeline li.event.tool")
    page.wait_for_selector("#run[data-status=succeeded]")

    tools = page.locator("#timeline li.event.tool")
    assert tools.count() == 2
    assert tools.locator(".tool-name").all_inner_texts() == ["calculate", "calculate"]
    assert tools.locator(".tool-state.ok").count() == 2
    final = page.inner_text("#timeline li.message.final")
    assert "395" in final and "1024" in final, final
    assert page.inner_text("#run-status") == "succeeded"
    assert page.is_hidden("#cancel-button")  # a finished run shows no Cancel
    seqs, results = timeline_seqs(page)
    last_seq = int(page.get_attribute("#run", "data-last-seq") or 0)
    assert sorted(seqs + results) == list(range(1, last_seq + 1))
    save_screenshot(page, tmp_path, "timeline-finished")

    page.reload()
    page.wait_for_selector("#run[data-status=succeeded] #timeline li.end")
    assert timeline_seqs(page) == (seqs, results)  # the same items, none twice
    assert len(set(seqs)) == len(seqs)
    assert page.locator("#timeline li.message.final").count() == 1
    assert not problems(page), problems(page)


def test_cancel_a_slow_run_from_the_page(page, app: Stack, tmp_path: Path) -> None:
    sign_up_and_open_workspace(page, "Slow counts", "finance")
    workspace_id = int(re.search(r"/workspaces/(\d+)/", page.url).group(1))

    # The page's form has no planner choice: start the run through the REST API with the
    # browser's own session (and CSRF token), as a script on the page would.
    created = page.evaluate(
        """async ([workspace]) => {
            const token = document.querySelector("[name=csrfmiddlewaretoken]").value;
            const response = await fetch("/api/v1/runs/", {
                method: "POST",
                credentials: "same-origin",
                headers: {"Content-Type": "application/json", "X-CSRFToken": token},
                body: JSON.stringify({
                    workspace, prompt: "count to 200",
                    options: {planner: "slow-count", max_steps: 500},
                }),
            });
            return {status: response.status, body: await response.json()};
        }""",
        [workspace_id],
    )
    assert created["status"] == 201, created
    page.goto(f"/workspaces/{workspace_id}/?run={created['body']['id']}")

    page.wait_for_selector("#timeline li.event.tool >> nth=2")  # a few steps, live
    page.wait_for_selector("#connection:has-text('live')")
    assert page.get_attribute("#run", "data-status") == "running"
    steps_before_cancel = page.locator("#timeline li.event.tool").count()
    page.click("#cancel-button")

    page.wait_for_selector("#run[data-status=cancelled]", timeout=20_000)
    assert page.inner_text("#run-status") == "cancelled"
    assert page.is_hidden("#cancel-button")  # a finished run shows no Cancel
    end = page.inner_text("#timeline li.end")
    assert end.startswith("cancelled"), end
    assert steps_before_cancel <= page.locator("#timeline li.event.tool").count() < 200
    seqs, results = timeline_seqs(page)
    assert len(set(seqs)) == len(seqs)
    assert sorted(seqs + results) == list(range(1, max(seqs) + 1))
    save_screenshot(page, tmp_path, "timeline-cancelled")
    assert not problems(page), problems(page)


@pytest.mark.parametrize(
    ("prompt", "end"),
    [
        ("qwzxv florp blarg", "failed (nothing built)"),
        ("a ball on a cone", "failed (checks failed)"),
    ],
)
def test_a_failed_run_does_not_repeat_its_answer(page, app: Stack, prompt: str, end: str) -> None:
    """The studio agent ends honestly failed, its final answer saying why; the end line then
    gives the reason instead of the same text again."""
    sign_up_and_open_workspace(page, "Honest", "studio")
    page.fill("#id_prompt", prompt)
    page.click("#ask-form button[type=submit]")
    page.wait_for_url(re.compile(r"\?run=\d+$"))
    page.wait_for_selector("#run[data-status=failed] #timeline li.end")

    assert page.inner_text("#run-status") == "failed"
    answer = page.inner_text("#timeline li.message.final .text")
    assert answer.strip(), "the answer says what was not done"
    assert page.inner_text("#timeline li.end") == end
    assert answer not in page.inner_text("#timeline li.end")
    assert not problems(page), problems(page)
