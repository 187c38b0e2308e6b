"""The answers a finance run submitted (the contract verifiers read).

Every policy (a model, the offline planner) states a metric answer with the `submit_answer`
tool (`finance.tools.answer_tool`): either

    {"answers": [{"question": str, "metric": str, "value": float, "unit": "USD millions" | "%" |
                  "ratio" | ..., "period": str, "formula": str, "document_id": int, "page": int,
                  "label": str, "inputs": [{"label": str, "value": float, "unit": str,
                                             "page": int}, ...]}]}

or {"could_not": "the reason"}. The last submission the tool accepted counts; the run's events
hold it (the call's arguments, and its result marked ok). `page` is the 0-indexed page that
prints the value or, for a computed value, one of its inputs' pages. Verifiers read this, never
the reply's wording.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from finance.evaluation.figures import UnitError, unit_kind

SUBMIT_ANSWER = "submit_answer"


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


@dataclass(frozen=True)
class Submission:
    """What a run submitted: its answers, or the reason it could not answer."""

    answers: tuple[Answer, ...] = ()
    could_not: str = ""


def submitted(run: Any) -> Submission:
    """The run's last accepted `submit_answer` call; AnswerError when it made none."""
    from agents.models import Event
    from agents.runtime import events

    calls: dict[str, dict[str, Any]] = {}
    accepted: dict[str, Any] | None = None
    rows = Event.objects.filter(run=run, type__in=(events.TOOL_CALL, events.TOOL_RESULT))
    for event in rows.order_by("seq"):
        payload = event.payload or {}
        if payload.get("name") != SUBMIT_ANSWER:
            continue
        if event.type == events.TOOL_CALL:
            calls[str(payload.get("id"))] = payload.get("arguments") or {}
        elif payload.get("ok") and str(payload.get("id")) in calls:
            accepted = calls[str(payload.get("id"))]
    if accepted is None:
        raise AnswerError("the run submitted no answer (no accepted submit_answer call)")
    if accepted.get("could_not"):
        return Submission(could_not=str(accepted["could_not"]))
    raw = accepted.get("answers")
    if not isinstance(raw, list) or not raw:
        raise AnswerError("the run's submission has no answers")
    return Submission(tuple(read_answer(item, f"answers[{n}]") for n, item in enumerate(raw)))


def run_answers(run: Any) -> list[Answer]:
    """The answers the run submitted; AnswerError when it submitted none or could not."""
    submission = submitted(run)
    if submission.could_not:
        raise AnswerError(f"the run submitted that it could not answer: {submission.could_not}")
    return list(submission.answers)


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
