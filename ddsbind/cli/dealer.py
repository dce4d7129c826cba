"""``ddsbind dealer [FILE]``: run a dealer script as Debian's ``dealer`` does, faster; save deals; statistics.

Debian's flags (``dealer -h``) work as there or are refused in one line;
docs/dealer-differences.md lists every deliberate difference.  Every
argument is checked before the first deal is dealt.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import os
import sys
from typing import TYPE_CHECKING, Any, cast

import click

from ddsbind.cli import _common
from ddsbind.cli._common import COUNT, POSITIVE, VUL, about, check_image, fail, json_output, one_file_each, progress
from ddsbind.deal import Vulnerability

if TYPE_CHECKING:
    from ddsbind.dealer.files import DealWriter
    from ddsbind.dealer.library import Library
    from ddsbind.dealer.settings import DealSource, Limits
    from ddsbind.formats.registry import Format

#: Seeds as dealer reads them: a negative one is taken modulo 2**64, as C's unsigned conversion does.
SEED = click.IntRange(min=-(2**63), max=2**128 - 1)


def _parameter(ctx: click.Context, _param: click.Parameter, values: tuple[str, ...]) -> dict[int, str]:
    """``-P N=TEXT`` (repeatable) as ``{N: TEXT}``: DealerV2's script parameters ``$0``..``$9``."""
    out: dict[int, str] = {}
    for value in values:
        number, equals, text = value.partition("=")
        if not equals or len(number) != 1 or not number.isdigit():
            raise click.BadParameter(f"{value!r}: write N=TEXT with N a digit 0..9 (the script's $N)")
        out[int(number)] = text
    return out


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    from ddsbind.dealer.kernel import DEFAULT_GENERATOR, GENERATORS

    click.echo(f"ddsbind dealer {version('ddsbind')} (generator {DEFAULT_GENERATOR})")
    for name, what in GENERATORS.items():
        click.echo(f"  --generator {name}: {what}")
    ctx.exit(0)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-s", "--seed", type=SEED, default=None, help="Seed (default: random, printed); negative: modulo 2**64.")
