"""The answer to a metric question, from the `get_statements` results of the run so far.

The lead sentence gives the value with its formula and cited inputs; a comparison gives each
period and the change; a growth or change asked for is one figure made from both periods' inputs
(or, lacking one, a plain "could not compute"); a question about health gets the figure and says
that the judgement is the reader's. A part of a line ("services revenue") is answered from its
own printed row, or not at all; a date ("at Dec 31 2022") is the period the statements say ends
then; an amount per share that no line holds is declined. The structured result
(`{"answers": [...]}`) has one answer per period, latest first: {question, value, unit,
document_id, page, label, formula, inputs}.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from typing import Any

from finance.planner.asked_lines import own_words
from finance.planner.asked_periods import periods_ending
from finance.planner.metric_catalogue import PER_SHARE, STATEMENT_OF, display_name
from finance.planner.metrics import (
    MetricRequest,
    MetricUnavailable,
    compute,
    compute_change,
    compute_one,
    statement_values,
)
from finance.statements.periods import period_order


def metric_answer(
    request: MetricRequest, question: str, documents: list[dict[str, Any]], results: dict[str, str]
) -> tuple[str, dict[str, Any]]:
    """The answer's lead and the structured result ({"answers": [...]}, empty when nothing
    could be computed). Each document the request is about is answered on its own."""
    if request.refusal:
        return f"I could not compute {request.title}: {request.refusal}.", {"answers": []}
    leads: list[str] = []
    answers: list[dict[str, Any]] = []
    problems = []
    asked = request
    for document in documents:
        found = _statements(document, request, results)
        request, renamed = _in_statement_years(asked, document)
        try:
            request, found, part = _part_of_line(request, document, found)
            renamed += part
            request = _dated(request, found)
            labels = request.labels(_periods(found, request))
            if not labels:
                raise MetricUnavailable(
                    "no full fiscal year of the statements has its inputs"
                    if request.annual
                    else "no period of the statements has its inputs"
                )
            done = _answers(request, question, document, found, labels)
        except MetricUnavailable as error:
            problems.append(f"{document['name']}: {error}")
            continue
        answers += done
        leads.append(_lead(request, document, done) + renamed)
    if not answers:
        reason = "; ".join(problems) or "no filing with statements is ready"
        return f"I could not compute {request.title}: {reason}.", {"answers": []}
    if problems:
        leads.append(f"Not computed for {'; '.join(problems)}.")
    if request.judge:
        leads.append(
            "Whether that is healthy depends on the business and its peers: the figure and its "
            "formula are above; the offline planner does not judge it (a model server can)."
        )
    return "\n".join(leads), {"answers": answers}


def _answers(
    request: MetricRequest,
    question: str,
    document: dict[str, Any],
    found: dict[str, Any],
    labels: list[str],
) -> list[dict[str, Any]]:
    if request.change:
        return [_change(request, question, document, found, labels)]
    if request.average:
        figures = [f for label in labels for f in request.metric(label).inputs]
        values = statement_values(found, figures)
        value = compute(request, values, labels)
        title = f"{request.title} {labels[0]} to {labels[-1]} average"
        return [_answer(request, question, document, found, labels, value, title, figures)]
    out: list[dict[str, Any]] = []
    for label in labels:
        metric = request.metric(label)
        values = statement_values(found, list(metric.inputs))
        if out and any(f not in values and f not in metric.optional for f in metric.inputs):
            continue  # the earlier period of a comparison may lack an input: the rest stands
        value = compute_one(request, label, values)
        title = f"{request.title} {label}"
        out.append(
            _answer(request, question, document, found, [label], value, title, metric.inputs)
        )
    return out


def _change(
    request: MetricRequest,
    question: str,
    document: dict[str, Any],
    found: dict[str, Any],
    labels: list[str],
) -> dict[str, Any]:
    """One answer for a growth or change: the later period against the one a year before."""
    if len(labels) < 2:
        raise MetricUnavailable(
            f"the statements have no period a year before {labels[0]} to compare it with"
        )
    later, earlier = labels[0], labels[1]
    figures = [*request.metric(later).inputs, *request.metric(earlier).inputs]
    value = compute_change(request, later, earlier, statement_values(found, figures))
    title = f"{request.title} {later} vs {earlier}"
    answer = _answer(request, question, document, found, [later], value, title, figures)
    reads = request.metric(later).reads
    answer["period"] = f"{later} vs {earlier}"
    answer["formula"] = (
        f"100 x ({reads} {later} / {reads} {earlier} - 1)"
        if request.change == "growth"
        else f"{reads} {later} - {reads} {earlier}"
    )
    return answer


def _answer(
    request: MetricRequest,
    question: str,
    document: dict[str, Any],
    found: dict[str, Any],
    labels: list[str],
    value: float,
    title: str,
    figures: Any,
) -> dict[str, Any]:
    values = statement_values(found, list(dict.fromkeys(figures)))
    figures = [figure for figure in dict.fromkeys(figures) if figure in values]
    inputs = [
        {
            "label": f"{request.part} {figure.label}"
            if _is_part(request, figure)
            else figure.label,
            "value": values[figure],
            "unit": "USD" if figure.key in PER_SHARE else "USD millions",
            "page": _page_of(found, figure),
        }
        for figure in figures
    ]
    answer: dict[str, Any] = {
        "question": question,
        "value": value,
        "unit": request.unit,
        "document_id": document["id"],
        "page": inputs[0]["page"],
        "label": title,
        "period": labels[0] if len(labels) == 1 else f"{labels[0]} to {labels[-1]}",
        "formula": request.metric(labels[0]).reads,
    }
    unverified = _unverified(document, figures)
    if unverified:
        answer["unverified"] = unverified
    if len(inputs) > 1:
        answer["inputs"] = inputs
    return answer


def _lead(request: MetricRequest, document: dict[str, Any], answers: list[dict[str, Any]]) -> str:
    first = answers[0]
    shown = _shown(first["value"], request.unit)
    lead = f"{document['name']}: {first['label']} = {shown}"
    if "inputs" in first:
        cited = ", ".join(
            f"{i['label']} {_shown(i['value'], i['unit'])} (p. {i['page'] + 1})"
            for i in first["inputs"]
        )
        lead += f", from {first['formula']}: {cited}"
    else:
        lead += f", p. {first['page'] + 1}"
    if len(answers) > 1:
        later, earlier = answers[0], answers[1]
        change = later["value"] - earlier["value"]
        unit = "pp" if request.unit == "%" else ""
        direction = "up" if change > 0 else "down" if change < 0 else "unchanged"
        lead += (
            f"; {earlier['label']} = {_shown(earlier['value'], request.unit)}, so "
            f"{direction} {_shown(abs(change), request.unit).rstrip('%')}{unit or ''}"
            if change
            else f"; {earlier['label']} = {_shown(earlier['value'], request.unit)}, unchanged"
        )
    flagged = [a for a in answers if a.get("unverified")]
    if flagged:
        lead += ". Unverified: " + "; ".join(sorted({u for a in flagged for u in a["unverified"]}))
    return lead + "."


def _part_of_line(
    request: MetricRequest, document: dict[str, Any], found: dict[str, Any]
) -> tuple[MetricRequest, dict[str, Any], str]:
    """The statements with the line the request names a part of ("services revenue") replaced
    by that part's printed row, and what the answer says of it; MetricUnavailable when the
    statement prints no such row (then the total would be a wrong answer). The company's own
    name is no part ("Verizon revenue")."""
    part = part_asked(request, document)
    if not part:
        return request, found, ""
    statement = STATEMENT_OF.get(request.name, "")
    row = found.get(f"{statement}_part")
    if not isinstance(row, dict):
        raise MetricUnavailable(
            f"the statements print no '{part}' line of their own, only the whole "
            f"{display_name(request.name)} (a segment or product line is in the notes, "
            "which the offline planner does not compute from)"
        )
    cells = {period: float(value) for period, value in row["cells"].items()}
    pages = {period: int(row["page"]) for period in cells}
    changed = dict(found)
    changed[statement] = {**found.get(statement, {}), request.name: cells}
    changed[f"{statement}_cell_pages"] = {
        **(found.get(f"{statement}_cell_pages") or {}),
        request.name: pages,
    }
    said = f" (The line read is '{row['label']}'.)"
    return replace(request, part=part), changed, said


def part_asked(request: MetricRequest, document: dict[str, Any]) -> str:
    """The part of its line a request names ("wireless equipment"), less the company's own name
    (its name, file name, ticker: "Verizon revenue" names no part); "" for none."""
    names = [str(document.get(k) or "") for k in ("company", "name", "ticker")]
    return own_words(request.qualifier, names)


def _dated(request: MetricRequest, found: dict[str, Any]) -> MetricRequest:
    """The request with its dates ("at Dec 31 2022") as the periods that end on them."""
    if not request.dates:
        return request
    ends = found.get("period_ends") or {}
    labels: list[str] = []
    for asked in request.dates:
        matching = periods_ending(asked, ends, request.months)
        if not matching:
            year, month, day = asked
            when = date(year, month, day or 1).strftime("%B %Y" if day is None else "%B %d, %Y")
            raise MetricUnavailable(f"the statements have no period ending {when}")
        labels.append(matching[0])
    return replace(request, periods=tuple(dict.fromkeys(labels)), years=())


def _in_statement_years(request: MetricRequest, document: dict[str, Any]) -> tuple[Any, str]:
    """The request with its years as the statements label them, and what the answer says of
    it. A year ending in January to March is labelled by the year it ends in (FY2023 for one
    ending 28 January 2023); a filing that calls that year "fiscal 2022" (its profile's fiscal
    year is one less than the latest label, whose year ends in that month) names every year one
    lower, so "fiscal 2022" asked of it is FY2023. Other filings are read as they are."""
    offset = _naming_offset(document)
    if not offset or not request.years:
        return request, ""
    years = tuple(year + offset for year in request.years)
    said = " and ".join(f"FY{b} 'fiscal {a}'" for a, b in zip(request.years, years, strict=True))
    return replace(request, years=years), f" (The filing calls {said}.)"


def _naming_offset(document: dict[str, Any]) -> int:
    try:
        named = int(str(document.get("fiscal_year") or ""))
        end = date.fromisoformat(str(document.get("period_end") or ""))
    except ValueError:
        return 0
    labelled = [
        int(y) for label in document.get("fiscal_years") or [] for y in re.findall(r"\d{4}", label)
    ]
    if end.month <= 3 and labelled and max(labelled) == end.year == named + 1:
        return 1
    return 0


def _unverified(document: dict[str, Any], figures: list[Any]) -> list[str]:
    """Why an input's statement period failed its accounting identity, if it did."""
    failed = document.get("unverified") or {}
    reasons = []
    for figure in figures:
        why = (failed.get(figure.statement) or {}).get(figure.year)
        if why:
            reasons.append(f"{figure.statement.replace('_', ' ')} {figure.year}: {why}")
    return list(dict.fromkeys(reasons))


