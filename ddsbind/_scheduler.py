"""The solver pool's thread scheduler: worker threads, jobs and tasks, one DDS ``threadIndex`` per worker.

:class:`~ddsbind.SolverPool` (in :mod:`ddsbind.pool`) turns a call into
*tasks* (one unit of work each, e.g. one deal and strain) grouped in a
*job* (one call); :class:`Scheduler` runs them on its workers.  A worker
keeps its DDS thread index for life and holds that index's lock
(``ddsbind._binding.slots``) for each task, so DDS's batch calls from other
Python threads wait for the running tasks.  Nothing here knows what a task
solves: a task is a ``run(thread) -> units`` callable.

Ctrl-C in a waiting caller, an error in a task, or :meth:`Scheduler.close`
from another thread stops a job: queued tasks are dropped, running ones
finish, then the error (or ``KeyboardInterrupt``) is raised in the caller.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import weakref
from collections.abc import Callable, Iterator

from ddsbind import dll
from ddsbind._binding import slots
from ddsbind._typing import Progress
from ddsbind.errors import DDSError, StateError

__all__ = ["POLL", "QUEUED_PER_THREAD", "Job", "Scheduler", "Task", "configure"]

#: Tasks queued ahead of the workers, per thread (the caller tops the queue up).
QUEUED_PER_THREAD = 4
#: How long a waiting caller sleeps between checks for Ctrl-C (seconds).
POLL = 0.1


# Race guarded: two pools created at once both asking DDS for more threads
# (SetMaxThreads runs once for the largest request seen).
_configure_lock = threading.Lock()
_configured_for = 0


def configure(threads: int) -> None:
    """Ask DDS once for ``threads`` threads, if it has fewer and nothing is solving."""
    global _configured_for
    with _configure_lock:
        if threads <= max(slots.count, _configured_for):
            return
        _configured_for = threads
        # DDS gives at most one thread per core; refused while anything
        # solves (then the pool uses what DDS has).
        with contextlib.suppress(StateError):
            dll.SetMaxThreads(threads)


class Job:
    """One call's state: how many tasks are left, which failed, whether it was stopped.

    Race guarded (``cond``'s lock): workers finishing tasks and the caller
    reading progress or cancelling, from different threads.
    """

    def __init__(self, tasks: int, units: int) -> None:
        self.cond = threading.Condition()
        self.total = self.left = tasks
        self.running = 0
        self.finished_units = 0
        self.units = units
        self.cancelled = False
        self.closed = False
        self.error: DDSError | BaseException | None = None
        self.error_index = -1

    def start(self) -> bool:
        """A worker takes a task: False if the job was stopped (the task is dropped)."""
        with self.cond:
            if self.cancelled:
                self.left -= 1
                if self.left == 0:
                    self.cond.notify_all()
                return False
            self.running += 1
            return True

    def finish(self, units: int = 0, error: BaseException | None = None, index: int = -1) -> None:
        with self.cond:
            self.running -= 1
            self.left -= 1
            self.finished_units += units
            if error is not None and (self.error is None or index < self.error_index):
                self.error, self.error_index = error, index
                self.cancelled = True
            self.cond.notify_all()

    def cancel(self, *, closed: bool = False) -> None:
        with self.cond:
            self.cancelled = True
            self.closed = self.closed or closed
            self.cond.notify_all()


class Task:
    """One unit of work; ``run(thread)`` returns how many progress units it completed."""

    __slots__ = ("index", "job", "run")

    def __init__(self, job: Job, index: int, run: Callable[[int], int]) -> None:
        self.job = job
        self.index = index
        self.run = run


def _work(tasks: queue.SimpleQueue[Task | None], thread: int) -> None:
    """A worker: run tasks on DDS thread memory ``thread`` until told to stop (None).

    Holds no reference to its pool, so a pool nobody closed is still
    collected (and its workers stopped) once it is unreachable.
    """
    while True:
        task = tasks.get()
        if task is None:
            return
        job = task.job
        if not job.start():
            continue
        try:
            # Race guarded: a batch call (CalcAllTables, ...) from another
            # Python thread uses this index's memory through DDS's threads;
            # holding the slot for the whole task also keeps the mode=2
            # searches of one task on the table the previous leader left.
            with slots.slot(thread):
                units = task.run(thread)
        except BaseException as exc:  # handed to the caller, who raises it
            job.finish(error=exc, index=task.index)
        else:
            job.finish(units)


def _stop(tasks: queue.SimpleQueue[Task | None], workers: list[threading.Thread]) -> None:
    """Tell ``workers`` to stop after their running tasks, wait for them, let DDS's settings change again."""
    for _ in workers:
        tasks.put(None)
    me = threading.current_thread()
    for w in workers:
        if w is not me:
            w.join()
    slots.unpin()


class Scheduler:
    """Worker threads ``0 .. threads - 1`` taking tasks from one queue; a pool's engine.

    The caller has pinned DDS's thread count (``slots.pin()``); :meth:`close`
    (or collection of the scheduler, or interpreter exit) stops the workers
    and unpins it.  Any number of Python threads may run jobs at once; their
    tasks share the workers.
    """

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self.tasks: queue.SimpleQueue[Task | None] = queue.SimpleQueue()
        # Race guarded: close() against calls starting (a call must not queue
        # tasks after the workers were told to stop) and against itself.
        self._state = threading.Lock()
        self._closed = False
        self._jobs: set[Job] = set()
        self._workers = [
            threading.Thread(target=_work, args=(self.tasks, k), name=f"ddsbind-pool-{k}", daemon=True)
            for k in range(threads)
        ]
        for w in self._workers:
            w.start()
        # Stops the workers and unpins DDS's thread count on close(), or when
        # a scheduler nobody closed is collected, or at interpreter exit.
        self._stopper = weakref.finalize(self, _stop, self.tasks, self._workers)

    def close(self) -> None:
        """Stop the workers once their running tasks finish; jobs waiting raise ``KeyboardInterrupt``.  Idempotent."""
        with self._state:
            if self._closed:
                return
            self._closed = True
            jobs = list(self._jobs)
        for job in jobs:
            job.cancel(closed=True)
        self._stopper()

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran."""
        return self._closed

    def run(self, job: Job, tasks: Iterator[Task], progress: Progress | None) -> None:
        """Feed ``tasks`` to the workers a few at a time and wait for them all.

        At most ``QUEUED_PER_THREAD * threads`` tasks wait in the queue, so
        a call over millions of deals never holds millions of tasks; the
        caller tops the queue up as tasks finish.  ``progress`` is fed the
        job's finished units.  Ctrl-C (or any error) stops the job: queued
        tasks are dropped, running ones finish, then the error is raised.
        """
        if progress is not None and not callable(progress) and callable(getattr(progress, "update", None)):
            progress = progress.update  # a tqdm bar
        self.register(job)
        window = QUEUED_PER_THREAD * self.threads
        submitted = reported = 0
        exhausted = False
        try:
            while True:
                with job.cond:
                    if job.cancelled or job.left == 0:
                        break
                    room = window - (submitted - (job.total - job.left))
                    if room <= 0 or exhausted:
                        job.cond.wait(POLL)
                        room = 0
                    units = job.finished_units
                if progress is not None and units > reported:
                    progress(units - reported)
                    reported = units
                for _ in range(room):
                    task = next(tasks, None)
                    if task is None:
                        exhausted = True
                        break
                    self.tasks.put(task)
                    submitted += 1
        except BaseException:
            job.cancel()
            self.drain(job)
            raise
        self.finish(job)
        if progress is not None and job.finished_units > reported:
            progress(job.finished_units - reported)

    def register(self, job: Job) -> None:
        with self._state:
            if self._closed:
                raise StateError("this SolverPool is closed")
            self._jobs.add(job)

    def wait(self, job: Job) -> None:
        """Wait for a job whose tasks are all queued (``imap_tables``'s small jobs)."""
        try:
            with job.cond:
                while job.left and not job.cancelled:
                    job.cond.wait(POLL)
        except BaseException:
            job.cancel()
            self.drain(job)
            raise
        self.finish(job)

    def finish(self, job: Job) -> None:
        """After a job stopped: wait for its running tasks, then raise its error if any."""
        self.drain(job)
        if job.error is not None:
            raise job.error
        if job.closed:
            raise KeyboardInterrupt("the SolverPool was closed while this call was solving")

    def drain(self, job: Job) -> None:
        """Wait until no task of a stopped ``job`` runs (queued ones are dropped)."""
        with job.cond:
            while job.running:
                job.cond.wait(POLL)
        with self._state:
            self._jobs.discard(job)
