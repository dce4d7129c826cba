"""Simulations: deal to constraints (exact, reproducible, vectorised), dealer's language, double dummy, statistics.

- :mod:`~ddsbind.dealer.dealing`: :class:`Predeal`, :func:`deal_batch`,
  :func:`deal_batches`; :class:`Hands` is :class:`ddsbind.hands.Hands` (HCP,
  lengths, controls, losers... per hand ``(n, 4)``, ``*_by_suit``
  ``(n, 4, 4)`` ``[deal, seat N E S W, suit S H D C]``).
- :mod:`~ddsbind.dealer.kernel`: the compiled dealing kernel and the
  generators' names (``--generator``; a name and a seed deal the same deals
  in every release).
- :mod:`~ddsbind.dealer.conditions`: :func:`deal_to` (deal to a Python condition over
  :class:`~ddsbind.hands.Hands`, with predeal and seed).
- :mod:`~ddsbind.dealer.language`: :func:`parse`; the language is
  :mod:`~ddsbind.dealer.syntax` (lark grammar ``dealer.lark``),
  :mod:`~ddsbind.dealer.compiler` and :mod:`~ddsbind.dealer.frame`.
- :mod:`~ddsbind.dealer.run`: :func:`run`, :func:`run_file`; a run's settings are
  :mod:`~ddsbind.dealer.settings`' :class:`DealSource`, :class:`Limits`, :class:`Outputs`.
- :mod:`~ddsbind.dealer.scoring`: :func:`score`, :func:`imps`.
- :mod:`~ddsbind.dealer.output`: dealer's text formats.
- :mod:`~ddsbind.dealer.statistics`: :func:`simulate`, :func:`contract_report`,
  :func:`lead_table` (make probabilities with standard errors, tricks, IMPs, leads).
- :mod:`~ddsbind.dealer.files`: :func:`write_deals` (PBN, ZBD, ZRD... via the registry).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ddsbind.dealer.dealing import BATCH, DEALER_VERSION, DealerError, Hands, Predeal, deal_batch, deal_batches

# Not lazy: the function ``run`` shares its name with the module ``ddsbind.dealer.run``, and importing
# that module (as anything may, first) sets the package attribute to the module.  Binding the function
# here, after the import, keeps ``from ddsbind.dealer import run`` the function whatever came first.
from ddsbind.dealer.run import Run, run, run_file
from ddsbind.dealer.settings import DealSource, Limits, Outputs

if TYPE_CHECKING:
    from ddsbind.dealer.conditions import Sample, deal_to
    from ddsbind.dealer.files import write_deals
    from ddsbind.dealer.language import Script, parse
    from ddsbind.dealer.scoring import imps, score
    from ddsbind.dealer.statistics import ContractReport, LeadTable, contract_report, lead_table, simulate

# Imported on first use (PEP 562): `ddsbind dealer` on a small script loads neither the format
# registry nor the statistics, and starts faster.
_LAZY = {
    "Sample": "conditions",
    "deal_to": "conditions",
    "write_deals": "files",
    "Script": "language",
    "parse": "language",
    "imps": "scoring",
    "score": "scoring",
    **dict.fromkeys(["ContractReport", "LeadTable", "contract_report", "lead_table", "simulate"], "statistics"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"ddsbind.dealer.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "BATCH",
    "DEALER_VERSION",
    "ContractReport",
    "DealSource",
    "DealerError",
    "Hands",
    "LeadTable",
    "Limits",
    "Outputs",
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
