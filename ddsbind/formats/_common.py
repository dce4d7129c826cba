"""Helpers shared by the codecs: record views, validation outcomes, full deals, text, output files."""

from __future__ import annotations

import codecs
import contextlib
import contextvars
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind.deal import Seat, Vulnerability
from ddsbind.errors import DDSError, FieldWarning, FormatError

if TYPE_CHECKING:
    from ddsbind.deal import Deal

OnError = Literal["raise", "skip", "raw"]
_T = TypeVar("_T")
_ON_ERROR = ("raise", "skip", "raw")


#: Whether the reading under way refuses a field it cannot use (``strict=True``, the CLI's ``--strict``).
_STRICT: contextvars.ContextVar[bool] = contextvars.ContextVar("ddsbind_strict_reading", default=False)


@contextlib.contextmanager
def reading(strict: bool | None) -> Iterator[None]:
    """Read (within the block) strictly or leniently: see :func:`set_aside`; None keeps the reading's own rule."""
    if strict is None:
        yield
        return
    token = _STRICT.set(bool(strict))
    try:
        yield
    finally:
        _STRICT.reset(token)


def is_strict() -> bool:
    """True while the reading under way refuses what :func:`set_aside` would only name."""
    return _STRICT.get()


def set_aside(
    board: object,
    tag: str,
    value: str,
    why: str,
    *,
    source: str | None = None,
    index: int | None = None,
    line: int | None = None,
) -> None:
    """The one rule for a field a reader cannot use: named once in a :class:`FieldWarning`, or refused when strict.

    The caller keeps the field as the file wrote it and computes nothing
    from it; ``board`` is the board as the file numbers it (None unknown),
    ``index`` the record (0-based), ``line`` the field's line (1-based) and
    ``source`` the file, when known: the warning's location, or the strict
    refusal's (a ``FormatError`` with those fields, which the caller may
    complete with :meth:`~ddsbind.errors.Error.locate`).
    """
    game = None if index is None else index + 1
    said = None if board is None else str(board)
    warning = FieldWarning(said, tag, value, why, source=source, game=game, line=line)
    if _STRICT.get():
        refused = f'[{tag} "{value[:40]}"] refused (strict reading): {why}'
        on = said if said not in (None, "") and tag != "Board" else None  # a Board tag refused is its own value
        raise FormatError(refused, index=index, board=on, line=line, path=source)
    warnings.warn(warning, stacklevel=3)


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
    check_whole(flat.size, size, what)
    return flat.reshape(flat.size // size, size)


def check_whole(nbytes: int, size: int, what: str) -> None:
    """``FormatError`` naming the truncated record and its byte offset unless ``nbytes`` holds whole records."""
    n, rest = divmod(nbytes, size)
    if rest:
        raise FormatError(f"truncated {what} record: {rest} bytes where {size} are needed", index=n, offset=n * size)


def check_on_error(on_error: str) -> None:
    if on_error not in _ON_ERROR:
        raise FormatError(f"on_error must be one of {_ON_ERROR}, got {on_error!r}")


def first_bad(bad: NDArray[np.bool_], size: int, base: int, what: str, why: str) -> FormatError:
    """The ``FormatError`` for the first True entry of ``bad``."""
    i = int(np.argmax(bad))
    return FormatError(f"{what}: {why}", index=base + i, offset=(base + i) * size)


def apply_on_error(
    bad: NDArray[np.bool_], why: str, on_error: str, size: int, base: int, what: str
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


def checked_records(
    data: ArrayLike | bytes | bytearray | memoryview,
    size: int,
    what: str,
    check: Callable[[NDArray[np.uint8]], tuple[NDArray[np.bool_], str]],
    on_error: str,
    base: int,
) -> NDArray[np.uint8]:
    """The decoders' common first step: ``data`` as ``(N, size)`` records, checked by ``check``.

    ``check`` returns a per-record bad mask and why; ``on_error`` is
    ``"raise"`` (the first bad record's ``FormatError``, numbered from
    ``base``), ``"skip"`` (bad records dropped) or ``"raw"`` (kept as they are).
    """
    check_on_error(on_error)
    recs = records(data, size, what)
    keep = apply_on_error(*check(recs), on_error, size, base, what)
    return recs if keep is None else recs[keep]


def null_records(recs: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True where a record's first 4 bytes are zero (Pavlicek's list terminator)."""
    if recs.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    first = np.ascontiguousarray(recs[:, :4]).view("<u4")[:, 0]
    return first == 0


def end_of_list(recs: NDArray[np.uint8]) -> int:
    """How many of ``recs`` ``(N, size)`` come before the null record (all N when there is none).

    The one place that decides where a list of Pavlicek records ends: every
    reader (whole-file decoders, chunked file readers, record counts) stops
    there.
    """
    nulls = null_records(recs)
    return int(np.argmax(nulls)) if nulls.any() else int(recs.shape[0])


# --------------------------------------------------------------------------
# Full deals as owner arrays: the one check every deal-holding format uses.

_LANES = np.array([0, 8, 16, 24], dtype=np.uint32)
_EVEN = np.uint64(0x5555555555555555)  # the low bit of every 2-bit seat of a word
_ONE, _TWO, _FOUR, _CARRY = (np.uint64(x) for x in (1, 2, 4, 24))


def _popcount_swar(words: NDArray[np.uint64]) -> NDArray[np.uint8]:
    """Set bits of each word, for a numpy without ``bitwise_count`` (before 2.0): the classic bit-slice sum."""
    x = words - ((words >> _ONE) & _EVEN)
    x = (x & np.uint64(0x3333333333333333)) + ((x >> _TWO) & np.uint64(0x3333333333333333))
    x = (x + (x >> _FOUR)) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.uint8)


#: Set bits of each ``uint64`` (numpy's own from 2.0 on).
popcount: Callable[[NDArray[np.uint64]], NDArray[np.uint8]] = getattr(np, "bitwise_count", _popcount_swar)


def deal_words(packed: NDArray[np.uint8]) -> tuple[NDArray[np.uint64], NDArray[np.uint64]]:
    """``(N, 13)`` packed deals (card ``4k + j`` at bits ``2j`` of byte ``k``) as two ``uint64`` per deal.

    The first word holds bytes 0..7 (cards 0..31 at bits ``2 * card``), the
    second bytes 8..12 in its low 40 bits (card ``32 + c`` at bits ``2c``):
    read in place from the rows (unaligned views), whatever their stride.
    """
    if packed.dtype != np.uint8 or packed.ndim != 2 or packed.shape[1] != 13:
        raise FormatError(f"packed deals are (N, 13) uint8, got {packed.dtype} {packed.shape}")
    if packed.strides[1] != 1:
        packed = np.ascontiguousarray(packed)
    low = packed[:, :8].view("<u8")[:, 0]
    high = packed[:, 5:].view("<u8")[:, 0] >> _CARRY  # bytes 5..12, less the three already in ``low``
    return low, high


def not_full(packed: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """True for rows of :func:`pack_seats` bytes (or ZBD bytes) that do not give each seat 13 cards.

    Each seat is a 2-bit code, so a deal is full when each of the four codes
    appears 13 times among its 52 cards: 26 cards with the low bit set (codes
    1 and 3), 26 with the high bit (2 and 3) and 13 with both.  Three
    population counts of the two words of :func:`deal_words` decide, in
    place on the records; whichever order a format gives the seats, the
    counts are the same.
    """
    low, high = deal_words(packed)
    low_half, high_half = low >> _ONE, high >> _ONE
    odd = popcount(low & _EVEN) + popcount(high & _EVEN)
    even = popcount(low_half & _EVEN) + popcount(high_half & _EVEN)
    both = popcount(low & low_half & _EVEN) + popcount(high & high_half & _EVEN)
    return (odd != 26) | (even != 26) | (both != 13)


def pack_seats(owners: NDArray[np.int8]) -> NDArray[np.uint8]:
    """Owners ``(N, 52)`` (seats 0..3) as ``(N, 13)`` bytes: card ``4k + j`` at bits ``2j`` of byte ``k``.

    The seats are packed as they are (no order change); no validation.
    """
    o = np.ascontiguousarray(owners, dtype=np.int8)
    words = o.view(np.uint8).reshape(o.shape[0], 13, 4).view("<u4")[..., 0]  # byte j of word k = card 4k+j
    return ((words | (words >> 6) | (words >> 12) | (words >> 18)) & np.uint32(0xFF)).astype(np.uint8)


def _hand_lengths(row: NDArray[np.int8]) -> str:
    c = [int((row == h).sum()) for h in range(4)]
    return f"N={c[0]} E={c[1]} S={c[2]} W={c[3]} cards (13 each needed)"


def as_owners(deals: ArrayLike, *, full: bool, base: int = 0) -> NDArray[np.int8]:
    """Owner arrays ``(N, 52)`` int8 (DDS seats, -1 absent) from owners or remainCards masks ``(N, 4, 4)``.

    With ``full=True`` every deal must give each hand exactly 13 cards;
    ``FormatError`` names the first deal that does not (its index plus
    ``base``) and its hand lengths.  Values outside -1..3 raise ``ValueError``.
    """
    return _owners(deals, full, base)[0]


def full_deals_packed(deals: ArrayLike, base: int = 0) -> tuple[NDArray[np.int8], NDArray[np.uint8]]:
    """:func:`as_owners` with ``full=True``, plus the owners as :func:`pack_seats` bytes (checked once)."""
    owners, packed = _owners(deals, True, base)
    assert packed is not None
    return owners, packed


def _owners(deals: ArrayLike, full: bool, base: int) -> tuple[NDArray[np.int8], NDArray[np.uint8] | None]:
    d = np.asarray(deals)
    if d.ndim >= 2 and d.shape[-2:] == (4, 4) and d.shape[-1] != 52:
        from ddsbind.deal import masks_to_owners

        d = masks_to_owners(d)
    if d.shape[-1:] != (52,):
        raise FormatError(f"deals must be owner arrays (N, 52) or masks (N, 4, 4), got shape {d.shape}")
    d = d.reshape(-1, 52)
    if d.size and (d.min() < -1 or d.max() > 3):
        raise FormatError("every owner must be a DDS seat 0..3 or -1 (absent)")
    d = np.ascontiguousarray(d, dtype=np.int8)
    if not full:
        return d, None
    absent = (d < 0).any(axis=1) if d.size and d.min() < 0 else None
    if absent is not None:
        i = int(np.argmax(absent))
        raise FormatError(f"not a full deal: {_hand_lengths(d[i])}", index=base + i)
    packed = pack_seats(d)
    bad = not_full(packed)
    if bad.any():
        i = int(np.argmax(bad))
        raise FormatError(f"not a full deal: {_hand_lengths(d[i])}", index=base + i)
    return d, packed


def deals_from_owners(owners: NDArray[np.int8], base: int = 0) -> list[Deal]:
    """:class:`~ddsbind.deal.Deal` s of owner rows; a row that is no deal raises ``FormatError`` with its index."""
    from ddsbind.deal import Deal

    out = []
    for i, row in enumerate(owners):
        try:
            out.append(Deal.from_owners(row))
        except (DDSError, ValueError) as exc:
            # The fault alone: a record DDS never saw carries no DDS code.
            why = exc.detail if isinstance(exc, DDSError) else exc
            raise FormatError(f"not a deal: {why}", index=base + i) from None
    return out


# --------------------------------------------------------------------------
# Text input


def decode_text(data: bytes, encoding: str, name: str, first_line: int = 1) -> str:
    """``data`` decoded, or ``FormatError`` naming ``name``, the line and the column of the first bad byte.

    ``first_line`` is the file's line number of ``data``'s first line (a
    piece of a file read in parts, :func:`text_pieces`).
    """
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + first_line
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = data[exc.start : exc.start + 1].hex()
        raise FormatError(f"byte 0x{bad} at column {col} is not {encoding} text", path=name, line=line) from None


#: Bytes read at a time from a text file (:func:`text_pieces`).
TEXT_BLOCK = 1 << 20


class Utf8Check:
    """Whether bytes fed a block at a time (split anywhere) are valid UTF-8, and whether all are ASCII.

    The one pass over a file's bytes that text readers decide its encoding
    by (PBN's :func:`~ddsbind.formats.pbntext.pbn_encoding`, LIN's
    :func:`~ddsbind.formats.lin.lin_encoding`): memory is a block.
    """

    def __init__(self) -> None:
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self.valid = True
        self.ascii = True

    def feed(self, data: bytes, final: bool = False) -> bool:
        """Take the next bytes (``final`` after the last); returns :attr:`valid` so far."""
        self.ascii = self.ascii and data.isascii()
        if self.valid:
            try:
                self._utf8.decode(data, final=final)
            except UnicodeDecodeError:
                self.valid = False
        return self.valid


def text_pieces(f: IO[bytes], encoding: str, name: str, *, block: int | None = None) -> Iterator[str]:
    """The text of the binary file ``f`` from where it stands, decoded a block of bytes at a time.

    Each piece ends in a line feed but the last, which holds what follows
    the file's last line feed (an empty string when it ends in one): joined,
    the pieces are the whole text, and ``piece.splitlines()`` of each, in
    order, are the whole text's lines.  Memory is a block and the longest
    line, whatever the file's size.  A byte not valid in ``encoding`` raises
    the ``FormatError`` :func:`decode_text` raises for the whole text (the
    same line and column).  ``block`` is bytes a read, :data:`TEXT_BLOCK`
    when None.  An encoding in which a line feed is not the
    byte 0x0a (UTF-16, UTF-32) is decoded whole, as one piece.
    """
    if "\n".encode(encoding, "replace") != b"\n" or "\n\n".encode(encoding, "replace") != b"\n\n":
        yield decode_text(f.read(), encoding, name)
        return
    block = block or TEXT_BLOCK
    line = 1
    held: list[bytes] = []  # the bytes after the last line feed read so far
    while True:
        data = f.read(block)
        if not data:
            break
        cut = data.rfind(b"\n") + 1
        if not cut:
            held.append(data)
            continue
        piece = b"".join([*held, data[:cut]])
        held = [data[cut:]]
        yield decode_text(piece, encoding, name, line)
        line += piece.count(b"\n")
    yield decode_text(b"".join(held), encoding, name, line)


def batched(items: Iterable[_T], n: int) -> Iterator[list[_T]]:
    """Lists of ``n`` items of ``items`` in order (the last may be shorter; none empty)."""
    if n < 1:
        raise FormatError("chunk must be at least 1 record")
    part: list[_T] = []
    for item in items:
        part.append(item)
        if len(part) == n:
            yield part
            part = []
    if part:
        yield part


# --------------------------------------------------------------------------
# Results a file gives, against the solver's


def disagreements(given: ArrayLike, solved: ArrayLike) -> list[str]:
    """Each entry of a table a file gives that the solver's table contradicts, in words.

    ``given`` and ``solved`` are DDS-order ``(5, 4)`` tables (strains S H D C
    NT, declarers N E S W); an entry of ``given`` above 13 is unknown and
    never contradicts.  Entries are named declarer by declarer (N E S W),
    strains NT S H D C: ``"N in NT: 9 given, 10 by DDS"``.  An empty list
    when every known entry agrees.
    """
    from ddsbind.deal import SEAT_LETTERS, Strain

    g = np.asarray(given).reshape(5, 4)
    s = np.asarray(solved).reshape(5, 4)
    out = []
    for seat in range(4):
        for strain in (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C):
            theirs, ours = int(g[strain, seat]), int(s[strain, seat])
            if theirs <= 13 and theirs != ours:
                out.append(f"{SEAT_LETTERS[seat]} in {strain.symbol}: {theirs} given, {ours} by DDS")
    return out


def unsaid(board: int | None) -> tuple[Seat | None, Vulnerability]:
    """A board's dealer and vulnerability where its file does not say them: every reader's one rule.

    Said of a tag that is absent, empty, ``?`` or set aside as unreadable
    (PBN's ``[Dealer]`` and ``[Vulnerable]``, LIN's ``sv|``): the board
    number's place in the 16-board cycle (:meth:`ddsbind.deal.Seat.dealer_of_board`,
    :meth:`~ddsbind.deal.Vulnerability.of_board`) when the board has a
    number 1.., else no dealer (unknown: ``None``) and nobody vulnerable.
    It is the board a player holds: board 2 of a file that names no
    vulnerability is North-South's vulnerable board, as on the duplicate
    board itself.  A game record keeps an unsaid dealer as ``None`` (and
    writes no ``Dealer`` tag back); what needs a seat takes this one.
    """
    if board is None or board < 1:
        return None, Vulnerability.NONE
    return Seat.dealer_of_board(board), Vulnerability.of_board(board)


# --------------------------------------------------------------------------
# Output files: all or nothing


def game_label(board: int | None, index: int) -> str:
    """A game of a file as its readers count it: ``"Board 2 (game 4 of the file)"``, or ``"game 4 of the file"``.

    ``index`` is the game's place in what is read or written, from 0; the
    label counts from 1 and puts first the board number the file gives, so a
    message names the game as the file numbers it.
    """
    place = f"game {index + 1} of the file"
    return place if board is None else f"Board {board} ({place})"


def add_note(exc: BaseException, note: str) -> None:
    """Append ``note`` to the message of ``exc`` (its type and fields unchanged)."""
    if isinstance(exc, OSError) and exc.strerror:
        exc.strerror = f"{exc.strerror}; {note}"
    elif exc.args and isinstance(exc.args[0], str):
        exc.args = (f"{exc.args[0]}; {note}", *exc.args[1:])


@contextlib.contextmanager
def naming(path: str | os.PathLike[str]) -> Iterator[None]:
    """Give a ``FormatError`` raised inside its ``path`` field (rendered first: ``"f.zrd: record 4, ...: why"``)."""
    try:
        yield
    except FormatError as exc:
        if not exc.message.startswith(os.fspath(path)):
            exc.locate(path=path)
        raise


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike[str]) -> Iterator[IO[bytes]]:
    """A binary file that becomes ``path`` only if the ``with`` block succeeds.

    Writes go to a temporary file beside ``path``; on success it is flushed,
    ``fsync`` ed and renamed over ``path``.  On failure the temporary file is
    removed, ``path`` is left as it was (absent, or unchanged), and the
    exception's message says so.  An ``OSError`` names ``path``, not the
    temporary file.  ``"-"`` is standard output (written as it comes: a
    stream cannot be taken back).

    This is the package's one atomic writer: ``RecordWriter(atomic=True)``
    and every whole-file writer go through it.
    """
    if os.fspath(path) == "-":
        out = sys.stdout.buffer
        yield out
        out.flush()
        return
    target = Path(path)
    existed = target.exists()
    _remove_stale_parts(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".part", dir=target.parent)
    except OSError as exc:
        _name_target(exc, path)
        add_note(exc, f"{os.fspath(path)} not written")
        raise
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, target.stat().st_mode & 0o7777 if existed else 0o644)
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.filename in (tmp, None):
            _name_target(exc, path)
        add_note(exc, f"{os.fspath(path)} {'left unchanged' if existed else 'not written'}")
        raise


def _remove_stale_parts(target: Path) -> None:
    """Remove the ``.part`` files an earlier writer of ``target`` left when it was killed (SIGKILL, power loss).

    A part is named ``.NAME.PID.XXXX.part``: it is stale when no process
    ``PID`` runs any more.  A part of a live process (another run writing
    the same target now) is left alone.
    """
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent or "."):
            name = entry.name
            if not (name.startswith(prefix) and name.endswith(".part")):
                continue
            pid = name[len(prefix) :].split(".", 1)[0]
            if pid.isascii() and pid.isdigit() and not _running(int(pid)):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user counts: it may be writing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def _name_target(exc: OSError, path: str | os.PathLike[str]) -> None:
    """Make ``exc`` name the file the user asked for, not the temporary file beside it."""
    exc.filename, exc.filename2 = os.fspath(path), None
