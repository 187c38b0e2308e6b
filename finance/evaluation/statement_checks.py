"""Verifiers of a document's canonical statements: fiscal years, core lines, identities.

What each kind of document must carry (`doc_type` from devset/documents.jsonl), unless the task
says otherwise with `carries` (the statements the document prints; [] for one that prints none,
such as an 8-K of an event or a credit agreement):

* `10k` (annual report): fiscal years FY{period} and FY{period-1}, none later than FY{period};
  the income statement, balance sheet and cash flow each carry both years; revenue, net income,
  total assets and operating cash flow for FY{period}; both identities hold in every year.
* `10q` (a quarter): the income statement and balance sheet carry a period of fiscal `period`,
  and the balance sheet's identity can be checked and holds.
* `earnings` (a press release): the income statement carries a period of fiscal `period`.
* `8k`: what its `carries` says.
* Every kind: years lie in FY{period-1}..FY{period} (a quarter is compared with the same quarter
  of the year before, and with that year's year-end); the identities hold for whatever
  statements are carried; a document that carries none has nothing read from it.

Core figures are checked against the page that prints them, on their own row (revenue on a
revenue or sales row, not merely somewhere on the page), in the unit the page states (anywhere on
it: "(in millions)", "(Millions)", "in thousands"); a page that states no unit prints millions,
the statements' own unit.
"""

from __future__ import annotations

import math
import re
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from finance.evaluation.figures import agrees, printed_numbers
from finance.evaluation.identities import YearCheck, balance_checks, cash_flow_checks, cells
from finance.evaluation.task_documents import (
    CheckError,
    judged,
    page_texts,
    statements_of,
    task_document,
)

ANNUAL = "10k"
UNIT_HEADER = re.compile(
    r"\b(?:in|\$ in|dollars in)\s+(thousands|millions|billions)\b"
    r"|\((thousands|millions|billions)\)",
    re.IGNORECASE,
)
ROW_LABELS = {
    "revenue": re.compile(r"revenue|sales", re.IGNORECASE),
    "net_income": re.compile(r"net\s+(income|earnings|loss|\(loss\))", re.IGNORECASE),
    "total_assets": re.compile(r"total\s+assets", re.IGNORECASE),
    "operating_cash_flow": re.compile(r"operating\s+activities|operations", re.IGNORECASE),
}
"""How a core line's row is labelled on its page, whatever the filer's wording around it: its
value must be printed on such a row, not merely somewhere on the page."""
CARRIES = {
    ANNUAL: ("income_statement", "balance_sheet", "cash_flow"),
    "10q": ("income_statement", "balance_sheet"),
    "earnings": ("income_statement",),
    "8k": (),
}
"""What each kind of document carries for its period, unless its task says (`carries`)."""
STATEMENT_NAMES = ("income_statement", "balance_sheet", "cash_flow")
CORE_LINES = (
    ("income_statement", "revenue"),
    ("income_statement", "net_income"),
    ("balance_sheet", "total_assets"),
    ("cash_flow", "operating_cash_flow"),
)


def _year(label: str) -> int | None:
    """The fiscal year of a period label: "FY2022", "Q2 2022", "6M 2022" (the contract's)."""
    match = re.fullmatch(r"(?:FY|Q[1-4] |[69]M )(\d{4})", label)
    return int(match.group(1)) if match else None


def _period(params: dict[str, Any]) -> int:
    try:
        return int(params["period"])
    except (KeyError, TypeError, ValueError):
        raise CheckError("the check needs the document's 'period' (its fiscal year)") from None


def carried(params: dict[str, Any], doc_type: str) -> tuple[str, ...]:
    """The statements the task's document carries for its period."""
    if "carries" in params:
        return tuple(str(name) for name in params["carries"] or ())
    return CARRIES.get(doc_type, ())


