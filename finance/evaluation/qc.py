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

Statement tasks judge what reading the document left: the null solver leaves no statements,
the wrong solvers misread them (a thousand times too large, a year off, lines swapped); their
gold is not written yet. For a document that prints no statements (`carries: []`) reading
nothing is the gold, and reading some is the wrong solver. Retrieval tasks are not covered yet.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from typing import Any

from agents.evaluation.qc import QcPlan, Solver, null_solver, scripted, state_solver
from agents.evaluation.spec import Check, Task
from finance.evaluation.figures import (
    Reference,
    find_printed,
    printed_numbers,
    read_reference,
    unit_kind,
)
from finance.evaluation.statement_checks import STATEMENT_NAMES
from finance.models import Document

Setup = Callable[[Any, dict[str, Any]], None]

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
    statement_checks = [c for c in checks.values() if c.name in STATEMENT_CHECKS]
    if statement_checks:
        return _statements(statement_checks, documents)
    return QcPlan(uncovered="it judges what search retrieved: its solvers are not written yet")


STATEMENT_CHECKS = ("statements_years", "accounting_identities", "core_lines")


def _statements(checks: list[Check], documents: dict[str, int]) -> QcPlan:
    """A statements task judges what reading the document left: the null solver leaves
    nothing, each wrong solver a plausible misreading of what was there (the gold is the
    reading the task describes, which no tool writes by hand yet)."""
    name = str(checks[0].params["document"])

    def altered(change: Callable[[dict[str, Any]], dict[str, Any]]) -> Setup:
        def setup(workspace: Any, inputs: dict[str, Any]) -> None:
            document = Document.objects.get(pk=inputs["documents"][name])
            Document.objects.filter(pk=document.pk).update(
                statements=change(dict(document.statements or {}))
            )

        return setup

    if any(c.params.get("carries") == [] for c in checks):  # a document printing none
        period = int(next(c.params["period"] for c in checks if "period" in c.params))
        return QcPlan(
            (
                state_solver("gold", "gold", altered(lambda statements: {})),
                state_solver(
                    "wrong:statements read where there are none",
                    "wrong",
                    altered(lambda statements: _invented(period)),
                ),
            ),
        )
    return QcPlan(
        (
            null_solver(altered(lambda statements: {})),
            state_solver("wrong:read in thousands", "wrong", altered(_scaled)),
            state_solver("wrong:years one later", "wrong", altered(_years_later)),
            state_solver("wrong:lines swapped", "wrong", altered(_lines_swapped)),
        ),
        no_gold="the statements the task describes are not written as its gold yet",
    )


def _invented(period: int) -> dict[str, Any]:
    """An income statement read out of a document that prints none."""
    cell = {"value": 100.0, "page": 0, "bbox": [0.0, 0.0, 1.0, 1.0]}
    return {
        "fiscal_years": [f"FY{period}"],
        "income_statement": {"revenue": {f"FY{period}": cell}},
    }


def _cells(statements: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for name in STATEMENT_NAMES:
        for row in (statements.get(name) or {}).values():
            yield from (cell for cell in row.values() if isinstance(cell, dict))


def _scaled(statements: dict[str, Any]) -> dict[str, Any]:
    """Every figure a thousand times too large (a page in millions read as thousands)."""
    out = copy.deepcopy(statements)
    for cell in _cells(out):
        if isinstance(cell.get("value"), int | float):
            cell["value"] = cell["value"] * 1000
    return out


def _years_later(statements: dict[str, Any]) -> dict[str, Any]:
    """Every period labelled a year later than it is."""
    out = copy.deepcopy(statements)

    def later(label: str) -> str:
        return re.sub(r"(\d{4})$", lambda m: str(int(m.group(1)) + 1), label)

    out["fiscal_years"] = [later(str(y)) for y in out.get("fiscal_years") or []]
    for name in STATEMENT_NAMES:
        lines = out.get(name) or {}
        out[name] = {key: {later(y): c for y, c in row.items()} for key, row in lines.items()}
    return out


def _lines_swapped(statements: dict[str, Any]) -> dict[str, Any]:
    """Each statement's lines given each other's figures (rows read against the wrong labels)."""
    out = copy.deepcopy(statements)
    for name in STATEMENT_NAMES:
        lines = out.get(name) or {}
        keys = list(lines)
        if len(keys) > 1:
            out[name] = {key: lines[keys[(n + 1) % len(keys)]] for n, key in enumerate(keys)}
    return out


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
