"""The finance agent end to end: the offline research plan over a real 10-K, and its note."""

from __future__ import annotations

import re

import pytest

from agents.models import Event
from agents.services.runs import run_create
from finance.models import Note
from finance.services.documents import document_upload
from tests.finance.uploads import needs_filings, ready_netflix_workspace

pytestmark = [pytest.mark.django_db, needs_filings]


@pytest.fixture
def workspace(alice, make_workspace, django_capture_on_commit_callbacks):
    return ready_netflix_workspace(alice, make_workspace, django_capture_on_commit_callbacks)


def _tool_calls(run):
    return [
        e.payload["name"] for e in Event.objects.filter(run=run, type="tool.call").order_by("seq")
    ]


def test_analyse_this_10k_runs_the_plan_and_writes_a_cited_note(workspace, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="Analyse this 10-K"))
    assert run.status == "succeeded", run.message
    assert _tool_calls(run)[0] == "list_documents"
    assert "analyse_financials" in _tool_calls(run)
    assert _tool_calls(run)[-1] == "write_note"
    note = Note.objects.get(run=run)
    assert "Netflix" in note.title
    # The answer links the note and states computed figures: 2017 operating margin 838.7/11692.7.
    assert f"/finance/notes/{note.pk}/" in run.message
    assert "operating margin 7.2%" in run.message
    headings = [s["heading"] for s in note.body["sections"]]
    assert "Netflix, Inc.: margins" in headings
    assert "From the filing" in headings
    assert Event.objects.filter(run=run, type="note.created").exists()


def test_the_note_page_links_every_figure_to_its_page(workspace, client, alice, finish_run):
    finish_run(run := run_create(workspace=workspace, prompt="Analyse this 10-K"))
    note = Note.objects.get(run=run)
    client.force_login(alice)
    page = client.get(f"/finance/notes/{note.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    # Revenue FY2017 links to the page viewer on the income statement with its box.
    assert re.search(r'href="/finance/documents/\d+/pages/41/\?box=[\d.,]+', html)
    assert "11,692.7" in html
    markdown = client.get(f"/api/v1/finance/notes/{note.pk}.md")
    assert markdown.status_code == 200
    assert "[11,692.7](http://testserver/finance/documents/" in markdown.content.decode()
    pdf = client.get(f"/api/v1/finance/notes/{note.pk}.pdf")
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")


def test_compare_margins_keeps_to_the_years_asked_for(workspace, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="compare margins 2016-2017"))
    assert run.status == "succeeded", run.message
    note = Note.objects.get(run=run)
    table = next(
        b
        for s in note.body["sections"]
        if s["heading"] == "Netflix, Inc.: margins"
        for b in s["blocks"]
        if b["type"] == "table"
    )
    assert table["columns"][1:] == ["FY2017", "FY2016"]


def test_a_cross_check_without_a_ticker_says_what_it_needs(workspace, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="cross-check with SEC data"))
    assert run.status == "succeeded"
    assert "needs the company's ticker" in run.message


def test_without_documents_it_says_how_to_start(alice, make_workspace, finish_run):
    space = make_workspace(alice, name="Empty", kind="finance")
    run = finish_run(run_create(workspace=space, prompt="analyse this 10-K"))
    assert run.status == "succeeded"
    assert "No filing is ready" in run.message
    assert not Note.objects.exists()


def test_other_notes_are_not_visible(workspace, client, bob, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="compare margins 2016-2017"))
    note = Note.objects.get(run=run)
    client.force_login(bob)
    assert client.get(f"/finance/notes/{note.pk}/").status_code == 404
    response = client.get(f"/api/v1/finance/notes/{note.pk}.pdf")
    assert response.status_code == 404
    assert response.json()["detail"]


def test_apple_cross_check_reconciles_the_filing_with_recorded_sec_data(
    alice, make_workspace, django_capture_on_commit_callbacks, finish_run, client
):
    from tests.finance.uploads import APPLE_HTML

    space = make_workspace(alice, name="Apple", kind="finance")
    with django_capture_on_commit_callbacks(execute=True):
        document_upload(workspace=space, data=APPLE_HTML.read_bytes(), filename=APPLE_HTML.name)
    run = finish_run(run_create(workspace=space, prompt="Cross-check Apple's 10-K with SEC data"))
    assert run.status == "succeeded", run.message
    # The ticker and CIK come from the filing's own inline XBRL (dei:TradingSymbol, CIK).
    assert "Cross-check against SEC XBRL: 26 agree." in run.message
    # No recorded Yahoo statements exist: said plainly, the rest still done.
    assert "Yahoo Finance" in run.message
    # Ratios come from the filing's own XBRL facts: 180,683 / 391,035 and 123,216 / 391,035.
    assert "Apple Inc. FY2024: gross margin 46.2%, operating margin 31.5%" in run.message
    note = Note.objects.get(run=run)
    assert note.title == "Research note: Apple Inc."
    client.force_login(alice)
    html = client.get(f"/finance/notes/{note.pk}/").content.decode()
    assert "data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json" in html
    assert "391,035" in html  # FY2024 net sales in USD millions


