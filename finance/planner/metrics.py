"""Metric questions read from a request and computed from the canonical statements.

A request asks for a metric when it names one (`metric_catalogue`: line items, margins, ratios,
turnovers, returns, "X as a share of Y") and asks for its value ("what is", "how much", "how
many times", "is the quick ratio healthy?", "has the gross margin improved?"), or names it
tersely, as analysts type ("operating cash flow 2021", "diluted EPS": a dozen words at most and
no research verb such as "analyse" or "compare"). Questions that
ask why ("what drove the margin change") and adjusted (non-GAAP) measures, which the statements
do not hold, are not metric questions: they are searched and quoted instead.

| The request says                                        | The periods computed                |
|---------------------------------------------------------|-------------------------------------|
| "FY2022", "fiscal 2022", "in 2022"; in a terse request  | that fiscal year                    |
| ("operating cash flow 2021"), a bare year               |                                     |
| "FY2015 - FY2017 3 year average"                        | each year, then their mean          |
| two years, or "improved", "declined", "change", "trend" | both (or the year before too)       |
| no year                                                 | the filing's latest period          |
| "for the full year", "annual" (and no year)             | the latest fiscal year, never a     |
|                                                         | quarter (none: it says it cannot)   |
| "revenue growth 2022", "% change vs Q2 last year"       | one figure: the later period over   |
| (an amount or a per-share line)                         | the earlier (a year before when one |
|                                                         | year is named), in %                |
| "how much did R&D rise in 2021", "change in capex"      | one figure: the later less the      |
|                                                         | earlier, in the line's unit         |
| "how much did net earnings grow" (no amount's unit)     | the growth, in %                    |
| "last quarter", "first half of FY23", "at Dec 31 2022"  | see `asked_periods`                 |

A growth or change needs both periods: when the statements lack the earlier one, or its base is
not positive (a growth rate from a loss means nothing), it says it cannot, never a number.

Requests are read after `wording.normalise_request` ("efective" -> "effective", "FY23" ->
"FY2023"). A part of a line ("services revenue") and an amount per share other than EPS are
read by `asked_lines`.

Money is answered in the USD scale the request names ("in USD billions"), USD millions if none.
A question about health or quality ("is it healthy?") gets the figure and its formula; the
judgement is said to be the reader's (or a model server's), never made up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from finance.planner.asked_lines import (
    per_share_refusal,
    percent_refusal,
    qualifier,
    unknown_ratio_refusal,
)
from finance.planner.asked_periods import (
    dates,
    fiscal_years,
    months_asked,
    quarter_named,
    quarters,
    without_periods,
)
from finance.planner.metric_catalogue import (
    BS,
    CF,
    IS,
    LINE_ITEMS,
    Figure,
    Metric,
    Values,
    display_name,
    metric_for,
    statements_of,
)
from finance.planner.wording import normalise_request
from finance.statements.periods import period_order

__all__ = [
    "BS",
    "CF",
    "IS",
    "Figure",
    "MetricRequest",
    "MetricUnavailable",
    "compute",
    "compute_change",
    "metric_name",
    "read_metric",
    "statement_values",
]

NAMED_RATIOS: tuple[tuple[str, str], ...] = (
    (r"quick ratio|acid[- ]test", "quick ratio"),
    (r"current ratio", "current ratio"),
    (r"total debt (to|over|/) total ((share|stock)holders'? )?equity",
     "total debt to total equity"),
    (r"total debt[- ]to[- ]equity|total debt/equity|"
     r"total debt (to|over|/) (share|stock)holders'? equity|"
     r"(debt[- ]to[- ]equity|debt/equity|\bd/e\b)[^.?]{0,40}\btotal debt\b",
     "total debt to equity"),
    (r"debt[- ]to[- ]equity|debt/equity|\bd/e\b", "debt to equity"),
    # "net debt (total debt minus cash)": the gloss names total debt, the question net debt;
    # "net debt to EBITDA" is another metric.
    (r"\bnet debt ?(to|/) ?ebitda\b", "net debt to ebitda"),
    (r"\bnet debt\b(?![- ]?(to|/)\s*\w)", "net debt"),
    (r"total debt|total borrowings", "total debt"),
    (r"(?<!changes in )(?<!change in )\b(net )?working capital\b(?![- ]?(to|/|turnover)\b)",
     "working capital"),
    (r"\b(efficiency|overhead) ratio\b", "share:noninterest_expense/revenue"),
    (r"effective tax rate|\btax rate\b|\betr\b", "effective tax rate"),
    (r"inventory turnover|(sold|turned( over)?) (its |the )?inventor(y|ies)|inventory turns",
     "inventory turnover"),
    (r"fixed asset turnover", "fixed asset turnover"),
    (r"(?<!fixed )asset turnover", "asset turnover"),
    (r"return on (average )?assets|\broa\b", "return on assets"),
    (r"return on (average )?(shareholders'? |stockholders'? )?equity|\broe\b",
     "return on equity"),
    (r"interest coverage|times interest earned", "interest coverage"),
    (r"free cash flow|\bfcf\b", "free cash flow"),
    (r"capital[- ]intensi(ty|ve)", "share:capital_expenditure/revenue"),
)  # fmt: skip
MARGIN = re.compile(
    r"\b(ebitda|net (?:profit|income|earnings)|operating (?:income|profit)?|gross(?: profit)?|"
    r"d&a|depreciation and amortization)\b[^.?]{0,60}?\bmargins?\b|"
    r"\b(net) margins?\b",  # "net margin"; never "net interest margin" (a bank's yield)
    re.IGNORECASE,
)
SHARE = re.compile(
    r"\bas (an? )?(share|percentage|percent|%|proportion|fraction|ratio) of\b|\bto\b|\bover\b|"
    r"(\bin )?% of\b|\b(percent|percentage|share|proportion) of\b|"
    r"\brelative to\b|\bdivided by\b|\bper\b|/",
    re.IGNORECASE,
)
# "SG&A Q2 2023 as % of sales": a period between the two lines leaves them a share.
PERIOD = re.compile(r"\b(q[1-4]|fy)?\s*'?(19|20)\d{2}\b|\bq[1-4]\b|\bfy\b", re.IGNORECASE)
# "what % of revenue went to R&D": the whole named first, the part after it.
PART_OF = re.compile(
    r"(%|\bper ?cent(age)?|\bshare|\bproportion|\bportion|\bfraction) of (the |its |their )?$",
    re.IGNORECASE,
)
EBITDA_LESS_CAPEX = re.compile(r"ebitda (less|minus) (capex|capital expenditures?)", re.I)
EBITDA = re.compile(r"\bebitda\b", re.IGNORECASE)
AVERAGE = re.compile(r"\b(\d+|two|three|four|five)[- ]year average\b", re.IGNORECASE)
SCALE = re.compile(
    r"\bUSD\s+(thousands?|millions?|billions?)\b|\bin\s+(thousands|millions|billions)\b", re.I
)
SCALES = {"thousand": 1e-3, "million": 1.0, "billion": 1e3}
ASKS_VALUE = re.compile(
    r"\b(what (is|was|are|were)|what'?s|how much|how many|calculate|compute|roughly|"
    r"is (the|its|their)|are (the|its|their)|has|have|did|does|do)\b|^\s*(is|are|was|were)\b",
    re.I,
)
# A terse request ("operating cash flow 2021", "3M current ratio at the end of 2022") asks for
# the value too, unless it asks for research ("analyse ...", "compare ...", "summarise ...").
TERSE_WORDS = 12
FULL_YEAR = re.compile(
    r"\b(full|whole|entire)[- ](fiscal )?year\b|\bannual\b|\bfor the (fiscal )?year\b", re.I
)
RESEARCH_VERB = re.compile(
    r"\b(analy[sz]\w*|research|review|summari[sz]\w*|overview|compare|comparison|report|note|"
    r"cross-?check|reconcil\w*|verify|valuation|dcf|write|plot|chart|list|show me)\b",
    re.I,
)
# "What drove the margin change", "why did it fall": explanations, searched and quoted instead.
ASKS_WHY = re.compile(
    r"\bwhat drove\b|\bwhy\b|\bexplain|\breasons?\b|\bdrivers?\b|"
    r"\b(say|says|said|mention\w*|disclose\w*|describe\w*|discuss\w*)\b",
    re.I,
)
COMPARE = re.compile(
    r"improv|declin|increas|decreas|chang|grow|grew|rise|rose|\bfall|\bfell|drop|trend|"
    r"compared? (to|with)|\bvs\.?\b|versus|consistent|fluctuat|year[- ]over[- ]year|yoy",
    re.IGNORECASE,
)
JUDGE = re.compile(
    r"\bhealthy\b|\bhealthier\b|\bgood\b|\bstrong\b|\bweak\b|reasonabl|\bsafe\b|"
    r"\bsound\b|efficient|capital[- ]intensive",
    re.I,
)
# A change of an amount between two periods: in % ("growth", "% change") or in its unit.
GROWTH = re.compile(r"\bgrowth\b|%|\bper ?cent(age)?\b", re.IGNORECASE)
# "How much did net earnings grow": a growth rate, unless an amount's unit is asked for.
GREW = re.compile(r"\bgr(ow|ew|own|ows)\b", re.IGNORECASE)
MONEY_ASKED = re.compile(r"\$|\busd\b|\bin (thousands|millions|billions)\b", re.IGNORECASE)
DIFFERENCE = re.compile(
    r"\bhow much\b[^?.]*\b(ris|rose|increas|decreas|grow|grew|fall|fell|drop|declin|chang|"
    r"go(ne)? (up|down)|went (up|down))\w*|\b(difference|change) in\b",
    re.IGNORECASE,
)
# Adjusted (non-GAAP) measures are not in the statements; "unadjusted" ones are.
NON_GAAP = re.compile(r"(?<!un)adjusted|non[- ]gaap", re.IGNORECASE)


class MetricUnavailable(ValueError):
    """The statements lack a line the metric needs; the message names it."""


@dataclass(frozen=True)
class MetricRequest:
    """What a request asks: a metric over fiscal years (none: the latest period), averaged or
    compared, in a unit."""

    name: str
    years: tuple[int, ...]
    unit: str  # "USD millions", "USD billions", "%", "ratio", "x"
    average: bool = False
    compare: bool = False
    judge: bool = False
    quarter: int | None = None  # the years are that quarter's ("Q2 of FY2023"), else the latest
    annual: bool = False  # "for the full year": a quarter's figure is no answer
    change: str = ""  # "growth" (in %) or "difference" between the two periods; "" for neither
    months: int | None = None  # 6 or 9: the year to date; 3: a quarter ("last quarter")
    dates: tuple[tuple[int, int, int | None], ...] = ()  # periods ending then ("Dec 31 2022")
    periods: tuple[str, ...] = ()  # the labels the dates resolve to (`asked_periods`)
    qualifier: str = ""  # "services" in "services revenue": a part of the line, not the line
    refusal: str = ""  # why the statements cannot answer it, though they name the line
    part: str = ""  # the qualifier, once a printed row of its own answers it ("services")

    @property
    def title(self) -> str:
        base = " ".join(filter(None, (self.part, display_name(self.name))))
        return {"growth": f"{base} growth", "difference": f"change in {base}"}.get(
            self.change, base
        )

    @property
    def statements(self) -> set[str]:
        return statements_of(self.name)

    def metric(self, label: str) -> Metric:
        return metric_for(self.name, label)

    def labels(self, available: list[str] | None = None) -> list[str]:
        """The periods to compute: the years asked for, else the latest (and, to compare, the
        one a year before) among `available`."""
        if self.periods:
            chosen = list(self.periods)
            if self.compare and len(chosen) == 1:
                ordered = sorted(available or [], key=period_order)
                before = next((label for label in ordered if _year_before(label, chosen[0])), None)
                chosen += [before] if before else []
            return chosen
        if self.years:
            if self.quarter:
                return [f"Q{self.quarter} {year}" for year in self.years]
            if self.months in (6, 9):
                return [f"{self.months}M {year}" for year in self.years]
            return [f"FY{year}" for year in self.years]
        ordered = sorted(available or [], key=period_order)
        annual = [label for label in ordered if label.startswith("FY")]
        quarters = [label for label in ordered if label.startswith("Q")]
        chosen = annual if self.annual else annual or quarters or ordered
        if self.quarter:  # "Q3 vs Q3 last year": that quarter only, never another
            chosen = [label for label in quarters if label.startswith(f"Q{self.quarter} ")]
        elif self.months:
            prefix = "Q" if self.months == 3 else f"{self.months}M"
            chosen = [label for label in ordered if label.startswith(prefix)]
        if not chosen:
            return []
        latest = chosen[0]
        if not self.compare:
            return [latest]
        before = next((label for label in chosen[1:] if _year_before(label, latest)), None)
        return [latest, before] if before else [latest]


def _year_before(label: str, latest: str) -> bool:
    a, b = re.findall(r"\d{4}", label), re.findall(r"\d{4}", latest)
    same_kind = label.split(" ")[0][:2] == latest.split(" ")[0][:2]
    return bool(a and b) and int(a[0]) == int(b[0]) - 1 and same_kind


def metric_name(text: str) -> str | None:
    """The metric a request names, derived metrics first; None when it names none."""
    for pattern, name in NAMED_RATIOS:
        if re.search(pattern, text, re.IGNORECASE):
            return name
    margin = MARGIN.search(text)
    if margin:
        return f"{_margin_base(margin.group(1) or margin.group(2))} margin"
    if EBITDA_LESS_CAPEX.search(text):
        return "ebitda less capex"
    if EBITDA.search(text):
        return "ebitda"
    lowered = text.lower()
    # The earliest phrase wins; of two at the same place, the longer ("net income per share").
    # Every place a line is named: "sales" inside "cost of sales" is no second line.
    found = sorted(
        (m.start(), -m.end(), key)
        for pattern, _, key in LINE_ITEMS
        for m in re.finditer(pattern, lowered)
    )
    if not found:
        return None
    begin, end, first = found[0][0], -found[0][1], found[0][2]
    later = [(start, key) for start, _, key in found if start >= end and key != first]
    if later:
        start, second = later[0]
        between = " ".join(PERIOD.sub(" ", without_periods(lowered[end:start])).split())
        between = re.sub(r"(\s*\b(the|its|their|total))+$", "", between)
        if SHARE.fullmatch(between):
            return f"share:{first}/{second}"
        if PART_OF.search(lowered[:begin]):
            return f"share:{second}/{first}"
    return first


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


def read_metric(text: str) -> MetricRequest | None:
    """The metric question in a request, or None (no metric named, or it asks why)."""
    text = normalise_request(text)
    if not asks_value(text) or ASKS_WHY.search(text) or NON_GAAP.search(text):
        return None
    name = metric_name(text)
    if name is None:
        return None
    named = quarters(text)
    quarter = named[0][0] if named and len({q for q, _ in named}) == 1 else None
    if quarter is not None:
        years = sorted({year for _, year in named})
    else:
        years = fiscal_years(text, asks_tersely(text))
        quarter = None if named else quarter_named(text)
    averaged = AVERAGE.search(text) is not None and len(years) >= 2
    compare = not averaged and COMPARE.search(text) is not None
    if averaged:
        chosen: tuple[int, ...] = tuple(range(years[0], years[-1] + 1))
    elif compare and years:
        chosen = (years[-1], years[0]) if len(years) >= 2 else (years[-1], years[-1] - 1)
    else:
        chosen = (years[-1],) if years else ()
    kind = metric_for(name, "FY2000").kind
    judge = JUDGE.search(text) is not None
    unit = kind
    if kind == "money":
        scale = SCALE.search(text)
        word = (scale.group(1) or scale.group(2)).lower().rstrip("s") if scale else "million"
        unit = f"USD {word}s"
    annual = quarter is None and FULL_YEAR.search(text) is not None
    change = ""
    if compare and kind in ("money", "USD"):
        grew = GREW.search(text) is not None and MONEY_ASKED.search(text) is None
        change = "growth" if GROWTH.search(text) or grew else ""
        change = change or ("difference" if DIFFERENCE.search(text) else "")
    if change == "growth":
        unit = "%"
    return MetricRequest(
        name,
        chosen,
        unit,
        averaged,
        compare,
        judge,
        quarter,
        annual,
        change,
        months=None if quarter else months_asked(text),
        dates=() if quarter else dates(text),
        qualifier=qualifier(text, name),
        refusal=per_share_refusal(text, name)
        or unknown_ratio_refusal(text, name)
        or ("" if change else percent_refusal(text, name)),
    )


def asks_value(text: str) -> bool:
    """The request asks for a value: in words ("what was", "how much"), or tersely."""
    return ASKS_VALUE.search(text) is not None or asks_tersely(text)


def asks_tersely(text: str) -> bool:
    """A few words and no research verb: "operating cash flow 2021", "diluted EPS". Symbols
    are no words: "free cash flow (CFO - capex) for the full year" has eight, and a gloss in
    brackets ("(CFO minus capex)") says what the words before it mean, so it is not counted;
    nor are dates and the words that name a period ("six months ended July 2 2023")."""
    glossed = without_periods(re.sub(r"\([^()]*\)", " ", text))
    words = [word for word in glossed.split() if re.search(r"\w", word)]
    return len(words) <= TERSE_WORDS and not RESEARCH_VERB.search(text)


def compute_one(request: MetricRequest, label: str, values: Values) -> float:
    """The metric for one period, in the request's unit."""
    metric = request.metric(label)
    missing = [f.label for f in metric.inputs if f not in values and f not in metric.optional]
    if missing:
        raise MetricUnavailable(f"the statements have no {', '.join(missing)}")
    try:
        value = metric.formula(values)
    except ZeroDivisionError:
        raise MetricUnavailable(f"{request.title} {label} divides by zero") from None
    if request.unit.startswith("USD "):
        value /= SCALES[request.unit.split()[1].rstrip("s")]
    return value


