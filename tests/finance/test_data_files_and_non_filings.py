"""CSV data files and PDFs that are no filing: refused with the reason when unusable, labelled
(not mistaken for a broken filing) when asked for statements, and described in the panel."""

from __future__ import annotations

import pytest
from django.urls import reverse

from finance.models import Document
from finance.services.documents import cache_dir
from tests.finance.test_documents_api import stored_files
from tests.finance.uploads import media_root, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "upload"]  # fixtures


def plain_pdf() -> bytes:
    """A PDF of prose: no cover page, no statements."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for item in range(20):
        pdf.cell(
            0, 8, f"Minutes of the garden club meeting, item {item}.", new_x="LMARGIN", new_y="NEXT"
        )
    return bytes(pdf.output())


IDENTITY_FAILED = "assets 19,012.7 ≠ liabilities + equity 19,000.1"


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, kind="finance")


@pytest.fixture(autouse=True)
def own_caches(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"


def test_a_csv_whose_price_column_is_not_numeric_is_refused_with_the_reason(
    alice_api, workspace, upload
):
    data = b"Date,Close\n2024-01-02,101.5\n2024-01-03,about 100\n2024-01-04,see note\n"

    response = upload(alice_api, workspace, "prices.csv", data)

    assert response.status_code == 400
    assert response.json() == {
        "detail": "the CSV's price column 'Close' is not numeric: row 2 holds 'about 100'; prices "
        "must be numbers such as 101.25"
    }
    assert Document.objects.count() == 0 and stored_files() == []
    assert not (cache_dir("documents")).exists() or not any(cache_dir("documents").iterdir())


def test_prices_as_printed_with_thousands_separators_are_numbers(alice_api, workspace, upload):
    data = b'Date,Close\n2024-01-02,"1,101.50"\n2024-01-03,$1102\n2024-01-04,\n'

    response = upload(alice_api, workspace, "prices.csv", data)

    assert response.status_code == 202 and response.after["status"] == "ready"


def test_the_statements_of_a_csv_say_it_is_a_data_file(alice_api, workspace, upload):
    response = upload(
        alice_api, workspace, "prices.csv", b"Date,Close\n2024-01-02,1\n2024-01-03,2\n"
    )

    statements = alice_api.get(f"/api/v1/finance/documents/{response.after['id']}/statements")

    assert statements.status_code == 200
    body = statements.json()
    assert body["document"] == "prices.csv" and body["kind"] == "csv"
    assert body["doc_type"] == "data file" and body["applicable"] is False
    assert "CSV data file, not a filing" in body["note"] and "XBRL" not in body["note"]
    assert body["income_statement"] == {} and body["unverified"] == {}


def test_the_statements_of_a_pdf_that_is_no_filing_are_not_applicable(alice_api, workspace, upload):
    response = upload(alice_api, workspace, "minutes.pdf", plain_pdf())
    assert response.after["status"] == "ready"

    statements = alice_api.get(f"/api/v1/finance/documents/{response.after['id']}/statements")

    assert statements.status_code == 200
    body = statements.json()
    assert body["document"] == "minutes.pdf" and body["kind"] == "pdf"
    assert body["doc_type"] == "other" and body["applicable"] is False
    assert body["note"].startswith("minutes.pdf is not a financial filing (document type: other)")
    assert body["income_statement"] == body["balance_sheet"] == body["cash_flow"] == {}
    stored = Document.objects.get(pk=response.after["id"])
    assert stored.sections["profile"]["doc_type"] == "other"


def test_the_document_list_shows_type_company_and_unverified_periods(alice, client, workspace):
    Document.objects.create(
        workspace=workspace, name="nflx.pdf", sha256="4" * 64, status="ready", pages=73,
        company="Netflix, Inc.",
        sections={"profile": {"doc_type": "10-K", "company": "Netflix, Inc.", "fiscal_year": 2017}},
        statements={
            "doc_type": "10-K",
            "unverified": {"balance_sheet": {"FY2017": IDENTITY_FAILED}},
        },
    )  # fmt: skip
    Document.objects.create(
        workspace=workspace, name="prices.csv", sha256="5" * 64, status="ready", kind="csv",
        sections={"columns": ["Date", "Close"], "rows": 2},
    )  # fmt: skip
    client.force_login(alice)

    html = client.get(reverse("finance-documents-fragment", args=[workspace.pk])).content.decode()

    assert '<span class="fin-doc-type">10-K</span>' in html
    assert '<span class="fin-doc-company">Netflix, Inc.</span> · FY2017' in html
    assert '<span class="fin-doc-type">data file</span>' in html
    assert (
        '<span class="fin-flag">unverified</span> Balance sheet FY2017: '
        "assets 19,012.7 ≠ liabilities + equity 19,000.1"
    ) in html
