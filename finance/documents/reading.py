"""The child's `read` job: a PDF filing's pages, sections and statements, within its bounds.

Runs in a bounded child (`finance.documents.child`). The inflated size of every stream and the
size of every page are checked first (`pdf_bounds`), then the CPU budget is narrowed to the
document's pages, then pdfium reads the text and pdfplumber the statement pages.
"""

from __future__ import annotations

import json
import resource
from collections.abc import Callable
from pathlib import Path
from typing import Any

from finance.documents.ingest import ingest_pdf
from finance.documents.pdf_bounds import PdfBounds, check_inflated_sizes


def read_job(job: dict[str, Any], emit: Callable[[str], None]) -> bytes:
    """{path, name, documents, statements (cache folders), max_pages, bounds, cpu_per_page,
    cpu_base} -> JSON {"document": ParsedDocument.to_dict(), "statements": {...}}."""
    from finance.statements.cache import cached_statements

    data = Path(job["path"]).read_bytes()
    bounds = PdfBounds(**job["bounds"])

    def progress(done: int, total: int) -> None:
        emit(f"progress {done} {total}")

    def pages_known(total: int) -> None:
        narrow_cpu(float(job["cpu_base"]) + float(job["cpu_per_page"]) * total)

    parsed = ingest_pdf(
        data,
        cache_dir=Path(job["documents"]),
        progress=progress,
        max_pages=int(job["max_pages"]),
        bounds=bounds,
        on_page_count=pages_known,
    )
    emit("stage statements")
    statements = cached_statements(data, name=str(job["name"]), cache_dir=Path(job["statements"]))
    return json.dumps({"document": parsed.to_dict(), "statements": statements}).encode()


def statements_job(job: dict[str, Any], emit: Callable[[str], None]) -> bytes:
    """{path, name, statements (cache folder), bounds} -> JSON statements, once the streams are
    within their bounds."""
    from finance.statements.cache import cached_statements

    data = Path(job["path"]).read_bytes()
    check_inflated_sizes(data, PdfBounds(**job["bounds"]))
    statements = cached_statements(data, name=str(job["name"]), cache_dir=Path(job["statements"]))
    return json.dumps(statements).encode()


def narrow_cpu(seconds: float) -> None:
    """Lower this process's CPU limit to `seconds` (never raise it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    wanted = max(1, round(seconds))
    if soft == resource.RLIM_INFINITY or wanted < soft:
        resource.setrlimit(resource.RLIMIT_CPU, (wanted, hard))
