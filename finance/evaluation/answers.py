"""The structured answers a finance run leaves in its result (the contract verifiers read).

A run that answers a question finishes with `Decision(result=...)`, stored as
`Run.result["result"]`:

    {"text": "...",
     "answers": [{"question": str, "value": float, "unit": "USD millions" | "%" | "ratio" | ...,
                  "document_id": int, "page": int, "label": str,
                  "inputs": [{"label": str, "value": float, "unit": str, "page": int}, ...]}]}

`page` is the 0-indexed page that prints the value or, for a computed value, its inputs.
`inputs` is optional: the figures a computed value was made from, each with the page that
prints it (a ratio of revenue on the income statement to PP&E on the balance sheet cites two).
Verifiers read this, never the answer's wording.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from finance.evaluation.figures import UnitError, unit_kind


class AnswerError(ValueError):
    """A run result that does not follow the answer contract; the message says where."""


@dataclass(frozen=True)
class AnswerInput:
    label: str
    value: float
    unit: str
    page: int


@dataclass(frozen=True)
class Answer:
    question: str
    value: float
    unit: str
    document_id: int
    page: int
    label: str = ""
    inputs: tuple[AnswerInput, ...] = ()


def run_answers(result: Any) -> list[Answer]:
    """The answers in a run's stored result (`Run.result`); AnswerError when there are none."""
    structured = result.get("result") if isinstance(result, dict) else None
    if not isinstance(structured, dict):
        raise AnswerError("the run's result is not structured (no 'answers', only text)")
    raw = structured.get("answers")
    if not isinstance(raw, list) or not raw:
        raise AnswerError("the run's result has no 'answers'")
    return [read_answer(item, f"answers[{n}]") for n, item in enumerate(raw)]


def read_answer(raw: Any, where: str) -> Answer:
    if not isinstance(raw, dict):
        raise AnswerError(f"{where} is not an object")
    inputs = raw.get("inputs") or []
    if not isinstance(inputs, list):
        raise AnswerError(f"{where}.inputs is not a list")
    return Answer(
        question=str(raw.get("question") or ""),
        value=_number(raw.get("value"), f"{where}.value"),
        unit=_unit(raw.get("unit"), f"{where}.unit"),
        document_id=_integer(raw.get("document_id"), f"{where}.document_id"),
        page=_integer(raw.get("page"), f"{where}.page"),
        label=str(raw.get("label") or ""),
        inputs=tuple(_input(item, f"{where}.inputs[{n}]") for n, item in enumerate(inputs)),
    )


def answer_for(answers: list[Answer], question: str) -> Answer:
    """The answer to `question`: the only one, or the one whose question is the same text."""
    if len(answers) == 1:
        return answers[0]
    wanted = " ".join(question.split()).lower()
    for answer in answers:
        if " ".join(answer.question.split()).lower() == wanted:
            return answer
    raise AnswerError(f"{len(answers)} answers and none is for this question")


def _input(raw: Any, where: str) -> AnswerInput:
    if not isinstance(raw, dict):
        raise AnswerError(f"{where} is not an object")
    return AnswerInput(
        label=str(raw.get("label") or ""),
        value=_number(raw.get("value"), f"{where}.value"),
        unit=_unit(raw.get("unit", "USD millions"), f"{where}.unit"),
        page=_integer(raw.get("page"), f"{where}.page"),
    )


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise AnswerError(f"{where} is not a finite number: {value!r}")
    return float(value)


def _integer(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise AnswerError(f"{where} is not a non-negative integer: {value!r}")
    return value


def _unit(value: Any, where: str) -> str:
    try:
        unit_kind(str(value))
    except UnitError as error:
        raise AnswerError(f"{where}: {error}") from None
    return str(value)
