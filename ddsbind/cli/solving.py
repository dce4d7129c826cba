"""Commands that solve: ``table``, ``solve``, ``demo``, and ``info`` (which DDS ddsbind runs)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import (
    COUNT,
    POSITIVE,
    SEAT,
    VUL,
    about,
    fail,
    json_output,
    position_options,
    progress,
    renamed_option,
)
from ddsbind.errors import DDSError, FormatError

if TYPE_CHECKING:
    from ddsbind.deal import Deal, Seat, Strain
    from ddsbind.game import Vulnerability
    from ddsbind.solver import DDTable


def _render_table(deal: Deal, table: DDTable, vulnerable: Vulnerability, dealer: Seat | None) -> list[str]:
    from ddsbind.solver import dealer_par, par

    out = [f"Deal {deal.to_pbn()}", "", *deal.diagram().splitlines(), "", "Double-dummy tricks (declarer):"]
    out += ["  " + line for line in str(table).splitlines()]
    if not deal.is_full:
        return [*out, "", "Par: none (par is bid for 13 tricks, so only a full deal has one)"]
    p = par(table, vulnerable)
    out += ["", f"Par ({vulnerable}): {p.score_text[0]}  {p.contracts[0]}", f"  that is: {p.words('NS')}"]
    if any(c.against is not None for c in p.details[0]):
        out.append(f"  explained: {p.explain('NS')}")
    if p.contracts[1] != p.contracts[0].replace("NS:", "EW:", 1) or p.score_text[1].split()[-1] != str(-p.score):
        out.append(f"      if EW bid first: {p.score_text[1]}  {p.contracts[1]}")
        out.append(f"  that is: {p.words('EW')}")
    if dealer is not None:
        dp = dealer_par(table, dealer, vulnerable)
        out.append(f"Par with {dealer} dealing: {dp.score:+d}  {' '.join(dp.contracts)}")
        out.append(f"  that is: {dp.words()}")
        if any(c.against is not None for c in dp.details):
            out.append(f"  explained: {dp.explain()}")
    return out


def _boards(source: str) -> list[tuple[int | None, Deal, Seat | None, Vulnerability | None]]:
    """``(board, deal, dealer, vulnerability)`` of a PBN deal string, or of each deal in a file."""
    import os
    import re

    from ddsbind.deal import Deal

    if re.match(r"\s*[NESWnesw]\s*:", source):
        return [(None, Deal.from_pbn(source), None, None)]
    if not os.path.isfile(source):
        raise FileNotFoundError(f"{source}: neither a PBN deal (N:...) nor a file")
    from ddsbind.formats import registry
    from ddsbind.formats.files import read_records

    fmt = registry.guess(source)
    if fmt.games is not None:
        from ddsbind.formats.games import read_games

        return [(g.board, g.deal, g.dealer, g.vulnerable) for g in read_games(source, fmt)]
    chunk = read_records(source, fmt)
    if chunk.owners is None:
        raise FormatError(f"{fmt.name} files hold no deals")
    return [(i + 1, Deal.from_owners(o), None, None) for i, o in enumerate(chunk.owners)]


def _table_dict(
    board: int | None, deal: Deal, table: DDTable, vulnerable: Vulnerability, dealer: Seat | None
) -> dict[str, object]:
    """One deal for ``table --json``: the deal, the table (strain -> declarer -> tricks), par explained."""
    from ddsbind.deal import SEAT_LETTERS, Strain
    from ddsbind.solver import dealer_par, par

    out: dict[str, object] = {
        "board": board,
        "deal": deal.to_pbn(),
        "vulnerable": str(vulnerable),
        "dealer": None if dealer is None else str(dealer),
        "table": {str(s): {seat: table[s, seat] for seat in SEAT_LETTERS} for s in Strain},
        "par": None,
        "dealer_par": None,
    }
    if deal.is_full:
        out["par"] = par(table, vulnerable).to_dict()
        if dealer is not None:
            out["dealer_par"] = dealer_par(table, dealer, vulnerable).to_dict()
    return out


@click.command()
@click.argument("deal")
@renamed_option("--vul", "--vulnerable")
@click.option("--vulnerable", type=VUL, default=None, help="Vulnerability for par. Default: the file's, else none.")
@click.option("--dealer", type=SEAT, default=None, help="Also show par when this seat deals (DealerPar).")
@json_output("Every deal's table and par (each contract explained, with what a sacrifice saves against)")
def table(deal: str, vulnerable: Vulnerability | None, dealer: Seat | None, as_json: bool) -> None:
    """Print the double-dummy table and par of DEAL: a PBN deal string ("N:AKQ.. ...") or a file of deals.

    A file (PBN, LIN, ZRJ, or any deal format of ``ddsbind convert``) gives
    every deal in it, each with its board number, and its dealer and
    vulnerability where the file says (--vulnerable and --dealer override them).
    A sacrifice is explained: what it saves against, and both scores.
    """
    import json

    from ddsbind.game import Vulnerability
    from ddsbind.solver import dd_tables

    with about(deal) if _is_file(deal) else contextlib.nullcontext():
        boards = _boards(deal)
    if not boards:
        fail(f"{deal}: no deals")
    try:
        with progress("solving", total=len(boards), unit="deal") as tick:
            tables = dd_tables([b[1] for b in boards], progress=tick)
    except DDSError as exc:
        if exc.index is None or exc.item != "deal" or not _is_file(deal):
            raise
        # The deal as the file counts it (record from 1, its board number), not the batch's "deal N".
        k, exc.index, exc.item = exc.index, None, None
        raise exc.locate(path=deal, record=k + 1, board=boards[k][0]) from None
    docs = []
    for k, ((board, d, own_dealer, own_vul), t) in enumerate(zip(boards, tables, strict=True)):
        v = vulnerable if vulnerable is not None else own_vul if own_vul is not None else Vulnerability.NONE
        who = dealer if dealer is not None else own_dealer
        if as_json:
            docs.append(_table_dict(board, d, t, v, who))
            continue
        if board is not None:
            dealt = f", dealer {who}" if who is not None else ""
            click.echo(("\n" if k else "") + f"Board {board}{dealt}, vulnerable {v}")
        click.echo("\n".join(_render_table(d, t, v, who)))
    if as_json:
        click.echo(json.dumps(docs[0] if len(docs) == 1 and boards[0][0] is None else docs, ensure_ascii=False))


def _is_file(text: str) -> bool:
    import os

    return os.path.isfile(text)


@click.command()
@position_options
def solve(deal: str, strain: Strain, leader: Seat, trick: str) -> None:
    """Score every card the hand to play can play (SolveBoard, solutions=3).

    The tricks are those of the side of the hand to play, from the current
    trick on (cards already on it count).
    """
    from ddsbind.game import parse_trick
    from ddsbind.solver import solve_board

    sol = solve_board(deal, strain, leader, current_trick=trick)
    to_play = leader.next(len(parse_trick(trick)))
    side = to_play.side
    named = "notrump" if strain == 4 else f"{strain} trumps"
    click.echo(f"{to_play} to play, {named}: tricks for {side} ({to_play}'s side) from this trick on")
    click.echo("card  tricks  equivalent cards")
    for c in sol:
        click.echo(f"{c.card!s:<5} {c.score:>6}  {' '.join(str(e) for e in c.equals)}".rstrip())


@click.command()
def info() -> None:
    """Show which DDS ddsbind uses: version, build, threading and thread count.

    A database's statistics are ``ddsbind stats FILE``.
    """
    from ddsbind._binding import dds_info

    i = dds_info()
    click.echo(f"DDS {i.version} ({i.source})")
    click.echo(f"threading: {i.threading} (available: {', '.join(i.threading_systems) or 'unknown'})")
    click.echo(f"threads: {i.threads} on {i.cores} cores ({i.thread_sizes})")
    click.echo(f"SolveAllBoardsBin: {'native' if i.has_solve_all_boards_bin else 'via SolveAllChunksBin'}")


@click.command()
@click.option("--deals", "count", type=POSITIVE, default=4, show_default=True, help="Random deals.")
@click.option("--seed", type=COUNT, default=2026, show_default=True, help="The same seed, the same deals.")
def demo(count: int, seed: int) -> None:
    """Solve a few random deals and print each one's table and par (boards 1, 2, ... of the 16-board cycle)."""
    import numpy as np

    from ddsbind.deal import Deal, Seat, Vulnerability
    from ddsbind.solver import dd_tables

    rng = np.random.default_rng(seed)
    deals = [Deal.random(rng) for _ in range(count)]
    with progress("solving", total=count, unit="deal") as tick:
        tables = dd_tables(deals, progress=tick)
    for board, (d, t) in enumerate(zip(deals, tables, strict=True), start=1):
        dealer = Seat.dealer_of_board(board)
        vul = Vulnerability.of_board(board)
        click.echo(f"Board {board}, dealer {dealer}, vulnerable {vul}")
        click.echo("\n".join(_render_table(d, t, vul, dealer)))
        click.echo("")
