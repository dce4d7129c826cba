"""Cribbage game records (HALSCRIB's Code64), apart from the bridge code.

Cribbage is not bridge: its :class:`Card` (ranks ace..king, suits S H D C as
the record numbers them) and :class:`Deal` (two players' hands, discards,
starter and pegging) have nothing to do with :class:`ddsbind.deal.Card` and
:class:`ddsbind.deal.Deal`.  The records and their rules are in
:mod:`ddsbind.cribbage.records`; the codec and its byte-level reading in
:mod:`ddsbind.cribbage.code64`, which re-exports the records' names.  Nothing
here loads DDS.
"""

from ddsbind.cribbage import code64
from ddsbind.cribbage.code64 import *  # noqa: F403  (the public names, listed once in code64.__all__)

__all__ = list(code64.__all__)
