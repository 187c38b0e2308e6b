"""Asking the agent on a workspace page without a reload: the run appears and streams in place,
its final answer ends up in view, and a refused or unsent request is explained beside the form
with the text kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser.pages import hidden_part, problems, save_screenshot, sign_up_and_open_workspace
from tests.integration.stack import Stack

pytestmark = pytest.mark.browser

ARITHMETIC = "what is 17*23+4 and 2**10"
SAME_PAGE = "() => window.__samePage === 1"  # set on the page once: a reload loses it


def watch_run_events(page) -> None:
    """Mark the page and record every run event the timeline hands to the page's widgets."""
    page.evaluate(
        """() => {
            window.__samePage = 1;
            window.__runEvents = [];
            document.addEventListener("run-event", (e) => {
                const run = Number(document.getElementById("run").dataset.runId);
                window.__runEvents.push([run, e.detail.seq, e.detail.type]);
            });
        }"""
    )


def send(page, prompt: str) -> None:
    page.fill("#id_prompt", prompt)
    page.click("#ask-form button[type=submit]")


def test_a_message_streams_its_run_in_place_and_ends_with_the_answer_in_view(
    page, app: Stack, tmp_path: Path
) -> None:
    page.set_viewport_size({"width": 1280, "height": 640})  # the answer lands below the fold
    sign_up_and_open_workspace(page, "In place", "finance")
    watch_run_events(page)

    send(page, ARITHMETIC)
    page.wait_for_url(re.compile(r"\?run=\d+$"))  # the address names the run, for a reload
    page.wait_for_selector("#run[data-status=succeeded] #timeline li.end")

    assert page.evaluate(SAME_PAGE), "the page reloaded"
    run_id = int(page.get_attribute("#run", "data-run-id") or 0)
    assert page.url.endswith(f"?run={run_id}")
    assert page.input_value("#id_prompt") == ""  # sent, so cleared
    assert page.inner_text("#ask-errors") == ""
    # Streamed over the socket into this page, in order, from the start to the end.
    events = page.evaluate("window.__runEvents")
    assert {run for run, _, _ in events} == {run_id}
    assert [seq for _, seq, _ in events] == list(range(1, len(events) + 1))
    assert events[0][2] == "run.started" and events[-1][2] == "run.finished"
    tools = page.locator("#timeline li.event.tool")
    assert tools.locator(".tool-name").all_inner_texts() == ["calculate", "calculate"]
    final = page.inner_text("#timeline li.message.final")
    assert "395" in final and "1024" in final, final
    assert page.inner_text("#run-status") == "succeeded"
    assert page.inner_text(".run-list li.current .status") == "succeeded"
    assert hidden_part(page, "#timeline li.message.final") == {"above": 0, "below": 0}
    assert hidden_part(page, "#timeline li.end") == {"above": 0, "below": 0}
    save_screenshot(page, tmp_path, "chat-in-place-first")

    # A second message takes the first run's place; both are listed, the new one current.
    send(page, "what is 6*7")
    page.wait_for_function(f"() => document.getElementById('run').dataset.runId !== '{run_id}'")
    page.wait_for_selector("#run[data-status=succeeded] #timeline li.end")
    assert page.evaluate(SAME_PAGE), "the page reloaded"
    second = int(page.get_attribute("#run", "data-run-id") or 0)
    assert "42" in page.inner_text("#timeline li.message.final")
    assert page.locator("#timeline li.event.tool").count() == 1  # the first run's are gone
    assert page.inner_text("#run .prompt") == "You: what is 6*7"
    assert page.locator(".run-list li").count() == 2
    assert page.get_attribute(".run-list li.current a", "href") == f"?run={second}"
    assert hidden_part(page, "#timeline li.message.final") == {"above": 0, "below": 0}
    assert page.locator("#run-feedback:not([hidden])").count() == 1  # rating, for the new run
    assert not problems(page), problems(page)


def test_a_refused_or_unsent_message_is_explained_beside_the_form_and_kept(
    page, app: Stack, tmp_path: Path
) -> None:
    sign_up_and_open_workspace(page, "Refusals", "finance")
    watch_run_events(page)

    send(page, "   ")  # only spaces: the browser lets it through, the server does not
    page.wait_for_selector("#ask-errors li")
    assert page.inner_text("#ask-errors") == "This field is required."
    assert page.input_value("#id_prompt") == "   "

    # Longer than the box allows (pasted by a script, say): the server's limit, said inline.
    page.eval_on_selector("#id_prompt", "box => { box.value = 'x'.repeat(20001); }")
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#ask-errors li:has-text('at most 20000 characters')")
    assert page.input_value("#id_prompt") == "x" * 20001
    save_screenshot(page, tmp_path, "chat-refused")

    # The server out of reach: said so, and the text is still there to send again.
    page.route(
        re.compile(r"/workspaces/\d+/$"),
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    send(page, "what is 6*7")
    page.wait_for_selector("#ask-errors li:has-text('Not sent')")
    assert "your text is kept" in page.inner_text("#ask-errors")
    assert page.input_value("#id_prompt") == "what is 6*7"
    assert page.is_enabled("#ask-form button[type=submit]")
    assert page.locator("#run").count() == 0 and page.locator(".run-list li").count() == 0

    page.unroute(re.compile(r"/workspaces/\d+/$"))
    page.click("#ask-form button[type=submit]")
    page.wait_for_selector("#run[data-status=succeeded] #timeline li.end")
    assert page.inner_text("#ask-errors") == ""  # the earlier refusal is gone
    assert page.input_value("#id_prompt") == ""
    assert "42" in page.inner_text("#timeline li.message.final")
    assert page.evaluate(SAME_PAGE), "the page reloaded"
    assert not problems(page, allowed=("/workspaces/",)), problems(page)
