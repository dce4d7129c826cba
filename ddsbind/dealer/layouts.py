"""The layouts of the hidden cards a view and a play allow: read, dealt uniformly, or enumerated.

:func:`read_problem` reads a view (the hands a player sees, the others
hidden as PBN's ``-``), a contract and the cards played so far into a
:class:`Problem`: every layout's predeal (the known hands, the cards the
hidden hands played, the cards forced on the one hidden hand that can
hold them), the suits hidden hands showed out of, the position reached
and the legal cards of the hand to play in groups of equal cards.
:class:`Layouts` deals the layouts by the dealer's compiled kernel (every
completion of the predeal equally likely), keeping those the shown-out
suits and a condition accept (rejection keeps the draw uniform);
:func:`enumerate_layouts` lists them all.  :mod:`ddsbind.dealer.single_dummy`
solves them.

Conventions: owner rows ``(n, 52)`` int8, DDS seats N=0 E=1 S=2 W=3 per
card SA..C2 (:attr:`ddsbind.Card.index`); suits 0..3 S H D C.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import SUITS, Card, Seat, pbn_to_masks
from ddsbind.dealer.dealing import BATCH, DealerError, Predeal, deal_batch
from ddsbind.dealer.language import Frame, Script
from ddsbind.errors import DDSError
from ddsbind.game import parse_cards, trick_winner
from ddsbind.hands import Hands
from ddsbind.scoring import Contract

__all__ = ["Layouts", "Problem", "accepted", "enumerate_layouts", "read_problem", "with_predeal"]


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
    leader = declarer.lho
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


class Layouts:
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


def accepted(
    problem: Problem, script: Script | None, owners: NDArray[np.int8], solver: Any = None
) -> NDArray[np.bool_]:
    """Which layouts ``(n, 52)`` fit the shown-out suits and the condition: ``(n,)`` bool."""
    keep = np.ones(len(owners), dtype=bool)
    for seat, suit in problem.void:
        # The cards of the suit it played before showing out are its own (in the predeal): only the others count.
        free = [i for i in range(13 * suit, 13 * suit + 13) if problem.base[i] < 0]
        keep &= ~(owners[:, free] == seat).any(axis=1)
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


def with_predeal(problem: Problem, script: Script) -> Problem:
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
            raise DealerError(
                f"the condition's predeal gives {card} to {seat.name}, who showed out of {SUITS[card.suit]}"
            )
        base[index] = seat
    if (base != problem.base).any():
        _force(base, problem.hidden, set(problem.void))
    base.setflags(write=False)
    return dataclasses.replace(problem, base=base)
