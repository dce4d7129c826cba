"""``ddsbind dealer FILE``: run a dealer script as Debian's ``dealer`` does, faster; save deals; statistics."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from typing import Any

import click

from ddsbind.cli._common import COUNT, POSITIVE, about, fail, progress


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-s", "--seed", type=click.IntRange(min=0, max=2**128 - 1), default=None, help="Seed (default: random, printed)."
)
@click.option("-g", "--generate", type=COUNT, default=None, help="Deals to generate (overrides the script).")
@click.option("-p", "--produce", type=COUNT, default=None, help="Deals to produce (overrides the script).")
@click.option(
    "-t",
    "--threads",
    type=POSITIVE,
    default=None,
    help="Threads dealing and solving (default: one per core).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the produced deals here (.pbn .zbd .zrd ...).",
)
@click.option("--to", "to_format", default=None, help="Format of --output when its extension does not tell.")
@click.option(
    "--solve", is_flag=True, help="Solve the produced deals' DD tables (for --output ZRD and the statistics)."
)
@click.option(
    "--contract",
    "contracts",
    multiple=True,
    metavar="CONTRACT",
    help="Make probability of e.g. 3NS (3NT by South); repeatable; implies --solve.",
)
@click.option(
    "--vul",
    type=click.Choice(["none", "ns", "ew", "all"], case_sensitive=False),
    default="none",
    show_default=True,
    help="Vulnerability for scores.",
)
@click.option(
    "--lead",
    metavar="CONTRACT",
    default=None,
    help="Opening-lead table against e.g. 3NS (all cards of the leader scored).",
)
@click.option("--json", "as_json", is_flag=True, help="Statistics as one JSON document.")
@click.option("--csv", "as_csv", is_flag=True, help="Statistics as CSV.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Plot the trick distributions of --contract to this image.",
)
@click.option(
    "-L",
    "--library",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Library mode: the deals of this solved database (.zrd, or .zbd with its .zdd) in file order, "
    "tricks() from its stored results; nothing is solved.",
)
@click.option("--start", "library_start", type=COUNT, default=0, help="With --library: first record read (0-based).")
@click.option("--count", "library_count", type=COUNT, default=None, help="With --library: records read from --start.")
@click.option(
    "--workers",
    type=POSITIVE,
    default=None,
    help="Deal on a local Dask cluster of W workers (same deals).",
)
def dealer(
    file: str,
    seed: int | None,
    threads: int | None,
    output: str | None,
    to_format: str | None,
    solve: bool,
    contracts: tuple[str, ...],
    vul: str,
    lead: str | None,
    as_json: bool,
    as_csv: bool,
    plot: str | None,
    workers: int | None,
    library: str | None,
    library_start: int,
    library_count: int | None,
    **run_options: Any,
) -> None:
    """Run dealer script FILE (dealer's language): deals, actions and summary lines as dealer prints them.

    The deals depend on the seed only, never on --threads or --workers.
    With --contract/--lead the produced deals are solved in batches through
    the solver pool and a statistics report follows dealer's output.
    With --library the deals come from a solved database instead, each
    record once, and every result is read from it: nothing is solved.
    """
    from ddsbind import dealer as sim
    from ddsbind._dask import dask_client
    from ddsbind.dealer import DealerError, statistics

    if seed is None:
        seed = secrets.randbits(32)
    keep = bool(output or contracts or lead or solve)
    source, total = _library(library, library_start, library_count, lead, workers, run_options.get("generate"))
    if source is not None:
        run_options["library"] = source
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(dask_client(workers, error=DealerError)) if workers else None
        with about(file), _about_library(source), progress("dealing", total=total, unit="deal") as tick:
            _, result = sim.run_file(
                file, seed, keep=keep, progress=tick, client=client, threads=threads, **run_options
            )
    deals = result.deals
    tables = result.tables
    if deals is not None and (solve or contracts) and tables is None:
        with progress("solving", total=len(deals), unit="deal") as tick:
            tables = statistics.solve_tables(deals, threads=threads, progress=tick)
    if output and deals is not None:
        sim.write_deals(output, deals, tables, to_format)
    if contracts and tables is not None:
        report = statistics.contract_report(tables, contracts, vul)
        click.echo(report.render("json" if as_json else "csv" if as_csv else "text"), nl=False)
        if plot:
            report.plot(plot)
    if lead and deals is not None:
        with progress("leads", total=len(deals), unit="deal") as tick:
            leads = statistics.lead_table(deals, lead, threads=threads, progress=tick)
        click.echo(leads.render("json" if as_json else "csv" if as_csv else "text"), nl=False)


def _library(
    path: str | None, start: int, count: int | None, lead: str | None, workers: int | None, generate: int | None
) -> tuple[Any, int | None]:
    """The library of ``--library`` (opened: a file of partial records is refused here) and the records to read."""
    if path is None:
        if start or count is not None:
            fail("--start and --count select records of a --library")
        return None, None
    if lead:
        fail("--lead scores every opening lead by solving; a library stores only DD tables (drop --library)")
    if workers:
        fail("--workers deals on Dask; a --library is read on this machine's threads (drop --workers)")
    from ddsbind.dealer.library import Library
    from ddsbind.errors import Error

    try:
        library = Library(path, start=start, count=count)
    except Error as exc:
        fail(str(exc))
    total = len(library) if generate is None else min(len(library), generate)
    return library, total


@contextlib.contextmanager
def _about_library(library: Any) -> Iterator[None]:
    """A library's own errors (they name its file, record and byte offset) as they are, not under the script's name."""
    from ddsbind.errors import Error

    try:
        yield
    except Error as exc:
        if library is not None and any(str(p) in str(exc) for p in library.paths):
            fail(str(exc))
        raise
