"""The package's error tree: :class:`Error` at the root, one DDSError class per DDS return code.

Every error ddsbind raises on purpose is a :class:`Error`: :class:`DDSError`
(a fault DDS has a code for, or would have), :class:`FormatError` (bytes or
text that are not a record of a format), :class:`DatabaseError` (a
database operation refused) and :class:`StateError` (a call refused for the
state it came in: DDS's settings while solving, a closed pool).  Each also inherits its natural builtin
(``ValueError``, ``TypeError``, ``RuntimeError``), so ``except ValueError``
keeps working.  Anything else escaping ddsbind is a bug.

Every DDS status code maps to one subclass of :class:`DDSError`, which also
inherits the natural builtin: ``ValueError`` for bad input,
``RuntimeError`` for threads and resources.  The table from code to class is
built from the compiled module's ``RETURN_*`` constants (nothing is copied
from ``dll.h``), and the message is DDS's own ``ErrorMessage`` text followed
by ddsbind's detail (which card, which field).

Validation in Python raises the same classes with the same codes, so a caller
sees the same error whether DDS or ddsbind found the fault -- but ddsbind
finds it first: DDS writes ``dump.txt`` into the current directory on every
input error, and some bad inputs crash it.  The message names DDS's code
only for an input DDS takes (a deal's cards, ``trump`` 7, a target), which
DDS would answer with that code; a fault in something DDS never sees (one
hand's text, a card or strain word, a play in a file) is raised with
``dds=False``: the same class and ``.code`` for ``except``, a message
without DDS's text or code.

This module does not load DDS when imported: the codes, the code-to-class
table and DDS's message text are read from the compiled module the first
time they are needed, so ``ddsbind.formats`` (which raises
:class:`FormatError` and the deal errors) works where DDS is not installed.

:class:`FormatError` (bad bytes in a file format) is not a DDS error and has
no DDS code.

Every exception and warning class of the package lives here, whichever
module raises it (:class:`DealerError`, :class:`ProofError`,
:class:`MissingExtraError`, :class:`ThreadsWarning`, ...); the modules that
raise them re-export them under their old names.
"""

from __future__ import annotations

import functools
import os
from types import ModuleType
from typing import Any

__all__ = [
    "ArgumentError",
    "CardCountError",
    "ChunkSizeError",
    "ContractError",
    "DDSError",
    "DatabaseError",
    "DealerError",
    "DroppedDataWarning",
    "DuplicateCardsError",
    "Error",
    "FieldWarning",
    "FirstWrongError",
    "FormatError",
    "InvalidArgumentError",
    "MissingExtraError",
    "ModeTwoError",
    "ModeWrongHiError",
    "ModeWrongLoError",
    "NoSuitError",
    "PBNError",
    "PlayFaultError",
    "PlayedCardError",
    "ProofError",
    "ProofTooLargeError",
    "ResultsWarning",
    "SolutionsWrongHiError",
    "SolutionsWrongLoError",
    "StateError",
    "SuitOrRankError",
    "TargetTooHighError",
    "TargetWrongHiError",
    "TargetWrongLoError",
    "ThreadCreateError",
    "ThreadIndexError",
    "ThreadMissingError",
    "ThreadWaitError",
    "ThreadsWarning",
    "TooManyBoardsError",
    "TooManyCardsError",
    "TooManyTablesError",
    "TrumpWrongError",
    "TruncatedPlayWarning",
    "UnknownFaultError",
    "ZeroCardsError",
    "check",
    "error_class",
    "where",
]


def _native() -> ModuleType:
    """``ddsbind._binding``, imported on first use (it loads DDS)."""
    from ddsbind import _binding

    return _binding


class _ClassCode:
    """The class-level DDS code, read from the compiled module's ``RETURN_*`` constant on first access.

    A non-data descriptor: an instance that was given its own code (``code=``)
    keeps it in its ``__dict__``, which wins over the class's.
    """

    def __get__(self, obj: object, owner: type[DDSError]) -> int:
        return _code_of(owner._code_name)


@functools.cache
def _code_of(name: str) -> int:
    return _native().constant(name)


#: The fields of a location, in the order a message names them.
LOCATION_FIELDS = ("path", "record", "board", "room", "line", "offset", "card")


