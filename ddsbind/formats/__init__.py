"""Pavlicek's binary bridge formats and text deal formats, as numpy codecs.

Pure Python + numpy; nothing here calls DDS.  In memory everything is in
DDS's conventions: owner arrays ``(N, 52)`` int8 (DDS seat N=0 E=1 S=2 W=3 of
each card SA..C2), remainCards masks ``(N, 4, 4)`` uint32, and tables
``(N, 5, 4)`` uint8 (strains S H D C NT x hands N E S W, 15 = unknown).
Pavlicek's orders (seats W N E S, results NT first) are converted in
:mod:`ddsbind.formats.order` only.

Modules: :mod:`.zbs`, :mod:`.zbd`, :mod:`.zdd`, :mod:`.zrd`,
:mod:`.handmakes`, :mod:`.zrj`, :mod:`.checksums`, :mod:`.dealnum`,
:mod:`.pbn`, :mod:`.gib`, :mod:`.ddsref`; game records (a deal as it was bid
and played; the model, :class:`~ddsbind.record.GameRecord`, is
format-neutral): :mod:`.pbngame` (their PBN text), :mod:`.zrjgame` (game records as ZRJ records),
:mod:`.games` (game records in files of any format that holds them),
:mod:`.lin` (BBO's LIN hand records); :mod:`.dataframe` (records as pandas
DataFrames, :func:`read_dataframe`);
:mod:`.registry` (the table of formats: one entry each, asked by the
readers, writers and the CLI), :mod:`.files` (memory-mapped chunked
readers by position, append-safe and atomic writers), :mod:`.convert`.  The rules of
play are :mod:`ddsbind.game`'s; cribbage records live in
:mod:`ddsbind.cribbage`.  :mod:`.order` is the one bridge between
Pavlicek's orders and DDS's (public: the dealer's library mode decodes ZBD
bytes through it).  Private modules, for ``formats`` alone: ``_dtypes``
(record layouts, the unknown result 15), ``_common`` (record views, the end
of a list, the one atomic writer, public as :func:`.files.atomic_output`).
The 16-board cycle (dealer and vulnerability of a board number) is public
here: :func:`board_dealer`, :func:`board_vulnerability`.
"""

from ddsbind.formats._common import reading
from ddsbind.formats.checksums import checksum, checksum_hex, verify
from ddsbind.formats.dataframe import read_dataframe
from ddsbind.formats.dealnum import (
    D,
    deal_from_number,
    deal_number,
    deal_numbers,
    deals_from_numbers,
    ints_from_numbers,
    numbers_from_ints,
)
from ddsbind.formats.files import (
    Chunk,
    RecordWriter,
    append_records,
    count_records,
    iter_chunks,
    read_records,
)
from ddsbind.formats.games import read_games, write_games
from ddsbind.formats.handmakes import decode_hand_makes, encode_hand_makes
from ddsbind.formats.order import board_dealer, board_vulnerability
from ddsbind.formats.zbd import decode_zbd, encode_zbd
from ddsbind.formats.zbs import decode_diagrams, decode_suits, encode_diagrams, encode_suits
from ddsbind.formats.zdd import decode_zdd, encode_zdd
from ddsbind.formats.zrd import decode_zrd, encode_zrd
from ddsbind.formats.zrj import PlayedDeal, decode_zrj, encode_zrj
from ddsbind.record import GameRecord

__all__ = [
    "Chunk",
    "D",
    "GameRecord",
    "PlayedDeal",
    "RecordWriter",
    "append_records",
    "board_dealer",
    "board_vulnerability",
    "checksum",
    "checksum_hex",
    "count_records",
    "deal_from_number",
    "deal_number",
    "deal_numbers",
    "deals_from_numbers",
    "decode_diagrams",
    "decode_hand_makes",
    "decode_suits",
    "decode_zbd",
    "decode_zdd",
    "decode_zrd",
    "decode_zrj",
    "encode_diagrams",
    "encode_hand_makes",
    "encode_suits",
    "encode_zbd",
    "encode_zdd",
    "encode_zrd",
    "encode_zrj",
    "ints_from_numbers",
    "iter_chunks",
    "numbers_from_ints",
    "read_dataframe",
    "read_games",
    "read_records",
    "reading",
    "verify",
    "write_games",
]
