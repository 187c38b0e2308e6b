"""Rules found on the second hold-out: growth and change, "net margin", terse formulas."""

from __future__ import annotations

import json

import pytest

from finance.planner.metric_answer import metric_answer
from finance.planner.metrics import (
    IS,
    Figure,
    MetricUnavailable,
    compute_change,
    read_metric,
)


def _answer(prompt: str, lines: dict[str, dict[str, float]]) -> tuple[str, dict]:
    request = read_metric(prompt)
    assert request is not None, prompt
    statement = {"income_statement": lines, "income_statement_pages": [3]}
    results = {"statements-7-income_statement": json.dumps(statement)}
    return metric_answer(request, prompt, [{"id": 7, "name": "filing.pdf"}], results)


@pytest.mark.parametrize(
    ("text", "name", "labels"),
    [
        ("revenue growth 2022 vs 2021 in %", "revenue", ["FY2022", "FY2021"]),
        ("AMD revenue growth 2021", "revenue", ["FY2021", "FY2020"]),
        ("Q2 revenue vs Q2 last year, % change? Q2 FY2024", "revenue", ["Q2 2024", "Q2 2023"]),
        ("diluted EPS growth 2021", "eps_diluted", ["FY2021", "FY2020"]),
    ],
)
def test_growth_of_an_amount_is_one_figure_in_percent(text, name, labels):
    request = read_metric(text)
    assert request is not None, text
    assert (request.name, request.change, request.unit) == (name, "growth", "%")
    assert request.labels() == labels


def test_how_much_an_amount_rose_is_its_difference_in_its_unit():
    request = read_metric("How much did R&D expense rise in 2021 vs 2020, $M?")
    assert request is not None
    assert (request.change, request.unit) == ("difference", "USD millions")
    values = {
        Figure(IS, "research_and_development", "FY2021"): 13829.0,
        Figure(IS, "research_and_development", "FY2020"): 9393.0,
    }
    assert compute_change(request, "FY2021", "FY2020", values) == 4436.0


def test_a_ratio_compared_is_still_each_period():
    request = read_metric("Has the operating margin improved in 2022 vs 2021?")
    assert request is not None and request.compare and not request.change
    share = read_metric("Did net earnings as a percent of sales increase in Q2 of FY2023?")
    assert share is not None and share.name.startswith("share:") and not share.change


def test_growth_answer_cites_both_periods_inputs():
    lead, result = _answer(
        "revenue growth 2021 vs 2020 in %", {"revenue": {"FY2021": 16434.0, "FY2020": 9763.0}}
    )
    (answer,) = result["answers"]
    assert answer["unit"] == "%" and answer["value"] == pytest.approx(68.33, abs=0.005)
    assert [i["value"] for i in answer["inputs"]] == [16434.0, 9763.0]
    assert answer["period"] == "FY2021 vs FY2020" and "revenue growth" in lead


def test_per_share_inputs_keep_their_dollar_unit():
    _, result = _answer(
        "diluted EPS growth 2021", {"eps_diluted": {"FY2021": 2.57, "FY2020": 2.06}}
    )
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(24.757, abs=0.001)
    assert {i["unit"] for i in answer["inputs"]} == {"USD"}


@pytest.mark.parametrize(
    ("lines", "why"),
    [
        ({"revenue": {"FY2021": 100.0}}, "revenue FY2020"),  # the earlier year is not there
        ({"net_income": {"FY2021": 50.0, "FY2020": -20.0}}, "not positive"),  # from a loss
    ],
)
def test_growth_without_a_usable_base_says_it_cannot(lines, why):
    key = next(iter(lines))
    prompt = f"{key.replace('_', ' ')} growth 2021 in %"
    lead, result = _answer(prompt, lines)
    assert result == {"answers": []}
    assert "could not compute" in lead and why in lead


def test_a_growth_rate_from_a_loss_raises():
    request = read_metric("net income growth 2021")
    assert request is not None
    values = {Figure(IS, "net_income", "FY2021"): 5.0, Figure(IS, "net_income", "FY2020"): 0.0}
    with pytest.raises(MetricUnavailable, match="not positive"):
        compute_change(request, "FY2021", "FY2020", values)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("McDonald's net margin 2022", "net_income margin"),
        ("J&J net margin Q4 2022", "net_income margin"),
        ("net profit margin 2022", "net_income margin"),
    ],
)
def test_net_margin_is_net_income_over_revenue(text, name):
    request = read_metric(text)
    assert request is not None and request.name == name


