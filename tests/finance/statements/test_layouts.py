"""Statement layouts of earnings releases and 10-Ks: column groups stacked on one page, a
condensed statement titled half-way down a page, operating expense lines, and per-share rows
under a per-share heading. Synthetic pages are built word by word (pdfplumber's shape)."""

from __future__ import annotations

import pytest

from finance.planner.metrics import metric_name
from finance.statements import extract_statements
from finance.statements.blocks import parse_tables
from finance.statements.extract import _canonical
from finance.statements.locate import score_page, titled_below
from finance.statements.periods import label_periods
from finance.statements.synonyms import match_label, match_row
from finance.statements.table import Table, Word
from tests.conftest import SHARED_DATA

WIDTH = 612.0
LABEL_X = 60.0
COLUMNS = (380.0, 500.0)  # right edges of the two amount columns


def _page(rows: list[tuple[str, tuple[str, ...]]]) -> list[Word]:
    """Words of a page: each row a label and the texts of its columns (right-aligned), or a
    header row whose label is empty and whose texts are centred over the columns."""
    words: list[Word] = []
    for n, (label, cells) in enumerate(rows):
        top = 50.0 + 12.0 * n
        x = LABEL_X
        for token in label.split():
            words.append({"text": token, "x0": x, "x1": x + 5.0 * len(token), "top": top,
                          "bottom": top + 9.0})  # fmt: skip
            x += 5.0 * len(token) + 3.0
        for right, text in zip(COLUMNS, cells, strict=False):
            for token in reversed(text.split()):
                words.append({"text": token, "x0": right - 5.0 * len(token), "x1": right,
                              "top": top, "bottom": top + 9.0})  # fmt: skip
                right -= 5.0 * len(token) + 3.0
    return words


def _text(rows: list[tuple[str, tuple[str, ...]]]) -> str:
    return "\n".join(" ".join([label, *cells]).strip() for label, cells in rows)


def _values(statement: str, tables: list[Table]) -> dict[str, dict[str, float]]:
    columns = [(table, i) for table in tables for i in range(len(table.columns))]
    names = label_periods([table.columns[i].period for table, i in columns])
    labels = {(id(t), i): name for (t, i), name in zip(columns, names, strict=True)}
    return {
        key: {period: cell.value for period, cell in cells.items()}
        for key, cells in _canonical(statement, tables, labels).items()
    }


INCOME = [
    ("Net sales", ("3,226", "2,729")),
    ("Cost of sales", ("2,014", "1,702")),
    ("Gross profit", ("1,212", "1,027")),
    ("Net income", ("340", "289")),
    ("Net income per common share:", ()),
    ("Basic", ("6.73", "5.44")),
    ("Diluted", ("6.68", "5.41")),
]
YEAR_INCOME = [
    ("Net sales", ("10,208", "8,630")),
    ("Cost of sales", ("6,164", "5,262")),
    ("Gross profit", ("4,044", "3,368")),
    ("Net income", ("1,242", "985")),
    ("Net income per common share:", ()),
    ("Basic", ("24.17", "18.09")),
    ("Diluted", ("24.01", "17.98")),
]


def test_the_quarter_and_the_year_stacked_on_one_page_are_both_read():
    rows = [
        ("Consolidated Statements of Income", ()),
        ("(In millions, except per share data)", ()),
        ("", ("13 Weeks Ended",)),
        ("", ("January 28,", "January 29,")),
        ("", ("2023", "2022")),
        *INCOME,
        ("Consolidated Statements of Income", ()),
        ("", ("52 Weeks Ended",)),
        ("", ("January 28,", "January 29,")),
        ("", ("2023", "2022")),
        *YEAR_INCOME,
    ]
    tables = parse_tables(_page(rows), 0, WIDTH, "income_statement")
    assert len(tables) == 2
    values = _values("income_statement", tables)
    assert values["gross_profit"] == {
        "FY2023": 4044.0,
        "Q4 2023": 1212.0,
        "FY2022": 3368.0,
        "Q4 2022": 1027.0,
    }
    assert values["eps_diluted"]["FY2023"] == 24.01
    assert values["revenue"]["Q4 2022"] == 2729.0


def test_a_statement_re_headed_with_the_same_years_keeps_its_columns_and_unit():
    rows = [
        ("Consolidated Balance Sheets", ()),
        ("(In thousands)", ()),
        ("", ("December 31, 2022", "December 31, 2021")),
        ("Cash and cash equivalents", ("1,000", "900")),
        ("Total assets", ("5,000", "4,000")),
        ("", ("2022", "2021")),
        ("Total liabilities", ("3,000", "2,500")),
        ("Total liabilities and equity", ("5,000", "4,000")),
    ]
    tables = parse_tables(_page(rows), 0, WIDTH, "balance_sheet")
    values = _values("balance_sheet", tables)
    assert values["total_assets"] == {"FY2022": 5.0, "FY2021": 4.0}
    assert values["total_liabilities"] == {"FY2022": 3.0, "FY2021": 2.5}


