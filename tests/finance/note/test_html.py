"""The note as the HTML a reader sees: every number a link to where it came from."""

from __future__ import annotations

import base64
import io
import re
from html.parser import HTMLParser

from PIL import Image

from finance.note.html import render_html
from finance.note.links import PathLinks
from finance.note.model import Note
from tests.finance.note.sample import SEC_URL, sample_note


def _html(data=None) -> str:
    return render_html(Note.from_dict(data or sample_note()), PathLinks())


class _Elements(HTMLParser):
    """Start tags with their attributes, and the text inside each <a>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.links: list[tuple[dict[str, str], str]] = []
        self._open: dict[str, str] | None = None
        self._text = ""

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        self.tags.append((tag, attributes))
        if tag == "a":
            self._open, self._text = attributes, ""

    def handle_data(self, data):
        if self._open is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "a" and self._open is not None:
            self.links.append((self._open, self._text))
            self._open = None


def _parse(html: str) -> _Elements:
    parser = _Elements()
    parser.feed(html)
    return parser


def _numbers(html: str, display: str) -> list[dict[str, str]]:
    return [a for a, text in _parse(html).links if a.get("class") == "num" and text == display]


def test_document_number_links_to_the_page_viewer_with_its_box():
    revenue = _numbers(_html(), "11,692.7")
    assert revenue, "revenue is not rendered as a number link"
    assert revenue[0]["href"] == (
        "/finance/documents/7/pages/37/?box=310.5,212,352.25,221.5&label=Revenue%20FY2024"
    )
    assert revenue[0]["data-kind"] == "document"
    assert "p. 38" in revenue[0]["title"]  # people count pages from 1


def test_api_number_links_to_the_api_and_says_who_and_when():
    (shares,) = _numbers(_html(), "412.5m")
    assert shares["href"] == SEC_URL
    assert shares["data-kind"] == "api"
    assert "SEC EDGAR" in shares["title"] and "2025-02-14T09:30:00+00:00" in shares["title"]


def test_derived_number_links_to_its_entry_showing_formula_and_linked_inputs():
    html = _html()
    margin = _numbers(html, "38.2%")[0]
    assert margin["data-kind"] == "derived"
    anchor = margin["href"].removeprefix("#")
    entry = re.search(rf'<li id="{anchor}">(.*?)</ul></li>', html).group(1)
    assert "Gross profit / Revenue" in entry
    inputs = _parse(entry).links
    assert [(a["href"], text) for a, text in inputs] == [
        (
            "/finance/documents/7/pages/37/?box=310.5,260,352.25,269.5&label=Gross%20profit%20FY2024",
            "4,466.2",
        ),
        (
            "/finance/documents/7/pages/37/?box=310.5,212,352.25,221.5&label=Revenue%20FY2024",
            "11,692.7",
        ),
    ]


def test_derivations_of_derivations_are_listed_once_each():
    html = _html()
    entries = re.findall(r'<li id="(note-derived-\d+)"><strong>([^<]*)</strong>', html)
    assert [label for _, label in entries] == [
        "Gross margin FY2024",
        "Gross margin change",
        "Gross margin FY2023",
    ]
    change = _numbers(html, "+1.2 pp")[0]
    change_entry = re.search(rf'<li id="{change["href"][1:]}">(.*?)</ul></li>', html).group(1)
    hrefs = {a["href"] for a, _ in _parse(change_entry).links}
    assert hrefs == {"#note-derived-1", "#note-derived-3"}  # inputs link to their own entries


def test_assumption_links_to_the_assumptions_appendix():
    html = _html()
    (tax,) = _numbers(html, "21%")
    assert tax["data-kind"] == "assumption"
    assert f'<li id="{tax["href"][1:]}">Effective tax rate of 21% from FY2025</li>' in html


def test_sources_appendix_lists_each_page_and_api_once():
    html = _html()
    sources = html[html.index('<section id="note-sources"') :]
    assert sources.count("Acme Corp 10-K 2024, p. 38") == 1  # cited by many numbers
    assert re.findall(r"p\. (\d+)</a>", sources) == ["30", "38", "82"]
    assert f'SEC EDGAR: <a href="{SEC_URL}">' in sources
    assert "retrieved" in sources and "2025-02-14T09:30:00+00:00" in sources


def test_article_has_sections_contents_and_a_captioned_table():
    html = _html()
    parsed = _parse(html)
    assert html.startswith('<article class="research-note">') and html.endswith("</article>")
    section_ids = [a["id"] for tag, a in parsed.tags if tag == "section"]
    assert section_ids[:3] == ["summary", "income-statement", "management"]
    toc = html[html.index('<nav class="toc"') : html.index("</nav>")]
    assert [a["href"] for a, _ in _parse(toc).links] == [f"#{i}" for i in section_ids]
    assert "<caption>Income statement (USD millions)</caption>" in html
    assert '<th scope="row">Revenue</th><td class="numeric" style="text-align: right">' in html


def test_quote_is_a_blockquote_citing_its_page():
    html = _html()
    quote = re.search(r"<blockquote>(.*?)</blockquote>", html).group(1)
    assert "Pricing actions more than offset input cost inflation." in quote
    ((link, text),) = _parse(quote).links
    assert text == "Acme Corp 10-K 2024, p. 30"
    assert link["href"] == "/finance/documents/7/pages/29/?box=72,400,540,430&label=MD%26A"


def test_chart_is_an_inline_png_with_descriptive_alt_text():
    html = _html()
    (img,) = [a for tag, a in _parse(html).tags if tag == "img"]
    assert img["src"].startswith("data:image/png;base64,")
    png = Image.open(io.BytesIO(base64.b64decode(img["src"].split(",", 1)[1])))
    assert png.format == "PNG"
    assert img["alt"].startswith("Line chart of Gross and operating margin for FY2022 to FY2024")
    assert "Operating margin: FY2022 11.4%, FY2023 n/a" in img["alt"]


def test_text_from_the_note_cannot_inject_markup():
    evil = '<script>alert("x")</script>'
    data = sample_note()
    data["title"] = evil
    data["sections"][0]["heading"] = evil
    revenue = data["sections"][0]["blocks"][0]["content"][1]["number"]
    revenue["display"] = evil
    revenue["source"]["label"] = '"><img src=x onerror=alert(1)>'
    revenue["source"]["document"] = evil
    data["sections"][1]["blocks"][0]["columns"][0] = evil
    data["sections"][1]["blocks"][1]["series"][0]["name"] = '" onerror="alert(1)'
    html = _html(data)
    assert "<script>" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert [tag for tag, _ in _parse(html).tags].count("img") == 1  # only the chart
    assert not any("onerror" in attrs for _, attrs in _parse(html).tags)
