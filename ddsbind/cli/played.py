"""Commands on played deals: ``analyse`` a file of game records (a match, a session), ``line`` from a position."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ddsbind.cli._common import SEAT, FormatChoice, about, fail, json_output, position_options, progress

if TYPE_CHECKING:
    from ddsbind.deal import Seat, Strain
    from ddsbind.play import LineTrick


@click.command()
@click.argument("sources", nargs=-1, required=True)
@click.option(
    "--from", "fmt", type=FormatChoice(games=True), help="Input format (default: from the extension, else the content)."
)
@click.option("--detail", is_flag=True, help="Each table's costly cards (by player, in tricks and IMPs) and claims.")
@click.option("--by-section", is_flag=True, help="Matchpoint each section apart (pairs events naming sections).")
@click.option(
    "--html",
    "html_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Also write the report as one self-contained HTML page (scorecard, players, each board's play).",
)
@json_output("Every board's analysis")
def analyse(
    sources: tuple[str, ...], fmt: str | None, detail: bool, by_section: bool, html_path: str | None, as_json: bool
) -> None:
    """Score and analyse played boards: SOURCES are files (PBN games or hand records with a ScoreTable, LIN, ZRJ),
    BBO handviewer addresses, or text files of addresses, one a line.

    A team match (LIN's open and closed rooms, PBN's Room tag) gets a
    scorecard, a line a board: both rooms' contract, declarer, lead, tricks
    and North-South score, the IMPs and the running score (from a vugraph
    segment's carry-over); then par, each room's contract double dummy and
    the swing split into auction (the IMPs between the two contracts double
    dummy) and play (the rest).  Other files are scored in matchpoints
    (2 a score beaten, 1 a tie; Neuberg where a board was played fewer times)
    with each pair's total and rank.  Then each player's boards and the
    double-dummy tricks they lost.  A costly card is one after which the
    double-dummy result moved against the side that played it; the cards
    listed as better would have kept it.
    """
    import json
    import os

    from ddsbind.formats.games import read_played
    from ddsbind.formats.handviewer import is_handviewer
    from ddsbind.match import analyse_session

    games = []
    for source in sources:
        if not os.path.exists(source) and not is_handviewer(source):
            fail(f"{source}: no such file (nor a handviewer address)")
        with about(source if os.path.exists(source) else "handviewer"):
            games += read_played(source, fmt)
    name = sources[0] if len(sources) == 1 else f"{len(sources)} sources"
    with progress("analysing", total=len(games), unit="deal") as tick, about(name):
        report = analyse_session(games, by_section=by_section, progress=tick)
    if html_path is not None:
        from ddsbind.formats.files import atomic_output

        with atomic_output(html_path) as out:
            out.write(report.to_html().encode("utf-8"))
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=1))
        return
    for text in report.lines(detail=detail):
        click.echo(text)


@click.command()
@position_options
@click.option(
    "--declarer",
    type=SEAT,
    default=None,
    help="Count 'value' for this seat's side. Default: the side not on lead to the current trick.",
)
@json_output("The line, with every option and its score,")
def line(deal: str, strain: Strain, leader: Seat, trick: str, declarer: Seat | None, as_json: bool) -> None:
    """The double-dummy best line from DEAL (a PBN deal string), one trick a row.

    'value' is the tricks one side takes from that trick on: --declarer's
    side, or else the side not on lead to the current trick (in an ending,
    declarer's side may be the one on lead: say so with --declarer).  Among
    equally good cards the lowest is played.
    """
    import json

    from ddsbind.play import best_line

    tricks = best_line(deal, strain, leader, current_trick=trick)
    counted = leader.rho.side  # the side best_line counts for: the one not on lead
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
    click.echo(f"{who}trump {strain}; value = tricks for {names} from the trick on")
    click.echo("trick  lead  cards         won  value")
    for t in tricks:
        cards = " ".join(str(c) for c in t.cards)
        click.echo(f"{t.number:>5}  {t.leader.name:<4}  {cards:<12}  {t.winner.name:<3}  {value(t):>5}")
