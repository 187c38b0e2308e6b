"""Read numeric facts out of an inline XBRL (iXBRL) filing such as a 10-K's primary HTML.

Handles ``ix:nonFraction`` with ``name``, ``contextRef``, ``unitRef``, ``scale``, ``sign`` and
``format`` (``ixt:num-dot-decimal``, ``ixt:num-comma-decimal``, ``ixt:fixed-zero`` and
``ixt-sec:numwordsen`` for "none"/"no"), and ``xbrli:context`` periods and dimensions. Facts
hidden in ``ix:hidden`` are read like any other. Dimensional (segment) facts are kept but flagged,
since consolidated totals are the ones without dimensions.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from lxml import etree  # type: ignore[import-untyped]

from finance.providers.periods import (
    default_fiscal_year,
    fiscal_year_for,
    is_annual,
    parse_date,
    to_millions,
)

IX = "http://www.xbrl.org/2013/inlineXBRL"
XBRLI = "http://www.xbrl.org/2003/instance"
XBRLDI = "http://xbrl.org/2006/xbrldi"

_WORD_NUMBERS = {"no": 0, "none": 0, "zero": 0, "nil": 0, "one": 1, "two": 2, "three": 3}


class InlineXbrlError(ValueError):
    pass


@dataclass(frozen=True)
class Context:
    id: str
    start: dt.date | None
    end: dt.date
    dimensions: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class IxFact:
    concept: str  # e.g. "us-gaap:NetIncomeLoss"
    value: Decimal  # in the unit itself (scale and sign applied)
    unit: str
    decimals: str | None
    context: Context
    fact_id: str | None

    @property
    def local_name(self) -> str:
        return self.concept.split(":", 1)[-1]


@dataclass(frozen=True)
class InlineXbrlDocument:
    facts: tuple[IxFact, ...]
    contexts: dict[str, Context]
    dei: dict[str, str]

    @property
    def fiscal_year_focus(self) -> int | None:
        value = self.dei.get("DocumentFiscalYearFocus")
        return int(value) if value and value.strip().isdigit() else None

    def period_end(self) -> dt.date | None:
        """The end of the document's own period (the context ``dei`` facts use)."""
        ctx = self.contexts.get(self.dei.get("_context", ""))
        return ctx.end if ctx else None


def parse_number(text: str, fmt: str | None) -> Decimal:
    fmt_local = (fmt or "").split(":", 1)[-1].lower()
    cleaned = text.strip().replace("\u00a0", " ")
    if fmt_local in {"fixed-zero", "zerodash"} or cleaned in {"-", "\u2014", "\u2013"}:
        return Decimal(0)
    if fmt_local in {"numwordsen", "num-word-en"}:
        word = cleaned.lower().strip(" .")
        if word in _WORD_NUMBERS:
            return Decimal(_WORD_NUMBERS[word])
        raise InlineXbrlError(f"cannot read number word {text!r}")
    if fmt_local in {"num-comma-decimal", "numcommadecimal"}:
        cleaned = cleaned.replace(".", "").replace(" ", "").replace(",", ".")
    else:  # num-dot-decimal and plain numbers
        cleaned = cleaned.replace(",", "").replace(" ", "")
    cleaned = re.sub(r"[^0-9.]", "", cleaned)
    try:
        return Decimal(cleaned)
    except InvalidOperation as exc:
        raise InlineXbrlError(f"cannot read number {text!r} (format {fmt!r})") from exc


def _text(element: etree._Element) -> str:
    return "".join(element.itertext())


