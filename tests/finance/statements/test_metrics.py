"""FinanceBench "metrics-generated" questions, answered from the canonical statements."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from finance.statements import FinancialStatements
from tests.finance.statements.helpers import questions, statements


def _v(s: FinancialStatements, statement: str, key: str, year: str) -> float:
    value = s.get(statement, key, year)
    assert value is not None, f"{s.document}: {statement}.{key}.{year} missing"
    return value


@dataclass(frozen=True)
class Metric:
    doc: str
    formula: Callable[[FinancialStatements], float]
    tolerance: float  # how far the printed answer may be from the exact value, by its rounding


IS, BS, CF = "income_statement", "balance_sheet", "cash_flow"

METRICS: dict[str, Metric] = {
    # 3M FY2018 capex: "Purchases of property, plant and equipment (PP&E)" -> $1577.00 (millions)
    "financebench_id_03029": Metric(
        "3M_2018_10K", lambda s: _v(s, CF, "capital_expenditure", "FY2018"), 0.5
    ),
    # 3M FY2018 net PP&E in USD billions: 8,738 -> "$8.70", i.e. rounded to one decimal.
    "financebench_id_04672": Metric(
        "3M_2018_10K", lambda s: _v(s, BS, "ppe_net", "FY2018") / 1000, 0.05
    ),
    # Amazon FY2019 net income -> $11588.00
    "financebench_id_08286": Metric(
        "AMAZON_2019_10K", lambda s: _v(s, IS, "net_income", "FY2019"), 0.5
    ),
    # Best Buy FY2019 (year ended Feb 2, 2019) merchandise inventories -> $5409.00
    "financebench_id_04417": Metric(
        "BESTBUY_2019_10K", lambda s: _v(s, BS, "inventories", "FY2019"), 0.5
    ),
    # Costco FY2021 total assets -> $59268.00
    "financebench_id_04209": Metric(
        "COSTCO_2021_10K", lambda s: _v(s, BS, "total_assets", "FY2021"), 0.5
    ),
    # CVS FY2018 fixed asset turnover = revenue / average(PP&E FY2017, FY2018) -> 17.98
    "financebench_id_05915": Metric(
        "CVSHEALTH_2018_10K",
        lambda s: (
            _v(s, IS, "revenue", "FY2018")
            / ((_v(s, BS, "ppe_net", "FY2018") + _v(s, BS, "ppe_net", "FY2017")) / 2)
        ),
        0.005,
    ),
    # Microsoft FY2016 COGS: "Total cost of revenue" -> $32780.00
    "financebench_id_04700": Metric(
        "MICROSOFT_2016_10K", lambda s: _v(s, IS, "cost_of_revenue", "FY2016"), 0.5
    ),
    # Netflix FY2017 total current liabilities: $5,466,312 thousands -> $5466.00 (millions)
    "financebench_id_03282": Metric(
        "NETFLIX_2017_10K", lambda s: _v(s, BS, "total_current_liabilities", "FY2017"), 0.5
    ),
    # Nike FY2019 (year ended May 31, 2019) total current assets -> $16525.00
    "financebench_id_03531": Metric(
        "NIKE_2019_10K", lambda s: _v(s, BS, "total_current_assets", "FY2019"), 0.5
    ),
}


def _answer(text: str) -> float:
    return float(text.strip().replace("$", "").replace(",", "").rstrip("%"))


def test_every_metric_question_has_a_formula():
    found = {qid for qid, q in questions().items() if q.get("question_type") == "metrics-generated"}
    if not found:
        pytest.skip("financebench_dev.jsonl is absent")
    assert found == set(METRICS)


@pytest.mark.parametrize("qid", sorted(METRICS))
def test_metric_question(qid):
    record = questions().get(qid)
    if record is None:
        pytest.skip("financebench_dev.jsonl is absent")
    metric = METRICS[qid]
    assert record["doc_name"] == metric.doc
    s = statements(metric.doc)
    value = metric.formula(s)
    expected = _answer(record["answer"])
    assert abs(value - expected) <= metric.tolerance + 1e-9, (qid, value, expected)
