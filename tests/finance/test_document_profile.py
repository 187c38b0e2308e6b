"""Document profiles (type, company, ticker, period off the cover) and request matching."""

from __future__ import annotations

import json

import pytest

from finance.documents.ingest import ParsedDocument, ingest_pdf
from finance.documents.matching import match_documents, names_company, normalize_company
from finance.documents.profile import DocumentProfile, fiscal_year_of, parse_date, read_profile
from finance.statements.locate import page_texts
from tests.conftest import SHARED_DATA

DEVSET = SHARED_DATA / "finance" / "devset"
DOCS = DEVSET / "docs"
KEY_TYPES = {"10k": "10-K", "10q": "10-Q", "8k": "8-K", "earnings": "earnings release"}

# --- synthetic covers --------------------------------------------------------------------------

TEN_K = """Table of Contents
UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
(Mark One)
☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2022
Commission file number 1-1183
PepsiCo, Inc.
(Exact Name of Registrant as Specified in its Charter)
North Carolina 13-1584302
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbols Name of each exchange on which registered
Common Stock, par value 1-2/3 cents per share PEP The Nasdaq Stock Market LLC
0.250% Senior Notes Due 2024 PEP24 The Nasdaq Stock Market LLC
"""

TEN_Q = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-Q
☒ QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the Quarterly Period Ended December 31, 2022
Commission File Number 001-38932
AMCOR PLC
(Exact name of Registrant as specified in its charter)
Title of each class Trading symbol(s) Name of each exchange on which registered
Ordinary Shares, Par Value $0.01 Per Share AMCR New York Stock Exchange
"""
TEN_Q_STATEMENTS = """Condensed Consolidated Statement of Income
Three Months Ended December 31, Six Months Ended December 31,
Three Months Ended Six Months Ended
"""

EIGHT_K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Date of report (Date of earliest event reported): May 20, 2022 (May 18, 2022)
Foot Locker, Inc.
(Exact name of registrant as specified in charter)
New York 1-10299 13-3513936
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, par value $0.01 per share FL New York Stock Exchange
"""

RELEASE = """PepsiCo Reports First-Quarter 2023 Results; Raises Full-Year
Guidance
Reported (GAAP) First-Quarter 2023 Results
Please refer to PepsiCo's Quarterly Report on Form 10-Q for the 12 weeks ended March 25, 2023
Form 10-Q) filed with the Securities and Exchange Commission (SEC).
PURCHASE, N.Y. - April 25, 2023 - PepsiCo, Inc. (NASDAQ: PEP) today reported results for
the first quarter 2023.
"""

