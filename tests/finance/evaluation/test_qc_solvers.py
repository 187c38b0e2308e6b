"""The finance kind's QC solvers: a gold from the reference where a page prints it, the null
solver, and wrong solvers that are right in form and wrong in substance."""

from __future__ import annotations

import json

import pytest

from agents.evaluation.spec import Check, Task, Turn
from finance.evaluation.qc import plan

pytestmark = pytest.mark.django_db


def task(*checks: Check, gold: dict | None = None) -> Task:
    turn = Turn(prompt="What were total assets in FY2020?", checks=checks)
    return Task(id="t", suite="finance", kind="finance", turns=(turn,), gold=gold or {})


def numeric(reference: str, unit: str = "USD millions") -> Check:
    params = {"document": "SYNTH_2020_10K", "reference": reference, "unit": unit}
    return Check("numeric_answer", params)


def submitted(solver) -> dict:
    """What the solver submits, as its first reply's tool call."""
    reply = solver.replies(type("R", (), {"messages": [{"role": "user", "content": "q"}]})())
    [call] = reply.calls
    return json.loads(call.raw)


def test_a_printed_value_gets_a_gold_on_its_page_and_four_wrong_solvers(document):
    made = plan(task(numeric("$1000.00")), {"documents": {"SYNTH_2020_10K": document.pk}})

    names = [solver.name for solver in made.solvers]
    assert names == [
        "gold",
        "null",
        "wrong:sign flipped",
        "wrong:unit of the other kind",
        "wrong:neighbouring figure",
        "wrong:page that does not print it",
    ]
    [gold] = submitted(made.solvers[0])["answers"]
    assert (gold["value"], gold["unit"], gold["page"]) == (1000.0, "USD millions", 1)
    wrong = {s.name: submitted(s)["answers"][0] for s in made.solvers[2:]}
    assert wrong["wrong:sign flipped"]["value"] == -1000.0
    assert wrong["wrong:unit of the other kind"]["unit"] == "%"
    neighbour = wrong["wrong:neighbouring figure"]
    assert neighbour["page"] == 1 and neighbour["value"] not in (1000.0, 2020.0, 2019.0)
    assert wrong["wrong:page that does not print it"]["page"] == 0


def test_a_computed_value_no_page_prints_says_its_gold_is_missing(document):
    made = plan(task(numeric("3.33", "ratio")), {"documents": {"SYNTH_2020_10K": document.pk}})

    assert "gold" not in [solver.name for solver in made.solvers]
    assert "no page of SYNTH_2020_10K.pdf prints 3.33" in made.no_gold
    assert "null" in [solver.name for solver in made.solvers]


def test_a_written_gold_is_used_as_written(document):
    written = {"answers": [{"value": 4.0, "unit": "ratio", "page": 0, "metric": "ratio"}]}
    made = plan(task(numeric("4.00", "ratio"), gold=written), {"documents": {"SYNTH_2020_10K": 1}})

    [gold] = submitted(made.solvers[0])["answers"]
    assert gold["value"] == 4.0 and gold["document_id"] == document.pk


def test_a_declined_task_has_a_could_not_gold_and_a_number_as_its_wrong_solver(document):
    made = plan(task(Check("declined", {})), {"documents": {"SYNTH_2020_10K": document.pk}})

    gold, null, wrong = made.solvers
    assert submitted(gold) == {"could_not": "the filing does not give what the question needs"}
    assert null.role == "null" and submitted(wrong)["answers"][0]["value"] == 1.0


def test_a_statements_task_gets_a_null_reading_and_three_misreadings(document):
    made = plan(task(Check("core_lines", {"document": "SYNTH_2020_10K"})), {"documents": {}})

    assert [solver.name for solver in made.solvers] == [
        "null",
        "wrong:read in thousands",
        "wrong:years one later",
        "wrong:lines swapped",
    ]
    assert "not written as its gold" in made.no_gold
    setup = made.solvers[1].setup
    assert setup is not None
    setup(None, {"documents": {"SYNTH_2020_10K": document.pk}})
    document.refresh_from_db()
    assert document.statements["balance_sheet"]["total_assets"]["FY2020"]["value"] == 1_000_000


def test_retrieval_tasks_are_not_covered_yet(document):
    made = plan(task(Check("evidence_retrieved", {})), {"documents": {}})
    assert made.uncovered and not made.solvers
