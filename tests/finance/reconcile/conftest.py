from __future__ import annotations

import pytest

from finance.providers.sec import load_companyfacts_file
from finance.reconcile import parse_inline_xbrl
from tests.conftest import SHARED_DATA

APPLE_10K = SHARED_DATA / "finance" / "filings" / "APPLE_2024_10K.html"
COMPANYFACTS = SHARED_DATA / "finance" / "sec" / "companyfacts_CIK0000320193_AAPL.json"


@pytest.fixture(scope="session")
def apple_10k():
    if not APPLE_10K.is_file():
        pytest.skip(f"recorded Apple FY2024 10-K not found at {APPLE_10K}")
    return parse_inline_xbrl(APPLE_10K)


@pytest.fixture(scope="session")
def apple_companyfacts():
    if not COMPANYFACTS.is_file():
        pytest.skip(f"recorded SEC companyfacts not found at {COMPANYFACTS}")
    return load_companyfacts_file(COMPANYFACTS).data
