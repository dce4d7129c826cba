"""Input checks that run before any DDS call, returning DDS's own codes.

DDS writes ``dump.txt`` into the current directory on every input error it
finds, and some faults it does not look for (bits outside a suit's 2..14,
out-of-range table entries passed to the par functions) read out of bounds.
So ddsbind checks everything first, in the order DDS checks it -- so that the
code returned is the one DDS would return -- and is stricter where DDS is
silent (the stricter checks are marked below).

Every function returns ``(code, detail)``: ``code`` is ``RETURN_NO_FAULT`` or
a DDS error code, ``detail`` says which card or field is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from ddsbind._binding import constant
from ddsbind.deal import RANKS, SUITS

OK = constant("RETURN_NO_FAULT")
_C = {
    name: constant("RETURN_" + name)
    for name in [
        "UNKNOWN_FAULT",
        "ZERO_CARDS",
        "TARGET_TOO_HIGH",
        "DUPLICATE_CARDS",
        "TARGET_WRONG_LO",
        "TARGET_WRONG_HI",
        "SOLNS_WRONG_LO",
        "SOLNS_WRONG_HI",
        "TOO_MANY_CARDS",
        "SUIT_OR_RANK",
        "PLAYED_CARD",
        "CARD_COUNT",
        "THREAD_INDEX",
        "MODE_WRONG_LO",
        "MODE_WRONG_HI",
        "TRUMP_WRONG",
        "FIRST_WRONG",
        "PLAY_FAULT",
        "PBN_FAULT",
        "TOO_MANY_BOARDS",
        "NO_SUIT",
        "TOO_MANY_TABLES",
        "CHUNK_SIZE",
    ]
}
HANDS = "NESW"
_SUIT_BITS = 0x7FFC  # ranks 2..14

Result = tuple[int, str | None]


def card_name(suit: int, rank: int) -> str:
    """``"SA"``-style name of a (suit 0..3, rank 2..14) card."""
    return SUITS[suit] + RANKS[rank - 2]


def thread_index(index: int, count: int) -> Result:
    """``threadIndex`` must be 0 .. count-1 (DDS's configured threads)."""
    if not 0 <= index < count:
        return _C["THREAD_INDEX"], f"threadIndex {index} is not in 0..{count - 1} (DDS runs {count} threads)"
    return OK, None


def board(
    trump: int,
    first: int,
    trick_suit: Sequence[int],
    trick_rank: Sequence[int],
    masks: Sequence[Sequence[int]],
    target: int,
    solutions: int,
    mode: int,
) -> Result:
    """Check one ``SolveBoard`` input the way DDS does, in DDS's order.

    ``masks`` is ``remainCards[hand][suit]``.  Returns ``(code, detail)``.
    """
    # -- DDS's range checks, in its order.
    if target < -1:
        return _C["TARGET_WRONG_LO"], f"target {target} < -1"
    if target > 13:
        return _C["TARGET_WRONG_HI"], f"target {target} > 13"
    if solutions < 1:
        return _C["SOLNS_WRONG_LO"], f"solutions {solutions} < 1"
    if solutions > 3:
        return _C["SOLNS_WRONG_HI"], f"solutions {solutions} > 3"
    if mode < 0:
        return _C["MODE_WRONG_LO"], f"mode {mode} < 0"
    if mode > 2:
        return _C["MODE_WRONG_HI"], f"mode {mode} > 2"
    if not 0 <= trump <= 4:
        return _C["TRUMP_WRONG"], f"trump {trump} is not 0..4 (0=S 1=H 2=D 3=C 4=NT)"
    if not 0 <= first <= 3:
        return _C["FIRST_WRONG"], f"first {first} is not 0..3 (0=N 1=E 2=S 3=W)"
    seen = [False, False, False]
    for k in range(3):
        r, s = trick_rank[k], trick_suit[k]
        if r == 0:
            continue
        seen[k] = True
        if not 2 <= r <= 14:
            return _C["SUIT_OR_RANK"], f"currentTrickRank[{k}] = {r} is not 2..14 (or 0 for no card)"
        if not 0 <= s <= 3:
            return _C["SUIT_OR_RANK"], f"currentTrickSuit[{k}] = {s} is not 0..3"
    if (seen[2] and not (seen[1] and seen[0])) or (seen[1] and not seen[0]):
        return _C["SUIT_OR_RANK"], "current-trick cards must fill entries 0, 1, 2 in play order"
    for h, row in enumerate(masks):
        for s, c in enumerate(row):
            # DDS rejects c < 4 and c >= 0x8000; stricter: any bit outside 2..14.
            if c & ~_SUIT_BITS or c < 0:
                return _C["SUIT_OR_RANK"], (
                    f"remainCards[{h}][{s}] = {c:#x} (hand {HANDS[h]}, suit {SUITS[s]}) has bits outside ranks 2..14"
                )

    # -- DDS's value checks, in its order.
    counts = [sum(map(int.bit_count, row)) for row in masks]
    total = sum(counts)
    if total == 0:
        return _C["ZERO_CARDS"], "no cards remain in any hand"
    if total > 52:
        return _C["TOO_MANY_CARDS"], f"{total} cards in the deal"
    tricks_left = (total - 4) // 4 + (2 if total % 4 else 1)
    if target > tricks_left:
        return _C["TARGET_TOO_HIGH"], f"target {target} > {tricks_left} tricks left"
    played = (52 - total) % 4  # DDS derives the cards on the table from the count
    per_hand = list(counts)
    for k in range(played):
        per_hand[(first + k) % 4] += 1
    if len(set(per_hand)) != 1:
        return _C["CARD_COUNT"], (
            "hands hold N={} E={} S={} W={} cards".format(*counts)
            + (f" with {played} card(s) on the current trick led by {HANDS[first]}" if played else "")
            + "; each hand must hold the same number once the current trick is counted"
        )
    for k in range(played):
        s, r = trick_suit[k], trick_rank[k]
        if r == 0:
            # Stricter: DDS would read an empty entry as a card.
            return _C["SUIT_OR_RANK"], (
                f"{played} card(s) are on the current trick by the card count, but currentTrickRank[{k}] is 0"
            )
        for h in range(4):
            if masks[h][s] >> r & 1:
                return _C["PLAYED_CARD"], (f"{card_name(s, r)} is on the current trick and still held by {HANDS[h]}")
    for s in range(4):
        seen_bits = 0
        for h in range(4):
            dup = seen_bits & masks[h][s]
            if dup:
                rank = dup.bit_length() - 1
                return _C["DUPLICATE_CARDS"], f"{card_name(s, rank)} is held by {HANDS[h]} and another hand"
            seen_bits |= masks[h][s]
    # Stricter: the same card twice on the current trick.
    trick_cards = [(trick_suit[k], trick_rank[k]) for k in range(played)]
    if len(set(trick_cards)) != len(trick_cards):
        return _C["DUPLICATE_CARDS"], "the same card is played twice to the current trick"
    return OK, None


def table_deal(masks: Sequence[Sequence[int]]) -> Result:
    """Check a ``ddTableDeal``: a board with no current trick (equal hands)."""
    code, detail = board(0, 0, (0, 0, 0), (0, 0, 0), masks, -1, 1, 1)
    if code == OK:
        counts = [sum(map(int.bit_count, row)) for row in masks]
        if len(set(counts)) != 1:
            return _C["CARD_COUNT"], "hands hold N={} E={} S={} W={} cards; a table needs equal hands".format(*counts)
    return code, detail


def table_results(res: Sequence[Sequence[int]]) -> Result:
    """Check a ``ddTableResults`` handed to the par functions (stricter: DDS does not)."""
    for s in range(5):
        for h in range(4):
            v = res[s][h]
            if not 0 <= v <= 13:
                return _C["UNKNOWN_FAULT"], f"resTable[{s}][{h}] = {v} is not a trick count 0..13"
    return OK, None


def vulnerable(vul: int, *, allow_none: bool = False) -> Result:
    """Vulnerability in DDS encoding 0 none, 1 both, 2 NS, 3 EW (-1 = no par where allowed)."""
    lo = -1 if allow_none else 0
    if not lo <= vul <= 3:
        return _C["UNKNOWN_FAULT"], f"vulnerable {vul} is not {lo}..3 (0 none, 1 both, 2 NS, 3 EW)"
    return OK, None


def dealer(d: int) -> Result:
    """Dealer in DDS hand encoding 0..3."""
    if not 0 <= d <= 3:
        return _C["UNKNOWN_FAULT"], f"dealer {d} is not 0..3 (0=N 1=E 2=S 3=W)"
    return OK, None


def play_trace(
    trump: int,
    first: int,
    trick_suit: Sequence[int],
    trick_rank: Sequence[int],
    masks: Sequence[Sequence[int]],
    suits: Sequence[int],
    ranks: Sequence[int],
) -> Result:
    """Check a play sequence against a (valid) board by playing it out.

    DDS checks that each card is in range and held by the player to play;
    stricter, ddsbind also requires following suit, so that the analysis is of
    a legal play.
    """
    n = len(suits)
    if not 0 <= n <= 52:
        return _C["PLAY_FAULT"], f"{n} cards in the play; 0..52 allowed"
    hands = [list(row) for row in masks]
    total = sum(int(m).bit_count() for row in hands for m in row)
    on_table = (52 - total) % 4
    trick = [(trick_suit[k], trick_rank[k], (first + k) % 4) for k in range(on_table)]
    leader = first
    if n > total:
        return _C["PLAY_FAULT"], f"{n} cards played but only {total} remain"
    for i in range(n):
        s, r = suits[i], ranks[i]
        if not (0 <= s <= 3 and 2 <= r <= 14):
            return _C["PLAY_FAULT"], f"play {i}: suit {s} / rank {r} is not a card"
        player = (leader + len(trick)) % 4
        if not hands[player][s] >> r & 1:
            return _C["PLAY_FAULT"], f"play {i}: {card_name(s, r)} is not held by {HANDS[player]}, who is to play"
        if trick:
            led = trick[0][0]
            if s != led and hands[player][led]:
                return _C["PLAY_FAULT"], (
                    f"play {i}: {HANDS[player]} plays {card_name(s, r)} but holds {SUITS[led]} (revoke)"
                )
        hands[player][s] &= ~(1 << r)
        trick.append((s, r, player))
        if len(trick) == 4:
            led = trick[0][0]
            best = max(
                trick,
                key=lambda c: (c[0] == trump, c[0] == led, c[1]),
            )
            leader = best[2]
            trick = []
    return OK, None