CASH_THEN_BALANCE = [
    ("Condensed Consolidated Statements of Cash Flows (Unaudited)", ()),
    ("", ("Twelve Months Ended",)),
    ("($ million)", ("June 30, 2022", "June 30, 2023")),
    *[(f"Operating item {n}", (f"{n}5", f"{n}7")) for n in range(1, 10)],
    ("Net cash provided by operating activities", ("1,526", "1,261")),
    ("Dividends paid", ("(732)", "(723)")),
    ("Cash and cash equivalents at the end of the period", ("775", "689")),
    ("Condensed Consolidated Balance Sheets (Unaudited)", ()),
    ("($ million)", ("June 30, 2022", "June 30, 2023")),
    ("Cash and cash equivalents", ("775", "689")),
    ("Trade receivables, net", ("1,935", "1,875")),
    ("Inventories, net", ("2,439", "2,213")),
    ("Property, plant and equipment, net", ("3,646", "3,762")),
    ("Other assets", ("8,631", "8,464")),
    ("Total assets", ("17,426", "17,003")),
    ("Trade payables", ("3,073", "2,690")),
    ("Long-term debt, less current portion", ("6,340", "6,653")),
    ("Other liabilities", ("3,872", "3,570")),
    ("Shareholders' equity", ("4,141", "4,090")),
    ("Total liabilities and shareholders' equity", ("17,426", "17,003")),
]


def test_a_condensed_balance_sheet_titled_below_the_cash_flow_is_found_and_read():
    text = _text(CASH_THEN_BALANCE)
    assert score_page(text, "balance_sheet") > 0
    assert titled_below(text, "balance_sheet") and not titled_below(text, "cash_flow")
    words = _page(CASH_THEN_BALANCE)
    balance = _values("balance_sheet", parse_tables(words, 0, WIDTH, "balance_sheet", below=True))
    assert balance["total_assets"] == {"FY2023": 17003.0, "FY2022": 17426.0}
    assert balance["cash_and_equivalents"] == {"FY2023": 689.0, "FY2022": 775.0}
    # The cash flow statement above ends where the balance sheet's title starts.
    (cash,) = parse_tables(words, 0, WIDTH, "cash_flow")
    assert cash.rows[-1].label == "Cash and cash equivalents at the end of the period"


def test_a_sentence_naming_a_statement_is_not_its_title():
    text = "Selected income statement data\n" + _text(INCOME)
    assert score_page("Overview of the year\n" * 9 + text, "income_statement") == 0.0


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Research and development", "research_and_development"),
        ("Research and development expenses", "research_and_development"),
        ("Selling, general and administrative expenses", "selling_general_administrative"),
        ("Marketing, general and administrative", "selling_general_administrative"),
    ],
)
def test_operating_expense_lines(label, key):
    assert (key, 0) in match_label("income_statement", label) or (key, 1) in match_label(
        "income_statement", label
    )


def test_acquired_research_and_development_is_not_the_expense_line():
    keys = [
        k
        for k, _ in match_label("income_statement", "Acquired in-process research and development")
    ]
    assert "research_and_development" not in keys


def test_the_planner_reads_r_and_d_and_sga_as_lines():
    assert (
        metric_name("How much did AMD spend on R&D in 2021, in $M?") == "research_and_development"
    )
    assert metric_name("SG&A expense in FY2022?") == "selling_general_administrative"


@pytest.mark.parametrize(
    ("section", "key"),
    [
        ("Earnings per common share\u2013\u2013diluted:", "eps_diluted"),
        ("Earnings per common share\u2013\u2013basic:", "eps_basic"),
        ("Net income per share: Diluted:", "eps_diluted"),
    ],
)
def test_net_income_under_a_per_share_heading_is_eps(section, key):
    label = "Net income attributable to Acme Inc. common shareholders"
    assert match_row("income_statement", label, section) == [(key, 0)]
    # Other rows there are per share too: never a line of the statement in millions.
    assert match_row("income_statement", "Income from continuing operations", section) == []
    assert ("net_income", 0) in match_row("income_statement", label, "Costs and expenses:")


def test_per_share_rows_under_a_heading_are_read_from_the_page():
    rows = [
        ("Consolidated Statements of Income", ()),
        ("(MILLIONS, EXCEPT PER COMMON SHARE DATA)", ("2021", "2020")),
        ("Revenues", ("81,288", "41,651")),
        ("Net income attributable to Acme Inc. common shareholders", ("21,979", "9,159")),
        ("Earnings per common share\u2013\u2013basic:", ()),
        ("Income from continuing operations attributable to Acme Inc.", ("4.00", "1.19")),
        ("Net income attributable to Acme Inc. common shareholders", ("3.92", "1.65")),
        ("Earnings per common share\u2013\u2013diluted:", ()),
        ("Income from continuing operations attributable to Acme Inc.", ("3.93", "1.18")),
        ("Net income attributable to Acme Inc. common shareholders", ("3.85", "1.63")),
    ]
    values = _values("income_statement", parse_tables(_page(rows), 0, WIDTH, "income_statement"))
    assert values["net_income"] == {"FY2021": 21979.0, "FY2020": 9159.0}
    assert values["eps_basic"] == {"FY2021": 3.92, "FY2020": 1.65}
    assert values["eps_diluted"] == {"FY2021": 3.85, "FY2020": 1.63}


DEVSET = SHARED_DATA / "finance" / "devset" / "docs"


@pytest.mark.parametrize(
    ("doc", "statement", "key", "period", "value"),
    [
        ("ULTABEAUTY_2023Q4_EARNINGS", "income_statement", "gross_profit", "FY2023", 4044.51),
        ("ULTABEAUTY_2023Q4_EARNINGS", "income_statement", "revenue", "Q4 2023", 3226.773),
        ("AMCOR_2023Q4_EARNINGS", "balance_sheet", "total_assets", "FY2023", 17003.0),
        ("AMD_2021_10K", "income_statement", "research_and_development", "FY2021", 2845.0),
        ("PFIZER_2021_10K", "income_statement", "eps_diluted", "FY2021", 3.85),
    ],
)
def test_real_layouts(doc, statement, key, period, value):
    path = DEVSET / f"{doc}.pdf"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    assert extract_statements(path).get(statement, key, period) == pytest.approx(value)
