"""Duplicate scores of undoubled contracts and the IMP scale, over numpy arrays (no DDS)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.dealer.dealing import DealerError

__all__ = ["IMP_BOUNDS", "imps", "parse_contract", "score"]

#: A score difference above ``IMP_BOUNDS[i]`` (absolute value) is worth at least ``i + 1`` IMPs.
IMP_BOUNDS = np.array(
    [
        10,
        40,
        80,
        120,
        160,
        210,
        260,
        310,
        360,
        420,
        490,
        590,
        740,
        890,
        1090,
        1290,
        1490,
        1740,
        1990,
        2240,
        2490,
        2990,
        3490,
        3990,
    ],
    dtype=np.int64,
)
_STRAINS = "SHDCN"


def parse_contract(contract: str) -> tuple[int, int]:
    """``"3N"``/``"x3N"``/``"4S"`` -> ``(level 1..7, strain 0..4 = S H D C NT)``; :class:`DealerError` otherwise."""
    text = contract.strip().upper().removeprefix("X").replace("NT", "N")
    if len(text) != 2 or text[0] not in "1234567" or text[1] not in _STRAINS:
        raise DealerError(f"contract {contract!r} is not a level 1-7 and a strain S H D C N")
    return int(text[0]), _STRAINS.index(text[1])


def score(vulnerable: bool | ArrayLike, level: int, strain: int, tricks: ArrayLike) -> NDArray[np.int64]:
    """Declarer's duplicate score of the undoubled contract ``level``/``strain`` taking ``tricks``.

    Parameters
    ----------
    vulnerable : bool or array of bool
        Declarer's side vulnerable.
    level : int
        1 .. 7.
    strain : int
        0 .. 4 = spades, hearts, diamonds, clubs, notrump.
    tricks : array_like of int
        Tricks taken by declarer, 0 .. 13.

    Returns
    -------
    ndarray of int64
        Positive when the contract makes, negative (undertricks) when it fails.

    Examples
    --------
    >>> int(score(False, 3, 4, 9)), int(score(True, 4, 0, 8))
    (400, -200)
    """
    t = np.asarray(tricks, dtype=np.int64)
    vul = np.asarray(vulnerable, dtype=bool)
    per_trick = 20 if strain in (2, 3) else 30
    contract_points = per_trick * level + (10 if strain == 4 else 0)
    bonus = np.where(contract_points >= 100, np.where(vul, 500, 300), 50)
    if level == 6:
        bonus = bonus + np.where(vul, 750, 500)
    elif level == 7:
        bonus = bonus + np.where(vul, 1500, 1000)
    over = t - (level + 6)
    made = contract_points + bonus + per_trick * np.maximum(over, 0)
    down = -np.where(vul, 100, 50) * np.maximum(-over, 0)
    return np.where(over >= 0, made, down).astype(np.int64)


def imps(difference: ArrayLike) -> NDArray[np.int64]:
    """IMPs for a score ``difference`` (WBF scale), with the difference's sign.

    >>> imps([0, 20, -430, 5000]).tolist()
    [0, 1, -10, 24]
    """
    d = np.asarray(difference, dtype=np.int64)
    magnitude = np.searchsorted(IMP_BOUNDS, np.abs(d), side="left")
    return (np.sign(d) * magnitude).astype(np.int64)
