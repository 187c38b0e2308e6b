from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from finance.reconcile import (
    KEY_METRICS,
    Cause,
    Figure,
    FigureSet,
    Metric,
    Status,
    figures_from_companyfacts,
    figures_from_filing,
    reconcile,
    reconcile_filing_with_companyfacts,
)
from finance.reconcile.fiscal import FiscalCalendar, scale_to_millions
from finance.reconcile.table import PriorValue

TAX_OTHER = Metric(
    "Other income tax reconciling items", ("IncomeTaxReconciliationOtherAdjustments",)
)
DEFERRED_REVENUE = Metric(
    "Deferred revenue recognised", ("ContractWithCustomerLiabilityRevenueRecognized",)
)


@pytest.fixture(scope="module")
def apple_table(apple_10k, apple_companyfacts):
    return reconcile_filing_with_companyfacts(
        apple_10k,
        apple_companyfacts,
        [2024, 2023],
        [*KEY_METRICS, TAX_OTHER, DEFERRED_REVENUE],
        filing_location="APPLE_2024_10K.html",
    )


@pytest.mark.parametrize(
    ("metric", "year", "value"),
    [
        ("Revenue", 2024, 391_035),
        ("Net income", 2024, 93_736),
        ("Total assets", 2024, 364_980),
        ("Total liabilities", 2024, 308_030),
        ("Shareholders' equity", 2024, 56_950),
        ("Gross profit", 2024, 180_683),
        ("Operating income", 2024, 123_216),
        ("Cost of revenue", 2024, 210_352),
        ("Operating cash flow", 2024, 118_254),
        ("Capital expenditure", 2024, 9_447),
        ("Revenue", 2023, 383_285),
        ("Net income", 2023, 96_995),
        ("Total assets", 2023, 352_583),
    ],
)
def test_apple_key_figures_agree(apple_table, metric, year, value):
    row = apple_table.row(metric, year)
    assert row.status is Status.AGREE, row.explanation
    assert row.values == {"sec_companyfacts": value, "10-K": value}
    assert row.relative_difference["10-K"] == 0
    assert "0000320193-2" in row.citations["sec_companyfacts"]
    assert "APPLE_2024_10K.html" in row.citations["10-K"]


def test_every_key_metric_agrees_for_fy2024_and_fy2023(apple_table):
    for row in apple_table.rows:
        if row.metric in {TAX_OTHER.name}:
            continue
        assert row.status is Status.AGREE, (row.metric, row.fiscal_year, row.explanation)


def test_real_recast_in_a_later_10k_is_explained_as_restatement(apple_table):
    # The FY2025 10-K (filed 2025-10-31) recast FY2024's "other" tax reconciling items from
    # $10M, as the FY2024 10-K reported, to $279M. companyfacts keeps the latest filing.
    row = apple_table.row(TAX_OTHER.name, 2024)
    assert row.values == {"sec_companyfacts": 279, "10-K": 10}
    assert row.status is Status.DISCREPANCY
    assert row.cause is Cause.RESTATEMENT
    assert "0000320193-24-000123" in row.explanation  # the original filing
    assert "0000320193-25-000079" in row.explanation  # the restating filing
    assert apple_table.row(TAX_OTHER.name, 2023).cause is Cause.RESTATEMENT


def test_reported_rounding_widens_the_tolerance(apple_table):
    # The 10-K says "$7.7 billion" (decimals=-8); the FY2025 10-K gives 7,728 $M.
    row = apple_table.row(DEFERRED_REVENUE.name, 2024)
    assert row.values == {"sec_companyfacts": 7_728, "10-K": 7_700}
    assert row.status is Status.AGREE


