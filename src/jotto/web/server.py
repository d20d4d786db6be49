"""Running the web game: a uvicorn server on a socket bound here, so a port in use is one line, not
a traceback, and port 0 takes a free port (the address is said once bound)."""

from __future__ import annotations

import socket
import threading
import webbrowser
from collections.abc import Callable

import uvicorn

from .app import create_app

__all__ = ["WILDCARDS", "bind", "make_server", "url_of"]

#: Addresses that bind every interface: any Host header is then taken.
WILDCARDS = ("0.0.0.0", "::", "")


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (OSError with the system's reason if it cannot
    be had)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The address to open in a browser for a bound socket."""
    host, port = sock.getsockname()[:2]
    if host in WILDCARDS:
        host = "127.0.0.1"
    return f"http://{'[' + host + ']' if ':' in host else host}:{port}/"


def make_server(
    sock: socket.socket, save: bool = True, warn: Callable[[str], None] = lambda message: None
) -> uvicorn.Server:
    """A uvicorn server of the web game for ``sock``: no access log (what clients send goes to
    no log line), Host headers checked against the address bound (any, for a wildcard)."""
    host = sock.getsockname()[0]
    hosts = None if host in WILDCARDS else ["127.0.0.1", "localhost", "::1", host]
    config = uvicorn.Config(
        create_app(hosts, save=save, warn=warn),
        access_log=False,
        log_level="warning",
        lifespan="off",
        server_header=False,
    )
    return uvicorn.Server(config)


def open_when_started(server: uvicorn.Server, url: str) -> None:
    """Open ``url`` in the browser once ``server`` answers (in a thread, not waiting)."""

    def wait() -> None:
        for _ in range(200):
            if server.started:
                webbrowser.open(url)
                return
            threading.Event().wait(0.05)

    threading.Thread(target=wait, daemon=True).start()