def where(
    *,
    path: str | None = None,
    record: int | None = None,
    board: int | str | None = None,
    room: str | None = None,
    line: int | None = None,
    offset: int | None = None,
    card: str | None = None,
) -> str:
    """A location as every message names it: ``"games.pbn: record 4 (Board 2, closed room), line 40"``.

    The one rendering of where a fault is (:class:`Error` and the reports
    that name a record without raising both call it).  Everything counts as
    the user counts: ``record`` is the record's number **from 1** (the first
    record of a file is record 1), ``line`` from 1, ``board`` the board number
    the file gives, ``offset`` a byte offset from 0 (as ``cmp``, ``xxd`` and
    ``dd skip=`` count bytes).  Empty when nothing is known.
    """
    parts = []
    if record is not None:
        parts.append(f"record {record}")
    if board is not None or room is not None:
        inner = ", ".join(x for x in (f"Board {board}" if board is not None else None, room and f"{room} room") if x)
        parts.append(f"({inner})" if parts else inner)
    if line is not None:
        parts.append(f"line {line}")
    if offset is not None:
        parts.append(f"byte offset {offset}")
    if card is not None:
        parts.append(f"card {card}")
    text = ", ".join(parts).replace(", (", " (")
    if path is None:
        return text
    return f"{path}: {text}" if text else path


class Error(Exception):
    """The base of every error ddsbind raises on purpose (catch this at a program's boundary).

    An error carries what is wrong (its message) and, apart from it, where:
    the fields ``path``, ``record`` (counted from 1, as the user counts),
    ``board``, ``room``, ``line``, ``offset`` (bytes, from 0) and ``card``,
    each None when unknown.  ``str()`` renders them in one place,
    :func:`where`, before the message: ``"games.pbn: record 4, line 40:
    Vulnerable 'x' is not None, NS, EW or All"``.  Code that knows more of
    the location than the raiser did adds it with :meth:`locate`; the
    command line prints ``ddsbind: error: <str(exc)>`` and exits 1.
    """

    path: str | None = None
    record: int | None = None
    board: int | str | None = None
    room: str | None = None
    line: int | None = None
    offset: int | None = None
    card: str | None = None

    def __init__(self, *args: object, **location: Any) -> None:
        super().__init__(*args)
        self.locate(**location)

    def locate(self, **location: Any) -> Error:
        """Add the location fields not yet known (``path=``, ``record=`` from 1...); returns ``self``.

        A field already set is kept: the code nearest the fault knows best.
        """
        for name, value in location.items():
            if name not in LOCATION_FIELDS:
                raise TypeError(f"{name!r} is not a location field ({', '.join(LOCATION_FIELDS)})")
            if value is not None and getattr(self, name) is None:
                setattr(self, name, os.fspath(value) if name == "path" else value)
        return self

    @property
    def message(self) -> str:
        """What is wrong, without the location."""
        return str(self.args[0]) if self.args else type(self).__name__

    def where(self) -> str:
        """The location alone, as :func:`where` renders it ("" when unknown)."""
        return where(**{name: getattr(self, name) for name in LOCATION_FIELDS})

    def __str__(self) -> str:
        place = self.where()
        return f"{place}: {self.message}" if place else self.message


