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

import contextlib
import os
from typing import BinaryIO

import numpy as np

from ddsbind._typing import Progress
from ddsbind.errors import FormatError

__all__ = [
    "Checksum",
    "checksum",
    "checksum_bytes",
    "checksum_hex",
    "format_checksum",
    "matches",
    "parse_checksum",
    "verify",
]

_CHUNK = 1 << 24  # bytes read at a time


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


class Checksum:
    """Pavlicek's checksum built up from a file's bytes given in order, in pieces of any size.

    ``update`` takes the next bytes; ``value`` is the checksum of everything
    given so far (the last word zero-padded), so a reader that already
    holds each chunk of a file (``ddsbind stats``, ``verify``) sums it on the
    way instead of reading the file twice.

    Examples
    --------
    >>> c = Checksum()
    >>> c.update(b"\\x01\\x00"); c.update(b"\\x00\\x00\\x02")
    >>> format_checksum(c.value)
    '3'
    """

    def __init__(self) -> None:
        self._total = 0
        self._carry = b""
        self.nbytes = 0

    def update(self, data: bytes | bytearray | memoryview | np.ndarray) -> None:
        """Add the next bytes of the file."""
        buf = np.frombuffer(data, dtype=np.uint8) if not isinstance(data, np.ndarray) else data.reshape(-1)
        buf = buf.view(np.uint8)
        self.nbytes += int(buf.size)
        if self._carry:
            need = 4 - len(self._carry)
            head = self._carry + bytes(buf[:need])
            buf = buf[need:]
            if len(head) < 4:
                self._carry = head
                return
            self._total += int.from_bytes(head, "little")
            self._carry = b""
        whole = buf.size // 4 * 4
        self._total += checksum_bytes(buf[:whole])
        self._carry = bytes(buf[whole:])

    @property
    def value(self) -> int:
        """The checksum of the bytes given so far."""
        return (self._total + checksum_bytes(self._carry)) % (1 << 64)


def checksum(path: str | os.PathLike[str], *, chunk: int = _CHUNK, progress: Progress | None = None) -> int:
    """The checksum of a file, read a few megabytes at a time (files larger than RAM are fine).

    The file (a regular file, a pipe, a FIFO, a ``/proc`` file whose size
    reads as 0) is read as a stream into one reused buffer: memory stays
    that buffer's (``chunk`` bytes), whatever the file's size.  ``progress``
    is called with the bytes read after each step.
    """
    with open(path, "rb", buffering=0) as f:
        if hasattr(os, "posix_fadvise"):
            with contextlib.suppress(OSError):
                os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_SEQUENTIAL)
        return _sum_stream(f, chunk, progress)


def _sum_stream(f: BinaryIO, chunk: int = _CHUNK, progress: Progress | None = None) -> int:
    if chunk < 1:
        raise FormatError("chunk must be at least 1 byte")
    acc = Checksum()
    buf = np.empty(chunk, dtype=np.uint8)
    view = buf.data
    while True:
        n = f.readinto(view)  # type: ignore[attr-defined]
        if not n:
            break
        acc.update(buf[:n])
        if progress is not None:
            progress(n)
    return acc.value


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
