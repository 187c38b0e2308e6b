"""Test doubles for provider HTTP: a requests-compatible session stub and a manual clock."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import requests


class ManualClock:
    """Monotonic time that only moves when told to; ``sleep`` advances it."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@dataclass
class FakeResponse:
    status_code: int
    payload: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        if isinstance(self.payload, bytes | str):
            return json.loads(self.payload)
        return self.payload


class FakeSession:
    """Replays a script of responses (or exceptions) and records each request."""

    def __init__(self, *script: FakeResponse | BaseException) -> None:
        self.script = list(script)
        self.calls: list[dict[str, Any]] = []

    def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 0,
    ) -> FakeResponse:
        self.calls.append(
            {"url": url, "params": dict(params or {}), "headers": dict(headers or {})}
        )
        if not self.script:
            raise AssertionError(f"unexpected request to {url}")
        item = self.script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item


def timeout() -> requests.Timeout:
    return requests.Timeout("read timed out")
