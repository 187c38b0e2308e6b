"""Figures from statement periods that failed an accounting identity are flagged, never silent;
ratios on balances say whether they use average or year-end balances."""

from __future__ import annotations

from typing import Any

from finance.modeling import Derived, Statements
from finance.modeling.ratios import cash_conversion_cycle, gross_margin, roa, roe
from tests.finance.modeling.test_modeling import synthetic

WHY = "2,000.000 vs 1,990.000 (off by 10.000; tolerance 2.000)"


def unverified_balance_sheet() -> dict[str, Any]:
    data = synthetic()
    data["validation"] = {
        "balance_sheet": {
            "FY2023": {
                "status": "failed",
                "identity": "total assets = total liabilities and equity",
                "detail": WHY,
            },
            "FY2022": {"status": "verified", "identity": "", "detail": ""},
        }
    }
    data["unverified"] = {"balance_sheet": {"FY2023": WHY}}
    return data


def test_a_cell_of_an_unverified_period_carries_the_reason_in_its_citation() -> None:
    s = Statements(unverified_balance_sheet())
    cited = s.cell("balance_sheet", "total_assets", "FY2023")
    assert cited is not None
    reason = cited.citation["unverified"]
    assert reason.startswith("balance sheet FY2023 unverified: total assets = total liabilities")
    assert WHY in reason
    # Other periods and statements are not flagged.
    prior = s.cell("balance_sheet", "total_assets", "FY2022")
    assert prior is not None and "unverified" not in prior.citation
    revenue = s.cell("income_statement", "revenue", "FY2023")
    assert revenue is not None and "unverified" not in revenue.citation
    assert s.unverified_reasons() == [reason]


def test_a_ratio_with_an_unverified_input_says_so_and_one_without_does_not() -> None:
    s = Statements(unverified_balance_sheet())
    flagged = roa(s, "FY2023")
    assert isinstance(flagged, Derived)
    assert len(flagged.unverified()) == 1
    assert flagged.to_dict()["unverified"] == flagged.unverified()
    clean = gross_margin(s, "FY2023")
    assert isinstance(clean, Derived)
    assert clean.unverified() == [] and "unverified" not in clean.to_dict()


def test_unverified_inputs_are_found_through_derived_inputs() -> None:
    s = Statements(unverified_balance_sheet())
    ccc = cash_conversion_cycle(s, "FY2023")
    assert isinstance(ccc, Derived)
    # CCC's inputs are DSO, DIO and DPO, each averaging an FY2023 balance.
    assert all("derived" in i.citation for i in ccc.inputs)
    reasons = ccc.to_dict()["unverified"]
    assert len(reasons) == 1 and "balance sheet FY2023" in reasons[0]


def test_a_ratio_on_a_balance_says_whether_it_averages() -> None:
    s = Statements(synthetic())
    average = roe(s, "FY2023")
    assert isinstance(average, Derived)
    assert average.basis == "average" and average.to_dict()["basis"] == "average"
    assert average.value == 100.0 / ((900.0 + 700.0) / 2)
    year_end = roe(s, "FY2022")  # no FY2021 balance sheet: the FY2022 closing balance alone
    assert isinstance(year_end, Derived)
    assert year_end.basis == "year-end" and year_end.value == 60.0 / 700.0
    margin = gross_margin(s, "FY2023")
    assert isinstance(margin, Derived) and margin.basis == "" and "basis" not in margin.to_dict()


def test_the_analysis_summary_names_unverified_periods() -> None:
    from finance.research.analysis import analyse_statements

    flagged = analyse_statements(1, "SYNTH.pdf", "Synth", unverified_balance_sheet()).summary()
    assert flagged["unverified"][0].startswith("balance sheet FY2023 unverified")
    assert "unverified" not in analyse_statements(1, "SYNTH.pdf", "Synth", synthetic()).summary()
