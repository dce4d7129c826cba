"""The ``ddsbind`` console command (click): parse, call, render; nothing else.

Results go to stdout, progress and errors to stderr; an error is one line and
exit status 1.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, TypedDict

import click

from ddsbind._typing import Progress
from ddsbind.errors import DDSError, FormatError

if TYPE_CHECKING:
    import warnings

    from ddsbind.cribbage import Session
    from ddsbind.deal import Deal
    from ddsbind.play import CostlyCard
    from ddsbind.solver import DDTable


class _Group(click.Group):
    """A click group that turns library errors into one line on stderr, exit 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (DDSError, FormatError, OSError, ValueError) as exc:
            click.echo(f"ddsbind: error: {exc}", err=True)
            sys.exit(1)


@contextlib.contextmanager
def _progress(desc: str, total: int | None = None, unit: str = "record") -> Iterator[Progress]:
    """A progress callback for library code, drawn as a tqdm bar on stderr (only on a terminal)."""
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, disable=None, leave=False) as bar:
        yield bar.update


@click.group(cls=_Group)
@click.version_option(package_name="ddsbind")
def main() -> None:
    """Double-dummy bridge analysis with DDS, and Pavlicek's deal formats."""


# --------------------------------------------------------------------------
# Solving


_VUL = click.Choice(["none", "both", "ns", "ew"], case_sensitive=False)
_SEAT = click.Choice(["N", "E", "S", "W"], case_sensitive=False)
_STRAIN = click.Choice(["S", "H", "D", "C", "NT", "N"], case_sensitive=False)


def _diagram(deal: Deal) -> list[str]:
    """The four hands as a bridge diagram: North on top, West left, East right, South below."""
    from ddsbind.deal import SUITS

    # Deal.to_pbn gives the holdings N E S W, each "S.H.D.C" with ranks high to low.
    hands = deal.to_pbn("N")[2:].split(" ")
    north, east, south, west = ([f"{SUITS[s]} {h or '-'}" for s, h in enumerate(hand.split("."))] for hand in hands)
    pad = " " * 20
    out = [pad + x for x in north]
    out += [f"{w:<20}{'':<20}{e}".rstrip() for w, e in zip(west, east, strict=True)]
    out += [pad + x for x in south]
    return out


def _render_table(deal: Deal, table: DDTable, vul: str, dealer: str | None) -> list[str]:
    from ddsbind import dealer_par, par

    out = [f"Deal {deal.to_pbn()}", "", *_diagram(deal), "", "Double-dummy tricks (declarer):"]
    out += ["  " + line for line in str(table).splitlines()]
    if not deal.is_full:
        return [*out, "", "Par: none (par is bid for 13 tricks, so only a full deal has one)"]
    p = par(table, vul)
    out += ["", f"Par ({vul}): {p.score_text[0]}  {p.contracts[0]}"]
    if p.contracts[1] != p.contracts[0].replace("NS:", "EW:", 1) or p.score_text[1].split()[-1] != str(-p.score):
        out.append(f"      if EW bid first: {p.score_text[1]}  {p.contracts[1]}")
    if dealer:
        dp = dealer_par(table, dealer, vul)
        out.append(f"Par with {dealer.upper()} dealing: {dp.score:+d}  {' '.join(dp.contracts)}")
    return out


@main.command()
@click.argument("deal")
@click.option("--vul", type=_VUL, default="none", show_default=True, help="Vulnerability for par.")
@click.option("--dealer", type=_SEAT, default=None, help="Also show par when this seat deals (DealerPar).")
def table(deal: str, vul: str, dealer: str | None) -> None:
    """Print the double-dummy table and par of DEAL, a PBN deal string ("N:AKQ.. ...")."""
    from ddsbind import Deal, dd_table

    d = Deal.from_pbn(deal)
    click.echo("\n".join(_render_table(d, dd_table(d), vul, dealer)))


@main.command()
@click.argument("deal")
@click.option("--trump", type=_STRAIN, required=True, help="Trump strain (NT for notrump).")
@click.option("--leader", type=_SEAT, required=True, help="The hand on lead to the current trick.")
@click.option("--trick", default="", help="Cards already played to the trick, e.g. 'SA,S2'.")
def solve(deal: str, trump: str, leader: str, trick: str) -> None:
    """Score every card the hand to play can play (SolveBoard, solutions=3)."""
    from ddsbind import solve_board

    played = [c for c in trick.replace(" ", ",").split(",") if c]
    sol = solve_board(deal, trump, leader, current_trick=played)
    click.echo("card  tricks  equivalent cards")
    for c in sol:
        click.echo(f"{c.card!s:<5} {c.score:>6}  {' '.join(str(e) for e in c.equals)}".rstrip())


