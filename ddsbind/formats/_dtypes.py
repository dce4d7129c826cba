"""On-disk record dtypes of Pavlicek's binary formats, with explicit byte order.

Every field is either single bytes (``u1``, byte order irrelevant) or an
explicitly little-endian integer (``<u4``).  The codecs view a file as an
``(N, itemsize)`` ``uint8`` array and use these dtypes for sizes, field
offsets and structured access (``np.frombuffer(buf, ZRD)['dd']``).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "DEAL_NUMBER",
    "HAND_MAKES",
    "INVALID",
    "UNKNOWN",
    "ZBD",
    "ZBS",
    "ZDD",
    "ZRD",
    "ZRJ",
]

#: A result (tricks) not known: the value 15 in every result nibble and in DDS-order tables ``(N, 5, 4)``.
UNKNOWN = 15
#: A result nibble that is never valid (14): a record holding it is malformed.
INVALID = 14

#: ZBS: one suit layout, a little-endian 32-bit word (bit 0 group flag, bits 1-31 locator).
ZBS = np.dtype("<u4")

#: ZBD: 13 bytes, 52 two-bit seat codes (W=0 N=1 E=2 S=3), card i at bits 2i..2i+1.
ZBD = np.dtype([("deal", "u1", (13,))])

#: ZDD: 10 bytes, 20 nibbles; nibble 4*strain+seat, strains NT S H D C, seats W N E S.
ZDD = np.dtype([("dd", "u1", (10,))])

#: ZRD: ZBD followed by ZDD, 23 bytes.
ZRD = np.dtype([("deal", "u1", (13,)), ("dd", "u1", (10,))])

#: The 16-byte record: ZBD, then hand (bits 0-1 of byte 13), makes nibbles NT S H D C.
HAND_MAKES = np.dtype([("deal", "u1", (13,)), ("hand_makes", "u1", (3,))])

#: ZRJ: 80-byte played-deal record (our reading, see ``zrj``).
ZRJ = np.dtype(
    [
        ("deal", "u1", (13,)),
        ("board", "u1"),
        ("contract", "u1"),
        ("result", "u1"),
        ("calls_end", "u1"),
        ("plays_end", "u1"),
        ("moves", "u1", (62,)),
    ]
)

#: A deal number, 12 bytes little-endian (numbers are below 2**96; :mod:`.dealnum`).
DEAL_NUMBER = np.dtype([("number", "u1", (12,))])
