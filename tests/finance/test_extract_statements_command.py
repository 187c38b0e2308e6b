"""`manage.py extract_statements FILE --json` prints the canonical statements contract."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.conftest import SHARED_DATA

NETFLIX = SHARED_DATA / "finance" / "filings" / "NETFLIX_2017_10K.pdf"


@pytest.mark.skipif(not NETFLIX.exists(), reason=f"shared filings not found at {NETFLIX.parent}")
def test_json_follows_the_contract():
    out = StringIO()
    call_command("extract_statements", str(NETFLIX), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert (data["document"], data["currency"], data["unit"]) == (
        "NETFLIX_2017_10K.pdf",
        "USD",
        "millions",
    )
    assert data["fiscal_years"] == ["FY2017", "FY2016", "FY2015"]
    revenue = data["income_statement"]["revenue"]["FY2017"]
    assert revenue["value"] == pytest.approx(11692.713) and revenue["page"] == 41
    assert len(revenue["bbox"]) == 4
    assert {"balance_sheet", "cash_flow"} <= data.keys()
    assert data["balance_sheet"]["total_current_liabilities"]["FY2017"]["value"] == pytest.approx(
        5466.312
    )


def test_bad_files_get_a_clear_error(tmp_path):
    text = tmp_path / "notes.pdf"
    text.write_text("not a pdf at all")
    with pytest.raises(CommandError, match=r"notes\.pdf: the file is not a PDF"):
        call_command("extract_statements", str(text))
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(CommandError, match=r"empty\.pdf"):
        call_command("extract_statements", str(empty))
    with pytest.raises(CommandError, match=r"cannot read .*missing\.pdf"):
        call_command("extract_statements", str(tmp_path / "missing.pdf"))


def test_an_sec_html_filing_is_read_from_its_inline_xbrl(tmp_path):
    apple = SHARED_DATA / "finance" / "filings" / "APPLE_2024_10K.html"
    if not apple.exists():
        pytest.skip(f"no filing at {apple}")
    out = StringIO()
    call_command("extract_statements", str(apple), "--json", stdout=out)
    statements = json.loads(out.getvalue())
    assert statements["income_statement"]["net_income"]["FY2024"]["value"] == 93736
    plain = tmp_path / "plain.html"
    plain.write_text("<html><body><p>Annual report</p></body></html>")
    with pytest.raises(CommandError, match="no inline XBRL financial facts"):
        call_command("extract_statements", str(plain))