def parse_inline_xbrl(source: bytes | str | Path) -> InlineXbrlDocument:
    data = source.read_bytes() if isinstance(source, Path) else source
    if isinstance(data, str):
        data = data.encode()
    parser = etree.XMLParser(huge_tree=True, recover=True, resolve_entities=False)
    root = etree.fromstring(data, parser)
    if root is None:
        raise InlineXbrlError("document is not parseable XHTML")

    contexts: dict[str, Context] = {}
    for ctx in root.iter(f"{{{XBRLI}}}context"):
        period = ctx.find(f"{{{XBRLI}}}period")
        if period is None:
            continue
        instant = period.findtext(f"{{{XBRLI}}}instant")
        start = period.findtext(f"{{{XBRLI}}}startDate")
        end = period.findtext(f"{{{XBRLI}}}endDate")
        dims = tuple(
            sorted(
                (m.get("dimension", ""), (m.text or "").strip())
                for m in ctx.iter(f"{{{XBRLDI}}}explicitMember", f"{{{XBRLDI}}}typedMember")
            )
        )
        if instant:
            contexts[ctx.get("id", "")] = Context(
                ctx.get("id", ""), None, parse_date(instant), dims
            )
        elif start and end:
            contexts[ctx.get("id", "")] = Context(
                ctx.get("id", ""), parse_date(start), parse_date(end), dims
            )

    dei: dict[str, str] = {}
    for element in root.iter(f"{{{IX}}}nonNumeric"):
        name = element.get("name", "")
        if name.startswith("dei:"):
            dei.setdefault(name[4:], _text(element).strip())
            if name == "dei:DocumentFiscalYearFocus":
                dei["_context"] = element.get("contextRef", "")

    facts: list[IxFact] = []
    for element in root.iter(f"{{{IX}}}nonFraction"):
        context = contexts.get(element.get("contextRef", ""))
        if context is None:
            continue
        if element.get(f"{{{'http://www.w3.org/2001/XMLSchema-instance'}}}nil") == "true":
            continue
        value = parse_number(_text(element), element.get("format"))
        value = value.scaleb(int(element.get("scale", "0") or 0))
        if element.get("sign") == "-":
            value = -value
        facts.append(
            IxFact(
                concept=element.get("name", ""),
                value=value,
                unit=element.get("unitRef", ""),
                decimals=element.get("decimals"),
                context=context,
                fact_id=element.get("id"),
            )
        )
    return InlineXbrlDocument(tuple(facts), contexts, dei)


@dataclass(frozen=True)
class FilingFigure:
    concept: str  # local name, e.g. "NetIncomeLoss"
    fiscal_year: int
    value: float  # USD millions
    start: dt.date | None
    end: dt.date
    fact_id: str | None
    decimals: int | None = None  # XBRL ``decimals``: -6 means rounded to the million

    @property
    def precision_musd(self) -> float:
        """Half the rounding step of the reported value, in $M (0 when exact or unknown)."""
        if self.decimals is None:
            return 0.0
        return 0.5 * 10.0 ** (-self.decimals) / 1_000_000


def _decimals(value: str | None) -> int | None:
    if value is None or value.upper() == "INF":
        return None
    try:
        return int(value)
    except ValueError:
        return None


def annual_figures(
    document: InlineXbrlDocument,
    concepts: Iterable[str] | None = None,
    *,
    units: Iterable[str] = ("usd",),
) -> dict[tuple[str, int], FilingFigure]:
    """Consolidated (no dimensions) annual USD facts by (local concept, fiscal year), in $M."""
    wanted = set(concepts) if concepts is not None else None
    unit_ids = {u.lower() for u in units}
    anchor_fy = document.fiscal_year_focus
    anchor_end = document.period_end()
    figures: dict[tuple[str, int], FilingFigure] = {}
    for fact in document.facts:
        if fact.context.dimensions or fact.unit.lower() not in unit_ids:
            continue
        if wanted is not None and fact.local_name not in wanted:
            continue
        if not is_annual(fact.context.start, fact.context.end):
            continue
        end = fact.context.end
        if anchor_fy is not None and anchor_end is not None:
            fiscal_year = fiscal_year_for(end, anchor_end, anchor_fy)
        else:
            fiscal_year = default_fiscal_year(end)
        figure = FilingFigure(
            concept=fact.local_name,
            fiscal_year=fiscal_year,
            value=to_millions(float(fact.value), "USD"),
            start=fact.context.start,
            end=end,
            fact_id=fact.fact_id,
            decimals=_decimals(fact.decimals),
        )
        key = (fact.local_name, fiscal_year)
        current = figures.get(key)
        # Duplicate tags of one fact are common (statement and notes); the first one wins.
        if current is None:
            figures[key] = figure
    return figures
