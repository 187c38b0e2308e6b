"""What a log line is about (run, user, request, step, tool), carried in context variables.

Pure Python so the loop can set the step and tool; the web, worker and consumer set the rest.
A `LogContext` filter on the log handler copies the values onto every record (None when unset).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

FIELDS = ("run_id", "user_id", "request_id", "step", "tool")
_VARS: dict[str, ContextVar[Any]] = {
    name: ContextVar(f"log_{name}", default=None) for name in FIELDS
}


def log_values() -> dict[str, Any]:
    """The context as it is now, every field included (None when unset)."""
    return {name: var.get() for name, var in _VARS.items()}


def bind(**values: Any) -> None:
    """Set fields until the enclosing `log_scope` ends (or, outside one, the context does)."""
    for name, value in values.items():
        _VARS[name].set(value)


@contextmanager
def log_scope(**values: Any) -> Iterator[None]:
    """Set fields for the block; on leaving it they (and any `bind` of them inside) revert."""
    tokens = [(_VARS[name], _VARS[name].set(value)) for name, value in values.items()]
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


class LogContext(logging.Filter):
    """Adds the context fields to every record that passes; never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in log_values().items():
            if getattr(record, name, None) is None:  # an explicit `extra=` value wins
                setattr(record, name, value)
        return True
