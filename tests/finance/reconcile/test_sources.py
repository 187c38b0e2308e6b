"""Three-way reconciliation on Apple FY2024: the 10-K's inline XBRL, SEC companyfacts (both
recorded) and Yahoo-shaped statement frames (a shape fixture, see ``yahoo_shape``)."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from finance.reconcile import (
    KEY_METRICS,
    Cause,
    Status,
    figures_from_companyfacts,
    figures_from_filing,
    figures_from_yahoo,
    reconcile_sources,
    table_records,
)
from tests.finance.reconcile.yahoo_shape import apple_frames

RETRIEVED = dt.datetime(2025, 11, 3, tzinfo=dt.UTC)
YAHOO_URL = "https://finance.yahoo.com/quote/AAPL/financials"


def yahoo(**changes):
    return figures_from_yahoo(apple_frames(**changes), retrieved_at=RETRIEVED, location=YAHOO_URL)


@pytest.fixture(scope="module")
def filing(apple_10k):
    return figures_from_filing(apple_10k, "10-K", "APPLE_2024_10K.html")


@pytest.fixture(scope="module")
def companyfacts(apple_companyfacts):
    return figures_from_companyfacts(apple_companyfacts)


def test_yahoo_frames_become_figures_in_millions_with_positive_capex():
    figures = yahoo()
    revenue = figures.find(KEY_METRICS[0].concepts, 2024)
    assert revenue is not None and revenue.value == 391_035
    assert revenue.end == dt.date(2024, 9, 30)
    assert "'Total Revenue'" in revenue.citation and "2025-11-03" in revenue.citation
    capex = figures.figures[("PaymentsToAcquirePropertyPlantAndEquipment", 2023)]
    assert capex.value == 10_959
    assert figures.figures[("Assets", 2024)].start is None  # balance sheet: an instant
    # Rows whose definition differs name the yfinance row, so a difference is explained.
    assert figures.figures[("OperatingIncomeLoss", 2024)].concept == "yfinance 'Operating Income'"
    assert figures.figures[("NetIncomeLoss", 2024)].concept == "NetIncomeLoss"


def test_every_key_metric_agrees_across_the_three_sources(filing, companyfacts):
    table = reconcile_sources([2024, 2023], filing=filing, companyfacts=companyfacts, yahoo=yahoo())
    assert table.reference == "sec_companyfacts"
    assert table.sources == ("sec_companyfacts", "10-K", "yahoo_finance")
    assert {r.metric for r in table.rows} == {m.name for m in KEY_METRICS}
    for row in table.rows:
        assert row.status is Status.AGREE, (row.metric, row.fiscal_year, row.explanation)
    row = table.row("Net income", 2024)
    assert row.values == {"sec_companyfacts": 93_736, "10-K": 93_736, "yahoo_finance": 93_736}
    assert "APPLE_2024_10K.html" in row.citations["10-K"]
    assert "0000320193-2" in row.citations["sec_companyfacts"]
    assert "Net Income" in row.citations["yahoo_finance"]


def test_a_yahoo_value_off_by_a_different_definition_is_explained(filing, companyfacts):
    table = reconcile_sources(
        [2024],
        filing=filing,
        companyfacts=companyfacts,
        yahoo=yahoo(Operating_Income=(125_216, 114_301)),
    )
    row = table.row("Operating income", 2024)
    assert row.status is Status.DISCREPANCY
    assert row.cause is Cause.DIFFERENT_DEFINITION
    assert row.relative_difference["yahoo_finance"] == pytest.approx(2_000 / 123_216)
    assert row.relative_difference["10-K"] == 0
    assert "OperatingIncomeLoss" in row.explanation
    assert "yfinance 'Operating Income'" in row.explanation
    assert "standardised operating income" in row.explanation


def test_a_same_definition_value_that_differs_is_left_unexplained(filing, companyfacts):
    table = reconcile_sources(
        [2024], filing=filing, companyfacts=companyfacts, yahoo=yahoo(Net_Income=(93_000, 96_995))
    )
    row = table.row("Net income", 2024)
    assert row.status is Status.DISCREPANCY
    assert row.cause is None
    assert row.explanation == "unexplained difference"
    assert table.row("Total assets", 2024).status is Status.AGREE


def test_filing_is_the_reference_without_companyfacts(filing):
    table = reconcile_sources([2024], filing=filing, yahoo=yahoo())
    assert table.reference == "10-K"
    assert table.row("Revenue", 2024).status is Status.AGREE


def test_records_are_plain_json_with_cause_and_citations(filing, companyfacts):
    table = reconcile_sources(
        [2024],
        filing=filing,
        companyfacts=companyfacts,
        yahoo=yahoo(Operating_Income=(125_216, 114_301)),
    )
    records = table_records(table)
    decoded = json.loads(json.dumps(records, allow_nan=False))
    record = next(r for r in decoded if r["metric"] == "Operating income")
    assert record["fiscal_year"] == 2024
    assert record["reference"] == "sec_companyfacts"
    assert record["values"]["yahoo_finance"] == 125_216
    assert record["status"] == "discrepancy"
    assert record["cause"] == "different definition"
    assert record["tolerance"] == 0.001
    assert set(record["citations"]) == {"sec_companyfacts", "10-K", "yahoo_finance"}


def test_needs_a_reference_and_a_second_source(filing):
    with pytest.raises(ValueError, match="reference"):
        reconcile_sources([2024], yahoo=yahoo())
    with pytest.raises(ValueError, match="two sources"):
        reconcile_sources([2024], filing=filing)


def test_a_yahoo_row_is_not_blamed_on_a_tag_it_never_had(filing, companyfacts):
    # companyfacts tags Apple's cost of sales CostOfGoodsAndServicesSold; Yahoo's "Cost Of
    # Revenue" is the same line, so a difference stays unexplained, not "different definition".
    table = reconcile_sources(
        [2024],
        filing=filing,
        companyfacts=companyfacts,
        yahoo=yahoo(Cost_Of_Revenue=(200_000, 214_137)),
    )
    row = table.row("Cost of revenue", 2024)
    assert row.status is Status.DISCREPANCY
    assert (row.cause, row.explanation) == (None, "unexplained difference")
