"""Ctrl-C and SIGTERM during long work: recorded, not raised mid-step, so the work stops at a
point where its state is whole and can be saved."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

__all__ = ["StopRequest", "deferred_interrupts", "sigint_held"]


class StopRequest:
    """Set when SIGINT or SIGTERM arrived; ``signal`` is which."""

    def __init__(self, on_request: Callable[[], None] | None = None) -> None:
        self.signal: int | None = None
        self._on_request = on_request

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def _handler(self, signum, frame) -> None:
        if self.signal is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: the user means it
        self.signal = signum
        if self._on_request is not None:
            self._on_request()


@contextlib.contextmanager
def deferred_interrupts(on_request: Callable[[], None] | None = None) -> Iterator[StopRequest]:
    """Within the block SIGINT and SIGTERM set the returned request instead of interrupting
    (main thread only; elsewhere signals cannot arrive anyway), and call ``on_request`` (e.g.
    to stop a search pass under way, which polls for signals).  A second Ctrl-C interrupts."""
    stop = StopRequest(on_request)
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = {s: signal.signal(s, stop._handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Within the block a SIGINT to this thread waits (blocked, not lost) and arrives as a
    KeyboardInterrupt once the block ends.  For imports and process starts that a Ctrl-C must
    not cut in half: a compiled module whose initialisation it interrupts reports an ImportError
    (HiGHS's does), not a KeyboardInterrupt, and stays broken; a process started then inherits
    the mask.  Where signals cannot be blocked (Windows) the block runs as it is."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
