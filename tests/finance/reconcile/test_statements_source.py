"""Canonical PDF statements as a FigureSet: Netflix's FY2017 10-K PDF (recorded), and how figures
without printed dates are matched to Apple's recorded companyfacts."""

from __future__ import annotations

import datetime as dt

import pytest

from finance.reconcile import (
    StatementFigure,
    Status,
    figures_from_companyfacts,
    figures_from_statements,
    fiscal_calendar_from_companyfacts,
    reconcile_sources,
)
from finance.reconcile.fiscal import FiscalCalendar
from finance.reconcile.statements_source import printed_precision, statement_cells
from tests.finance.statements.helpers import statements

NETFLIX_CALENDAR = FiscalCalendar(dt.date(2017, 12, 31), 2017)


@pytest.fixture(scope="module")
def netflix():
    return statements("NETFLIX_2017_10K").to_dict()


def test_netflix_figures_cite_document_page_and_box(netflix):
    figures = figures_from_statements(netflix)
    assert figures.name == "10-K PDF"
    assert figures.location == "NETFLIX_2017_10K.pdf"
    revenue = figures.figures[("Revenues", 2017)]
    assert isinstance(revenue, StatementFigure)
    assert revenue.value == pytest.approx(11_692.713)
    # Netflix prints thousands: "11,692,713" is exact to $0.001M.
    assert revenue.precision == pytest.approx(0.0005)
    assert revenue.citation == "NETFLIX_2017_10K.pdf p. 42"  # 0-indexed page 41 in the JSON
    assert (revenue.page, revenue.statement) == (42, "income_statement")
    assert revenue.line_item == "revenue"
    assert len(revenue.bbox) == 4
    assert revenue.bbox == tuple(netflix["income_statement"]["revenue"]["FY2017"]["bbox"])


def test_netflix_concepts_years_and_signs(netflix):
    figures = figures_from_statements(netflix)
    assert {year for _, year in figures.figures} == {2015, 2016, 2017}
    assert figures.figures[("NetIncomeLoss", 2016)].value == pytest.approx(186.678)
    assert figures.figures[("Assets", 2017)].value == pytest.approx(19_012.742)
    assert figures.figures[("Assets", 2017)].citation == "NETFLIX_2017_10K.pdf p. 45"
    # capital expenditure is a positive spend, as in companyfacts; cash flows keep their sign
    assert figures.figures[("PaymentsToAcquirePropertyPlantAndEquipment", 2017)].value > 0
    assert figures.figures[("NetCashProvidedByUsedInOperatingActivities", 2017)].value < 0
    assert ("Assets", 2015) not in figures.figures  # the balance sheet shows two years
    cells = statement_cells(figures)
    assert cells[("LongTermDebtNoncurrent", 2017)].line_item == "long_term_debt"


def test_periods_from_a_fiscal_calendar(netflix):
    figures = figures_from_statements(netflix, calendar=NETFLIX_CALENDAR, document_id="NFLX-10K")
    revenue = figures.figures[("Revenues", 2016)]
    assert (revenue.start, revenue.end) == (dt.date(2016, 1, 1), dt.date(2016, 12, 31))
    assert revenue.period_known is True
    assert revenue.citation == "NFLX-10K p. 42"
    assets = figures.figures[("Assets", 2017)]
    assert (assets.start, assets.end) == (None, dt.date(2017, 12, 31))


@pytest.mark.parametrize(
    ("value", "precision"), [(11_692.7, 0.05), (3_000.0, 0.5), (391_035.0, 0.5), (1.577, 0.0005)]
)
def test_precision_is_half_the_last_printed_digit(value, precision):
    assert printed_precision(value) == pytest.approx(precision)


# A canonical-statements dict in the extractor's JSON shape with Apple's FY2024 figures. Apple files
# no PDF here; page numbers and boxes are made up, the values are Apple's reported ones.
APPLE_SHAPE = {
    "document": "APPLE_2024_10K.pdf",
    "fiscal_years": ["FY2024", "FY2023"],
    "income_statement": {
        "net_income": {
            "FY2024": {"value": 93_736.0, "page": 27, "bbox": [400.0, 300.0, 450.0, 310.0]},
            "FY2023": {"value": 95_000.0, "page": 27, "bbox": [460.0, 300.0, 510.0, 310.0]},
        }
    },
    "balance_sheet": {
        "total_assets": {"FY2024": {"value": 364_980.0, "page": 29, "bbox": [1, 2, 3, 4]}}
    },
    "cash_flow": {},
}


def test_pdf_figures_without_dates_match_by_fiscal_year(apple_companyfacts):
    # Without a calendar the PDF's year is all we know: Apple's September year still lines up,
    # and a difference is not blamed on the nominal 31 December dates.
    pdf = figures_from_statements(APPLE_SHAPE)
    assert pdf.figures[("NetIncomeLoss", 2024)].period_known is False
    table = reconcile_sources(
        [2024, 2023], filing=pdf, companyfacts=figures_from_companyfacts(apple_companyfacts)
    )
    assert table.row("Net income", 2024).status is Status.AGREE
    assert table.row("Total assets", 2024).status is Status.AGREE
    off = table.row("Net income", 2023)
    assert off.status is Status.DISCREPANCY
    assert (off.cause, off.explanation) == (None, "unexplained difference")
    assert off.values == {"sec_companyfacts": 96_995, "10-K PDF": 95_000}
    assert off.citations["10-K PDF"] == "APPLE_2024_10K.pdf p. 28"


def test_calendar_from_companyfacts_gives_apple_period_ends(apple_companyfacts):
    calendar = fiscal_calendar_from_companyfacts(apple_companyfacts)
    pdf = figures_from_statements(APPLE_SHAPE, calendar=calendar)
    net_income = pdf.figures[("NetIncomeLoss", 2024)]
    reported = apple_companyfacts.annual[("NetIncomeLoss", 2024)]
    assert abs((net_income.end - reported.end).days) <= 7
    assert abs((net_income.start - reported.start).days) <= 7
