"""JSON from users is refused past JSON_MAX_DEPTH levels of nesting, before it is parsed: Python's
parser recurses once per level, so 1,000 nested brackets were an unhandled RecursionError (a 500
on every JSON endpoint). The depth is counted without recursion, outside strings."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# A JSON string, escapes included: brackets inside one do not nest anything.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]+")


class TooDeep(ValueError):
    """The document nests arrays and objects deeper than the limit."""


def nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Whether `text` opens more than `limit` arrays/objects inside one another."""
    depth = 0
    for run in _BRACKETS.findall(_STRING.sub("", text)):
        for bracket in run:
            depth += 1 if bracket in "[{" else -1
            if depth > limit:
                return True
    return False


def loads_bounded(text: str | bytes) -> Any:
    """`json.loads`, refusing (TooDeep) a document nested deeper than JSON_MAX_DEPTH."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    limit = settings.JSON_MAX_DEPTH
    if nesting_depth_exceeds(text, limit):
        raise TooDeep(f"JSON nested deeper than {limit} levels")
    return json.loads(text)


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser, answering 400 (not a 500) to JSON nested past JSON_MAX_DEPTH."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        raw = stream.read() if stream is not None else b""
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as error:
            raise ParseError(f"JSON parse error - {error}") from error
        limit = settings.JSON_MAX_DEPTH
        if nesting_depth_exceeds(text, limit):
            raise ParseError(f"JSON parse error - nested deeper than {limit} levels.")
        return super().parse(io.BytesIO(raw), media_type, parser_context)
