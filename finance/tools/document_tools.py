"""Tools over uploaded filings: list them, search them, read a page, read the statements."""

from __future__ import annotations

from typing import Any

from agents.runtime import Tool, ToolContext, ToolError
from finance.models import Document
from finance.research import sources
from finance.statements.parts import printed_part
from finance.tools.workspace import document_of, workspace_of

PAGE_CHARS = 6000


def list_documents(arguments: dict[str, Any], context: ToolContext) -> list[dict[str, Any]]:
    documents = Document.objects.filter(workspace=workspace_of(context)).order_by("created_at")
    out = []
    for d in documents:
        entry: dict[str, Any] = {
            "id": d.pk,
            "name": d.name,
            "kind": d.kind,
            "status": d.status,
            "pages": d.pages,
            "company": d.company,
        }
        if d.status == Document.Status.READY and d.kind == "csv":
            entry["columns"] = (d.sections or {}).get("columns", [])
            entry["rows"] = (d.sections or {}).get("rows", 0)
        elif d.status == Document.Status.READY:
            found = d.statements or {}
            entry["fiscal_years"] = list(found.get("fiscal_years") or [])
            for key in ("doc_type", "ticker"):
                if found.get(key):
                    entry[key] = found[key]
            if found.get("unverified"):
                entry["unverified"] = found["unverified"]
            # The filing's own name for its fiscal year ("Fourth Quarter Fiscal 2022") and the
            # date that year ends: a metric question's year is read in the filing's naming.
            profile = (d.sections or {}).get("profile") or {}
            for key in ("fiscal_year", "period_end"):
                if profile.get(key):
                    entry[key] = profile[key]
            statements = (d.sections or {}).get("statements") or {}
            entry["statement_pages"] = {k: v for k, v in statements.items() if v is not None}
        elif d.message:
            entry["message"] = d.message
        out.append(entry)
    return out


def search_document(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    passages = sources.search(document, arguments["query"], k=arguments.get("k", 5))
    return {
        "document": document.name,
        "hits": [
            {"page": p.page, "page_label": f"p. {p.page + 1}", "snippet": p.text} for p in passages
        ],
        "note": "pages are 0-indexed; cite them to people as page_label",
    }


def read_page(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    pages = sources.parsed(document).pages
    page = arguments["page"]
    if page >= len(pages):
        raise ToolError(f"{document.name} has {len(pages)} pages (0..{len(pages) - 1})")
    text = pages[page]
    return {
        "document": document.name,
        "page": page,
        "page_label": f"p. {page + 1}",
        "text": text[:PAGE_CHARS],
        "truncated": len(text) > PAGE_CHARS,
    }


def get_statements(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    found = sources.statements(document)
    if not found:
        raise ToolError(
            f"{document.name} has no canonical statements"
            + (
                " (HTML filing: use cross_check for its XBRL figures)"
                if document.kind == "html"
                else ""
            )
        )
    wanted = arguments.get("statement")
    names = [wanted] if wanted else ["income_statement", "balance_sheet", "cash_flow"]
    line, part = arguments.get("line"), arguments.get("part")
    out: dict[str, Any] = {
        "document": document.name,
        "unit": f"{found.get('currency', 'USD')} {found.get('unit', 'millions')}",
        "fiscal_years": found.get("fiscal_years", []),
        "period_ends": found.get("period_ends") or {},
    }
    for name in names:
        items = found.get(name) or {}
        out[name] = {
            key: {year: cell["value"] for year, cell in years.items()}
            for key, years in items.items()
        }
        pages = sorted({cell["page"] for years in items.values() for cell in years.values()})
        out[f"{name}_pages"] = pages
        # A statement carried over two pages: the values printed on a later page, by page.
        later = {
            key: {year: cell["page"] for year, cell in years.items() if cell["page"] != pages[0]}
            for key, years in items.items()
        }
        out[f"{name}_cell_pages"] = {key: years for key, years in later.items() if years}
        if line in items and part:
            rows = (found.get("rows") or {}).get(name) or []
            out[f"{name}_part"] = printed_part(rows, out[name][line], str(part))
    return out


DOCUMENT_ID = {"type": "integer", "minimum": 1, "description": "From list_documents."}

DOCUMENT_TOOLS = (
    Tool(
        "list_documents",
        "List the filings and CSV data files of this workspace: id, name, status, pages, fiscal "
        "years (filings), columns and rows (CSV).",
        {"type": "object", "properties": {}, "additionalProperties": False},
        list_documents,
    ),
    Tool(
        "search_document",
        "Search a filing's pages (BM25) and return the best pages with snippets; cite pages.",
        {
            "type": "object",
            "properties": {
                "document_id": DOCUMENT_ID,
                "query": {"type": "string", "minLength": 2, "maxLength": 300},
                "k": {"type": "integer", "minimum": 1, "maximum": 10},
            },
            "required": ["document_id", "query"],
            "additionalProperties": False,
        },
        search_document,
    ),
    Tool(
        "read_page",
        "Read one page of a filing (0-indexed) in full.",
        {
            "type": "object",
            "properties": {"document_id": DOCUMENT_ID, "page": {"type": "integer", "minimum": 0}},
            "required": ["document_id", "page"],
            "additionalProperties": False,
        },
        read_page,
    ),
    Tool(
        "get_statements",
        "The canonical income statement, balance sheet and cash flow (USD millions) by year; "
        "with line and part, the printed row that is that part of the line (or null).",
        {
            "type": "object",
            "properties": {
                "document_id": DOCUMENT_ID,
                "statement": {"enum": ["income_statement", "balance_sheet", "cash_flow"]},
                "line": {
                    "type": "string",
                    "description": "A canonical line (e.g. revenue) of which to find a part.",
                },
                "part": {
                    "type": "string",
                    "description": "The part's words (e.g. 'services'): its own printed row.",
                },
            },
            "required": ["document_id"],
            "additionalProperties": False,
        },
        get_statements,
    ),
)
