"""The answer to a metric question, from the `get_statements` results of the run so far."""

from __future__ import annotations

import json
from typing import Any

from finance.planner.metrics import (
    MetricRequest,
    MetricUnavailable,
    compute,
    statement_values,
)


def metric_answer(
    request: MetricRequest, question: str, documents: list[dict[str, Any]], results: dict[str, str]
) -> tuple[str, dict[str, Any]]:
    """The answer's lead sentence and the structured result ({"answers": [...]} when computed).

    The first document whose statements have every input answers; each input cites the first
    page of the statement that holds it.
    """
    problems = []
    for document in documents:
        found = _statements(document, request, results)
        try:
            value = compute(request, statement_values(found, request.figures))
        except MetricUnavailable as error:
            problems.append(f"{document['name']}: {error}")
            continue
        inputs: list[dict[str, Any]] = [
            {
                "label": figure.label,
                "value": statement_values(found, [figure])[figure],
                "unit": "USD millions",
                "page": _first_page(found, figure.statement),
            }
            for figure in request.figures
        ]
        years = ", ".join(f"FY{y}" for y in request.years)
        label = f"{request.name.replace('_', ' ')} {years}"
        answer: dict[str, Any] = {
            "question": question,
            "value": value,
            "unit": request.unit,
            "document_id": document["id"],
            "page": inputs[0]["page"],
            "label": label,
        }
        if len(inputs) > 1:
            answer["inputs"] = inputs
        lead = f"{document['name']}: {label} = {_shown(value, request.unit)}" + (
            f" (from {', '.join(i['label'] for i in inputs)})" if len(inputs) > 1 else ""
        )
        return lead + f", p. {answer['page'] + 1}.", {"answers": [answer]}
    reason = "; ".join(problems) or "no filing with statements is ready"
    return f"I could not compute {request.name.replace('_', ' ')}: {reason}.", {"answers": []}


def _statements(
    document: dict[str, Any], request: MetricRequest, results: dict[str, str]
) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for statement in {f.statement for f in request.figures}:
        try:
            data = json.loads(results.get(f"statements-{document['id']}-{statement}", ""))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict):
            found[statement] = data.get(statement) or {}
            found[f"{statement}_pages"] = data.get(f"{statement}_pages") or []
    return found


def _first_page(found: dict[str, Any], statement: str) -> int:
    pages = found.get(f"{statement}_pages") or [0]
    return int(pages[0])


def _shown(value: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.1f}%"
    if unit == "ratio":
        return f"{value:.2f}"
    scale = unit.split()[-1]
    return f"${value:,.2f} {scale[:-1]}" if abs(value) < 100 else f"${value:,.0f} {scale[:-1]}"
