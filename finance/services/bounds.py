"""What one document may cost, from settings: the bounds checked before work and the budgets of
the child processes that read filings and render pages (README: Security)."""

from __future__ import annotations

from django.conf import settings

from finance.documents.child import MB, ChildBudget
from finance.documents.pdf_bounds import POINTS_PER_INCH, PdfBounds

DEFAULTS = {
    "FINANCE_PAGE_IMAGE_MAX_PIXELS": 16_000_000,
    "FINANCE_MAX_PAGE_INCHES": 50.0,
    "FINANCE_MAX_STREAM_MB": 64,
    "FINANCE_MAX_INFLATED_MB": 512,
    "FINANCE_PARSE_MEMORY_MB": 2048,
    "FINANCE_PARSE_CPU_SECONDS_BASE": 60.0,
    "FINANCE_PARSE_CPU_SECONDS_PER_PAGE": 1.0,
    "FINANCE_RENDER_MEMORY_MB": 1024,
    "FINANCE_RENDER_CPU_SECONDS": 20.0,
}


def setting(name: str) -> float:
    return float(getattr(settings, name, DEFAULTS[name]))


def page_image_max_pixels() -> int:
    return int(setting("FINANCE_PAGE_IMAGE_MAX_PIXELS"))


def pdf_bounds() -> PdfBounds:
    return PdfBounds(
        stream_bytes=int(setting("FINANCE_MAX_STREAM_MB") * MB),
        document_bytes=int(setting("FINANCE_MAX_INFLATED_MB") * MB),
        page_points=setting("FINANCE_MAX_PAGE_INCHES") * POINTS_PER_INCH,
    )


def read_budget(max_pages: int) -> ChildBudget:
    """The reading child's: its memory, CPU for the largest document allowed (the child narrows
    it to its own pages), and the task's time limit as the wall-clock backstop."""
    base = setting("FINANCE_PARSE_CPU_SECONDS_BASE")
    per_page = setting("FINANCE_PARSE_CPU_SECONDS_PER_PAGE")
    return ChildBudget(
        memory_bytes=int(setting("FINANCE_PARSE_MEMORY_MB") * MB),
        cpu_seconds=base + per_page * max_pages,
        wall_seconds=float(settings.CELERY_TASK_SOFT_TIME_LIMIT) - 10,
        cpu_rule=f"{base:g} s and {per_page:g} s a page",
    )


def render_budget() -> ChildBudget:
    cpu = setting("FINANCE_RENDER_CPU_SECONDS")
    return ChildBudget(
        memory_bytes=int(setting("FINANCE_RENDER_MEMORY_MB") * MB),
        cpu_seconds=cpu,
        wall_seconds=cpu * 2,
    )
