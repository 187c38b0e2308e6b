from __future__ import annotations

import json

import pytest

from tests.conftest import SHARED_DATA

FINANCE_DATA = SHARED_DATA / "finance"
COMPANYFACTS = FINANCE_DATA / "sec" / "companyfacts_CIK0000320193_AAPL.json"
PRICES = FINANCE_DATA / "prices"


@pytest.fixture(scope="session")
def apple_companyfacts_payload():
    if not COMPANYFACTS.is_file():
        pytest.skip(f"recorded SEC companyfacts not found at {COMPANYFACTS}")
    return json.loads(COMPANYFACTS.read_text())
