"""Commands for databases of solved random deals: ``generate``, ``verify``, ``stats``."""

from __future__ import annotations

import json
from typing import Any

import click

from ddsbind.cli._common import (
    COUNT,
    POSITIVE,
    QUIET,
    FormatChoice,
    about,
    check_image,
    fail,
    json_output,
    one_file_each,
    progress,
)


@click.command()
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--count", type=POSITIVE, required=True, help="Number of deals.")
@click.option("--seed", type=click.IntRange(min=0, max=2**128 - 1), required=True, help="Seed (0 .. 2**128-1).")
@click.option("--threads", type=POSITIVE, default=None, help="Solver threads per process.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run of the same OUT, count and seed.")
@click.option("--workers", type=POSITIVE, default=None, help="Solve on a local Dask cluster of W workers.")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Solve on an existing Dask cluster (tcp://...).")
@click.option("--shard", type=POSITIVE, default=256, show_default=True, help="Deals per Dask task.")
@click.option("--batch", type=POSITIVE, default=None, help="Deals made and synced at a time.")
@QUIET
def generate(out: str, count: int, seed: int, quiet: bool, **options: Any) -> None:
    """Make a database of COUNT random deals of SEED: OUT.zrd (with DD tables) or OUT.zbd (deals only).

    Deal k depends only on (SEED, k).  Records are written in order and
    synced; a run killed at any moment is finished with --resume, giving the
    same bytes.  A manifest OUT.json is written at the end.  --workers and
    --scheduler need the optional extra: pip install 'dask[distributed]'.
    """
    from ddsbind import database

    with progress("generating", total=count, unit="deal", quiet=quiet) as tick:
        man = database.generate(out, count, seed, progress=tick, log=lambda msg: click.echo(msg, err=True), **options)
    click.echo(f"{man.count} deals in {out} ({man.seconds:.1f} s), checksum {man.checksum}")


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--sample",
    type=COUNT,
    default=100,
    show_default=True,
    help="Records re-solved and compared (all if >= count).",
)
@click.option("--threads", type=POSITIVE, default=None, help="Solver threads.")
@json_output("The report")
@QUIET
def verify(file: str, sample: int, threads: int | None, as_json: bool, quiet: bool) -> None:
    """Check a database: structure, its manifest (deals, checksum), and SAMPLE re-solved records.

    Exit 1 naming the first bad record (its number, counted from 1, and byte offset), or an
    unfinished run (how many records of how many, and how to finish it).
    The file is read once, a chunk at a time, whatever its size.
    """
    from ddsbind import database

    with progress("verifying", unit="record", quiet=quiet) as tick, about(file):
        rep = database.verify(file, sample=sample, threads=threads, progress=tick)
    if as_json:
        click.echo(json.dumps(rep.to_dict(), indent=1))
    else:
        click.echo("\n".join(rep.lines()))
    if not rep.ok:
        fail(rep.error_text() or f"{file}: not a sound database")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--plot", "plot", type=click.Path(dir_okay=False), help="Also draw the statistics into this PNG.")
@click.option(
    "--par-sample",
    type=COUNT,
    default=None,
    help="Compute par for only this many deals (the records of smallest hash), not every deal (0: no par).",
)
@click.option("--from", "fmt", type=FormatChoice(), help="Record format (default: from the extension).")
@json_output("The statistics")
@QUIET
def stats(
    files: tuple[str, ...], plot: str | None, par_sample: int | None, fmt: str | None, as_json: bool, quiet: bool
) -> None:
    """A database's count, checksum and double-dummy statistics; of several FILES (shards), merged.

    For ZRD records: tricks by strain and declarer, how often each side
    makes each contract level (NS and EW apart), how often par is a doubled
    sacrifice by dealer and vulnerability, with its standard error (DDS's
    DealerPar of every deal, the dealer drawn from the record's hash; with
    --par-sample, of only that many records of smallest hash).  The
    statistics of several files are those of their records together, the
    same as of one file holding them all.  An unfinished run is said so on
    the second line, and a manifest whose count or checksum the file
    contradicts is flagged there.  Each file is read once, a chunk at a
    time, whatever its size.  A hand-makes file, which has no extension of
    its own, is read with --from hand-makes.
    """
    import os

    from ddsbind import database
    from ddsbind.database import statistics
    from ddsbind.formats import files as records

    if plot is not None:
        check_image(plot)
        one_file_each({"--plot": plot, **{f"FILE {k + 1}": f for k, f in enumerate(files)}})
    reports = []
    for file in files:
        size = records.RECORD_SIZES.get(fmt or records.guess_format(file) or "")
        total = None if size is None else os.stat(file).st_size // size
        with progress(f"reading {os.path.basename(file)}", total, unit="record", quiet=quiet) as tick, about(file):
            reports.append(database.stats(file, par_sample=par_sample, progress=tick, format=fmt))
    if len(reports) == 1:
        res = reports[0]
        if as_json:
            click.echo(json.dumps(res.to_dict(), indent=1))
        else:
            click.echo("\n".join(res.lines()))
        if plot is not None:
            with about(plot):
                res.plot(plot)
            click.echo(f"plot written to {plot}", err=as_json)
        return
    merged = statistics.stats_of(reports)
    if as_json:
        doc = {"files": [r.file_dict() for r in reports], "statistics": None if merged is None else merged.to_dict()}
        click.echo(json.dumps(doc, indent=1))
    else:
        lines = [line for r in reports for line in r.file_lines()]
        lines.append(f"{len(reports)} files, {sum(r.count for r in reports)} records")
        click.echo("\n".join(lines + ([] if merged is None else merged.lines())))
    if plot is not None:
        if merged is None:
            fail("--plot: none of the files holds DD results")
        assert merged is not None
        with about(plot):
            statistics.plot(merged, plot, f"{len(reports)} files: {merged.records} records")
        click.echo(f"plot written to {plot}", err=as_json)