@main.command()
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option("--plot", "plot", type=click.Path(dir_okay=False), help="Also draw the statistics into this PNG.")
@click.option("--par-sample", default=10_000, show_default=True, help="Deals (spread over FILE) whose par is computed.")
def info(file: str | None, plot: str | None, par_sample: int) -> None:
    """Show which DDS ddsbind uses; with FILE, a database's count, checksum and DD statistics.

    For a ZRD database: tricks by strain and declarer, how often each
    contract level makes, how often par is a doubled sacrifice.
    """
    if file is None:
        if plot is not None:
            raise click.UsageError("--plot needs a FILE")
        from ddsbind import dds_info

        i = dds_info()
        click.echo(f"DDS {i.version} ({i.source})")
        click.echo(f"threading: {i.threading} (available: {', '.join(i.threading_systems) or 'unknown'})")
        click.echo(f"threads: {i.threads} on {i.cores} cores ({i.thread_sizes})")
        click.echo(f"SolveAllBoardsBin: {'native' if i.has_solve_all_boards_bin else 'via SolveAllChunksBin'}")
        return
    from ddsbind import database

    with _progress("reading", unit="record") as tick:
        res = database.info(file, par_sample=par_sample, progress=tick)
    click.echo("\n".join(database.render_info(res)))
    if plot is not None:
        database.plot_info(res, plot)
        click.echo(f"plot written to {plot}")


# --------------------------------------------------------------------------
# Databases (issue #11): generate, verify


@main.command()
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--count", type=click.IntRange(min=1), required=True, help="Number of deals.")
@click.option("--seed", type=click.IntRange(min=0, max=2**128 - 1), required=True, help="Seed (0 .. 2**128-1).")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Solver threads per process.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run of the same OUT, count and seed.")
@click.option("--workers", type=click.IntRange(min=1), default=None, help="Solve on a local Dask cluster of W workers.")
@click.option("--scheduler", metavar="ADDRESS", default=None, help="Solve on an existing Dask cluster (tcp://...).")
@click.option("--shard", type=click.IntRange(min=1), default=256, show_default=True, help="Deals per Dask task.")
@click.option("--batch", type=click.IntRange(min=1), default=None, help="Deals made and synced at a time.")
def generate(
    out: str,
    count: int,
    seed: int,
    threads: int | None,
    resume: bool,
    workers: int | None,
    scheduler: str | None,
    shard: int,
    batch: int | None,
) -> None:
    """Make a database of COUNT random deals of SEED: OUT.zrd (with DD tables) or OUT.zbd (deals only).

    Deal k depends only on (SEED, k).  Records are written in order and
    synced; a run killed at any moment is finished with --resume, giving the
    same bytes.  A manifest OUT.json is written at the end.  --workers and
    --scheduler need the optional extra: pip install 'ddsbind[distributed]'.
    """
    from ddsbind import database

    if workers is not None and scheduler is not None:
        raise click.UsageError("give --workers or --scheduler, not both")
    with _progress("generating", total=count, unit="deal") as tick:
        man = database.generate(
            out,
            count,
            seed,
            threads=threads,
            resume=resume,
            workers=workers,
            scheduler=scheduler,
            shard=shard,
            batch=batch,
            progress=tick,
            log=lambda msg: click.echo(msg, err=True),
        )
    click.echo(f"{man.count} deals in {out} ({man.seconds:.1f} s), checksum {man.checksum}")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--sample", default=100, show_default=True, help="Records re-solved and compared (all if >= count).")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Solver threads.")
def verify(file: str, sample: int, threads: int | None) -> None:
    """Check a database: structure, its manifest (deals, checksum), and SAMPLE re-solved records.

    Exit 1 naming the first bad record (index and byte offset).
    """
    from ddsbind import database

    with _progress("verifying", unit="deal") as tick:
        rep = database.verify(file, sample=sample, threads=threads, progress=tick)
    for line in rep.checked:
        click.echo(f"ok: {line}")
    if not rep.ok:
        where = []
        if rep.index is not None:
            where.append(f"record {rep.index}")
        if rep.offset is not None:
            where.append(f"byte offset {rep.offset}")
        prefix = f"{', '.join(where)}: " if where else ""
        click.echo(f"ddsbind: error: {file}: {prefix}{rep.error}", err=True)
        sys.exit(1)
    click.echo(f"{file}: {rep.count} records good, checksum {rep.checksum}")


