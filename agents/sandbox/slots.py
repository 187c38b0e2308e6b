"""A host-wide cap on sandboxes running at once: N lock files, one held (flock) per run, shared by
every process of the host that uses the same directory; a lock dies with the process holding it."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from agents.sandbox.errors import SandboxBusy


@contextmanager
def sandbox_slot(directory: Path, count: int) -> Iterator[int]:
    """Hold one of `count` slots for the block (its number); SandboxBusy at once when all are held.
    A count of 0 means no cap."""
    if count <= 0:
        yield -1
        return
    _make_shared(directory)
    for number in range(count):
        # read-only is enough for flock, so a slot file another user made serves this one too
        fd = os.open(directory / f"slot-{number}", os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield number
        finally:
            os.close(fd)  # releases the lock
        return
    raise SandboxBusy(
        f"the sandbox is busy: {count} runs are going on at once on this host, the most "
        "SANDBOX_MAX_CONCURRENT allows; try again in a moment"
    )


def _make_shared(directory: Path) -> None:
    """The slot directory, open to every user of the host (sticky, as /tmp), made once."""
    if directory.is_dir():
        return
    directory.mkdir(parents=True, exist_ok=True)
    with suppress(PermissionError):  # another user made it meanwhile
        directory.chmod(0o1777)
