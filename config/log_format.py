"""The two ways a log line is written (LOG_FORMAT): one JSON object, or readable text.

Both show the context `agents.runtime.log_context.LogContext` adds to the record (run, user,
request, step, tool); JSON always carries every field, text only the ones that are set.
"""

from __future__ import annotations

import logging
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter as BaseJsonFormatter

from agents.runtime.log_context import FIELDS

TEXT_LABELS = {"run_id": "run", "user_id": "user", "request_id": "request"}


class TextFormatter(logging.Formatter):
    """`time LEVEL logger: message [run=… user=… step=… tool=…]`, for people reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        line = super().formatMessage(record)
        context = [
            f"{TEXT_LABELS.get(name, name)}={value}"
            for name in FIELDS
            if (value := getattr(record, name, None)) is not None
        ]
        return f"{line} [{' '.join(context)}]" if context else line


class JsonFormatter(BaseJsonFormatter):
    """One JSON object a line: timestamp, level, logger, message, the context, any `extra=`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            ["levelname", "name", "message"],
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp=True,
            # uvicorn's copy of the message with terminal colours in it
            reserved_attrs=[*RESERVED_ATTRS, "color_message"],
            **kwargs,
        )

    def format(self, record: logging.LogRecord) -> str:
        if not (record.exc_info and record.exc_text):
            return super().format(record)
        # A handler filter (config.log_redaction) rewrote the traceback into exc_text; the base
        # class would format exc_info afresh and undo that, so it sees only the rewritten text.
        exc_info, record.exc_info = record.exc_info, None
        try:
            return super().format(record)
        finally:
            record.exc_info = exc_info
