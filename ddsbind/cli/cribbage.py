"""The ``cribbage`` command group: Code64 game records shown, decoded to JSON, encoded."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, BinaryIO

import click

from ddsbind.errors import FormatError

if TYPE_CHECKING:
    from ddsbind.cribbage import Session


@click.group()
def cribbage() -> None:
    """Cribbage game records in Code64 (HALSCRIB's Base64 format)."""


def _read_record(record: str) -> Session:
    """Decode RECORD: a file name if such a file exists, '-' for stdin, else the Code64 text itself."""
    import os

    from ddsbind import cribbage as crib

    # Read one character more than any record holds: decode refuses the text by its size.
    if record == "-":
        return crib.decode(sys.stdin.read(crib.MAX_TEXT_CHARS + 1))
    if os.path.isfile(record):
        with open(record, encoding="latin-1") as fh:
            return crib.decode(fh.read(crib.MAX_TEXT_CHARS + 1))
    try:
        return crib.decode(record)
    except FormatError as exc:
        # A mistyped file name would otherwise be reported as bad Base64.
        raise FormatError(f"no file named {record[:40]!r}, and as Code64 text: {exc}") from None


@cribbage.command("show")
@click.argument("record")
def cribbage_show(record: str) -> None:
    """Print the session in RECORD (a file, '-' for stdin, or the Code64 text) deal by deal."""
    click.echo(_read_record(record).to_text())


@cribbage.command("decode")
@click.argument("record")
def cribbage_decode(record: str) -> None:
    """Print the session in RECORD (a file, '-' for stdin, or the Code64 text) as JSON."""
    import json

    from ddsbind import cribbage as crib

    click.echo(json.dumps(crib.to_json(_read_record(record)), indent=2))


@cribbage.command("encode")
@click.argument("json_file", type=click.File("rb"))
def cribbage_encode(json_file: BinaryIO) -> None:
    """Print the Code64 record of the session in JSON_FILE ('-' for stdin; the form 'decode' prints)."""
    from ddsbind import cribbage as crib

    data = json_file.read(crib.MAX_JSON_CHARS + 1)
    name = getattr(json_file, "name", "JSON")
    click.echo(crib.encode(crib.from_json_text(data, name="stdin" if name == "<stdin>" else str(name))))
