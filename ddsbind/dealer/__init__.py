"""Simulations: deal to constraints (exact, reproducible, vectorised), dealer's language, double dummy, statistics.

- :mod:`~ddsbind.dealer.dealing`: :class:`Predeal`, :func:`deal_batch`,
  :func:`deal_batches`, :class:`Hands` (HCP, lengths, controls, losers... as
  ``(n, 4, 4)`` arrays ``[deal, seat N E S W, suit S H D C]``).
- :mod:`~ddsbind.dealer.conditions`: :func:`deal_to` (deal to a Python condition over
  :class:`~ddsbind.hands.HandArrays`, with predeal and seed).
- :mod:`~ddsbind.dealer.language`: :func:`parse` (lark grammar ``dealer.lark``).
- :mod:`~ddsbind.dealer.run`: :func:`run`, :func:`run_file`.
- :mod:`~ddsbind.dealer.scoring`: :func:`score`, :func:`imps`.
- :mod:`~ddsbind.dealer.output`: dealer's text formats.
- :mod:`~ddsbind.dealer.statistics`: :func:`simulate`, :func:`contract_report`,
  :func:`lead_table` (make probabilities with standard errors, tricks, IMPs, leads).
- :mod:`~ddsbind.dealer.files`: :func:`write_deals` (PBN, ZBD, ZRD... via the registry).
"""

from __future__ import annotations

from ddsbind.dealer.conditions import Sample, deal_to
from ddsbind.dealer.dealing import BATCH, DEALER_VERSION, DealerError, Hands, Predeal, deal_batch, deal_batches
from ddsbind.dealer.files import write_deals
from ddsbind.dealer.language import Script, parse
from ddsbind.dealer.run import Run, run, run_file
from ddsbind.dealer.scoring import imps, score
from ddsbind.dealer.statistics import Contract, ContractReport, LeadTable, contract_report, lead_table, simulate

__all__ = [
    "BATCH",
    "DEALER_VERSION",
    "Contract",
    "ContractReport",
    "DealerError",
    "Hands",
    "LeadTable",
    "Predeal",
    "Run",
    "Sample",
    "Script",
    "contract_report",
    "deal_batch",
    "deal_batches",
    "deal_to",
    "imps",
    "lead_table",
    "parse",
    "run",
    "run_file",
    "score",
    "simulate",
    "write_deals",
]
