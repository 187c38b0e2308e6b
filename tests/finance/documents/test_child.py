"""The bounded child: what its caller hears when it refuses, runs out of memory or time, or
breaks; and that nothing of its memory lands in the caller."""

from __future__ import annotations

import resource

import pytest

from finance.documents.child import ChildBudget, ChildLimitExceeded, run_child
from finance.documents.errors import DocumentError
from tests.finance.pdf_bombs import huge_page_pdf

BUDGET = ChildBudget(memory_bytes=512 << 20, cpu_seconds=20, wall_seconds=40)


@pytest.fixture
def huge_page(tmp_path):
    path = tmp_path / "huge.pdf"
    path.write_bytes(huge_page_pdf(14400))
    return str(path)


def render(path: str, *, max_pixels: int, page: int = 0) -> dict[str, object]:
    return {"command": "render", "path": path, "page": page, "scale": 3, "max_pixels": max_pixels}


def test_a_render_past_its_memory_is_stopped_in_the_child(huge_page):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    with pytest.raises(ChildLimitExceeded, match="more than its 512 MB of memory"):
        run_child(render(huge_page, max_pixels=43200**2), budget=BUDGET, what="rendering")

    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50 * 1024


def test_a_refusal_comes_back_as_its_message(huge_page):
    with pytest.raises(DocumentError, match="the page cannot be rendered"):
        run_child(render(huge_page, max_pixels=10**6, page=5), budget=BUDGET, what="rendering")


def test_a_child_that_breaks_says_internal_error_and_shows_no_traceback(huge_page):
    with pytest.raises(DocumentError) as caught:
        run_child({"command": "no such job"}, budget=BUDGET, what="rendering")

    assert str(caught.value) == "rendering failed because of an internal error (exit status 1)"
    assert not isinstance(caught.value, ChildLimitExceeded)


def test_a_child_past_its_wall_clock_is_killed(huge_page):
    budget = ChildBudget(memory_bytes=512 << 20, cpu_seconds=20, wall_seconds=0.05)

    with pytest.raises(ChildLimitExceeded, match="time budget"):
        run_child(render(huge_page, max_pixels=10**6), budget=budget, what="rendering")