@click.option("-g", "--generate", type=COUNT, default=None, help="Most deals to generate (overrides the script).")
@click.option("-p", "--produce", type=COUNT, default=None, help="Most deals to produce (overrides the script).")
@click.option(
    "-t",
    "time_limit",
    type=click.FloatRange(min=0),
    default=None,
    metavar="SECONDS",
    help="Stop after SECONDS if no deal was produced yet (exit status 1), as dealer's -t.",
)
@click.option("--threads", type=POSITIVE, default=None, help="Threads dealing and solving (default: one per core).")
@click.option(
    "--generator",
    default=None,
    metavar="NAME",
    help="Which generator deals: philox-shuffle-1 (the default, compiled) or philox-sort-1 (ddsbind's first, "
    "numpy); a name and a seed give the same deals in every release (-V lists them).",
)
@click.option(
    "-P",
    "--param",
    "parameters",
    multiple=True,
    callback=_parameter,
    metavar="N=TEXT",
    help="DealerV2's script parameter: each $N (N 0..9) in the script is replaced by TEXT before parsing (repeatable).",
)
@click.option(
    "-C",
    "--csv-file",
    "csv_file",
    default=None,
    metavar="[w:]FILE",
    help="Where csvrpt() lines go (default: standard output); appended to FILE, replaced with w:FILE (DealerV2's -C).",
)
@click.option(
    "-X",
    "--export-file",
    "export_file",
    default=None,
    metavar="[w:]FILE",
    help="Where export() lines go (default: standard output); appended to FILE, replaced with w:FILE.",
)
@click.option("-q", "quiet_pbn", is_flag=True, help="printpbn prints nothing (dealer's -q).")
@click.option("-v", "no_summary", is_flag=True, help="Leave out the closing Generated/Produced/seed/time lines.")
@click.option("-u", "upper", is_flag=True, help="Upper-case AKQJT: accepted; the output already is (as in dealer).")
@click.option("-m", "meter", is_flag=True, help="Show a progress meter on stderr even when it is not a terminal.")
@click.option("-0", "swap", flag_value=0, default=True, help="No swapping (the default).")
@click.option("-2", "swap", flag_value=2, help="Each deal followed by its East-West exchange.")
@click.option("-3", "swap", flag_value=3, help="Each deal followed by the 5 other arrangements of E, S, W.")
@click.option("-e", "exhaust", is_flag=True, hidden=True)
@click.option("-l", "library", type=int, default=None, hidden=True)
@click.option(
    "-V", "show_version", is_flag=True, expose_value=False, is_eager=True, callback=_version, help="Version, exit."
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Also write the produced deals here (.pbn .zbd .zrd ...).",
)
@click.option("--force", is_flag=True, help="Let --output replace an existing file.")
@click.option("--to", "to_format", default=None, help="Format of --output when its extension does not tell.")
@click.option(
    "--solve", is_flag=True, help="Solve the produced deals' DD tables (for --output ZRD and the statistics)."
)
@click.option(
    "--contract",
    "contracts",
    multiple=True,
    metavar="CONTRACT",
    help="Report on e.g. 3NS (3NT by South); repeatable: make probability, mean tricks, distribution, "
    "scores and IMPs from one search per deal for each strain and declarer (about 1/14 of a DD table each).",
)
@click.option(
    "--makes-only",
    is_flag=True,
    help="--contract reports the make probability alone, from one target search per contract and deal "
    "(about 1/25 of a DD table or less): the cheapest question.",
)
@_common.renamed_option("--vul", "--vulnerable")
@click.option(
    "--vulnerable",
    "vul",
    type=VUL,
    default=None,
    help="Vulnerability for scores (default: the script's vulnerable, else none).",
)
@click.option(
    "--lead",
    metavar="CONTRACT",
    default=None,
    help="Opening-lead table against e.g. 3NS: all the leader's cards scored by one search a deal "
    "(about a quarter of a DD table).",
)
@json_output("Only the reports (dealer's text left out)")
@click.option("--csv", "as_csv", is_flag=True, help="Only the --contract or --lead table as CSV on stdout.")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    default=None,
    help="Plot the trick distributions of --contract to this image (needs matplotlib).",
)
@click.option(
    "-L",
    "--library",
    "library_file",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Library mode: the deals of this solved database (.zrd, or .zbd with its .zdd) in file order, "
    "tricks() from its stored results; nothing is solved.",
)
@click.option(
    "--start",
    "library_start",
    type=POSITIVE,
    default=1,
    help="With --library: the first record read, counted from 1 as every message counts records.",
)
@click.option(
    "--count",
    "library_count",
    type=COUNT,
    default=None,
    help="With --library: records read from --start (more than the file holds is refused).",
)
@click.option(
    "--workers",
    type=POSITIVE,
    default=None,
    help="Deal on a local Dask cluster of W workers (same deals).",
)
def dealer(
    file: str | None,
    seed: int | None,
    generate: int | None,
    produce: int | None,
    time_limit: float | None,
    threads: int | None,
    generator: str | None,
    parameters: dict[int, str],
    csv_file: str | None,
    export_file: str | None,
    quiet_pbn: bool,
    no_summary: bool,
    upper: bool,
    meter: bool,
    swap: int,
    exhaust: bool,
    library: int | None,
    output: str | None,
    force: bool,
    to_format: str | None,
    solve: bool,
    contracts: tuple[str, ...],
    makes_only: bool,
    vul: str | None,
    lead: str | None,
    as_json: bool,
    as_csv: bool,
    plot: str | None,
    library_file: str | None,
    library_start: int,
    library_count: int | None,
    workers: int | None,
) -> None:
    """Run dealer script FILE (dealer's language; standard input when FILE is - or left out).

    Deals, actions and summary lines as dealer prints them.  The deals
    depend on the seed and --generator only, never on --threads or --workers.  With
    --contract/--lead the produced deals are solved in batches through the
    solver pool and a statistics report follows dealer's output.  With
    --library the deals are a solved database's records instead, each
    once, and every result is read from it: nothing is solved.
    """
    _refuse_unsupported(exhaust, library)
    written = {"-o": output, "-C": _report_name(csv_file), "-X": _report_name(export_file), "--plot": plot}
    one_file_each({"FILE": file, "-L": library_file, **written})  # nothing written over another or over an input
    reports = _Reports(output, solve, contracts, makes_only, vul, lead, as_json, as_csv, plot)
    output_format: Format | None = None
    if generator is not None and library_file is not None:
        fail("--generator chooses how deals are dealt; a --library's deals are read from it (drop --generator)")
    solved_library = _library(library_file, library_start, library_count, lead, workers, swap)
    if generator is not None:
        from ddsbind.dealer.dealing import DealerError, check_generator

        try:
            check_generator(generator)
        except DealerError as exc:
            fail(f"--generator: {exc}")
    if output:
        from ddsbind.dealer.files import check_output

        output_format = check_output(output, to_format, force=force)  # decided once, here, and passed on
    from ddsbind.dealer.kernel import DEFAULT_GENERATOR
    from ddsbind.dealer.run import load_script
    from ddsbind.dealer.settings import DealSource, Limits

    with about(file or "<stdin>"):
        script, name = load_script(file, parameters)
    if seed is None:
        import secrets

        seed = secrets.randbits(32)
    elif seed < 0:
        seed += 2**64
    source = DealSource(seed, generator or DEFAULT_GENERATOR, swap, library=solved_library)
    limits = Limits(generate, produce, time_limit)
    _keep_freed_memory()
    # A reader that goes away (| head) ends the run quietly: the CLI's boundary (_common.Group) does it.
    with contextlib.ExitStack() as files:
        job = _Job(
            script,
            name,
            source,
            limits,
            reports,
            output_format,
            file=file,
            threads=threads,
            workers=workers,
            meter=meter,
            summary=not no_summary,
            quiet_pbn=quiet_pbn,
            csv=_report_file(files, csv_file, "-C"),
            export=_report_file(files, export_file, "-X"),
        )
        _run(job)


