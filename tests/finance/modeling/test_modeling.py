"""finance.modeling: hand-checked ratios, DCF, price metrics and macro spreads."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped,unused-ignore]
import pytest

from finance.modeling import (
    Derived,
    Missing,
    cagr,
    compute_ratios,
    dcf,
    dcf_sensitivity,
    growth_vs_macro,
    net_debt,
    price_metrics,
    ratios,
)
from tests.conftest import SHARED_DATA


def _cells(values: dict[str, float], page: int) -> dict[str, dict[str, object]]:
    return {
        year: {"value": v, "page": page, "bbox": [1.0, 2.0, 3.0, 4.0]} for year, v in values.items()
    }


def synthetic() -> dict[str, Any]:
    return {
        "document": "SYNTH_2023_10K.pdf",
        "fiscal_years": ["FY2023", "FY2022"],
        "income_statement": {
            "revenue": _cells({"FY2023": 1000.0, "FY2022": 800.0, "FY2021": 640.0}, 10),
            "cost_of_revenue": _cells({"FY2023": 600.0, "FY2022": 500.0}, 10),
            "gross_profit": _cells({"FY2023": 400.0, "FY2022": 300.0}, 10),
            "operating_income": _cells({"FY2023": 150.0}, 10),
            "net_income": _cells({"FY2023": 100.0, "FY2022": 60.0}, 10),
        },
        "balance_sheet": {
            "total_assets": _cells({"FY2023": 2000.0, "FY2022": 1800.0}, 12),
            "shareholders_equity": _cells({"FY2023": 900.0, "FY2022": 700.0}, 12),
            "accounts_receivable": _cells({"FY2023": 120.0, "FY2022": 80.0}, 12),
            "inventories": _cells({"FY2023": 70.0, "FY2022": 50.0}, 12),
            "accounts_payable": _cells({"FY2023": 40.0, "FY2022": 20.0}, 12),
            "total_current_assets": _cells({"FY2023": 500.0}, 12),
            "total_current_liabilities": _cells({"FY2023": 300.0}, 12),
            "long_term_debt": _cells({"FY2023": 450.0}, 12),
            "cash_and_equivalents": _cells({"FY2023": 150.0}, 12),
            "total_liabilities": _cells({"FY2023": 1100.0}, 12),
        },
        "cash_flow": {
            "operating_cash_flow": _cells({"FY2023": 180.0}, 14),
            "capital_expenditure": _cells({"FY2023": 60.0}, 14),
        },
    }


def test_hand_checked_ratios():
    report = compute_ratios(synthetic(), "FY2023")
    d = report.derived
    assert d["gross_margin"].value == pytest.approx(0.40)
    assert d["gross_margin"].formula == "gross_profit / revenue"
    assert d["operating_margin"].value == pytest.approx(0.15)
    assert d["net_margin"].value == pytest.approx(0.10)
    assert d["revenue_growth"].value == pytest.approx(0.25)
    # ROE on average equity: 100 / ((700 + 900) / 2) = 0.125
    assert d["roe"].value == pytest.approx(0.125)
    assert "average(shareholders_equity FY2022, shareholders_equity FY2023)" in d["roe"].formula
    assert [i.value for i in d["roe"].inputs] == [100.0, 700.0, 900.0]
    assert d["roa"].value == pytest.approx(100 / 1900)
    assert d["asset_turnover"].value == pytest.approx(1000 / 1900)
    assert d["inventory_turnover"].value == pytest.approx(600 / 60)
    assert d["dso"].value == pytest.approx(36.5)  # avg AR 100 / 1000 * 365
    assert d["dio"].value == pytest.approx(36.5)  # avg inventory 60 / 600 * 365
    assert d["dpo"].value == pytest.approx(18.25)  # avg AP 30 / 600 * 365
    assert d["cash_conversion_cycle"].value == pytest.approx(54.75)
    assert d["working_capital"].value == pytest.approx(200.0)
    assert d["debt_to_equity"].value == pytest.approx(0.5)
    assert d["liabilities_to_assets"].value == pytest.approx(0.55)
    assert d["free_cash_flow"].value == pytest.approx(120.0)
    assert d["fcf_conversion"].value == pytest.approx(1.2)
    assert report.missing == {}
    # every input carries its citation
    cited = d["operating_margin"].to_dict()["inputs"][0]
    assert cited["citation"]["page"] == 10
    assert cited["citation"]["statement"] == "income_statement"
    assert cited["citation"]["document"] == "SYNTH_2023_10K.pdf"


def test_year_end_balance_when_no_prior_year():
    result = ratios.roe(synthetic(), "FY2022")
    assert isinstance(result, Derived)
    assert result.value == pytest.approx(60 / 700)
    assert "year-end FY2022; no prior year" in result.formula


def test_gross_margin_from_cost_of_revenue():
    data = synthetic()
    del data["income_statement"]["gross_profit"]
    result = ratios.gross_margin(data, "FY2023")
    assert isinstance(result, Derived)
    assert result.value == pytest.approx(0.40)
    assert result.formula == "(revenue - cost_of_revenue) / revenue"


def test_missing_input_gives_missing_record():
    data = synthetic()
    del data["cash_flow"]["capital_expenditure"]
    report = compute_ratios(data, "FY2023")
    assert "free_cash_flow" not in report.derived
    missing = report.missing["free_cash_flow"]
    assert isinstance(missing, Missing)
    assert "cash_flow.capital_expenditure" in missing.reason
    assert report.missing["fcf_conversion"].to_dict()["missing"] is True
    # operating income exists only for FY2023
    assert isinstance(ratios.operating_margin(data, "FY2022"), Missing)


def test_cagr():
    result = cagr(synthetic(), "FY2021", "FY2023")
    assert isinstance(result, Derived)
    assert result.value == pytest.approx(0.25)  # 640 -> 1000 over two years
    assert isinstance(cagr(synthetic(), "FY2019", "FY2023"), Missing)


def test_dcf_hand_computation():
    # FCF 110, 121 discounted at 10% -> 100 + 100; TV = 121 * 1.02 / 0.08 = 1542.75 -> 1275
    result = dcf(100.0, [0.10, 0.10], terminal_growth=0.02, discount_rate=0.10, net_debt=50.0)
    assert result.projected == pytest.approx([110.0, 121.0])
    assert result.discounted == pytest.approx([100.0, 100.0])
    assert result.terminal_present_value == pytest.approx(1275.0)
    assert result.enterprise_value.value == pytest.approx(1475.0)
    assert result.equity_value.value == pytest.approx(1425.0)
    labels = [i.label for i in result.enterprise_value.inputs]
    assert labels[1:3] == ["discounted FCF year 1", "discounted FCF year 2"]
    assert result.enterprise_value.inputs[1].value == pytest.approx(100.0)
    assert result.to_dict()["equity_value"]["formula"] == "enterprise_value - net_debt"


def test_dcf_with_cited_inputs():
    data = synthetic()
    fcf = ratios.free_cash_flow(data, "FY2023")
    debt = net_debt(data, "FY2023")
    assert isinstance(fcf, Derived) and isinstance(debt, Derived)
    assert debt.value == pytest.approx(300.0)
    result = dcf(fcf, 0.05, terminal_growth=0.02, discount_rate=0.09, net_debt=debt, years=3)
    assert result.enterprise_value.inputs[0].citation["derived"]["name"] == "free_cash_flow"
    assert result.equity_value.value == pytest.approx(result.enterprise_value.value - 300.0)


def test_dcf_sensitivity_shape_and_monotonicity():
    rates = [0.08, 0.09, 0.10, 0.11]
    growths = [0.01, 0.02, 0.03]
    table = dcf_sensitivity(100.0, [0.1, 0.08, 0.06], rates, growths, net_debt=50.0)
    assert table.discount_rates == rates and table.terminal_growths == growths
    assert len(table.values) == 4 and all(len(row) == 3 for row in table.values)
    values = [[v for v in row if v is not None] for row in table.values]
    for row in values:  # higher terminal growth -> higher value
        assert row == sorted(row)
    for j in range(3):  # higher discount rate -> lower value
        column = [row[j] for row in values]
        assert column == sorted(column, reverse=True)
    assert table.values[2][1] == pytest.approx(
        dcf(100.0, [0.1, 0.08, 0.06], 0.02, 0.10, 50.0).equity_value.value
    )
    # an invalid cell is None rather than an error
    assert dcf_sensitivity(100.0, 0.05, [0.02], [0.02, 0.01], years=2).values[0][0] is None


def test_terminal_growth_must_be_below_discount_rate():
    with pytest.raises(ValueError, match="must exceed terminal growth"):
        dcf(100.0, [0.1], terminal_growth=0.08, discount_rate=0.08)
    with pytest.raises(ValueError, match="must exceed terminal growth"):
        dcf(100.0, [0.1], terminal_growth=0.09, discount_rate=0.08)
    with pytest.raises(ValueError):
        dcf(100.0, 0.1, terminal_growth=0.02, discount_rate=0.08)  # no years


def test_price_metrics_known_drawdown():
    dates = pd.bdate_range("2020-01-01", periods=6)
    prices = pd.Series([100.0, 120.0, 90.0, 60.0, 80.0, 110.0], index=dates)
    metrics = price_metrics(prices, source="synthetic")
    assert metrics.total_return.value == pytest.approx(0.10)
    assert metrics.max_drawdown.value == pytest.approx(-0.5)  # 120 -> 60
    assert metrics.peak_date == dates[1]
    assert metrics.trough_date == dates[3]
    days = (dates[-1] - dates[0]).days
    assert metrics.annualised_return.value == pytest.approx(1.1 ** (365.25 / days) - 1)
    log_returns = np.diff(np.log(prices.to_numpy()))
    expected = float(np.std(log_returns, ddof=1)) * math.sqrt(252)
    assert metrics.annualised_volatility.value == pytest.approx(expected)
    assert metrics.max_drawdown.inputs[0].citation == {"source": "synthetic", "date": "2020-01-02"}
    assert metrics.to_dict()["trough_date"] == "2020-01-06"


def test_price_metrics_on_normalised_frame():
    dates = pd.date_range("2021-01-01", periods=253, freq="D")
    frame = pd.DataFrame({"adj_close": np.linspace(100.0, 200.0, 253)}, index=dates)
    metrics = price_metrics(frame)
    assert metrics.total_return.value == pytest.approx(1.0)
    assert metrics.max_drawdown.value == 0.0
    with pytest.raises(ValueError):
        price_metrics(pd.Series([1.0], index=dates[:1]))


def test_growth_vs_macro():
    revenue = {"FY2015": 100.0, "FY2016": 110.0, "FY2017": 121.0, "FY2018": 133.1}
    gdp = {2016: 1.5, 2017: 2.5, 2019: 2.0}
    pairs, mean = growth_vs_macro(revenue, gdp)
    assert [p.year for p in pairs] == [2016, 2017]
    assert pairs[0].company_growth == pytest.approx(10.0)
    assert pairs[0].spread == pytest.approx(8.5)
    assert pairs[1].spread == pytest.approx(7.5)
    assert mean == pytest.approx(8.0)
    levels = {2015: 200.0, 2016: 204.0}
    pairs, _ = growth_vs_macro({2016: 5.0}, levels, company_is_growth=True, macro_is_growth=False)
    assert pairs[0].macro_growth == pytest.approx(2.0)
    assert pairs[0].to_dict()["spread"] == pytest.approx(3.0)
    assert growth_vs_macro({}, gdp) == ([], None)


def test_netflix_2017_operating_margin():
    path = SHARED_DATA / "finance/filings/NETFLIX_2017_10K.pdf"
    if not path.exists():
        pytest.skip(f"shared filing {path} is absent")
    from finance.statements import extract_statements

    result = ratios.operating_margin(extract_statements(path), "FY2017")
    assert isinstance(result, Derived)
    assert result.value == pytest.approx(838.7 / 11692.7, abs=1e-4)
    assert round(result.value * 100, 2) == 7.17
    income, revenue = result.inputs
    assert income.value == pytest.approx(838.7, abs=0.05)
    assert revenue.value == pytest.approx(11692.7, abs=0.05)
    assert income.citation["page"] == 41 and revenue.citation["page"] == 41
    assert len(income.citation["bbox"]) == 4 and len(revenue.citation["bbox"]) == 4
