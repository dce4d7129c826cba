"""What every command group shares: the error boundary, progress bars, warnings, option types.

Results go to stdout; progress, warnings and errors to stderr.  An error the
package raises on purpose (:class:`ddsbind.Error`) or a file error
(``OSError``) is one line, ``ddsbind: error: ...``, and exit status 1 (the
error's own ``str()``: its location fields rendered by
:func:`ddsbind.errors.where`, records counted from 1; no message text is
rewritten here), raised as one click exception, :class:`CommandError`; a
warning is one line, ``ddsbind: warning: ...``, from every command alike.
A reader of stdout that goes away (``ddsbind analyse FILE | head``) ends
the command quietly, with the status a SIGPIPE gives (141), as dealer does.
Anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import IO, Any, NoReturn, TextIO, TypeVar, cast

import click

from ddsbind._typing import Progress
from ddsbind.errors import Error

_Command = TypeVar("_Command", bound=Callable[..., Any])


class BridgeWord(click.ParamType):
    """A seat, side, strain or vulnerability read by the library's own ``parse``: one set of spellings everywhere.

    The value is the library's member (``Seat``, ``Side``, ``Strain``, ``Vulnerability``),
    whose ``str()`` is the bridge word; a bad spelling is click's usage error
    listing the spellings.
    """

    def __init__(self, kind: str, words: str) -> None:
        self.name = kind
        self._words = words

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return f"[{self._words}]"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> object:
        from ddsbind.deal import Seat, Side, Strain, Vulnerability

        kind = {"seat": Seat, "side": Side, "strain": Strain, "vulnerability": Vulnerability}[self.name]
        try:
            return kind.parse(value)  # type: ignore[arg-type]
        except Error:
            self.fail(f"{value!r} is not a {self.name} ({self._words})", param, ctx)


#: N/E/S/W or north/east/south/west, any case.
SEAT = BridgeWord("seat", "N|E|S|W")
#: NS/EW (N-S, E/W, northsouth), any case.
SIDE = BridgeWord("side", "NS|EW")
#: S/H/D/C, N/NT, or spades/hearts/diamonds/clubs/notrump, any case.
STRAIN = BridgeWord("strain", "S|H|D|C|NT")
#: none/love/-, all/both/b, ns, ew (N-S, E-W), any case: the same words PBN and dealer scripts use.
VUL = BridgeWord("vulnerability", "none|all|both|ns|ew")
COUNT = click.IntRange(min=0)
POSITIVE = click.IntRange(min=1)


class _OldSpelling(click.Option):
    """An option's former spelling: ``(DEPRECATED: use --new)`` in ``--help``, the warning ddsbind's own line."""

    def __init__(self, decls: list[str], new: str, **attrs: Any) -> None:
        super().__init__(decls, deprecated=f"use {new}", **attrs)
        self.deprecated = False  # the label is in the help; renamed_option warns as every ddsbind warning prints


def renamed_option(old: str, new: str) -> Callable[[_Command], _Command]:
    """Accept ``old`` (``--trump``), a command's former spelling of its option ``new`` (``--strain``), deprecated.

    Put it above the ``new`` option's decorator.  ``old`` takes what ``new``
    takes; using it prints ``ddsbind: warning: --trump is deprecated; use
    --strain``; both with different values is a usage error.  A ``new``
    option declared ``required`` is required as "one of the two".
    """

    def wrap(command: _Command) -> _Command:
        params: list[click.Parameter] = getattr(command, "__click_params__", [])
        target = next(p for p in params if new in p.opts)
        required, target.required = target.required, False
        if required:  # click shows "[required]" only for an option it checks itself
            target.help = f"{target.help or ''}  [required]"
        name = f"{old.lstrip('-').replace('-', '_')}_old_spelling"

        @functools.wraps(command)
        def call(*args: Any, **kwargs: Any) -> Any:
            was, now = kwargs.pop(name), kwargs.get(str(target.name))
            if was is not None:
                warnings.warn(f"{old} is deprecated; use {new}", DeprecationWarning, stacklevel=1)
                if now is not None and now != was:
                    raise click.UsageError(f"{old} {was} and {new} {now} disagree: give {new} only")
                kwargs[str(target.name)] = was
            elif now is None and required:
                raise click.MissingParameter(ctx=click.get_current_context(), param=target)
            return command(*args, **kwargs)

        # After ``new`` in --help: click lists the parameters in the reverse of this list's order.
        spelling = _OldSpelling([old, name], new, type=target.type, help=f"Old spelling of {new}.")
        params.insert(params.index(target), spelling)
        return cast(_Command, call)

    return wrap


def position_options(command: _Command) -> _Command:
    """A position of play's argument and options, alike wherever a command takes one (``solve``, ``line``).

    DEAL (a PBN deal string), ``--strain`` (old spelling ``--trump``),
    ``--leader`` (the seat on lead to the current trick) and ``--trick``
    (the cards already played to it).
    """
    options = [
        click.argument("deal"),
        renamed_option("--trump", "--strain"),
        click.option("--strain", type=STRAIN, required=True, help="The strain: trumps, or NT for notrump."),
        click.option("--leader", type=SEAT, required=True, help="The hand on lead to the current trick (who led it)."),
        click.option("--trick", default="", help="Cards already played to the current trick, e.g. 'SA,S2'."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


class FormatChoice(click.Choice):
    """The names in the table of formats (``games=True``: those holding game records), looked up when first needed.

    Importing the CLI stays light: the table is read only when a command
    checks or lists the choices.
    """

    def __init__(self, *, games: bool = False) -> None:
        self._games = games
        super().__init__((), case_sensitive=False)

    @property
    def choices(self) -> tuple[str, ...]:
        from ddsbind.formats import games, registry

        return tuple(f.name for f in (games.game_formats() if self._games else registry.formats()))

    @choices.setter
    def choices(self, value: object) -> None:
        """click.Choice sets its choices once at construction; the table is the only source here."""


class CommandError(click.ClickException):
    """A command refused or failed: click prints it as one line, ``ddsbind: error: <message>``, and exits 1.

    The one way a command ends in error.  Its own refusals (conflicting
    options, a missing extra) raise it with their message; the boundary
    (:class:`Group`) raises it for a :class:`ddsbind.Error` (its ``str()``,
    location fields and all) or an ``OSError`` (``path: reason``), the
    library's exception chained as ``__cause__`` for a debugger.
    """

    exit_code = 1

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"ddsbind: error: {self.format_message()}", file=file, err=file is None)

    @classmethod
    def of(cls, exc: Error | OSError) -> CommandError:
        """The one line for a library error (its own ``str()``) or a file error (``path: reason``)."""
        if isinstance(exc, OSError) and exc.filename and exc.strerror:
            return cls(f"{exc.filename}: {exc.strerror}")
        return cls(str(exc))


def fail(message: str) -> NoReturn:
    """Refuse: raise :class:`CommandError` (``ddsbind: error: message`` on stderr, exit status 1)."""
    raise CommandError(message)


def check_image(path: str, flag: str = "--plot") -> None:
    """Refuse, before any work, an image file matplotlib cannot write: no matplotlib, an unknown type, no folder."""
    try:
        import matplotlib
    except ImportError:
        fail(f"{flag} needs matplotlib: pip install matplotlib (the 'plot' extra)")
    matplotlib.use("Agg")
    from matplotlib.backend_bases import FigureCanvasBase

    kinds = FigureCanvasBase.get_supported_filetypes()
    extension = os.path.splitext(path)[1].lower().lstrip(".")
    if extension not in kinds:
        fail(f"{flag} {path}: cannot tell the image format; name the file .{', .'.join(sorted(kinds))}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        fail(f"{flag} {path}: no such folder {folder}")
    if os.path.isdir(path):
        fail(f"{flag} {path}: is a folder")


def one_file_each(files: dict[str, str | None]) -> None:
    """Refuse two options naming one file (``{"-C": "out.txt", "-X": "out.txt"}``) in one line; ``-`` may repeat."""
    seen: dict[str, str] = {}
    for flag, name in files.items():
        if name is None or name == "-":
            continue
        key = os.path.realpath(name)
        if key in seen:
            fail(f"{seen[key]} and {flag} both name {name}: give each its own file")
        seen[key] = flag


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    click.echo(f"ddsbind: warning: {message}", err=True)


def closed_pipe() -> NoReturn:
    """Stop quietly because the reader of stdout went away (``| head``): exit status 141, as a SIGPIPE gives."""
    # Python would flush stdout again at exit and meet the closed pipe a second time ("Exception ignored").
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(141)


class Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``, ``timeout``, a CI's cancel) met while a command runs: unwinds as Ctrl-C does.

    A ``KeyboardInterrupt``, so every cleanup written for Ctrl-C (a pool's
    cancelled tasks, an atomic output's part) runs for it too.
    """


