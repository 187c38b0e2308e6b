"""Finance's step signals for trajectories: each question the research answered, with its page.

A question counts as answered when its `search_document` call came back with at least one
passage; the best passage's page (0-indexed, as the statements use) is reported. Questions the
research plan (`write_note`) names but no search looked up are reported as not answered.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from agents.models import Run
from agents.runtime import events as event_types
from agents.trajectories import register_signals
from agents.trajectories.outputs import tool_output
from agents.trajectories.signals import EventDict, Signal

SEARCH = "search_document"
NOTE = "write_note"


def register() -> None:
    """Add the sub-question signals to every finance run's trajectory."""
    register_signals("finance", sub_question_signals)


def sub_question_signals(run: Run, events: Sequence[EventDict]) -> list[Signal]:
    """A `sub_question` signal per search, then per planned question no search looked up."""
    results = {
        str(payload.get("id")): payload
        for payload in _payloads(events, event_types.TOOL_RESULT)
        if payload.get("name") == SEARCH
    }
    signals: list[Signal] = []
    searched: set[str] = set()
    for call in _payloads(events, event_types.TOOL_CALL):
        if call.get("name") != SEARCH:
            continue
        arguments = call.get("arguments") or {}
        question = str(arguments.get("query") or "")
        searched.add(_key(question))
        call_id = str(call.get("id"))
        result = results.get(call_id)
        hits = _hits(run, call_id, events) if result and result.get("ok") else []
        best = hits[0] if hits else {}
        signals.append(
            {
                "type": "sub_question",
                "question": question,
                "answered": bool(hits),
                "page": best.get("page"),
                "page_label": best.get("page_label"),
                "document_id": arguments.get("document_id"),
                "call_id": call_id,
            }
        )
    for call in _payloads(events, event_types.TOOL_CALL):
        if call.get("name") != NOTE:
            continue
        for question in (call.get("arguments") or {}).get("questions") or ():
            if _key(str(question)) not in searched:
                searched.add(_key(str(question)))
                signals.append(
                    {
                        "type": "sub_question",
                        "question": str(question),
                        "answered": False,
                        "page": None,
                        "page_label": None,
                        "document_id": None,
                        "call_id": None,
                    }
                )
    return signals


def _payloads(events: Sequence[EventDict], type: str) -> list[Mapping[str, Any]]:
    return [event.get("payload") or {} for event in events if event.get("type") == type]


def _key(question: str) -> str:
    return " ".join(question.lower().split())


def _hits(run: Run, call_id: str, events: Sequence[EventDict]) -> list[dict[str, Any]]:
    """The passages a search returned, best first (empty when its output is gone or not JSON)."""
    output = tool_output(run, call_id, events)
    try:
        found = json.loads(output) if output else None
    except json.JSONDecodeError:
        return []
    hits = found.get("hits") if isinstance(found, dict) else None
    return [hit for hit in hits if isinstance(hit, dict)] if isinstance(hits, list) else []
