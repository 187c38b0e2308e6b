from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from finance.reconcile.ixbrl import InlineXbrlError, annual_figures, parse_inline_xbrl, parse_number

MINI = b"""<?xml version="1.0"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"
 xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi">
<body>
<ix:header><ix:resources>
 <xbrli:context id="d"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier>
  </xbrli:entity><xbrli:period><xbrli:startDate>2023-10-01</xbrli:startDate>
  <xbrli:endDate>2024-09-28</xbrli:endDate></xbrli:period></xbrli:context>
 <xbrli:context id="i"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier>
  </xbrli:entity><xbrli:period><xbrli:instant>2024-09-28</xbrli:instant></xbrli:period>
 </xbrli:context>
 <xbrli:context id="seg"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier>
  <xbrli:segment><xbrldi:explicitMember dimension="srt:ProductOrServiceAxis">us-gaap:ProductMember
  </xbrldi:explicitMember></xbrli:segment></xbrli:entity><xbrli:period>
  <xbrli:startDate>2023-10-01</xbrli:startDate><xbrli:endDate>2024-09-28</xbrli:endDate>
  </xbrli:period></xbrli:context>
</ix:resources></ix:header>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="d">2024</ix:nonNumeric>
<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="d" unitRef="usd" scale="6"
 decimals="-6" format="ixt:num-dot-decimal" id="a">93,<b>736</b></ix:nonFraction>
<ix:nonFraction name="us-gaap:OtherNonoperatingIncomeExpense" contextRef="d" unitRef="usd"
 scale="6" sign="-" decimals="-6" format="ixt:num-dot-decimal" id="b">269</ix:nonFraction>
<ix:nonFraction name="us-gaap:Goodwill" contextRef="i" unitRef="usd" scale="6"
 format="ixt:fixed-zero" id="c">&#8212;</ix:nonFraction>
<ix:nonFraction name="us-gaap:NetIncomeLoss" contextRef="seg" unitRef="usd" scale="6"
 format="ixt:num-dot-decimal" id="s">1,000</ix:nonFraction>
</body></html>"""


def test_mini_document_scale_sign_format_and_dimensions():
    document = parse_inline_xbrl(MINI)
    assert document.fiscal_year_focus == 2024
    assert document.period_end() == dt.date(2024, 9, 28)
    figures = annual_figures(document)
    assert figures[("NetIncomeLoss", 2024)].value == 93_736  # nested markup, scale 6
    assert figures[("NetIncomeLoss", 2024)].precision_musd == 0.5
    assert figures[("OtherNonoperatingIncomeExpense", 2024)].value == -269  # sign="-"
    assert figures[("Goodwill", 2024)].value == 0  # fixed-zero
    segment = [f for f in document.facts if f.context.dimensions]
    assert len(segment) == 1 and segment[0].value == Decimal(1_000_000_000)


def test_parse_number_formats():
    assert parse_number("1,234.5", "ixt:num-dot-decimal") == Decimal("1234.5")
    assert parse_number("1.234,5", "ixt:num-comma-decimal") == Decimal("1234.5")
    assert parse_number("no", "ixt-sec:numwordsen") == 0
    with pytest.raises(InlineXbrlError):
        parse_number("lots", "ixt-sec:numwordsen")


def test_apple_10k_key_facts(apple_10k):
    assert apple_10k.fiscal_year_focus == 2024
    assert apple_10k.period_end() == dt.date(2024, 9, 28)
    figures = annual_figures(apple_10k)
    expected_2024 = {
        "RevenueFromContractWithCustomerExcludingAssessedTax": 391_035,
        "CostOfGoodsAndServicesSold": 210_352,
        "GrossProfit": 180_683,
        "OperatingIncomeLoss": 123_216,
        "NetIncomeLoss": 93_736,
        "Assets": 364_980,
        "Liabilities": 308_030,
        "StockholdersEquity": 56_950,
        "NetCashProvidedByUsedInOperatingActivities": 118_254,
        "PaymentsToAcquirePropertyPlantAndEquipment": 9_447,
    }
    for concept, value in expected_2024.items():
        assert figures[(concept, 2024)].value == value, concept
    assert figures[("NetIncomeLoss", 2023)].value == 96_995
    assert figures[("Assets", 2023)].value == 352_583
    assert figures[("Assets", 2023)].end == dt.date(2023, 9, 30)
