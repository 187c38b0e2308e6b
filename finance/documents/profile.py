"""What a document is, whose it is and which period it covers, read off its first pages.

`read_profile(pages)` looks at the cover page of an SEC filing (10-K, 10-Q, 8-K) or the heading
and dateline of an earnings release and returns a `DocumentProfile`: the document type, the
registrant as printed on the cover ("Exact name of registrant as specified in its charter"), the
ticker of its first class of common stock ("Trading Symbol(s)" table or "(NYSE: JNJ)"), the
period end and the fiscal year / quarter where they can be derived. The file name is never used.

`match_documents(request, profiles)` (in `finance.documents.matching`) tells which documents a
user's request names by ticker or company name.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any

DOC_TYPES = ("10-K", "10-Q", "8-K", "earnings release", "other")
COVER_PAGES = 3

_MONTH_NAMES = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
_MONTHS = {m: i + 1 for i, m in enumerate(_MONTH_NAMES)}
_MONTH_RE = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_DATE = re.compile(rf"\b({_MONTH_RE})\s+(\d{{1,2}})\s*,?\s*(\d{{4}})\b", re.IGNORECASE)


@dataclass(frozen=True)
class DocumentProfile:
    doc_type: str = "other"  # one of DOC_TYPES
    company: str = ""  # as printed on the cover / in the release
    ticker: str | None = None  # first class of common stock
    exchange: str | None = None
    period_end: str | None = None  # ISO date; an 8-K's date of report
    fiscal_year: int | None = None
    fiscal_quarter: int | None = None  # 1-4 for a 10-Q / quarterly release, None for a 10-K
    report_date: str | None = None  # an 8-K's date of report, a release's dateline
    confidence: float = 0.0
    reasons: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["reasons"] = list(self.reasons)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocumentProfile:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["reasons"] = tuple(known.get("reasons", ()))
        return cls(**known)

    def metadata(self) -> dict[str, str]:
        """The profile as flat strings (empty fields left out), for `ParsedDocument.metadata`."""
        out = {
            "doc_type": self.doc_type,
            "company": self.company,
            "ticker": self.ticker or "",
            "exchange": self.exchange or "",
            "period_end": self.period_end or "",
            "fiscal_year": str(self.fiscal_year or ""),
            "fiscal_quarter": str(self.fiscal_quarter or ""),
            "report_date": self.report_date or "",
        }
        return {k: v for k, v in out.items() if v}

    @property
    def label(self) -> str:
        """ "PepsiCo, Inc. 10-Q FY2023 Q1" style short label."""
        parts = [self.company or "?", self.doc_type]
        if self.fiscal_year:
            parts.append(f"FY{self.fiscal_year}")
        if self.fiscal_quarter:
            parts.append(f"Q{self.fiscal_quarter}")
        return " ".join(parts)


# --- helpers -----------------------------------------------------------------------------------


def parse_date(text: str) -> date | None:
    m = _DATE.search(text)
    if not m:
        return None
    prefix = m.group(1).lower()[:3]
    month = next((v for k, v in _MONTHS.items() if k.startswith(prefix)), None)
    if month is None:
        return None
    try:
        return date(int(m.group(3)), month, int(m.group(2)))
    except ValueError:
        return None


def fiscal_year_of(end: date) -> int:
    """A 52/53-week year that ends in the first days of January belongs to the year before."""
    return end.year - 1 if end.month == 1 and end.day <= 7 else end.year


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


# --- document type -----------------------------------------------------------------------------

# The heading alone on its line ("FORM 10-K", "____ FORM 10-K ____ (Mark One)"), not prose
# that wraps onto a line starting "Form 10-Q) filed with the SEC ...".
_FORM_LINE = re.compile(
    r"^[\s_\-]*form\s+(10-k|10-q|8-k)(?:/a)?[\s_\-]*(?:\(?mark\s+one\)?[\s_]*)?$", re.IGNORECASE
)
_FORM_ANY = re.compile(r"(?:^|[_\s])form\s+(10-k|10-q|8-k)(?:/a)?(?![\w-])", re.IGNORECASE)
_REPORT_KIND = {
    "10-K": re.compile(r"annual\s+report\s+pursuant\s+to\s+section\s+13", re.IGNORECASE),
    "10-Q": re.compile(r"quarterly\s+report\s+pursuant\s+to\s+section\s+13", re.IGNORECASE),
    "8-K": re.compile(r"current\s+report\s+pursuant\s+to\s+section\s+13", re.IGNORECASE),
}
_RELEASE_HEAD = re.compile(
    r"\b(reports?|announces?|posts?|delivers?)\b[^\n]{0,80}\b(results|earnings)\b"
    r"|for\s+immediate\s+release|\(\s*business\s+wire\s*\)|--\s*\(\s*business\s+wire"
    r"|\bpr\s+newswire\b|\bglobe\s*newswire\b"
    r"|\btoday\s+(?:reported|announced)\b[^\n]{0,80}\b(?:results|quarter|earnings)",
    re.IGNORECASE,
)
_SEC_HEADER = re.compile(
    r"^\s*(united\s+states\s+)?securities\s+and\s+exchange\s+commission\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def _doc_type(pages: list[str], reasons: list[str]) -> tuple[str, int]:
    """The type and the index of the page it was read on: the first page with an SEC form
    heading or a press-release heading decides (a filing may open on a contents page; a
    release may quote "Form 10-Q" on a later page)."""
    for i, text in enumerate(pages[:COVER_PAGES]):
        head = _lines(text)[:40]
        for line in head:
            m = _FORM_LINE.match(line)
            if m:
                kind = m.group(1).upper()
                reasons.append(f"doc_type: 'FORM {kind}' heading on page {i + 1}")
                return kind, i
        joined = "\n".join(head)
        if _SEC_HEADER.search(joined):
            for kind, rx in _REPORT_KIND.items():
                if rx.search(_squash(joined)):
                    reasons.append(f"doc_type: '{kind}' report wording on page {i + 1}")
                    return kind, i
            m = _FORM_ANY.search(joined)
            if m:
                kind = m.group(1).upper()
                reasons.append(f"doc_type: 'Form {kind}' near the SEC header on page {i + 1}")
                return kind, i
        if _RELEASE_HEAD.search("\n".join(_lines(text)[:60])):
            reasons.append(
                f"doc_type: press-release heading / 'today reported results' on page {i + 1}"
            )
            return "earnings release", i
    reasons.append("doc_type: no SEC form heading and no release heading found")
    return "other", 0


# --- company -----------------------------------------------------------------------------------

_EXACT_NAME = re.compile(r"exact\s*name\s*of\s*(the\s*)?registrants?", re.IGNORECASE)
_STOP_ABOVE = re.compile(
    r"commission\s+file|file\s+number|^number\b|date\s+of\s+(earliest|report)|ended|"
    r"transition\s+period|^form\b|^\(?mark\s+one|pursuant\s+to|^or$|^-+or-+$|^-{3,}$|"
    r"\b(19|20)\d\d\b\s*\(|\b[a-z]{3,9}\.?\s+\d{1,2},\s+\d{4}\b|\b\d{1,3}-\d{3,6}\b",
    re.IGNORECASE,
)
_EIN = re.compile(r"\b\d{2}-\d{7}\b")
_FILE_NO = re.compile(r"^\s*(?:\d{1,3}-\d{3,6})\s+")
_US_STATES = (
    "alabama|alaska|arizona|arkansas|california|colorado|connecticut|delaware|florida|georgia|"
    "hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|massachusetts|"
    "michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|new hampshire|new jersey|"
    "new mexico|new york|north carolina|north dakota|ohio|oklahoma|oregon|pennsylvania|"
    "rhode island|south carolina|south dakota|tennessee|texas|utah|vermont|virginia|washington|"
    "west virginia|wisconsin|wyoming|jersey|bermuda|ireland|england and wales|netherlands|"
    "cayman islands|maryland|puerto rico|district of columbia"
)
_STATE_TAIL = re.compile(rf"\s+(?:{_US_STATES})\b.*$", re.IGNORECASE)
_NAMEISH = re.compile(
    r"\b(inc|incorporated|corp|corporation|company|co|plc|ltd|limited|n\.?v|s\.?a|ag|llc|lp|"
    r"l\.p|group|holdings|trust|partnership)\.?$",
    re.IGNORECASE,
)


def _clean_name(line: str) -> str:
    name = re.sub(r"^[_\s\-]+|[_\s]+$", "", line.split("___")[-1])
    return re.sub(r"\s+", " ", name).strip(" _,;:")


def _company_from_cover(pages: list[str], start: int, reasons: list[str]) -> str:
    for i in range(start, min(len(pages), start + COVER_PAGES)):
        lines = _lines(pages[i])
        for k, line in enumerate(lines[:120]):
            if not _EXACT_NAME.search(line):
                continue
            if line.lstrip().startswith("(") or k == 0 or not _STOP_ABOVE.search(lines[k - 1]):
                block: list[str] = []
                for prev in reversed(lines[max(0, k - 3) : k]):
                    if _STOP_ABOVE.search(prev) or _EXACT_NAME.search(prev):
                        break
                    block.append(prev)
                names = [_clean_name(b) for b in reversed(block)]
                names = [n for n in names if re.search(r"[A-Za-z]", n)]
                if names:
                    reasons.append(
                        f"company: line above '(Exact name of registrant ...)' on page {i + 1}"
                    )
                    return names[0]
            # A table: "Exact Name of Registrant ..." is a column header; the row below holds
            # "<file number> <NAME> <State> <EIN>".
            for row in lines[k + 1 : k + 12]:
                if _EIN.search(row) and _FILE_NO.match(row):
                    name = _STATE_TAIL.sub("", _FILE_NO.sub("", _EIN.sub("", row))).strip()
                    if name:
                        reasons.append(f"company: registrant table row on page {i + 1}")
                        return _clean_name(name)
        # No "Exact name" caption (3M, Microsoft): the line after the commission file number.
        for k, line in enumerate(lines[:60]):
            if re.search(r"commission\s+file\s+(number|no)", line, re.IGNORECASE):
                for nxt in lines[k + 1 : k + 3]:
                    name = _clean_name(nxt)
                    if re.search(r"commission\s+file|state\s+of|^\(", name, re.IGNORECASE):
                        continue
                    if name and (_NAMEISH.search(name) or name.isupper()):
                        reasons.append(
                            f"company: line after the commission file number on page {i + 1}"
                        )
                        return name
    return ""


_ISSUER_TICKER = re.compile(
    r"([A-Z][\w.&'\u2019,\- ]{1,80}?)\s*\(\s*(NYSE(?:\s+American)?|NASDAQ|Nasdaq|NasdaqGS|TSX|"
    r"NYSE\s+Arca|ASX|LSE|Cboe)\s*:\s*([A-Z]{1,5}(?:\.[A-Z])?)\s*[);,]"
)
_HEADLINE_ISSUER = re.compile(
    r"^(.{2,60}?)\s+(?:reports?|announces?|posts?|delivers?)\b", re.IGNORECASE | re.MULTILINE
)


def _issuer_name(raw: str) -> str:
    # "New Brunswick, N.J. (January 24, 2023) - Johnson & Johnson" -> the part after the dash.
    name = re.split(r"\s[\u2013\u2014-]{1,2}\s|--\)?-*|\)\s*[\u2013\u2014-]+\s*", raw)[-1]
    name = re.sub(r"^.*\btoday\b", "", name).strip(" ,-\u2013\u2014")
    return _clean_name(name)


def _release_issuer(
    pages: list[str], reasons: list[str]
) -> tuple[str, str | None, str | None, date | None]:
    """Issuer, ticker, exchange and dateline date of a press release."""
    text = _squash("\n".join(pages[:2]))
    m = _ISSUER_TICKER.search(text)
    if m:
        reasons.append("company/ticker: '<Issuer> (EXCHANGE: TICKER)' in the release")
        # The dateline: the date closest before "<Issuer> (EXCHANGE: TICKER)".
        near = list(_DATE.finditer(text[max(0, m.start() - 120) : m.end()]))
        dateline = parse_date(near[-1].group(0)) if near else None
        return _issuer_name(m.group(1)), m.group(3), m.group(2).upper(), dateline
    h = _HEADLINE_ISSUER.search("\n".join(_lines(pages[0])[:8]) if pages else "")
    if h:
        reasons.append("company: issuer from the release headline")
        return _clean_name(h.group(1)), None, None, None
    return "", None, None, None


# --- ticker ------------------------------------------------------------------------------------

_SYMBOL_HEADER = re.compile(r"trading\s+symbols?(\s*\(s\))?", re.IGNORECASE)
_EXCHANGE = (
    r"(?:The\s+)?(New\s+York\s+Stock\s+Exchange|NYSE(?:\s+American|\s+Arca)?|Nasdaq[\w ]*?|"
    r"NASDAQ[\w ]*?|Chicago\s+Stock\s+Exchange|Cboe[\w ]*?|Boston\s+Stock\s+Exchange)"
    r"(?=\s|$|,|\.)"
)
_TICKER_BEFORE_EXCHANGE = re.compile(
    rf"(?<![\w$.%/])([A-Z]{{1,5}}(?:[.\-][A-Z]{{1,2}})?)\s+{_EXCHANGE}"
)
_TICKER_ALONE = re.compile(r"^([A-Z]{1,5}(?:\.[A-Z]{1,2})?)$")
_NOT_TICKERS = {"NYSE", "LLC", "INC", "THE", "NASDAQ", "OF", "PAR", "NONE", "NEW", "N/A", "NA"}
_STOCK_ROW = re.compile(
    r"common\s+(stock|shares)|ordinary\s+shares|class\s+[ab]\s+(common|shares)|capital\s+stock",
    re.IGNORECASE,
)


def _cover_ticker(
    pages: list[str], start: int, reasons: list[str]
) -> tuple[str | None, str | None]:
    for i in range(start, min(len(pages), start + COVER_PAGES)):
        text = pages[i]
        head = _SYMBOL_HEADER.search(_squash(text))
        if not head:
            continue
        lines = _lines(text)
        # The table: from the "Trading Symbol(s)" header to "Section 12(g)" / "Indicate by".
        start_k = next(
            (k for k, ln in enumerate(lines) if re.search(r"trading|title\s+of", ln, re.I)), 0
        )
        region: list[str] = []
        for ln in lines[max(0, start_k - 2) : start_k + 40]:
            if re.search(r"section\s+12\s*\(g\)|^indicate\s+by", ln, re.IGNORECASE) and region:
                break
            region.append(ln)
        stock_k = next((k for k, ln in enumerate(region) if _STOCK_ROW.search(ln)), None)
        if stock_k is None:
            continue
        for ln in region[stock_k : stock_k + 3]:
            m = _TICKER_BEFORE_EXCHANGE.search(ln)
            if m and m.group(1) not in _NOT_TICKERS:
                reasons.append(
                    f"ticker: common stock row of the trading-symbol table, page {i + 1}"
                )
                return m.group(1), ln[m.start(2) :].strip()
        # Columns printed one under another (Oracle): the first line that is only a symbol.
        for ln in region[stock_k + 1 : stock_k + 8]:
            m = _TICKER_ALONE.match(ln)
            if m and m.group(1) not in _NOT_TICKERS:
                reasons.append(f"ticker: symbol column of the trading-symbol table, page {i + 1}")
                ex = re.search(_EXCHANGE, " ".join(region[stock_k:]))
                return m.group(1), _squash(ex.group(1)).strip() if ex else None
    return None, None


# --- periods -----------------------------------------------------------------------------------

_PERIOD_ENDED = {
    "10-K": re.compile(r"for\s+the\s+(?:fiscal\s+)?year\s+ended", re.IGNORECASE),
    "10-Q": re.compile(r"for\s+the\s+(?:quarterly\s+period|quarter)\s+ended", re.IGNORECASE),
    "8-K": re.compile(r"date\s+of\s+report", re.IGNORECASE),
}
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3}
_RELEASE_QUARTER = re.compile(
    r"\b(?:(?P<y1>(?:19|20)\d\d)\s+)?(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)"
    r"[\s-]+quarter(?:\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?(?P<y2>(?:19|20)\d\d))?"
    r"|\bq(?P<qn>[1-4])\s+(?:fiscal\s+)?(?P<y3>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
_RELEASE_FULL_YEAR = re.compile(
    r"\b(?:fiscal|full[\s-]year)\s+(?:year\s+)?(?P<y>(?:19|20)\d\d)\s+results", re.IGNORECASE
)


def _date_after(text: str, anchor: re.Pattern[str], window: int = 160) -> date | None:
    flat = _squash(text)
    m = anchor.search(flat)
    if not m:
        return None
    return parse_date(flat[m.end() : m.end() + window])


def _quarter_from_statements(pages: list[str]) -> tuple[int | None, str]:
    """A 10-Q's fiscal quarter from its statement columns: six months -> Q2, nine -> Q3."""
    text = _squash(" ".join(pages[:60])).lower()
    three = len(re.findall(r"(three|3|thirteen|13)[\s-]+(months|weeks)\s+ended", text))
    six = len(re.findall(r"(six|6|twenty-six|26)[\s-]+(months|weeks)\s+ended", text))
    nine = len(re.findall(r"(nine|9|thirty-nine|39)[\s-]+(months|weeks)\s+ended", text))
    if nine >= 2:
        return 3, f"'nine months ended' x{nine}"
    if six >= 2:
        return 2, f"'six months ended' x{six}"
    if three >= 2:
        return 1, f"only 'three months ended' (x{three})"
    return None, ""


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    return date(d.year + y, m + 1, min(d.day, 28))


