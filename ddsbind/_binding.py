"""The one place that imports the compiled DDS module and sets DDS up.

Everything else reaches DDS through this module (``ffi``, ``lib``) or through
``ddsbind.dll``.  One-time set-up happens at import:

* the exit guard for Debian's DDS 2.9.0 (see ``install_exit_guard``);
* the thread-slot locks that keep two callers off the same DDS thread memory.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

try:
    from ddsbind._dds import ffi, lib
except ImportError as exc:  # pragma: no cover - only without a build
    raise ImportError(
        "ddsbind's compiled DDS module is missing; install the package with "
        "'pip install .' (or 'make setup') so that native/build_ffi.py runs"
    ) from exc

__all__ = ["RETURN_NO_FAULT", "CData", "DDSInfo", "constant", "dds_info", "error_message", "ffi", "lib", "slots"]

RETURN_NO_FAULT: int = lib.RETURN_NO_FAULT

#: A cffi cdata object (struct pointer, array or struct lvalue).  cffi gives its
#: fields no static types, so this alias says what a value is without claiming more.
CData = Any


def constant(name: str) -> int:
    """The value of one of DDS's ``#define`` constants, read from the build."""
    return int(getattr(lib, name))


def error_message(code: int) -> str:
    """DDS's own text for a return code (``ErrorMessage``)."""
    buf = ffi.new("char[80]")
    lib.ErrorMessage(int(code), buf)
    return ffi.string(buf).decode("ascii", "replace")


# --------------------------------------------------------------------------
# Exit guard.

_guard_installed = False
#: The last DDS release whose library destructor crashes the process at exit.
_LAST_CRASHING_VERSION = (2, 9, 0)


def _dds_version() -> tuple[int, int, int]:
    info = ffi.new("struct DDSInfo *")
    lib.GetDDSInfo(info)
    return (info.major, info.minor, info.patch)


def install_exit_guard() -> bool:
    """Make the process exit with its own status despite DDS 2.9.0's unload crash.

    Debian's libdds 2.9.0 frees its thread memory from a library destructor
    after the C++ objects it touches are gone, so any process that loaded it
    ends with SIGSEGV (status 139) after all its work.  A glibc ``on_exit``
    handler registered after the library loaded runs before that destructor;
    it flushes C stdio and calls ``_exit`` with the status ``exit`` was given.
    Python has finalised (flushed ``sys.stdout``, run ``atexit``) by then.

    The defect is in 2.9.0's own library destructor, so the guard depends on
    the DDS version, not on how DDS was built: it is installed at import for
    DDS 2.9.0 and older, whether linked from Debian's package or compiled
    from the 2.9.0 release (``DDS_SOURCE_DIR``), and not for later versions.
    ``DDSBIND_EXIT_GUARD=1`` or ``0`` forces the choice.
    """
    global _guard_installed
    want = os.environ.get("DDSBIND_EXIT_GUARD")
    enabled = (want == "1") if want in ("0", "1") else _dds_version() <= _LAST_CRASHING_VERSION
    if enabled and not _guard_installed:
        if lib.ddsbind_install_exit_guard() != 0:  # pragma: no cover - on_exit never fails on glibc
            raise RuntimeError("could not register the DDS exit guard (on_exit failed)")
        _guard_installed = True
    return _guard_installed


install_exit_guard()


# --------------------------------------------------------------------------
# DDS information.

_THREADING_NAMES = {
    0: "none",
    1: "windows",
    2: "openmp",
    3: "gcd",
    4: "boost",
    5: "stl",
    6: "tbb",
    7: "stlimpl",
    8: "pplimpl",
}


@dataclass(frozen=True)
class DDSInfo:
    """What DDS reports about itself (``GetDDSInfo``), plus how ddsbind got it.

    ``threads`` is the number of DDS threads really configured: DDS never
    runs more than the machine's cores, whatever was asked for, so this (not
    the request) bounds ``threadIndex``.
    """

    version: str
    major: int
    minor: int
    patch: int
    threading: str
    threading_systems: tuple[str, ...]
    threads: int
    cores: int
    thread_sizes: str
    source: str
    has_solve_all_boards_bin: bool
    system_string: str


def dds_info() -> DDSInfo:
    """Ask DDS which version, threading system and thread count it has."""
    info = ffi.new("struct DDSInfo *")
    lib.GetDDSInfo(info)
    system = ffi.string(info.systemString).decode("ascii", "replace")
    systems: tuple[str, ...] = ()
    for line in system.splitlines():
        if line.startswith("Threading"):
            systems = tuple(w.rstrip("(*)").lower() for w in line.split()[1:])
    return DDSInfo(
        version=ffi.string(info.versionString).decode("ascii", "replace"),
        major=info.major,
        minor=info.minor,
        patch=info.patch,
        threading=_THREADING_NAMES.get(info.threading, f"unknown({info.threading})"),
        threading_systems=systems,
        threads=info.noOfThreads,
        cores=info.numCores,
        thread_sizes=ffi.string(info.threadSizes).decode("ascii", "replace"),
        source="source tree" if lib.ddsbind_from_source() else "system library",
        has_solve_all_boards_bin=bool(lib.ddsbind_has_SolveAllBoardsBin()),
        system_string=system,
    )


# --------------------------------------------------------------------------
# Thread slots.


