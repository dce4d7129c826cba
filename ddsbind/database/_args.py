"""Checks of the integer arguments every database entry point takes (counts, seeds, threads)."""

from __future__ import annotations

import operator

import numpy as np

from ddsbind.errors import DatabaseError


def whole(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` as an int in ``low .. high``; ``DatabaseError`` naming ``name`` otherwise.

    Only true integers pass (``int`` and numpy integers): ``2.7``, ``"5"``
    and ``True`` are refused rather than rounded, parsed or counted as 1.
    """
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise DatabaseError(f"{name} must be an integer, got {value!r} ({type(value).__name__})")
    v = operator.index(value)
    if v < low or (high is not None and v > high):
        span = f"at least {low}" if high is None else f"in {low} .. {high}"
        raise DatabaseError(f"{name} must be an integer {span}, got {v}")
    return v


def optional_whole(value: object, name: str, low: int) -> int | None:
    """:func:`whole` that lets None through (None: the default of that argument)."""
    return None if value is None else whole(value, name, low)
