"""A host-wide cap on sandboxes running at once (`agents.host_slots`): past it a run is refused
at once, saying so."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from agents.host_slots import SlotsBusy, host_slot
from agents.sandbox.errors import SandboxBusy


@contextmanager
def sandbox_slot(directory: Path, count: int) -> Iterator[int]:
    """Hold one of `count` slots for the block (its number); SandboxBusy at once when all are held.
    A count of 0 means no cap."""
    with ExitStack() as stack:
        try:
            number = stack.enter_context(host_slot(directory, count))
        except SlotsBusy:
            raise SandboxBusy(
                f"the sandbox is busy: {count} runs are going on at once on this host, the most "
                "SANDBOX_MAX_CONCURRENT allows; try again in a moment"
            ) from None
        yield number
