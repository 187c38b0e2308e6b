"""`submit_answer`: the one way any policy (a model, the offline planner) states a metric answer.

A run that is asked for a figure ends by submitting either answers (each a value with its unit,
metric, period, formula, the document and page that print it, and the inputs it was computed
from with their own pages) or `could_not` with the reason. The evaluation judges only what was
submitted (`finance.evaluation.answers.submitted_answers`), never the wording of the reply, so a
model and the offline planner are held to the same contract.

The tool checks what it can before accepting: units it knows, a document of the workspace, pages
the document has, finite values; anything else is an error the policy sees and can correct.
"""

from __future__ import annotations

import math
from typing import Any

from agents.runtime import Tool, ToolContext, ToolError
from finance.tools.workspace import document_of

UNITS = ("USD", "USD thousands", "USD millions", "USD billions", "%", "ratio", "x", "days")
"""Money (plain USD for per-share amounts), shares of a whole, multiples and day counts."""

_INPUT = {
    "type": "object",
    "properties": {
        "label": {"type": "string", "maxLength": 200},
        "value": {"type": "number"},
        "unit": {"type": "string", "enum": list(UNITS)},
        "page": {"type": "integer", "minimum": 0},
    },
    "required": ["label", "value", "unit", "page"],
    "additionalProperties": False,
}
_ANSWER = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "maxLength": 1000},
        "metric": {"type": "string", "maxLength": 200},
        "value": {"type": "number"},
        "unit": {"type": "string", "enum": list(UNITS)},
        "period": {"type": "string", "maxLength": 100},
        "formula": {"type": "string", "maxLength": 500},
        "document_id": {"type": "integer"},
        "page": {"type": "integer", "minimum": 0},
        "label": {"type": "string", "maxLength": 300},
        "inputs": {"type": "array", "items": _INPUT, "maxItems": 20},
    },
    "required": ["question", "metric", "value", "unit", "period", "document_id", "page"],
    "additionalProperties": False,
}
PARAMETERS = {
    "type": "object",
    "properties": {
        "answers": {"type": "array", "items": _ANSWER, "minItems": 1, "maxItems": 20},
        "could_not": {"type": "string", "minLength": 3, "maxLength": 2000},
    },
    "additionalProperties": False,
}


def submit_answer(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    answers = arguments.get("answers") or []
    could_not = str(arguments.get("could_not") or "").strip()
    if bool(answers) == bool(could_not):
        raise ToolError("submit either answers or could_not (with the reason), not both")
    if could_not:
        return {"accepted": "could_not", "reason": could_not}
    for number, answer in enumerate(answers):
        _check(answer, f"answers[{number}]", context)
    return {"accepted": len(answers), "values": [_shown(answer) for answer in answers]}


def _check(answer: dict[str, Any], where: str, context: ToolContext) -> None:
    document = document_of(context, answer["document_id"])
    figures = [(where, answer), *((f"{where}.inputs[{n}]", i) for n, i in enumerate(
        answer.get("inputs") or []))]  # fmt: skip
    for place, figure in figures:
        if not math.isfinite(float(figure["value"])):
            raise ToolError(f"{place}: the value must be a finite number")
        pages = int(document.pages or 0)
        if not 0 <= int(figure["page"]) < max(pages, 1):
            raise ToolError(
                f"{place}: page {figure['page']} is not in {document.name} "
                f"(pages are numbered 0 to {pages - 1})"
            )
    if answer.get("inputs") and answer["page"] not in {i["page"] for i in answer["inputs"]}:
        raise ToolError(f"{where}: page must be one of the pages its inputs cite")


def _shown(answer: dict[str, Any]) -> str:
    return f"{answer['metric']} {answer['period']}: {answer['value']:,.6g} {answer['unit']}"


SUBMIT_ANSWER = Tool(
    "submit_answer",
    "State the answer to a metric question, once, before the final reply: each value with its "
    "unit, metric, period, formula, the document and 0-indexed page that print it, and the "
    "inputs it was computed from (each with its page); or could_not with the reason when the "
    "filing does not give what the question needs. Only what is submitted counts as the answer.",
    PARAMETERS,
    submit_answer,
)
