"""Shared, cached extraction of the filings under SHARED_DATA (each PDF is parsed once)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from finance.statements import FinancialStatements, extract_statements
from tests.conftest import SHARED_DATA

FINANCE = SHARED_DATA / "finance"
FILINGS = FINANCE / "filings"
QUESTIONS = FINANCE / "financebench_dev.jsonl"


def filing(doc_name: str) -> Path:
    path = FILINGS / f"{doc_name}.pdf"
    if not path.exists():
        pytest.skip(f"shared filing {path} is absent")
    return path


@functools.cache
def _statements(doc_name: str) -> FinancialStatements:
    return extract_statements(FILINGS / f"{doc_name}.pdf")


def statements(doc_name: str) -> FinancialStatements:
    filing(doc_name)
    return _statements(doc_name)


def questions() -> dict[str, dict[str, str]]:
    if not QUESTIONS.exists():
        return {}
    out: dict[str, dict[str, str]] = {}
    for line in QUESTIONS.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            out[record["financebench_id"]] = record
    return out
