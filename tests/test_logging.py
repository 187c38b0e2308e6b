"""Log lines say what they are about: the run, user, step and tool, as JSON or readable text."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, ScriptedPolicy, Tool, ToolCall
from agents.services.execution import run_advance
from agents.services.runs import run_create
from config.log_format import JsonFormatter

ROOT = Path(__file__).resolve().parent.parent
logger = logging.getLogger("tests.logging")


def _note(arguments, context):
    logger.warning("the tool is working on %s", arguments["topic"])
    return {"noted": True}


NOTE = Tool("take_note", "Take a note.", {"type": "object"}, _note)
register_planner(
    "log-test",
    ExtraPlanner(
        lambda: ScriptedPolicy(
            [
                Decision(tool_calls=(ToolCall("note-1", "take_note", {"topic": "gears"}),)),
                Decision(message="noted"),
            ]
        ),
        (NOTE,),
    ),
)


class Console:
    """What the configured console handler writes, while a test holds it."""

    def __init__(self) -> None:
        self.stream = io.StringIO()

    def lines(self) -> list[str]:
        return self.stream.getvalue().splitlines()

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.lines()]

    def record(self, message_part: str) -> dict:
        (found,) = [r for r in self.records() if message_part in r["message"]]
        return found


@pytest.fixture
def console():
    """The root's console handler (with the filters LOGGING installs), as JSON into a buffer."""
    (handler,) = [h for h in logging.getLogger().handlers if h.name == "console"]
    assert isinstance(handler, logging.StreamHandler)
    held = Console()
    stream, formatter = handler.setStream(held.stream), handler.formatter
    handler.setFormatter(JsonFormatter())
    yield held
    handler.setStream(stream)
    handler.setFormatter(formatter)


@pytest.mark.django_db
def test_a_line_logged_in_a_tool_names_the_run_user_step_and_tool(console, alice, make_workspace):
    run = run_create(
        workspace=make_workspace(alice), prompt="note it", options={"planner": "log-test"}
    )

    assert run_advance(run_id=run.pk, owner="worker", max_units=10).status == "finished"

    line = console.record("the tool is working on gears")
    assert line["run_id"] == run.pk and line["user_id"] == alice.pk
    assert line["step"] == 1 and line["tool"] == "take_note"
    assert line["level"] == "WARNING" and line["logger"] == "tests.logging"
    assert datetime.fromisoformat(line["timestamp"]).tzinfo is not None


@pytest.mark.django_db
def test_the_context_is_cleared_after_the_slice(console, alice, make_workspace):
    run = run_create(
        workspace=make_workspace(alice), prompt="note it", options={"planner": "log-test"}
    )
    run_advance(run_id=run.pk, owner="worker", max_units=10)

    logger.warning("after the slice")

    line = console.record("after the slice")
    assert {line[name] for name in ("run_id", "user_id", "step", "tool")} == {None}


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["token", "session"])
def test_a_request_line_names_the_user_and_the_request(how, console, alice, alice_api, client):
    if how == "session":
        client.force_login(alice)
    caller = alice_api if how == "token" else client

    response = caller.get("/api/v1/runs/999999/")

    assert response.status_code == 404
    line = console.record("Not Found: /api/v1/runs/999999/")
    assert line["user_id"] == alice.pk and line["run_id"] is None
    assert line["request_id"] == response["X-Request-ID"]
    logger.warning("after the request")
    assert console.record("after the request")["user_id"] is None


def _log_one_line(**environment: str) -> str:
    """A fresh process with the app's own settings logs one line during a run step."""
    code = (
        "import django, logging; django.setup()\n"
        "from agents.runtime.log_context import log_scope\n"
        "with log_scope(run_id=7, step=2, tool='search'):\n"
        "    logging.getLogger('probe').warning('probing the logs')\n"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "LOG_FORMAT", "LOG_LEVEL"}
    }
    env.update(DJANGO_SETTINGS_MODULE="tests.settings", **environment)
    completed = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert completed.returncode == 0, completed.stderr
    (line,) = [line for line in completed.stderr.splitlines() if "probing the logs" in line]
    return line


def test_development_logs_are_readable_text():
    line = _log_one_line(DEBUG="1")

    assert " WARNING probe: probing the logs [run=7 step=2 tool=search]" in line
    assert not line.startswith("{")


def test_log_format_json_writes_one_json_object_a_line():
    line = json.loads(_log_one_line(DEBUG="1", LOG_FORMAT="json"))

    assert line["message"] == "probing the logs" and line["run_id"] == 7
    assert line["user_id"] is None and line["tool"] == "search"


@pytest.mark.django_db
def test_a_json_traceback_keeps_secrets_out(console):
    try:
        raise ValueError("refused: Bearer abcdefghijklmnopqrstuvwxyz012345")
    except ValueError:
        logger.exception("the call failed")

    line = console.record("the call failed")
    assert "ValueError: refused" in line["exc_info"]
    assert "abcdefghijklmnopqrstuvwxyz012345" not in console.stream.getvalue()
