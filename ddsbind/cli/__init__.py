"""The ``ddsbind`` console command (click): parse, call, print; nothing else.

One module per group of commands: :mod:`~ddsbind.cli.solving` (table,
solve, info, demo), :mod:`~ddsbind.cli.databases` (generate, verify,
stats), :mod:`~ddsbind.cli.files` (convert, checksum),
:mod:`~ddsbind.cli.played` (analyse, line), :mod:`~ddsbind.cli.prove`
(proof trees), :mod:`~ddsbind.cli.cribbage`, :mod:`~ddsbind.cli.board`
(the analysis board in the browser), :mod:`~ddsbind.cli.single_dummy` (``sd``).
What a result looks like as text or JSON belongs to the result's own class;
the error boundary and progress bars are :mod:`~ddsbind.cli._common`'s.
"""

from __future__ import annotations

import importlib

import click

from ddsbind.cli._common import Group

__all__ = ["main"]

#: Each command's module (``ddsbind.cli.<module>``, the command its attribute of the same name),
#: imported when the command runs or help lists it: ``ddsbind dealer`` loads nothing of ``convert``.
COMMANDS = {
    "table": "solving",
    "solve": "solving",
    "info": "solving",
    "demo": "solving",
    "generate": "databases",
    "verify": "databases",
    "stats": "databases",
    "convert": "files",
    "checksum": "files",
    "analyse": "played",
    "line": "played",
    "prove": "prove",
    "cribbage": "cribbage",
    "dealer": "dealer",
    "board": "board",
    "sd": "single_dummy",
}


class _Commands(Group):
    """The program's group, whose commands are imported from :data:`COMMANDS` on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module = importlib.import_module(f"ddsbind.cli.{COMMANDS[cmd_name]}")
            self.add_command(getattr(module, cmd_name), cmd_name)
        return self.commands.get(cmd_name)


@click.group(cls=_Commands)
@click.version_option(package_name="ddsbind")
@click.option(
    "--strict",
    is_flag=True,
    help="Refuse a file with a field that cannot be used (garbage, unknown, or contradicting another) "
    "instead of keeping it as written with a warning.",
)
@click.pass_context
def main(ctx: click.Context, strict: bool) -> None:
    """Double-dummy bridge analysis with DDS, and Pavlicek's deal formats."""
    if strict:
        from ddsbind.formats import reading

        ctx.with_resource(reading(True))
