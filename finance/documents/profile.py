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

from finance.documents.cover import (
    COVER_PAGES,
    company_from_cover,
    cover_ticker,
    release_issuer,
)
from finance.documents.text_lines import lines as _lines
from finance.documents.text_lines import parse_date
from finance.documents.text_lines import squash as _squash

DOC_TYPES = ("10-K", "10-Q", "8-K", "earnings release", "other")


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


def fiscal_year_of(end: date) -> int:
    """The fiscal year a year ending on `end` is named by (`finance.statements.periods`): a
    52/53-week year that ends in the first days of January belongs to the year before."""
    from finance.statements import periods  # the statements package reads profiles itself

    return periods.fiscal_year_of(end, periods.nominal_year_end(end))


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
        company = company_from_cover(pages, cover, reasons)
        ticker, exchange = cover_ticker(pages, cover, reasons)
        cover_text = "\n".join(pages[cover : cover + 2])
        d = _date_after(cover_text, _PERIOD_ENDED[doc_type])
        if d is not None:
            reasons.append(f"period: date after '{_PERIOD_ENDED[doc_type].pattern[:30]}...'")
        if doc_type == "8-K":
            report = d
            period = d
            if ticker is None:  # an 8-K may print it only in the attached release
                _, ticker, exchange, _ = release_issuer(pages[cover:], reasons)
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
        company, ticker, exchange, dateline = release_issuer(pages, reasons)
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
        company = company_from_cover(pages, 0, reasons)

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
