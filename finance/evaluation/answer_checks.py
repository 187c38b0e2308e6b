"""Verifiers of a run's structured numeric answer: its value, and the page it cites.

They read what the run submitted with `submit_answer` (see `finance.evaluation.answers`),
never the reply's wording. The suite gives `numeric_answer` the reference as FinanceBench prints it
("$8.70") and its unit ("USD billions"); the tolerance comes from that printing
(`finance.evaluation.figures`).
"""

from __future__ import annotations

from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from finance.evaluation.answers import Answer, AnswerError, answer_for, run_answers, submitted
from finance.evaluation.figures import (
    UnitError,
    convert,
    find_printed,
    printed_numbers,
    read_reference,
)
from finance.evaluation.task_documents import CheckError, judged, page_texts, task_document


def the_answer(context: VerifierContext) -> Answer:
    """The turn's answer to its own prompt; CheckError when the run gave none."""
    try:
        return answer_for(run_answers(context.run), context.task.turns[context.turn - 1].prompt)
    except AnswerError as error:
        raise CheckError(str(error)) from None


@judged
def numeric_answer(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The answer's value is the reference within the reference's rounding, in its unit."""
    reference = read_reference(str(params["reference"]))
    unit = str(params["unit"])
    answer = the_answer(context)
    try:
        value = convert(answer.value, answer.unit, unit)
    except UnitError as error:
        return Verdict.fail(f"the answer is in {answer.unit!r}: {error}", answer=answer.value)
    tolerance = float(params.get("tolerance", reference.tolerance))
    outputs: dict[str, Any] = {
        "value": round(value, 6),
        "reference": reference.value,
        "unit": unit,
        "tolerance": tolerance,
        "label": answer.label,
    }
    off = value - reference.value
    if abs(off) > tolerance + 1e-9:
        return Verdict.fail(
            f"answered {value:,.6g} {unit}, the reference is {reference.text} "
            f"(off by {off:,.4g}, more than ±{tolerance:g})",
            **outputs,
        )
    return Verdict.ok(**outputs)


@judged
def cited_page_prints_value(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The cited page of the document prints the value (a computed value: each input, each on
    the page it cites, and the answer's page is one of those)."""
    document = task_document(context, str(params["document"]))
    answer = the_answer(context)
    if answer.document_id != document.pk:
        raise CheckError(f"the answer cites document {answer.document_id}, not {document.name}")
    pages = page_texts(context, document)
    figures = [(answer.label or "value", answer.value, answer.unit, answer.page)]
    if answer.inputs:
        cited = {item.page for item in answer.inputs}
        if answer.page not in cited:
            raise CheckError(f"the answer cites p. {answer.page + 1}, none of its inputs' pages")
        figures = [(i.label or "input", i.value, i.unit, i.page) for i in answer.inputs]
    found: dict[str, str] = {}
    for label, value, unit, page in figures:
        if not 0 <= page < len(pages):
            raise CheckError(
                f"{label}: p. {page + 1} is not in {document.name} ({len(pages)} pages)"
            )
        printed = find_printed(value, unit, printed_numbers(pages[page]))
        if printed is None:
            return Verdict.fail(
                f"{label} {value:,.6g} {unit} is not printed on p. {page + 1} of {document.name}",
                page=page,
                found=found,
            )
        found[label] = f"p. {page + 1}: {printed.text.strip()}"
    return Verdict.ok(page=answer.page, found=found)


def declined(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The run submitted that it could not answer, with its reason, and no value: for a
    question the filing cannot answer (a metric of a bank it does not define, a period it does
    not cover)."""
    try:
        submission = submitted(context.run)
    except AnswerError as error:
        return Verdict.fail(str(error))
    if not submission.could_not:
        shown = ", ".join(f"{a.value:,.6g} {a.unit}" for a in submission.answers)
        return Verdict.fail(f"the run answered {shown} where it should have said it could not")
    return Verdict.ok(reason=submission.could_not[:300])
