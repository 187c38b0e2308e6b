"""A Celery broker for tests: `app.send_task` that refuses the first sends, then records."""

from __future__ import annotations

from typing import Any


class FlakyBroker:
    """`app.send_task` that refuses the first `failures` sends, then records what it took."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.sent: list[tuple[str, tuple[Any, ...]]] = []
        self.countdowns: list[float | None] = []

    def __call__(self, name: str, args: tuple[Any, ...] = (), **options: Any) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionRefusedError("the broker is down")
        self.sent.append((name, tuple(args)))
        self.countdowns.append(options.get("countdown"))