def test_altered_value_is_a_discrepancy(apple_10k, apple_companyfacts):
    filing = figures_from_filing(apple_10k)
    figures = dict(filing.figures)
    key = ("NetIncomeLoss", 2024)
    figures[key] = dataclasses.replace(figures[key], value=93_000)
    altered = FigureSet("10-K (altered)", figures)
    table = reconcile([figures_from_companyfacts(apple_companyfacts), altered], [2024])
    row = table.row("Net income", 2024)
    assert row.status is Status.DISCREPANCY
    assert row.cause is None
    assert row.explanation == "unexplained difference"
    assert row.relative_difference["10-K (altered)"] == pytest.approx(-736 / 93_736)
    assert table.row("Revenue", 2024).status is Status.AGREE


def test_concept_in_one_source_only_is_missing(apple_10k, apple_companyfacts):
    filing = figures_from_filing(apple_10k)
    figures = {k: v for k, v in filing.figures.items() if k[0] != "GrossProfit"}
    table = reconcile(
        [figures_from_companyfacts(apple_companyfacts), FigureSet("10-K", figures)], [2024]
    )
    row = table.row("Gross profit", 2024)
    assert row.status is Status.MISSING
    assert row.values["10-K"] is None
    assert row.explanation == "missing in 10-K"


def _figure(value, concept="Revenues", end=dt.date(2024, 9, 28), start=dt.date(2023, 10, 1), **kw):
    return Figure(value=value, concept=concept, end=end, start=start, **kw)


def test_constructed_restatement_period_mismatch_and_definition():
    metric = Metric("Revenue", ("Revenues", "SalesRevenueNet"))
    reference = FigureSet(
        "sec",
        {
            ("Revenues", 2024): _figure(
                110.0,
                citation="10-K/A",
                history=(PriorValue(100.0, "original 10-K"), PriorValue(110.0, "10-K/A")),
            )
        },
    )
    original = FigureSet("vendor", {("Revenues", 2024): _figure(100.0)})
    table = reconcile([reference, original], [2024], [metric])
    row = table.row("Revenue", 2024)
    assert row.cause is Cause.RESTATEMENT and "original 10-K" in row.explanation

    shifted = FigureSet(
        "calendarised",
        {("Revenues", 2024): _figure(105.0, start=dt.date(2024, 1, 1), end=dt.date(2024, 12, 31))},
    )
    row = reconcile([reference, shifted], [2024], [metric]).row("Revenue", 2024)
    assert row.cause is Cause.PERIOD_MISMATCH

    other_concept = FigureSet(
        "other", {("SalesRevenueNet", 2024): _figure(90.0, "SalesRevenueNet")}
    )
    row = reconcile([reference, other_concept], [2024], [metric]).row("Revenue", 2024)
    assert row.cause is Cause.DIFFERENT_DEFINITION
    assert "SalesRevenueNet" in row.explanation


def test_three_sources_and_table_output():
    metric = Metric("Revenue", ("Revenues",))
    a = FigureSet("a", {("Revenues", 2024): _figure(100.0)})
    b = FigureSet("b", {("Revenues", 2024): _figure(100.05)})
    c = FigureSet("c", {})
    table = reconcile([a, b, c], [2024], [metric], tolerance=0.001)
    row = table.row("Revenue", 2024)
    assert row.status is Status.MISSING and row.explanation == "missing in c"
    assert row.relative_difference["b"] == pytest.approx(0.0005)
    assert "Revenue | 2024 | 100 | 100 | — | missing" in table.to_text()
    assert table.as_records()[0]["status"] == "missing"
    with pytest.raises(ValueError):
        reconcile([a], [2024], [metric])


def test_fiscal_calendar_and_units():
    apple = FiscalCalendar(anchor_end=dt.date(2024, 9, 28), anchor_fiscal_year=2024)
    assert apple.fiscal_year(dt.date(2023, 9, 30)) == 2023  # 53-week-year quirks
    assert apple.fiscal_year(dt.date(2022, 9, 24)) == 2022
    assert apple.fiscal_year(dt.date(2025, 9, 27)) == 2025
    assert scale_to_millions(391_035_000, "thousands") == 391_035
    assert scale_to_millions(391_035_000_000, 0) == 391_035
    assert scale_to_millions(7.7, 9) == pytest.approx(7_700)
