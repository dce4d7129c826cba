"""Commands that solve: ``table``, ``solve``, ``demo``, and ``info`` (which DDS ddsbind runs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import COUNT, POSITIVE, SEAT, STRAIN, VUL, progress

if TYPE_CHECKING:
    from ddsbind.deal import Deal
    from ddsbind.solver import DDTable


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
    from ddsbind.solver import dealer_par, par

    out = [f"Deal {deal.to_pbn()}", "", *_diagram(deal), "", "Double-dummy tricks (declarer):"]
    out += ["  " + line for line in str(table).splitlines()]
    if not deal.is_full:
        return [*out, "", "Par: none (par is bid for 13 tricks, so only a full deal has one)"]
    p = par(table, vul)
    out += ["", f"Par ({vul}): {p.score_text[0]}  {p.contracts[0]}", f"  that is: {p.words('NS')}"]
    if p.contracts[1] != p.contracts[0].replace("NS:", "EW:", 1) or p.score_text[1].split()[-1] != str(-p.score):
        out.append(f"      if EW bid first: {p.score_text[1]}  {p.contracts[1]}")
        out.append(f"  that is: {p.words('EW')}")
    if dealer:
        dp = dealer_par(table, dealer, vul)
        out.append(f"Par with {dealer.upper()} dealing: {dp.score:+d}  {' '.join(dp.contracts)}")
        out.append(f"  that is: {dp.words()}")
    return out


@click.command()
@click.argument("deal")
@click.option("--vul", type=VUL, default="none", show_default=True, help="Vulnerability for par.")
@click.option("--dealer", type=SEAT, default=None, help="Also show par when this seat deals (DealerPar).")
def table(deal: str, vul: str, dealer: str | None) -> None:
    """Print the double-dummy table and par of DEAL, a PBN deal string ("N:AKQ.. ...")."""
    from ddsbind.deal import Deal
    from ddsbind.solver import dd_table

    d = Deal.from_pbn(deal)
    click.echo("\n".join(_render_table(d, dd_table(d), vul, dealer)))


@click.command()
@click.argument("deal")
@click.option("--trump", type=STRAIN, required=True, help="Trump strain (NT for notrump).")
@click.option("--leader", type=SEAT, required=True, help="The hand on lead to the current trick.")
@click.option("--trick", default="", help="Cards already played to the trick, e.g. 'SA,S2'.")
def solve(deal: str, trump: str, leader: str, trick: str) -> None:
    """Score every card the hand to play can play (SolveBoard, solutions=3)."""
    from ddsbind.solver import solve_board

    sol = solve_board(deal, trump, leader, current_trick=trick)
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

    from ddsbind.deal import Deal
    from ddsbind.formats import board_dealer, board_vulnerability
    from ddsbind.solver import dd_tables

    rng = np.random.default_rng(seed)
    deals = [Deal.random(rng) for _ in range(count)]
    with progress("solving", total=count, unit="deal") as tick:
        tables = dd_tables(deals, progress=tick)
    for board, (d, t) in enumerate(zip(deals, tables, strict=True), start=1):
        dealer = board_dealer(board).name
        vul = board_vulnerability(board).pbn
        click.echo(f"Board {board}, dealer {dealer}, vulnerable {vul}")
        click.echo("\n".join(_render_table(d, t, vul, dealer)))
        click.echo("")
