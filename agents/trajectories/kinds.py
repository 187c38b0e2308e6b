"""Signals a workspace kind adds to its runs' trajectories (e.g. finance's answered questions).

Workspace apps register in `AppConfig.ready`, as they register their tools; this app never
imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from agents.trajectories.signals import EventDict, Signal

if TYPE_CHECKING:
    from agents.models import Run

KindSignals = Callable[["Run", Sequence[EventDict]], list[Signal]]
"""`signals(run, events)`: the run and its events (as dicts, in seq order) to extra signals."""

_signals: dict[str, KindSignals] = {}


def register_signals(kind: str, function: KindSignals) -> None:
    """Add `function`'s signals to every trajectory of a workspace kind (the latest one wins)."""
    _signals[kind] = function


def signals_for(kind: str) -> KindSignals | None:
    return _signals.get(kind)


def registered_kinds() -> list[str]:
    return sorted(_signals)
