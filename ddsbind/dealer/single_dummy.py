"""Single dummy: which card to play from what a player sees, with honest error bars.

:func:`single_dummy` takes a *view* (the hands a player sees, the others
hidden), the contract and the cards played so far, and answers for each
legal card of the hand to play: how often the contract makes after it, how
many tricks declarer's side takes in all, and how far each card is behind
the best, each with a confidence interval.

The layouts of the hidden cards are dealt by the dealer's compiled kernel
(:mod:`ddsbind.dealer.kernel`, every completion of a predeal equally
likely), the known hands and the cards the hidden hands played being
predealt; a layout a shown-out suit or the ``condition`` rules out is dealt
again (rejection keeps the draw uniform).  When a hidden hand is the only
one left that can hold a suit's missing cards they are predealt to it
(every consistent layout has them there, so nothing changes but speed).
When the consistent layouts are few they are enumerated instead, and the
answer is exact.

Each layout is solved by DDS on a :class:`ddsbind.SolverPool`, the cheapest
way for what is asked (the question planner's rule: a threshold is a target
search, exact tricks a full one, nothing solved twice): the make
probabilities alone take one ``SolveBoard`` a layout with DDS's target
mode (``target`` the tricks the side to play needs, ``solutions=2``: every
card that reaches it), the mean tricks one with ``solutions=3`` (every
card's score), which gives the make probabilities as well.  Measured (30
layouts of ``benchmarks/bench_single_dummy.py``'s opening lead, one
thread, CPU time, a busy machine): the target search 21 ms a layout
against 23 ms for one target search a group of equal cards, each played
to the trick first (same answers); ``solutions=3`` 123 ms against 156 ms
for one full search a group.

Conventions: seats N E S W (:class:`~ddsbind.deal.Seat`), cards as
``str(Card)`` gives them (``"SA"``, ``"HT"``); tricks are declarer's side's
tricks in the whole deal, those already won included.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import secrets
import statistics
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind import _report_html
from ddsbind._typing import Progress
from ddsbind.deal import Card, owners_to_masks
from ddsbind.dealer.dealing import DealerError, check_seed
from ddsbind.dealer.language import Script, parse
from ddsbind.dealer.layouts import Layouts, Problem, accepted, enumerate_layouts, read_problem, with_predeal
from ddsbind.errors import MissingExtraError
from ddsbind.scoring import Contract

__all__ = [
    "AUTO_MAX",
    "AUTO_STEP",
    "EXACT_LIMIT",
    "CardResult",
    "SingleDummy",
    "single_dummy",
]

#: ``exact=True`` enumerates at most this many layouts (before the condition); more is refused.
EXACT_LIMIT = 200_000
#: ``samples="auto"``: the most layouts dealt before stopping, separated or not.
AUTO_MAX = 5_000
#: ``samples="auto"``: layouts solved between two looks at whether the best card is separated.
AUTO_STEP = 250
#: Layouts handed to the pool at a time (progress is reported between chunks).
CHUNK = 256
#: Layouts dealt before giving up, by default, when the play and condition accept too few.
TRIES = 10_000_000


# -- solving ---------------------------------------------------------------------------------


def _boards(problem: Problem, owners: NDArray[np.int8]) -> list[tuple[Any, ...]]:
    """The position of each layout: cards still held, trump, leader of the trick in progress, its cards."""
    rows = owners.copy()
    rows[:, [c.index for c in (*problem.gone, *problem.trick)]] = -1
    masks = owners_to_masks(rows)
    strain, trick = problem.contract.strain, list(problem.trick)
    return [(m, strain, problem.leader, trick) for m in masks]


def _target(problem: Problem) -> int:
    """Tricks the side to play needs from here for its goal (declarer: make; defence: set)."""
    need = problem.contract.trick_target - problem.won
    return need if problem.declaring else problem.left - need + 1


def solve_makes(problem: Problem, owners: NDArray[np.int8], pool: Any, progress: Progress | None) -> NDArray[np.bool_]:
    """``(n, legal)`` whether the contract makes after each legal card: one target search a layout."""
    legal = problem.legal
    target = _target(problem)
    if target <= 0 or target > problem.left:  # the goal is certain either way: nothing to search
        reached = target <= 0
        return np.full((len(owners), len(legal)), reached == problem.declaring, dtype=bool)
    column = {card: k for k, card in enumerate(legal)}
    out = np.zeros((len(owners), len(legal)), dtype=bool)
    for start in range(0, len(owners), CHUNK):
        chunk = owners[start : start + CHUNK]
        for row, solutions in enumerate(pool.solve_boards(_boards(problem, chunk), target=target, solutions=2)):
            if solutions.best_score >= target:
                for scored in solutions:
                    for card in scored.cards:
                        out[start + row, column[card]] = True
        if progress is not None:
            progress(len(chunk))
    out = _spread(problem, out)
    return out if problem.declaring else ~out


def solve_tricks(problem: Problem, owners: NDArray[np.int8], pool: Any, progress: Progress | None) -> NDArray[np.int8]:
    """``(n, legal)`` declarer's side's tricks in all after each legal card: one full search a layout."""
    legal = problem.legal
    column = {card: k for k, card in enumerate(legal)}
    out = np.full((len(owners), len(legal)), -1, dtype=np.int8)
    for start in range(0, len(owners), CHUNK):
        chunk = owners[start : start + CHUNK]
        for row, solutions in enumerate(pool.solve_boards(_boards(problem, chunk), solutions=3)):
            for scored in solutions:
                for card in scored.cards:
                    out[start + row, column[card]] = scored.score
        if progress is not None:
            progress(len(chunk))
    out = _spread(problem, out)
    own = out if problem.declaring else problem.left - out
    return (problem.won + own).astype(np.int8)


def _spread(problem: Problem, values: NDArray[Any]) -> NDArray[Any]:
    """Each group's value given to all its cards (DDS may name only one card of a group): the largest found."""
    legal = problem.legal
    column = {card: k for k, card in enumerate(legal)}
    for group in problem.groups:
        cols = [column[c] for c in group]
        if len(cols) > 1:
            values[:, cols] = values[:, cols].max(axis=1, keepdims=True)
    return values


