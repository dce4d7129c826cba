"""Single dummy at the speed of the question: an opening lead and a declarer play decision, samples per second.

Three runs of :func:`ddsbind.single_dummy`, each on ``--samples`` layouts
(default 2,500) of seed ``--seed`` on ``--threads`` solver threads (default 2):

1. ``opening lead, make odds``: East's opening lead against 3NT by North
   after 1NT (15-17, balanced) - 3NT (South 9-15 points), a full 52-card
   deal: one target search a layout (DDS's ``target``, ``solutions=2``)
   for every card.  Aim: within 60 s on 2 idle cores.
2. ``opening lead, mean tricks``: the same layouts, every card's tricks
   (``tricks=True``: one full ``solutions=3`` search a layout).  Aim: within 180 s.
3. ``declarer at trick 6``: declarer (N and S seen) to lead to trick 6 of
   a random deal played at random for five tricks, make odds.  Aim: within 15 s.

Each line prints the wall seconds, the CPU seconds, samples per second and
``others busy`` (cores other processes kept busy meanwhile): figures taken
while it is well above 0 measure the machine, not ddsbind.

Short run (a busy machine)::

    .venv/bin/python benchmarks/bench_single_dummy.py --samples 200

The figures of the issue (an idle machine)::

    .venv/bin/python benchmarks/bench_single_dummy.py --samples 2500 --threads 2
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np
from _common import LoadMeter, load_text, others_text

import ddsbind
from ddsbind.game import Play

#: East's hand on lead against 3NT by North after 1NT - 3NT.
VIEW = "E:KJ742.Q93.A86.T5 - - -"
CONTRACT = "3NTN"
#: What the auction said: North 15-17 balanced, South 9-15 with no interest in a major.
CONDITION = (
    "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332) "
    "&& hcp(south) >= 9 && hcp(south) <= 15 && spades(south) <= 4 && hearts(south) <= 4"
)


def trick_six(seed: int) -> tuple[str, str]:
    """Declarer's view (N and S shown) and a random play of five tricks of a random deal: 3NT by South.

    The first deal of ``seed``'s generator whose sixth trick declarer's side leads.
    """
    rng = np.random.default_rng(seed)
    while True:
        deal = ddsbind.Deal.random(rng)
        table = Play(deal, "NT", "W")
        cards = []
        while len(cards) < 20:
            legal = table.legal_cards()
            card = legal[int(rng.integers(len(legal)))]
            table.play(card)
            cards.append(str(card))
        if table.to_play.name in "NS":
            return f"N:{deal.hand_text('N')} - {deal.hand_text('S')} -", " ".join(cards)


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def run(name: str, aim: float, **kwargs: object) -> ddsbind.SingleDummy:
    t0, c0 = time.perf_counter(), cpu()
    with LoadMeter() as load:
        result = ddsbind.single_dummy(**kwargs)  # type: ignore[arg-type]
    wall, used = time.perf_counter() - t0, cpu() - c0
    rate = result.samples / wall if wall > 0 else float("inf")
    print(
        f"  {name:<28}{result.samples:>6} layouts {wall:>8.2f} s wall {used:>8.2f} s CPU "
        f"{rate:>9.1f} samples/s  (aim {aim:g} s at 2,500)  others busy {others_text(load.others)}"
    )
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=2500, help="layouts a run (default 2500)")
    p.add_argument("--threads", type=int, default=2, help="solver threads (default 2)")
    p.add_argument("--seed", type=int, default=1, help="dealing seed (default 1)")
    args = p.parse_args()
    common = {"samples": args.samples, "seed": args.seed, "threads": args.threads, "exact": False}
    print(f"single dummy: {args.samples} layouts, seed {args.seed}, {args.threads} threads; load {load_text()}")
    lead = run("opening lead, make odds", 60, view=VIEW, contract=CONTRACT, condition=CONDITION, **common)
    run("opening lead, mean tricks", 180, view=VIEW, contract=CONTRACT, condition=CONDITION, tricks=True, **common)
    view, played = trick_six(args.seed)
    decision = run("declarer at trick 6", 15, view=view, contract="3NTS", played=played, **common)
    print(f"best lead: {lead.best.card} ({100 * lead.best.makes:.1f}% makes); at trick 6: {decision.best.card}")


if __name__ == "__main__":
    main()
