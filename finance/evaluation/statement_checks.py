"""Verifiers of a document's canonical statements: fiscal years, core lines, identities.

What each kind of document must carry (`doc_type` from devset/documents.jsonl):

* `10k` (annual report): fiscal years FY{period} and FY{period-1}, none later than FY{period};
  the income statement, balance sheet and cash flow each carry both years; revenue, net income,
  total assets and operating cash flow for FY{period}; both identities hold in every year.
* `10q`, `8k`, `earnings` (a quarter, an event, a press release): no annual statements are
  required. Years they do carry lie in FY{period-1}..FY{period} (a quarter of fiscal `period`
  is compared with the same quarter of the year before, and with that year's year-end), and the
  identities hold for whatever statements they carry.
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
UNIT_HEADER = re.compile(r"\bin (thousands|millions|billions)\b", re.IGNORECASE)
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


def years_problems(statements: dict[str, Any], doc_type: str, period: int) -> list[str]:
    """Why a document's statements do not carry the years its type requires ([] if they do)."""
    fiscal = [str(year) for year in statements.get("fiscal_years") or []]
    problems = []
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
    problems = years_problems(statements, doc_type, period)
    if problems:
        return Verdict.fail("; ".join(problems), fiscal_years=fiscal, period=period)
    return Verdict.ok(fiscal_years=fiscal, period=period, doc_type=doc_type)


@judged
def core_lines(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Revenue, net income, total assets and operating cash flow are there for FY{period}, in
    USD millions: each is its page's printed figure in the unit the page's header states."""
    document = task_document(context, str(params["document"]))
    year = f"FY{_period(params)}"
    statements = statements_of(document)
    found: dict[str, float] = {}
    missing = []
    for statement, key in CORE_LINES:
        value = cells(statements, statement, key).get(year)
        if value is None:
            missing.append(key)
        else:
            found[key] = value
    if missing:
        score = len(found) / len(CORE_LINES)
        return Verdict.fail(f"no {', '.join(missing)} for {year}", score=score, **found)
    pages = page_texts(context, document)
    wrong = [
        problem
        for statement, key in CORE_LINES
        if (problem := unit_problem(statements, statement, key, year, pages))
    ]
    if wrong:
        return Verdict.fail("; ".join(wrong), score=1 - len(wrong) / len(CORE_LINES), **found)
    return Verdict.ok(year=year, **found)


def unit_problem(
    statements: dict[str, Any], statement: str, key: str, year: str, pages: list[str]
) -> str:
    """Why a line's value is not its page's figure in USD millions ("" when it is, or when
    the page states no unit)."""
    cell = ((statements.get(statement) or {}).get(key) or {}).get(year) or {}
    page = int(cell.get("page", -1))
    if not 0 <= page < len(pages):
        return f"{key} {year} cites p. {page + 1}, which the document does not have"
    header = UNIT_HEADER.search("\n".join(pages[page].splitlines()[:20]))
    if header is None:
        return ""
    scale = {"thousands": 1e-3, "millions": 1.0, "billions": 1e3}[header.group(1).lower()]
    value = float(cell["value"])
    for number in printed_numbers(pages[page]):
        if agrees(number.value * scale, number.step * scale, value, 0.0):
            return ""
    return (
        f"{key} {year} = {value:,.3f} is not a figure p. {page + 1} prints in "
        f"{header.group(1).lower()} (its header's unit)"
    )


@judged
def accounting_identities(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Assets = liabilities + equity and the cash-flow sections sum to the change in cash."""
    document = task_document(context, str(params["document"]))
    doc_type = str(params.get("doc_type", ANNUAL)).lower()
    statements = statements_of(document)
    texts = dict(enumerate(page_texts(context, document)))
    balance, flows = balance_checks(statements, texts), cash_flow_checks(statements, texts)
    absent = [
        f"no {name} total to check in an annual report"
        for name, found in (("balance sheet", balance), ("cash flow", flows))
        if doc_type == ANNUAL and not found
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
