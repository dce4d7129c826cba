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
card's score), which gives the make probabilities as well.

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
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind import _report_html
from ddsbind._typing import Progress
from ddsbind.deal import SUITS, Card, Seat, owners_to_masks, pbn_to_masks
from ddsbind.dealer.dealing import BATCH, DealerError, Predeal, check_seed, deal_batch
from ddsbind.dealer.language import Frame, Script, parse
from ddsbind.errors import DDSError, MissingExtraError
from ddsbind.game import parse_cards, trick_winner
from ddsbind.hands import Hands
from ddsbind.scoring import Contract

__all__ = [
    "AUTO_MAX",
    "AUTO_STEP",
    "EXACT_LIMIT",
    "CardResult",
    "Problem",
    "SingleDummy",
    "read_problem",
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


@dataclasses.dataclass(frozen=True)
class Problem:
    """A view, a contract and a play, read and checked once: what every layout shares.

    ``base`` is the predeal of every layout (``(52,)`` int8 owner per card,
    DDS seats N=0 E=1 S=2 W=3, -1 for a card dealt at random): the known
    hands, the cards the hidden hands played, and any card forced on the
    one hidden hand that can hold it.  ``void`` lists ``(seat, suit)`` pairs
    a hidden hand showed out of (suits 0..3 S H D C).
    """

    contract: Contract
    view: str
    hidden: tuple[Seat, ...]
    base: NDArray[np.int8]
    void: tuple[tuple[int, int], ...]
    played: tuple[Card, ...]
    #: Cards of the tricks already completed (gone from the hands).
    gone: tuple[Card, ...]
    #: Cards on the trick in progress, in play order from :attr:`leader`.
    trick: tuple[Card, ...]
    leader: Seat
    to_play: Seat
    #: Tricks declarer's side has won so far.
    won: int
    #: The legal cards of the hand to play (spades first, high first), in groups of equal cards.
    groups: tuple[tuple[Card, ...], ...]

    @property
    def legal(self) -> list[Card]:
        """Every legal card of the hand to play, spades first, high cards first."""
        return sorted((c for g in self.groups for c in g), key=lambda c: c.index)

    @property
    def left(self) -> int:
        """Tricks still to be played, the one in progress included."""
        return 13 - len(self.gone) // 4

    @property
    def declaring(self) -> bool:
        """True when the hand to play is on declarer's side."""
        return self.to_play.side == self.contract.declarer.side  # type: ignore[union-attr]

    def layouts(self) -> int:
        """How many layouts of the hidden cards the predeal leaves (before shown-out suits and the condition)."""
        rooms = _rooms(self.base, self.hidden)
        total, count = 0, 1
        for room in rooms:
            total += room
            count *= math.comb(total, room)
        return count


def read_problem(view: str, contract: str | Contract, played: str | Iterable[Card | str] = ()) -> Problem:
    """Read and check a view, a contract and the play so far (see :func:`single_dummy`).

    Raises
    ------
    DealerError
        A card in two hands, a known hand of other than 13 cards, a card
        played twice or by a hand that does not hold it, a revoke, a
        contract naming no declarer, a hidden hand to play: naming the card
        and its place in the play (counted from 1).
    PBNError
        A view that is no PBN deal string.
    """
    try:
        c = Contract.parse(contract).declared()
    except DDSError as exc:
        raise DealerError(str(exc)) from None
    declarer = c.declarer
    assert declarer is not None
    masks = pbn_to_masks(view)
    owners = np.full(52, -1, dtype=np.int8)
    hidden = []
    for seat in Seat:
        cards = [Card(s, r) for s in range(4) for r in range(14, 1, -1) if masks[seat][s] >> r & 1]
        if not cards:
            hidden.append(seat)
            continue
        if len(cards) != 13:
            raise DealerError(
                f"the view gives {seat.name} {len(cards)} cards: a hand shown holds its 13 cards "
                "(those it played included), a hidden one is '-'"
            )
        for card in cards:
            if owners[card.index] >= 0:
                raise DealerError(f"{card} is in two hands, {Seat(int(owners[card.index])).name} and {seat.name}")
            owners[card.index] = seat
    try:
        cards = parse_cards(played)
    except DDSError as exc:
        raise DealerError(f"played: {exc.reason} (card {(exc.index or 0) + 1})") from None
    leader = declarer.next()
    trick: list[Card] = []
    gone: list[Card] = []
    seen: set[Card] = set()
    void: set[tuple[int, int]] = set()
    won = 0
    for i, card in enumerate(cards):
        seat = leader.next(len(trick))
        where = f"card {i + 1} of the play (trick {len(gone) // 4 + 1}, {seat.name})"
        if len(gone) == 52:
            raise DealerError(f"{where}: {card} is played after the last trick")
        if card in seen:
            raise DealerError(f"{where}: {card} was already played")
        holder = int(owners[card.index])
        if seat in hidden:
            if holder >= 0 and holder != seat:
                raise DealerError(f"{where}: {card} is in {Seat(holder).name}'s hand, not {seat.name}'s")
            if (seat, card.suit) in void:
                raise DealerError(f"{where}: {seat.name} plays {card} after showing out of {SUITS[card.suit]}")
            owners[card.index] = seat
        elif holder != seat:
            whose = "a hidden hand" if holder < 0 else f"{Seat(holder).name}'s hand"
            raise DealerError(f"{where}: {card} is not in {seat.name}'s hand (it is in {whose})")
        if trick and card.suit != trick[0].suit:
            led = trick[0].suit
            if seat in hidden:
                void.add((seat, led))
            elif any(owners[x.index] == seat and x not in seen for x in _suit(led)):
                raise DealerError(f"{where}: {card} is a revoke: {seat.name} holds {SUITS[led]}, the suit led")
        seen.add(card)
        trick.append(card)
        if len(trick) == 4:
            winner = trick_winner(trick, leader, c.strain)
            won += winner.side == declarer.side
            gone += trick
            leader, trick = winner, []
    if len(gone) == 52:
        raise DealerError("every card has been played: there is nothing left to choose")
    to_play = leader.next(len(trick))
    if to_play in hidden:
        raise DealerError(f"{to_play.name} is to play and the view hides that hand: show it to analyse its play")
    _force(owners, tuple(hidden), void)
    groups = _groups(owners, to_play, seen, set(gone), trick)
    owners.setflags(write=False)
    return Problem(
        c, view, tuple(hidden), owners, tuple(sorted(void)), tuple(cards), tuple(gone), tuple(trick),
        leader, to_play, won, groups,
    )  # fmt: skip


def _suit(suit: int) -> list[Card]:
    return [Card(suit, r) for r in range(14, 1, -1)]


def _rooms(owners: NDArray[np.int8], hidden: Sequence[Seat]) -> list[int]:
    """Cards still to deal to each hidden hand (13 less those it is known or forced to hold)."""
    return [13 - int((owners == seat).sum()) for seat in hidden]


def _force(owners: NDArray[np.int8], hidden: tuple[Seat, ...], void: set[tuple[int, int]]) -> None:
    """Give a suit's missing cards to the one hidden hand that can hold them, until nothing more is forced.

    Raises :class:`DealerError` when a suit's missing cards have nowhere to go.
    """
    changed = True
    while changed:
        changed = False
        rooms = dict(zip(hidden, _rooms(owners, hidden), strict=True))
        for suit in range(4):
            free = [i for i in range(13 * suit, 13 * suit + 13) if owners[i] < 0]
            if not free:
                continue
            can = [seat for seat in hidden if (seat, suit) not in void and rooms[seat] > 0]
            if not can or (len(can) == 1 and rooms[can[0]] < len(free)):
                names = " ".join(str(Card.from_index(i)) for i in free)
                raise DealerError(f"no layout fits the view and the play: no hidden hand can hold {names}")
            if len(can) == 1:
                owners[free] = can[0]
                changed = True
                break


def _groups(
    owners: NDArray[np.int8], seat: Seat, seen: set[Card], gone: set[Card], trick: list[Card]
) -> tuple[tuple[Card, ...], ...]:
    """The legal cards of ``seat`` in groups of equal cards: touching once the completed tricks' cards are gone.

    Cards on the trick in progress still count between two cards (the higher may beat one of them).
    """
    held = [Card.from_index(i) for i in np.flatnonzero(owners == seat).tolist()]
    held = [c for c in held if c not in seen]
    if trick and any(c.suit == trick[0].suit for c in held):
        held = [c for c in held if c.suit == trick[0].suit]
    groups: list[list[Card]] = []
    for card in held:  # spades first, high first
        last = groups[-1][-1] if groups else None
        if (
            last is not None
            and last.suit == card.suit
            and all(Card(card.suit, r) in gone for r in range(card.rank + 1, last.rank))
        ):
            groups[-1].append(card)
        else:
            groups.append([card])
    return tuple(tuple(g) for g in groups)


# -- dealing ---------------------------------------------------------------------------------


class _Layouts:
    """The layouts of a problem in dealing order: kernel deals of ``seed`` the play and condition accept."""

    def __init__(self, problem: Problem, script: Script | None, seed: int, tries: int, solver: Any) -> None:
        self.problem, self.script, self.seed, self.tries = problem, script, seed, tries
        self.solver = solver
        self.predeal = Predeal(problem.base)
        self.dealt = 0
        self._pending: list[NDArray[np.int8]] = []
        self._batch = 0

    def take(self, n: int) -> NDArray[np.int8]:
        """The next ``n`` accepted layouts ``(k, 52)`` (fewer, with a warning, if ``tries`` run out)."""
        have = sum(len(p) for p in self._pending)
        while have < n and self.dealt < self.tries:
            size = min(BATCH, self.tries - self.dealt)
            owners = deal_batch(self.seed, self._batch, self.predeal, size)
            self._batch += 1
            self.dealt += size
            owners = owners[accepted(self.problem, self.script, owners, self.solver)]
            self._pending.append(owners)
            have += len(owners)
        rows = np.concatenate(self._pending) if self._pending else np.empty((0, 52), np.int8)
        out, rest = rows[:n], rows[n:]
        self._pending = [rest] if len(rest) else []
        return out


def accepted(problem: Problem, script: Script | None, owners: NDArray[np.int8], solver: Any = None) -> NDArray[np.bool_]:
    """Which layouts ``(n, 52)`` fit the shown-out suits and the condition: ``(n,)`` bool."""
    keep = np.ones(len(owners), dtype=bool)
    for seat, suit in problem.void:
        keep &= ~(owners[:, 13 * suit : 13 * suit + 13] == seat).any(axis=1)
    if script is not None and script.condition is not None and keep.any():
        rows = np.flatnonzero(keep)
        frame = Frame(Hands(owners), solver, script.pointcount, script.altcounts)
        keep[rows] = script.condition(frame, rows) != 0
    return keep


def enumerate_layouts(problem: Problem) -> NDArray[np.int8]:
    """Every layout of the hidden cards the predeal leaves, ``(k, 52)`` owner rows (before the play's voids)."""
    free = np.flatnonzero(problem.base < 0)
    rooms = _rooms(problem.base, problem.hidden)
    parts = _assignments(len(free), rooms)
    out = np.empty((len(parts), 52), dtype=np.int8)
    out[:] = problem.base
    out[:, free] = np.asarray(problem.hidden, dtype=np.int8)[parts]
    return out


def _assignments(m: int, rooms: Sequence[int]) -> NDArray[np.int8]:
    """Every way to split ``m`` cards among hands of ``rooms`` places: ``(k, m)`` hand numbers 0.."""
    if len(rooms) <= 1:
        return np.zeros((1, m), dtype=np.int8)
    rest = _assignments(m - rooms[0], rooms[1:]) + 1
    blocks = []
    for chosen in combinations(range(m), rooms[0]):
        block = np.empty((len(rest), m), dtype=np.int8)
        block[:, list(chosen)] = 0
        block[:, [i for i in range(m) if i not in chosen]] = rest
        blocks.append(block)
    return np.concatenate(blocks)


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
    out = _spread(problem, out, missing=-1)
    own = out if problem.declaring else problem.left - out
    return (problem.won + own).astype(np.int8)


def _spread(problem: Problem, values: NDArray[Any], missing: Any = False) -> NDArray[Any]:
    """Each group's value given to all its cards (DDS may name only one card of a group)."""
    legal = problem.legal
    column = {card: k for k, card in enumerate(legal)}
    for group in problem.groups:
        cols = [column[c] for c in group]
        if len(cols) > 1:
            known = values[:, cols]
            values[:, cols] = known.max(axis=1, keepdims=True) if missing is not False else known.any(axis=1)[:, None]
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
        self.cards = []
        for k, card in enumerate(legal):
            hits = int(made[:, k].sum())
            p = hits / self.samples
            ci = (p, p) if exact else wilson(hits, self.samples, z)
            equals = tuple(str(c) for c in group_of[card] if c != card)
            self.cards.append(CardResult(self, str(card), equals, p, ci))

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
        """The best card's column for the side to play: most declarer tricks for declarer, fewest for the defence."""
        return int(np.argmax(mean_tricks) if self.problem.declaring else np.argmin(mean_tricks))

    @property
    def best(self) -> CardResult:
        """The card the side to play does best with: the highest make odds for declarer's side (lowest for the
        defence), ties broken by mean tricks when they are known."""
        sign = 1 if self.problem.declaring else -1
        tie = self._tricks.mean(axis=0) if self._tricks is not None else np.zeros(len(self.cards))
        return max(
            zip(self.cards, tie, strict=True), key=lambda item: (sign * item[0].makes, sign * item[1])
        )[0]

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
        make odds; by mean tricks with ``tricks=True``), at most :data:`AUTO_MAX`.
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
    >>> r = single_dummy("N:AK2.-.-.- -  Q43.-.-.- -", contract="1NTS", played="SQ", exact=True)  # doctest: +SKIP
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
        problem = _with_predeal(problem, script)
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
        layouts = _Layouts(problem, script, seed, tries, solver)
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
        return SingleDummy(problem, owners, made, scored, exact=False, seed=seed, confidence=confidence, threads=threads)


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
    """True when the best group of cards beats the second, paired layout by layout, at the normal quantile ``z``."""
    values = np.concatenate([p[2] if tricks else p[1] for p in parts]).astype(np.float64)  # type: ignore[misc]
    legal = problem.legal
    firsts = [legal.index(g[0]) for g in problem.groups]
    if len(firsts) < 2:
        return True
    sign = 1.0 if problem.declaring else -1.0
    means = sign * values[:, firsts].mean(axis=0)
    order = np.argsort(-means, kind="stable")
    diff = sign * (values[:, firsts[order[0]]] - values[:, firsts[order[1]]])
    mean, (low, _) = mean_interval(diff, z)
    return mean > 0 and (low > 0 or float(diff.std()) == 0.0)


def _with_predeal(problem: Problem, script: Script) -> Problem:
    """The problem with a script's predeal: cards it gives hidden hands fixed there (it must agree with the view)."""
    base = problem.base.copy()
    pre = script.predeal.owners
    for index in np.flatnonzero(pre >= 0).tolist():
        card, seat = Card.from_index(index), Seat(int(pre[index]))
        if base[index] >= 0 and base[index] != seat:
            raise DealerError(f"the condition's predeal gives {card} to {seat.name}; the view and play put it in "
                              f"{Seat(int(base[index])).name}'s hand")  # fmt: skip
        if seat not in problem.hidden and base[index] != seat:
            raise DealerError(f"the condition's predeal gives {card} to {seat.name}, whose hand the view shows")
        if (seat, card.suit) in problem.void and card not in problem.played:
            raise DealerError(f"the condition's predeal gives {card} to {seat.name}, who showed out of {SUITS[card.suit]}")
        base[index] = seat
    if (base != problem.base).any():
        _force(base, problem.hidden, set(problem.void))
    base.setflags(write=False)
    return dataclasses.replace(problem, base=base)
