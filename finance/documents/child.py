"""Heavy PDF work (reading a filing, rendering a page) in a bounded child process
(`agents.bounded_child`): a file built to exhaust memory or CPU stops its own child only, and
the caller gets a `DocumentError` saying which limit it passed.

The child runs `jobs()`; pdfium is imported after its limits are set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from agents.bounded_child import MB, ChildBudget, ChildErrors, Job
from agents.bounded_child import run_child as run_bounded
from finance.documents.errors import DocumentError

__all__ = ["MB", "ChildBudget", "ChildLimitExceeded", "run_child"]


class ChildLimitExceeded(DocumentError):
    """The child passed its memory or CPU budget; the message says which, for the user."""


ERRORS = ChildErrors(refused=DocumentError, exceeded=ChildLimitExceeded)
REFUSALS = (DocumentError,)


def run_child(
    job: dict[str, Any],
    *,
    budget: ChildBudget,
    what: str,
    on_event: Callable[[str], None] | None = None,
) -> bytes:
    """Run a PDF job in a bounded child; its stdout, or DocumentError with the reason."""
    return run_bounded(
        "finance.documents.child", job, budget=budget, what=what, errors=ERRORS, on_event=on_event
    )


def jobs() -> Mapping[str, Job]:
    from finance.documents.pdf_page import page_text_job, render_job
    from finance.documents.reading import read_job, statements_job

    return {
        "render": render_job,
        "text": page_text_job,
        "read": read_job,
        "statements": statements_job,
    }