@dataclasses.dataclass(frozen=True)
class _Reports:
    """What the command makes of the produced deals after the run: -o, --solve, --contract/--lead, --json/--csv, --plot.

    Checked when made, before any dealing: conflicting options, bad
    contracts, a plot file matplotlib cannot write.  ``vul`` is --vulnerable
    (None: the script's vulnerable, else none; :meth:`vulnerability`).
    """

    output: str | None
    solve: bool
    contracts: tuple[str, ...]
    makes_only: bool
    vul: str | None
    lead: str | None
    as_json: bool
    as_csv: bool
    plot: str | None

    def __post_init__(self) -> None:
        _check_reports(self.contracts, self.lead, self.as_json, self.as_csv, self.plot)
        if self.makes_only and (self.plot or not self.contracts):
            fail("--makes-only reports make probabilities of --contract (no trick distributions to --plot)")

    def vulnerability(self, script: Any) -> Vulnerability:
        """--vulnerable, else the script's ``vulnerable`` (a Vulnerability, read by its parser), else none."""
        if self.vul is not None:
            return Vulnerability.parse(self.vul)
        return script.vulnerable if script.vulnerable is not None else Vulnerability.NONE


@dataclasses.dataclass(frozen=True)
class _Job:
    """One ``ddsbind dealer`` command, built once from its options: the run's settings, the reports, the resources.

    ``source`` and ``limits`` go to :func:`ddsbind.dealer.run` as they are;
    its :class:`~ddsbind.dealer.settings.Outputs` are made where the
    progress meter and the library stream exist (:func:`_run`).
    """

    script: Any
    name: str  # the script's name in PBN's Event tag
    source: DealSource
    limits: Limits
    reports: _Reports
    output_format: Format | None  # -o's, decided once (--to, else its extension) by check_output
    file: str | None
    threads: int | None
    workers: int | None
    meter: bool
    summary: bool
    quiet_pbn: bool
    csv: Any
    export: Any

    @property
    def library(self) -> Library | None:
        """The --library, opened by :func:`_library` (the deal source's), or None."""
        return cast("Library | None", self.source.library)


