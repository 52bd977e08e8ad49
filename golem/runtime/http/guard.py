"""What keeps the status endpoint to its machine and its console quiet: the Host names it
answers (those of the loopback address it is bound to, so that a web page cannot read it
through a name of its own that resolves here, DNS rebinding), and one line, not a
traceback ten times a second, when the process runs out of file descriptors to accept
connections with."""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["ACCEPT_LOGGER", "AcceptErrors", "allowed_hosts", "quiet_accept_errors"]

ACCEPT_LOGGER = "trio.serve_listeners"  # where trio says `accept returned EMFILE`
_LOCALHOST = "localhost"


def allowed_hosts(listening: socket.socket) -> list[str]:
    """The Host names (port aside) a request to the endpoint on `listening` may carry: its
    loopback address and localhost; any, on an address beyond this machine (the user asked
    for that with --http-allow-remote, and its names are not known here)."""
    address = ipaddress.ip_address(listening.getsockname()[0])
    if not address.is_loopback:
        return ["*"]
    literal = f"[{address}]" if address.version == 6 else str(address)
    return [literal, _LOCALHOST]


class AcceptErrors(logging.Filter):
    """Lets through one of trio's `accept returned ...` records per `every_s` seconds of
    `now()`, made one line (no traceback) and saying how many were held back before it."""

    def __init__(self, now: Callable[[], float], every_s: float = 60.0) -> None:
        super().__init__()
        self._now, self._every = now, every_s
        self._next: float | None = None
        self._held = 0

    def filter(self, record: logging.LogRecord) -> bool:
        moment = self._now()
        if self._next is not None and moment < self._next:
            self._held += 1
            return False
        self._next = moment + self._every
        record.exc_info, record.exc_text = None, None
        if self._held:
            record.msg = f"{record.msg} ({self._held} more like it held back)"
        record.msg = f"{record.msg}; at most one such line per {self._every:g} s"
        self._held = 0
        return True


@contextmanager
def quiet_accept_errors(now: Callable[[], float], every_s: float = 60.0) -> Iterator[AcceptErrors]:
    """trio's accept errors rate-limited (`AcceptErrors`) while the block runs."""
    logger = logging.getLogger(ACCEPT_LOGGER)
    errors = AcceptErrors(now, every_s)
    logger.addFilter(errors)
    try:
        yield errors
    finally:
        logger.removeFilter(errors)
