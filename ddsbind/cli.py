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
# Formats (issue #3): convert and checksum.

_FORMAT_CHOICE = click.Choice(
    ["zbd", "zrd", "zdd", "hand-makes", "zbs", "pbn", "dds", "gib"], case_sensitive=False
)


@main.command()
@click.argument("src", type=click.Path(exists=True, dir_okay=False))
@click.argument("dst", type=click.Path(dir_okay=False))
@click.option("--from", "src_format", type=_FORMAT_CHOICE, help="Input format (default: from the extension).")
@click.option("--to", "dst_format", type=_FORMAT_CHOICE, help="Output format (default: from the extension).")
@click.option(
    "--hand",
    type=click.Choice(list("NESW"), case_sensitive=False),
    default="N",
    show_default=True,
    help="Hand whose makes a hand-makes output stores.",
)
def convert(src: str, dst: str, src_format: str | None, dst_format: str | None, hand: str) -> None:
    """Convert deals (and their results) from SRC to DST; never solves.

    Formats: zbd, zrd, zdd, hand-makes, zbs, pbn, dds, gib (guessed from
    .zbd .zrd .zdd .zbs .pbn .gib).  A result the input lacks is written as
    unknown (15) where the target allows it, else refused.
    """
    from ddsbind.formats.convert import convert as run

    n = run(src, dst, src_format=src_format, dst_format=dst_format, hand="NESW".index(hand.upper()))
    click.echo(f"{n} records written to {dst}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--verify", "published", metavar="HEX", help="Exit 1 unless the checksum equals HEX.")
def checksum(file: str, published: str | None) -> None:
    """Print Pavlicek's checksum of FILE (64-bit sum of 32-bit little-endian words, hex)."""
    from ddsbind.formats.checksum import checksum_hex

    value = checksum_hex(file)
    click.echo(value)
    if published is not None and int(published.strip().removeprefix("0x").removeprefix("0X"), 16) != int(
        value, 16
    ):
        click.echo(f"ddsbind: error: checksum {value} does not match {published.upper()}", err=True)
        sys.exit(1)