# --- entry point -------------------------------------------------------------------------------


def read_profile(pages: list[str]) -> DocumentProfile:
    """The profile of a document from its page texts (the cover is read off the first pages;
    a 10-Q's later pages tell its fiscal quarter)."""
    reasons: list[str] = []
    pages = [p or "" for p in pages]
    if not any(p.strip() for p in pages[:COVER_PAGES]):
        return DocumentProfile(reasons=("no text on the first pages",))
    doc_type, cover = _doc_type(pages, reasons)
    company = ""
    ticker: str | None = None
    exchange: str | None = None
    period: date | None = None
    report: date | None = None
    fy: int | None = None
    fq: int | None = None
    score = 0.4 if doc_type != "other" else 0.1

    if doc_type in ("10-K", "10-Q", "8-K"):
        company = _company_from_cover(pages, cover, reasons)
        ticker, exchange = _cover_ticker(pages, cover, reasons)
        cover_text = "\n".join(pages[cover : cover + 2])
        d = _date_after(cover_text, _PERIOD_ENDED[doc_type])
        if d is not None:
            reasons.append(f"period: date after '{_PERIOD_ENDED[doc_type].pattern[:30]}...'")
        if doc_type == "8-K":
            report = d
            period = d
            if ticker is None:  # an 8-K may print it only in the attached release
                _, ticker, exchange, _ = _release_issuer(pages[cover:], reasons)
        else:
            period = d
        if doc_type == "10-K" and period is not None:
            fy = fiscal_year_of(period)
        elif doc_type == "10-Q" and period is not None:
            fq, why = _quarter_from_statements(pages)
            if fq is not None:
                reasons.append(f"fiscal_quarter: {why} in the statements")
                fy = fiscal_year_of(_add_months(period, 3 * (4 - fq)))
    elif doc_type == "earnings release":
        company, ticker, exchange, dateline = _release_issuer(pages, reasons)
        head = _squash("\n".join(_lines(pages[0])[:40]))
        q = _RELEASE_QUARTER.search(head)
        if q:
            fq = int(q.group("qn") or _ORDINAL.get(q.group("ord").lower(), 4))
            year = q.group("y1") or q.group("y2") or q.group("y3")
            fy = int(year) if year else None
            reasons.append(f"fiscal quarter/year: '{q.group(0)}' in the release heading")
        else:
            full = _RELEASE_FULL_YEAR.search(head)
            if full:
                fy, fq = int(full.group("y")), 4
                reasons.append(f"fiscal year: '{full.group(0)}' (full year: Q4)")
        report = dateline or parse_date(head[:600])
        pe = re.search(
            r"\b(?:periods?|weeks|months|quarter)\W+(?:\(\W*\w+\s+\w+\W*\)\s*)?ended\s+",
            head,
            re.IGNORECASE,
        )
        if pe:
            period = parse_date(head[pe.end() : pe.end() + 40])
            if period is not None:
                reasons.append("period: 'period ... ended <date>' in the release")
    else:
        company = _company_from_cover(pages, 0, reasons)

    if company:
        score += 0.3
    if ticker:
        score += 0.15
    if period or report:
        score += 0.15
    return DocumentProfile(
        doc_type=doc_type,
        company=company,
        ticker=ticker,
        exchange=exchange,
        period_end=period.isoformat() if period else None,
        fiscal_year=fy,
        fiscal_quarter=fq,
        report_date=report.isoformat() if report else None,
        confidence=round(min(score, 1.0), 2),
        reasons=tuple(reasons),
    )


__all__ = ["DOC_TYPES", "DocumentProfile", "fiscal_year_of", "parse_date", "read_profile"]
