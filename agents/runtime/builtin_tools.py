"""Tools every workspace has: arithmetic, and reading back compressed observations."""

from __future__ import annotations

from typing import Any

from agents.runtime.arithmetic import evaluate
from agents.runtime.errors import ToolError
from agents.runtime.tools import Tool, ToolContext

READ_LIMIT = 3000


def _calculate(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    expression = arguments["expression"]
    return {"expression": expression, "value": evaluate(expression)}


def _read_artifact(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    ref = arguments["ref"]
    offset = arguments.get("offset", 0)
    limit = min(arguments.get("limit", READ_LIMIT), READ_LIMIT)
    try:
        content = context.artifacts.read(ref)
    except KeyError as error:
        raise ToolError(f"no artifact {ref!r} in this run") from error
    chunk = content[offset : offset + limit]
    return {
        "ref": ref,
        "offset": offset,
        "text": chunk,
        "total_chars": len(content),
        "next_offset": offset + len(chunk) if offset + len(chunk) < len(content) else None,
    }


CALCULATE = Tool(
    name="calculate",
    description="Evaluate an arithmetic expression (+ - * / // % ** and parentheses).",
    parameters={
        "type": "object",
        "properties": {"expression": {"type": "string", "minLength": 1, "maxLength": 500}},
        "required": ["expression"],
        "additionalProperties": False,
    },
    function=_calculate,
)

READ_ARTIFACT = Tool(
    name="read_artifact",
    description="Read part of a stored observation that was compressed out of the context.",
    parameters={
        "type": "object",
        "properties": {
            "ref": {"type": "string", "minLength": 1},
            "offset": {"type": "integer", "minimum": 0, "default": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": READ_LIMIT},
        },
        "required": ["ref"],
        "additionalProperties": False,
    },
    function=_read_artifact,
)

BUILTIN_TOOLS = (CALCULATE, READ_ARTIFACT)