def compute_change(request: MetricRequest, later: str, earlier: str, values: Values) -> float:
    """The growth (in %) or the difference (in the request's unit) of the metric from the
    `earlier` period to the `later` one; MetricUnavailable when either lacks an input or a
    growth rate's base is not positive."""
    plain = replace(
        request, change="", unit=request.unit if request.change == "difference" else "USD"
    )
    now, before = compute_one(plain, later, values), compute_one(plain, earlier, values)
    if request.change == "difference":
        return now - before
    if before <= 0:
        raise MetricUnavailable(
            f"{plain.title} {earlier} is {before:,.2f}: a growth rate from a base that is not "
            "positive means nothing"
        )
    return 100 * (now / before - 1)


def compute(request: MetricRequest, values: Values, labels: list[str] | None = None) -> float:
    """The metric's value in the request's unit: the mean over its periods when averaged, else
    the first (latest) period's."""
    chosen = labels or request.labels()
    if not chosen:
        raise MetricUnavailable("no period to compute it for")
    results = [compute_one(request, label, values) for label in chosen]
    return sum(results) / len(results) if request.average else results[0]


def statement_values(found: Mapping[str, Any], figures: list[Figure]) -> dict[Figure, float]:
    """The figures a `get_statements` result has ({statement: {key: {year: value}}})."""
    out = {}
    for figure in figures:
        value = ((found.get(figure.statement) or {}).get(figure.key) or {}).get(figure.year)
        if isinstance(value, int | float):
            out[figure] = float(value)
    return out