class DDSError(Error):
    """A DDS status code other than success.

    Attributes
    ----------
    code : int
        The DDS return code (negative), as DDS itself would return it.
    function : str or None
        The DDS function that returned it, or that was about to be called when
        ddsbind's validation found the fault.
    dds_message : str
        DDS's own text for the code (``ErrorMessage``).
    reason : str or None
        What exactly is wrong, when ddsbind knows, without the position.
    index : int or None
        Which board, table or deal of a batch is at fault (from 0, as code
        counts), when the call took several; ``item`` names what the index
        counts.  The message counts as the user does: ``index`` 0 is
        ``"deal 1"``, the first play ``"play 1"``.
    card : str or None
        The card at fault (``"SA"``), when one card is.
    field : str or None
        The struct field or argument at fault (``"target"``,
        ``"remainCards[0][0]"``), when one is.
    dds : bool
        True when DDS said it, or would for the same input (its code is in
        the message); False (``dds=False`` to the constructor) for a fault
        found where DDS never looks (one hand's text,
        ``ddsbind.Hand("AK32.KJ4.Q98")``, a card or strain word, a play in a
        file): the class and ``code`` stay, for ``except``, but the message
        is the fault alone, with no DDS text or code DDS never gave.
    detail : str or None
        ``reason``, prefixed with ``"<item> <index + 1>: "`` when the index is known.
    """

    code = _ClassCode()
    _code_name: str = "RETURN_UNKNOWN_FAULT"
    #: False for classes that share another class's code (not looked up by code):
    #: faults DDS has no code of its own for.  Their message is ddsbind's detail
    #: alone, not DDS's text for the code they carry ("General error").
    _in_table: bool = True

    def __init__(
        self,
        detail: str | None = None,
        *,
        function: str | None = None,
        code: int | None = None,
        index: int | None = None,
        item: str | None = None,
        card: str | None = None,
        field: str | None = None,
        dds: bool = True,
    ):
        super().__init__(detail)
        self.dds = dds
        if code is not None:
            self.code = code
        self.function = function
        self.reason = detail
        self.index = index
        self.item = item
        self.card = card
        self.field = field

    def at(self, index: int, item: str) -> DDSError:
        """Record that the fault is in ``item`` number ``index`` of a batch; returns ``self``.

        A position already recorded (a play within a board) moves into
        ``reason``, so the message keeps both: ``"board 2: play 5: ..."``.
        """
        if self.index is not None and self.item is not None and self.item != item:
            self.reason = f"{self.item} {self.index + 1}: {self.reason}"
        self.index = index
        self.item = item
        return self

    @property
    def detail(self) -> str | None:
        if self.index is None or self.item is None:
            return self.reason
        return f"{self.item} {self.index + 1}: {self.reason}"

    @property
    def dds_message(self) -> str:
        return _native().error_message(self.code)

    def __str__(self) -> str:
        # The card is named by the detail itself; the rest of the location (a file, a record) comes first.
        place = where(**{n: getattr(self, n) for n in LOCATION_FIELDS if n != "card"})
        return f"{place}: {self._text()}" if place else self._text()

    def _text(self) -> str:
        where = f"{self.function}: " if self.function else ""
        tail = f": {self.detail}" if self.detail else ""
        if not type(self)._in_table or not self.dds:
            # DDS has no code for this fault, or never sees such input: its text and code would mislead.
            return f"{where}{self.detail or type(self).__name__}"
        try:
            return f"{where}{self.dds_message} (DDS code {self.code}){tail}"
        except ImportError:
            # No compiled DDS (a formats-only install): the class's own summary instead of DDS's text.
            summary = (type(self).__doc__ or type(self).__name__).strip().splitlines()[0]
            return f"{where}{summary}{tail}"

    def __reduce__(self) -> tuple[Any, ...]:
        state = {k: v for k, v in self.__dict__.items()}
        return (_rebuild, (type(self), self.reason), state)


def _rebuild(cls: type[DDSError], reason: str | None) -> DDSError:
    return cls(reason)


class UnknownFaultError(DDSError, RuntimeError):
    """-1: DDS's "general error" (a file it could not open, mismatched batch sizes)."""

    _code_name = "RETURN_UNKNOWN_FAULT"


class ZeroCardsError(DDSError, ValueError):
    """-2: the deal has no cards."""

    _code_name = "RETURN_ZERO_CARDS"


class TargetTooHighError(DDSError, ValueError):
    """-3: the target exceeds the number of tricks left."""

    _code_name = "RETURN_TARGET_TOO_HIGH"


class DuplicateCardsError(DDSError, ValueError):
    """-4: a card is held twice (or played and held)."""

    _code_name = "RETURN_DUPLICATE_CARDS"


class TargetWrongLoError(DDSError, ValueError):
    """-5: target is less than -1."""

    _code_name = "RETURN_TARGET_WRONG_LO"


class TargetWrongHiError(DDSError, ValueError):
    """-7: target is more than 13."""

    _code_name = "RETURN_TARGET_WRONG_HI"


class SolutionsWrongLoError(DDSError, ValueError):
    """-8: solutions is less than 1."""

    _code_name = "RETURN_SOLNS_WRONG_LO"


class SolutionsWrongHiError(DDSError, ValueError):
    """-9: solutions is more than 3."""

    _code_name = "RETURN_SOLNS_WRONG_HI"


class TooManyCardsError(DDSError, ValueError):
    """-10: more than 52 cards."""

    _code_name = "RETURN_TOO_MANY_CARDS"


class ModeTwoError(DDSError, ValueError):
    """-11: mode 2 with forbidden values of the other parameters.

    Listed in the DLL specification (Rev F) and marked "not used" since; DDS
    2.9 defines no ``RETURN_*`` constant for it and never returns it.
    """

    _code_name = ""
    # The DLL specification's number; dll.h of 2.9 has no macro to read it from.
    code = -11


