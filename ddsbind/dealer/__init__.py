"""Simulations: deal to constraints (exact, reproducible, vectorised), dealer's language, double dummy, statistics.

- :mod:`~ddsbind.dealer.dealing`: :class:`Predeal`, :func:`deal_batch`,
  :func:`deal_batches`, :class:`Hands` (HCP, lengths, controls, losers... as
  ``(n, 4, 4)`` arrays ``[deal, seat N E S W, suit S H D C]``).
- :mod:`~ddsbind.dealer.language`: :func:`parse` (lark grammar ``dealer.lark``).
- :mod:`~ddsbind.dealer.run`: :func:`run`, :func:`run_file`.
- :mod:`~ddsbind.dealer.scoring`: :func:`score`, :func:`imps`.
- :mod:`~ddsbind.dealer.output`: dealer's text formats.
"""

from __future__ import annotations

from ddsbind.dealer.dealing import BATCH, DEALER_VERSION, DealerError, Hands, Predeal, deal_batch, deal_batches
from ddsbind.dealer.files import write_deals
from ddsbind.dealer.language import Script, parse
from ddsbind.dealer.run import Run, run, run_file
from ddsbind.dealer.scoring import imps, score

__all__ = [
    "BATCH",
    "DEALER_VERSION",
    "DealerError",
    "Hands",
    "Predeal",
    "Run",
    "Script",
    "deal_batch",
    "deal_batches",
    "imps",
    "parse",
    "run",
    "run_file",
    "score",
    "write_deals",
]
