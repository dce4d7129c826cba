"""Commands on played deals: ``analyse`` a file of game records, the best ``line`` from a position."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import click

from ddsbind.cli._common import SEAT, STRAIN, FormatChoice, about, progress

if TYPE_CHECKING:
    from ddsbind.deal import Seat, Strain
    from ddsbind.play import CostlyCard, LineTrick


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


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--from", "fmt", type=FormatChoice(games=True), help="Input format (default: from the extension).")
@click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout, for machines.")
def analyse(file: str, fmt: str | None, as_json: bool) -> None:
    """Per played deal in FILE (PBN with play, LIN or ZRJ): contract, result, DD result and each costly card.

    A costly card is one after which the double-dummy result moved against
    the side that played it; the cards listed as better would have kept it.
    """
    import json

    from ddsbind.formats.games import read_games
    from ddsbind.play import PlayJob, analyse_plays, costly_cards_batch
    from ddsbind.record import GameRecord, contract_text

    with about(file):
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
    with progress("analysing", total=len(jobs), unit="deal") as tick, about(file):
        traces = analyse_plays(jobs, progress=tick)
        costly_all = costly_cards_batch(jobs, traces=traces)
    docs: list[_AnalysisDoc] = []
    for (g, declarer), costly, trace in zip(games, costly_all, traces, strict=True):
        docs.append(
            {
                "board": g.board,
                "contract": contract_text(g.contract),
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
@click.option("--json", "as_json", is_flag=True, help="The line as JSON, with every option and its score.")
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