def _periods(found: dict[str, Any], request: MetricRequest) -> list[str]:
    """The periods of the statements read for which every input of the metric is there."""
    seen = {
        label
        for statement in request.statements
        for cells in (found.get(statement) or {}).values()
        if isinstance(cells, dict)
        for label in cells
    }
    usable = []
    for label in sorted(seen, key=period_order):
        metric = request.metric(label)
        present = statement_values(found, list(metric.inputs))
        if all(f in present or f in metric.optional for f in metric.inputs):
            usable.append(label)
    return usable or sorted(seen, key=period_order)


def _statements(
    document: dict[str, Any], request: MetricRequest, results: dict[str, str]
) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for statement in request.statements:
        try:
            data = json.loads(results.get(f"statements-{document['id']}-{statement}", ""))
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict):
            found[statement] = data.get(statement) or {}
            found[f"{statement}_pages"] = data.get(f"{statement}_pages") or []
            found[f"{statement}_cell_pages"] = data.get(f"{statement}_cell_pages") or {}
            found[f"{statement}_part"] = data.get(f"{statement}_part")
            found["period_ends"] = data.get("period_ends") or found.get("period_ends") or {}
    return found


def _is_part(request: MetricRequest, figure: Any) -> bool:
    """Whether an input is the printed part of a line ("services" revenue), not the line."""
    return bool(request.part) and figure.key == request.name


