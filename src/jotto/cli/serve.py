"""``jotto serve``: the web game (:mod:`jotto.web`) on a local server, for a browser.

The server needs the ``web`` extra (Starlette and uvicorn), imported only here, when the command
runs: without it the command says how to install it.  Ctrl-C stops the server (exit status 130);
games in progress are dropped, finished ones are already in the statistics.
"""

from __future__ import annotations

import click

from .play import ctrl_c_says_bye


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to serve on.  Another than this computer's own (127.0.0.1) lets "
    "anyone who can reach it play.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="The port (0: any free one).",
)
@click.option(
    "--open",
    "open_browser",
    is_flag=True,
    help="Open the game in the web browser once the server runs.",
)
@click.option(
    "--save/--no-save",
    default=True,
    show_default=True,
    help="Record finished games in the statistics (jotto stats).",
)
def serve_command(host: str, port: int, open_browser: bool, save: bool) -> None:
    """Play Jotto in a web browser: a local server for the game's page.

    The same games as jotto play (the race, you guess, you hide, assist; every level, list and
    rule set) on one page that works offline.  Ctrl-C stops the server; games in progress are
    dropped.
    """
    try:
        from ..web.server import bind, make_server, open_when_started, url_of
    except ImportError as exc:
        raise click.UsageError(
            f"jotto serve needs the web extra ({exc.name} is missing): pip install 'jotto[web]'"
        ) from None
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise click.UsageError(
            f"--host {host} --port {port}: cannot serve there: {exc.strerror or exc}"
        ) from None
    url = url_of(sock)
    with ctrl_c_says_bye():
        server = make_server(
            sock, save=save, warn=lambda message: click.echo(f"jotto: {message}", err=True)
        )
        click.echo(f"Jotto is served at {url} (Ctrl-C stops it; games in progress are dropped).")
        if host not in ("127.0.0.1", "localhost", "::1"):
            click.echo(f"Served on {host}: anyone who can reach this computer there can play.")
        if open_browser:
            open_when_started(server, url)
        server.run(sockets=[sock])
