"""Metric questions answered from the canonical statements (deterministic, documented).

A request asks for a metric when it names one of the line items or derived metrics below and
a fiscal year ("What is the FY2018 capital expenditure (in USD millions) for 3M?"). The answer
is computed from the canonical statements (`get_statements`) and returned with its inputs, each
cited by the page of the statement that prints it.

| The request names                                      | The value                           |
|--------------------------------------------------------|-------------------------------------|
| a line item: capex, net PP&E, net income, revenue, ... | that line for the year              |
| fixed asset turnover                                   | revenue / average net PP&E (y, y-1) |
| EBITDA (unadjusted)                                    | operating income + D&A (cash flow)  |
| EBITDA less capex                                      | EBITDA - capital expenditure        |
| an "X margin" (EBITDA, net profit, operating, D&A...)  | X / revenue, in %                   |
| an "N year average" of any of these                    | the mean over FY(a)..FY(b)          |

Money is answered in the USD scale the request names ("in USD billions"), USD millions if none.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

IS, BS, CF = "income_statement", "balance_sheet", "cash_flow"

# phrase -> (statement, canonical key); the first phrase found in the request wins.
LINE_ITEMS: tuple[tuple[str, str, str], ...] = (
    (r"capital expenditures?|capex|capital spending", CF, "capital_expenditure"),
    (r"depreciation and amortization|\bd&a\b", CF, "depreciation_amortization"),
    (r"(cash|cash flows?) from operations|operating cash flow|cash flows? from operating", CF,
     "operating_cash_flow"),
    (r"dividends paid|cash dividends", CF, "dividends_paid"),
    (r"share repurchases?|stock buybacks?|repurchases? of (common )?stock", CF,
     "share_repurchases"),
    (r"net pp&?n?e|net property,? plant,? and equipment|pp&?n?e,? net|\bppne\b", BS, "ppe_net"),
    (r"total current assets", BS, "total_current_assets"),
    (r"total current liabilities", BS, "total_current_liabilities"),
    (r"total assets", BS, "total_assets"),
    (r"total liabilities", BS, "total_liabilities"),
    (r"inventor(y|ies)", BS, "inventories"),
    (r"accounts receivable", BS, "accounts_receivable"),
    (r"accounts payable", BS, "accounts_payable"),
    (r"cash and cash equivalents", BS, "cash_and_equivalents"),
    (r"long[- ]term debt", BS, "long_term_debt"),
    (r"(share|stock)holders'? equity", BS, "shareholders_equity"),
    (r"\bcogs\b|cost of (goods sold|revenues?|sales)", IS, "cost_of_revenue"),
    (r"gross profit", IS, "gross_profit"),
    (r"operating income|income from operations", IS, "operating_income"),
    (r"net (income|earnings|profit)", IS, "net_income"),
    (r"(total )?revenues?|net sales|total sales", IS, "revenue"),
)  # fmt: skip
MARGIN = re.compile(
    r"\b(ebitda|net (?:profit|income|earnings)|operating (?:income|profit)?|gross(?: profit)?|"
    r"d&a|depreciation and amortization)\b[^.?]{0,60}?\bmargin\b",
    re.IGNORECASE,
)
TURNOVER = re.compile(r"fixed asset turnover", re.IGNORECASE)
EBITDA_LESS_CAPEX = re.compile(r"ebitda (less|minus) (capex|capital expenditures?)", re.I)
EBITDA = re.compile(r"\bebitda\b", re.IGNORECASE)
AVERAGE = re.compile(r"\b(\d+|two|three|four|five)[- ]year average\b", re.IGNORECASE)
YEAR = re.compile(r"\bFY\s?((?:19|20)\d{2})\b|\bfiscal (?:year )?((?:19|20)\d{2})\b", re.I)
SCALE = re.compile(
    r"\bUSD\s+(thousands?|millions?|billions?)\b|\bin\s+(thousands|millions|billions)\b", re.I
)
SCALES = {"thousand": 1e-3, "million": 1.0, "billion": 1e3}
# A metric question asks for the value; "what drove the margin" or "did it grow" do not.
ASKS_VALUE = re.compile(r"\b(what (is|was|are|were)|how much|calculate|compute)\b", re.I)
# Adjusted (non-GAAP) measures are not in the statements; "unadjusted" ones are.
NON_GAAP = re.compile(r"(?<!un)adjusted|non[- ]gaap", re.IGNORECASE)


class MetricUnavailable(ValueError):
    """The statements lack a line the metric needs; the message names it."""


@dataclass(frozen=True)
class Figure:
    """One canonical line for one year, as an input of a metric."""

    statement: str
    key: str
    year: str

    @property
    def label(self) -> str:
        return f"{self.key.replace('_', ' ')} {self.year}"


Values = Mapping[Figure, float]
Formula = Callable[[Values], float]


@dataclass(frozen=True)
class Metric:
    """A metric for one year: its inputs and how they combine."""

    name: str
    inputs: tuple[Figure, ...]
    formula: Formula
    kind: str  # "money", "%" or "ratio"


@dataclass(frozen=True)
class MetricRequest:
    """What a request asks: a metric over one or more years, averaged, in a unit."""

    name: str
    years: tuple[int, ...]
    unit: str  # "USD millions", "USD billions", "%", "ratio"

    def metrics(self) -> list[Metric]:
        return [metric_for(self.name, year) for year in self.years]

    @property
    def figures(self) -> list[Figure]:
        return list(dict.fromkeys(f for m in self.metrics() for f in m.inputs))


def _line(statement: str, key: str, year: int) -> Figure:
    return Figure(statement, key, f"FY{year}")


def metric_for(name: str, year: int) -> Metric:
    """The inputs and formula of a named metric for one fiscal year."""
    if name == "fixed asset turnover":
        revenue, ppe, before = (
            _line(IS, "revenue", year), _line(BS, "ppe_net", year), _line(BS, "ppe_net", year - 1),
        )  # fmt: skip
        return Metric(
            name, (revenue, ppe, before), lambda v: v[revenue] / ((v[ppe] + v[before]) / 2), "ratio"
        )
    operating, da = (
        _line(IS, "operating_income", year),
        _line(CF, "depreciation_amortization", year),
    )
    if name == "ebitda":
        return Metric(name, (operating, da), lambda v: v[operating] + v[da], "money")
    if name == "ebitda less capex":
        capex = _line(CF, "capital_expenditure", year)
        return Metric(
            name, (operating, da, capex), lambda v: v[operating] + v[da] - v[capex], "money"
        )
    if name.endswith(" margin"):
        base = metric_for(name.removesuffix(" margin"), year)
        revenue = _line(IS, "revenue", year)
        inputs = tuple(dict.fromkeys((*base.inputs, revenue)))
        return Metric(name, inputs, lambda v: 100 * base.formula(v) / v[revenue], "%")
    statement = next((s for _, s, key in LINE_ITEMS if key == name), None)
    if statement is None:
        raise KeyError(name)
    line = _line(statement, name, year)
    return Metric(name, (line,), lambda v: v[line], "money")


def _margin_base(phrase: str) -> str:
    phrase = phrase.lower()
    if phrase == "ebitda":
        return "ebitda"
    if phrase.startswith("net"):
        return "net_income"
    if phrase.startswith("operating"):
        return "operating_income"
    if phrase.startswith("gross"):
        return "gross_profit"
    return "depreciation_amortization"


def metric_name(text: str) -> str | None:
    """The metric a request names, derived metrics first; None when it names none."""
    if TURNOVER.search(text):
        return "fixed asset turnover"
    margin = MARGIN.search(text)
    if margin:
        return f"{_margin_base(margin.group(1))} margin"
    if EBITDA_LESS_CAPEX.search(text):
        return "ebitda less capex"
    if EBITDA.search(text):
        return "ebitda"
    lowered = text.lower()
    found = [
        (m.start(), key) for pattern, _, key in LINE_ITEMS if (m := re.search(pattern, lowered))
    ]
    return min(found)[1] if found else None


def read_metric(text: str) -> MetricRequest | None:
    """The metric question in a request, or None (no metric named, or no fiscal year)."""
    if not ASKS_VALUE.search(text) or NON_GAAP.search(text):
        return None
    name = metric_name(text)
    years = sorted({int(a or b) for a, b in YEAR.findall(text)})
    if name is None or not years:
        return None
    averaged = AVERAGE.search(text)
    chosen = tuple(range(years[0], years[-1] + 1)) if averaged else (years[-1],)
    kind = metric_for(name, chosen[-1]).kind
    if kind != "money":
        return MetricRequest(name, chosen, kind)
    scale = SCALE.search(text)
    word = (scale.group(1) or scale.group(2)).lower().rstrip("s") if scale else "million"
    return MetricRequest(name, chosen, f"USD {word}s")


def compute(request: MetricRequest, values: Values) -> float:
    """The metric's value in the request's unit (the mean over its years when averaged)."""
    missing = [f.label for f in request.figures if f not in values]
    if missing:
        raise MetricUnavailable(f"the statements have no {', '.join(missing)}")
    results = [metric.formula(values) for metric in request.metrics()]
    value = sum(results) / len(results)
    if request.unit.startswith("USD "):
        value /= SCALES[request.unit.split()[1].rstrip("s")]
    return value


def statement_values(found: Mapping[str, Any], figures: list[Figure]) -> dict[Figure, float]:
    """The figures a `get_statements` result has ({statement: {key: {year: value}}})."""
    out = {}
    for figure in figures:
        value = ((found.get(figure.statement) or {}).get(figure.key) or {}).get(figure.year)
        if isinstance(value, int | float):
            out[figure] = float(value)
    return out
