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