@main.command()
@click.option("--deals", "count", default=4, show_default=True, help="How many random deals to solve.")
@click.option("--seed", default=2026, show_default=True, help="Random seed (the same seed, the same deals).")
def demo(count: int, seed: int) -> None:
    """Solve a few random deals and print each one's table and par."""
    import numpy as np

    from ddsbind import Deal, dd_tables
    from ddsbind.formats._order import SEAT_LETTERS, board_dealer, board_vulnerability

    rng = np.random.default_rng(seed)
    deals = [Deal.random(rng) for _ in range(count)]
    vuls = ("none", "both", "NS", "EW")  # DDS's vulnerability codes 0..3
    with _progress("solving", total=count, unit="deal") as tick:
        tables = dd_tables(deals, progress=tick)
    for board, (d, t) in enumerate(zip(deals, tables, strict=True), start=1):
        dealer = SEAT_LETTERS[board_dealer(board)]
        vul = vuls[board_vulnerability(board)]
        click.echo(f"Board {board}, dealer {dealer}, vulnerable {vul}")
        click.echo("\n".join(_render_table(d, t, vul, dealer)))
        click.echo("")


# --------------------------------------------------------------------------
# Cribbage game records (Code64)


@main.group()
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


def _show_session(session: Session) -> list[str]:
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


# --------------------------------------------------------------------------
# Formats: convert and checksum


class _FormatChoice(click.Choice):
    """The names in the table of formats, looked up when first needed (importing the CLI stays light)."""

    def __init__(self) -> None:
        super().__init__((), case_sensitive=False)

    @property
    def choices(self) -> tuple[str, ...]:
        from ddsbind.formats import registry

        return tuple(f.name for f in registry.formats())

    @choices.setter
    def choices(self, value: object) -> None:
        """click.Choice sets its choices once at construction; the table is the only source here."""


@main.command()
@click.argument("src", type=click.Path(exists=True, dir_okay=False))
@click.argument("dst", type=click.Path(dir_okay=False))
@click.option("--from", "src_format", type=_FormatChoice(), help="Input format (default: from the extension).")
@click.option("--to", "dst_format", type=_FormatChoice(), help="Output format (default: from the extension).")
@click.option(
    "--hand",
    type=click.Choice(list("NESW"), case_sensitive=False),
    default="N",
    show_default=True,
    help="Hand whose makes a hand-makes output stores.",
)
@click.option("--solve", is_flag=True, help="Fill in missing DD results by solving (each distinct deal once).")
@click.option("--threads", type=click.IntRange(min=1), default=None, help="Solver threads for --solve.")
def convert(
    src: str, dst: str, src_format: str | None, dst_format: str | None, hand: str, solve: bool, threads: int | None
) -> None:
    """Convert deals (and their results) from SRC to DST ('-' for stdout).

    Formats: zbd, zrd, zdd, hand-makes, zrj, zbs, pbn, dds, gib (guessed
    from .zbd .zrd .zdd .zrj .zbs .pbn .gib).  A result the input lacks is
    written as unknown (15) where the target allows it, else refused; with
    --solve it is solved instead.  DST appears only when the whole
    conversion succeeded.  Played deals: PBN game records <-> zrj keep
    auction and play; a play too long for a ZRJ record is cut short with a
    warning.
    """
    import warnings

    from ddsbind.formats.convert import convert as run

    fmts = [None if f is None else f.lower() for f in (src_format, dst_format)]
    filler = None
    with contextlib.ExitStack() as stack:
        if solve:
            from ddsbind.database import TableFiller

            filler = TableFiller(threads=threads, progress=stack.enter_context(_progress("solving", unit="deal")))
        tick = stack.enter_context(_progress("converting"))
        caught = stack.enter_context(warnings.catch_warnings(record=True))
        warnings.simplefilter("always")
        n = run(
            src,
            dst,
            src_format=fmts[0],
            dst_format=fmts[1],
            hand="NESW".index(hand.upper()),
            progress=tick,
            fill=filler,
        )
    _echo_warnings(caught)
    click.echo(f"{n} records written to {'standard output' if dst == '-' else dst}", err=dst == "-")
    if filler is not None:
        click.echo(f"{filler.solved} deals solved, {filler.reused} records reused a solved deal", err=dst == "-")


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--verify", "published", metavar="HEX", help="Exit 1 unless the checksum equals HEX.")
def checksum(file: str, published: str | None) -> None:
    """Print Pavlicek's checksum of FILE (64-bit sum of 32-bit little-endian words, hex)."""
    from ddsbind.formats import checksums

    value = checksums.checksum(file)
    click.echo(checksums.format_checksum(value))
    if published is not None and not checksums.matches(value, published):
        click.echo(f"ddsbind: error: checksum {checksums.format_checksum(value)} does not match {published}", err=True)
        sys.exit(1)


# --------------------------------------------------------------------------
# Played deals: analyse and line


def _echo_warnings(caught: list[warnings.WarningMessage]) -> None:
    for w in caught:
        click.echo(f"ddsbind: warning: {w.message}", err=True)


class _CostlyDoc(TypedDict):
    index: int
    card: str
    seat: str
    trick: int
    cost: int
    better: list[str]


class _AnalysisDoc(TypedDict):
    board: int | None
    contract: str | None
    declarer: str
    result: int | None
    dd_result: int
    cards_played: int
    costly: list[_CostlyDoc]