# -- statistics ------------------------------------------------------------------------------


def _z(confidence: float) -> float:
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2)


def wilson(hits: int, n: int, z: float) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``hits / n`` at the normal quantile ``z``."""
    if n == 0:
        return (math.nan, math.nan)
    p = hits / n
    scale = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: NDArray[Any], z: float) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` and its normal interval ``mean +- z * sd / sqrt(n)`` (``sd`` with ``ddof=1``)."""
    n = len(values)
    if n == 0:
        return math.nan, (math.nan, math.nan)
    mean = float(values.mean())
    if n < 2:
        return mean, (math.nan, math.nan)
    half = z * float(values.std(ddof=1)) / math.sqrt(n)
    return mean, (mean - half, mean + half)


@dataclasses.dataclass(frozen=True)
class CardResult:
    """One legal card of the hand to play and what it achieves over the layouts.

    Tricks are declarer's side's in the whole deal (those already won
    included); ``makes`` is the share of layouts the contract makes after
    this card.  Each ``*_ci`` is a ``(low, high)`` interval at the result's
    confidence (the value itself, twice, when the layouts were enumerated).
    Mean tricks and ``vs_best`` are solved on first use when the call did
    not ask for ``tricks=True``.
    """

    result: SingleDummy = dataclasses.field(repr=False, compare=False)
    #: The card, as ``str(Card)`` writes it (``"SA"``).
    card: str
    #: The other legal cards equal to it in this position (touching, as DDS groups them).
    equals: tuple[str, ...]
    #: Share of the layouts where the contract makes after this card.
    makes: float
    makes_ci: tuple[float, float]
    #: This card's ``makes`` less that of the best card for the side to play by the make odds (the highest for
    #: declarer's side, the lowest for the defence), on the same layouts: zero for the best card, negative for
    #: declarer's worse cards, positive for the defence's.
    makes_vs_best: float = 0.0
    #: The interval of :attr:`makes_vs_best` (the paired differences' mean, layout by layout).
    makes_vs_best_ci: tuple[float, float] = (0.0, 0.0)

    @property
    def _column(self) -> int:
        return self.result.problem.legal.index(Card.parse(self.card))

    @property
    def mean_tricks(self) -> float:
        """Declarer's side's mean tricks in all after this card."""
        return self.result._trick_stats()[self._column][0]

    @property
    def mean_tricks_ci(self) -> tuple[float, float]:
        """The interval of :attr:`mean_tricks`."""
        return self.result._trick_stats()[self._column][1]

    @property
    def vs_best(self) -> float:
        """Mean tricks of this card less those of the best card for the side to play, on the same layouts.

        Zero for the best card, negative for declarer's worse cards, positive for the defence's.
        """
        return self.result._trick_stats()[self._column][2]

    @property
    def vs_best_ci(self) -> tuple[float, float]:
        """The interval of :attr:`vs_best` (the paired differences' mean, layout by layout)."""
        return self.result._trick_stats()[self._column][3]