def test_an_unknown_ticker_is_said_plainly_and_the_rest_is_done(workspace, finish_run):
    prompt = "Analyse this 10-K and cross-check ticker ZZZZQ with SEC data"
    run = finish_run(run_create(workspace=workspace, prompt=prompt))
    assert run.status == "succeeded", run.message
    assert "ZZZZQ" in run.message
    assert "cross-check of NETFLIX_2017_10K.pdf not possible" in run.message
    note = Note.objects.get(run=run)
    limits = next(s for s in note.body["sections"] if s["id"] == "limits")
    assert any("ZZZZQ" in str(item) for item in limits["blocks"][0]["items"])
    assert any(s["heading"] == "Netflix, Inc.: margins" for s in note.body["sections"])


def test_a_provider_outage_becomes_a_stated_limit(workspace, finish_run, monkeypatch):
    from finance.providers import ProviderUnavailableError, configured

    class Down:
        def get(self, query):
            raise ProviderUnavailableError("SEC EDGAR did not answer after 4 attempts (503)")

        def company_tickers(self):
            return {"NFLX": 1065280}

    monkeypatch.setattr(configured, "sec_companyfacts", lambda: Down())
    run = finish_run(
        run_create(workspace=workspace, prompt="cross-check ticker NFLX with SEC data")
    )
    assert run.status == "succeeded", run.message
    assert "SEC XBRL: SEC EDGAR did not answer after 4 attempts (503)" in run.message


def _fred_shape(observations: dict[str, float]) -> dict:
    """SHAPE FIXTURE, NOT REAL DATA: FRED's observations response shape with made-up values
    (no recorded FRED response exists in the shared data)."""
    return {
        "units": "lin",
        "observations": [
            {"date": day, "value": str(value)} for day, value in sorted(observations.items())
        ],
    }


def test_the_macro_overlay_pairs_revenue_growth_with_fred_series(
    workspace, finish_run, settings, tmp_path
):
    import json
    import shutil

    from tests.conftest import SHARED_DATA

    shutil.copytree(SHARED_DATA / "finance" / "sec", tmp_path / "sec")
    (tmp_path / "fred").mkdir()
    gdp = {"2015-01-01": 2.0, "2016-01-01": 1.0, "2017-01-01": 3.0}
    cpi = {
        f"{year}-{month:02d}-01": 100.0 + (year - 2015) * 2
        for year in (2015, 2016, 2017)
        for month in (1, 7)
    }
    (tmp_path / "fred" / "A191RL1A225NBEA.json").write_text(json.dumps(_fred_shape(gdp)))
    (tmp_path / "fred" / "CPIAUCSL.json").write_text(json.dumps(_fred_shape(cpi)))
    settings.FINANCE_RECORDED_DIR = str(tmp_path)

    run = finish_run(
        run_create(workspace=workspace, prompt="Netflix growth against GDP and inflation")
    )
    assert run.status == "succeeded", run.message
    note = Note.objects.get(run=run)
    macro = next(s for s in note.body["sections"] if s["id"] == "macro")
    gdp_table = macro["blocks"][0]
    rows = {row[0]: row for row in gdp_table["rows"]}
    # Netflix revenue grew 32.4% in 2017 (11,692.7 / 8,830.7); the fixture's GDP grew 3.0%.
    assert rows["2017"][1]["number"]["display"] == "32.4%"
    assert rows["2017"][2]["number"]["display"] == "3.0%"
    assert rows["2017"][3]["number"]["display"] == "+29.4 pp"
    assert rows["2017"][2]["number"]["source"]["url"].endswith("/series/A191RL1A225NBEA")


def test_price_metrics_come_from_the_recorded_yahoo_history():
    from finance.research.gather import price_view

    view = price_view("NVDA", (2010, 2013))
    assert not isinstance(view, str), view
    metrics = view.metrics
    assert metrics.total_return.period.startswith("2010-01-")
    assert metrics.total_return.period.endswith("2013-12-31")
    assert -1 < metrics.max_drawdown.value < 0
    assert 0.2 < metrics.annualised_volatility.value < 1.0
    assert view.source["provider"] == "Yahoo Finance (yfinance)"
    assert len(view.closes) == 48  # one month-end close per month


def test_an_unknown_ticker_has_no_price_history():
    from finance.research.gather import price_view

    assert "ZZZZQ" in str(price_view("ZZZZQ", None))


