"""The ``ddsbind`` console command (click): parse, call, print; nothing else.

One module per group of commands: :mod:`~ddsbind.cli.solving` (table,
solve, info, demo), :mod:`~ddsbind.cli.databases` (generate, verify,
stats), :mod:`~ddsbind.cli.files` (convert, checksum),
:mod:`~ddsbind.cli.played` (analyse, line), :mod:`~ddsbind.cli.prove`
(proof trees), :mod:`~ddsbind.cli.cribbage`, :mod:`~ddsbind.cli.board`
(the analysis board in the browser).
What a result looks like as text or JSON belongs to the result's own class;
the error boundary and progress bars are :mod:`~ddsbind.cli._common`'s.
"""

from __future__ import annotations

import click

from ddsbind.cli import databases, dealer, files, played, solving
from ddsbind.cli._common import Group
from ddsbind.cli.board import board
from ddsbind.cli.cribbage import cribbage
from ddsbind.cli.prove import prove

__all__ = ["main"]


@click.group(cls=Group)
@click.version_option(package_name="ddsbind")
def main() -> None:
    """Double-dummy bridge analysis with DDS, and Pavlicek's deal formats."""


for _command in (
    solving.table,
    solving.solve,
    solving.info,
    solving.demo,
    databases.generate,
    databases.verify,
    databases.stats,
    files.convert,
    files.checksum,
    played.analyse,
    played.line,
    prove,
    cribbage,
    dealer.dealer,
    board,
):
    main.add_command(_command)