class SuitOrRankError(DDSError, ValueError):
    """-12: a current-trick suit or rank (or a remainCards bit) out of range."""

    _code_name = "RETURN_SUIT_OR_RANK"


class PlayedCardError(DDSError, ValueError):
    """-13: a card played to the current trick is also still in a hand."""

    _code_name = "RETURN_PLAYED_CARD"


class CardCountError(DDSError, ValueError):
    """-14: a hand holds the wrong number of cards."""

    _code_name = "RETURN_CARD_COUNT"


class ThreadIndexError(DDSError, ValueError):
    """-15: threadIndex is not in 0 .. DDS's thread count - 1."""

    _code_name = "RETURN_THREAD_INDEX"


class ModeWrongLoError(DDSError, ValueError):
    """-16: mode is less than 0."""

    _code_name = "RETURN_MODE_WRONG_LO"


class ModeWrongHiError(DDSError, ValueError):
    """-17: mode is more than 2."""

    _code_name = "RETURN_MODE_WRONG_HI"


class TrumpWrongError(DDSError, ValueError):
    """-18: trump is not 0..4."""

    _code_name = "RETURN_TRUMP_WRONG"


class FirstWrongError(DDSError, ValueError):
    """-19: first (the hand on lead) is not 0..3."""

    _code_name = "RETURN_FIRST_WRONG"


class PlayFaultError(DDSError, ValueError):
    """-98: a play sequence is invalid (bad card, wrong player, too many cards)."""

    _code_name = "RETURN_PLAY_FAULT"


class PBNError(DDSError, ValueError):
    """-99: a PBN string is faulty."""

    _code_name = "RETURN_PBN_FAULT"


class TooManyBoardsError(DDSError, ValueError):
    """-101: more boards than a DDS batch call takes."""

    _code_name = "RETURN_TOO_MANY_BOARDS"


class ThreadCreateError(DDSError, RuntimeError):
    """-102: DDS could not create its threads."""

    _code_name = "RETURN_THREAD_CREATE"


class ThreadWaitError(DDSError, RuntimeError):
    """-103: something failed while DDS waited for its threads."""

    _code_name = "RETURN_THREAD_WAIT"


class ThreadMissingError(DDSError, RuntimeError):
    """-104: the threading system asked for is not compiled into DDS."""

    _code_name = "RETURN_THREAD_MISSING"


class NoSuitError(DDSError, ValueError):
    """-201: CalcAllTables' strain filter excludes every strain."""

    _code_name = "RETURN_NO_SUIT"


class TooManyTablesError(DDSError, ValueError):
    """-202: more DD tables than one CalcAllTables call takes."""

    _code_name = "RETURN_TOO_MANY_TABLES"


class ChunkSizeError(DDSError, ValueError):
    """-301: chunk size less than 1."""

    _code_name = "RETURN_CHUNK_SIZE"


class ArgumentError(DDSError, TypeError):
    """An argument of the wrong type: not a struct of the right kind (or NULL, or too short) for a
    DLL-layer function, or not a deal at all for the Pythonic layer.

    Carries DDS's general-error code (-1); DDS itself cannot see this fault,
    since the call never gets that far.  Its message is the fault alone.
    """

    _code_name = "RETURN_UNKNOWN_FAULT"
    _in_table = False


class InvalidArgumentError(DDSError, ValueError):
    """An argument out of range where DDS has no code of its own (vulnerability, dealer, shapes).

    Carries DDS's general-error code (-1), which is what the DLL layer returns
    for the same fault; its message is the fault alone (function, position,
    what is wrong), without DDS's "General error" text.
    """

    _code_name = "RETURN_UNKNOWN_FAULT"
    _in_table = False


class FormatError(Error, ValueError):
    """Bytes or text that are not a valid record of a file format.

    ``index`` is the record's place from 0 (as code counts); the message
    names it as ``record index + 1``, with the other location fields
    (:class:`Error`): ``FormatError("bad", index=3, offset=69)`` reads
    ``"record 4, byte offset 69: bad"``.
    """

    def __init__(self, message: str, *, index: int | None = None, **location: Any):
        #: The record's place in the file from 0, as code counts (the message names ``record`` = index + 1).
        self.index = index
        super().__init__(message, record=None if index is None else index + 1, **location)


class ContractError(Error, ValueError):
    """A contract that is not one (level 1-7, strain, doubling, declarer), or a score asked of impossible values."""


