"""The analysis board's server: a Starlette app on uvicorn, bound to 127.0.0.1, solving on a SolverPool.

Routes (all ``GET``; nothing a request names is ever opened as a file):

``/``
    The page (``assets/index.html``).
``/assets/board.js``, ``/assets/board.css``, ``/assets/favicon.svg``
    Its script, style and icon, read from the package once at start-up and served
    from memory by exact name.
``/api/boards``
    The boards of the file named on the command line (or the one deal), or
    the file's one-line error.
``/api/position``, ``/api/solve``, ``/api/table``, ``/api/analysis``, ``/api/export``, ``/api/single-dummy``
    For ``?board=N`` (the file's board number, with ``room`` or ``table``;
    or ``?deal=PBN``, LIN or a handviewer address) with ``play=HJ,H2``,
    optional ``strain``, ``leader`` (or ``declarer``), ``level``: the
    position (no solving but par's contract for a deal without one), every
    legal card's score (DDS's ``SolveBoard`` on the pool), the double-dummy
    table and par, a game record's costly cards, and the deal and play as
    PBN, LIN and a handviewer address, and the single-dummy view of the hand
    to play (:func:`ddsbind.single_dummy` with the hands not in ``see``
    hidden, ``samples`` layouts, 200 by default, seed ``seed``, 1 by
    default: each legal card's make odds and their difference from the best
    card's, with 95% intervals).  Every query parameter is read by
    :func:`~ddsbind.board.boards.read_query`; a bad one answers 400 with
    ``{"error": "<the library's one line>"}``; a bad card in ``play`` is
    answered in place (the position before it, and ``fault`` saying why).

Safety: every request whose ``Host`` header is not ``127.0.0.1:PORT`` or
``localhost:PORT`` is refused (421) before routing, so a page on another
site cannot reach the board through DNS rebinding; the page's
Content-Security-Policy allows only the server's own scripts, styles and
requests.

Speed: solving runs on the pool's threads, awaited in a worker thread so
the event loop never blocks; each position (the cards still held, trump,
leader and current trick) and each deal's table is solved once and kept
(``ddsbind.board._routes``), and concurrent requests for one position share one solve;
once a position is answered, the positions after each of its distinct cards
are solved ahead while the player thinks, so the next click finds its
answer waiting (``benchmarks/bench_board.py`` measures a click).
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any

from ddsbind.board._routes import create_app
from ddsbind.board.boards import (
    DEFAULT_PORT,
    PORT_TRIES,
    Board,
    RecordBoards,
    deal_board,
    load_boards,
    position,
    read_query,
)
from ddsbind.deal import SEAT_LETTERS, Seat
from ddsbind.errors import Error

__all__ = [
    "DEFAULT_PORT",
    "BoardFrame",
    "BoardServer",
    "create_app",
    "export_html",
    "show",
    "static_page",
    "stop_shown",
]


class BoardServer:
    """The analysis board on ``http://127.0.0.1:PORT/``: a file's boards, one deal, or a page to paste one.

    Parameters
    ----------
    source : str, path or None
        A file ddsbind reads (PBN, LIN, ZRJ, ZRD...), every board
        navigable; or a PBN deal string; or None for the paste page.  A file
        that cannot be read is not raised here: the page shows its one-line
        error.
    port : int or None
        The port on 127.0.0.1: None for :data:`DEFAULT_PORT` or the next
        free one above it; 0 for any free one (:attr:`url` tells which).
    threads : int or None
        The :class:`~ddsbind.SolverPool`'s threads (None: every thread DDS runs).

    Examples
    --------
    ``with BoardServer("examples/data/session.lin") as server: print(server.url)``
    serves in a background thread until the block ends; :meth:`serve`
    serves in the calling thread until Ctrl-C.
    """

    def __init__(
        self, source: str | os.PathLike[str] | None = None, *, port: int | None = 0, threads: int | None = None
    ) -> None:
        import uvicorn

        boards, error, name = _open(source)
        self._socket = _listen(port)
        self._address: tuple[str, int] = self._socket.getsockname()[:2]
        self.port: int = self._address[1]
        hosts = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        self.app = create_app(boards, hosts=hosts, error=error, source=name, threads=threads)
        #: The boards, the pool and the caches served.
        self.state = self.app.state
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    @property
    def address(self) -> tuple[str, int]:
        """The address the server listens on: ``("127.0.0.1", port)``."""
        return self._address

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.port}/"

    def serve(self) -> None:
        """Serve in the calling thread until Ctrl-C (or :meth:`stop` from another thread)."""
        try:
            self._server.run(sockets=[self._socket])
        finally:
            self._socket.close()

    def start(self) -> BoardServer:
        """Serve in a background thread; returns once the server answers."""
        self._thread = threading.Thread(target=self.serve, name="ddsbind-board", daemon=True)
        self._thread.start()
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the board's server stopped while starting")
            self._thread.join(0.05)
        return self

    def stop(self) -> None:
        """Stop serving (and wait for the background thread, if any)."""
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def add(self, item: Any, label: str | None = None) -> int:
        """Add a board to those served: a :class:`~ddsbind.Deal`, a PBN string or a game record; returns its number.

        A deal gets dealer N and nobody vulnerable; a game record keeps its
        own, its auction and play.  Raises the deal's error for a bad one.
        """
        boards = self.state.boards
        if not isinstance(boards, list):
            raise TypeError("a board server of a record file takes no more boards")
        n = len(boards) + 1
        board = _as_board(item, n)
        if label is not None:
            board = Board(board.number, board.deal, board.dealer, board.vulnerable, label, board.game)
        boards.append(board)  # the event loop reads the list; an append is one step for it
        return n

    @property
    def running(self) -> bool:
        """Whether the server answers (started and not stopped)."""
        return bool(self._server.started) and not self._server.should_exit

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _listen(port: int | None) -> socket.socket:
    """A socket bound to 127.0.0.1:``port`` (None: :data:`DEFAULT_PORT` or the next free one); OSError if none is."""
    ports = range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES) if port is None else (port,)
    for k, p in enumerate(ports):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", p))
        except OSError:
            sock.close()
            if k == len(ports) - 1:
                raise
            continue
        return sock
    raise AssertionError("unreachable: ports is never empty")


def _open(source: str | os.PathLike[str] | None) -> tuple[list[Board] | RecordBoards, str | None, str | None]:
    """The boards of ``source`` (a file, or a deal string when no such file exists), or its one-line error."""
    if source is None:
        return [], None, None
    text = os.fspath(source)
    if not os.path.exists(text) and ":" in text and text[:1].upper() in SEAT_LETTERS:
        try:
            return [deal_board(text)], None, None
        except Error as exc:
            return [], str(exc), None
    try:
        boards = load_boards(text)
    except (Error, OSError) as exc:
        message = str(exc) if text in str(exc) else f"{text}: {exc}"
        return [], message, text
    if not boards:
        return [], f"{text}: holds no deal", text
    return boards, None, text


class BoardFrame:
    """A board inline in a notebook: the live page on the process's board server, or the static page.

    While the server runs, an ``<iframe>`` of the page (the notebook's
    browser must run on the machine of its kernel: the server listens on
    127.0.0.1); when no server runs (``show(..., live=False)``, or after
    :func:`stop_shown`), the page exported with every position of the
    record's play inside (:func:`static_page`), so a saved notebook still
    shows the deal.
    """

    def __init__(
        self, server: BoardServer | None, url: str | None, board: Board, width: str = "100%", height: int = 820
    ) -> None:
        #: The server showing it (None: static only).
        self.server = server
        #: The page's address (``http://127.0.0.1:PORT/?board=N``): open it in a tab as well; None when static.
        self.url = url
        #: The board shown.
        self.board = board
        self.width = width
        self.height = height
        self._static: str | None = None

    @property
    def live(self) -> bool:
        """Whether the frame shows the live page (its server runs)."""
        return self.server is not None and self.server.running

    def static_html(self) -> str:
        """The static page of the board (made once, on first use)."""
        if self._static is None:
            self._static = static_page([self.board])
        return self._static

    def _repr_html_(self) -> str:
        from html import escape

        size = f'width="{escape(self.width)}" height="{int(self.height)}"'
        style = 'style="border: 1px solid #ccc; border-radius: 6px;" title="ddsbind analysis board"'
        if self.live and self.url is not None:
            return f'<iframe src="{escape(self.url)}" {size} {style}></iframe>'
        return f'<iframe srcdoc="{escape(self.static_html())}" {size} {style}></iframe>'

    def __repr__(self) -> str:
        return f"BoardFrame({self.url!r})" if self.url else f"BoardFrame(static, board {self.board.label})"


_shared: BoardServer | None = None
_shared_lock = threading.Lock()


def _as_board(item: Any, n: int) -> Board:
    """A board of a :class:`~ddsbind.Deal`, a PBN string or a game record, numbered ``n``."""
    from ddsbind.deal import Deal, Vulnerability

    if isinstance(item, str):
        return deal_board(item, n)
    if isinstance(item, Deal):
        return Board(n, item, Seat.N, Vulnerability.NONE, str(n))
    number = getattr(item, "board", None)
    return Board(n, item.deal, item.dealer, item.vulnerable, str(n if number is None else number), item)


def show(
    item: Any,
    *,
    play: str | Sequence[Any] = (),
    width: str = "100%",
    height: int = 820,
    live: bool = True,
) -> BoardFrame:
    """The analysis board inline in a notebook for a :class:`~ddsbind.Deal` (or PBN string) or a game record.

    The first live call starts one board server for the process in a
    background thread (127.0.0.1, :data:`DEFAULT_PORT` or the next free
    port); each call adds a board to it and returns a :class:`BoardFrame`,
    which a notebook shows as the page in an ``<iframe>``.  ``play``: cards
    from the opening lead to start at (``"HJ,H2"`` or a list).  With
    ``live=False`` no server is started: the frame is the static page
    (:func:`static_page`), as every frame is once the server stops.
    """
    global _shared
    cards = play.replace(" ", ",") if isinstance(play, str) else ",".join(str(c) for c in play)
    if not live:
        board = _as_board(item, 1)
        position(board, cards)  # a bad card raises here, not in the frame
        return BoardFrame(None, None, board, width, height)
    with _shared_lock:
        if _shared is None:
            _shared = BoardServer(port=None).start()
        server = _shared
    n = server.add(item)
    board = server.state.boards[n - 1]
    position(board, cards)
    query = f"?board={n}" + (f"&play={cards}" if cards else "")
    return BoardFrame(server, server.url + query, board, width, height)


def stop_shown() -> None:
    """Stop the board server :func:`show` started, if any (the next :func:`show` starts another).

    Its :class:`~ddsbind.SolverPool` closes with it: while a pool is open,
    DDS's thread settings (``SetMaxThreads``, ``SetResources``) cannot change.
    """
    global _shared
    with _shared_lock:
        server, _shared = _shared, None
    if server is not None:
        server.stop()


# -- a page without a server ----------------------------------------------------------------


def static_page(boards: list[Board] | RecordBoards, *, source: str | None = None, threads: int | None = None) -> str:
    """The board's page as one self-contained HTML text: every answer of each board's recorded play inside.

    For every board: the position and every legal card's double-dummy
    result at each card of its record (the first position alone for a deal
    without play), the double-dummy table and par, and the record's costly
    cards; the script and style inline, nothing fetched.  Opened from disk
    (``file://``) it steps through each record as the live board does.
    """
    import json
    import urllib.parse

    app = create_app(boards, hosts=set(), source=source, threads=threads)
    state = app.state
    state.prefetch = False  # the record's positions only
    handlers = state.handlers

    async def collect() -> dict[str, Any]:
        listed = await handlers["boards"]({})
        answers: dict[str, Any] = {}
        for entry in listed["boards"]:
            where = entry["query"]
            query = dict(urllib.parse.parse_qsl(where))
            board = state.board(read_query(query))
            answers[f"table?{where}"] = await handlers["table"](query)
            answers[f"analysis?{where}"] = await handlers["analysis"](query)
            record = [str(c) for c in board.record_play]
            plays = [",".join(record[:k]) for k in range(len(record) + 1)]
            keys = [where + (f"&play={p}" if p else "") for p in plays]
            asked = [{**query, "play": p} for p in plays]
            docs = await asyncio.gather(*(handlers["position"](q) for q in asked))
            sols = await asyncio.gather(*(handlers["solve"](q) for q in asked))
            for key, doc, sol in zip(keys, docs, sols, strict=True):
                answers[f"position?{key}"] = doc
                answers[f"solve?{key}"] = sol
        return {"boards": listed, "answers": answers}

    try:
        # A thread of its own: the caller may run an event loop already (a notebook's kernel, Playwright).
        with ThreadPoolExecutor(1) as one:
            data = one.submit(asyncio.run, collect()).result()
    finally:
        state.pool.close()
    files = resources.files(__package__) / "assets"
    page = (files / "index.html").read_text(encoding="utf-8")
    css = (files / "board.css").read_text(encoding="utf-8")
    js = (files / "board.js").read_text(encoding="utf-8")
    # "</" escaped: no text of a record can close the script element early.
    blob = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    page = page.replace('<link rel="stylesheet" href="/assets/board.css">', f"<style>\n{css}</style>")
    page = page.replace('<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">\n', "")
    page = page.replace(
        '<script src="/assets/board.js" defer></script>',
        f'<script id="static-data" type="application/json">{blob}</script>\n<script>\n{js}</script>',
    )
    return page


def export_html(source: str | os.PathLike[str], out: str | os.PathLike[str], *, threads: int | None = None) -> int:
    """Write :func:`static_page` of a file's boards (or one PBN deal) to ``out``; returns the bytes written.

    Raises ``InvalidArgumentError`` with the file's one-line error when it cannot be read.
    """
    from ddsbind.errors import InvalidArgumentError

    boards, error, name = _open(source)
    if error is not None:
        raise InvalidArgumentError(error)
    text = static_page(boards, source=name, threads=threads).encode("utf-8")
    with open(out, "wb") as f:
        f.write(text)
    return len(text)
