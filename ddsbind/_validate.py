"""Input checks that run before any DDS call; each raises the DDSError DDS's code stands for.

DDS writes ``dump.txt`` into the current directory on every input error it
finds, and some faults it does not look for (bits outside a suit's 2..14,
out-of-range table entries passed to the par functions) read out of bounds.
So ddsbind checks everything first, in the order DDS checks it -- so that the
error raised carries the code DDS would return -- and is stricter where DDS
is silent (the stricter checks are marked below).

Every function returns None or raises a :class:`~ddsbind.errors.DDSError`
subclass whose ``field`` or ``card`` says what is wrong; the DLL layer turns
that into DDS's int code and ``last_error()``.  No DDS import here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ddsbind import _holdings, game
from ddsbind.deal import Card, Deal
from ddsbind.errors import (
    CardCountError,
    FirstWrongError,
    InvalidArgumentError,
    ModeWrongHiError,
    ModeWrongLoError,
    PlayFaultError,
    SolutionsWrongHiError,
    SolutionsWrongLoError,
    SuitOrRankError,
    TargetTooHighError,
    TargetWrongHiError,
    TargetWrongLoError,
    ThreadIndexError,
    TooManyCardsError,
    TrumpWrongError,
    ZeroCardsError,
)


def thread_index(index: int, count: int) -> None:
    """``threadIndex`` must be 0 .. count-1 (DDS's configured threads)."""
    if not 0 <= index < count:
        raise ThreadIndexError(
            f"threadIndex {index} is not in 0..{count - 1} (DDS runs {count} threads)", field="threadIndex"
        )


def board(
    trump: int,
    first: int,
    trick_suit: Sequence[int],
    trick_rank: Sequence[int],
    masks: Sequence[Sequence[int]],
    target: int,
    solutions: int,
    mode: int,
) -> None:
    """Check one ``SolveBoard`` input the way DDS does, in DDS's order.

    ``masks`` is ``remainCards[hand][suit]`` as Python ints.
    """
    # -- DDS's range checks, in its order.
    if target < -1:
        raise TargetWrongLoError(f"target {target} < -1", field="target")
    if target > 13:
        raise TargetWrongHiError(f"target {target} > 13", field="target")
    if solutions < 1:
        raise SolutionsWrongLoError(f"solutions {solutions} < 1", field="solutions")
    if solutions > 3:
        raise SolutionsWrongHiError(f"solutions {solutions} > 3", field="solutions")
    if mode < 0:
        raise ModeWrongLoError(f"mode {mode} < 0", field="mode")
    if mode > 2:
        raise ModeWrongHiError(f"mode {mode} > 2", field="mode")
    if not 0 <= trump <= 4:
        raise TrumpWrongError(f"trump {trump} is not 0..4 (0=S 1=H 2=D 3=C 4=NT)", field="trump")
    if not 0 <= first <= 3:
        raise FirstWrongError(f"first {first} is not 0..3 (0=N 1=E 2=S 3=W)", field="first")
    seen = [False, False, False]
    for k in range(3):
        r, s = trick_rank[k], trick_suit[k]
        if r == 0:
            continue
        seen[k] = True
        if not 2 <= r <= 14:
            field = f"currentTrickRank[{k}]"
            raise SuitOrRankError(f"{field} = {r} is not 2..14 (or 0 for no card)", field=field)
        if not 0 <= s <= 3:
            field = f"currentTrickSuit[{k}]"
            raise SuitOrRankError(f"{field} = {s} is not 0..3", field=field)
    if (seen[2] and not (seen[1] and seen[0])) or (seen[1] and not seen[0]):
        raise SuitOrRankError("current-trick cards must fill entries 0, 1, 2 in play order", field="currentTrickRank")
    # DDS rejects c < 4 and c >= 0x8000; stricter: any bit outside 2..14.
    stray = _holdings.stray_bits(masks)
    if stray is not None:
        raise stray

    # -- DDS's value checks, in its order.
    counts = _holdings.hand_lengths(masks)
    total = sum(counts)
    if total == 0:
        raise ZeroCardsError("no cards remain in any hand", field="remainCards")
    if total > 52:
        raise TooManyCardsError(f"{total} cards in the deal", field="remainCards")
    tricks_left = (total - 4) // 4 + (2 if total % 4 else 1)
    if target > tricks_left:
        raise TargetTooHighError(f"target {target} > {tricks_left} tricks left", field="target")
    played = (52 - total) % 4  # DDS derives the cards on the table from the count
    game.check_trick_lengths(counts, first, played)
    for k in range(played):
        if trick_rank[k] == 0:
            # Stricter: DDS would read an empty entry as a card.
            raise SuitOrRankError(
                f"{played} card(s) are on the current trick by the card count, but currentTrickRank[{k}] is 0",
                field=f"currentTrickRank[{k}]",
            )
    # DDS's played-card and duplicate checks; stricter: a card twice on the trick, and a revoke.
    game.check_trick_cards(masks, first, [Card(trick_suit[k], trick_rank[k]) for k in range(played)])


def table_deal(masks: Sequence[Sequence[int]]) -> None:
    """Check a ``ddTableDeal``: a full deal, 13 cards in each hand.

    Stricter: DDS's table functions take any equal hands but answer as if
    13 tricks were played (13 minus the leaders' tricks), which is wrong for
    an ending; endings are refused (``ddsbind.dd_table`` solves them with
    ``SolveBoard``).
    """
    board(0, 0, (0, 0, 0), (0, 0, 0), masks, -1, 1, 1)
    counts = _holdings.hand_lengths(masks)
    if counts != [13, 13, 13, 13]:
        raise CardCountError(
            "hands hold N={} E={} S={} W={} cards; a DD table needs 13 in each hand".format(*counts),
            field="cards",
        )


def table_results(res: Sequence[Sequence[int]]) -> None:
    """Check a ``ddTableResults`` handed to the par functions (stricter: DDS does not)."""
    for s in range(5):
        for h in range(4):
            v = res[s][h]
            if not 0 <= v <= 13:
                field = f"resTable[{s}][{h}]"
                raise InvalidArgumentError(f"{field} = {v} is not a trick count 0..13", field=field)


def vulnerable(vul: int, *, allow_none: bool = False) -> None:
    """Vulnerability in DDS encoding 0 none, 1 both, 2 NS, 3 EW (-1 = no par where allowed)."""
    lo = -1 if allow_none else 0
    if not lo <= vul <= 3:
        raise InvalidArgumentError(f"vulnerable {vul} is not {lo}..3 (0 none, 1 both, 2 NS, 3 EW)", field="vulnerable")


def dealer(d: int) -> None:
    """Dealer in DDS hand encoding 0..3."""
    if not 0 <= d <= 3:
        raise InvalidArgumentError(f"dealer {d} is not 0..3 (0=N 1=E 2=S 3=W)", field="dealer")


def play_trace(
    trump: int,
    first: int,
    trick_suit: Sequence[int],
    trick_rank: Sequence[int],
    masks: Sequence[Sequence[int]],
    suits: Sequence[int],
    ranks: Sequence[int],
) -> None:
    """Check a play sequence against a (valid) board by playing it out with :class:`ddsbind.game.Play`.

    DDS checks that each card is in range and held by the player to play;
    stricter, ddsbind also requires following suit, so that the analysis is of
    a legal play.  A fault is a ``PlayFaultError`` at ``.at(i, "play")``.
    """
    n = len(suits)
    if not 0 <= n <= 52:
        raise PlayFaultError(f"{n} cards in the play; 0..52 allowed", field="number")
    total = sum(_holdings.hand_lengths(masks))
    if n > total:
        raise PlayFaultError(f"{n} cards played but only {total} remain", field="number")
    cards = []
    for i in range(n):
        s, r = suits[i], ranks[i]
        if not (0 <= s <= 3 and 2 <= r <= 14):
            raise PlayFaultError(f"suit {s} / rank {r} is not a card").at(i, "play")
        cards.append(Card(s, r))
    played = (52 - total) % 4
    trick = [Card(trick_suit[k], trick_rank[k]) for k in range(played)]
    game.Play(Deal(masks), trump, first, trick).play_all(cards)
