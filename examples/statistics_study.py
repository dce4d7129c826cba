"""Statistics players look up, read from a solved database: best contracts, the Law of Total Tricks, NT tricks by HCP.

    ddsbind generate study.zrd --count 4000 --seed 28   # a few thousand deals, solved once
    python examples/statistics_study.py study.zrd       # nothing is solved again

Library mode reads the deals and their stored double-dummy tables a chunk
at a time (:func:`ddsbind.dealer.library.iter_library`: owners ``(n, 52)``,
tables ``(n, 5, 4)`` ``[strain S H D C NT][declarer N E S W]``), so the same
program runs over Pavlicek's 10,485,760-deal library in constant memory.
Three tables are printed (Markdown), each figure with its standard error:

1. **Highest makeable contract** of each deal, whichever side makes it: grand
   slam (13 tricks in some strain), small slam (12), game (9 in notrump, 10
   in a major, 11 in a minor), else a partial.
2. **Law of Total Tricks**: each side's trump suit is its longest combined
   suit (equal lengths: the one it takes more tricks in), its tricks the
   better of its two declarers'; total trumps and total tricks add both
   sides.  The mean and standard deviation of tricks minus trumps, and the
   mean total tricks for each number of total trumps.
3. **Notrump tricks by combined HCP**: for each side, its high-card points
   and the notrump tricks of its better declarer (both sides of each deal
   counted, so a deal counts at ``h`` and at ``40 - h``).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from numpy.typing import NDArray

from ddsbind.dealer.library import iter_library

HCP = np.tile(np.array([4, 3, 2, 1] + [0] * 9), 4)  # points of cards SA..C2
GAME_TRICKS = np.array([10, 10, 11, 11, 9])  # S H D C NT
SIDES = ((0, 2), (1, 3))  # NS, EW as DDS seats
CATEGORIES = ("partial", "game", "slam", "grand")
VARIANTS = (
    "every deal (the table above)",
    "every deal, equal lengths: the suit with fewer tricks",
    "every deal, equal lengths: the higher-ranking suit",
    "both sides hold an 8-card fit",
    "competitive: each side 17-23 HCP",
    "competitive, both sides with an 8-card fit",
)


class Study:
    """Running totals over the chunks of a library."""

    def __init__(self) -> None:
        self.deals = 0
        self.categories = np.zeros(4, dtype=np.int64)
        self.by_trumps = np.zeros((27, 27), dtype=np.int64)  # [total trumps, total tricks]
        self.by_hcp = np.zeros((41, 14), dtype=np.int64)  # [side's HCP, its NT tricks]
        # Tricks - trumps under other definitions, counted from -26 (index 0) to +26: VARIANTS.
        self.variants = np.zeros((len(VARIANTS), 53), dtype=np.int64)
        self.tied = 0  # deals where a side has two longest suits of equal length

    def add(self, owners: NDArray[np.int8], tables: NDArray[np.uint8]) -> None:
        t = tables.astype(np.int64)
        n = len(owners)
        self.deals += n
        best = t.max(axis=2)  # (n, 5): the most tricks any declarer takes in each strain
        category = np.where(
            (best >= 13).any(axis=1), 3, np.where((best >= 12).any(axis=1), 2, (best >= GAME_TRICKS).any(axis=1) * 1)
        )
        self.categories += np.bincount(category, minlength=4)
        trumps = np.zeros(n, dtype=np.int64)
        tricks = np.zeros(n, dtype=np.int64)
        fewest = np.zeros(n, dtype=np.int64)  # total tricks when a tie of lengths goes to the worse suit
        ranking = np.zeros(n, dtype=np.int64)  # ... to the higher-ranking suit (S H D C: argmax takes the first)
        fits = np.ones(n, dtype=bool)  # both sides hold an 8-card suit
        ns_points = np.zeros(n, dtype=np.int64)
        tied = np.zeros(n, dtype=bool)
        for side in SIDES:
            held = np.isin(owners, side)  # (n, 52): the side holds the card
            lengths = held.reshape(n, 4, 13).sum(axis=2)  # (n, 4) combined length in S H D C
            side_tricks = t[:, :4, list(side)].max(axis=2)  # (n, 4) the side's tricks in each suit
            longest = lengths.max(axis=1, keepdims=True)
            # The trump suit: longest, then most tricks among the longest.
            score = np.where(lengths == longest, side_tricks, -1)
            suit = score.argmax(axis=1)
            trumps += longest[:, 0]
            tricks += side_tricks[np.arange(n), suit]
            fewest += np.where(lengths == longest, side_tricks, 99).min(axis=1)
            ranking += side_tricks[np.arange(n), lengths.argmax(axis=1)]
            fits &= longest[:, 0] >= 8
            tied |= (lengths == longest).sum(axis=1) > 1
            points = (held * HCP).sum(axis=1)
            if side == SIDES[0]:
                ns_points = points
            nt = t[:, 4, list(side)].max(axis=1)
            np.add.at(self.by_hcp, (points, nt), 1)
        np.add.at(self.by_trumps, (trumps, tricks), 1)
        self.tied += int(tied.sum())
        close = abs(ns_points - 20) <= 3  # a competitive deal: HCP 17-23 each way
        for i, (difference, where) in enumerate(
            (
                (tricks - trumps, slice(None)),
                (fewest - trumps, slice(None)),
                (ranking - trumps, slice(None)),
                (tricks - trumps, fits),
                (tricks - trumps, close),
                (tricks - trumps, fits & close),
            )
        ):
            self.variants[i] += np.bincount(difference[where] + 26, minlength=53)


def share(count: int, n: int) -> str:
    p = count / n
    return f"{100 * p:.2f}% ± {100 * math.sqrt(p * (1 - p) / n):.2f}"


def report(study: Study) -> str:
    n = study.deals
    lines = [
        f"{n} deals",
        "",
        "| highest makeable contract | deals | share ± standard error |",
        "| --- | ---: | ---: |",
    ]
    lines += [f"| {name} | {c} | {share(int(c), n)} |" for name, c in zip(CATEGORIES, study.categories, strict=True)]
    trumps_grid, tricks_grid = np.indices(study.by_trumps.shape)
    d = (tricks_grid - trumps_grid).ravel()  # tricks - trumps of each cell of the table
    k = study.by_trumps.ravel()
    mean = (k * d).sum() / n
    sd = math.sqrt((k * (d - mean) ** 2).sum() / (n - 1))
    lines += [
        "",
        f"Total tricks - total trumps: mean {mean:+.3f} ± {sd / math.sqrt(n):.3f}, standard deviation {sd:.3f}; "
        f"equal on {share(int(k[d == 0].sum()), n)} of deals, "
        f"within one trick on {share(int(k[abs(d) <= 1].sum()), n)}; "
        f"a side has two longest suits on {share(study.tied, n)} of deals",
        "",
        "| total trumps | deals | mean total tricks ± se | difference |",
        "| ---: | ---: | ---: | ---: |",
    ]
    tricks = np.arange(27)
    for trumps, row in enumerate(study.by_trumps):
        k = int(row.sum())
        if k < 5:
            continue
        mean = (row * tricks).sum() / k
        sd = math.sqrt(max(0.0, (row * (tricks - mean) ** 2).sum() / (k - 1)))
        lines.append(f"| {trumps} | {k} | {mean:.2f} ± {sd / math.sqrt(k):.2f} | {mean - trumps:+.2f} |")
    lines += [
        "",
        "| tricks - trumps over | deals | mean ± se | standard deviation | mean absolute difference ± se |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    values = np.arange(-26, 27)
    for name, row in zip(VARIANTS, study.variants, strict=True):
        k = int(row.sum())
        if k < 2:
            continue
        mean = (row * values).sum() / k
        sd = math.sqrt((row * (values - mean) ** 2).sum() / (k - 1))
        absolute = (row * abs(values)).sum() / k
        absolute_sd = math.sqrt((row * (abs(values) - absolute) ** 2).sum() / (k - 1))
        lines.append(
            f"| {name} | {k} | {mean:+.3f} ± {sd / math.sqrt(k):.3f} | {sd:.3f} "
            f"| {absolute:.3f} ± {absolute_sd / math.sqrt(k):.3f} |"
        )
    lines += ["", "| combined HCP | sides | mean NT tricks ± se |", "| ---: | ---: | ---: |"]
    nt = np.arange(14)
    for points, row in enumerate(study.by_hcp):
        k = int(row.sum())
        if k < 5:
            continue
        mean = (row * nt).sum() / k
        sd = math.sqrt(max(0.0, (row * (nt - mean) ** 2).sum() / (k - 1)))
        lines.append(f"| {points} | {k} | {mean:.2f} ± {sd / math.sqrt(k):.2f} |")
    return "\n".join(lines) + "\n"


def main(path: str) -> None:
    study = Study()
    for chunk in iter_library(path):
        study.add(chunk.owners, chunk.tables)
    print(report(study), end="")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1])