@contextlib.contextmanager
def terminated_as_interrupted() -> Iterator[None]:
    """Turn SIGTERM into an exception that unwinds the command, so every cleanup Ctrl-C runs runs for it too.

    Python's default for SIGTERM is to die at once: no ``finally``, no
    ``except BaseException``, so an atomic output's hidden ``.part`` file was
    left beside its target.  The one rule: every signal that stops a command
    unwinds it.  The status is 143 (128 + SIGTERM), as a process killed by
    the signal reports.  Outside the main thread (a command called from a
    worker) signals cannot be caught and nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    except Terminated:
        # Every cleanup has run (the unwinding did it).  Exit at once, as the
        # signal's default would: a solver thread still inside DDS 2.9.0 (its
        # upstream build) crashes an interpreter that finalises beside it.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(128 + signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)


class Group(click.Group):
    """A click group that is the program's boundary: library errors become one line and exit 1.

    ``ddsbind.Error``, ``OSError`` and a file argument click finds missing
    or unreadable are reported; a closed stdout pipe ends
    the command quietly (:func:`closed_pipe`); every other exception is a
    bug and propagates with its traceback.  Warnings, from any thread, print
    as ``ddsbind: warning: ...`` while a command runs.
    """

    def invoke(self, ctx: click.Context) -> object:
        with warnings.catch_warnings(), terminated_as_interrupted():
            warnings.simplefilter("always")
            warnings.showwarning = _show_warning
            try:
                result = super().invoke(ctx)
                sys.stdout.flush()  # a closed pipe shows here, inside the boundary, not at exit
                return result
            except BrokenPipeError:
                closed_pipe()
            except click.BadParameter as exc:
                if not isinstance(exc.param.type if exc.param else None, click.Path):
                    raise
                raise CommandError(_file_fault(exc.message)) from exc  # missing or unreadable: one answer
            except (Error, OSError) as exc:
                raise CommandError.of(exc) from exc


def _file_fault(message: str) -> str:
    """click's ``File 'x' does not exist.`` as the system says it: ``x: No such file or directory``."""
    m = re.search(r"'(.*)' (does not exist|is not readable)", message)
    if m is None:
        return message
    return f"{m.group(1)}: {os.strerror(errno.ENOENT if m.group(2) == 'does not exist' else errno.EACCES)}"


