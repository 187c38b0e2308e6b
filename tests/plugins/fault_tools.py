"""Tools with countable side effects and planners for fault trials: `tests.plugins.fault_tools`.

Importing this module (list it in AGENT_PLUGINS) registers two extra planners:

* "fault-model": the real model policy (`ModelPolicy`) against the OpenAI-compatible server at
  FAULT_MODEL_URL (model FAULT_MODEL_NAME); the test scripts that server to stream text and call
  the tools below.
* "fault-stream": a stateless planner for prompts such as "record 5", "nap 2" or "linger 1": it
  streams its text through `PolicyInput.on_delta`, then calls the tool once per step with
  item = 1..N (call ids "record-<n>", "nap-<n>", "linger-<n>"), then answers "done: record 5".

The tools have `effects=True`; each call's effect is a row in the database, as our real tools'
effects are (a note, a scene revision): a research note titled "<call key> <tool> <item>" for the
run, so a test counts the effects each call made. `record` works FAULT_RECORD_SECONDS (default
0.05), then writes; `nap` sleeps FAULT_NAP_SECONDS (default 3, longer than a test stack's lease),
then writes; `linger` writes first, then works FAULT_LINGER_SECONDS (default 2) before it returns
(a worker killed then has made the effect but not yet returned).
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from typing import Any

from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, Policy, PolicyInput, Tool, ToolCall, ToolContext, Usage

MODEL_PLANNER = "fault-model"
STREAM_PLANNER = "fault-stream"
REQUEST = re.compile(r"\b(record|nap|linger)\s+(\d+)", re.IGNORECASE)
MAX_ITEMS = 100


def read_effects(database_url: str, run_id: int | str) -> list[str]:
    """The effects the tools made for a run (one note per call actually made), oldest first."""
    import psycopg

    with psycopg.connect(database_url, connect_timeout=5) as db:
        rows = db.execute(
            "SELECT title FROM finance_note WHERE run_id = %s ORDER BY id", (int(run_id),)
        ).fetchall()
    return [str(row[0]) for row in rows]


def _seconds(name: str, default: float) -> float:
    return float(os.environ.get(name) or default)


def _append(tool: str, arguments: dict[str, Any], context: ToolContext) -> None:
    from agents.models import Run
    from finance.models import Note

    run = Run.objects.only("workspace_id").get(pk=context.options["run_id"])
    title = f"{context.call_key} {tool} {arguments['item']}"
    Note.objects.create(workspace_id=run.workspace_id, run=run, title=title, body={})


def _record(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    time.sleep(_seconds("FAULT_RECORD_SECONDS", 0.05))
    _append("record", arguments, context)
    return {"recorded": arguments["item"]}


def _nap(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    time.sleep(_seconds("FAULT_NAP_SECONDS", 3.0))
    _append("nap", arguments, context)
    return {"napped": arguments["item"]}


def _linger(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    _append("linger", arguments, context)
    time.sleep(_seconds("FAULT_LINGER_SECONDS", 2.0))  # effect made, call not yet returned
    return {"lingered": arguments["item"]}


ITEM = {
    "type": "object",
    "properties": {"item": {"type": "integer", "minimum": 1, "maximum": MAX_ITEMS}},
    "required": ["item"],
    "additionalProperties": False,
}
RECORD = Tool("record", "Record one item (a side effect).", ITEM, _record, effects=True)
NAP = Tool("nap", "Sleep a long while, then record one item.", ITEM, _nap, effects=True)
LINGER = Tool("linger", "Record one item, then finish up.", ITEM, _linger, effects=True)
TOOLS = {tool.name: tool for tool in (RECORD, NAP, LINGER)}


def _model_policy() -> Policy:
    from agents.runtime.model import ModelConfig
    from agents.runtime.model.policy import ModelPolicy

    config = ModelConfig(
        base_url=os.environ.get("FAULT_MODEL_URL", ""),
        model=os.environ.get("FAULT_MODEL_NAME", "fake-model"),
        connect_timeout=2.0,
        read_timeout=10.0,
        backoff_base=0.01,
        backoff_max=0.2,
        delta_interval=0.1,
    )
    return ModelPolicy(config)


def request_of(messages: list[dict[str, Any]]) -> tuple[str, int]:
    prompt = next((str(m.get("content") or "") for m in messages if m.get("role") == "user"), "")
    match = REQUEST.search(prompt)
    if match is None:
        return "record", 3
    return match.group(1).lower(), min(max(int(match.group(2)), 1), MAX_ITEMS)


@dataclass
class FaultStreamPlanner:
    """Stateless like the slow-count planner: every decision is read from the conversation."""

    name: str = STREAM_PLANNER

    def decide(self, context: PolicyInput) -> Decision:
        tool, count = request_of(context.messages)
        done = {str(m.get("tool_call_id")) for m in context.messages if m.get("role") == "tool"}
        pending = next((n for n in range(1, count + 1) if f"{tool}-{n}" not in done), None)
        calls: tuple[ToolCall, ...] = ()
        if pending is None:
            text = f"done: {tool} {count}"
        else:
            text = f"Step {pending} of {count}: I will {tool} item {pending} now."
            calls = (ToolCall(f"{tool}-{pending}", TOOLS[tool].name, {"item": pending}),)
        for start in range(0, len(text), 8):
            context.on_delta(text[start : start + 8])
            time.sleep(_seconds("FAULT_DELTA_SECONDS", 0.03))
        usage = Usage(len(json.dumps(context.messages)) // 4 + 1, len(text) // 4 + 1)
        return Decision(message=text, tool_calls=calls, usage=usage)


register_planner(MODEL_PLANNER, ExtraPlanner(factory=_model_policy, tools=(RECORD, NAP, LINGER)))
register_planner(
    STREAM_PLANNER, ExtraPlanner(factory=FaultStreamPlanner, tools=(RECORD, NAP, LINGER))
)
