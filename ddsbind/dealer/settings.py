"""A dealer run's settings: where its deals come from, its limits and its outputs, as three small frozen objects.

:func:`ddsbind.dealer.run` takes them (``run(script, DealSource(seed), Limits(produce=10), Outputs(out=sys.stdout))``),
so settings that travel together are checked once, when made, each
refusal naming the setting (:class:`~ddsbind.errors.DealerError`), and
passed on whole; the ``ddsbind dealer`` command builds each once from its
options.  ``run``'s keyword form (``run(script, seed, produce=10,
out=sys.stdout)``) fills the same objects: :data:`SETTINGS` says which
keyword belongs to which.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.dealer.dealing import SWAPS, DealerError, check_generator, check_seed
from ddsbind.dealer.kernel import DEFAULT_GENERATOR

if TYPE_CHECKING:
    from ddsbind.dealer.library import Library

__all__ = ["SETTINGS", "DealSource", "Limits", "Outputs", "settings_of"]


@dataclasses.dataclass(frozen=True)
class DealSource:
    """Where a run's deals come from: dealt from ``seed`` by ``generator``, or given (``deals``) or read (``library``).

    Parameters
    ----------
    seed : int
        ``0 .. 2**128 - 1``; dealt deals depend on it and ``generator`` alone
        (not on threads or workers).  In library mode it keys only ``rnd()``.
    generator : str
        Which generator deals (:data:`ddsbind.dealer.kernel.GENERATORS`).
    swap : int
        dealer's ``-0``/``-2``/``-3``: each deal followed by its East-West
        (2) or East-South-West (3) rearrangements.
    deals : ndarray, shape (n, 52), int8, optional
        Run over these deals (owner rows, DDS seats N=0 E=1 S=2 W=3) instead
        of dealing; stored as a read-only ``(n, 52)`` int8 array.
    library : path or Library, optional
        Library mode (:mod:`ddsbind.dealer.library`): a solved database's
        records in file order, each once.  Not with ``deals`` or ``swap``.

    Raises
    ------
    DealerError
        A bad seed, generator or swap, or a library beside other deals.
    """

    seed: int
    generator: str = DEFAULT_GENERATOR
    swap: int = 0
    deals: NDArray[np.int8] | None = None
    library: str | os.PathLike[str] | Library | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seed", check_seed(self.seed))
        object.__setattr__(self, "generator", check_generator(self.generator))
        if self.swap not in SWAPS:
            raise DealerError(f"swap must be 0, 2 or 3, got {self.swap!r}")
        if self.deals is not None:
            deals = np.asarray(self.deals, dtype=np.int8).reshape(-1, 52).view()  # the caller's array stays writable
            deals.setflags(write=False)
            object.__setattr__(self, "deals", deals)
        if self.library is not None and (self.deals is not None or self.swap):
            raise DealerError("library mode reads its deals from the library: no deals or swapping besides")


@dataclasses.dataclass(frozen=True)
class Limits:
    """When a run stops: whichever of its limits comes first, as in dealer.

    Parameters
    ----------
    generate : int, optional
        Most deals dealt (dealer's ``-g``; default: the script's, else
        10,000,000; given ``deals``: their number; a library: its records).
    produce : int, optional
        Most deals accepted (dealer's ``-p``; default: the script's, else 40
        for a script that prints deals, else every deal generated).
    time_limit : float, optional
        Seconds (dealer's ``-t``): stop then if no deal was produced yet
        (``Run.timed_out`` says so).

    Raises
    ------
    DealerError
        A negative limit, naming it.
    """

    generate: int | None = None
    produce: int | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        for name in ("generate", "produce", "time_limit"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise DealerError(f"{name} must not be negative, got {value!r}")


@dataclasses.dataclass(frozen=True)
class Outputs:
    """What a run writes and hands back as it goes.

    Parameters
    ----------
    out : text stream, optional
        Where printing actions write (default: nothing printed).
    source : str
        The script's name as PBN's Event tag shows it (dealer's ``(null)``
        for standard input).
    quiet_pbn : bool
        dealer's ``-q``: ``printpbn`` prints nothing.
    csv, export : text streams, optional
        Where DealerV2's ``csvrpt`` and ``export`` actions write (default:
        ``out``, with the other printing actions, in deal order).
    keep : bool
        Keep the accepted deals (and their tables) in the result.
    sink : callable, optional
        ``sink(owners, tables)`` with each batch's accepted deals ``(n, 52)``
        and their tables ``(n, 5, 4)`` (-1 where not solved; None when the
        script reads no results), so that memory does not grow with the
        deals accepted.
    progress : callable, optional
        Called with the number of deals generated since its last call.
    """

    out: TextIO | None = None
    source: str = "-"
    quiet_pbn: bool = False
    csv: TextIO | None = None
    export: TextIO | None = None
    keep: bool = False
    sink: Callable[[NDArray[np.int8], NDArray[np.int8] | None], object] | None = None
    progress: Progress | None = None


#: Which object each of ``run``'s keywords fills (its field of the same name).
SETTINGS: dict[str, type[DealSource | Limits | Outputs]] = {
    **{f.name: DealSource for f in dataclasses.fields(DealSource) if f.name != "seed"},
    **{f.name: Limits for f in dataclasses.fields(Limits)},
    **{f.name: Outputs for f in dataclasses.fields(Outputs)},
}


def settings_of(
    source: DealSource | int,
    limits: Limits | None,
    outputs: Outputs | None,
    keywords: dict[str, Any],
) -> tuple[DealSource, Limits, Outputs]:
    """The three objects of a run, from objects, keywords (``produce=10``: :data:`SETTINGS`), or both.

    ``source`` an int is the seed (the other fields from ``keywords`` or
    their defaults).  A keyword overrides its field of an object given; one
    that is no setting is a ``TypeError``, as Python's own.
    """
    unknown = sorted(set(keywords) - set(SETTINGS))
    if unknown:
        raise TypeError(f"run() got an unexpected keyword argument {unknown[0]!r}")

    def of(cls: type[Any], given: Any, *first: Any) -> Any:
        fields = {k: v for k, v in keywords.items() if SETTINGS[k] is cls}
        if given is None:
            return cls(*first, **fields)
        return dataclasses.replace(given, **fields) if fields else given

    deal_source = of(DealSource, source) if isinstance(source, DealSource) else of(DealSource, None, source)
    return deal_source, of(Limits, limits), of(Outputs, outputs)
