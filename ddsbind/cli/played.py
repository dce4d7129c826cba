"""Commands on played deals: ``analyse`` a file of game records (a match, a session), ``line`` from a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import SEAT, STRAIN, FormatChoice, about, json_output, progress

if TYPE_CHECKING:
    from ddsbind.deal import Seat, Strain
    from ddsbind.play import LineTrick


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--from", "fmt", type=FormatChoice(games=True), help="Input format (default: from the extension, else the content)."
)
@json_output("Every board's analysis")
def analyse(file: str, fmt: str | None, as_json: bool) -> None:
    """Per played board in FILE (PBN with play, LIN or ZRJ): the result, double dummy, and each costly card.

    A team match (LIN's open and closed rooms, PBN's Room tag) is scored in
    IMPs: per board both rooms' players, contract, result and score, the
    double-dummy result and par, the swing and the running match score, then
    the match total.  Boards played at several tables without rooms (a pairs
    session) get each table's matchpoints.  A costly card is one after which
    the double-dummy result moved against the side that played it; the
    cards listed as better would have kept it.
    """
    import json

    from ddsbind.formats.games import read_games
    from ddsbind.match import analyse_session

    with about(file):
        games = read_games(file, fmt)
    unplayable = sum(1 for g in games if g.trump is None or g.declarer is None)
    if unplayable:
        click.echo(f"ddsbind: note: {unplayable} deal(s) passed out or without contract and declarer skipped", err=True)
    with progress("analysing", total=len(games) - unplayable, unit="deal") as tick, about(file):
        report = analyse_session(games, progress=tick)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=1))
        return
    for text in report.lines():
        click.echo(text)


@click.command()
@click.argument("deal")
@click.option("--trump", type=STRAIN, required=True, help="Trump strain (NT for notrump).")
@click.option("--leader", type=SEAT, required=True, help="The hand that led (or leads) the current trick.")
@click.option("--trick", default="", help="Cards already played to the current trick, e.g. 'SA,S2'.")
@click.option(
    "--declarer",
    type=SEAT,
    default=None,
    help="Count 'value' for this seat's side. Default: the side not on lead to the current trick.",
)
@json_output("The line, with every option and its score,")
def line(deal: str, trump: Strain, leader: Seat, trick: str, declarer: Seat | None, as_json: bool) -> None:
    """The double-dummy best line from DEAL (a PBN deal string), one trick a row.

    'value' is the tricks one side takes from that trick on: --declarer's
    side, or else the side not on lead to the current trick (in an ending,
    declarer's side may be the one on lead: say so with --declarer).  Among
    equally good cards the lowest is played.
    """
    import json

    from ddsbind.play import best_line

    tricks = best_line(deal, trump, leader, current_trick=trick)
    counted = leader.next(3).side  # the side best_line counts for: the one not on lead
    side = counted if declarer is None else declarer.side

    def value(t: LineTrick) -> int:
        return t.value if side == counted else 14 - t.number - t.value

    if as_json:
        out = [
            {
                "number": t.number,
                "leader": t.leader.name,
                "cards": [str(c) for c in t.cards],
                "winner": t.winner.name,
                "value": value(t),
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
    names = side.name
    who = f"declarer {declarer}, " if declarer is not None else ""
    click.echo(f"{who}trump {trump}; value = tricks for {names} from the trick on")
    click.echo("trick  lead  cards         won  value")
    for t in tricks:
        cards = " ".join(str(c) for c in t.cards)
        click.echo(f"{t.number:>5}  {t.leader.name:<4}  {cards:<12}  {t.winner.name:<3}  {value(t):>5}")
