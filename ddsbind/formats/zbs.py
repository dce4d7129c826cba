"""ZBS: one suit layout in 32 bits, and diagrams built from them (Pavlicek).

Byte-level specification
------------------------
* Each record is one little-endian 32-bit word.
* Bit 0: the group flag; 1 = the next word belongs to the same group
  (diagram), 0 = this word ends its group.
* Bits 1-31: the locator ``L``, ``0 <= L < 5**13 = 1,220,703,125``; a larger
  value is rejected (``FormatError``).  ``L`` is 13 base-5 digits; the least
  significant digit places the ace, the next the king, ..., the most
  significant the two.  Digit 0 = unused, 1 West, 2 North, 3 East, 4 South
  (Pavlicek's seat code + 1; ddsbind converts to DDS seats through
  :mod:`ddsbind.formats.order`).
* Old files put the ace in the most significant digit: pass
  ``reverse=True``; ddsbind never guesses the digit order.
* A group lists suits S, H, D, C in that order.  Inside a group an empty suit
  is the word 1 (empty, flag set); trailing empty suits are left out (the
  last word of a group must have flag 0, and an empty suit with flag 0 would
  be the null word).  So a group has 1 to 4 words; more than 4 is rejected.
* A stand-alone word (flag 0, alone in its group) is a single suit layout;
  spades is assumed.
* The null word (0: every card unused, flag 0) ends a list.  Data after it is
  ignored.  A list that ends inside a group (last word flagged) is rejected.

Worked example (the deal of ZRD record 0), bytes as in the file::

    7b 87 78 68 | fd e0 76 43 | eb 37 df 5e | ec 96 9c 56     flags 1, 1, 1, 0

and North holding AKQ with South holding 432 of one suit, the rest unused,
flag 0: ``b4 e1 5a 90``.

In memory a diagram is an owner array ``(52,)`` int8: the DDS seat of each
card SA..C2 (N=0 E=1 S=2 W=3), -1 for an unused card.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.errors import FormatError
from ddsbind.formats import order
from ddsbind.formats._common import as_owners

__all__ = [
    "LOCATOR_LIMIT",
    "decode_diagrams",
    "decode_suits",
    "encode_diagrams",
    "encode_suits",
]

#: Locators are below 5**13.
LOCATOR_LIMIT = 5**13
_POW5 = 5 ** np.arange(13, dtype=np.uint64)  # digit k (k = 0 ace .. 12 two) weight, normal order


def _weights(reverse: bool) -> NDArray[np.uint64]:
    return _POW5[::-1].copy() if reverse else _POW5


def encode_suits(digits: ArrayLike, flags: ArrayLike = False, *, reverse: bool = False) -> NDArray[np.uint32]:
    """Encode suit layouts as ZBS words.

    Parameters
    ----------
    digits : array_like, shape (..., 13)
        Location of each card, ace first: 0 unused, 1 W, 2 N, 3 E, 4 S.
    flags : array_like of bool, shape (...)
        The group flag of each word (1 = the next word is in the same group).
    reverse : bool
        Use the old digit order (ace most significant).

    Returns
    -------
    ndarray, shape (...), dtype '<u4'
    """
    d = np.asarray(digits)
    if d.shape[-1:] != (13,):
        raise FormatError(f"a suit layout has 13 locations (ace first), got shape {d.shape}")
    if d.size and (d.min() < 0 or d.max() > 4):
        raise FormatError("ZBS locations are 0 (unused), 1 W, 2 N, 3 E or 4 S")
    loc = (d.astype(np.uint64) * _weights(reverse)).sum(axis=-1, dtype=np.uint64)
    f = np.asarray(flags).astype(np.uint64)
    return ((loc << np.uint64(1)) | f).astype("<u4")


def decode_suits(
    words: ArrayLike, *, reverse: bool = False, base: int = 0
) -> tuple[NDArray[np.uint8], NDArray[np.bool_]]:
    """Decode ZBS words.

    Parameters
    ----------
    words : array_like of int, or bytes
        32-bit words (bytes are read as little-endian words).
    reverse : bool
        The old digit order (ace most significant).
    base : int
        Index of the first word in its file, for error messages.

    Returns
    -------
    digits : ndarray, shape (N, 13), uint8
        Location of each card, ace first: 0 unused, 1 W, 2 N, 3 E, 4 S.
    flags : ndarray, shape (N,), bool

    Raises
    ------
    FormatError
        A locator ``>= 5**13``, with the word's index and byte offset.
    """
    w = _as_words(words).astype(np.uint64)
    loc = w >> np.uint64(1)
    bad = loc >= LOCATOR_LIMIT
    if bad.any():
        i = int(np.argmax(bad))
        raise FormatError(f"ZBS locator {int(loc[i])} is not below 5**13", index=base + i, offset=4 * (base + i))
    digits = (loc[:, None] // _weights(reverse)) % np.uint64(5)
    return digits.astype(np.uint8), (w & np.uint64(1)).astype(bool)


def _truncated(nbytes: int) -> FormatError:
    """The error for a list of ``nbytes`` bytes, not a whole number of words."""
    n = nbytes // 4
    return FormatError(f"truncated ZBS word: {nbytes % 4} bytes", index=n, offset=4 * n)


def _as_words(words: ArrayLike | bytes) -> NDArray[np.uint32]:
    if isinstance(words, bytes | bytearray | memoryview):
        if len(words) % 4:
            raise _truncated(len(words))
        return np.frombuffer(words, dtype="<u4")
    w = np.asarray(words)
    if w.dtype == np.uint8:
        return _as_words(w.tobytes())
    w = w.reshape(-1)
    if w.size and (w.min() < 0 or w.max() > 0xFFFFFFFF):
        raise FormatError("ZBS words are 32-bit unsigned integers")
    return w.astype(np.uint32)


def _owners_to_digits(owners: NDArray[np.integer]) -> NDArray[np.uint8]:
    o = owners.astype(np.int16)
    return np.where(o < 0, 0, order.pav_seats(np.clip(o, 0, 3)) + 1).astype(np.uint8)


def encode_diagrams(
    diagrams: NDArray[np.integer] | Iterable[ArrayLike], *, reverse: bool = False, terminate: bool = True
) -> NDArray[np.uint32]:
    """Encode diagrams (full deals, endings, any layout) as a ZBS word list.

    Parameters
    ----------
    diagrams : array or iterable of array_like, shape (G, 52)
        Owner arrays: DDS seat of each card SA..C2, or -1 for unused.  Masks
        ``(G, 4, 4)`` (or ``Deal`` s) are accepted too.  A diagram must place
        at least one card.
    reverse : bool
        Write the old digit order (ace most significant).
    terminate : bool
        Append the null word that ends a list.

    Returns
    -------
    ndarray, dtype '<u4'
        The words in file order; ``.tobytes()`` gives the file.
    """
    # One array per item (a generator is read once): numpy then stacks them as it would a nested list.
    o = as_owners(diagrams if isinstance(diagrams, np.ndarray) else [np.asarray(d) for d in diagrams], full=False)
    g = o.shape[0]
    digits = _owners_to_digits(o).reshape(g, 4, 13)
    loc = (digits.astype(np.uint64) * _weights(reverse)).sum(axis=-1, dtype=np.uint64)  # (G, 4)
    nonempty = loc > 0
    if g and not nonempty.any(axis=1).all():
        i = int(np.argmax(~nonempty.any(axis=1)))
        raise FormatError(f"diagram {i} places no card; ZBS cannot store it (it would be the null word)")
    last = 3 - np.argmax(nonempty[:, ::-1], axis=1)  # index of the last non-empty suit
    suit = np.arange(4)
    keep = suit[None, :] <= last[:, None]
    flag = (suit[None, :] < last[:, None]).astype(np.uint64)
    words = ((loc << np.uint64(1)) | flag)[keep].astype("<u4")
    if terminate:
        words = np.concatenate([words, np.zeros(1, dtype="<u4")])
    return words


def decode_diagrams(words: ArrayLike | bytes, *, reverse: bool = False) -> NDArray[np.int8]:
    """Decode a ZBS word list into diagrams, stopping at the null word.

    Parameters
    ----------
    words : bytes or array_like of int
        The file's bytes or its 32-bit words.
    reverse : bool
        The old digit order (ace most significant).

    Returns
    -------
    ndarray, shape (G, 52), int8
        One owner array per group: DDS seat of each card SA..C2, -1 unused;
        suits a group leaves out are unused.

    Raises
    ------
    FormatError
        A bad locator, a group of more than 4 words, or a list ending
        inside a group; with the word index and byte offset.
    """
    w = _as_words(words)
    nulls = np.flatnonzero(w == 0)
    if nulls.size:
        w = w[: nulls[0]]
    return _groups(w, 0, reverse)


def read_diagrams(f: IO[bytes], *, chunk: int = 1 << 18, reverse: bool = False) -> Iterator[NDArray[np.int8]]:
    """:func:`decode_diagrams` of an open file's bytes, ``chunk`` words at a time: ``(G, 52)`` owners per read.

    Memory is one read's, whatever the file's size; errors are
    :func:`decode_diagrams`'s, with the word's index and byte offset in the
    file, raised when the reading reaches them (a group of more than 4 words
    at its fifth word).
    """
    if chunk < 1:
        raise FormatError("chunk must be at least 1 word")
    start = f.tell()
    size = f.seek(0, os.SEEK_END) - start
    f.seek(start)
    if size % 4:
        raise _truncated(size)
    base = 0  # file index of held[0]
    held = np.zeros(0, np.uint32)  # words of a group not yet ended
    while True:
        data = f.read(4 * chunk)
        w = np.concatenate([held, np.frombuffer(data, "<u4")])
        nulls = np.flatnonzero(w == 0)
        done = not data or bool(nulls.size)
        if nulls.size:
            w = w[: nulls[0]]
        ends = np.flatnonzero((w & 1) == 0)
        cut = w.shape[0] if done else int(ends[-1]) + 1 if ends.size else 0
        if cut:
            out = _groups(w[:cut], base, reverse)
            if out.shape[0]:
                yield out
        held, base = w[cut:], base + cut
        if held.shape[0] > 4:  # a group longer than any: its fifth word is wrong whatever follows
            _groups(held[:5], base, reverse, open_end=True)
        if done:
            return


def _groups(w: NDArray[np.uint32], base: int, reverse: bool, *, open_end: bool = False) -> NDArray[np.int8]:
    """Diagrams of whole words before the null word, the first ``base`` words into the file.

    ``open_end``: the words stop inside a group that goes on (not an error).
    """
    digits, flags = decode_suits(w, reverse=reverse, base=base)
    n = w.shape[0]
    if n and flags[-1] and not open_end:
        i = base + n - 1
        raise FormatError("ZBS list ends inside a group (last word has its flag set)", index=i, offset=4 * i)
    ends = ~flags
    group = np.cumsum(ends, dtype=np.intp) - ends  # group number of each word
    starts = np.concatenate([[0], np.flatnonzero(ends)[:-1] + 1]) if n else np.zeros(0, dtype=np.intp)
    pos = np.arange(n) - starts[group] if n else np.zeros(0, dtype=np.intp)
    if n and pos.max() > 3:
        i = base + int(np.argmax(pos > 3))
        raise FormatError("ZBS group has more than 4 suits", index=i, offset=4 * i)
    g = int(ends.sum())
    seats = np.where(digits > 0, order.dds_seats(np.maximum(digits, 1) - 1).astype(np.int8), np.int8(-1))
    out = np.full((g, 4, 13), -1, dtype=np.int8)
    out[group, pos] = seats
    return out.reshape(g, 52)
