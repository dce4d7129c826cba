"""Dealer's per-deal printing actions and end-of-run summaries, byte for byte as Debian's ``dealer`` prints them.

Hands in text are suits S H D C, ranks ``AKQJT98765432``; seats in the
order each format names (printall: N E S W; printew: W E).
"""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import RANKS_HIGH_FIRST, SEAT_LETTERS, SUITS, Seat, Vulnerability

__all__ = [
    "average_text",
    "compact",
    "deal_pbn",
    "diagram",
    "east_west",
    "frequency_text",
    "hand_suits",
    "hands_pages",
    "oneline",
    "pbn_record",
    "summary",
]


def hand_suits(owners: NDArray[np.int8], seat: int) -> list[str]:
    """The four suits (S H D C) ``seat`` holds in one owner row ``(52,)``, ranks high first, ``""`` for a void."""
    row = np.asarray(owners).reshape(4, 13)
    return ["".join(RANKS_HIGH_FIRST[r] for r in range(13) if row[s, r] == seat) for s in range(4)]


def _spaced(suit: str) -> str:
    return "".join(f"{c} " for c in suit) if suit else "- "


def diagram(owners: NDArray[np.int8], number: int) -> str:
    """``printall``: ``"%4d."`` then four lines of N E S W side by side (20 columns each), a blank line."""
    hands = [hand_suits(owners, s) for s in range(4)]
    lines = [f"{number:4d}."]
    for suit in range(4):
        cells = [_spaced(hands[s][suit]) for s in range(4)]
        lines.append("".join(f"{c:<20}" for c in cells[:3]) + cells[3])
    return "\n".join(lines) + "\n\n"


def hands_pages(deals: NDArray[np.int8], seats: list[int]) -> str:
    """``print(seats)``: for each seat a page of its hands, four deals across, numbered; pages end in a form feed."""
    parts = []
    for seat in seats:
        parts.append(f"\n\n{Seat(seat).full_name} hands:\n\n\n\n")
        for start in range(0, len(deals), 4):
            group = range(start, min(start + 4, len(deals)))
            parts.append("".join(f"{f'{i + 1:4d}.':<20}" for i in group) + "\n")
            hands = [hand_suits(deals[i], seat) for i in group]
            for suit in range(4):
                cells = [_spaced(h[suit]) for h in hands]
                parts.append("".join(f"{c:<20}" for c in cells[:-1]) + cells[-1] + "\n")
            parts.append("\n")
        parts.append("\f")
    return "".join(parts)


def east_west(owners: NDArray[np.int8]) -> str:
    """``printew``: West and East side by side (West padded to 20 columns), a blank line."""
    west, east = hand_suits(owners, 3), hand_suits(owners, 1)
    return "".join(f"{_spaced(west[s]):<20}{_spaced(east[s])}\n" for s in range(4)) + "\n"


def _dotted(owners: NDArray[np.int8], seat: int) -> str:
    return ".".join(hand_suits(owners, seat))


def hands_text(owners: NDArray[np.int8], seats: list[int]) -> str:
    """DealerV2's hands in a report: ``n AKJ3.KJ943.T76.J s T9762.A.Q.AK9842`` (the seats given, in that order)."""
    return " ".join(f"{SEAT_LETTERS[s].lower()} {_dotted(owners, s)}" for s in seats)


def export_line(owners: NDArray[np.int8], seats: list[int]) -> str:
    """DealerV2's ``export``: ``-E ST865,HT73,DAJ97,C94  -W SAJ4,...`` (voids left out), one line.

    Each seat's holdings are in ``predeal``'s spelling, so they can be predealt in a later run.
    """
    parts = []
    for seat in seats:
        suits = hand_suits(owners, seat)
        parts.append(f"-{SEAT_LETTERS[seat]} " + ",".join(f"{SUITS[i]}{h}" for i, h in enumerate(suits) if h))
    return "  ".join(parts) + "\n"


def compact(owners: NDArray[np.int8], value: int | None = None) -> str:
    """``printcompact``: ``n``/``e``/``s``/``w`` and the dotted hand, one line each; then the value if given."""
    text = "".join(f"{SEAT_LETTERS[s].lower()} {_dotted(owners, s)}\n" for s in range(4))
    return text + (f"{value}\n" if value is not None else "")


def oneline(owners: NDArray[np.int8], value: int | None = None) -> str:
    """``printoneline``: ``n <hand> e <hand> s <hand> w <hand> `` then the value if given, one line."""
    text = "".join(f"{SEAT_LETTERS[s].lower()} {_dotted(owners, s)} " for s in range(4))
    return text + (f"{value}" if value is not None else "") + "\n"


def deal_pbn(owners: NDArray[np.int8]) -> str:
    """PBN deal tag value from North: ``N:hand hand hand hand`` (N E S W)."""
    return "N:" + " ".join(_dotted(owners, s) for s in range(4))


def pbn_record(
    owners: NDArray[np.int8],
    board: int,
    dealer: Seat | None,
    vulnerable: Vulnerability | None,
    source: str,
    seed: int,
    date: datetime.date | None = None,
) -> str:
    """``printpbn``: dealer's PBN record (Event names the file and seed), then a blank line.

    ``dealer``/``vulnerable`` ``None`` rotate with the board number as on
    duplicate boards (board 1: N, None; board 2: E, NS...).
    """
    seat = dealer if dealer is not None else Seat.dealer_of_board(board)
    vul = vulnerable if vulnerable is not None else Vulnerability.of_board(board)
    day = (date or datetime.date.today()).strftime("%Y.%m.%d")
    tags = [
        ("Event", f"Hand simulated by dealer with file {source}, seed {seed}"),
        ("Site", "-"),
        ("Date", day),
        ("Board", str(board)),
        ("West", "-"),
        ("North", "-"),
        ("East", "-"),
        ("South", "-"),
        ("Dealer", SEAT_LETTERS[seat]),
        ("Vulnerable", vul.pbn),
        ("Deal", deal_pbn(owners)),
        ("Declarer", "?"),
        ("Contract", "?"),
        ("Result", "?"),
    ]
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n"


