"""The metrics the offline planner computes from canonical statements, and their formulas.

Each is built for one period label ("FY2022", "Q2 2023"): its inputs (a canonical line of a
statement for that period, or for the period a year before where a balance is averaged), how
they combine, its kind ("money" in USD millions, "USD" for a per-share amount such as diluted
EPS, "%", "ratio", "x" for times) and the formula
as a person reads it. Names:

* a canonical line (`LINE_ITEMS`: capex, revenue, net PP&E, ...): that line;
* `ebitda` (operating income + D&A from the cash flow), `ebitda less capex`, `free cash flow`
  (operating cash flow - capex);
* `<line> margin` (`net_income margin`, `ebitda margin`, ...): the line / revenue, in %;
* `share:<a>/<b>` ("capex as a share of revenue", "capital intensity"): a / b, in %;
* `quick ratio` ((current assets - inventories) / current liabilities), `current ratio`,
  `working capital` (current assets - current liabilities), `debt to equity` (long-term debt /
  shareholders' equity), `total debt` (long-term debt + the debt due within a year, where
  printed), `net debt` (total debt - cash and cash equivalents), `net debt to ebitda`,
  `total debt to equity` (to total equity, non-controlling interests included, when the
  request says "total equity"), `effective tax rate` (income tax / pre-tax income),
  `interest coverage` (operating income / interest expense);
* on average balances (this period's and a year before's): `fixed asset turnover` (revenue /
  net PP&E), `asset turnover`, `inventory turnover` (cost of revenue / inventories), `return on
  assets`, `return on equity` (net income / shareholders' equity, in %).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from finance.modeling.core import prior_label

IS, BS, CF = "income_statement", "balance_sheet", "cash_flow"

# phrase -> (statement, canonical key); the first phrase found in the request wins.
LINE_ITEMS: tuple[tuple[str, str, str], ...] = (
    (r"capital expenditures?|capex|capital spending", CF, "capital_expenditure"),
    (r"depreciation and amortization|\bd&a\b", CF, "depreciation_amortization"),
    (r"(cash|cash flows?) from operations|operating cash flows?|cash flows? from operating", CF,
     "operating_cash_flow"),
    (r"dividends paid|cash dividends|\bdividends\b", CF, "dividends_paid"),
    (r"(stock|share|equity)[- ]based comp(ensation)?|stock comp(ensation)?\b|\bsbc\b", CF,
     "stock_based_compensation"),
    (r"share repurchases?|stock buybacks?|buybacks?|repurchases? of (common )?stock", CF,
     "share_repurchases"),
    (r"net pp&?n?e|net property,? plant,? and equipment|pp&?n?e,? net|\bppne\b|\bpp&?e\b|"
     r"fixed assets", BS, "ppe_net"),
    (r"total current assets|current assets", BS, "total_current_assets"),
    (r"total current liabilities|current liabilities", BS, "total_current_liabilities"),
    (r"total assets", BS, "total_assets"),
    (r"total liabilities", BS, "total_liabilities"),
    (r"inventor(y|ies)", BS, "inventories"),
    (r"accounts receivable|receivables", BS, "accounts_receivable"),
    (r"accounts payable|trade payables", BS, "accounts_payable"),
    (r"cash and cash equivalents|cash balance", BS, "cash_and_equivalents"),
    (r"long[- ]term debt", BS, "long_term_debt"),
    (r"short[- ]term (debt|borrowings)", BS, "short_term_debt"),
    (r"current (portion|maturities) of (long[- ]term )?debt", BS, "current_debt"),
    (r"\btotal ((share|stock)holders'? )?equity\b", BS, "total_equity"),
    (r"(share|stock)holders'? equity|book value", BS, "shareholders_equity"),
    (r"\bcogs\b|cost of (goods sold|revenues?|sales)", IS, "cost_of_revenue"),
    (r"gross profit", IS, "gross_profit"),
    (r"research and development|\br&d\b", IS, "research_and_development"),
    (r"\bs[gi]&a\b|selling,? [a-z]+,? (and|&) administrative", IS,
     "selling_general_administrative"),
    (r"operating income|income from operations|operating profit", IS, "operating_income"),
    (r"(?<!non-)(?<!non)\b(total )?operating (costs and )?expenses|\bopex\b", IS,
     "total_operating_expenses"),
    (r"income tax(es)?( expense)?|tax expense|provision for (income )?taxes", IS, "income_tax"),
    (r"(pre-?tax income|income before (income )?taxes)", IS, "income_before_tax"),
    (r"non-?interest expenses?", IS, "noninterest_expense"),
    (r"(?<!non-)\binterest expense", IS, "interest_expense"),
    (r"\bbasic (eps|earnings per share)\b|\b(eps|earnings per share),? basic\b", IS, "eps_basic"),
    (r"\beps\b|(net )?(income|earnings) per (diluted |common )?share", IS, "eps_diluted"),
    (r"net interest income|\bnii\b", IS, "net_interest_income"),
    (r"provisions? for (credit|loan|loan and lease) losses", IS, "provision_for_credit_losses"),
    (r"net (income|earnings|profit)", IS, "net_income"),
    (r"(total |net )?revenues?|net sales|total sales|\bsales\b|top line", IS, "revenue"),
)  # fmt: skip
STATEMENT_OF = {key: statement for _, statement, key in LINE_ITEMS}
# Per-share lines: US dollars as printed (kind "USD"), never scaled to millions.
PER_SHARE = frozenset({"eps_basic", "eps_diluted"})


@dataclass(frozen=True)
class Figure:
    """One canonical line for one period, as an input of a metric."""

    statement: str
    key: str
    year: str  # the period label: "FY2022", "Q2 2023"

    @property
    def label(self) -> str:
        return f"{self.key.replace('_', ' ')} {self.year}"


Values = Mapping[Figure, float]
Formula = Callable[[Values], float]


@dataclass(frozen=True)
class Metric:
    """A metric for one period: its inputs, how they combine, what it is called."""

    name: str
    inputs: tuple[Figure, ...]
    formula: Formula
    kind: str  # "money", "%", "ratio" or "x"
    reads: str = ""  # the formula as a person reads it
    optional: frozenset[Figure] = frozenset()  # inputs a filing may not print (then: none)

    @property
    def title(self) -> str:
        return display_name(self.name)


def display_name(name: str) -> str:
    """ "capital expenditure as a share of revenue" for "share:capital_expenditure/revenue"."""
    if name.startswith("share:"):
        a, b = name.removeprefix("share:").split("/")
        return f"{a.replace('_', ' ')} as a share of {b.replace('_', ' ')}"
    if name.endswith(" margin"):
        base = name.removesuffix(" margin")
        return {"net_income": "net profit", "operating_income": "operating"}.get(
            base, base.replace("_", " ")
        ) + " margin"
    return name.replace("_", " ")


def _line(key: str, label: str) -> Figure:
    return Figure(STATEMENT_OF[key], key, label)


def _averaged(name: str, flow: str, balance: str, label: str, kind: str, scale: float) -> Metric:
    prior = prior_label(label) or label
    top, now, before = _line(flow, label), _line(balance, label), _line(balance, prior)
    words = f"{flow.replace('_', ' ')} / average {balance.replace('_', ' ')} ({label}, {prior})"
    return Metric(
        name,
        (top, now, before),
        lambda v: scale * v[top] / ((v[now] + v[before]) / 2),
        kind,
        ("100 x " if scale == 100 else "") + words,
    )


def _quotient(name: str, a: str, b: str, label: str, kind: str, scale: float = 1.0) -> Metric:
    top, bottom = _line(a, label), _line(b, label)
    words = f"{a.replace('_', ' ')} / {b.replace('_', ' ')}"
    return Metric(
        name,
        (top, bottom),
        lambda v: scale * v[top] / v[bottom],
        kind,
        ("100 x " if scale == 100 else "") + words,
    )


AVERAGED = {
    "fixed asset turnover": ("revenue", "ppe_net", "ratio", 1.0),
    "asset turnover": ("revenue", "total_assets", "ratio", 1.0),
    "inventory turnover": ("cost_of_revenue", "inventories", "x", 1.0),
    "return on assets": ("net_income", "total_assets", "%", 100.0),
    "return on equity": ("net_income", "shareholders_equity", "%", 100.0),
}
QUOTIENTS = {
    "current ratio": ("total_current_assets", "total_current_liabilities", "ratio", 1.0),
    "debt to equity": ("long_term_debt", "shareholders_equity", "ratio", 1.0),
    "effective tax rate": ("income_tax", "income_before_tax", "%", 100.0),
    "interest coverage": ("operating_income", "interest_expense", "x", 1.0),
}
NAMED = (
    *AVERAGED,
    *QUOTIENTS,
    "quick ratio",
    "ebitda",
    "ebitda less capex",
    "free cash flow",
    "total debt",
    "net debt",
    "net debt to ebitda",
    "working capital",
    "total debt to equity",
    "total debt to total equity",
)


def _total_debt(label: str) -> Metric:
    """Long-term debt plus the debt due within a year, as the balance sheet prints it: short-term
    borrowings and the current portion of long-term debt (a line not printed counts as none)."""
    long, short, current = (
        _line("long_term_debt", label),
        _line("short_term_debt", label),
        _line("current_debt", label),
    )
    return Metric(
        "total debt",
        (long, short, current),
        lambda v: v[long] + v.get(short, 0.0) + v.get(current, 0.0),
        "money",
        "long-term debt + short-term debt + current portion of long-term debt",
        frozenset({short, current}),
    )


def metric_for(name: str, label: str) -> Metric:
    """The inputs and formula of a named metric for one period; KeyError for an unknown name."""
    if name in AVERAGED:
        flow, balance, kind, scale = AVERAGED[name]
        return _averaged(name, flow, balance, label, kind, scale)
    if name in QUOTIENTS:
        a, b, kind, scale = QUOTIENTS[name]
        return _quotient(name, a, b, label, kind, scale)
    if name.startswith("share:"):
        a, b = name.removeprefix("share:").split("/")
        return _quotient(name, a, b, label, "%", 100.0)
    if name == "quick ratio":
        assets, stock, debts = (
            _line("total_current_assets", label),
            _line("inventories", label),
            _line("total_current_liabilities", label),
        )
        return Metric(
            name,
            (assets, stock, debts),
            lambda v: (v[assets] - v[stock]) / v[debts],
            "ratio",
            "(total current assets - inventories) / total current liabilities",
        )
    if name == "total debt":
        return _total_debt(label)
    if name == "net debt":
        debt, cash = _total_debt(label), _line("cash_and_equivalents", label)
        return Metric(
            name,
            (*debt.inputs, cash),
            lambda v: debt.formula(v) - v[cash],
            "money",
            f"{debt.reads} - cash and cash equivalents",
            debt.optional,
        )
    if name == "net debt to ebitda":
        debt, earnings = metric_for("net debt", label), metric_for("ebitda", label)
        return Metric(
            name,
            (*debt.inputs, *earnings.inputs),
            lambda v: debt.formula(v) / earnings.formula(v),
            "x",
            f"({debt.reads}) / ({earnings.reads})",
            debt.optional,
        )
    if name == "working capital":
        assets, debts = (
            _line("total_current_assets", label),
            _line("total_current_liabilities", label),
        )
        return Metric(
            name,
            (assets, debts),
            lambda v: v[assets] - v[debts],
            "money",
            "total current assets - total current liabilities",
        )
    if name in ("total debt to equity", "total debt to total equity"):
        key = "total_equity" if name.endswith("total equity") else "shareholders_equity"
        debt, equity = _total_debt(label), _line(key, label)
        return Metric(
            name,
            (*debt.inputs, equity),
            lambda v: debt.formula(v) / v[equity],
            "ratio",
            f"({debt.reads}) / {key.replace('_', ' ')}",
            debt.optional,
        )
    if name == "free cash flow":
        cash, capex = _line("operating_cash_flow", label), _line("capital_expenditure", label)
        return Metric(
            name,
            (cash, capex),
            lambda v: v[cash] - v[capex],
            "money",
            "operating cash flow - capital expenditure",
        )
    operating, da = _line("operating_income", label), _line("depreciation_amortization", label)
    if name == "ebitda":
        return Metric(
            name,
            (operating, da),
            lambda v: v[operating] + v[da],
            "money",
            "operating income + depreciation and amortization (cash flow statement)",
        )
    if name == "ebitda less capex":
        capex = _line("capital_expenditure", label)
        return Metric(
            name,
            (operating, da, capex),
            lambda v: v[operating] + v[da] - v[capex],
            "money",
            "operating income + depreciation and amortization - capital expenditure",
        )
    if name.endswith(" margin"):
        base = metric_for(name.removesuffix(" margin"), label)
        revenue = _line("revenue", label)
        inputs = tuple(dict.fromkeys((*base.inputs, revenue)))
        reads = base.reads or base.name.replace("_", " ")
        return Metric(
            name,
            inputs,
            lambda v: 100 * base.formula(v) / v[revenue],
            "%",
            f"100 x ({reads}) / revenue",
        )
    if name not in STATEMENT_OF:
        raise KeyError(name)
    line = _line(name, label)
    kind = "USD" if name in PER_SHARE else "money"
    return Metric(name, (line,), lambda v: v[line], kind, name.replace("_", " "))


def statements_of(name: str) -> set[str]:
    """The statements a metric reads (for any period)."""
    return {figure.statement for figure in metric_for(name, "FY2000").inputs}