@contextlib.contextmanager
def about(path: str | os.PathLike[str], *named: str | os.PathLike[str]) -> Iterator[None]:
    """Name ``path`` in any library error raised inside (``"games.pbn: record 4: ..."``, its ``path`` field), once.

    An error that already names a file is left as it is: its ``path``
    field set, or ``path`` or one of ``named`` (files the code inside reads
    besides ``path``, such as a dealer run's library) in its message.
    """
    name = os.fspath(path)
    try:
        yield
    except Error as exc:
        text = str(exc)
        if exc.path is None and not any(os.fspath(p) in text for p in (name, *named)):
            exc.locate(path=name)
        raise


def _ignore(_done: int) -> None:
    """The progress callback where no bar is drawn."""


def json_output(what: str) -> Callable[[_Command], _Command]:
    """``--json`` (the parameter ``as_json``): the command prints ``what`` as one JSON document on stdout."""
    return click.option("--json", "as_json", is_flag=True, help=f"{what} as one JSON document on stdout.")


#: ``--quiet``: no progress bar, even on a terminal (the commands that read or write many records).
QUIET = click.option("--quiet", is_flag=True, help="No progress bar on standard error.")


@contextlib.contextmanager
def progress(desc: str, total: int | None = None, unit: str = "record", *, quiet: bool = False) -> Iterator[Progress]:
    """A progress callback for library code, drawn as a tqdm bar on stderr (only on a terminal, never ``quiet``)."""
    if quiet or not sys.stderr.isatty():
        # What tqdm's disable=None decides, without importing tqdm (a tenth of a small command's start).
        yield _ignore
        return
    from tqdm import tqdm

    scale = unit == "B"  # bytes: shown as kB, MB, GB
    with tqdm(total=total, desc=desc, unit=unit, unit_scale=scale, file=sys.stderr, disable=None, leave=False) as bar:
        yield bar.update
