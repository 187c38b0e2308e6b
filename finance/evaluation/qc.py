"""The finance kind's solvers for the verifiers' quality control (`agents.evaluation.qc`).

Answer tasks (a `numeric_answer`, or a `declined` for a question the filing cannot answer) get:

* gold: `submit_answer` with the task's written gold, or, for a value the filing prints as
  asked, the reference on the first page that prints it (found with the harness's own reading
  of the page, `figures.find_printed`). A computed value (a ratio, a growth) has no such page:
  its gold needs its inputs written in the task, and until then the task says so.
* null: says "Done." and submits nothing.
* wrong (each must fail): the value with its sign flipped; the same number in a unit of the
  other kind (a percent given as money, an amount as a percent); a neighbouring figure of the
  cited page, cited truly (a component or a level where something else is asked); the right
  value citing a page that does not print it. A declined task's wrong solver answers a number.

Statement and retrieval tasks judge what ingestion and search produced, not a submission:
their solvers are not written yet, and the QC reports them as uncovered.
"""

from __future__ import annotations

import re
from typing import Any

from agents.evaluation.qc import QcPlan, Solver, null_solver, scripted
from agents.evaluation.spec import Check, Task
from finance.evaluation.figures import (
    Reference,
    find_printed,
    printed_numbers,
    read_reference,
    unit_kind,
)
from finance.models import Document

SUBMIT = "submit_answer"
YEAR = re.compile(r"^(19|20)\d\d$")
NEIGHBOUR_GAP = 0.05
"""A neighbouring figure differs from the reference by at least this share of it."""


def plan(task: Task, inputs: dict[str, Any]) -> QcPlan:
    if len(task.turns) != 1:
        return QcPlan(uncovered="a conversation: its solvers are not written yet")
    checks = {check.name: check for check in task.turns[0].checks}
    documents = {str(k): int(v) for k, v in (inputs.get("documents") or {}).items()}
    if "numeric_answer" in checks:
        return _numeric(task, checks["numeric_answer"], documents)
    if "declined" in checks:
        return _declined(task, documents)
    return QcPlan(
        uncovered="it judges what ingestion or search produced: its solvers are not written yet"
    )


def _numeric(task: Task, check: Check, documents: dict[str, int]) -> QcPlan:
    reference = read_reference(str(check.params["reference"]))
    unit = str(check.params["unit"])
    document = Document.objects.get(pk=documents[str(check.params["document"])])
    pages = _pages(document)
    answer = {
        "question": task.turns[0].prompt,
        "metric": "as asked",
        "value": reference.value,
        "unit": unit,
        "period": "as asked",
        "formula": "as printed",
        "document_id": document.pk,
        "page": 0,
        "label": "as asked",
    }
    gold = _written_gold(task, document)
    no_gold = ""
    if gold is None:
        printing = _printing_page(reference, unit, pages)
        if printing is None:
            no_gold = (
                f"no page of {document.name} prints {reference.text}: a computed value needs "
                "its inputs and their pages written as the task's gold"
            )
        else:
            gold = {**answer, "page": printing}
    solvers = [null_solver(), *_wrong(gold or answer, reference, unit, pages)]
    if gold is not None:
        solvers.insert(0, _submits("gold", "gold", gold))
    return QcPlan(tuple(solvers), no_gold=no_gold, fresh_workspace=False)


def _declined(task: Task, documents: dict[str, int]) -> QcPlan:
    reason = {"could_not": "the filing does not give what the question needs"}
    number = {
        "question": task.turns[0].prompt,
        "metric": "as asked",
        "value": 1.0,
        "unit": "ratio",
        "period": "as asked",
        "document_id": next(iter(documents.values())),
        "page": 0,
    }
    return QcPlan(
        (
            scripted("gold", "gold", [(SUBMIT, reason)]),
            null_solver(),
            _submits("wrong:a number", "wrong", number),
        ),
        fresh_workspace=False,
    )


def _wrong(
    answer: dict[str, Any], reference: Reference, unit: str, pages: list[str]
) -> list[Solver]:
    value = float(answer["value"])
    out = []
    if value:
        out.append(_submits("wrong:sign flipped", "wrong", {**answer, "value": -value}))
    other = "USD millions" if unit_kind(unit) == "ratio" else "%"
    out.append(_submits("wrong:unit of the other kind", "wrong", {**answer, "unit": other}))
    page = int(answer["page"])
    neighbour = _neighbour(reference, unit, pages[page]) if 0 <= page < len(pages) else None
    if neighbour is not None:
        out.append(_submits("wrong:neighbouring figure", "wrong", {**answer, "value": neighbour}))
    silent = [
        n for n, text in enumerate(pages) if not find_printed(value, unit, printed_numbers(text))
    ]
    if silent and silent[0] != page:
        wrong_page = {**answer, "page": silent[0]}
        out.append(_submits("wrong:page that does not print it", "wrong", wrong_page))
    return out


def _submits(name: str, role: str, answer: dict[str, Any]) -> Solver:
    return scripted(name, role, [(SUBMIT, {"answers": [answer]})])


def _written_gold(task: Task, document: Document) -> dict[str, Any] | None:
    """The task's written gold answer (its `gold: {answers: [...]}`), on this document."""
    answers = task.gold.get("answers") if task.gold else None
    if not answers:
        return None
    gold = dict(answers[0])
    gold.setdefault("question", task.turns[0].prompt)
    gold["document_id"] = document.pk
    return gold


def _printing_page(reference: Reference, unit: str, pages: list[str]) -> int | None:
    for number, text in enumerate(pages):
        if find_printed(reference.value, unit, printed_numbers(text)) is not None:
            return number
    return None


def _neighbour(reference: Reference, unit: str, text: str) -> float | None:
    """Another figure the page prints (not a year), far enough from the reference to be wrong."""
    money = unit_kind(unit) == "money"
    gap = max(2 * reference.tolerance, NEIGHBOUR_GAP * abs(reference.value))
    for number in printed_numbers(text):
        if (money and number.percent) or YEAR.match(number.text.strip()):
            continue
        if number.value and abs(number.value - abs(reference.value)) > gap:
            return -number.value if number.negative else number.value
    return None


def _pages(document: Document) -> list[str]:
    from finance.research.sources import parsed

    return list(parsed(document).pages)