def test_a_model_server_plans_with_the_same_tools_and_writes_the_note(
    workspace, fake_openai, finish_run
):
    from tests.fakes.openai_server import Reply

    workspace.model_base_url, workspace.model_name = fake_openai.base_url, fake_openai.model
    workspace.save()
    document = workspace.documents.get()
    fake_openai.script(
        Reply.call("list_documents", {}),
        Reply.call("search_document", {"document_id": document.pk, "query": "competition"}),
        Reply.call(
            "write_note",
            {"document_ids": [document.pk], "questions": ["competition"], "valuation": False},
        ),
        Reply.say("The note is written."),
    )
    run = finish_run(
        run_create(
            workspace=workspace,
            prompt="What does Netflix say about competition?",
            options={"planner": "model"},
        )
    )
    assert run.status == "succeeded", run.message
    first = fake_openai.chat_requests[0]
    offered = {tool["function"]["name"] for tool in first.tools}
    assert {"search_document", "cross_check", "write_note", "read_page"} <= offered
    assert "write_note" in first.messages[0]["content"]  # the finance system prompt
    note = Note.objects.get(run=run)
    quotes = [b for s in note.body["sections"] if s["id"] == "filing" for b in s["blocks"]]
    assert quotes and all(q["source"]["document_id"] == document.pk for q in quotes)
    assert "competition" in " ".join(q["content"][0] for q in quotes).lower()


def test_a_question_about_the_filing_is_answered_with_pages(workspace, finish_run):
    run = finish_run(
        run_create(workspace=workspace, prompt="What does the filing say about competition?")
    )
    assert run.status == "succeeded", run.message
    quoted = run.message.split("From the filing:\n", 1)[1]
    assert quoted.startswith("- competition (NETFLIX_2017_10K.pdf p. ")
    assert "compet" in quoted.lower()
    assert "does not write an answer from them (a model server does)" in quoted


def test_a_metric_question_is_not_told_it_was_only_quoted(workspace, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="What was the FY2017 net income?"))
    assert run.status == "succeeded", run.message
    assert "net income FY2017 = " in run.message
    assert "does not write an answer" not in run.message


def test_an_uploaded_csv_of_prices_feeds_the_market_section(
    workspace, finish_run, django_capture_on_commit_callbacks
):
    from tests.conftest import SHARED_DATA

    prices = SHARED_DATA / "finance" / "prices" / "CALM-1d-no-bad-divs.csv"
    with django_capture_on_commit_callbacks(execute=True):
        data_file, _ = document_upload(
            workspace=workspace, data=prices.read_bytes(), filename="calm-prices.csv"
        )
    data_file.refresh_from_db()
    assert data_file.status == "ready", data_file.message
    assert data_file.sections["rows"] == 662 and "Adj Close" in data_file.sections["columns"]

    run = finish_run(
        run_create(
            workspace=workspace, prompt="Analyse this 10-K and the volatility of my prices file"
        )
    )
    assert run.status == "succeeded", run.message
    assert "- Prices (calm-prices.csv, 2022-01-03 to " in run.message
    assert "annualised volatility" in run.message
    note = Note.objects.get(run=run)
    market = next(s for s in note.body["sections"] if s["id"] == "market")
    chart = next(b for b in market["blocks"] if b["type"] == "chart")
    source = chart["caption"][0]["link"]["source"]
    assert source["kind"] == "document" and source["document_id"] == data_file.pk
    assert source["label"] == "Adj Close column of calm-prices.csv"
    # The filing is still analysed; the data file is not mistaken for one.
    assert note.title == "Research note: Netflix, Inc."


def test_a_price_request_without_a_ticker_states_the_limit_once(workspace, finish_run):
    run = finish_run(run_create(workspace=workspace, prompt="Show me the stock volatility"))
    assert run.status == "succeeded"
    lines = [line for line in run.message.splitlines() if "price history" in line.lower()]
    assert len(lines) <= 1, run.message
    assert "annualised volatility" in run.message or lines, run.message


def test_a_ratio_question_is_answered_with_its_formula_inputs_and_pages(workspace, finish_run):
    run = finish_run(
        run_create(
            workspace=workspace,
            prompt="Has Netflix's current ratio improved between FY2016 and FY2017? Is it healthy?",
        )
    )
    assert run.status == "succeeded", run.message
    answers = run.result["result"]["answers"]
    assert [a["period"] for a in answers] == ["FY2017", "FY2016"]
    latest = answers[0]
    assert latest["formula"] == "total current assets / total current liabilities"
    inputs = {i["label"]: i["value"] for i in latest["inputs"]}
    assert latest["value"] == pytest.approx(
        inputs["total current assets FY2017"] / inputs["total current liabilities FY2017"]
    )
    lead = run.message.splitlines()[0]
    assert "current ratio FY2017 = " in lead and "current ratio FY2016 = " in lead
    assert ("so up" in lead) or ("so down" in lead)
    assert "does not judge it" in run.message


def test_a_capex_share_question_is_not_answered_with_the_capex_amount(workspace, finish_run):
    run = finish_run(
        run_create(workspace=workspace, prompt="What is the FY2017 capex as a share of revenue?")
    )
    (answer,) = run.result["result"]["answers"]
    assert answer["unit"] == "%" and 0 < answer["value"] < 100
    assert answer["label"] == "capital expenditure as a share of revenue FY2017"


def test_writing_the_note_is_recorded_once_per_call(workspace, finish_run):
    from agents.models import ToolCallRecord

    run = finish_run(run_create(workspace=workspace, prompt="Analyse this 10-K"))

    (record,) = ToolCallRecord.objects.filter(run=run)
    assert record.call_key.endswith(":note") and '"note_id"' in record.content
    assert Note.objects.filter(run=run).count() == 1
