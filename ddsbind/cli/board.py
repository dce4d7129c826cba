"""``ddsbind board``: the analysis board in the browser (:mod:`ddsbind.board`)."""

from __future__ import annotations

import contextlib
import os

import click

from ddsbind.board.boards import DEFAULT_PORT
from ddsbind.cli._common import fail


@click.command()
@click.argument("source", required=False, metavar="[FILE | DEAL]")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=None,
    help=f"Port on 127.0.0.1 [default: {DEFAULT_PORT}, or the next free one above it; 0: any free one].",
)
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
@click.option(
    "--export",
    type=click.Path(dir_okay=False),
    help="Write the board as one HTML file that opens from disk with no server (every position of each "
    "record's play solved inside), instead of serving.",
)
def board(source: str | None, port: int | None, no_browser: bool, export: str | None) -> None:
    """Play deals double dummy in the browser, card by card: a page served on 127.0.0.1 until Ctrl-C.

    FILE is any file ddsbind reads (PBN, LIN, ZRJ, ZRD...), every board
    navigable, game records with their auction, play and costly cards; DEAL
    a PBN deal string; with neither, a page to paste one.  The position
    lives in the address (?board=18&room=closed&play=HJ,H2,HA: the file's
    board number, its room or &table=N), on a fixed port unless told (see
    --port; the next free one if taken), so a link lasts across restarts.  Needs the optional
    extra ddsbind[board] (Starlette and uvicorn).
    """
    try:
        from ddsbind.board.app import BoardServer
    except ImportError as exc:
        fail(f"the board needs the optional extra: pip install 'ddsbind[board]' ({exc})")
        return
    if source is not None and ":" not in source and not os.path.exists(source):
        fail(f"{source}: no such file (nor a PBN deal such as 'N:AKQ2.AK2.A2.AK32 ...')")
        return
    if export is not None:
        from ddsbind.board.app import export_html

        if source is None:
            fail("--export needs a FILE or a DEAL to export")
            return
        size = export_html(source, export)
        click.echo(f"ddsbind board: wrote {export} ({size:,} bytes)", err=True)
        return
    try:
        server = BoardServer(source, port=port)
    except OSError as exc:
        which = f"{DEFAULT_PORT} nor the ports above it" if port is None else str(port)
        fail(f"cannot listen on 127.0.0.1:{which}: {exc.strerror or exc}")
        return
    click.echo(f"ddsbind board: {server.url}  (Ctrl-C stops it)", err=True)
    if not no_browser:
        import webbrowser

        webbrowser.open(server.url)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops gracefully on Ctrl-C, then raises it again
        server.serve()
    click.echo("ddsbind board: stopped", err=True)
