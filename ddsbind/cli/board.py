"""``ddsbind board``: the analysis board in the browser (:mod:`ddsbind.board`)."""

from __future__ import annotations

import contextlib
import os

import click

from ddsbind.cli._common import fail


@click.command()
@click.argument("source", required=False, metavar="[FILE | DEAL]")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port on 127.0.0.1 (0: any free one)."
)
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
def board(source: str | None, port: int, no_browser: bool) -> None:
    """Play deals double dummy in the browser, card by card: a page served on 127.0.0.1 until Ctrl-C.

    FILE is any file ddsbind reads (PBN, LIN, ZRJ, ZRD...), every board
    navigable, game records with their auction, play and costly cards; DEAL
    a PBN deal string; with neither, a page to paste one.  The position
    lives in the address: ?board=2&play=HJ,H2,HA.  Needs the optional extra
    ddsbind[board] (Starlette and uvicorn).
    """
    try:
        from ddsbind.board.app import BoardServer
    except ImportError as exc:
        fail(f"the board needs the optional extra: pip install 'ddsbind[board]' ({exc})")
        return
    if source is not None and ":" not in source and not os.path.exists(source):
        fail(f"{source}: no such file (nor a PBN deal such as 'N:AKQ2.AK2.A2.AK32 ...')")
        return
    try:
        server = BoardServer(source, port=port)
    except OSError as exc:
        fail(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}")
        return
    click.echo(f"ddsbind board: {server.url}  (Ctrl-C stops it)", err=True)
    if not no_browser:
        import webbrowser

        webbrowser.open(server.url)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops gracefully on Ctrl-C, then raises it again
        server.serve()
    click.echo("ddsbind board: stopped", err=True)
