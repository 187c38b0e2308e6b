"""Skip the sandbox tests, with the reason, where bubblewrap is missing or cannot sandbox."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def bwrap() -> str:
    from agents.sandbox import SandboxUnavailable, available

    try:
        return available()
    except SandboxUnavailable as error:
        pytest.skip(str(error))
