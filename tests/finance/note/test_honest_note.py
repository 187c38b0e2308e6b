"""The note is honest: the statements' own period labels and units, unverified figures flagged,
the balance basis of each ratio said (mixed bases flagged), and a "could not do" section that is
always there."""

from __future__ import annotations

import datetime as dt
from typing import Any

from finance.note.links import PathLinks
from finance.note.markdown import render_markdown
from finance.note.model import Note
from finance.research.analysis import analyse_statements, revenue_cagr, valuation
from finance.research.compose import write_note
from finance.research.findings import Findings
from tests.finance.modeling.test_modeling import synthetic
from tests.finance.modeling.test_unverified import unverified_balance_sheet

NOW = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)


def _note(data: dict[str, Any], **findings: Any) -> dict[str, Any]:
    analysis = analyse_statements(7, str(data["document"]), "Synth Inc.", data)
    found = Findings(request="analyse", analyses=[analysis], **findings)
    found.documents = {str(data["document"]): 7}
    body = write_note(found, now=NOW)
    assert Note.from_dict(body).to_dict() == body  # a valid note
    return body


def _section(body: dict[str, Any], suffix: str) -> dict[str, Any]:
    return next(s for s in body["sections"] if s["id"].endswith(suffix))


def _table(body: dict[str, Any], suffix: str) -> dict[str, Any]:
    return next(b for b in _section(body, suffix)["blocks"] if b["type"] == "table")


def _text(items: list[Any]) -> str:
    return " ".join(str(i) for i in items)


def test_the_could_not_do_section_is_always_there_and_says_nothing_plainly() -> None:
    body = _note(synthetic())
    limits = body["sections"][-1]
    assert limits["id"] == "limits" and limits["heading"] == "What this note could not do"
    (block,) = limits["blocks"]
    assert block["type"] == "paragraph" and block["content"][0].startswith("Nothing:")


def test_the_could_not_do_section_lists_limits_and_unverified_periods() -> None:
    body = _note(
        unverified_balance_sheet(),
        limits=["EARNINGS_8K.pdf (Synth Inc., 8-K) was left out: no financial statements"],
    )
    items = [_text(item) for item in _section(body, "limits")["blocks"][0]["items"]]
    assert items[0].startswith("EARNINGS_8K.pdf (Synth Inc., 8-K) was left out")
    assert any("balance sheet FY2023 unverified" in i and "Synth Inc." in i for i in items)
    summary = _text(_section(body, "summary")["blocks"][0]["items"])
    assert "failed an accounting identity" in summary


def test_unverified_figures_carry_a_dagger_and_the_table_says_why() -> None:
    body = _note(unverified_balance_sheet())
    figures = _table(body, "-figures")
    assets = next(row for row in figures["rows"] if row[0] == "Total assets")
    assert assets[1]["number"]["display"] == "2,000†"  # FY2023: unverified
    assert assets[2]["number"]["display"] == "1,800"  # FY2022: verified
    assert "†" in figures["notes"][0] and "balance sheet FY2023" in figures["notes"][0]
    revenue = next(row for row in figures["rows"] if row[0] == "Revenue")
    assert not revenue[1]["number"]["display"].endswith("†")
    returns = _table(body, "-returns")
    roa = next(row for row in returns["rows"] if row[0] == "Return on assets")
    assert roa[1]["number"]["display"].endswith("†")
    assert "unverified" in roa[1]["number"]["source"]["label"]
    assert any("balance sheet FY2023" in str(n) for n in returns["notes"])
    margins = _table(body, "-margins")
    assert "notes" not in margins  # margins use no unverified figure
    markdown = render_markdown(Note.from_dict(body), PathLinks("http://x"))
    assert "2,000†" in markdown


def test_ratios_on_balances_say_their_basis_and_mixed_bases_are_flagged() -> None:
    body = _note(synthetic())
    returns = _table(body, "-returns")
    assert returns["columns"] == ["Metric", "FY2023", "FY2022", "Balances"]
    rows = {row[0]: row for row in returns["rows"]}
    # FY2023 averages FY2022 and FY2023 balances; FY2022 has no opening balance: year-end.
    assert rows["Return on equity"][-1] == "mixed: year-end in FY2022"
    assert rows["Revenue growth"][-1] == ""
    notes = _text(returns["notes"])
    assert "Mixed bases: Return on assets, Return on equity" in notes
    assert '"average" is (opening + closing balance) / 2' in notes
    margins = _table(body, "-margins")
    assert "Balances" not in margins["columns"]


def test_quarter_labels_and_units_are_the_statements_own() -> None:
    data = synthetic()
    data["units_as_printed"] = {"income_statement": "thousands"}  # values are USD millions
    data["fiscal_years"] = ["Q2 2023", "6M 2023", "FY2022"]
    data["income_statement"]["revenue"] = {
        "Q2 2023": {"value": 310.5, "page": 3, "bbox": None},
        "6M 2023": {"value": 600.25, "page": 3, "bbox": None},
        "FY2022": {"value": 1100.0, "page": 3, "bbox": None},
    }
    body = _note(data)
    figures = _table(body, "-figures")
    assert figures["columns"] == ["Line item", "Q2 2023", "6M 2023", "FY2022"]
    assert "USD millions" in figures["caption"]
    revenue = next(row for row in figures["rows"] if row[0] == "Revenue")
    assert [c["number"]["value"] for c in revenue[1:]] == [310.5, 600.25, 1100.0]
    assert revenue[1]["number"]["display"] == "310.5"
    assert _section(body, "-figures")["heading"].endswith("(USD millions)")


def test_growth_and_the_dcf_base_keep_to_whole_fiscal_years() -> None:
    data = synthetic()
    data["fiscal_years"] = ["6M 2024", "FY2023", "FY2022"]
    data["income_statement"]["revenue"]["6M 2024"] = {"value": 700.0, "page": 3}
    data["cash_flow"]["operating_cash_flow"]["6M 2024"] = {"value": 90.0, "page": 3}
    data["cash_flow"]["capital_expenditure"]["6M 2024"] = {"value": 10.0, "page": 3}
    analysis = analyse_statements(7, "SYNTH.pdf", "Synth Inc.", data)
    cagr = revenue_cagr(analysis)
    assert cagr.period == "FY2021-FY2023"  # the half-year is not a year of growth
    found = valuation(analysis)
    assert not isinstance(found, str) and found.base_year == "FY2023"
