"""Pavlicek's file checksum.

Specification
-------------
Read the file as unsigned 32-bit little-endian words and add them into a
64-bit total (modulo 2**64), shown in upper-case hexadecimal without leading
zeros.  Pavlicek's files are all multiples of 4 bytes; for other lengths we
zero-pad the last word (our rule, stated here).  Record 0 of his ZRD library
alone (23 bytes, padded to 24) sums to ``2837B89A3``.
"""

from __future__ import annotations

import mmap
import os
from pathlib import Path

import numpy as np

__all__ = ["checksum", "checksum_bytes", "checksum_hex", "verify"]

_CHUNK = 1 << 24  # bytes per step: a multiple of 4, so only the file's last word needs padding


def checksum_bytes(data: bytes | bytearray | memoryview | np.ndarray) -> int:
    """The 64-bit sum of ``data``'s 32-bit little-endian words (last word zero-padded)."""
    buf = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data.reshape(-1)
    buf = buf.view(np.uint8)
    whole = buf.size // 4 * 4
    total = int(buf[:whole].view("<u4").sum(dtype=np.uint64))
    if whole < buf.size:
        tail = bytes(buf[whole:]) + b"\0" * (4 - (buf.size - whole))
        total += int.from_bytes(tail, "little")
    return total % (1 << 64)


def checksum(path: str | os.PathLike[str]) -> int:
    """The checksum of a file, read in memory-mapped chunks (files larger than RAM are fine)."""
    size = Path(path).stat().st_size
    if size == 0:
        return 0
    total = 0
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = np.frombuffer(mm, dtype=np.uint8)
        for start in range(0, size, _CHUNK):
            total += checksum_bytes(view[start : start + _CHUNK])
        del view
    return total % (1 << 64)


def checksum_hex(path: str | os.PathLike[str]) -> str:
    """:func:`checksum` as Pavlicek shows it: upper-case hex, no leading zeros."""
    return f"{checksum(path):X}"


def verify(path: str | os.PathLike[str], published: str | int) -> bool:
    """True when the file's checksum equals ``published`` (hex text, any case, or an int)."""
    if isinstance(published, str):
        want = int(published.strip().removeprefix("0x").removeprefix("0X"), 16)
    else:
        want = int(published)
    return checksum(path) == want