def years_problems(
    statements: dict[str, Any], doc_type: str, period: int, carries: tuple[str, ...] = ()
) -> list[str]:
    """Why a document's statements do not carry the years its type requires ([] if they do)."""
    fiscal = [str(year) for year in statements.get("fiscal_years") or []]
    problems = []
    lines = {name: statements.get(name) or {} for name in STATEMENT_NAMES}
    if not carries and doc_type != ANNUAL:
        read = [name.replace("_", " ") for name, rows in lines.items() if rows]
        if read or fiscal:
            problems.append(
                "the document prints no financial statements, yet "
                + (f"its {', '.join(read)} were read" if read else f"periods {fiscal} were read")
            )
        return problems
    if doc_type != ANNUAL:
        for name in carries:
            periods = {year for rows in lines[name].values() for year in rows}
            if not any(_year(label) == period for label in periods):
                problems.append(
                    f"the {name.replace('_', ' ')} has no period of fiscal {period} "
                    f"(read: {sorted(periods) or 'nothing'})"
                )
    unreadable = [year for year in fiscal if _year(year) is None]
    if unreadable:
        problems.append(f"periods not of the form FY2018, Q2 2018 or 6M 2018: {unreadable}")
    numbers = {y for y in map(_year, fiscal) if y is not None}
    later = sorted(y for y in numbers if y > period)
    if later:
        problems.append(f"years after the document's period FY{period}: {later}")
    if doc_type == ANNUAL:
        for wanted in (period, period - 1):
            if wanted not in numbers:
                problems.append(f"FY{wanted} is not among the fiscal years {fiscal}")
        for name in STATEMENT_NAMES:
            carried = {year for rows in (statements.get(name) or {}).values() for year in rows}
            lacking = [f"FY{y}" for y in (period, period - 1) if f"FY{y}" not in carried]
            if lacking:
                problems.append(f"the {name.replace('_', ' ')} has no line for {lacking}")
    else:
        older = sorted(y for y in numbers if y < period - 1)
        if older:
            problems.append(f"years before FY{period - 1} in a {doc_type} of FY{period}: {older}")
    for name in STATEMENT_NAMES:
        stray = {year for rows in (statements.get(name) or {}).values() for year in rows} - set(
            fiscal
        )
        if stray:
            problems.append(f"the {name.replace('_', ' ')} has years not listed: {sorted(stray)}")
    return problems


