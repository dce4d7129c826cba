"""Dealing to a Python condition: the dealer's exact sampling, a numpy function as the condition.

:func:`deal_to` deals batch after batch of the dealer's recipe
(:func:`~ddsbind.dealer.dealing.deal_batch`: every completion of the
predeal equally likely, a pure function of the seed) and keeps the deals a
condition accepts.  The condition takes the batch's
:class:`~ddsbind.hands.Hands` (``hcp``, ``lengths``, ``controls``,
``losers``, ``owners``... as arrays) and returns a boolean mask, so it runs
once per batch of 16,384 deals, not once per deal.

Examples
--------
>>> sample = deal_to(lambda h: (h.hcp[:, 0] >= 20) & (h.lengths[:, 0].max(axis=1) <= 5), 10, seed=1)
>>> len(sample), bool((sample.hands.hcp[:, 0] >= 20).all())
(10, True)
"""

from __future__ import annotations

import dataclasses
import functools
import secrets
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Vulnerability
from ddsbind.dealer.dealing import BATCH, DealerError, Predeal, check_seed, deal_batch, ordered_map
from ddsbind.hands import Hands
from ddsbind.scoring import Contract

__all__ = ["Sample", "deal_to"]

Condition = Callable[[Hands], ArrayLike]


@dataclasses.dataclass(frozen=True)
class Sample:
    """Deals a condition accepted, and how many were dealt to find them.

    Attributes
    ----------
    owners : ndarray, shape (k, 52), int8
        The accepted deals, DDS seat of each card SA..C2, in the order dealt.
    generated : int
        Deals dealt (accepted or not).
    seed : int
        The seed: the same seed, predeal and condition give the same deals.
    """

    owners: NDArray[np.int8]
    generated: int
    seed: int

    def __len__(self) -> int:
        return int(self.owners.shape[0])

    @property
    def acceptance(self) -> float:
        """The share of dealt deals the condition accepted."""
        return len(self) / self.generated if self.generated else float("nan")

    @functools.cached_property
    def hands(self) -> Hands:
        """The accepted deals' :class:`~ddsbind.hands.Hands`."""
        return Hands(self.owners)

    def dd_tables(self, threads: int | None = None) -> NDArray[np.int8]:
        """Double-dummy tables ``(k, 5, 4)`` ``[deal, strain S H D C NT, declarer N E S W]``, solved once, kept."""
        cached = self.__dict__.get("_tables")
        if cached is None:
            from ddsbind.dealer.statistics import tables_of_owners

            cached = tables_of_owners(self.owners, threads)
            object.__setattr__(self, "_tables", cached)
        return cached

    def dd_scores(
        self, contract: str | Contract, vulnerable: Vulnerability | str | int = "none", threads: int | None = None
    ) -> NDArray[np.int64]:
        """Declarer's double-dummy score of ``contract`` (with its declarer: ``"4S by N"``) on every deal.

        For :func:`ddsbind.payoff`: ``payoff({"3NT": s.dd_scores("3NT by S"), "4S": s.dd_scores("4S by N")})``.
        """
        c = Contract.parse(contract)
        if c.declarer is None:
            raise DealerError(f"give the declarer of {c}: '{c} by N'")
        tricks = self.dd_tables(threads)[:, int(c.strain), int(c.declarer)]
        return c.scores(tricks, Vulnerability.parse(vulnerable))

    def deals(self) -> list[Any]:
        """The accepted deals as :class:`ddsbind.Deal` objects (for a diagram, a solve...)."""
        from ddsbind.deal import Deal

        return [Deal.from_owners(row) for row in self.owners]


def _predeal(predeal: Predeal | Mapping[str, str] | None) -> Predeal:
    if predeal is None:
        return Predeal()
    if isinstance(predeal, Predeal):
        return predeal
    if isinstance(predeal, Mapping):
        return Predeal.from_hands(dict(predeal))
    raise DealerError(f"predeal must be a Predeal or a mapping of seats to cards, got {type(predeal).__name__}")


