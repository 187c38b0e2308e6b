"""Whose a document is: the registrant and ticker on an SEC cover page, or the issuer of an
earnings release (its heading, dateline and "(NYSE: JNJ)"). Used by `profile.read_profile`."""

from __future__ import annotations

import re
from datetime import date

from finance.documents.text_lines import DATE as _DATE
from finance.documents.text_lines import lines as _lines
from finance.documents.text_lines import parse_date
from finance.documents.text_lines import squash as _squash

COVER_PAGES = 3
"""A cover is looked for on this many pages from where the document starts."""

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


def company_from_cover(pages: list[str], start: int, reasons: list[str]) -> str:
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


def release_issuer(
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


def cover_ticker(pages: list[str], start: int, reasons: list[str]) -> tuple[str | None, str | None]:
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
