"""The dealer language's ``score()`` and ``imps()``: :mod:`ddsbind.scoring`'s, under the dealer package's names.

Scores by the Laws, the WBF IMP scale and the one :class:`~ddsbind.scoring.Contract`
(which reads the language's ``x3N`` and DealerV2's ``z4Hx`` too) live in
:mod:`ddsbind.scoring`; nothing is computed here.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind._typing import renamed
from ddsbind.scoring import IMP_BOUNDS, imps
from ddsbind.scoring import score as _score

__all__ = ["IMP_BOUNDS", "imps", "score"]


@renamed(vulnerable="declarer_vulnerable")
def score(
    declarer_vulnerable: bool | ArrayLike, level: int, strain: int, tricks: ArrayLike, doubled: int = 0
) -> NDArray[np.int64]:
    """:func:`ddsbind.scoring.score` in the order the dealer language's ``score(vul, x3N, tricks)`` reads.

    ``declarer_vulnerable`` is declarer's side's (``vulnerable=``, its former name, is
    deprecated); ``strain`` 0..4 = S H D C NT;
    ``doubled`` 0, 1 X, 2 XX.  As the language's ``score()``, tricks beyond
    0..13 are scored by the same rules, as Debian's dealer does
    (:func:`ddsbind.scoring.score`'s ``extrapolate``: ``score(nv, x3N, 14)``
    is 550).  Raises :class:`~ddsbind.errors.ContractError` for a value
    out of range.

    >>> int(score(False, 3, 4, 9)), int(score(True, 4, 0, 8)), int(score(False, 3, 4, 14))
    (400, -200, 550)
    """
    return _score(level, strain, doubled, tricks, declarer_vulnerable, extrapolate=True)
