"""A host-wide cap on work running at once: N lock files, one held (flock) per piece of work,
shared by every process of the host that uses the same directory; a lock dies with the process
holding it, so a killed process never leaves a slot taken."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path


class SlotsBusy(RuntimeError):
    """Every slot was held for as long as the caller would wait."""


@contextmanager
def host_slot(
    directory: Path, count: int, *, wait_seconds: float = 0.0, poll_seconds: float = 0.05
) -> Iterator[int]:
    """Hold one of `count` slots for the block (its number); SlotsBusy when all are still held
    after `wait_seconds`. A count of 0 means no cap."""
    if count <= 0:
        yield -1
        return
    _make_shared(directory)
    deadline = time.monotonic() + wait_seconds
    while True:
        held = _take_one(directory, count)
        if held is not None:
            number, fd = held
            try:
                yield number
            finally:
                os.close(fd)  # releases the lock
            return
        if time.monotonic() >= deadline:
            raise SlotsBusy(f"all {count} slots of {directory.name} are in use")
        time.sleep(poll_seconds)


def _take_one(directory: Path, count: int) -> tuple[int, int] | None:
    for number in range(count):
        # read-only is enough for flock, so a slot file another user made serves this one too
        fd = os.open(directory / f"slot-{number}", os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return number, fd
    return None


def _make_shared(directory: Path) -> None:
    """The slot directory, open to every user of the host (sticky, as /tmp), made once."""
    if directory.is_dir():
        return
    directory.mkdir(parents=True, exist_ok=True)
    with suppress(PermissionError):  # another user made it meanwhile
        directory.chmod(0o1777)
