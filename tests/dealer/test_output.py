"""Dealer's printing and end-of-run reports (ddsbind.dealer.output) against their oracles.

``evalcontract_text``'s figures follow DealerV2's source (``showevalcontract``):
missed games and slams compare undoubled scores, and 13 tricks compare the grand slam.
"""

from __future__ import annotations

import numpy as np

from ddsbind.dealer.output import evalcontract_text
from ddsbind.scoring import Contract


def _counts(**tricks: int) -> np.ndarray:
    counts = np.zeros(14, dtype=np.int64)
    for t, n in tricks.items():
        counts[int(t[1:])] = n
    return counts


def test_evalcontract_compares_thirteen_tricks_with_the_grand_slam() -> None:
    """4S making 13 non-vulnerable misses 7S: 1510 - 510 = 14 IMPs (oracle: DealerV2's source), not 6S+1's 11."""
    text = evalcontract_text("NS", Contract.parse("4S"), False, _counts(t13=1))
    assert "Missed Slam_pct=100.00" in text
    assert text.rstrip().endswith("Missed Slam Imps/board=14.00")


def test_evalcontract_twelve_and_thirteen_tricks_against_six_and_seven() -> None:
    """3NT nv with 12 tricks misses 6NT (990 - 490, 11 IMPs), with 13 misses 7NT (1520 - 520, 14): 12.50 (DealerV2)."""
    text = evalcontract_text("NS", Contract.parse("3N"), False, _counts(t12=1, t13=1))
    assert "Missed Slam_pct=100.00" in text and text.rstrip().endswith("Missed Slam Imps/board=12.50")
    assert "Missed Game_pct=0.00" in text  # 3NT is game


def test_evalcontract_doubled_contract_misses_game_by_undoubled_scores() -> None:
    """2SX nv making 10 tricks: DealerV2 compares 4S 420 with 2S undoubled 170 (6 IMPs), not with 2SX's 670."""
    text = evalcontract_text("EW", Contract.parse("2SX"), False, _counts(t10=2))
    first, second = text.splitlines()
    assert first == "Contract 2SX NV by EW Average Result = 670.00, Made pct=100.00, Fail pct=0.00"
    assert "Missed Game_pct=100.00" in second and "Missed Game Imps/board=6.00" in second
