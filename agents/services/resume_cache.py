"""A worker's memory of the runs it just advanced, so its next slice need not reload them.

A slice that ends with the run still going leaves its state here; when the same process takes
the next slice and nobody advanced the run in between (the run's slice count is ours plus one
and its checkpoint is the one we wrote), the state and its measured message sizes are reused
instead of reading the conversation back and measuring it again. Anything else (another worker
took a slice, a unit was lost, the process restarted) finds no match and loads from the database,
which stays the truth.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from agents.runtime import RunState
from agents.runtime.compression import MessageSizes

CAPACITY = 64


@dataclass(frozen=True)
class Resumable:
    state: RunState
    sizes: MessageSizes
    slices: int
    """The run's slice count when this process held it."""
    checkpoint_seq: int
    message_count: int


_entries: OrderedDict[int, Resumable] = OrderedDict()
_lock = threading.Lock()


def resume_keep(run_id: int, entry: Resumable) -> None:
    with _lock:
        _entries[run_id] = entry
        _entries.move_to_end(run_id)
        while len(_entries) > CAPACITY:
            _entries.popitem(last=False)


def resume_take(run_id: int, *, slices: int, checkpoint_seq: int) -> Resumable | None:
    """The kept state when it is still the run's latest (see the module docstring); taken out
    either way, so a state object is never used by two slices."""
    with _lock:
        entry = _entries.pop(run_id, None)
    if entry is None or entry.slices + 1 != slices or entry.checkpoint_seq != checkpoint_seq:
        return None
    return entry
