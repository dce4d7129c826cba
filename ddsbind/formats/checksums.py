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
from typing import BinaryIO

import numpy as np

from ddsbind.errors import FormatError

__all__ = [
    "checksum",
    "checksum_bytes",
    "checksum_hex",
    "format_checksum",
    "matches",
    "parse_checksum",
    "verify",
]

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
    """The checksum of a file, read in chunks (files larger than RAM are fine).

    A regular file is memory-mapped; anything that cannot be (a pipe, a FIFO,
    ``/proc`` files whose size reads as 0) is read as a stream.
    """
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > 0:
            try:
                mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                pass
            else:
                with mm:
                    return _sum_mapped(mm)
        return _sum_stream(f)


def _sum_mapped(mm: mmap.mmap) -> int:
    total = 0
    view = np.frombuffer(mm, dtype=np.uint8)
    try:
        for start in range(0, view.size, _CHUNK):
            total += checksum_bytes(view[start : start + _CHUNK])
    finally:
        del view  # the map cannot close while a view of it lives
    return total % (1 << 64)


def _sum_stream(f: BinaryIO) -> int:
    total = 0
    carry = b""
    while True:
        block = f.read(_CHUNK)
        if not block:
            break
        data = carry + block
        whole = len(data) // 4 * 4
        total += checksum_bytes(data[:whole])
        carry = data[whole:]
    total += checksum_bytes(carry)  # zero-pads the last word
    return total % (1 << 64)


def format_checksum(value: int) -> str:
    """A checksum as Pavlicek shows it: upper-case hex, no leading zeros."""
    return f"{value:X}"


def parse_checksum(published: str | int) -> int:
    """A published checksum (hex text, any case, optional ``0x``; or an int) as an int."""
    if not isinstance(published, str):
        return int(published)
    text = published.strip().removeprefix("0x").removeprefix("0X")
    try:
        return int(text, 16)
    except ValueError:
        raise FormatError(f"checksum {published!r} is not hexadecimal") from None


def matches(value: int, published: str | int) -> bool:
    """True when the checksum ``value`` equals ``published`` (see :func:`parse_checksum`)."""
    return value == parse_checksum(published)


def checksum_hex(path: str | os.PathLike[str]) -> str:
    """:func:`checksum` as Pavlicek shows it: upper-case hex, no leading zeros."""
    return format_checksum(checksum(path))


def verify(path: str | os.PathLike[str], published: str | int) -> bool:
    """True when the file's checksum equals ``published`` (hex text, any case, or an int)."""
    return matches(checksum(path), published)
