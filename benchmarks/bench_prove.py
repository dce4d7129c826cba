"""Proof trees: nodes, DDS calls and seconds per random ending, 4 to 7 cards a hand.

Each ending is dealt from a seed (``random_ending``): a random full deal
cut down to the first ``k`` cards of each hand in a random order, notrump
and a random suit trump alternately, a random leader, the side not on lead
proving its double-dummy value.  Prints ``key value`` lines, one row per
ending and a median per size; no assertions on speed.

Baseline, from the same run and the same clock: ``dd_seconds``, one
``solve_board`` of the same ending (DDS's double-dummy value, the question a
proof answers in full); ``x_dd`` is the proof's time over it.

    python benchmarks/bench_prove.py                       # 4..7 cards, 5 endings each
    python benchmarks/bench_prove.py --cards 4 5 --endings 2   # a short run
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import numpy as np

import ddsbind
from ddsbind.deal import Deal, Seat, Strain
from ddsbind.proof import check_tree, prove
from ddsbind.solver import solve_board


def random_ending(cards: int, rng: np.random.Generator) -> Deal:
    """A random ending of ``cards`` cards a hand (1..13): each hand keeps ``cards`` of its random 13."""
    owners = Deal.random(rng).owners()
    keep = np.zeros(52, dtype=bool)
    for seat in range(4):
        mine = np.flatnonzero(owners == seat)
        keep[rng.choice(mine, size=cards, replace=False)] = True
    masks = [[0] * 4 for _ in range(4)]
    for index in np.flatnonzero(keep):
        card = ddsbind.Card.from_index(int(index))
        masks[int(owners[index])][card.suit] |= 1 << card.rank
    return Deal(masks)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--cards", type=int, nargs="+", default=[4, 5, 6, 7], help="cards a hand (default 4 5 6 7)")
    p.add_argument("--endings", type=int, default=5, help="random endings per size (default 5)")
    p.add_argument("--seed", type=int, default=2026, help="the same seed, the same endings (default 2026)")
    p.add_argument("--max-nodes", type=int, default=1_000_000, help="prove's max_nodes (default 1000000)")
    args = p.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    print(f"seed {args.seed}")
    for k in args.cards:
        seconds, nodes, ratios = [], [], []
        for e in range(args.endings):
            deal = random_ending(k, rng)
            trump = Strain(int(rng.integers(4)) if e % 2 else 4)
            leader = Seat(int(rng.integers(4)))
            start = time.perf_counter()
            tree = prove(deal, trump, leader, max_nodes=args.max_nodes)
            s = time.perf_counter() - start
            start = time.perf_counter()
            solve_board(deal, trump, leader, solutions=1)
            dd = max(time.perf_counter() - start, 1e-9)
            check_tree(tree)
            seconds.append(s)
            nodes.append(tree.size)
            ratios.append(s / dd)
            print(
                f"ending cards={k} trump={trump.symbol} leader={leader.name} goodguys={tree.goodguys} "
                f"target={tree.target} nodes={tree.size} dds_calls={tree.dds_calls} seconds={s:.3f} "
                f"dd_seconds={dd:.6f} x_dd={s / dd:.1f} deal={deal.to_pbn()}"
            )
        print(f"cards_{k}_median_nodes {statistics.median(nodes):.0f}")
        print(f"cards_{k}_median_seconds {statistics.median(seconds):.3f}")
        print(f"cards_{k}_max_seconds {max(seconds):.3f}")
        print(f"cards_{k}_median_x_dd {statistics.median(ratios):.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