def _keep_freed_memory() -> None:
    """Let glibc's malloc keep the memory of freed batches for the next ones (this process is the command's own).

    Every batch allocates arrays of a few hundred kB to 2 MB (owners, counts,
    the condition's int64 columns).  By default glibc gives such blocks their
    own mmap and returns them on free, so each batch's first touch of its
    memory page-faults again: a tenth of the CPU time of ``generate 2000000``
    went to the kernel's page faults (``/usr/bin/time``'s sys seconds, measured
    0.16-0.20 s against 0.02-0.07 s like this).  Raising the mmap threshold
    to 32 MB and the trim threshold to 128 MB keeps them in the heap.  Not
    glibc (no ``mallopt``): nothing is done.
    """
    import ctypes  # numpy has loaded it already

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):  # pragma: no cover - a C library without mallopt
        return
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's <malloc.h>
    mallopt(m_mmap_threshold, 32 << 20)
    mallopt(m_trim_threshold, 128 << 20)


def _report_name(spec: str | None) -> str | None:
    """The file of a ``-C``/``-X`` argument: ``FILE`` or ``w:FILE``."""
    return None if spec is None else spec[2:] if spec.startswith("w:") else spec


def _report_file(stack: contextlib.ExitStack, spec: str | None, flag: str) -> Any:
    """Open DealerV2's ``-C``/``-X`` file: ``FILE`` appended to (made if missing), ``w:FILE`` replaced.

    Written atomically (:func:`ddsbind.formats.files.atomic_output`): the
    lines go to a new file beside it (after a copy of the old one when
    appending) that replaces it only when the run succeeds, so a failed run
    leaves the file as it was.  Opened before the first deal: a missing
    folder or an unreadable file is refused first.
    """
    name = _report_name(spec)
    if name is None:
        return None
    from ddsbind.formats.files import atomic_output

    try:
        raw = stack.enter_context(atomic_output(name))
        if name != "-" and not spec.startswith("w:") and os.path.exists(name):  # type: ignore[union-attr]
            import shutil  # its archive formats (bz2, lzma) cost every dealer run's start-up

            with open(name, "rb") as old:
                shutil.copyfileobj(old, raw)
    except OSError as exc:
        fail(f"{flag} {name}: {exc.strerror}")
    text = io.TextIOWrapper(raw, encoding="utf-8", newline="\n")
    stack.callback(text.detach)  # flushes into the new file before atomic_output renames it (LIFO), never closes it
    return text


def _refuse_unsupported(exhaust: bool, library: int | None) -> None:
    if exhaust:
        fail("-e (dealer's exhaust mode) is not supported; Debian's dealer is built without it too")
    if library is not None:
        fail("-l (deals from GIB's library.dat) is not supported")


def _check_reports(contracts: tuple[str, ...], lead: str | None, as_json: bool, as_csv: bool, plot: str | None) -> None:
    """Refuse conflicting report options and bad contracts or plot files, before any dealing."""
    if as_json and as_csv:
        fail("--json and --csv: choose one")
    if as_csv and not (contracts or lead):
        fail("--csv writes the --contract or --lead table: give one of them")
    if as_csv and contracts and lead:
        fail("--csv writes one table: give --contract or --lead, not both")
    if plot and not contracts:
        fail("--plot draws the trick distributions of --contract: give at least one")
    if contracts or lead:
        from ddsbind.dealer.statistics import declared

        for text in (*contracts, *([lead] if lead else [])):
            declared(text)
    if plot:
        check_image(plot)


