"""Cribbage game records (HALSCRIB's Code64), apart from the bridge code.

Cribbage is not bridge: its :class:`Card` (ranks ace..king, suits S H D C as
the record numbers them) and :class:`Deal` (two players' hands, discards,
starter and pegging) have nothing to do with :class:`ddsbind.deal.Card` and
:class:`ddsbind.deal.Deal`.  The codec and its byte-level reading are in
:mod:`ddsbind.cribbage.code64`; ``ddsbind.formats.cribbage`` is the same
module under its old name.  Nothing here loads DDS.
"""

from ddsbind.cribbage.code64 import (
    DEAL_BITS,
    HEADER_BITS,
    MAX_DEALS,
    MAX_JSON_CHARS,
    MAX_SCORE,
    MAX_TEXT_CHARS,
    NO_PLAY,
    Card,
    Deal,
    Play,
    Session,
    decode,
    encode,
    from_json,
    from_json_text,
    record_length,
    to_json,
    validate,
)

__all__ = [
    "DEAL_BITS",
    "HEADER_BITS",
    "MAX_DEALS",
    "MAX_JSON_CHARS",
    "MAX_SCORE",
    "MAX_TEXT_CHARS",
    "NO_PLAY",
    "Card",
    "Deal",
    "Play",
    "Session",
    "decode",
    "encode",
    "from_json",
    "from_json_text",
    "record_length",
    "to_json",
    "validate",
]
