"""The dealer language's ``score()`` and ``imps()``: :mod:`ddsbind.scoring`'s, with the language's spellings.

Scores by the Laws and the WBF IMP scale live in :mod:`ddsbind.scoring`
(doubled and redoubled contracts too); this module reads the language's
contracts (``x3N``) and raises :class:`DealerError` for them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind import scoring
from ddsbind.dealer.dealing import DealerError
from ddsbind.errors import ContractError

__all__ = ["IMP_BOUNDS", "imps", "parse_contract", "score"]

#: The WBF scale: :data:`ddsbind.scoring.IMP_BOUNDS`.
IMP_BOUNDS = scoring.IMP_BOUNDS
_STRAINS = "SHDCN"


def parse_contract(contract: str) -> tuple[int, int]:
    """``"3N"``/``"x3N"``/``"4S"`` -> ``(level 1..7, strain 0..4 = S H D C NT)``; :class:`DealerError` otherwise."""
    text = contract.strip().upper().removeprefix("X").replace("NT", "N")
    if len(text) != 2 or text[0] not in "1234567" or text[1] not in _STRAINS:
        raise DealerError(f"contract {contract!r} is not a level 1-7 and a strain S H D C N")
    return int(text[0]), _STRAINS.index(text[1])


def score(
    vulnerable: bool | ArrayLike, level: int, strain: int, tricks: ArrayLike, doubled: int = 0
) -> NDArray[np.int64]:
    """Declarer's duplicate score of ``level``/``strain`` (``doubled`` 0, 1 X, 2 XX) taking ``tricks``.

    :func:`ddsbind.scoring.score` with the dealer language's argument order.

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
    doubled : int
        0 undoubled (the language's ``score``), 1 doubled, 2 redoubled.

    Returns
    -------
    ndarray of int64
        Positive when the contract makes, negative (undertricks) when it fails.

    Examples
    --------
    >>> int(score(False, 3, 4, 9)), int(score(True, 4, 0, 8))
    (400, -200)
    """
    try:
        return scoring.score(level, strain, doubled, tricks, vulnerable)
    except ContractError as exc:
        raise DealerError(str(exc)) from None


def imps(difference: ArrayLike) -> NDArray[np.int64]:
    """IMPs for a score ``difference`` (WBF scale, :func:`ddsbind.scoring.imps`), with the difference's sign.

    >>> imps([0, 20, -430, 5000]).tolist()
    [0, 1, -10, 24]
    """
    return scoring.imps(difference)
