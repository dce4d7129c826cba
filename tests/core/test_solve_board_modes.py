"""solve_board for every mode, solutions and target, against DDS's own answers from C.

Oracle: ``tests/dds_solve_oracle.c``, which asks DDS's ``SolveBoardPBN``
the same questions from a plain C program (built against the DDS the
installed ddsbind uses), so none of ddsbind's validation, marshalling or
decoding lies between question and answer.  Every combination of ``mode``
(0, 1, 2, and the out-of-range -1 and 3), ``solutions`` (1, 2, 3, and the
out-of-range 0 and 4) and ``target`` (-1 to one more trick than is left,
and -2) is asked about endings with 0 to 3 cards on the current trick, and
about three full deals of DDS's list100.txt.  DDS's FUT lines (solutions 3,
target -1, mode 1) are checked elsewhere (tests/core/test_reference.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import ddsbind
from ddsbind import errors
from tests.support import ask_dds

RANKS = "23456789TJQKA"  # index + 2 is DDS's rank
SUITS = "SHDC"  # DDS's suit order
MODES = (0, 1, 2)
SOLUTIONS = (1, 2, 3)

#: One request: trump, first, cards on the trick [(suit, rank)], remaining cards as PBN, tricks left.
Position = tuple[int, int, list[tuple[int, int]], str, int]


def _pbn(owners: np.ndarray) -> str:
    """PBN of an owner row over the 52 cards (card = suit * 13 + rank - 2; -1 = not in the position), North first."""
    hands = []
    for seat in range(4):
        suits = []
        for suit in range(4):
            suits.append("".join(RANKS[r] for r in range(12, -1, -1) if owners[suit * 13 + r] == seat))
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def _random_ending(rng: np.random.Generator) -> Position:
    """A random ending of 2..5 cards a hand, with 0..3 cards already played to the trick, following suit."""
    k = int(rng.integers(2, 6))
    owners = np.full(52, -1, np.int8)
    owners[rng.choice(52, 4 * k, replace=False)] = np.repeat(np.arange(4, dtype=np.int8), k)
    trump, first = int(rng.integers(0, 5)), int(rng.integers(0, 4))
    trick: list[tuple[int, int]] = []
    for i in range(int(rng.integers(0, 4))):
        seat = (first + i) % 4
        held = np.flatnonzero(owners == seat)
        if trick:  # follow suit when able (a revoke is another test's business)
            same = held[held // 13 == trick[0][0]]
            held = same if len(same) else held
        card = int(rng.choice(held))
        owners[card] = -1
        trick.append((card // 13, card % 13 + 2))
    return trump, first, trick, _pbn(owners), k


def _one_legal_card() -> Position:
    """East must follow to a spade lead with the singleton spade he holds: mode 0 returns it unsearched (-2)."""
    return 4, 0, [(0, 14)], "N:.K2.A. 3.AQ.K. 54.J.Q. 6.T3.J.", 4


def _positions() -> list[Position]:
    rng = np.random.default_rng(20261125)
    return [_one_legal_card(), *(_random_ending(rng) for _ in range(30))]


def _requests(positions: list[Position], targets_for) -> list[tuple[Position, int, int, int]]:
    """Every (position, target, solutions, mode); each mode-2 request right after mode 1 on the same position,
    as DDS's documentation asks (mode 2 reuses the transposition table of the call before)."""
    out = []
    for pos in positions:
        for target in targets_for(pos):
            for solutions in SOLUTIONS:
                for mode in MODES:
                    out.append((pos, target, solutions, mode))
    return out


def _out_of_range(positions: list[Position]) -> list[tuple[Position, int, int, int]]:
    """One argument out of DDS's range at a time (mode -1 and 3, solutions 0 and 4, target -2 and one trick more
    than is left), on a few positions: DDS writes a dump file for each, so not the whole grid."""
    out = []
    for pos in positions[:4]:
        out += [(pos, -1, 3, -1), (pos, -1, 3, 3), (pos, -1, 0, 1), (pos, -1, 4, 1)]
        out += [(pos, -2, 1, 1), (pos, pos[4] + 1, 1, 1)]
    return out