OLD_10K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
FORM 10-K
For the Fiscal Year Ended June 30, 2016
Commission File Number 001-37845
MICROSOFT CORPORATION
WASHINGTON 91-1144442
Securities registered pursuant to Section 12(b) of the Act:
COMMON STOCK, $0.00000625 par value per share NASDAQ
"""


def test_ten_k_cover():
    p = read_profile([TEN_K])
    assert (p.doc_type, p.company, p.ticker) == ("10-K", "PepsiCo, Inc.", "PEP")
    assert p.exchange and "Nasdaq" in p.exchange
    assert (p.period_end, p.fiscal_year, p.fiscal_quarter) == ("2022-12-31", 2022, None)
    assert p.reasons and p.confidence >= 0.9


def test_ten_q_cover_and_quarter_from_statement_columns():
    p = read_profile([TEN_Q, TEN_Q_STATEMENTS])
    assert (p.doc_type, p.company, p.ticker) == ("10-Q", "AMCOR PLC", "AMCR")
    # Six months ended December: the fiscal year ends in June, so FY2023 Q2.
    assert (p.period_end, p.fiscal_quarter, p.fiscal_year) == ("2022-12-31", 2, 2023)


def test_ten_q_without_statements_leaves_quarter_unknown():
    p = read_profile([TEN_Q])
    assert p.doc_type == "10-Q" and p.fiscal_quarter is None and p.fiscal_year is None


def test_eight_k_cover():
    p = read_profile([EIGHT_K])
    assert (p.doc_type, p.company, p.ticker) == ("8-K", "Foot Locker, Inc.", "FL")
    assert p.period_end == p.report_date == "2022-05-20"  # the date of report, not the event


def test_earnings_release_is_not_taken_for_the_10q_it_quotes():
    p = read_profile([RELEASE])
    assert (p.doc_type, p.company, p.ticker, p.exchange) == (
        "earnings release",
        "PepsiCo, Inc.",
        "PEP",
        "NASDAQ",
    )
    assert (p.fiscal_year, p.fiscal_quarter) == (2023, 1)
    assert p.report_date == "2023-04-25"


def test_old_cover_without_exact_name_caption_or_symbols():
    p = read_profile([OLD_10K])
    assert (p.doc_type, p.company, p.ticker) == ("10-K", "MICROSOFT CORPORATION", None)
    assert p.period_end == "2016-06-30"


def test_other_document():
    p = read_profile(["Minutes of the annual picnic committee\nWe discussed sandwiches."])
    assert p.doc_type == "other" and p.ticker is None and p.period_end is None
    assert read_profile([]).doc_type == "other"


def test_dates_and_fiscal_years():
    assert parse_date("ended Sept. 24, 2022") is not None
    assert str(parse_date("For the fiscal year ended January 1, 2023")) == "2023-01-01"
    assert fiscal_year_of(parse_date("January 1, 2023")) == 2022  # type: ignore[arg-type]
    assert fiscal_year_of(parse_date("January 28, 2023")) == 2023  # type: ignore[arg-type]


def test_profile_round_trips():
    p = read_profile([TEN_K])
    assert DocumentProfile.from_dict(json.loads(json.dumps(p.to_dict()))) == p
    assert p.metadata()["ticker"] == "PEP" and p.metadata()["fiscal_year"] == "2022"


# --- matching ----------------------------------------------------------------------------------


def _prof(company: str, ticker: str | None) -> DocumentProfile:
    return DocumentProfile(doc_type="10-K", company=company, ticker=ticker)


PROFILES = {
    "pep22": _prof("PepsiCo, Inc.", "PEP"),
    "ko22": _prof("The Coca-Cola Company", "KO"),
    "jnj": _prof("JOHNSON & JOHNSON", "JNJ"),
    "axp": _prof("American Express Company", "AXP"),
    "bby": _prof("BEST BUY CO., INC.", "BBY"),
    "ford": _prof("Ford Motor Company", "F"),
    "amd": _prof("ADVANCED MICRO DEVICES, INC.", "AMD"),
    "pep23": _prof("PepsiCo, Inc.", "PEP"),
    "mmm": _prof("3M COMPANY", "MMM"),
    "jpm": _prof("JPMorgan Chase & Co.", "JPM"),
}


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("compare PEP and KO capex", ["pep22", "ko22", "pep23"]),
        ("what was pepsi's revenue in 2022?", ["pep22", "pep23"]),
        ("PepsiCo Inc. operating margin", ["pep22", "pep23"]),
        ("$pep free cash flow", ["pep22", "pep23"]),
        ("J&J pharmaceutical sales", ["jnj"]),
        ("Johnson and Johnson dividends", ["jnj"]),
        ("Amex card member loans", ["axp"]),
        ("american express net interest income", ["axp"]),
        ("Best Buy inventory turns", ["bby"]),
        ("compare F and AMD gross margin", ["ford", "amd"]),
        ("Advanced Micro Devices R&D", ["amd"]),
        ("3M litigation reserves", ["mmm"]),
        ("jpmorgan net interest margin", ["jpm"]),
        ("Coca Cola volume growth", ["ko22"]),
    ],
)
def test_match_documents(request_text, expected):
    assert match_documents(request_text, PROFILES) == expected


@pytest.mark.parametrize(
    "request_text",
    [
        "what is the best operating margin among these companies?",
        "A summary of revenue growth for American companies",
        "compare capex and free cash flow",
        "Is the pepper market growing?",
        "",
    ],
)
def test_requests_naming_no_company_match_none(request_text):
    assert match_documents(request_text, PROFILES) == []


def test_one_ticker_never_matches_every_document():
    assert match_documents("PEP capex", PROFILES) == ["pep22", "pep23"]
    assert match_documents("pep capex", {"a": _prof("Foo Corp", "PEP")}) == []  # case matters


def test_normalize_company():
    assert normalize_company("PepsiCo, Inc.") == "pepsico"
    assert normalize_company("The AES Corporation") == "aes"
    assert normalize_company("Amazon.com, Inc.") == "amazon"
    assert normalize_company("Amcor plc") == "amcor"
    assert names_company("Pepsi", "PepsiCo, Inc.")
    assert not names_company("Pepsi", "The Coca-Cola Company")


# --- real documents ----------------------------------------------------------------------------


def _first_pages(path, n=60):
    return page_texts(str(path), limit=n)


def _key() -> dict[str, dict]:
    path = DEVSET / "documents.jsonl"
    if not path.exists() or not DOCS.is_dir():
        pytest.skip(f"shared devset not present at {DEVSET} (set SHARED_DATA to the data folder)")
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {r["doc_name"]: r for r in rows}


@pytest.fixture(scope="module")
def devset_profiles() -> dict[str, tuple[DocumentProfile, dict]]:
    key = _key()
    out = {}
    for pdf in sorted(DOCS.glob("*.pdf")):
        if pdf.stem in key:
            out[pdf.stem] = (read_profile(_first_pages(pdf)), key[pdf.stem])
    if not out:
        pytest.skip(f"no devset PDFs in {DOCS}")
    return out


def test_devset_types_companies_and_periods(devset_profiles):
    wrong = []
    for name, (prof, row) in devset_profiles.items():
        want = KEY_TYPES[row["doc_type"].lower()]
        if prof.doc_type != want:
            wrong.append(f"{name}: type {prof.doc_type} != {want}")
        if not match_documents(row["company"], {name: prof}):
            wrong.append(f"{name}: company {prof.company!r} not named by {row['company']!r}")
        year = str(row["doc_period"])
        if str(prof.fiscal_year) != year and not (prof.period_end or "").startswith(year):
            wrong.append(f"{name}: FY{prof.fiscal_year} / {prof.period_end} vs {year}")
        if prof.doc_type in ("10-K", "10-Q") and not prof.company:
            wrong.append(f"{name}: no company")
    assert not wrong, "\n".join(wrong)


def test_devset_request_matches_only_named_documents(devset_profiles):
    profiles = {name: prof for name, (prof, _) in devset_profiles.items()}
    hits = match_documents("compare PEP and JNJ capex", profiles)
    assert hits and all(h.startswith(("PEPSICO", "JOHNSON_JOHNSON")) for h in hits)
    assert len(hits) == sum(1 for n in profiles if n.startswith(("PEPSICO", "JOHNSON_JOHNSON")))
    amex = match_documents("Amex card member loans", profiles)
    assert amex == ["AMERICANEXPRESS_2022_10K"]
    assert match_documents("what drives operating margins?", profiles) == []


def test_ingest_attaches_profile(tmp_path):
    path = DOCS / "JPMORGAN_2023Q2_10Q.pdf"
    if not path.exists():
        pytest.skip(f"shared devset not present: {path} (set SHARED_DATA to the data folder)")
    doc = ingest_pdf(path.read_bytes(), cache_dir=tmp_path, workers=1)
    assert doc.company == "JPMorgan Chase & Co."  # from the cover, not "JPMORGAN_2023Q2_10Q"
    assert (doc.doc_type, doc.ticker) == ("10-Q", "JPM")
    assert doc.metadata["doc_type"] == "10-Q" and doc.metadata["period_end"] == "2023-06-30"
    assert doc.metadata["fiscal_quarter"] == "2"
    again = ingest_pdf(path.read_bytes(), cache_dir=tmp_path, workers=1)
    assert again.from_cache and again.profile == doc.profile
    assert ParsedDocument.from_dict(doc.to_dict()).profile == doc.profile