def _page_of(found: dict[str, Any], figure: Any) -> int:
    """The page that prints a figure: its own cell's page where the statements say, else the
    statement's first page."""
    cell = ((found.get(f"{figure.statement}_cell_pages") or {}).get(figure.key) or {}).get(
        figure.year
    )
    if isinstance(cell, int):
        return cell
    pages = found.get(f"{figure.statement}_pages") or [0]
    return int(pages[0])


def _shown(value: float, unit: str) -> str:
    if unit == "%":
        return f"{value:.1f}%"
    if unit == "ratio":
        return f"{value:.2f}"
    if unit == "x":
        return f"{value:.1f}x"
    if unit == "USD":
        return f"${value:,.2f} per share"
    scale = unit.split()[-1]
    return f"${value:,.2f} {scale[:-1]}" if abs(value) < 100 else f"${value:,.0f} {scale[:-1]}"


SUBMITTED_KEYS = ("question", "value", "unit", "period", "formula", "document_id", "page", "label")


def submission_of(metric: str, answers: list[dict[str, Any]], lead: str) -> dict[str, Any]:
    """The `submit_answer` arguments for the planner's answers: each with its metric, inputs
    and pages; with none, "could not" with the lead's reason."""
    if not answers:
        return {"could_not": lead}
    submitted = []
    for answer in answers:
        entry = {key: answer[key] for key in SUBMITTED_KEYS if key in answer}
        entry["metric"] = metric
        if answer.get("inputs"):
            entry["inputs"] = [dict(item) for item in answer["inputs"]]
        submitted.append(entry)
    return {"answers": submitted}
