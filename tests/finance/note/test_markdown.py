"""The note as Markdown: links to absolute URLs, derivations as footnotes, tables that hold."""

from __future__ import annotations

import re

from finance.note.links import PathLinks
from finance.note.markdown import escape_markdown, render_markdown
from finance.note.model import Note
from tests.finance.note.sample import SEC_URL, sample_note

APP = "https://research.example.com"
REVENUE_URL = (
    f"{APP}/finance/documents/7/pages/37/?box=310.5,212,352.25,221.5&label=Revenue%20FY2024"
)


def _markdown(data=None) -> str:
    return render_markdown(Note.from_dict(data or sample_note()), PathLinks(APP))


def _footnote(markdown: str, label: str) -> str:
    start = markdown.index(f"[^{label}]: ")
    end = markdown.find("\n\n[^", start + 1)
    return markdown[start : end if end != -1 else None]


def test_title_and_sections_are_headings():
    markdown = _markdown()
    assert markdown.startswith("# Acme Corp: margins keep widening\n")
    assert "\n## Income statement\n" in markdown


def test_numbers_link_to_absolute_page_viewer_and_api_urls():
    markdown = _markdown()
    assert f"Revenue grew to [11,692.7]({REVENUE_URL}) million" in markdown
    assert f"Shares outstanding: [412.5m]({SEC_URL})" in markdown


def test_derived_number_is_a_footnote_with_formula_and_linked_inputs():
    markdown = _markdown()
    assert "gross margin reached 38.2%[^d1]" in markdown
    note = _footnote(markdown, "d1")
    assert note.startswith("[^d1]: **Gross margin FY2024** = Gross profit / Revenue")
    assert f"    - Revenue FY2024: [11,692.7]({REVENUE_URL})" in note
    change = _footnote(markdown, "d2")
    assert "    - Gross margin FY2024: 38.2%[^d1]" in change
    assert "    - Gross margin FY2023: 37.0%[^d3]" in change
    assert markdown.count("[^d3]: ") == 1


def test_assumption_is_a_footnote_in_the_assumptions_appendix():
    markdown = _markdown()
    assert "a tax rate of 21%[^a1]." in markdown
    appendix = markdown[markdown.index("## Assumptions") :]
    assert "[^a1]: Effective tax rate of 21% from FY2025" in appendix


def test_table_is_a_pipe_table_with_numbers_right_aligned():
    markdown = _markdown()
    assert "| Line item | FY2024 | FY2023 |\n| :--- | ---: | ---: |\n" in markdown
    assert f"| Revenue | [11,692.7]({REVENUE_URL}) |" in markdown


def test_pipes_and_markup_in_table_cells_do_not_break_the_table():
    data = sample_note()
    table = data["sections"][1]["blocks"][0]
    table["columns"][0] = "Item | note"
    table["rows"][0][0] = "Revenue | net\nof [returns](javascript:x) <b>"
    markdown = _markdown(data)
    rows = [line for line in markdown.splitlines() if line.startswith("| Revenue")]
    assert rows == [rows[0]]
    assert rows[0].startswith(r"| Revenue \| net of \[returns\](javascript:x) \<b\> | [11,692.7](")
    header = next(line for line in markdown.splitlines() if line.startswith("| Item"))
    assert header == r"| Item \| note | FY2024 | FY2023 |"


def test_chart_becomes_a_table_of_its_data():
    markdown = _markdown()
    assert (
        "**Chart: Gross and operating margin** (%)\n\n"
        "|  | Gross margin | Operating margin |\n"
        "| :--- | ---: | ---: |\n"
        "| FY2022 | 36.1% | 11.4% |\n"
        "| FY2023 | 37% | n/a |\n"
        "| FY2024 | 38.2% | 13% |"
    ) in markdown
    assert "![" not in markdown


def test_quote_credits_its_page():
    markdown = _markdown()
    assert "> Pricing actions more than offset input cost inflation.\n>\n> — [Acme Corp" in markdown


def test_sources_appendix_lists_pages_once_and_the_api_with_retrieval_time():
    sources = _markdown().split("## Sources", 1)[1]
    assert re.findall(r"\[Acme Corp 10-K 2024, p\. (\d+)\]", sources) == ["30", "38", "82"]
    assert f"- SEC EDGAR: <{SEC_URL}> (retrieved 2025-02-14T09:30:00+00:00)" in sources


def test_escape_markdown_neutralises_emphasis_links_and_html():
    assert escape_markdown("*a* _b_ [c](d) <e> `f` #g") == (r"\*a\* \_b\_ \[c\](d) \<e\> \`f\` \#g")