class DatabaseError(Error, ValueError):
    """A database operation refused or failed; the message says why in one line."""


class StateError(Error, RuntimeError):
    """A call refused for the state it came in, not for its arguments.

    DDS's thread settings changed while boards are being solved
    (``SetMaxThreads``, ``SetResources``, ``SetThreading``, ``FreeMemory``),
    or a call started on a closed :class:`~ddsbind.SolverPool`.  Retry once
    the state allows it.
    """


class DealerError(Error, ValueError):
    """A dealer script or dealing request that cannot be carried out (bad predeal, seed, syntax...)."""


class ProofError(Error, ValueError):
    """A proof tree that does not prove its claim; the message names the node (``node 17: ...``)."""

    def __init__(self, node: int | None, message: str) -> None:
        self.node = node
        super().__init__(f"node {node}: {message}" if node is not None else message)


class ProofTooLargeError(Error, RuntimeError):
    """A proof tree would pass ``max_nodes``; the message says how far the search got."""


class MissingExtraError(Error, ImportError):
    """An optional dependency is not installed; the message names the extra that brings it."""


# -- warnings: not errors (nothing is refused), but one home for every class ddsbind issues


class ThreadsWarning(UserWarning):
    """Fewer solver threads run than were asked for (DDS never runs more threads than cores).

    Issued once per pool the database opens (one per ``generate`` or
    ``verify`` run), as a warning the caller can catch, filter or render
    (the CLI prints it as ``ddsbind: warning: ...``).
    """


class TruncatedPlayWarning(UserWarning):
    """A game's play did not fit in a ZRJ record and was cut short (the rest reads as a claim)."""


class ResultsWarning(UserWarning):
    """A file's double-dummy results for one board are unreadable or contradict its deal: set aside, the file read.

    The board reads without them (its table unknown, so ``convert --solve``
    solves it anew); the message names the file, the line and what is wrong.
    """


class FieldWarning(UserWarning):
    """A field of a file that cannot be used (unknown, garbage, or contradicting another): kept, left out, named.

    The reader keeps the field as the file wrote it (written back
    unchanged), computes nothing from it, and names it once: ``board`` (the
    board number as the file wrote it, or None), ``game`` (the record's
    place in the file, 1-based, or None), ``line`` (1-based, or None),
    ``source`` (the file), ``tag`` (the field's name), ``value`` (as
    written) and ``why``.  The message puts the location first, as
    :func:`where` renders it for an :class:`Error`:
    ``'games.pbn: record 4 (Board 7), line 40: [Result "-9752"] set aside: not 0..13 tricks'``.
    Reading with ``strict=True`` (the CLI's ``--strict``) refuses the file
    instead, with a :class:`FormatError` saying the same, its location in
    its fields.
    """

    def __init__(
        self,
        board: str | None,
        tag: str,
        value: str,
        why: str,
        *,
        source: str | None = None,
        game: int | None = None,
        line: int | None = None,
    ) -> None:
        self.board, self.tag, self.value, self.why, self.source = board, tag, value, why, source
        self.game = game  # the game's place in the file, 1-based, when known
        self.line = line
        # A Board tag set aside is its own value: not named as the board too.
        named = board if board not in (None, "") and tag != "Board" else None
        on = where(path=source, record=game, board=named, line=line)
        text = f'[{tag} "{value[:40]}"] set aside: {why}'
        super().__init__(f"{on}: {text}" if on else text)


class DroppedDataWarning(UserWarning):
    """A conversion's target cannot hold part of what the input has (said once per conversion, naming it)."""


def _all_subclasses(cls: type[DDSError]) -> list[type[DDSError]]:
    out: list[type[DDSError]] = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_all_subclasses(sub))
    return out


@functools.cache
def _by_code() -> dict[int, type[DDSError]]:
    """The code-to-class table, built from the compiled module on first use."""
    return {cls.code: cls for cls in _all_subclasses(DDSError) if cls._in_table}


def error_class(code: int) -> type[DDSError]:
    """The :class:`DDSError` subclass for a DDS return code (``DDSError`` if unknown)."""
    return _by_code().get(code, DDSError)


def check(rc: int, function: str, detail: str | None = None) -> int:
    """Return ``rc`` if it is DDS's success code, else raise its error class."""
    if rc == _no_fault():
        return rc
    raise error_class(rc)(detail, function=function, code=rc)


@functools.cache
def _no_fault() -> int:
    return _native().RETURN_NO_FAULT
