"""Helpers shared by the binary codecs: record views, validation outcomes."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.errors import FormatError

OnError = Literal["raise", "skip", "raw"]
_ON_ERROR = ("raise", "skip", "raw")

#: The 2-bit field of card ``i`` within a ZBD byte: bits 2*(i%4)..
_SHIFTS = np.array([0, 2, 4, 6], dtype=np.uint8)


def records(data: ArrayLike | bytes | bytearray | memoryview, size: int, what: str) -> NDArray[np.uint8]:
    """View ``data`` (bytes or a uint8 array) as ``(N, size)`` uint8 records, without copying.

    A byte string whose length is not a multiple of ``size`` raises
    ``FormatError`` naming the truncated record and its byte offset.
    """
    if isinstance(data, bytes | bytearray | memoryview):
        arr = np.frombuffer(data, dtype=np.uint8)
    else:
        arr = np.asarray(data)
        if arr.dtype != np.uint8:
            if arr.dtype.kind == "V" and arr.dtype.itemsize == size:
                arr = arr.view(np.uint8).reshape(-1, size)
            else:
                raise TypeError(f"{what} records must be bytes or a uint8 array, got dtype {arr.dtype}")
    if arr.ndim == 2 and arr.shape[1] == size:
        return arr
    flat = arr.reshape(-1)
    n, rest = divmod(flat.size, size)
    if rest:
        raise FormatError(f"truncated {what} record: {rest} bytes where {size} are needed", index=n, offset=n * size)
    return flat.reshape(n, size)


def check_on_error(on_error: str) -> None:
    if on_error not in _ON_ERROR:
        raise ValueError(f"on_error must be one of {_ON_ERROR}, got {on_error!r}")


def first_bad(bad: NDArray[np.bool_], size: int, base: int, what: str, why: str) -> FormatError:
    """The ``FormatError`` for the first True entry of ``bad``."""
    i = int(np.argmax(bad))
    return FormatError(f"{what}: {why}", index=base + i, offset=(base + i) * size)


def apply_on_error(
    bad: NDArray[np.bool_], on_error: str, size: int, base: int, what: str, why: str
) -> NDArray[np.intp] | None:
    """Raise for ``on_error="raise"``; for ``"skip"`` return the indices of good rows.

    Returns None when every row is kept (no bad row, or ``"raw"``).
    """
    if not bad.any():
        return None
    if on_error == "raise":
        raise first_bad(bad, size, base, what, why)
    if on_error == "skip":
        return np.flatnonzero(~bad)
    return None


def null_records(recs: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True where a record's first 4 bytes are zero (Pavlicek's list terminator)."""
    if recs.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    first = np.ascontiguousarray(recs[:, :4]).view("<u4")[:, 0]
    return first == 0


def terminated(recs: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The records before the first null record (all of them if none)."""
    nulls = null_records(recs)
    if nulls.any():
        return recs[: int(np.argmax(nulls))]
    return recs