def _costly_json(cc: CostlyCard) -> _CostlyDoc:
    return {
        "index": cc.index,
        "card": str(cc.card),
        "seat": cc.seat.name,
        "trick": cc.trick,
        "cost": cc.cost,
        "better": [str(c) for c in cc.better],
    }


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--from", "fmt", type=click.Choice(["pbn", "zrj"], case_sensitive=False), help="Default: the extension.")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout, for machines.")
def analyse(file: str, fmt: str | None, as_json: bool) -> None:
    """Per played deal in FILE (ZRJ or PBN with play): contract, result, DD result and each costly card.

    A costly card is one after which the double-dummy result moved against
    the side that played it; the cards listed as better would have kept it.
    """
    import json

    from ddsbind.deal import Seat
    from ddsbind.formats.pbngame import GameRecord, read_games
    from ddsbind.play import PlayJob, analyse_plays, costly_cards_batch

    everything = read_games(file, fmt)
    games: list[tuple[GameRecord, Seat]] = []
    jobs: list[PlayJob] = []
    for g in everything:
        trump, declarer, leader = g.trump, g.declarer, g.leader
        if trump is not None and declarer is not None and leader is not None:
            games.append((g, declarer))
            jobs.append((g.deal, trump, leader, g.play))
    if len(games) < len(everything):
        skipped = len(everything) - len(games)
        click.echo(f"ddsbind: note: {skipped} deal(s) passed out or without contract and declarer skipped", err=True)
    with _progress("analysing", total=len(jobs), unit="deal") as tick:
        traces = analyse_plays(jobs, progress=tick)
    docs: list[_AnalysisDoc] = []
    for (g, declarer), costly, trace in zip(games, costly_cards_batch(jobs, traces=traces), traces, strict=True):
        docs.append(
            {
                "board": g.board,
                "contract": g.contract,
                "declarer": declarer.name,
                "result": g.result,
                "dd_result": trace[0],
                "cards_played": len(g.play),
                "costly": [_costly_json(cc) for cc in costly],
            }
        )
    if as_json:
        click.echo(json.dumps(docs, indent=1))
        return
    for d in docs:
        board = f"Board {d['board']}" if d["board"] is not None else "Deal"
        result = "result unknown" if d["result"] is None else f"{d['result']} tricks"
        click.echo(f"{board}: {d['contract']} by {d['declarer']}, {result}, double dummy {d['dd_result']} tricks")
        if not d["costly"]:
            click.echo(f"  no card changed the double-dummy result ({d['cards_played']} cards played)")
        for c in d["costly"]:
            s = "s" if c["cost"] > 1 else ""
            click.echo(
                f"  trick {c['trick']:>2}: {c['seat']} played {c['card']}, cost {c['cost']} trick{s}"
                f" (better: {' '.join(c['better'])})"
            )


@main.command()
@click.argument("deal")
@click.option("--trump", type=_STRAIN, required=True, help="Trump strain (NT for notrump).")
@click.option("--leader", type=_SEAT, required=True, help="The hand that led (or leads) the current trick.")
@click.option("--trick", default="", help="Cards already played to the current trick, e.g. 'SA,S2'.")
@click.option("--json", "as_json", is_flag=True, help="The line as JSON, with every option and its score.")
def line(deal: str, trump: str, leader: str, trick: str, as_json: bool) -> None:
    """The double-dummy best line from DEAL (a PBN deal string), one trick a row.

    Declarer is the seat to the right of --leader; 'value' is the tricks
    declarer's side takes from that trick on.  Among equally good cards the
    lowest is played.
    """
    import json

    from ddsbind.play import best_line

    played = [c for c in trick.replace(" ", ",").split(",") if c]
    tricks = best_line(deal, trump, leader, current_trick=played)
    if as_json:
        out = [
            {
                "number": t.number,
                "leader": t.leader.name,
                "cards": [str(c) for c in t.cards],
                "winner": t.winner.name,
                "value": t.value,
                "steps": [
                    {
                        "seat": s.seat.name,
                        "card": str(s.card),
                        "options": [{"cards": [str(c) for c in o.cards], "score": o.score} for o in s.options],
                    }
                    for s in t.steps
                ],
            }
            for t in tricks
        ]
        click.echo(json.dumps(out, indent=1))
        return
    declarer = "NESW"[("NESW".index(leader.upper()) + 3) % 4]
    click.echo(f"declarer {declarer}, trump {trump.upper()}; value = tricks for {declarer}'s side from the trick on")
    click.echo("trick  lead  cards         won  value")
    for t in tricks:
        cards = " ".join(str(c) for c in t.cards)
        click.echo(f"{t.number:>5}  {t.leader.name:<4}  {cards:<12}  {t.winner.name:<3}  {t.value:>5}")
