"""The page-viewer URLs that numbers from filings link to."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from finance.note.links import PathLinks


def test_page_url_carries_the_box_and_label():
    url = PathLinks().page(7, 37, (310.5, 212.0, 352.25, 221.5), "Revenue FY2024")
    assert url == "/finance/documents/7/pages/37/?box=310.5,212,352.25,221.5&label=Revenue%20FY2024"


def test_absolute_prefix_and_awkward_label_are_encoded():
    url = PathLinks("https://research.example.com/").page(3, 0, None, 'R&D "costs" #1 / 50%')
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "research.example.com",
        "/finance/documents/3/pages/0/",
    )
    assert parse_qs(parts.query) == {"label": ['R&D "costs" #1 / 50%']}
    assert "box" not in url


def test_page_without_box_or_label_has_no_query():
    assert PathLinks().page(1, 2, None, "") == "/finance/documents/1/pages/2/"