def test_a_banks_net_interest_margin_is_not_a_net_margin():
    assert read_metric("JPMorgan net interest margin Q2 2023") is None


@pytest.mark.parametrize(
    "text",
    [
        "Ulta Beauty free cash flow (CFO - capex) for the full year, $M",
        "Amcor free cash flow FY2023 = operating cash flow minus capex, in $M",
    ],
)
def test_symbols_of_a_formula_are_not_words_of_a_terse_request(text):
    request = read_metric(text)
    assert request is not None and request.name == "free cash flow"


def test_a_filing_that_names_its_year_by_its_start_is_read_in_its_own_naming():
    # A year ending 28 January 2023 is labelled FY2023; the release calls it "fiscal 2022".
    document = {
        "id": 7,
        "name": "release.pdf",
        "fiscal_year": "2022",
        "period_end": "2023-01-28",
        "fiscal_years": ["FY2023", "Q4 2023", "FY2022", "Q4 2022"],
    }
    request = read_metric("net sales growth in fiscal 2022, %")
    assert request is not None
    statement = {
        "income_statement": {"revenue": {"FY2023": 10208.58, "FY2022": 8630.889}},
        "income_statement_pages": [5],
    }
    results = {"statements-7-income_statement": json.dumps(statement)}
    lead, result = metric_answer(request, "q", [document], results)
    (answer,) = result["answers"]
    assert answer["period"] == "FY2023 vs FY2022"
    assert answer["value"] == pytest.approx(18.28, abs=0.005)
    assert "calls FY2023 'fiscal 2022'" in lead


@pytest.mark.parametrize(
    ("fiscal_year", "period_end"),
    [
        ("2023", "2023-01-28"),  # named by the year it ends in: as labelled
        ("2024", "2023-07-29"),  # a 10-Q's quarter of a January year
        ("2022", "2022-06-30"),  # a June year: never shifted
    ],
)
def test_other_filings_keep_their_years(fiscal_year, period_end):
    document = {
        "id": 7,
        "name": "filing.pdf",
        "fiscal_year": fiscal_year,
        "period_end": period_end,
        "fiscal_years": [f"FY{period_end[:4]}"],
    }
    lead, result = _answer_for(document, "revenue in fiscal 2022", {"revenue": {"FY2022": 5.0}})
    if period_end.startswith("2022"):
        assert result["answers"][0]["value"] == 5.0
    assert "calls FY" not in lead


def _answer_for(document, prompt, lines):
    request = read_metric(prompt)
    assert request is not None
    statement = {"income_statement": lines, "income_statement_pages": [1]}
    results = {"statements-7-income_statement": json.dumps(statement)}
    return metric_answer(request, prompt, [document], results)


@pytest.mark.parametrize(
    "label",
    [
        "Interest expense-net of capitalized interest of $9.5, $6.8 and $6.0",
        "Interest expense, net of amounts capitalized",
    ],
)
def test_interest_expense_net_of_capitalized_interest_is_the_expense(label):
    from finance.statements.synonyms import match_row

    assert ("interest_expense", 1) in match_row("income_statement", label)


def test_interest_expense_net_of_interest_income_is_not_read_as_capitalized():
    from finance.statements.synonyms import match_row

    keys = dict(match_row("income_statement", "Interest expense, net of interest income"))
    assert "interest_expense" not in keys


@pytest.mark.parametrize(
    "label",
    ["Total operating expenses", "TOTAL OPERATING EXPENSES", "Total operating costs and expenses"],
)
def test_a_printed_total_of_operating_expenses_is_its_own_line(label):
    from finance.statements.synonyms import match_row

    assert ("total_operating_expenses", 0) in match_row("income_statement", label)


@pytest.mark.parametrize("label", ["Operating expenses", "Total expenses"])
def test_a_lone_or_unnamed_expense_line_is_not_the_operating_total(label):
    from finance.statements.synonyms import match_row

    assert "total_operating_expenses" not in dict(match_row("income_statement", label))


def test_how_much_opex_rose_is_the_difference_of_the_printed_totals():
    request = read_metric("how much did total operating expenses rise YoY in 2022, $M")
    assert request is not None
    assert (request.name, request.change) == ("total_operating_expenses", "difference")
    assert read_metric("non-operating expenses 2022") is None
