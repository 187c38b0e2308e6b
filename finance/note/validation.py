"""Checks for reading a note dict: each names the path of what it rejects."""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any, NoReturn


class NoteError(ValueError):
    """A note dict that does not follow the contract; the message starts with the failing path."""


def fail(path: str, message: str) -> NoReturn:
    raise NoteError(f"{path}: {message}" if path else message)


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def kind_of(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else type(value).__name__
    )


def read_object(
    data: Any, path: str, required: Collection[str], optional: Collection[str] = ()
) -> Mapping[str, Any]:
    """The dict at `path`, with every required key and no key outside the contract."""
    if not isinstance(data, dict):
        fail(path, f"expected an object, got {kind_of(data)}")
    for key in required:
        if key not in data:
            fail(join(path, key), "is required")
    for key in data:
        if key not in required and key not in optional:
            fail(join(path, str(key)), "is not part of the note contract")
    return data


def read_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        fail(path, f"expected a list, got {kind_of(value)}")
    return value


def read_str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        fail(path, f"expected a string, got {kind_of(value)}")
    return value


def read_int(value: Any, path: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        fail(path, f"expected an integer, got {kind_of(value)}")
    if value < minimum:
        fail(path, f"expected an integer >= {minimum}, got {value}")
    return value


def read_float(value: Any, path: str) -> float:
    # Ints stay ints so that to_dict(from_dict(x)) == x holds byte for byte in JSON too.
    if isinstance(value, bool) or not isinstance(value, int | float):
        fail(path, f"expected a number, got {kind_of(value)}")
    if not math.isfinite(value):
        fail(path, f"expected a finite number, got {value}")
    return value


def read_timestamp(value: Any, path: str) -> str:
    text = read_str(value, path)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        fail(path, f"expected an ISO-8601 date/time, got {text!r}")
    return text


def read_choice(value: Any, path: str, choices: Collection[str]) -> str:
    text = read_str(value, path)
    if text not in choices:
        fail(path, f"expected one of {', '.join(sorted(choices))}, got {text!r}")
    return text
