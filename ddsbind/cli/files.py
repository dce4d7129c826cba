"""Commands on files of deals: ``convert`` between formats and Pavlicek's ``checksum``."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import POSITIVE, QUIET, SEAT, FormatChoice, about, fail, progress

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from ddsbind.formats.registry import Format
    from ddsbind.game import Vulnerability


@click.command()
@click.argument("src", type=click.Path(exists=True, dir_okay=False))
@click.argument("dst", type=click.Path(dir_okay=False))
@click.option(
    "--from", "src_format", type=FormatChoice(), help="Input format (default: from the extension, else the content)."
)
@click.option("--to", "dst_format", type=FormatChoice(), help="Output format (default: from the extension).")
@click.option(
    "--hand",
    type=SEAT,
    default="N",
    show_default=True,
    help="Hand whose makes a hand-makes output stores.",
)
@click.option("--solve", is_flag=True, help="Fill in missing DD results by solving (each distinct deal once).")
@click.option(
    "--trust-results",
    is_flag=True,
    help="With --solve, keep the results the input gives without solving them again to check them.",
)
@click.option("--threads", type=POSITIVE, default=None, help="Solver threads for --solve.")
@QUIET
def convert(
    src: str,
    dst: str,
    src_format: str | None,
    dst_format: str | None,
    hand: int,
    solve: bool,
    trust_results: bool,
    threads: int | None,
    quiet: bool,
) -> None:
    """Convert deals (and their results) from SRC to DST ('-' for stdout).

    Formats: zbd, zrd, zdd, hand-makes, zrj, zbs, pbn, dds, gib, lin
    (guessed from .zbd .zrd .zdd .zrj .zbs .pbn .gib .lin).  A result the
    input lacks is written as unknown (15) where the target allows it, else
    refused; with --solve it is solved instead.  PBN -> PBN keeps the file
    as it is (every tag, note, comment) and --solve adds DoubleDummyTricks,
    OptimumResultTable, OptimumScore and ParContract to each deal, game
    records included; LIN -> PBN --solve does the same.  DST appears only
    when the whole conversion succeeded.  Played deals: game records in,
    game records out (PBN, LIN, ZRJ) keep auction, contract, result and
    play; what the target cannot hold (ZRD: board numbers, dealers,
    vulnerability; ZRJ: a long play) is named in one warning.  A record
    file is read a chunk at a time: memory does not grow with its size.

    Results the input already gives (Bridge Composer's and BBA's tables,
    Deep Finesse's Ability, a record file's known entries) are checked by
    --solve: every deal is solved, and a board whose results contradict it
    is named once on stderr with each wrong entry (declarer, strain, the
    file's tricks and DDS's); DDS's answer is written.  Checking costs what
    solving costs; --trust-results keeps the given results unchecked and
    solves only what is missing.
    """
    from ddsbind.formats import registry
    from ddsbind.formats.convert import convert as run

    if trust_results and not solve:
        fail("--trust-results applies to --solve: nothing is solved without it")
    # The input's format decided once (by name, extension or content) and passed on to the progress bar and convert.
    sfmt = registry.guess(src, None if src_format is None else src_format.lower(), "input")
    dfmt = None if dst_format is None else dst_format.lower()
    filler = None
    par = None
    with contextlib.ExitStack() as stack:
        if solve:
            from ddsbind.database import TableFiller

            filler = TableFiller(
                threads=threads,
                progress=stack.enter_context(progress("solving", unit="deal", quiet=quiet)),
                trust_results=trust_results,
            )
            par = _dealer_par
        tick = stack.enter_context(progress("converting", _records_in(src, sfmt), quiet=quiet))
        n = run(
            src,
            dst,
            src_format=sfmt,
            dst_format=dfmt,
            hand=int(hand),
            progress=tick,
            fill=filler,
            par=par,
        )
    click.echo(f"{n} records written to {'standard output' if dst == '-' else dst}", err=dst == "-")
    if filler is not None:
        checked = f", {filler.checked} records' given results checked" if filler.checked else ""
        click.echo(
            f"{filler.solved} deals solved, {filler.reused} records reused a solved deal{checked}", err=dst == "-"
        )


def _dealer_par(tables: NDArray[np.uint8], dealers: Sequence[int], vulnerable: Sequence[Vulnerability]) -> list:
    """DDS's ``DealerPar`` of each table, all at once (:func:`ddsbind.optimum.dealer_pars`): ``(score, contracts)``."""
    import numpy as np

    from ddsbind.optimum import dealer_pars

    if len(tables) == 0:
        return []
    seats = np.array([int(d) for d in dealers], dtype=np.int8)
    vuls = np.array([int(v) for v in vulnerable], dtype=np.int8)
    return [(p.score, p.contracts) for p in dealer_pars(np.asarray(tables), seats, vuls, explain=False)]


def _records_in(path: str, fmt: Format) -> int | None:
    """Whole records in a record file of ``fmt`` (a progress bar's total), or None for a text file."""
    import os

    return None if fmt.record_size is None else os.stat(path).st_size // fmt.record_size


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--verify", "published", metavar="HEX", help="Exit 1 unless the checksum equals HEX.")
@QUIET
def checksum(file: str, published: str | None, quiet: bool) -> None:
    """Print Pavlicek's checksum of FILE (64-bit sum of 32-bit little-endian words, hex).

    The file is read a few megabytes at a time, whatever its size.
    """
    import os

    from ddsbind.formats import checksums

    with progress("checksum", os.stat(file).st_size or None, unit="B", quiet=quiet) as tick, about(file):
        value = checksums.checksum(file, progress=tick)
    click.echo(checksums.format_checksum(value))
    if published is not None and not checksums.matches(value, published):
        fail(f"checksum {checksums.format_checksum(value)} does not match {published}")