def _run(job: _Job) -> None:
    """Deal, print, solve, save and report, once every argument has been checked."""
    from ddsbind._dask import dask_client
    from ddsbind.dealer import DealerError
    from ddsbind.dealer.run import finish, run
    from ddsbind.dealer.settings import Outputs

    script, reports, library = job.script, job.reports, job.library
    out = None if reports.as_json or reports.as_csv else sys.stdout
    stream = _LibraryStream.for_run(job)
    keep = bool(reports.output or reports.contracts or reports.lead or reports.solve) and stream is None
    with contextlib.ExitStack() as stack:
        if stream is not None:
            stack.enter_context(stream)
        client = stack.enter_context(dask_client(job.workers, error=DealerError)) if job.workers else None
        total = None if library is None else len(library)
        if total is not None and job.limits.generate is not None:
            total = min(total, job.limits.generate)
        with (
            # A library's own errors name its file, record and byte offset: kept as they are.
            about(job.file or "<stdin>", *(library.paths if library is not None else ())),
            _meter(job.meter, "dealing", "deal", total) as tick,
        ):
            outputs = Outputs(
                out=out,
                source=job.name,
                quiet_pbn=job.quiet_pbn,
                csv=job.csv,
                export=job.export,
                keep=keep,
                sink=stream,
                progress=tick,
            )
            result = run(script, job.source, job.limits, outputs, threads=job.threads, client=client)
    if out is not None:
        finish(script, result, out, summary=job.summary)
        out.flush()
    if result.timed_out:
        click.get_current_context().exit(1)  # dealer's status for a time limit reached; its summary said so
    _solve_and_report(job, result, stream)


class _LibraryStream:
    """Library mode's accepted records written (``-o``) and counted (``--contract``) as they come.

    Nothing is kept: memory stays a batch's, however many records are
    accepted.  A record format is appended batch by batch, PBN, GIB, LIN,
    ZBS and DDS written part by part (the same bytes as written whole, from the kept
    deals); the output is written atomically (all or nothing).
    """

    def __init__(self, job: _Job) -> None:
        from ddsbind.dealer import statistics

        self.job = job
        r = job.reports
        self.tally = (
            statistics.ContractTally(r.contracts, r.vulnerability(job.script), makes_only=r.makes_only)
            if r.contracts
            else None
        )
        self.writer: DealWriter | None = None

    @classmethod
    def for_run(cls, job: _Job) -> _LibraryStream | None:
        """A stream for a library run whose output (if any) can be written a batch at a time; else None (kept)."""
        r = job.reports
        if job.library is None or not (r.output or r.contracts):
            return None
        fmt = job.output_format
        if fmt is not None and fmt.encode is None and fmt.dump_part is None:
            return None  # a format written only whole (none built in): from the deals kept
        return cls(job)

    def __enter__(self) -> _LibraryStream:
        r, fmt = self.job.reports, self.job.output_format
        if r.output and fmt is not None:
            import warnings

            from ddsbind.dealer.files import DealWriter
            from ddsbind.errors import DroppedDataWarning
            from ddsbind.formats.convert import results_lost

            lost = results_lost(fmt, 0)
            if lost is not None:  # every record of a library has its results: said once, before the first
                library = self.job.library.path  # type: ignore[union-attr]
                warnings.warn(DroppedDataWarning(f"{fmt.name} cannot hold {library}'s {lost}: dropped"), stacklevel=2)

            script = self.job.script
            self.writer = DealWriter(r.output, fmt, dealer=script.dealer, vulnerable=script.vulnerable).__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.writer is not None:
            self.writer.__exit__(*exc)

    def __call__(self, owners: Any, tables: Any) -> None:
        if self.writer is not None:
            self.writer.write(owners, tables)
        if self.tally is not None:
            from ddsbind.dealer import statistics

            r = self.job.reports
            results = statistics.contract_results(owners, r.contracts, makes_only=r.makes_only, known=tables)
            self.tally.add(results)