class ThreadSlots:
    """Locks over DDS's per-thread memory, and over DDS's thread count.

    Race guarded: DDS keeps a transposition table and search state per
    ``threadIndex``.  Two concurrent ``SolveBoard`` calls with the same index
    corrupt each other, and DDS's batch functions (``CalcDDtable``,
    ``CalcAllTables``, ``SolveAllBoards``, ``AnalyseAllPlays*``) use *all*
    thread memories with DDS's own threads.  So a single-board call holds the
    lock of its index; a batch call holds every lock (acquired in index order,
    so no two batch/single callers can deadlock); changing DDS's thread
    settings needs every lock free at once and is refused otherwise.

    Race guarded: ``count`` (DDS's thread count) changes only inside
    :meth:`reconfigure`, which holds *every* lock while it does.  So a caller
    holding any one lock sees a ``count`` that cannot change until it lets
    go.  :meth:`any` and :meth:`all` read ``count`` before they may block,
    then check it again once they hold their lock(s) and start over if a
    settings change slipped in while they waited (else: an index DDS no
    longer has, or a batch call on two threads guarding one memory).

    Race guarded: a thread takes its slot(s) once per call and never takes
    another while it holds one (the Pythonic layer takes a slot and hands its
    index to the DLL layer, which uses it without taking it again: see
    :meth:`holding`).  So the locks are plain locks; a nested take is a bug
    and raises ``RuntimeError`` instead of deadlocking.
    """

    #: More than any DDS build configures (its GetDDSInfo string caps at 128).
    CAPACITY = 128

    def __init__(self) -> None:
        self._locks = [threading.Lock() for _ in range(self.CAPACITY)]
        # Race guarded: two settings changes (or a change and a pool pinning
        # the count) interleaving their reads and writes of count and _pins.
        self._config = threading.Lock()
        self._next = itertools.count()
        # The slot indices this thread holds (a per-thread set, no lock needed).
        self._held = threading.local()
        #: Open SolverPools: their workers keep a threadIndex for life, so the
        #: thread count must not change while any is open.
        self._pins = 0
        self.count = max(1, min(dds_info().threads, self.CAPACITY))

    def _mine(self) -> set[int]:
        """The slot indices the calling thread holds."""
        held: set[int] | None = getattr(self._held, "slots", None)
        if held is None:
            held = self._held.slots = set()
        return held

    def _not_nested(self) -> set[int]:
        mine = self._mine()
        if mine:
            raise RuntimeError(
                f"this thread already holds DDS thread slot(s) {sorted(mine)}: "
                "a DDS call was started inside another on the same thread"
            )
        return mine

    @contextlib.contextmanager
    def _hold(self, indices: list[int]) -> Iterator[None]:
        """Count the (already acquired) slots as this thread's; release them on exit."""
        mine = self._mine()
        mine.update(indices)
        try:
            yield
        finally:
            mine.difference_update(indices)
            for i in reversed(indices):
                self._locks[i].release()

    @contextlib.contextmanager
    def slot(self, index: int) -> Iterator[int]:
        """Hold thread memory ``index`` for one single-board call.

        An index outside the locks has no memory to guard (DDS refuses it).
        """
        if not 0 <= index < self.CAPACITY:
            yield index
            return
        self._not_nested()
        self._locks[index].acquire()
        with self._hold([index]):
            yield index

    @contextlib.contextmanager
    def holding(self, index: int) -> Iterator[int]:
        """Use slot ``index``, which the calling thread already holds (a pool worker's); yields it.

        Takes nothing: this is how one call takes its slot once.  Raises
        ``RuntimeError`` if the thread does not hold it (a bug).
        """
        if index not in self._mine():
            raise RuntimeError(f"DDS thread slot {index} is used without being held by this thread")
        yield index

    def _acquire_any(self) -> int:
        while True:
            count = self.count
            for i in range(count):
                if self._locks[i].acquire(blocking=False):
                    break
            else:
                i = next(self._next) % count
                self._locks[i].acquire()
            if i < self.count:  # count is fixed from here until the release
                return i
            self._locks[i].release()

    @contextlib.contextmanager
    def any(self) -> Iterator[int]:
        """Hold some free thread memory; yields its ``threadIndex``.

        Takes the first free slot; when all are busy, waits for one chosen
        round-robin (so waiting callers spread over the slots).  The index is
        valid for DDS's thread count until the block ends.
        """
        self._not_nested()
        i = self._acquire_any()
        with self._hold([i]):
            yield i

    @contextlib.contextmanager
    def all(self) -> Iterator[int]:
        """Hold every thread memory for one batch call; yields the thread count."""
        self._not_nested()
        while True:
            count = self.count
            for lock in self._locks[:count]:
                lock.acquire()
            if count == self.count:  # fixed from here until the release
                break
            for lock in reversed(self._locks[:count]):
                lock.release()
        with self._hold(list(range(count))):
            yield count

    def pin(self) -> int:
        """Keep the thread count fixed until :meth:`unpin` (a SolverPool is open); returns it."""
        with self._config:
            self._pins += 1
            return self.count

    def unpin(self) -> None:
        """Undo one :meth:`pin`."""
        with self._config:
            self._pins -= 1

    def reconfigure(self, change: object, refused: type[Exception] = RuntimeError) -> int:
        """Run ``change()`` (a DDS settings call) with no call in flight.

        Raises ``refused`` (a ``RuntimeError``; ``dll`` passes
        :class:`~ddsbind.errors.StateError`) if any thread memory is in use (by any thread,
        the caller included) or a SolverPool is open; returns the new thread
        count as DDS reports it.
        """
        with self._config:
            if self._mine():
                raise refused(
                    "DDS thread settings cannot change while boards are being solved (this thread is solving)"
                )
            if self._pins:
                raise refused("DDS thread settings cannot change while boards are being solved (a SolverPool is open)")
            held = []
            try:
                for lock in self._locks:
                    if not lock.acquire(blocking=False):
                        raise refused("DDS thread settings cannot change while boards are being solved")
                    held.append(lock)
                change()  # type: ignore[operator]
                self.count = max(1, min(dds_info().threads, self.CAPACITY))
                return self.count
            finally:
                for lock in reversed(held):
                    lock.release()


slots = ThreadSlots()