def deal_to(
    condition: Condition | None,
    count: int,
    *,
    predeal: Predeal | Mapping[str, str] | None = None,
    seed: int | None = None,
    max_deals: int = 10_000_000,
    threads: int | None = 1,
) -> Sample:
    """Deal until ``count`` deals satisfy ``condition`` (or ``max_deals`` have been dealt).

    Parameters
    ----------
    condition : callable or None
        ``condition(hands) -> mask``: ``hands`` is a :class:`~ddsbind.hands.Hands`
        of one batch of ``n`` deals, the mask ``(n,)`` of bools (or 0/1) says
        which to keep.  None keeps every deal.
    count : int
        Deals wanted.
    predeal : Predeal or dict, optional
        Cards given before dealing: ``{"S": "SAQ542,HKJ87,D32,CAK"}`` (seat
        letter or name to holdings, as :meth:`Predeal.from_hands` reads them).
    seed : int, optional
        ``0 .. 2**128-1``; None draws one (kept in the result's ``seed``).
    max_deals : int
        Stop after this many deals dealt, with a warning, even when fewer
        than ``count`` were accepted (dealer's ``generate``).
    threads : int or None
        Threads dealing ahead (None: one per core); the deals do not depend on it.

    Returns
    -------
    Sample
        The first ``count`` accepted deals in dealing order (the recipe's
        batches ``0, 1, ...`` of ``seed``), the number dealt, and the seed.

    Raises
    ------
    DealerError
        A bad seed, predeal or count; a condition whose answer is not one bool per deal.
    """
    if isinstance(count, bool) or not isinstance(count, int | np.integer) or count < 0:
        raise DealerError(f"count must be a whole number >= 0, got {count!r}")
    if isinstance(max_deals, bool) or not isinstance(max_deals, int | np.integer) or max_deals < 1:
        raise DealerError(f"max_deals must be a whole number >= 1, got {max_deals!r}")
    if condition is not None and not callable(condition):
        raise DealerError(f"the condition must be a function of the batch's arrays, got {type(condition).__name__}")
    seed = check_seed(secrets.randbits(64) if seed is None else seed)
    pre = _predeal(predeal)
    batches = (min(BATCH, max_deals - k * BATCH) for k in range(-(-max_deals // BATCH)))
    kept: list[NDArray[np.int8]] = []
    found = generated = 0
    stream = ordered_map(lambda item: deal_batch(seed, item[0], pre, item[1]), enumerate(batches), threads)
    for owners in stream if count else ():
        generated += owners.shape[0]
        if condition is None:
            mask = np.ones(owners.shape[0], dtype=bool)
        else:
            mask = _mask(condition(Hands(owners)), owners.shape[0])
        chosen = owners[mask][: count - found]
        kept.append(chosen)
        found += chosen.shape[0]
        if found >= count:
            # Deals after the last one kept were not needed: count them as not dealt.
            last = np.flatnonzero(mask)[chosen.shape[0] - 1] if chosen.shape[0] else -1
            generated -= owners.shape[0] - (last + 1)
            break
    if found < count:
        warnings.warn(f"only {found} of {count} deals satisfied the condition in {generated} deals dealt", stacklevel=2)
    owners_all = np.concatenate(kept) if kept else np.empty((0, 52), dtype=np.int8)
    return Sample(owners_all, generated, seed)


def _mask(answer: ArrayLike, n: int) -> NDArray[np.bool_]:
    mask = np.asarray(answer)
    if mask.shape != (n,):
        raise DealerError(f"the condition must return one bool per deal, shape ({n},); it returned shape {mask.shape}")
    if mask.dtype != bool:
        if mask.dtype.kind not in "iu" or ((mask != 0) & (mask != 1)).any():
            raise DealerError(f"the condition must return bools (or 0/1) per deal, got {mask.dtype} values")
        mask = mask.astype(bool)
    return mask
