"""The ``sd`` command: single-dummy analysis of the hand to play, from a view and the play so far."""

from __future__ import annotations

from pathlib import Path

import click

from ddsbind.cli._common import POSITIVE, about, json_output, progress


class _Samples(click.ParamType):
    """A number of layouts (1 or more), or ``auto``."""

    name = "samples"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[N|auto]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        if isinstance(value, int) or value == "auto":
            return value
        text = str(value).strip().lower()
        if text == "auto":
            return "auto"
        if text.isdigit() and int(text) >= 1:
            return int(text)
        self.fail(f"{value!r} is not a number of layouts (1 or more) or 'auto'", param, ctx)


@click.command()
@click.argument("view")
@click.option("--contract", required=True, help="The contract with its declarer: 3NTS, 4HXE, '4S by N'.")
@click.option("--played", default="", help="The cards played so far from the opening lead: 'SK S2 SA' or 'SK,S2,SA'.")
@click.option("--condition", help="A dealer-language condition on the hidden hands: 'hcp(north) >= 15'.")
@click.option(
    "--script",
    type=click.Path(exists=True, dir_okay=False),
    help="A dealer script file whose condition (and predeal) the layouts must satisfy.",
)
@click.option("--samples", type=_Samples(), default="1000", show_default=True, help="Layouts to deal, or 'auto'.")
@click.option("--seed", type=click.IntRange(min=0), help="Dealing seed (default: a random one, printed).")
@click.option("--threads", type=POSITIVE, help="Solver threads. Default: one per core.")
@click.option("--exact/--sample", "exact", default=None, help="Enumerate every layout / always sample.")
@click.option("--tricks", is_flag=True, help="Mean tricks and each card's loss to the best card too.")
@click.option(
    "--tries",
    type=POSITIVE,
    default=10_000_000,
    show_default=True,
    help="Deals dealt at most to find layouts that fit the play and the condition.",
)
@json_output("The result")
def sd(
    view: str,
    contract: str,
    played: str,
    condition: str | None,
    script: str | None,
    samples: int | str,
    seed: int | None,
    threads: int | None,
    exact: bool | None,
    tricks: bool,
    tries: int,
    as_json: bool,
) -> None:
    """Single dummy: how each legal card of the hand to play fares over the layouts of the hidden cards.

    VIEW is a PBN deal with the hidden hands as '-': 'W:KQ32.A43.KJ32.43 - - -'
    for the opening leader, or dummy and declarer after the lead.  Every
    layout consistent with the view, the play and the condition is equally
    likely; each card's make odds (and with --tricks, mean tricks) come
    with 95% intervals.
    """
    from ddsbind.dealer.language import parse
    from ddsbind.dealer.single_dummy import single_dummy

    if condition is not None and script is not None:
        raise click.UsageError("give --condition or --script, not both")
    parsed = None
    if script is not None:
        with about(script):
            parsed = parse(Path(script).read_text(), script)
    with progress("solving", unit="layout") as tick:
        result = single_dummy(
            view,
            contract=contract,
            played=played,
            condition=parsed if parsed is not None else condition,
            samples=samples,
            seed=seed,
            threads=threads,
            exact=exact,
            tricks=tricks,
            tries=tries,
            progress=tick,
        )
    click.echo(result.to_json() if as_json else result.render(), nl=False)