class SingleDummy:
    """What :func:`single_dummy` found: one :class:`CardResult` per legal card, and how it was found.

    Attributes
    ----------
    cards : list of CardResult
        One per legal card of the hand to play, spades first, high cards first.
    exact : bool
        True when every consistent layout was solved (the values are exact, each interval the value twice).
    samples : int
        Layouts solved: the number of consistent layouts when ``exact``.
    seed : int or None
        The dealing seed (None when enumerated): the same seed gives the same layouts and answers.
    confidence : float
        The intervals' confidence level.
    problem : Problem
        The view, contract and play as read.
    owners : ndarray, shape (samples, 52), int8
        Each layout as an owner row (DDS seat per card SA..C2).
    """

    def __init__(
        self,
        problem: Problem,
        owners: NDArray[np.int8],
        made: NDArray[np.bool_],
        tricks: NDArray[np.int8] | None,
        *,
        exact: bool,
        seed: int | None,
        confidence: float,
        threads: int | None,
    ) -> None:
        self.problem = problem
        self.owners = owners
        self.made = made
        self._tricks = tricks
        self.exact = exact
        self.seed = seed
        self.confidence = confidence
        self.threads = threads
        self.samples = len(owners)
        z = _z(confidence)
        legal = problem.legal
        group_of = {c: g for g in problem.groups for c in g}
        flags = made.astype(np.float64)
        best = self.best_column(flags.mean(axis=0))
        self.cards = []
        for k, card in enumerate(legal):
            hits = int(made[:, k].sum())
            p = hits / self.samples
            ci = (p, p) if exact else wilson(hits, self.samples, z)
            equals = tuple(str(c) for c in group_of[card] if c != card)
            diff, dci = mean_interval(flags[:, k] - flags[:, best], z)
            if exact or k == best or not (flags[:, k] != flags[:, best]).any():
                dci = (diff, diff)  # no spread: the same on every layout, or every layout solved
            self.cards.append(CardResult(self, str(card), equals, p, ci, diff, dci))

    # -- the tricks: solved on first use ---------------------------------------------------------

    @property
    def tricks(self) -> NDArray[np.int8]:
        """``(samples, legal cards)`` declarer's side's tricks in all after each card, solved on first use."""
        if self._tricks is None:
            from ddsbind.pool import SolverPool

            with SolverPool(self.threads) as pool:
                self._tricks = solve_tricks(self.problem, self.owners, pool, None)
        return self._tricks

    @functools.cache  # noqa: B019 - one result, its statistics computed once
    def _trick_stats(self) -> list[tuple[float, tuple[float, float], float, tuple[float, float]]]:
        tricks = self.tricks.astype(np.float64)
        z = _z(self.confidence)
        best = self.best_column(tricks.mean(axis=0))
        out = []
        for k in range(tricks.shape[1]):
            mean, ci = mean_interval(tricks[:, k], z)
            diff, dci = mean_interval(tricks[:, k] - tricks[:, best], z)
            if self.exact:
                ci, dci = (mean, mean), (diff, diff)
            if k == best:
                dci = (0.0, 0.0)
            out.append((mean, ci, diff, dci))
        return out

    def best_column(self, mean_tricks: NDArray[np.float64]) -> int:
        """The best card's column for the side to play, by a value per card where more is better for declarer
        (mean tricks, make odds): the highest for declarer, the lowest for the defence."""
        return int(np.argmax(mean_tricks) if self.problem.declaring else np.argmin(mean_tricks))

    @property
    def best(self) -> CardResult:
        """The card the side to play does best with: the highest make odds for declarer's side (lowest for the
        defence), ties broken by mean tricks when they are known."""
        sign = 1 if self.problem.declaring else -1
        tie = self._tricks.mean(axis=0) if self._tricks is not None else np.zeros(len(self.cards))
        return max(zip(self.cards, tie, strict=True), key=lambda item: (sign * item[0].makes, sign * item[1]))[0]

    @functools.cached_property
    def deals(self) -> list[str]:
        """Each layout as the full 52-card deal, a PBN string North first."""
        from ddsbind.formats.dataframe import deal_strings

        return [s.decode() if isinstance(s, bytes) else str(s) for s in deal_strings(self.owners)]

    # -- output ------------------------------------------------------------------------------------

    def _rows(self, with_tricks: bool) -> list[dict[str, Any]]:
        rows = []
        for c in self.cards:
            row: dict[str, Any] = {"card": c.card, "equals": list(c.equals), "makes": c.makes, "makes_ci": c.makes_ci}
            if with_tricks:
                row |= {
                    "mean_tricks": c.mean_tricks,
                    "mean_tricks_ci": c.mean_tricks_ci,
                    "vs_best": c.vs_best,
                    "vs_best_ci": c.vs_best_ci,
                }
            rows.append(row)
        return rows

    def as_dict(self) -> dict[str, Any]:
        """The result as plain values (what ``--json`` prints); mean tricks only when they were solved."""
        p = self.problem
        return {
            "contract": str(p.contract),
            "view": p.view,
            "played": [str(c) for c in p.played],
            "to_play": p.to_play.name,
            "exact": self.exact,
            "samples": self.samples,
            "seed": self.seed,
            "confidence": self.confidence,
            "cards": self._rows(self._tricks is not None),
        }

    def to_json(self) -> str:
        """:meth:`as_dict` as a JSON document (NaN written as null)."""
        return json.dumps(_no_nan(self.as_dict()), indent=2) + "\n"

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row a legal card: every statistic and its interval (mean tricks solved if needed).

        Raises
        ------
        MissingExtraError
            pandas is not installed (the ``pandas`` extra).
        """
        try:
            import pandas
        except ImportError:
            raise MissingExtraError("to_frame needs pandas: pip install 'ddsbind[pandas]'") from None
        rows = []
        for c in self.cards:
            rows.append(
                {
                    "card": c.card,
                    "equals": " ".join(c.equals),
                    "makes": c.makes,
                    "makes_low": c.makes_ci[0],
                    "makes_high": c.makes_ci[1],
                    "mean_tricks": c.mean_tricks,
                    "mean_tricks_low": c.mean_tricks_ci[0],
                    "mean_tricks_high": c.mean_tricks_ci[1],
                    "vs_best": c.vs_best,
                    "vs_best_low": c.vs_best_ci[0],
                    "vs_best_high": c.vs_best_ci[1],
                }
            )
        return pandas.DataFrame(rows).set_index("card")

    def caption(self) -> str:
        """One line: the contract, the hand to play and how the answer was found."""
        p = self.problem
        how = f"all {self.samples} layouts (exact)" if self.exact else f"{self.samples} layouts, seed {self.seed}"
        after = f" after {' '.join(str(c) for c in p.played)}" if p.played else ""
        return f"{p.contract}: {p.to_play.name} to play{after}; {how}"

    def render(self) -> str:
        """A text table, one line a card: makes (and mean tricks, when solved) with their intervals."""
        level = f"{100 * self.confidence:g}%"
        with_tricks = self._tricks is not None
        head = f"card  equals      makes   {level} interval"
        if with_tricks:
            head += f"      tricks  {level} interval    vs best  {level} interval"
        lines = [self.caption(), head]
        for c in self.cards:
            line = f"{c.card:<4}  {' '.join(c.equals):<8}  {100 * c.makes:6.1f}%  {_pair(c.makes_ci, 100, 1)}"
            if with_tricks:
                line += f"  {c.mean_tricks:6.2f}  {_pair(c.mean_tricks_ci, 1, 2)}  {c.vs_best:+7.2f}  "
                line += _pair(c.vs_best_ci, 1, 2)
            lines.append(line)
        return "\n".join(lines) + "\n"

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"<SingleDummy {self.caption()}>"

    def _repr_html_(self) -> str:
        """The cards as an HTML table in notebooks, with bars for the make odds and their intervals."""
        with_tricks = self._tricks is not None
        rows = []
        for c in self.cards:
            row = {"card": c.card, "equals": list(c.equals), "makes": c.makes, "makes_ci": c.makes_ci}
            if with_tricks:
                row |= {"mean_tricks": c.mean_tricks, "mean_tricks_ci": c.mean_tricks_ci}
                row |= {"vs_best": c.vs_best, "vs_best_ci": c.vs_best_ci}
            rows.append(row)
        return _report_html.single_dummy(self.caption(), rows, self.confidence)


def _pair(ci: tuple[float, float], scale: float, digits: int) -> str:
    low, high = ci
    return f"[{scale * low:.{digits}f}, {scale * high:.{digits}f}]".rjust(15)


def _no_nan(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _no_nan(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(v) for v in value]
    return value


# -- the call ----------------------------------------------------------------------------------


def single_dummy(
    view: str,
    *,
    contract: str | Contract,
    played: str | Iterable[Card | str] = (),
    condition: str | Script | None = None,
    samples: int | str = 1000,
    seed: int | None = None,
    threads: int | None = None,
    exact: bool | None = None,
    tricks: bool = False,
    confidence: float = 0.95,
    tries: int = TRIES,
    progress: Progress | None = None,
) -> SingleDummy:
    """Single-dummy analysis: each legal card of the hand to play, over the layouts of the hidden cards.

    Every layout is drawn **uniformly among all layouts of the hidden cards
    consistent with the view, the play and the condition**: the known
    hands and the cards the hidden hands played are theirs, a hand that
    showed out of a suit holds none of its missing cards, and the
    ``condition`` holds; each such layout is equally likely (the dealer's
    kernel deals every completion of the predeal equally likely, and a
    layout that breaks a shown-out suit or the condition is dealt again).

    Parameters
    ----------
    view : str
        A PBN deal string, hidden hands ``-``: ``"W:KQ32.A43.KJ32.43 - - -"``
        (the opening leader's view), or dummy and declarer after the lead.
        A hand shown holds its 13 cards, those it played included.
    contract : str or Contract
        With its declarer: ``"3NTS"``, ``"4HXE"`` (:meth:`ddsbind.Contract.parse`).
    played : str or cards
        The cards played so far, in order from the opening lead (``"SK S2 SA"``,
        commas or spaces).  A card a hidden hand played was its own.
    condition : str or Script, optional
        A dealer-language expression over the deal (what the auction said:
        ``"hcp(north) >= 15 && spades(south) >= 5"``), or a parsed dealer
        script, whose condition and predeal are used.
    samples : int or "auto"
        Layouts to deal.  ``"auto"``: :data:`AUTO_STEP` at a time until the
        best card is separated from the second at ``confidence`` (by the
        make odds; by mean tricks with ``tricks=True``; paired, layout by
        layout; a card that did as well as the best on every layout is
        tied with it, not second), at most :data:`AUTO_MAX`.
    seed : int, optional
        ``0 .. 2**128 - 1``; None draws one (kept in ``result.seed``).  The
        same seed gives the same layouts and answers at any thread count.
    threads : int or None
        Solver threads (None: one per core).
    exact : bool or None
        None: enumerate every consistent layout when there are at most
        ``samples`` of them (:data:`AUTO_MAX` for ``"auto"``), counted
        before shown-out suits and the condition; sample otherwise.
        False: always sample.  True: always enumerate, refused past
        :data:`EXACT_LIMIT` layouts.
    tricks : bool
        Solve every card's tricks now (one full search a layout, which
        gives the make odds too); otherwise the make odds alone are solved
        (one target search a layout) and mean tricks on first use.
    confidence : float
        The intervals' level, between 0 and 1.
    tries : int
        Layouts dealt at most when sampling; none accepted raises, fewer
        than ``samples`` warns.
    progress : callable, optional
        Called with the number of layouts solved since its last call.

    Returns
    -------
    SingleDummy
        ``result.cards``: one :class:`CardResult` per legal card.

    Raises
    ------
    DealerError
        A bad view, contract, play or condition (naming the card and its
        place in the play), ``exact=True`` past :data:`EXACT_LIMIT`, or no
        layout fits the play and the condition in ``tries`` deals.

    Examples
    --------
    >>> r = single_dummy("W:KQ32.A43.KJ32.43 - - -", contract="3NTS", samples=200, seed=1)  # doctest: +SKIP
    >>> r.best.card, r.best.equals, r.best.makes, r.best.makes_ci  # doctest: +SKIP
    ('SK', ('SQ',), 0.12, (0.0819..., 0.1723...))
    """
    if not isinstance(samples, int | np.integer) or isinstance(samples, bool):
        if samples != "auto":
            raise DealerError(f"samples must be a whole number >= 1 or 'auto', got {samples!r}")
    elif samples < 1:
        raise DealerError(f"samples must be a whole number >= 1 or 'auto', got {samples!r}")
    if not 0 < confidence < 1:
        raise DealerError(f"confidence must be between 0 and 1, got {confidence!r}")
    if isinstance(tries, bool) or not isinstance(tries, int | np.integer) or tries < 1:
        raise DealerError(f"tries must be a whole number >= 1, got {tries!r}")
    if exact not in (None, True, False):
        raise DealerError(f"exact must be None, True or False, got {exact!r}")
    problem = read_problem(view, contract, played)
    script = parse(condition, "condition") if isinstance(condition, str) else condition
    if script is not None:
        problem = with_predeal(problem, script)
    wanted = AUTO_MAX if samples == "auto" else int(samples)
    count = problem.layouts()
    if exact is True and count > EXACT_LIMIT:
        raise DealerError(
            f"exact=True: {count:,} layouts of the hidden cards, more than the {EXACT_LIMIT:,} enumerated at most "
            "(sample them: exact=False)"
        )
    enumerate_all = exact is True or (exact is None and count <= wanted)
    from ddsbind.dealer.run import QuestionSolver
    from ddsbind.pool import SolverPool

    with SolverPool(threads) as pool:
        solver = QuestionSolver(pool)
        if enumerate_all:
            owners = enumerate_layouts(problem)
            owners = owners[accepted(problem, script, owners, solver)]
            if not len(owners):
                raise DealerError("no layout of the hidden cards fits the play and the condition")
            made, scored = _solve(problem, owners, pool, tricks, progress)
            return SingleDummy(
                problem, owners, made, scored, exact=True, seed=None, confidence=confidence, threads=threads
            )
        seed = check_seed(secrets.randbits(64) if seed is None else seed)
        layouts = Layouts(problem, script, seed, tries, solver)
        step = AUTO_STEP if samples == "auto" else wanted
        parts: list[tuple[NDArray[np.int8], NDArray[np.bool_], NDArray[np.int8] | None]] = []
        total = 0
        while total < wanted:
            owners = layouts.take(min(step, wanted - total))
            if not len(owners):
                break
            parts.append((owners, *_solve(problem, owners, pool, tricks, progress)))
            total += len(owners)
            if samples == "auto" and _separated(problem, parts, tricks, _z(confidence)):
                break
        if total == 0:
            raise DealerError(
                f"no layout of the hidden cards fits the play and the condition in {layouts.dealt:,} deals dealt"
            )
        if total < wanted and samples != "auto":
            warnings.warn(
                f"only {total} of {wanted} layouts fit the play and the condition in {layouts.dealt:,} deals dealt",
                stacklevel=2,
            )
        owners = np.concatenate([p[0] for p in parts])
        made = np.concatenate([p[1] for p in parts])
        scored = np.concatenate([p[2] for p in parts if p[2] is not None]) if tricks else None
        return SingleDummy(
            problem, owners, made, scored, exact=False, seed=seed, confidence=confidence, threads=threads
        )


def _solve(
    problem: Problem, owners: NDArray[np.int8], pool: Any, tricks: bool, progress: Progress | None
) -> tuple[NDArray[np.bool_], NDArray[np.int8] | None]:
    """The make flags (and with ``tricks``, the tricks) of each legal card on ``owners``: the cheapest call."""
    if tricks:
        scored = solve_tricks(problem, owners, pool, progress)
        return scored >= problem.contract.trick_target, scored
    return solve_makes(problem, owners, pool, progress), None


def _separated(
    problem: Problem,
    parts: list[tuple[NDArray[np.int8], NDArray[np.bool_], NDArray[np.int8] | None]],
    tricks: bool,
    z: float,
) -> bool:
    """True when the best card beats the second, paired layout by layout, at the normal quantile ``z``.

    Cards that did exactly as well as the best on every layout so far are tied with it, not the second.
    """
    values = np.concatenate([p[2] if tricks else p[1] for p in parts]).astype(np.float64)
    legal = problem.legal
    sign = 1.0 if problem.declaring else -1.0
    columns = sign * values[:, [legal.index(g[0]) for g in problem.groups]]
    best = int(np.argmax(columns.mean(axis=0)))
    others = [k for k in range(columns.shape[1]) if (columns[:, k] != columns[:, best]).any()]
    if not others:
        return True
    second = max(others, key=lambda k: columns[:, k].mean())
    diff = columns[:, best] - columns[:, second]
    mean, (low, _) = mean_interval(diff, z)
    return mean > 0 and (low > 0 or float(diff.std()) == 0.0)
