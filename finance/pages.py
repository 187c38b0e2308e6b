"""What the finance pages show, built from models and services (views and tags stay thin)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from agents.models import Workspace
from finance.models import Document, Note
from finance.services.pages import Box, PageInfo

STATEMENT_LABELS = {
    "income_statement": "Income statement",
    "balance_sheet": "Balance sheet",
    "cash_flow": "Cash flow",
}


@dataclass
class StatementLink:
    label: str
    page: int  # 0-indexed
    url: str

    @property
    def human_page(self) -> int:
        return self.page + 1


@dataclass
class Unverified:
    """A statement period whose accounting identity failed: its figures are flagged."""

    statement: str
    period: str
    reason: str


@dataclass
class DocumentRow:
    document: Document
    links: list[StatementLink] = field(default_factory=list)

    @property
    def percent(self) -> int:
        return round(100 * self.document.progress)

    @property
    def profile(self) -> dict[str, Any]:
        profile = (self.document.sections or {}).get("profile")
        return profile if isinstance(profile, dict) else {}

    @property
    def doc_type(self) -> str:
        """ "10-K", "10-Q", ..., "data file" for a CSV; "" when not known."""
        if self.document.kind == "csv":
            return "data file"
        doc_type = self.profile.get("doc_type") or (self.document.statements or {}).get("doc_type")
        return "" if doc_type in (None, "", "other") else str(doc_type)

    @property
    def company(self) -> str:
        return self.document.company or str(self.profile.get("company") or "")

    @property
    def period(self) -> str:
        """The period the filing covers, as its profile reads it ("FY2017", "Q2 2023")."""
        year, quarter = self.profile.get("fiscal_year"), self.profile.get("fiscal_quarter")
        if not year:
            return ""
        return f"Q{quarter} {year}" if quarter else f"FY{year}"

    @property
    def unverified(self) -> list[Unverified]:
        return unverified_periods(self.document.statements)


def unverified_periods(statements: dict[str, Any] | None) -> list[Unverified]:
    """The periods whose accounting identities failed (`statements["unverified"]`), in order."""
    found = (statements or {}).get("unverified") or {}
    if not isinstance(found, dict):
        return []
    out: list[Unverified] = []
    for key, label in STATEMENT_LABELS.items():
        periods = found.get(key) or {}
        if isinstance(periods, dict):
            out.extend(Unverified(label, str(p), str(why)) for p, why in periods.items())
    return out


def statement_links(document: Document) -> list[StatementLink]:
    """Links into the page viewer at each statement's first page, in statement order."""
    if document.status != Document.Status.READY:
        return []
    found = dict((document.sections or {}).get("statements") or {})
    links = []
    for key, label in STATEMENT_LABELS.items():
        page = found.get(key)
        if isinstance(page, int) and 0 <= page < document.pages:
            url = reverse("finance-document-page", args=[document.pk, page])
            links.append(StatementLink(label, page, url))
    return links


def document_rows(documents: Iterable[Document]) -> list[DocumentRow]:
    return [DocumentRow(document, statement_links(document)) for document in documents]


def panel_context(workspace: Workspace) -> dict[str, Any]:
    """Everything the workspace's finance panel shows: its documents and its notes."""
    return {
        "workspace": workspace,
        "rows": document_rows(Document.objects.filter(workspace=workspace)),
        "notes": Note.objects.filter(workspace=workspace).only("id", "title", "created_at"),
    }


def highlight(text: str, needles: Iterable[str]) -> tuple[SafeString, bool]:
    """The text, escaped, with every match of the first needle that occurs marked."""
    for needle in needles:
        needle = needle.strip()
        if len(needle) < 2:
            continue
        pattern = re.compile(re.escape(needle), re.IGNORECASE)
        if pattern.search(text):
            parts = pattern.split(text)
            marks = [f"<mark>{escape(m)}</mark>" for m in pattern.findall(text)]
            html = escape(parts[0]) + "".join(
                mark + escape(part) for mark, part in zip(marks, parts[1:], strict=True)
            )
            return mark_safe(html), True  # every piece is escaped above
    return mark_safe(escape(text)), False


def label_needles(label: str, query: str) -> list[str]:
    """What to look for in an HTML page: the query, the label, then the label's value part."""
    needles = [query, label]
    if ":" in label:
        needles.append(label.rsplit(":", 1)[1])
    # A value as the note writes it ("391,035 USD millions"): the number as printed.
    needles.extend(re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", label))
    return needles


def viewer_context(info: PageInfo, *, box: Box | None, label: str, query: str) -> dict[str, Any]:
    document = info.document
    page = info.page
    context: dict[str, Any] = {
        "document": document,
        "info": info,
        "page": page,
        "human_page": page + 1,
        "label": label,
        "box": box.percent(info.width, info.height) if box and info.width and info.height else None,
        "previous": page - 1 if page > 0 else None,
        "next": page + 1 if page + 1 < info.pages else None,
        "image": None,
    }
    if info.width and info.height:
        context["image"] = reverse("finance-page-png", args=[document.pk, page]) + "?scale=2"
    else:
        context["text_html"], context["found"] = highlight(info.text, label_needles(label, query))
    return context
