"""Stream random deals through a SolverPool: any number of deals, bounded memory, results in input order.

    python examples/stream_pool.py [COUNT] [SEED]      # default: 6 deals of seed 1

``SolverPool.imap_tables`` takes any iterable -- here a generator that shuffles
deals one at a time -- and yields each deal's table as soon as it and all
before it are solved, so a run of millions of deals never holds them all.
The example keeps running counts: how often North-South can make a game in
notrump (3NT, nine tricks) from either seat.
"""

from __future__ import annotations

import sys
from collections import deque
from collections.abc import Iterator

import numpy as np

import ddsbind


def random_deals(count: int, seed: int) -> Iterator[ddsbind.Deal]:
    """``count`` random deals, made one at a time (nothing is stored)."""
    rng = np.random.default_rng(seed)
    seats = np.repeat(np.arange(4), 13)  # 13 cards each for N E S W
    for _ in range(count):
        yield ddsbind.Deal.from_owners(rng.permutation(seats))


def main(count: int, seed: int) -> None:
    in_flight: deque[ddsbind.Deal] = deque()  # deals handed to the pool, table not yet back: a bounded few

    def remembered(deals: Iterator[ddsbind.Deal]) -> Iterator[ddsbind.Deal]:
        for deal in deals:
            in_flight.append(deal)
            yield deal

    games = 0
    with ddsbind.SolverPool() as pool:  # one worker per DDS thread
        for number, table in enumerate(pool.imap_tables(remembered(random_deals(count, seed))), start=1):
            deal = in_flight.popleft()  # tables come back in input order
            best_ns = max(table["NT", "N"], table["NT", "S"])
            games += best_ns >= 9
            print(f"deal {number}: {deal.to_pbn()}  NS in NT: {best_ns} tricks")
    print(f"{count} deals: North-South make 3NT on {games} ({games / count:.0%})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
