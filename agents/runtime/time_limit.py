"""A wall-clock limit on one tool call, enforced with SIGALRM in the calling thread.

`TimeLimit(seconds).call(function, ...)` arms `ITIMER_REAL` and installs a SIGALRM handler
that raises `ToolTimeout` inside the running function, so the call stops where it is and the
registry turns it into an error result. The tool runs in the caller's own thread (never a worker
thread): Django's database connections are per thread, and tests run inside transactions.

Limits of the mechanism, by design:

- It is enforced only in the main thread of a platform that has SIGALRM (Celery's prefork
  children run tasks in their main thread; Celery's own soft limit uses SIGUSR1, so SIGALRM is
  free). Elsewhere (another thread, Windows) the call runs with **no limit**.
- Python runs signal handlers between bytecodes: a call blocked inside C code (a socket read
  without its own timeout, a long database query) is stopped only when it returns to Python, so
  tools that wait on the network should still set their own timeouts.
- It nests: the previous handler and timer are restored afterwards (the timer with the time it
  had left), and an enclosing timer that would fire sooner is left alone (it bounds the call
  already). No timer of ours is ever left armed.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")

_TINY = 1e-6  # an enclosing timer whose time ran out while ours was armed fires at once


class ToolTimeout(BaseException):
    """Raised inside a tool that ran past its limit.

    A `BaseException` (like `KeyboardInterrupt`), so that a tool's own `except Exception` does
    not swallow it and carry on."""

    def __init__(self, seconds: float, limit: object = None) -> None:
        super().__init__(f"timed out after {seconds:g} s")
        self.seconds = seconds
        self.limit = limit


def can_enforce() -> bool:
    """Whether a limit set here would be enforced (main thread, a platform with SIGALRM)."""
    return (
        hasattr(signal, "SIGALRM")
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )


class TimeLimit:
    """A limit for calls made through `call`; `ToolTimeout.limit` is the limit that fired, so an
    enclosing limit's timeout passes through a nested call untouched.

    `seconds` None (or not above zero) means no limit; so does a thread or platform where the
    limit cannot be enforced (see the module docstring)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._active = False
        self._armed = False
        self._previous_handler: Any = None
        self._previous_delay = 0.0
        self._previous_interval = 0.0
        self._started = 0.0

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Call `function(*args, **kwargs)`; raise `ToolTimeout` if it runs past the limit."""
        if self.seconds is None or self.seconds <= 0 or not can_enforce():
            return function(*args, **kwargs)
        try:
            self._arm(self.seconds)
            try:
                return function(*args, **kwargs)
            finally:
                self._disarm()
        except ToolTimeout:
            # The signal may land just as the inner `finally` starts, before `_disarm` ran:
            # disarm again (a no-op when it did run; the handler raises once, so this completes).
            self._disarm()
            raise

    def _fire(self, signum: int, frame: FrameType | None) -> None:
        if self._active:
            self._active = False  # raise once: a late second signal must not hit the cleanup
            raise ToolTimeout(self.seconds or 0.0, limit=self)

    def _arm(self, seconds: float) -> None:
        delay, interval = signal.getitimer(signal.ITIMER_REAL)
        if delay and delay <= seconds:
            return  # an enclosing timer fires sooner: it bounds this call already
        self._previous_delay, self._previous_interval = delay, interval
        self._previous_handler = signal.getsignal(signal.SIGALRM)
        self._started = time.monotonic()
        self._active = True
        self._armed = True
        signal.signal(signal.SIGALRM, self._fire)
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def _disarm(self) -> None:
        """Stop our timer, restore the previous handler and timer (with the time it had left)."""
        self._active = False
        if not self._armed:
            return
        self._armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        # None: a handler installed outside Python, which cannot be put back; use the default
        previous = self._previous_handler
        signal.signal(signal.SIGALRM, signal.SIG_DFL if previous is None else previous)
        if self._previous_delay:
            left = self._previous_delay - (time.monotonic() - self._started)
            signal.setitimer(signal.ITIMER_REAL, max(left, _TINY), self._previous_interval)
