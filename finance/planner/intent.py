"""What a research request asks for, read from its words (deterministic, documented).

| The request mentions                                   | The plan adds                       |
|--------------------------------------------------------|-------------------------------------|
| years: "2017-2019", "2017 to 2019", "FY2018", "in 2018" | only those fiscal years             |
| margin, profitab, cash, growth, return, leverage, ...   | ratios (always computed)            |
| SEC, XBRL, EDGAR, cross-check, reconcile, agree, verify | cross-check with SEC and Yahoo      |
| stock, share price, volatility, drawdown, market data   | price metrics (needs a ticker)      |
| macro, GDP, inflation, CPI, economy, FRED               | revenue growth against GDP and CPI  |
| DCF, valuation, intrinsic value, worth                  | a DCF with sensitivity (default on) |
| "what does it say about X", "risks"                     | quoted passages with their pages    |
| any other question ("...?", "What is ...")             | the question itself, searched       |
| a metric and a fiscal year (see `planner.metrics`)     | the value, computed and cited       |
| buy/sell advice, price targets, forecasts of the price  | a plain statement that it won't     |
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.runtime.policies import find_expressions
from finance.planner.metrics import MetricRequest, read_metric
from finance.planner.wording import normalise_request

_RANGE = re.compile(
    r"\b(?:FY\s*)?((?:19|20)\d{2})\s*(?:-|\u2013|\u2014|to|through|thru|until|and)\s*"
    r"(?:FY\s*)?((?:19|20)\d{2})\b",
    re.IGNORECASE,
)
_SINCE = re.compile(r"\bsince\s+(?:FY\s*)?((?:19|20)\d{2})\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:FY\s*|in\s+|for\s+|fiscal\s+(?:year\s+)?)((?:19|20)\d{2})\b", re.I)

RESEARCH_WORDS = re.compile(
    r"10-?k|filing|annual report|analy[sz]|research|note|margin|profit|revenue|sales|income|"
    r"cash|growth|return|leverage|debt|ratio|balance sheet|statement|sec\b|xbrl|edgar|"
    r"cross-?check|reconcil|verify|validat|agree|stock|share price|price|volatil|drawdown|"
    r"market|macro|gdp|inflation|cpi|econom|fred|dcf|valuation|intrinsic|worth|risk|compar|"
    r"company|companies|ticker|liquidity|working capital|capex|dividend|buyback|repurchas",
    re.IGNORECASE,
)
CROSS_CHECK = re.compile(
    r"\bsec\b|xbrl|edgar|cross-?check|reconcil|\bagree|verif|validat|consistent|match|"
    r"yahoo|market data|other sources",
    re.IGNORECASE,
)
PRICES = re.compile(
    r"\bstock\b|share price|stock price|price history|volatil|drawdown|market data|"
    r"\bprices?\b.*\b(?:file|csv|upload)|\b(?:my|our) prices\b|"
    r"\breturns?\b.*\b(?:stock|shares?)\b|total return|yahoo",
    re.IGNORECASE,
)
MACRO = re.compile(r"macro|\bgdp\b|inflation|\bcpi\b|econom|\bfred\b|interest rates", re.I)
VALUATION = re.compile(r"\bdcf\b|valuation|intrinsic|\bworth\b|\bvalue the\b|fair value", re.I)
NO_VALUATION = re.compile(r"\b(?:no|without|skip) (?:the )?(?:dcf|valuation)\b", re.I)
UNSUPPORTED = (
    (
        re.compile(r"\b(?:should i )?(?:buy|sell|short)\b|\brecommend|price target", re.I),
        "I do not give buy or sell advice or price targets; the DCF is a sketch under stated "
        "assumptions",
    ),
    (
        re.compile(r"\b(?:predict|forecast)\w*\b.*\b(?:price|stock|share)", re.I),
        "I do not forecast share prices",
    ),
    (
        re.compile(r"\breal[- ]time\b|\bintraday\b|\boptions? chain", re.I),
        "real-time and intraday market data are beyond the offline planner",
    ),
)
QUESTION = re.compile(
    r"(?:what|how|why|does|do|is|are)\b[^?.]*?\b(?:say|said|mention|disclose|describe)\w*\s+"
    r"(?:about|on|regarding)\s+([^?.]+)",
    re.IGNORECASE,
)
ABOUT = re.compile(r"\babout\s+(?:the\s+)?([^?.,;]+)", re.IGNORECASE)
RISKS = re.compile(r"\brisks?\b", re.IGNORECASE)
NOT_TICKERS = {
    "SEC", "XBRL", "FRED", "GDP", "CPI", "DCF", "FCF", "USD", "ROE", "ROA", "CCC", "DSO", "DIO",
    "DPO", "PDF", "HTML", "FY", "EDGAR", "CAGR", "YOY", "EPS", "EBIT", "MD", "AND", "THE", "NYSE",
    "NASDAQ", "US", "USA", "CEO", "CFO", "IPO", "ETF", "API", "CSV", "OK", "I", "A", "K", "Q",
    "YTD", "QTD", "TTM", "LTM", "SBC", "NII",
}  # fmt: skip
_TICKER = re.compile(
    r"(?:\bticker\s*:?\s*|\bsymbol\s*:?\s*|\((?:NYSE|NASDAQ|Nasdaq)?\s*:?\s*)\$?([A-Z]{1,5})\b"
)
_CAPS = re.compile(r"(?<![\w-])([A-Z]{2,5})(?![\w-])")
DEFAULT_QUESTIONS = ("risk factors", "liquidity and capital resources")
INTERROGATIVE = re.compile(
    r"^\s*(what|how|which|who|whom|whose|when|where|why|is|are|was|were|does|do|did|has|have|"
    r"had|can|could|will|would|should|by how much|according to|in agreement with|using|based on)\b",
    re.IGNORECASE,
)
STATEMENT_NAMED = re.compile(
    r"balance sheet|income statement|cash flows?( statement)?|statements? of (income|operations|"
    r"cash flows?|earnings|financial position)|\bP&L\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.?!:])\s+")
QUESTION_CHARS = 300


@dataclass(frozen=True)
class Intent:
    research: bool
    years: tuple[int, int] | None = None
    ticker: str = ""
    cross_check: bool = False
    prices: bool = False
    macro: bool = False
    valuation: bool = True
    questions: tuple[str, ...] = ()
    unsupported: tuple[str, ...] = field(default=())
    metric: MetricRequest | None = None


def read_years(text: str) -> tuple[int, int] | None:
    found = _RANGE.search(text)
    if found:
        a, b = int(found.group(1)), int(found.group(2))
        return (min(a, b), max(a, b))
    found = _SINCE.search(text)
    if found:
        return (int(found.group(1)), 2100)
    found = _YEAR.search(text)
    if found:
        year = int(found.group(1))
        return (year, year)
    return None


def read_ticker(text: str) -> str:
    named = _TICKER.search(text)
    if named:
        return named.group(1)
    for match in _CAPS.finditer(text):
        if match.group(1) not in NOT_TICKERS:
            return match.group(1)
    return ""


def read_questions(text: str) -> tuple[str, ...]:
    """Topics to search: what a "say about" names, else the question itself (as asked), else
    an "about"."""
    questions = [m.group(1).strip() for m in QUESTION.finditer(text)]
    if not questions and is_question(text):
        questions = [question_query(text)]
    if not questions:
        questions = [m.group(1).strip() for m in ABOUT.finditer(text)]
    if RISKS.search(text) and not any("risk" in q.lower() for q in questions):
        questions.append("risk factors")
    return tuple(dict.fromkeys(q[:QUESTION_CHARS] for q in questions if len(q) >= 3))


def is_question(text: str) -> bool:
    """A question about the filings; arithmetic ("what is 17 * 23?") is left to the calculator."""
    asks = "?" in text or INTERROGATIVE.match(text) is not None
    return asks and not find_expressions(text)


def question_query(text: str) -> str:
    """What to search for a question: the question as asked, the asking sentence(s) first and
    then the rest ("... If restructuring costs are not outlined, say 0", "relying on the cash
    flow statement": words the evidence page has), cut at a word past QUESTION_CHARS (the
    search tool's limit)."""
    sentences = [" ".join(s.split()) for s in _SENTENCE.split(text.strip()) if s.strip()]
    asking = [s for s in sentences if "?" in s]
    asked = " ".join(asking + [s for s in sentences if s not in asking])
    if len(asked) > QUESTION_CHARS:
        asked = asked[:QUESTION_CHARS].rsplit(" ", 1)[0]
    return asked


def read_intent(text: str) -> Intent:
    text = normalise_request(text)
    questions = read_questions(text)
    unsupported = tuple(message for pattern, message in UNSUPPORTED if pattern.search(text))
    specific = bool(questions) or bool(
        CROSS_CHECK.search(text) or PRICES.search(text) or MACRO.search(text)
    )
    broad = re.search(r"analy[sz]|research|overview|note|report", text, re.I) is not None
    metric = read_metric(text)
    return Intent(
        research=RESEARCH_WORDS.search(text) is not None
        or bool(unsupported)
        or is_question(text)
        or metric is not None,
        years=read_years(text),
        ticker=read_ticker(text),
        cross_check=CROSS_CHECK.search(text) is not None,
        prices=PRICES.search(text) is not None,
        macro=MACRO.search(text) is not None,
        valuation=not NO_VALUATION.search(text) and (VALUATION.search(text) is not None or broad),
        questions=questions or (DEFAULT_QUESTIONS if broad and not specific else ()),
        unsupported=unsupported,
        metric=metric,
    )
