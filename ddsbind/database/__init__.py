"""Databases of random deals and their double-dummy tables: generate, verify, statistics.

A database is a ZRD file (deal + DD table, 23 bytes a record) or a ZBD file
(deals only, 13 bytes), made by :func:`generate` from a count and a seed,
with a manifest ``OUT.json`` beside it.

One module per concern:

* :mod:`~ddsbind.database.recipe` -- deal ``k`` of seed ``S`` (Philox), the
  generator's name and version;
* :mod:`~ddsbind.database.manifest` -- ``OUT.json`` / ``OUT.generating.json``,
  validated on reading;
* :mod:`~ddsbind.database.check` -- what makes a record on disk sound;
* :mod:`~ddsbind.database.solving` -- the one door to the solver
  (:func:`tables_of_masks`, :func:`make_records`, :class:`TableFiller`,
  :class:`ThreadsWarning`);
* :mod:`~ddsbind.database.generation` -- :func:`generate`, resumable, local or
  on Dask workers (crash safety is described there);
* :mod:`~ddsbind.database.verification` -- :func:`verify` and its :class:`VerifyReport`;
* :mod:`~ddsbind.database.statistics` -- :func:`stats` and its :class:`DatabaseStats`
  (``lines()``, ``to_dict()``, ``plot()``).
"""

from __future__ import annotations

from ddsbind.database.generation import generate
from ddsbind.database.manifest import Manifest, generating_path, manifest_path
from ddsbind.database.recipe import GENERATOR, GENERATOR_VERSION, deal_numbers_for, make_deals
from ddsbind.database.solving import TableFiller, ThreadsWarning, make_records, tables_of_masks
from ddsbind.database.statistics import DatabaseStats, stats
from ddsbind.database.verification import VerifyReport, verify
from ddsbind.errors import DatabaseError

__all__ = [
    "GENERATOR",
    "GENERATOR_VERSION",
    "DatabaseError",
    "DatabaseStats",
    "Manifest",
    "TableFiller",
    "ThreadsWarning",
    "VerifyReport",
    "deal_numbers_for",
    "generate",
    "generating_path",
    "make_deals",
    "make_records",
    "manifest_path",
    "stats",
    "tables_of_masks",
    "verify",
]