def _g(value: float) -> str:
    return f"{value:g}"


def average_text(label: str | None, total: float | int, count: int) -> str:
    """``average``: ``"label: "`` (when given) and the mean as C's ``%g``."""
    mean = _g(total / count) if count else "-nan"  # dealer divides 0 by 0 and C's printf writes -nan
    return (f"{label}: " if label else "") + mean + "\n"


def frequency_text(label: str | None, counts: NDArray[np.int64], bounds: list[int]) -> str:
    """``frequency``: 1-D (``counts`` = low, values, high) or 2-D table with Low/High/Sum, as dealer prints them."""
    head = f"Frequency {label or ''}:\n"
    if len(bounds) == 2:
        low, high = bounds
        lines = [head]
        if counts[0]:
            lines.append(f"Low\t{counts[0]:8d}\n")
        for i, value in enumerate(range(low, high + 1)):
            lines.append(f"{value:5d}\t{counts[i + 1]:8d}\n")
        if counts[-1]:
            lines.append(f"High\t{counts[-1]:8d}\n")
        return "".join(lines)
    low1, high1, low2, high2 = bounds
    rows = ["Low", *[f"{v:4d}" for v in range(low1, high1 + 1)], "High"]
    cols = ["Low", *[str(v) for v in range(low2, high2 + 1)], "High", "Sum"]
    lines = [head, "    " + "".join(f"{c:>7}" for c in cols) + "\n"]
    for label_row, row in zip(rows, counts, strict=True):
        lines.append(f"{label_row:<4}" + "".join(f"{v:7d}" for v in row) + f"{row.sum():7d}\n")
    sums = counts.sum(axis=0)
    lines.append("Sum " + "".join(f"{v:7d}" for v in sums) + f"{sums.sum():7d}\n")
    return "".join(lines) + "\n"


def evalcontract_text(side: str | None, contract: Any, vulnerable: bool, counts: NDArray[np.int64]) -> str:
    """DealerV2's ``evalcontract`` report from the number of deals ``counts[t]`` on which declarer took ``t`` tricks.

    Two lines, with DealerV2's figures (its source's ``showevalcontract``):
    the average score (declarer's side's, by the Laws through
    :class:`ddsbind.scoring.Contract`, doubled as the contract is), the
    percentages made and failed; then, for a contract below game (3NT, 4
    of a major, 5 of a minor), the percentage of deals where the game in
    the same strain makes, and below six the percentage where a slam makes
    (12 tricks or 13), each with the IMPs per deal lost by not bidding it
    (WBF scale).  As in DealerV2 those IMPs compare *undoubled* scores (the
    game or slam against the contract undoubled, a doubled contract too),
    and 13 tricks compare the grand slam (4S making 13 non-vulnerable:
    1510 - 510, 14 IMPs).  Over no deals the figures are ``-nan``.
    """
    from ddsbind import scoring

    tricks = np.arange(14)
    n = int(counts.sum())
    scores = contract.scores(tricks, vulnerable)
    undoubled = scoring.Contract(contract.level, contract.strain).scores(tricks, vulnerable)
    text_vul = "V" if vulnerable else "NV"

    def pct(mask: NDArray[np.bool_]) -> str:
        return f"{100 * counts[mask].sum() / n:.2f}" if n else "-nan"

    def lost(level: int) -> tuple[str, str]:
        if contract.level >= level:
            return pct(np.zeros(14, dtype=bool)), pct(np.zeros(14, dtype=bool))
        # The contract bid on each deal with enough tricks: the game; for a slam, six with 12 tricks, seven with 13.
        bid = np.clip(tricks - 6, 1, 7) if level == 6 else np.full(14, level)
        better = scoring.score(bid, int(contract.strain), 0, tricks, vulnerable)
        imps = scoring.imps(better - undoubled) * (tricks >= level + 6)
        return pct(tricks >= level + 6), f"{(counts * imps).sum() / n:.2f}" if n else "-nan"

    average = f"{(counts * scores).sum() / n:.2f}" if n else "-nan"
    game = 3 if int(contract.strain) == 4 else 4 if int(contract.strain) < 2 else 5
    game_pct, game_imps = lost(game)
    slam_pct, slam_imps = lost(6)
    name = f"{contract.level}{contract.strain}{('', 'X', 'XX')[contract.doubled]}"
    return (
        f"Contract {name} {text_vul} by {side} Average Result = {average}, "
        f"Made pct={pct(tricks >= contract.trick_target)}, Fail pct={pct(tricks < contract.trick_target)}\n"
        f" Missed Game_pct={game_pct}, Missed Slam_pct={slam_pct}, "
        f"Missed Game Imps/board={game_imps}, Missed Slam Imps/board={slam_imps}\n"
    )


def summary(generated: int, produced: int, seed: int | None, seconds: float) -> str:
    """The closing lines: ``Generated N hands``, ``Produced M hands``, seed, ``Time needed %8.3f sec``.

    ``seed`` None (a run the seed played no part in): no seed line.
    """
    seed_line = "" if seed is None else f"Initial random seed {seed}\n"
    return f"Generated {generated} hands\nProduced {produced} hands\n{seed_line}Time needed {seconds:8.3f} sec\n"
