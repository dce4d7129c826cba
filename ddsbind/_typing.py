"""Type aliases and protocols shared across the package; no native import, so ``ddsbind.formats`` may use them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ddsbind.deal import Deal

#: A progress callback: called with the number of units (records, deals)
#: finished since its last call.  Its return value is ignored, so a tqdm
#: bar's ``update`` fits as it is.
Progress: TypeAlias = Callable[[int], object]


class TablesSolver(Protocol):
    """What solves deals into double-dummy tables for a layer that must not import the solver.

    :func:`ddsbind.dd_tables` is one: called with a list of deals, it
    answers one table per deal, each array-like ``(5, 4)`` of tricks,
    strains S H D C NT by declarers N E S W (DDS order).  ``ddsbind.formats``
    never calls DDS itself: what solves above it passes the solver in
    (:func:`ddsbind.read_dataframe` passes :func:`ddsbind.dd_tables`).
    """

    def __call__(self, deals: Sequence[Deal], /) -> Sequence[ArrayLike]: ...