def _solve_and_report(job: _Job, result: Any, stream: _LibraryStream | None) -> None:
    r, script = job.reports, job.script
    if stream is not None:
        report = None if stream.tally is None else stream.tally.report()
        _print_reports(job, result, report, None)
        return
    if result.deals is None and not r.as_json:
        return  # nothing kept, nothing to report: the statistics and formats modules stay unloaded
    from ddsbind.dealer import statistics
    from ddsbind.dealer.files import write_deals

    deals, tables, threads = result.deals, result.tables, job.threads
    # Whole tables only where they are saved or asked for; a report solves what it reads (the question planner).
    # -o saves tables when --contract, or the script's tricks(), used to solve them whole (as before the planner).
    saved = r.output and (r.contracts or script.uses_tricks)
    if deals is not None and (r.solve or saved) and tables is None:
        with progress("solving", total=len(deals), unit="deal") as tick:
            tables = statistics.tables_of_owners(deals, threads=threads, progress=tick)
    if r.output and deals is not None:
        write_deals(r.output, deals, tables, job.output_format, dealer=script.dealer, vulnerable=script.vulnerable)
    report = None
    if r.contracts and deals is not None:
        if tables is not None:
            results = statistics.contract_results(deals, r.contracts, makes_only=r.makes_only, known=tables)
        else:
            with progress("solving", total=len(deals), unit="deal") as tick:
                results = statistics.contract_results(
                    deals,
                    r.contracts,
                    makes_only=r.makes_only,
                    known=result.known,
                    threads=threads,
                    progress=tick,
                )
        report = statistics.results_report(results, r.contracts, r.vulnerability(script), makes_only=r.makes_only)
    leads = None
    if r.lead and deals is not None:
        with progress("leads", total=len(deals), unit="deal") as tick:
            leads = statistics.lead_table(deals, r.lead, threads=threads, progress=tick)
    _print_reports(job, result, report, leads)


def _print_reports(job: _Job, result: Any, report: Any, leads: Any) -> None:
    """The JSON document, the CSV table, or the reports' text; then the plot."""
    r = job.reports
    if r.as_json:
        click.echo(_json_document(job.script, result, job.source.seed, report, leads))
    elif r.as_csv:
        table = report if report is not None else leads
        assert table is not None  # _check_reports asked for --contract or --lead
        click.echo(table.render("csv"), nl=False)
    else:
        for part in (report, leads):
            if part is not None:
                click.echo(part.render("text"), nl=False)
    if report is not None and r.plot:
        report.plot(r.plot)


def _json_document(script: Any, result: Any, seed: int, report: Any, leads: Any) -> str:
    """One JSON object: the run's counts and statistics, the contract report and the lead table (NaN as null)."""
    import json

    statistics: list[dict[str, Any]] = []
    for i, action in enumerate(script.actions):
        if action.kind == "average":
            mean = result.sums[i] / result.produced if result.produced else None
            statistics.append({"average": action.label, "value": mean})
        elif action.kind == "frequency":
            statistics.append({"frequency": action.label, "bounds": action.bounds, "counts": result.counts[i].tolist()})
    document: dict[str, Any] = {
        "seed": seed,
        "generated": result.generated,
        "produced": result.produced,
        "statistics": statistics,
    }
    if report is not None:
        document.update(json.loads(report.render("json")))
    if leads is not None:
        document["lead"] = json.loads(leads.render("json"))
    return json.dumps(_no_nan(document), indent=2, allow_nan=False)


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_nan(v) for v in value]
    return value


@contextlib.contextmanager
def _meter(forced: bool, desc: str, unit: str, total: int | None = None) -> Any:
    """The progress bar: on a terminal, or always with -m."""
    if not forced:
        with progress(desc, total=total, unit=unit) as tick:
            yield tick
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=False, leave=False) as bar:
        yield bar.update


def _library(path: str | None, start: int, count: int | None, lead: str | None, workers: int | None, swap: int) -> Any:
    """The library of ``--library``, opened (a file of partial records is refused here), or None."""
    if path is None:
        if start != 1 or count is not None:
            fail("--start and --count select records of a --library")
        return None
    if lead:
        fail("--lead scores every opening lead by solving; a library stores only DD tables (drop --library)")
    if workers:
        fail("--workers deals on Dask; a --library is read on this machine's threads (drop --workers)")
    if swap:
        fail("-2/-3 rearrange dealt hands; a --library's deals are read as they are (drop the swap)")
    from ddsbind.dealer.library import Library

    return Library(path, start=start - 1, count=count)
