"""The ``prove`` command: a proof tree of a double-dummy ending, printed or written as a tree file."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import POSITIVE, SEAT, SIDE, STRAIN, about, json_output, progress, renamed_option

if TYPE_CHECKING:
    from ddsbind.deal import Seat, Side, Strain


@click.command()
@click.argument("deal", required=False)
@renamed_option("--trump", "--strain")
@click.option("--strain", type=STRAIN, help="The strain: trumps, or NT for notrump.")
@click.option("--leader", type=SEAT, help="The hand on lead to the first trick.")
@click.option("--target", type=click.IntRange(min=0, max=13), help="Tricks to take. Default: the double-dummy value.")
@click.option("--goodguys", type=SIDE, help="The side that must take them. Default: the side on lead.")
@click.option(
    "--max-nodes",
    type=POSITIVE,
    default=1_000_000,
    show_default=True,
    help="Refuse a larger tree (an ending whose estimated tree is far larger is refused at once).",
)
@json_output("The tree")
@click.option("--text", "as_text", is_flag=True, help="The tree as indented tricks (the default).")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), help="Write the tree file (binary) here.")
@click.option("--read", "read", type=click.Path(exists=True, dir_okay=False), help="Print a stored tree file.")
def prove(
    deal: str | None,
    strain: Strain | None,
    leader: Seat | None,
    target: int | None,
    goodguys: Side | None,
    max_nodes: int,
    as_json: bool,
    as_text: bool,
    out: str | None,
    read: str | None,
) -> None:
    """Prove that a side takes its tricks in the ending DEAL against any defence.

    The good guys are by default the side on lead, as composed problems are
    set.  One card for the good guys at each turn, every class of equivalent cards
    for the defence, to the end of play.  With --read, check and print a tree
    file written by --out.
    """
    from ddsbind.proof import ProofTree, check_tree
    from ddsbind.proof import prove as build

    if sum((as_json, as_text, out is not None)) > 1:
        raise click.UsageError("give one of --json, --text and --out")
    if read is not None:
        given = (deal, strain, leader, target, goodguys, out)
        if any(value is not None for value in given):
            raise click.UsageError("--read takes no DEAL, --strain, --leader, --target, --goodguys or --out")
        with about(read):
            tree = ProofTree.from_bytes(Path(read).read_bytes())
            check_tree(tree)
    else:
        if deal is None or strain is None or leader is None:
            raise click.UsageError("give DEAL, --strain and --leader (or --read FILE.tree)")
        with progress("proving", unit="node") as tick:
            tree = build(deal, strain, leader, target=target, goodguys=goodguys, max_nodes=max_nodes, progress=tick)
    if out is not None:
        Path(out).write_bytes(tree.to_bytes())
        click.echo(f"{out}: {tree.goodguys} take {tree.target} tricks against any defence, {tree.size} nodes")
    elif as_json:
        click.echo(tree.to_json())
    else:
        click.echo(tree.to_text(), nl=False)
