"""The ``ddsbind`` console command (click): parse, call, render; nothing else.

Results go to stdout, progress and errors to stderr; an error is one line and
exit status 1.
"""

from __future__ import annotations

import sys

import click

from ddsbind.errors import DDSError, FormatError


class _Group(click.Group):
    """A click group that turns library errors into one line on stderr, exit 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (DDSError, FormatError, OSError, ValueError) as exc:
            click.echo(f"ddsbind: error: {exc}", err=True)
            sys.exit(1)


@click.group(cls=_Group)
@click.version_option(package_name="ddsbind")
def main() -> None:
    """Double-dummy bridge analysis with DDS, and Pavlicek's deal formats."""


# --------------------------------------------------------------------------
# Cribbage game records (Code64)


@main.group()
def cribbage() -> None:
    """Cribbage game records in Code64 (HALSCRIB's Base64 format)."""


def _read_record(record: str) -> object:
    """Decode RECORD: a file name if such a file exists, '-' for stdin, else the Code64 text itself."""
    import os

    from ddsbind.formats import cribbage as crib

    if record == "-":
        return crib.decode(sys.stdin.read())
    if os.path.isfile(record):
        with open(record, encoding="latin-1") as fh:
            return crib.decode(fh.read())
    try:
        return crib.decode(record)
    except FormatError as exc:
        # A mistyped file name would otherwise be reported as bad Base64.
        raise FormatError(f"no file named {record[:40]!r}, and as Code64 text: {exc}") from None


def _show_session(session: object) -> list[str]:
    from ddsbind.formats.cribbage import Session

    assert isinstance(session, Session)
    names = [name or f"player {p}" for p, name in enumerate(session.players)]
    lines = [
        f"Origin:   {session.origin}",
        f"Program:  {session.program}",
        f"Players:  0 = {names[0]}, 1 = {names[1]}",
        f"Played:   {session.played:%Y-%m-%d %H:%M:%S}",
        f"Comments: {session.comments}",
        f"Games: {session.games}   Deals: {len(session.deals)}",
    ]
    width = max(len(n) for n in names)
    game = 1
    for k, deal in enumerate(session.deals):
        dealer = names[deal.dealer]
        lines += ["", f"Deal {k + 1} (game {game}), dealer {dealer}"]
        for p in (0, 1):
            hand = " ".join(str(c) for c in deal.hands[p])
            discards = " ".join(str(c) for c in deal.discards[p])
            lines.append(f"  {names[p]:<{width}}  keeps {hand}   discards {discards}")
        lines.append(f"  Crib ({dealer}): {' '.join(str(c) for c in deal.crib)}   Starter: {deal.starter}")
        lines.append("  Pegging:")
        for j, (play, count, reset) in enumerate(deal.running_counts()):
            if reset:
                lines.append("     -- count restarts --")
            lines.append(f"    {j + 1}. {names[play.player]:<{width}}  {play.card!s:<3} count {count:>2}")
        if len(deal.pegging) < 8:
            lines.append(f"     -- no further plays: the game ended after {len(deal.pegging)} --")
        lines.append(f"  Scores: {names[0]} {deal.scores[0]}, {names[1]} {deal.scores[1]}")
        if deal.last_of_game:
            lines.append(f"  == end of game {game} ==")
            game += 1
    return [line.rstrip() for line in lines]


@cribbage.command("show")
@click.argument("record")
def cribbage_show(record: str) -> None:
    """Print the session in RECORD (a file, '-' for stdin, or the Code64 text) deal by deal."""
    click.echo("\n".join(_show_session(_read_record(record))))


@cribbage.command("decode")
@click.argument("record")
def cribbage_decode(record: str) -> None:
    """Print the session in RECORD (a file, '-' for stdin, or the Code64 text) as JSON."""
    import json

    from ddsbind.formats import cribbage as crib

    click.echo(json.dumps(crib.to_json(_read_record(record)), indent=2))  # type: ignore[arg-type]


@cribbage.command("encode")
@click.argument("json_file", type=click.File("r", encoding="utf-8"))
def cribbage_encode(json_file: object) -> None:
    """Print the Code64 record of the session in JSON_FILE ('-' for stdin; the form 'decode' prints)."""
    import json

    from ddsbind.formats import cribbage as crib

    click.echo(crib.encode(crib.from_json(json.load(json_file))))  # type: ignore[arg-type]
