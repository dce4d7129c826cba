"""The table of formats: one :class:`Format` object per format, its codec, registered once.

:mod:`ddsbind.formats.files`, :mod:`ddsbind.formats.convert` and the CLI ask
this table what a format is (name, file extensions, record size or text,
what it holds: :attr:`Format.contents`) and how to tell (:meth:`Format.sniff`),
decode, encode, stream and validate it; none of them branches on a format's
name.  A built-in format is a subclass of :class:`Format` whose methods are its
codec (the end of this module); adding one is one :func:`register` call,
of such an object or of a ``Format(...)`` made from functions.  A path's
format is decided once (:func:`guess`) and the :class:`Format` passed on:
every reader's ``format=`` takes it as well as a name.

Two kinds of entry:

* **fixed-size records** (``record_size`` set): ``check`` flags bad records
  (and says why), ``decode`` turns whole records into arrays without
  validation, ``encode`` turns arrays into records (validating its input).
  Files of them are memory-mapped and read in chunks (:mod:`.files`).
* **whole files** (``record_size`` None: text, or variable-length words):
  ``load`` turns the file's bytes into arrays, ``dump`` arrays into bytes;
  ``read``, where a format has it, reads an open file a chunk of records
  at a time (PBN, GIB, DDS's reference text, LIN, ZBS), so that a reader
  of a large file holds one chunk, not the file.

A format that can also carry played games (auction and play, as
:class:`~ddsbind.record.GameRecord`) has a :class:`GameCodec` (``games``):
game records read and written whole or a batch at a time, and what of them
the format cannot hold; ``plays`` marks the formats whose records *are*
played games (LIN, ZRJ), and the codec's ``holds`` tells whether a file of a
format that may hold either (PBN) holds game records, so that converting
game records into a format that holds them keeps auction and play
(:mod:`.games`).

Arrays travel as :class:`Records`, in DDS's orders: owners ``(n, 52)`` int8
(DDS seat of SA..C2, -1 absent), tables ``(n, 5, 4)`` uint8 (strains S H D C
NT x hands N E S W, 15 = unknown).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ddsbind._typing import renamed
from ddsbind.deal import Seat, Vulnerability
from ddsbind.errors import FormatError
from ddsbind.formats import _dtypes, ddsref, gib, handmakes, lin, pbn, pbngame, zbd, zbs, zdd, zrd, zrj, zrjgame
from ddsbind.formats._common import OnError, apply_on_error, as_owners, batched, deals_from_owners
from ddsbind.record import GameRecord

__all__ = [
    "Format",
    "FormatLike",
    "GameCodec",
    "Records",
    "by_content",
    "by_extension",
    "formats",
    "get",
    "guess",
    "register",
]


#: A board of a text format: a deal and maybe its double-dummy table (and the file's tags, dealer, vulnerability).
Board = pbn.PBNBoard | ddsref.ReferenceHand


@dataclass(init=False)
class Records:
    """A batch of records as arrays, in DDS's orders.

    Attributes
    ----------
    owners : ndarray, shape (n, 52), int8, or None
        DDS seat (N=0 E=1 S=2 W=3) of each card SA..C2; -1 absent.
    tables : ndarray, shape (n, 5, 4), uint8, or None
        Strains S H D C NT x hands N E S W; 15 = unknown.
    hand : ndarray, shape (n,), uint8, or None
        For one-hand formats (``hand-makes``): the hand, as a DDS seat.
    makes : ndarray, shape (n, 5), uint8, or None
        That hand's tricks as declarer, strains S H D C NT.
    dealers : ndarray, shape (n,), int8, or None
        Each record's dealer, as a DDS seat (N=0 E=1 S=2 W=3), written
        where the target holds it (PBN's Dealer, LIN's ``md|``); None
        follows the board cycle of board ``k + 1``.  Given as one
        :class:`~ddsbind.deal.Seat` (a dealer script's ``dealer``), it is
        every record's.  ``dealer=``, its former spelling for one seat, is
        deprecated.
    vulnerabilities : ndarray, shape (n,), int8, or None
        The same for each record's vulnerability, as DDS's code (0 none,
        1 both, 2 NS, 3 EW; :class:`~ddsbind.deal.Vulnerability`), one
        Vulnerability being every record's; ``vulnerable=`` deprecated.
    pars : list of (int, list of str), or None
        Each record's par as the file gives it (DDS's ``DealerPar``: North-South's
        score, the contracts as DDS writes them), written where the target holds it (PBN).

    Raises
    ------
    FormatError
        ``dealers`` or ``vulnerabilities`` not one value a record.
    """

    owners: NDArray[np.int8] | None
    tables: NDArray[np.uint8] | None
    hand: NDArray[np.uint8] | None
    makes: NDArray[np.uint8] | None
    dealers: NDArray[np.int8] | None
    vulnerabilities: NDArray[np.int8] | None
    pars: list[tuple[int, list[str]]] | None

    @renamed(dealer="dealers", vulnerable="vulnerabilities")
    def __init__(
        self,
        owners: NDArray[np.int8] | None = None,
        tables: NDArray[np.uint8] | None = None,
        hand: NDArray[np.uint8] | None = None,
        makes: NDArray[np.uint8] | None = None,
        *,
        dealers: Seat | ArrayLike | None = None,
        vulnerabilities: Vulnerability | ArrayLike | None = None,
        pars: list[tuple[int, list[str]]] | None = None,
    ) -> None:
        self.owners, self.tables, self.hand, self.makes, self.pars = owners, tables, hand, makes, pars
        self.dealers = self._each("dealers", dealers)
        self.vulnerabilities = self._each("vulnerabilities", vulnerabilities)

    def _each(self, name: str, given: ArrayLike | None) -> NDArray[np.int8] | None:
        """``given`` as one int8 value a record: one value broadcast to every record."""
        if given is None:
            return None
        values = np.asarray(given, dtype=np.int8)
        if values.ndim == 0:
            return np.full(len(self), values, np.int8)
        if values.shape != (len(self),):
            raise FormatError(f"{name}: {values.size} values for {len(self)} records (give one, or one a record)")
        return values

    def __len__(self) -> int:
        for a in (self.owners, self.tables, self.hand):
            if a is not None:
                return int(a.shape[0])
        return 0


class GameCodec:
    """How a format reads and writes game records (:class:`~ddsbind.record.GameRecord`: auction, play, result).

    Attributes
    ----------
    load : callable
        ``load(data, name) -> list[GameRecord]`` for a whole file's bytes
        (``name`` for messages).
    dump : callable
        ``dump(games) -> bytes``.
    read : callable
        ``read(file, name, chunk) -> iterator of lists of GameRecord``:
        ``load`` of an open binary file, at most ``chunk`` records a batch
        (none empty), in memory of one batch.
    write : callable
        ``write(batches, out) -> int``: ``dump`` of every batch's records
        written to an open binary file, in memory of one batch.
    holds : callable, optional
        ``holds(file, name) -> bool``: whether an open binary file holds
        game records, for a format whose files may hold bare deals instead;
        None when every file of the format that is read as games does.
    unheld : callable, optional
        ``unheld(games) -> list of str``: what of these game records the
        format cannot hold, in words; said once as a warning when writing them.
    """

    load: Callable[[bytes, str], list[GameRecord]]
    dump: Callable[[Sequence[GameRecord]], bytes]
    read: Callable[[IO[bytes], str, int], Iterator[list[GameRecord]]]
    write: Callable[[Iterable[Sequence[GameRecord]], IO[bytes]], int]
    holds: Callable[[IO[bytes], str], bool] | None = None
    unheld: Callable[[Sequence[GameRecord]], list[str]] | None = None


class Format:
    """One format as one object, its codec: what it holds, how its files are told, read, streamed and written.

    A built-in format is a subclass whose methods are its codec (the table
    at the end of this module); a format registered by a user is made from
    its name, extensions, contents and functions
    (``Format("raw52", (".r52",), deals=True, results=False, load=..., dump=...)``).
    What a format lacks is None.

    Attributes
    ----------
    name : str
        The name users give (``--from``/``--to``, ``format=``).
    extensions : tuple of str
        File extensions (lower case, with the dot) that name this format.
    deals, results : bool
        Whether a record holds a deal, and double-dummy results.
    record_size : int or None
        Bytes per record for fixed-size records; None for whole files.
    check : callable, optional
        ``check(recs) -> (bad, why)``: bad-record flags of ``(n, size)``
        uint8 records and why the first is bad.
    decode : callable, optional
        ``decode(recs) -> Records``, no validation.
    encode : callable, optional
        ``encode(Records) -> (n, size) uint8``, validating its input.
    load : callable, optional
        ``load(data, name) -> Records`` for a whole file's bytes (``name``
        for messages).
    dump : callable, optional
        ``dump(Records) -> bytes``.  None with ``dump_part``: ``head`` of the
        count (if any), then the one part ``dump_part(records, 0, True)``.
    plays : bool
        Each record is a played game (auction, play), not just a deal.
    games : GameCodec, optional
        How the format reads and writes game records; None for a format
        that holds none.
    annotate : callable, optional
        ``annotate(file, name, fill, par, chunk) -> iterator of (bytes, count)``:
        an open binary file with double-dummy results (and par, with ``par``)
        added and everything else kept, read and solved ``chunk`` games at a
        time: the new file's bytes in pieces, and the games each completes;
        used when converting a file of this format to itself
        (:func:`ddsbind.formats.pbn.iter_add_results`).
    extras : callable, optional
        ``extras(file, name) -> list of str``: what an open binary file holds beyond deals
        and results, in words (``"board numbers"``, ``"dealers"``, ...): what a
        conversion deal by deal drops, said once as a warning.
    read : callable, optional
        ``read(file, name, chunk) -> iterator of Records``: an open binary
        file read from where it stands, at most ``chunk`` records a batch
        (none empty): what ``load`` gives of its bytes, in memory of one
        batch.  None: the format is read whole (``load``).
    dump_part : callable, optional
        ``dump_part(records, first, last) -> bytes``: records ``first ..``
        of a file written part by part, ``last`` for the final part; the
        parts joined are ``dump`` of all the records, so a converter writes
        a large input in memory of one part.  None: written whole.
    head : callable, optional
        ``head(count) -> bytes``: what a file written part by part starts
        with once its record count is known (DDS's ``NUMBER`` line): the
        parts go to a temporary file first (:class:`~ddsbind.formats.files.BatchWriter`).
    boards : callable, optional
        ``boards(file, name) -> iterator of boards``: an open binary file's
        deals one by one with what the file says of each (a
        :class:`~ddsbind.formats.pbn.PBNBoard`'s tags, a reference hand's
        dealer and vulnerability), for a text format of deals that holds
        more than deals and results (:func:`ddsbind.formats.read_dataframe`).
    starts : compiled bytes pattern, optional
        What the text of a file of this format starts with (after a
        byte-order mark and blank space), matched to tell the format of a
        file whose name does not (:func:`by_content`); None for a format not
        told by its content.
    """

    name: str
    extensions: tuple[str, ...] = ()
    deals: bool = True
    results: bool = False
    record_size: int | None = None
    plays: bool = False
    games: GameCodec | None = None
    starts: re.Pattern[bytes] | None = None
    check: Callable[[NDArray[np.uint8]], tuple[NDArray[np.bool_], str]] | None = None
    decode: Callable[[NDArray[np.uint8]], Records] | None = None
    encode: Callable[[Records], NDArray[np.uint8]] | None = None
    load: Callable[[bytes, str], Records] | None = None
    dump: Callable[[Records], bytes] | None = None
    annotate: (
        Callable[[IO[bytes], str, pbn.Fill | None, pbn.ParFunc | None, int], Iterator[tuple[bytes, int]]] | None
    ) = None
    extras: Callable[[IO[bytes], str], list[str]] | None = None
    dump_part: Callable[[Records, int, bool], bytes] | None = None
    read: Callable[[IO[bytes], str, int], Iterator[Records]] | None = None
    head: Callable[[int], bytes] | None = None
    boards: Callable[[IO[bytes], str], Iterable[Board]] | None = None

    def __init__(
        self,
        name: str | None = None,
        extensions: tuple[str, ...] | None = None,
        deals: bool | None = None,
        results: bool | None = None,
        **given: Any,
    ) -> None:
        # A built-in format is a subclass saying all of it; a user's is made from its name and functions.
        for key, value in (("name", name), ("extensions", extensions), ("deals", deals), ("results", results)):
            if value is not None:
                setattr(self, key, value)
        unknown = sorted(set(given) - set(_GIVEN))
        if unknown:
            raise TypeError(f"Format() got unexpected keyword arguments {unknown} (it takes {', '.join(_GIVEN)})")
        for key, value in given.items():
            setattr(self, key, value)
        if not hasattr(self, "name"):
            raise TypeError("a Format needs a name")
        if self.dump is None and self.dump_part is not None:
            self.dump = self._dump_whole

    def _dump_whole(self, records: Records) -> bytes:
        """``dump`` of a format written part by part: ``head`` of the count (if any), then the one part."""
        assert self.dump_part is not None
        return (b"" if self.head is None else self.head(len(records))) + self.dump_part(records, 0, True)

    def __repr__(self) -> str:
        return f"<Format {self.name} {self.contents}>"

    @property
    def contents(self) -> tuple[str, ...]:
        """What a file of the format holds, in words: ``"deals"``, ``"results"``, ``"games"`` (game records)."""
        held = (("deals", self.deals), ("results", self.results), ("games", self.games is not None))
        return tuple(word for word, holds in held if holds)

    def sniff(self, head: bytes) -> bool:
        """Whether a file's first bytes (a byte-order mark and blank space removed) are this format's text."""
        return self.starts is not None and self.starts.match(head) is not None

    @property
    def fixed(self) -> bool:
        """True for fixed-size records (memory-mapped, chunked, appendable)."""
        return self.record_size is not None

    def holds_games(self, path: str | os.PathLike[str]) -> bool:
        """Whether the file at ``path`` (of this format) is read as game records, not bare deals.

        True for a format whose records are played games (``plays``); for
        one whose files may hold either (PBN), what its codec's ``holds``
        finds in the file; False for a format that holds no game records.
        """
        if self.games is None:
            return False
        if self.plays:
            return True
        if self.games.holds is None:
            return False
        with open(path, "rb") as f:
            return self.games.holds(f, os.fspath(path))

    @property
    def readable(self) -> bool:
        return self.decode is not None or self.load is not None

    @property
    def writable(self) -> bool:
        return self.encode is not None or self.dump is not None

    def validate(
        self, recs: NDArray[np.uint8], base: int = 0, on_error: OnError = "raise"
    ) -> tuple[NDArray[np.bool_], NDArray[np.intp] | None]:
        """Check fixed-size records: ``(bad flags, indices to keep or None)``.

        ``on_error="raise"`` raises ``FormatError`` with the first bad
        record's index (``base`` + row) and byte offset, worded by the codec.
        """
        if self.check is None or self.record_size is None:
            return np.zeros(recs.shape[0], dtype=bool), None
        bad, why = self.check(recs)
        return bad, apply_on_error(bad, why, on_error, self.record_size, base, self.name.upper())


#: What :class:`Format` takes as keyword arguments besides its name, extensions and contents.
_GIVEN = (
    "record_size",
    "plays",
    "games",
    "starts",
    "check",
    "decode",
    "encode",
    "load",
    "dump",
    "annotate",
    "extras",
    "dump_part",
    "read",
    "head",
    "boards",
)


_TABLE: dict[str, Format] = {}


def register(fmt: Format) -> Format:
    """Add ``fmt`` to the table (its name and extensions must be new); returns it."""
    if fmt.name in _TABLE:
        raise FormatError(f"format {fmt.name!r} is already registered")
    taken = {e for f in _TABLE.values() for e in f.extensions}
    if taken & set(fmt.extensions):
        raise FormatError(f"extension(s) {sorted(taken & set(fmt.extensions))} already name a format")
    _TABLE[fmt.name] = fmt
    return fmt


def formats() -> tuple[Format, ...]:
    """Every registered format, in registration order."""
    return tuple(_TABLE.values())


def by_extension(path: str | os.PathLike[str]) -> Format | None:
    """The format a file's extension names, or None."""
    ext = Path(path).suffix.lower()
    return next((f for f in _TABLE.values() if ext in f.extensions), None)


def get(name: str) -> Format:
    """The format called ``name`` (``FormatError`` listing the names otherwise)."""
    try:
        return _TABLE[name]
    except KeyError:
        raise FormatError(f"unknown format {name!r}: the formats are {_in_words(_TABLE)}") from None


def _in_words(names: Iterable[str]) -> str:
    *most, last = names
    return f"{', '.join(most)} or {last}" if most else last


#: How much of a file's start :func:`by_content` reads.
_SNIFF = 4096


def by_content(path: str | os.PathLike[str]) -> Format | None:
    """The one text format whose :attr:`Format.starts` the file's first text matches, or None (none, or several)."""
    try:
        with open(path, "rb") as f:
            head = f.read(_SNIFF)
    except OSError:
        return None
    head = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    found = [f for f in _TABLE.values() if f.sniff(head)]
    return found[0] if len(found) == 1 else None


#: A format as a caller names it: its name (``"pbn"``), or the :class:`Format` already decided for a path.
FormatLike = str | Format


def guess(path: str | os.PathLike[str], name: FormatLike | None = None, role: str = "input") -> Format:
    """The format ``name``, else the one ``path``'s extension names, else the one its content shows (an input).

    The format of a path is decided once, here: a caller that has decided it
    passes the :class:`Format` on (as ``name``, or a reader's ``format=``),
    and it is taken as it is, the file neither named again nor read for it.
    ``FormatError`` if none tells, listing the formats and how to name one.
    """
    if isinstance(name, Format):
        return name
    if name:
        return get(name)
    fmt = by_extension(path)
    if fmt is None and role == "input":
        fmt = by_content(path)
    if fmt is None:
        option = "--from" if role == "input" else "--to"
        raise FormatError(
            f"cannot tell the {role} format of {os.fspath(path)!r} from its name"
            f"{' or its first lines' if role == 'input' else ''}; name it with {option} "
            f"(format= in Python): {_in_words(_TABLE)}"
        )
    return fmt


# --------------------------------------------------------------------------
# Adapters between the codec modules and Records.


def _need_owners(r: Records, name: str) -> NDArray[np.int8]:
    if r.owners is None:
        raise FormatError(f"{name} records need deals")
    return r.owners


def _tables_or_unknown(r: Records) -> NDArray[np.uint8]:
    if r.tables is not None:
        return r.tables
    return np.full((len(r), 5, 4), _dtypes.UNKNOWN, np.uint8)


def _known(tables: NDArray[np.uint8] | None) -> NDArray[np.uint8] | None:
    """``tables`` if any value is known, else None (text formats then write no result lines)."""
    return tables if tables is not None and bool(np.any(tables != _dtypes.UNKNOWN)) else None


def _dealt(boards: Sequence[Board]) -> Records:
    """Deals and tables (None when no board has one) of PBN boards or reference hands."""
    owners = np.stack([b.deal.owners() for b in boards]) if boards else np.zeros((0, 52), np.int8)
    own = _own_dealers(boards)
    if all(b.table is None for b in boards):
        return Records(owners, **own)
    unknown = np.full((5, 4), _dtypes.UNKNOWN, np.uint8)
    tables = np.stack([unknown if b.table is None else b.table.astype(np.uint8) for b in boards])
    return Records(owners, tables, **own)


def _own_dealers(boards: Sequence[Board]) -> dict[str, Any]:
    """Each reference hand's own dealer, vulnerability and par (DDS's reference text gives them), as Records fields."""
    hands = [b for b in boards if isinstance(b, ddsref.ReferenceHand)]
    if not boards or len(hands) != len(boards):
        return {}
    own: dict[str, Any] = {
        "dealers": np.array([h.dealer for h in hands], np.int8),
        "vulnerabilities": np.array([h.vul for h in hands], np.int8),
    }
    if all(h.dealer_par is not None and h.dealer_par[0].lstrip("-").isdigit() for h in hands):
        own["pars"] = [(int(h.dealer_par[0]), list(h.dealer_par[1:])) for h in hands if h.dealer_par is not None]
    return own


def _read_dealt(boards: Iterable[Board], chunk: int) -> Iterator[Records]:
    for part in batched(boards, chunk):
        records = _dealt(part)
        del part  # the boards go before the next batch is read: memory is one batch's
        yield records


#: What every PBN file the deal writer makes starts with (written once, by the first part).
_PBN_HEAD = pbn.format_pbn([])


# --------------------------------------------------------------------------
# The built-in formats: one class each, its methods the codec; the table holds one object of each.


class _Zbd(Format):
    """Pavlicek's 13-byte deals (:mod:`.zbd`)."""

    name, extensions, deals, results, record_size = "zbd", (".zbd",), True, False, _dtypes.ZBD.itemsize
    check = staticmethod(zbd.check_records)

    def decode(self, recs: NDArray[np.uint8]) -> Records:
        return Records(zbd.owners_from_zbd(recs))

    def encode(self, r: Records) -> NDArray[np.uint8]:
        return zbd.encode_zbd(_need_owners(r, "zbd"))


class _Zrd(Format):
    """Pavlicek's 23-byte deals and double-dummy tables (:mod:`.zrd`)."""

    name, extensions, deals, results, record_size = "zrd", (".zrd",), True, True, _dtypes.ZRD.itemsize
    check = staticmethod(zrd.check_records)

    def decode(self, recs: NDArray[np.uint8]) -> Records:
        return Records(zbd.owners_from_zbd(recs[:, :13]), zdd.tables_from_nibbles(recs[:, 13:]))

    def encode(self, r: Records) -> NDArray[np.uint8]:
        return zrd.encode_zrd(_need_owners(r, "zrd"), r.tables)


class _Zdd(Format):
    """Pavlicek's 10-byte double-dummy tables, no deals (:mod:`.zdd`)."""

    name, extensions, deals, results, record_size = "zdd", (".zdd",), False, True, _dtypes.ZDD.itemsize
    check = staticmethod(zdd.check_records)

    def decode(self, recs: NDArray[np.uint8]) -> Records:
        return Records(tables=zdd.tables_from_nibbles(recs))

    def encode(self, r: Records) -> NDArray[np.uint8]:
        return zdd.encode_zdd(_tables_or_unknown(r))


class _HandMakes(Format):
    """A deal and one hand's makes in 16 bytes (:mod:`.handmakes`); named only (no extension)."""

    name, deals, results, record_size = "hand-makes", True, True, _dtypes.HAND_MAKES.itemsize
    check = staticmethod(handmakes.check_records)

    def decode(self, recs: NDArray[np.uint8]) -> Records:
        owners, hand, makes = handmakes.decode_hand_makes(recs, on_error="raw")
        return Records(owners, handmakes.tables_from_makes(hand, makes), hand, makes)

    def encode(self, r: Records) -> NDArray[np.uint8]:
        owners = _need_owners(r, "hand-makes")
        if r.hand is None:
            raise FormatError("hand-makes records need the hand (DDS seat)")
        hand = np.broadcast_to(np.asarray(r.hand), (owners.shape[0],))
        makes = r.makes
        if makes is None and r.tables is not None:
            if hand.size and (hand.min() < 0 or hand.max() > 3):
                raise FormatError("hand must be a DDS seat 0..3 (N E S W)")
            makes = r.tables[np.arange(owners.shape[0]), :, hand.astype(np.intp)]
        return handmakes.encode_hand_makes(owners, hand, makes)


class _ZrjGames(GameCodec):
    """ZRJ's played deals as game records (:mod:`.zrjgame`)."""

    dump = staticmethod(zrjgame.games_to_zrj_bytes)
    write = staticmethod(zrjgame.write_zrj_games)
    unheld = staticmethod(zrjgame.unheld)

    def load(self, data: bytes, name: str) -> list[GameRecord]:
        return zrjgame.zrj_bytes_to_games(data)

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[list[GameRecord]]:
        return zrjgame.iter_zrj_games(f, chunk)


class _Zrj(Format):
    """Played deals in 80 bytes (:mod:`.zrj`): fixed-size records that are played games, written from games only."""

    name, extensions, deals, results, record_size = "zrj", (".zrj",), True, False, _dtypes.ZRJ.itemsize
    plays, games = True, _ZrjGames()
    check = staticmethod(zrj.check_records)

    def decode(self, recs: NDArray[np.uint8]) -> Records:
        return Records(zrj.zrj_owners(recs))


class _Zbs(Format):
    """Suit layouts and diagrams (:mod:`.zbs`), variable-length words read a chunk at a time."""

    name, extensions, deals, results = "zbs", (".zbs",), True, False

    def load(self, data: bytes, name: str) -> Records:
        return Records(zbs.decode_diagrams(data))

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[Records]:
        return (Records(o) for o in zbs.read_diagrams(f, chunk=chunk))

    def dump_part(self, r: Records, first: int, last: bool) -> bytes:
        return zbs.encode_diagrams(_need_owners(r, "zbs"), terminate=last).tobytes()


class _PbnGames(GameCodec):
    """PBN's game records (:mod:`.pbngame`); a file of bare deals holds none."""

    dump = staticmethod(pbngame.dump_games)
    write = staticmethod(pbngame.write_games)

    def load(self, data: bytes, name: str) -> list[GameRecord]:
        return pbngame.parse_games(data, name=name)

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[list[GameRecord]]:
        return batched(pbngame.iter_game_records(f, name), chunk)

    def holds(self, f: IO[bytes], name: str) -> bool:
        return pbngame.holds_games(f, name=name)


class _Pbn(Format):
    """PBN (:mod:`.pbn`): deals, their results and every tag, or game records; results added in place."""

    name, extensions, deals, results = "pbn", (".pbn",), True, True
    starts, games = re.compile(rb"[\[%{;]"), _PbnGames()

    def load(self, data: bytes, name: str) -> Records:
        return _dealt(pbn.parse_pbn(data, name=name))

    def boards(self, f: IO[bytes], name: str) -> Iterator[pbn.PBNBoard]:
        return pbn.iter_boards(pbn.pbn_lines(f, name), name=name)

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[Records]:
        return _read_dealt(self.boards(f, name), chunk)

    def dump_part(self, r: Records, first: int, last: bool) -> bytes:
        """PBN text of the records, boards numbered from ``first + 1``, the file's head only when ``first`` is 0."""
        text = pbn.format_pbn(
            deals_from_owners(_need_owners(r, "pbn")),
            _known(r.tables),
            first_board=first + 1,
            dealer=None if r.dealers is None else [Seat(int(d)) for d in r.dealers],
            vulnerable=None if r.vulnerabilities is None else [Vulnerability(int(v)) for v in r.vulnerabilities],
            pars=r.pars,
        )
        return pbn.encode_pbn(text if first == 0 else text[len(_PBN_HEAD) :])

    def annotate(
        self, f: IO[bytes], name: str, fill: pbn.Fill | None, par: pbn.ParFunc | None, chunk: int
    ) -> Iterator[tuple[bytes, int]]:
        return pbn.iter_add_results(f, name, fill=fill, par=par, chunk=chunk)

    def extras(self, f: IO[bytes], name: str) -> list[str]:
        return pbn.extras(f, name)


class _Gib(Format):
    """GIB's library text (:mod:`.gib`): a deal and its complete table a line."""

    name, extensions, deals, results = "gib", (".gib",), True, True
    starts = re.compile(rb"[AKQJT2-9]*\.[AKQJT2-9.]*\.[AKQJT2-9]* [AKQJT2-9. ]+:[0-9a-dA-D]{20}\s")

    def load(self, data: bytes, name: str) -> Records:
        return Records(*gib.parse_gib(data, name=name))

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[Records]:
        return (Records(owners, tables) for owners, tables in gib.iter_gib(f, name=name, chunk=chunk))

    def dump_part(self, r: Records, first: int, last: bool) -> bytes:
        """GIB text of the records: parts that each stand alone."""
        owners = as_owners(_need_owners(r, "gib"), full=True)
        tables = _tables_or_unknown(r)
        if np.any(tables > 13):
            raise FormatError("gib text needs complete double-dummy results; the input lacks some (solve first)")
        return gib.format_gib(deals_from_owners(owners), tables).encode("ascii")


class _Dds(Format):
    """DDS's reference-hands text (:mod:`.ddsref`); named only (no extension), its count written first."""

    name, deals, results = "dds", True, True
    starts = re.compile(rb"(NUMBER|PBN)\s")

    def load(self, data: bytes, name: str) -> Records:
        return _dealt(ddsref.parse_reference(data, name=name))

    def boards(self, f: IO[bytes], name: str) -> Iterator[ddsref.ReferenceHand]:
        return ddsref.iter_reference(f, name=name)

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[Records]:
        return _read_dealt(self.boards(f, name), chunk)

    def dump_part(self, r: Records, first: int, last: bool) -> bytes:
        return ddsref.reference_body(deals_from_owners(_need_owners(r, "dds")), _known(r.tables)).encode("ascii")

    def head(self, count: int) -> bytes:
        return ddsref.reference_head(count).encode("ascii")


class _LinGames(GameCodec):
    """LIN's boards as game records (:mod:`.lin`)."""

    write = staticmethod(lin.write_lin_games)
    unheld = staticmethod(lin.unheld)

    def load(self, data: bytes, name: str) -> list[GameRecord]:
        return lin.parse_lin(data, name=name)

    def dump(self, games: Sequence[GameRecord]) -> bytes:
        return lin.format_lin(games).encode("utf-8")

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[list[GameRecord]]:
        return batched(lin.iter_lin(f, name), chunk)


class _Lin(Format):
    """BBO's LIN (:mod:`.lin`): each record a played game; its deals read and written as deals too."""

    name, extensions, deals, results = "lin", (".lin",), True, False
    plays, games = True, _LinGames()
    starts = re.compile(rb"(vg|pn|qx|md|st|rs|ah)\|", re.IGNORECASE)

    def load(self, data: bytes, name: str) -> Records:
        games = lin.parse_lin(data, name=name)
        return Records(np.stack([g.deal.owners() for g in games]) if games else np.zeros((0, 52), np.int8))

    def read(self, f: IO[bytes], name: str, chunk: int) -> Iterator[Records]:
        # Each game record (auction, play, tags: kilobytes) goes as soon as its deal is taken.
        for part in batched((g.deal.owners() for g in lin.iter_lin(f, name)), chunk):
            yield Records(np.stack(part))

    def dump_part(self, r: Records, first: int, last: bool) -> bytes:
        """LIN text of the records, boards numbered from ``first + 1``."""
        deals = deals_from_owners(as_owners(_need_owners(r, "lin"), full=True))
        boards = range(first + 1, first + 1 + len(deals))
        games = [
            GameRecord(
                d,
                Seat.dealer_of_board(b) if r.dealers is None else Seat(int(r.dealers[k])),
                Vulnerability.of_board(b) if r.vulnerabilities is None else Vulnerability(int(r.vulnerabilities[k])),
                board=b,
            )
            for k, (b, d) in enumerate(zip(boards, deals, strict=True))
        ]
        return lin.format_lin(games).encode("utf-8")

    def extras(self, f: IO[bytes], name: str) -> list[str]:
        return lin.extras(lin.iter_lin(f, name))


for _codec in (_Zbd, _Zrd, _Zdd, _HandMakes, _Zrj, _Zbs, _Pbn, _Gib, _Dds, _Lin):
    register(_codec())
