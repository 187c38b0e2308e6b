"""Show the app's logs under a failed test: a hook and a fixture the stack-using conftests import.

pytest takes hooks and fixtures from a conftest by name, so `from ... import` them there.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.stack import report_logs_on_failure


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(autouse=True)
def _app_logs_on_failure(request) -> Iterator[None]:
    yield
    report_logs_on_failure(request.node)