def _line(pos: Position, target: int, solutions: int, mode: int) -> str:
    trump, first, trick, pbn, _ = pos
    pairs = [*trick, *[(0, 0)] * (3 - len(trick))]
    flat = " ".join(f"{s} {r}" for s, r in pairs)
    return f"{trump} {first} {target} {solutions} {mode} {len(trick)} {flat} {pbn}"


def _dds_answers(oracle: Path, requests, cwd: Path) -> list[tuple]:
    """DDS's answers from C: ("err", code) or ("ok", ((suit, rank, equals, score), ...))."""
    answers = []
    for words in ask_dds(oracle, [_line(*r) for r in requests], cwd):
        if words[0] == "err":
            answers.append(("err", int(words[1])))
        else:
            nums = list(map(int, words[3:]))
            assert words[0] == "ok" and len(nums) == 4 * int(words[2])
            answers.append(("ok", tuple(tuple(nums[i : i + 4]) for i in range(0, len(nums), 4))))
    return answers


def _ours(pos: Position, target: int, solutions: int, mode: int) -> tuple:
    trump, first, trick, pbn, _ = pos
    played = [SUITS[s] + RANKS[r - 2] for s, r in trick]
    try:
        sols = ddsbind.solve_board(pbn, trump, first, target, solutions, mode, played)
    except errors.DDSError as exc:
        return ("err", exc.code)
    return (
        "ok",
        tuple(
            (c.card.suit, c.card.rank, sum(1 << e.rank for e in c.equals), c.score)
            for c in sols.cards  # DDS's order: the order ddsbind returns them in
        ),
    )


def _compare(requests, dds: list[tuple]) -> None:
    wrong = []
    for req, want in zip(requests, dds, strict=True):
        got = _ours(*req)
        if got != want:
            wrong.append((_line(*req), want, got))
    assert not wrong, f"{len(wrong)} of {len(requests)} differ from DDS, first: {wrong[:3]}"


def test_endings_every_mode_solutions_and_target_as_dds(dds_oracle, tmp_path):
    """solve_board gives DDS's own answer (cards, equals, scores, or the error code) for every mode, solutions and
    target; a user asking for one card, the best cards, or a target gets what DDS says."""
    positions = _positions()
    requests = _requests(positions, lambda pos: range(-1, pos[4] + 1)) + _out_of_range(positions)
    dds = _dds_answers(dds_oracle, requests, tmp_path)
    _compare(requests, dds)
    # The oracle's answers cover what they should: unsearched singletons, unreachable targets (no card), errors.
    scores = {score for kind, cards in dds if kind == "ok" for (_, _, _, score) in cards}
    assert {-2, 0} <= scores, scores
    assert ("ok", ()) in dds
    codes = {code for kind, code in dds if kind == "err"}
    assert {dll_code("RETURN_MODE_WRONG_LO"), dll_code("RETURN_MODE_WRONG_HI")} <= codes
    assert {dll_code("RETURN_SOLNS_WRONG_LO"), dll_code("RETURN_SOLNS_WRONG_HI")} <= codes
    assert {dll_code("RETURN_TARGET_WRONG_LO"), dll_code("RETURN_TARGET_TOO_HIGH")} <= codes


def dll_code(name: str) -> int:
    """A DDS return code by its dll.h name."""
    from ddsbind import dll

    return int(getattr(dll, name))


@pytest.mark.slow
def test_full_deals_every_mode_solutions_and_target_as_dds(dds_oracle, tmp_path, list100):
    """On full deals of DDS's list100.txt too: the targets around the double-dummy result, every solutions and
    mode."""
    positions = [(h.trump, h.first, [], h.deal.to_pbn(), 13) for h in list100[:3]]
    best = {p[3]: h.future.score[0] for p, h in zip(positions, list100[:3], strict=True)}

    def targets(pos: Position) -> list[int]:
        b = best[pos[3]]
        return sorted({-1, 0, max(b - 1, 0), b, min(b + 1, 13)})

    requests = _requests(positions, targets)
    dds = _dds_answers(dds_oracle, requests, tmp_path)
    _compare(requests, dds)
