"""Statistics over simulated deals: make probabilities, tricks, score/IMP differences, opening leads.

Tables are DDS's ``(n, 5, 4)`` ``[strain S H D C NT][declarer N E S W]``.
Contracts are written ``3NS`` (3NT by South), ``4SN`` (4 spades by North):
level 1-7, strain S H D C N (or NT), declarer N E S W.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ddsbind import _report_html
from ddsbind._typing import Progress
from ddsbind.dealer.dealing import DealerError, card_name
from ddsbind.errors import ContractError
from ddsbind.game import Seat, Vulnerability
from ddsbind.scoring import Contract, imps

if TYPE_CHECKING:
    from ddsbind.dealer.library import Library

__all__ = [
    "ContractReport",
    "ContractTally",
    "LeadTable",
    "contract_report",
    "contract_results",
    "lead_table",
    "results_report",
    "simulate",
    "tables_of_owners",
]


def tables_of_owners(
    owners: NDArray[np.int8], threads: int | None = None, progress: Progress | None = None
) -> NDArray[np.int8]:
    """DD tables ``(n, 5, 4)`` of owner rows ``(n, 52)`` through a :class:`ddsbind.SolverPool`.

    Each distinct deal is solved once (the pool's dedupe); ``progress`` gets the number of deals finished.
    """
    from ddsbind.deal import owners_to_masks
    from ddsbind.pool import SolverPool

    owners = np.asarray(owners, dtype=np.int8)
    if owners.shape[0] == 0:
        return np.empty((0, 5, 4), dtype=np.int8)
    with SolverPool(threads) as pool:
        return np.asarray(pool.dd_tables_array(owners_to_masks(owners), progress=progress), dtype=np.int8)


def contract_results(
    owners: NDArray[np.int8],
    contracts: Sequence[str | Contract],
    *,
    makes_only: bool = False,
    known: NDArray[np.int8] | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
) -> NDArray[np.int8]:
    """What a contract report needs of each deal, and nothing more: ``(n, len(contracts))`` int8.

    Parameters
    ----------
    owners : ndarray, shape (n, 52), int8
        Deals, DDS seats N=0 E=1 S=2 W=3.
    contracts : sequence of str or Contract
        ``"3NS"`` style.
    makes_only : bool
        False: each contract's exact declarer tricks, one search per deal
        for each distinct (strain, declarer) among ``contracts`` (about a
        fourteenth of a whole DD table each).  True: 1 where the contract
        makes, else 0, one target search per contract and deal (a
        twenty-fifth of a table or less): all a make probability needs.
    known : ndarray, shape (n, 5, 4), int8, optional
        Results already solved (:attr:`ddsbind.dealer.Run.known`, -1 where
        not): not solved again.
    threads : int or None
        Solver threads (None: one per core).
    progress : callable, optional
        Called with the number of deals finished since its last call (deals fully known are not counted).

    Returns
    -------
    ndarray, shape (n, len(contracts)), int8
        Tricks, or 1/0 made.
    """
    from ddsbind.deal import owners_to_masks
    from ddsbind.pool import SolverPool

    parsed = _contracts(contracts)
    owners = np.asarray(owners, dtype=np.int8).reshape(-1, 52)
    n = owners.shape[0]
    out = np.zeros((n, len(parsed)), dtype=np.int8)
    if n == 0:
        return out
    # One question per distinct (strain, declarer[, level]) among the contracts.
    keys = [(c.strain, _declarer(c), c.level + 6 if makes_only else -1) for c in parsed]
    distinct = sorted(set(keys))
    answers = np.zeros((n, len(distinct)), dtype=np.int8)
    todo = np.ones((n, len(distinct)), dtype=bool)
    if known is not None:
        known = np.asarray(known, dtype=np.int8).reshape(n, 5, 4)
        for q, (strain, declarer, need) in enumerate(distinct):
            have = known[:, strain, declarer] >= 0
            answers[have, q] = known[have, strain, declarer] if need < 0 else known[have, strain, declarer] >= need
            todo[:, q] = ~have
    # The deals missing any answer get all of them, their searches in a row (one pool call, progress per deal).
    rows = np.flatnonzero(todo.any(axis=1))
    if rows.size:
        with SolverPool(threads) as pool:
            answers[rows] = pool.answers(owners_to_masks(owners[rows]), distinct, progress=progress)
    for i, key in enumerate(keys):
        out[:, i] = answers[:, distinct.index(key)]
    return out


def _contracts(contracts: Sequence[str | Contract]) -> list[Contract]:
    parsed = [declared(c) for c in contracts]
    if not parsed:
        raise DealerError("no contract given")
    return parsed


def declared(contract: str | Contract) -> Contract:
    """``contract`` (:meth:`ddsbind.scoring.Contract.parse`), which a simulation needs with its declarer.

    Raises
    ------
    ContractError
        No contract, or one naming no declarer.
    """
    parsed = Contract.parse(contract)
    if parsed.declarer is None:
        raise ContractError(f"contract {str(contract)!r}: name its declarer, as in 3NS or 4SN")
    return parsed


def _declarer(contract: Contract) -> Seat:
    """The declarer of a contract :func:`declared` read."""
    if contract.declarer is None:  # pragma: no cover - declared() refuses such contracts
        raise ContractError(f"contract {contract}: name its declarer, as in 3NS or 4SN")
    return contract.declarer


def contract_name(contract: Contract) -> str:
    """A simulation's short spelling of a contract: level, strain, doubling, declarer (``3NTS``, ``4SXN``)."""
    return f"{contract.level}{contract.strain}{('', 'X', 'XX')[contract.doubled]}{contract.declarer}"


@dataclasses.dataclass
class ContractReport:
    """Per contract: deals, make probability and its standard error, mean tricks and their distribution, mean score.

    ``differences`` compares each later contract with the first: mean score
    difference and mean IMPs (later minus first, from the first declarer's
    side), each with a standard error.
    """

    contracts: list[Contract]
    deals: int
    make: list[float]
    make_se: list[float]
    mean_tricks: list[float]
    distribution: NDArray[np.int64]
    mean_score: list[float]
    differences: list[dict[str, float | str]]
    #: True when only make-or-fail was solved (target searches): tricks, scores and IMPs are unknown (NaN).
    makes_only: bool = False

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        if self.makes_only:
            rows: list[dict[str, object]] = [
                {"contract": contract_name(c), "make": self.make[i], "make_se": self.make_se[i]}
                for i, c in enumerate(self.contracts)
            ]
            return {"deals": self.deals, "contracts": rows, "differences": []}
        return {
            "deals": self.deals,
            "contracts": [
                {
                    "contract": contract_name(c),
                    "make": self.make[i],
                    "make_se": self.make_se[i],
                    "mean_tricks": self.mean_tricks[i],
                    "tricks": self.distribution[i].tolist(),
                    "mean_score": self.mean_score[i],
                }
                for i, c in enumerate(self.contracts)
            ],
            "differences": self.differences,
        }

    def render(self, how: str = "text") -> str:
        """The report as ``"text"`` (a table for people), ``"csv"`` or ``"json"``."""
        if how == "json":
            return json.dumps(self.as_dict(), indent=2) + "\n"
        if how == "csv" and self.makes_only:
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(["contract", "deals", "make", "make_se"])
            for i, c in enumerate(self.contracts):
                writer.writerow([contract_name(c), self.deals, f"{self.make[i]:.6f}", f"{self.make_se[i]:.6f}"])
            return buf.getvalue()
        if how == "csv":
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow(
                [
                    "contract",
                    "deals",
                    "make",
                    "make_se",
                    "mean_tricks",
                    "mean_score",
                    *[f"tricks_{t}" for t in range(14)],
                ]
            )
            for i, c in enumerate(self.contracts):
                writer.writerow(
                    [
                        contract_name(c),
                        self.deals,
                        f"{self.make[i]:.6f}",
                        f"{self.make_se[i]:.6f}",
                        f"{self.mean_tricks[i]:.4f}",
                        f"{self.mean_score[i]:.2f}",
                        *self.distribution[i].tolist(),
                    ]
                )
            return buf.getvalue()
        if self.makes_only:
            lines = [f"{self.deals} deals (make or fail only)", "contract   makes"]
            for i, c in enumerate(self.contracts):
                lines.append(f"{contract_name(c):<9}  {100 * self.make[i]:6.2f}% ± {100 * self.make_se[i]:4.2f}")
            return "\n".join(lines) + "\n"
        lines = [f"{self.deals} deals", "contract   makes           mean tricks  mean score"]
        for i, c in enumerate(self.contracts):
            lines.append(
                f"{contract_name(c):<9}  {100 * self.make[i]:6.2f}% ± {100 * self.make_se[i]:4.2f}  "
                f"{self.mean_tricks[i]:11.2f}  {self.mean_score[i]:10.1f}"
            )
        for d in self.differences:
            lines.append(
                f"{d['contract']} vs {d['against']}: {d['score']:+.1f} ± {d['score_se']:.1f} points, "
                f"{d['imps']:+.2f} ± {d['imps_se']:.2f} IMPs a deal"
            )
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        """The report in notebooks: a table of the contracts, then of the comparisons (:mod:`ddsbind._report_html`)."""
        return _report_html.contract_report(
            [str(c) for c in self.contracts],
            self.deals,
            self.make,
            self.make_se,
            self.mean_tricks,
            self.mean_score,
            self.differences,
            self.makes_only,
        )

    def plot(self, path: str) -> None:
        """Bar charts of the trick distributions, saved to ``path`` (needs matplotlib)."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ddsbind.formats.files import save_figure

        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.8 / max(1, len(self.contracts))
        for i, c in enumerate(self.contracts):
            share = self.distribution[i] / max(1, self.deals)
            ax.bar(
                np.arange(14) + i * width, share, width, label=f"{contract_name(c)} ({100 * self.make[i]:.1f}% make)"
            )
        ax.set_xlabel("tricks taken by declarer")
        ax.set_ylabel("share of deals")
        ax.set_xticks(np.arange(14))
        ax.legend()
        fig.tight_layout()
        save_figure(fig, path)
        plt.close(fig)


def _se(values: NDArray[np.float64]) -> float:
    n = values.size
    return float(values.std(ddof=1) / math.sqrt(n)) if n > 1 else float("nan")


def contract_report(
    tables: NDArray[np.int8], contracts: Sequence[str | Contract], vul: Vulnerability | str = "none"
) -> ContractReport:
    """Make probabilities and more of ``contracts`` over DD ``tables`` ``(n, 5, 4)`` ``[strain][declarer N E S W]``.

    Parameters
    ----------
    tables : ndarray, shape (n, 5, 4)
        DD tables of the deals (strains S H D C NT, declarers N E S W).
    contracts : sequence of str or Contract
        ``"3NS"`` style.
    vul : Vulnerability or str
        ``none``, ``ns``, ``ew`` or ``all``: for the scores.

    Returns
    -------
    ContractReport
        The make probability ``p`` has standard error ``sqrt(p (1 - p) / n)``.

    Examples
    --------
    >>> t = np.zeros((2, 5, 4), dtype=np.int8); t[:, 4, 2] = [9, 8]
    >>> contract_report(t, ["3NS"]).make
    [0.5]
    """
    parsed = _contracts(contracts)
    t = np.asarray(tables, dtype=np.int64).reshape(-1, 5, 4)
    return results_report(np.stack([t[:, c.strain, c.declarer] for c in parsed], axis=1), parsed, vul)


def results_report(
    results: NDArray[np.integer],
    contracts: Sequence[str | Contract],
    vul: Vulnerability | str = "none",
    *,
    makes_only: bool = False,
) -> ContractReport:
    """A :class:`ContractReport` from :func:`contract_results`: ``(n, len(contracts))`` tricks, or 1/0 made.

    With ``makes_only`` the report holds the make probabilities alone (tricks,
    scores and IMP differences are NaN and not printed).  The same as
    :class:`ContractTally` given ``results`` in one batch or in several.

    Examples
    --------
    >>> results_report(np.array([[1], [0], [1], [1]]), ["3NS"], makes_only=True).make
    [0.75]
    """
    tally = ContractTally(contracts, vul, makes_only=makes_only)
    tally.add(results)
    return tally.report()


class ContractTally:
    """A contract report built batch by batch in constant memory: counts of tricks, never the deals.

    Each later contract's tricks are counted jointly with the first's
    (``14 x 14`` counts), which is all the score and IMP differences need;
    two tallies of parts of the deals :meth:`merge` into the tally of all.

    Parameters
    ----------
    contracts : sequence of str or Contract
        ``"3NS"`` style.
    vul : Vulnerability or str
        A :class:`~ddsbind.Vulnerability` or its name (``none``, ``NS``, ``EW``, ``all``): for the scores.
    makes_only : bool
        The results added are 1/0 made, not tricks.
    """

    def __init__(
        self, contracts: Sequence[str | Contract], vul: Vulnerability | str = "none", *, makes_only: bool = False
    ) -> None:
        self.contracts = _contracts(contracts)
        self.vul = Vulnerability.parse(vul)
        self.makes_only = makes_only
        self.deals = 0
        #: ``[i, tricks of contract i, tricks of the first contract]``: deals.
        self.joint = np.zeros((len(self.contracts), 14, 14), dtype=np.int64)

    def add(self, results: NDArray[np.integer]) -> None:
        """Count ``(n, len(contracts))`` results of :func:`contract_results` (tricks, or 1/0 made)."""
        r = np.asarray(results, dtype=np.int64).reshape(-1, len(self.contracts))
        self.deals += r.shape[0]
        for i in range(len(self.contracts)):
            self.joint[i] += np.bincount(r[:, i] * 14 + r[:, 0], minlength=196)[:196].reshape(14, 14)

    def merge(self, other: ContractTally) -> ContractTally:
        """The tally of both tallies' deals (same contracts and vulnerability)."""
        out = ContractTally(self.contracts, self.vul, makes_only=self.makes_only)
        out.deals = self.deals + other.deals
        out.joint = self.joint + other.joint
        return out

    def report(self) -> ContractReport:
        """The :class:`ContractReport` of the deals counted."""
        parsed, n = self.contracts, self.deals
        dist = self.joint.sum(axis=2)  # (k, 14): deals by each contract's tricks
        tricks = np.arange(14)
        nan = float("nan")
        if self.makes_only:
            made_rate = [float(dist[i, 1]) / n if n else nan for i in range(len(parsed))]
            se = [math.sqrt(p * (1 - p) / n) if n else nan for p in made_rate]
            empty = np.zeros((len(parsed), 14), dtype=np.int64)
            return ContractReport(parsed, n, made_rate, se, [nan] * len(parsed), empty, [nan] * len(parsed), [], True)
        make, make_se, mean_tricks, mean_score = [], [], [], []
        scores = []
        for i, c in enumerate(parsed):
            made = int(dist[i, c.level + 6 :].sum())
            p = made / n if n else nan
            make.append(p)
            make_se.append(math.sqrt(p * (1 - p) / n) if n else nan)
            mean_tricks.append(float(dist[i] @ tricks) / n if n else nan)
            sc = c.scores(tricks, self.vul).astype(np.int64)
            scores.append(sc)
            mean_score.append(float(dist[i] @ sc) / n if n else nan)
        differences: list[dict[str, float | str]] = []
        base = parsed[0]
        for i, c in enumerate(parsed[1:], start=1):
            same_side = _declarer(c).side == _declarer(base).side
            # diff[a, b]: the score difference when contract i takes a tricks and the first b.
            diff = (scores[i] if same_side else -scores[i])[:, None] - scores[0][None, :]
            imp = imps(diff.ravel()).reshape(14, 14).astype(np.int64)
            mean_diff, se_diff = _mean_se(self.joint[i], diff, n)
            mean_imp, se_imp = _mean_se(self.joint[i], imp, n)
            differences.append(
                {
                    "contract": contract_name(c),
                    "against": contract_name(base),
                    "score": mean_diff,
                    "score_se": se_diff,
                    "imps": mean_imp,
                    "imps_se": se_imp,
                }
            )
        return ContractReport(parsed, n, make, make_se, mean_tricks, dist, mean_score, differences)


def _mean_se(counts: NDArray[np.int64], values: NDArray[np.int64], n: int) -> tuple[float, float]:
    """Mean and standard error (``ddof=1``) of ``values`` taken ``counts`` times each; NaN where undefined."""
    if not n:
        return float("nan"), float("nan")
    total = int((counts * values).sum())  # exact: Python ints
    mean = total / n
    if n < 2:
        return mean, float("nan")
    # Exact sums of squares about the mean, as a fraction over n: sum(c * (n v - total)^2) / n^2.
    squares = _squares(counts, values, n, total)
    return mean, math.sqrt(squares / (n * n) / (n - 1) / n)


def _squares(counts: NDArray[np.int64], values: NDArray[np.int64], n: int, total: int) -> int:
    """``sum(c * (n v - total)^2)`` in Python integers (no int64 overflow for large ``n``)."""
    return sum(int(c) * (n * int(v) - total) ** 2 for c, v in zip(counts.ravel(), values.ravel(), strict=True) if c)


@dataclasses.dataclass
class LeadTable:
    """Each opening lead's mean declarer tricks and set percentage, over the deals where the leader held it."""

    contract: Contract
    deals: int
    cards: list[str]
    held: list[int]
    mean_tricks: list[float]
    set_rate: list[float]

    def render(self, how: str = "text") -> str:
        """As ``"text"``, ``"csv"`` or ``"json"``; best lead (highest set rate) first."""
        order = sorted(range(len(self.cards)), key=lambda i: (-self.set_rate[i], self.mean_tricks[i]))
        rows = [
            {"lead": self.cards[i], "deals": self.held[i], "mean_tricks": self.mean_tricks[i], "set": self.set_rate[i]}
            for i in order
        ]
        if how == "json":
            return (
                json.dumps({"contract": contract_name(self.contract), "deals": self.deals, "leads": rows}, indent=2)
                + "\n"
            )
        if how == "csv":
            buf = io.StringIO()
            writer = csv.DictWriter(buf, ["lead", "deals", "mean_tricks", "set"], lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
            return buf.getvalue()
        lines = [
            f"Opening leads against {contract_name(self.contract)} ({self.deals} deals)",
            "lead  deals  declarer tricks  set",
        ]
        for i in order:
            lines.append(
                f"{self.cards[i]:<4}  {self.held[i]:5d}  {self.mean_tricks[i]:15.2f}  {100 * self.set_rate[i]:5.1f}%"
            )
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        """The table in notebooks, best lead first (:mod:`ddsbind._report_html`)."""
        return _report_html.lead_table(
            str(self.contract), self.deals, self.cards, self.held, self.mean_tricks, self.set_rate
        )


def lead_table(
    owners: NDArray[np.int8], contract: str | Contract, threads: int | None = None, progress: Progress | None = None
) -> LeadTable:
    """Score every opening lead against ``contract`` on each deal (``SolveBoard``, ``solutions=3``) and tabulate.

    One task a deal on a :class:`ddsbind.SolverPool`: DDS scores the
    leader's cards one after another in one call, on one transposition
    table.  Measured (``benchmarks/bench_question.py --leads``, one thread,
    CPU time): as fast as one search per run of touching cards, 1.2x
    faster than one search per card in a row, 2.6x faster than the same
    searches spread across deals (the table reset every search).

    Parameters
    ----------
    owners : ndarray, shape (n, 52), int8
        Deals, DDS seats N=0 E=1 S=2 W=3.
    contract : str or Contract
        ``"3NS"`` style; the leader is the seat after the declarer.

    Returns
    -------
    LeadTable
        Per card the leader held: deals, mean declarer tricks after that
        lead, and the share of those deals the contract is set.
    """
    from ddsbind.deal import Deal
    from ddsbind.pool import SolverPool

    c = declared(contract)
    leader = _declarer(c).lho
    deals = np.asarray(owners, dtype=np.int8)
    boards = [(Deal.from_owners(row), c.strain, leader) for row in deals]
    tricks = np.zeros(52)
    sets = np.zeros(52)
    held = np.zeros(52, dtype=np.int64)
    with SolverPool(threads) as pool:
        chunk = 256
        for start in range(0, len(boards), chunk):
            results = pool.solve_boards(boards[start : start + chunk], solutions=3)
            for solutions in results:
                for scored in solutions:
                    declarer_tricks = 13 - scored.score
                    for card in {scored.card, *scored.equals}:
                        index = card.index
                        held[index] += 1
                        tricks[index] += declarer_tricks
                        sets[index] += declarer_tricks < c.level + 6
            if progress is not None:
                progress(len(results))
    cards = np.flatnonzero(held)
    return LeadTable(
        c,
        len(boards),
        [card_name(int(i)) for i in cards],
        [int(held[i]) for i in cards],
        [float(tricks[i] / held[i]) for i in cards],
        [float(sets[i] / held[i]) for i in cards],
    )


def simulate(
    script: str,
    contracts: Sequence[str | Contract],
    seed: int | None = None,
    *,
    vul: Vulnerability | str = "none",
    threads: int | None = None,
    progress: Progress | None = None,
    makes_only: bool = False,
    library: str | os.PathLike[str] | Library | None = None,
) -> ContractReport:
    """Run a dealer ``script`` (its text), solve what the report needs of the produced deals, report on ``contracts``.

    The question a simulation answers: "North opens 1NT, South holds this
    hand: how often do 3NT and 4S make?"

    Parameters
    ----------
    script : str
        Dealer's language; its ``produce`` (default: every accepted deal of
        ``generate``) sets the sample size.
    contracts : sequence of str or Contract
        ``"3NS"`` style (level, strain, declarer N E S W).
    seed : int, optional
        ``0 .. 2**128 - 1``; the deals depend on it alone.  Needed unless
        ``library`` gives the deals.
    vul : Vulnerability or str
        ``none``, ``ns``, ``ew`` or ``all``.
    threads : int or None
        Dealing and solving threads (``None``: one per core).
    progress : callable, optional
        Called with the number of deals solved since its last call (with
        ``library``: records read).
    makes_only : bool
        Only the make probabilities: one target search per contract and
        deal.  Otherwise one search per deal for each distinct (strain,
        declarer), giving tricks, scores and IMPs too (never whole tables;
        results the script's ``tricks()`` already solved are reused).
    library : path or Library, optional
        Library mode: the deals are this solved database's records (``.zrd``,
        or ``.zbd`` with its ``.zdd``) in file order, each once, and their
        tables are the stored ones: no solver is started, nothing is solved.
        A :class:`~ddsbind.dealer.library.Library` selects a stretch
        (``start``, ``count``).

    Returns
    -------
    ContractReport

    Raises
    ------
    DealerError
        No ``seed`` and no ``library``; a bad script or contract.
    FormatError
        A damaged library (its one line names the file, record and byte offset).

    Examples
    --------
    >>> simulate("condition hcp(north) + hcp(south) >= 25", ["3NS"], library="rpdd.zrd")  # doctest: +SKIP
    """
    from ddsbind.dealer.language import parse
    from ddsbind.dealer.run import run

    wanted = _contracts(contracts)  # a bad contract is refused before any dealing
    parsed = parse(script)
    parsed.actions = [a for a in parsed.actions if not a.kind.startswith("print")]
    if library is not None:
        result = run(
            parsed, 0 if seed is None else seed, threads=threads, keep=True, library=library, progress=progress
        )
        assert result.tables is not None
        return contract_report(result.tables, contracts, vul)
    if seed is None:
        raise DealerError("simulate needs a seed to deal (or a library to read)")
    result = run(parsed, seed, threads=threads, keep=True)
    assert result.deals is not None
    results = contract_results(
        result.deals, wanted, makes_only=makes_only, known=result.known, threads=threads, progress=progress
    )
    return results_report(results, wanted, vul, makes_only=makes_only)