@judged
def statements_years(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The document's statements carry the fiscal years its type requires (see module doc)."""
    document = task_document(context, str(params["document"]))
    doc_type = str(params.get("doc_type", ANNUAL)).lower()
    period = _period(params)
    statements = statements_of(document)
    fiscal = list(statements.get("fiscal_years") or [])
    problems = years_problems(statements, doc_type, period, carried(params, doc_type))
    if problems:
        return Verdict.fail("; ".join(problems), fiscal_years=fiscal, period=period)
    return Verdict.ok(fiscal_years=fiscal, period=period, doc_type=doc_type)


@judged
def core_lines(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The core lines of the statements the document carries are there for its period, in
    USD millions: revenue and net income (income statement), total assets (balance sheet),
    operating cash flow (cash flow); each its page's printed figure, on its own row, in the unit
    the page states. An annual report's period is FY{period}; another document's, the first
    period of fiscal {period} the statements list (its latest quarter)."""
    document = task_document(context, str(params["document"]))
    doc_type = str(params.get("doc_type", ANNUAL)).lower()
    period = _period(params)
    carries = carried(params, doc_type)
    statements = statements_of(document)
    found: dict[str, float] = {}
    missing: list[str] = []
    labels: dict[str, str] = {}
    wanted = [(statement, key) for statement, key in CORE_LINES if statement in carries]
    for statement, key in wanted:
        label = _period_label(statements, statement, key, doc_type, period)
        value = cells(statements, statement, key).get(label) if label else None
        if label is None or value is None:
            missing.append(key)
        else:
            found[key], labels[key] = value, label
    if missing:
        score = len(found) / len(wanted)
        shown = f"FY{period}" if doc_type == ANNUAL else f"fiscal {period}"
        return Verdict.fail(f"no {', '.join(missing)} for {shown}", score=score, **found)
    pages = page_texts(context, document)
    wrong = [
        problem
        for statement, key in wanted
        if (problem := unit_problem(statements, statement, key, labels[key], pages))
    ]
    if wrong:
        return Verdict.fail("; ".join(wrong), score=1 - len(wrong) / len(wanted), **found)
    return Verdict.ok(periods=labels, **found)


def _period_label(
    statements: dict[str, Any], statement: str, key: str, doc_type: str, period: int
) -> str | None:
    if doc_type == ANNUAL:
        return f"FY{period}"
    row = (statements.get(statement) or {}).get(key) or {}
    listed = [str(label) for label in statements.get("fiscal_years") or []]
    ordered = listed + sorted(set(row) - set(listed))
    return next((label for label in ordered if label in row and _year(label) == period), None)


def unit_problem(
    statements: dict[str, Any], statement: str, key: str, year: str, pages: list[str]
) -> str:
    """Why a line's value is not its page's figure in USD millions ("" when it is)."""
    cell = ((statements.get(statement) or {}).get(key) or {}).get(year) or {}
    page = int(cell.get("page", -1))
    if not 0 <= page < len(pages):
        return f"{key} {year} cites p. {page + 1}, which the document does not have"
    unit = page_unit(pages[page])
    scale = {"thousands": 1e-3, "millions": 1.0, "billions": 1e3}[unit]
    value = float(cell["value"])
    lines = pages[page].splitlines()
    printed_rows = [
        " ".join(lines[max(0, n - 1) : n + 1])  # a label may wrap onto the line before
        for n, text in enumerate(lines)
        for number in printed_numbers(text)
        if agrees(number.value * scale, number.step * scale, value, 0.0)
    ]
    if not printed_rows:
        return f"{key} {year} = {value:,.3f} is not a figure p. {page + 1} prints in {unit}"
    label = ROW_LABELS.get(key)
    if label is not None and not any(label.search(row) for row in printed_rows):
        return (
            f"{key} {year} = {value:,.3f} is printed on p. {page + 1}, but not on a "
            f"{key.replace('_', ' ')} row"
        )
    return ""


def page_unit(text: str) -> str:
    """The unit a statement page states ("thousands", "millions", "billions"), first found;
    millions where it states none."""
    found = UNIT_HEADER.search(text)
    return (found.group(1) or found.group(2)).lower() if found else "millions"


@judged
def accounting_identities(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Assets = liabilities + equity and the cash-flow sections sum to the change in cash."""
    document = task_document(context, str(params["document"]))
    doc_type = str(params.get("doc_type", ANNUAL)).lower()
    statements = statements_of(document)
    texts = dict(enumerate(page_texts(context, document)))
    balance, flows = balance_checks(statements, texts), cash_flow_checks(statements, texts)
    carries = carried(params, doc_type)
    absent = [
        f"no {name} total to check, though the document carries its {name}"
        for name, key, found in (
            ("balance sheet", "balance_sheet", balance),
            ("cash flow", "cash_flow", flows),
        )
        if key in carries and not found
    ]
    outputs = {
        "balance": {c.year: _pair(c) for c in balance},
        "cash_flow": {c.year: _pair(c) for c in flows},
    }
    checks = [("balance sheet", c) for c in balance] + [("cash flow", c) for c in flows]
    problems = absent + [f"{name} {c.describe()}" for name, c in checks if not c.holds]
    if problems:
        held = sum(c.holds for _, c in checks)
        return Verdict.fail(
            "; ".join(problems), score=held / (len(checks) + len(absent)), **outputs
        )
    if not checks:
        return Verdict.ok(checked=0, note=f"a {doc_type} need not carry statements", **outputs)
    return Verdict.ok(checked=len(checks), **outputs)


def _pair(check: YearCheck) -> list[float | None]:
    right = None if math.isnan(check.right) else round(check.right, 3)
    return [round(check.left, 3), right]
