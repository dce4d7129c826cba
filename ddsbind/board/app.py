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
(:class:`_Cache`), and concurrent requests for one position share one solve;
once a position is answered, the positions after each of its distinct cards
are solved ahead while the player thinks, so the next click finds its
answer waiting (``benchmarks/bench_board.py`` measures a click).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
import threading
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any, TypeVar

from ddsbind.board.boards import (
    DEFAULT_PORT,
    PORT_TRIES,
    SD_MAX_SAMPLES,
    SD_SAMPLES,
    SD_SEED,
    Board,
    BoardQuery,
    RecordBoards,
    board_json,
    board_query,
    contract_text,
    deal_board,
    exports,
    load_boards,
    position,
    position_json,
    read_query,
    seen_by_default,
    single_dummy_view,
)
from ddsbind.deal import SEAT_LETTERS, Seat, Strain
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


_T = TypeVar("_T")

#: At most this many boards are listed to choose from (any other opens by its address, ?board=N).
LISTED = 2000

#: The assets, by the exact path that serves them, and their media types.
_ASSETS = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/assets/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/assets/board.css": ("board.css", "text/css; charset=utf-8"),
    "/assets/favicon.svg": ("favicon.svg", "image/svg+xml"),
}

_SECURITY_HEADERS = {
    # Only the server's own script, style and requests: the page works offline and loads nothing else.
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'self'; "
        # Framed only by pages of this machine: a notebook's inline board (show()).
        "frame-ancestors 'self' http://localhost:* http://127.0.0.1:*"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _finite(interval: tuple[float, float]) -> list[float | None]:
    """An interval for JSON, which has no NaN: null where there is none (one layout has no spread)."""
    return [None if math.isnan(x) else x for x in interval]


class _Cache:
    """Results by key, each computed once: concurrent askers of one key await one task.

    Keeps the ``size`` most recently used results.  A failed computation is
    not kept (the next request tries again and gets the error again).
    Used from the event loop's thread only, so no lock.
    """

    def __init__(self, size: int = 20000) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()
        #: Computations started, and how many times for each key: a test reads them to see a position solved once.
        self.computed = 0
        self.times: Counter[Hashable] = Counter()

    def pending(self) -> list[asyncio.Future[Any]]:
        """The computations under way."""
        return [f for f in self._items.values() if not f.done()]

    async def get(self, key: Hashable, compute: Callable[[], Awaitable[_T]]) -> _T:
        fut = self._items.get(key)
        if fut is None:
            self.computed += 1
            self.times[key] += 1
            fut = asyncio.ensure_future(compute())
            self._items[key] = fut
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        else:
            self._items.move_to_end(key)
        try:
            return await asyncio.shield(fut)
        except Exception:
            if self._items.get(key) is fut:
                del self._items[key]
            raise


class _State:
    """What the app serves: the boards (or the file's error), the pool, the caches."""

    def __init__(
        self, boards: list[Board] | RecordBoards, error: str | None, source: str | None, threads: int | None
    ) -> None:
        from ddsbind.pool import SolverPool

        self.boards = boards
        self.error = error
        self.source = source
        self.pool = SolverPool(threads)
        self.solutions = _Cache()
        self.tables = _Cache(2000)
        self.analyses = _Cache(2000)
        self.single_dummies = _Cache(200)
        self.threads = threads
        self.handlers: dict[str, Callable[[dict[str, str]], Awaitable[dict[str, Any]]]] = {}
        self._by_number: dict[int, list[Board]] = {}
        self._indexed = 0
        #: Whether the positions after each card are solved ahead, while the player thinks.
        self.prefetch = True
        #: The solving ahead under way (kept until done: the loop holds tasks weakly).
        self.ahead: set[asyncio.Future[None]] = set()
        self.assets = {path: ((resources.files(__package__) / "assets" / name).read_bytes(), media)
                       for path, (name, media) in _ASSETS.items()}  # fmt: skip

    def by_number(self) -> dict[int, list[Board]]:
        """The boards by the file's board number, in file order (kept up to date as :meth:`BoardServer.add` adds)."""
        if self._indexed != len(self.boards):
            for b in self.boards[self._indexed :]:
                self._by_number.setdefault(b.file_board, []).append(b)
            self._indexed = len(self.boards)
        return self._by_number

    def board(self, q: BoardQuery) -> Board:
        """The board a query names: ``deal=PBN`` (pasted), else the file's ``board=N`` (its first table by default)."""
        from ddsbind.errors import InvalidArgumentError

        if q.deal:
            return deal_board(q.deal, dealer=q.dealer, vulnerable=q.vulnerable)
        if self.error is not None:
            raise InvalidArgumentError(self.error)
        if not self.boards:
            raise InvalidArgumentError("no deal: paste one")
        number = self.boards[0].file_board if q.board is None else q.board
        if isinstance(self.boards, RecordBoards):  # board n is record n - 1: nothing to index
            if number > len(self.boards) or (q.table or 1) != 1 or q.room is not None:
                raise InvalidArgumentError(
                    f"board {number}: this file has boards 1 to {len(self.boards)}, one table each"
                )
            return self.boards[number - 1]
        tables = self.by_number().get(number, [])
        if not tables:
            numbers = sorted({b.file_board for b in self.boards})
            span = f"{numbers[0]} to {numbers[-1]}" if numbers == list(range(numbers[0], numbers[-1] + 1)) else (
                ", ".join(map(str, numbers[:20])) + (" ..." if len(numbers) > 20 else ""))  # fmt: skip
            raise InvalidArgumentError(f"board {number}: this file has boards {span}")
        if q.room is not None:
            rooms = [b for b in tables if (b.room or "").lower() == q.room]
            if not rooms:
                held = ", ".join(sorted({b.room.lower() for b in tables if b.room})) or "none named"
                raise InvalidArgumentError(f"board {number} was not played in the {q.room} room (rooms: {held})")
            tables = rooms
        if q.table is not None:
            if q.table > len(tables):
                raise InvalidArgumentError(f"board {number} was played at {len(tables)} table(s), not {q.table}")
            return tables[q.table - 1]
        return tables[0]


class _HostGuard:
    """ASGI: refuses (421) every HTTP request whose ``Host`` is not one of ``hosts``; passes the rest to ``app``."""

    def __init__(self, app: Any, hosts: set[str], state: _State) -> None:
        self.app = app
        self.hosts = {h.lower().encode("latin-1") for h in hosts}
        #: The boards, the pool and the caches the app serves.
        self.state = state

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").lower()
            if host not in self.hosts:
                from starlette.responses import PlainTextResponse

                refusal = PlainTextResponse("refused: this board answers only its own address", status_code=421)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    boards: list[Board] | RecordBoards,
    *,
    hosts: set[str],
    error: str | None = None,
    source: str | None = None,
    threads: int | None = None,
) -> _HostGuard:
    """The Starlette app serving ``boards`` (or ``error``, the file's one line) to requests for ``hosts``.

    ``hosts`` are the exact ``Host`` header values answered (``"127.0.0.1:8000"``).
    """
    from anyio import to_thread
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    state = _State(boards, error, source, threads)

    async def in_thread(fn: Callable[..., _T], *args: Any) -> _T:
        # The pool's calls block their caller until the workers finish: wait in a worker thread.
        return await to_thread.run_sync(fn, *args)

    def failing(
        handler: Callable[[dict[str, str]], Awaitable[dict[str, Any]]],
    ) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                doc = await handler(dict(request.query_params))
            except Error as exc:
                return JSONResponse({"error": str(exc)}, status_code=400, headers=_SECURITY_HEADERS)
            return JSONResponse(doc, headers=_SECURITY_HEADERS)

        return endpoint

    async def boards_doc(query: dict[str, str]) -> dict[str, Any]:
        listed = []
        lazy = isinstance(state.boards, RecordBoards)
        by_number = {} if lazy else state.by_number()
        for b in state.boards[:LISTED]:
            g = b.game
            listed.append({"number": b.file_board, "room": b.room, "table": b.table, "label": b.label,
                           "query": board_query(b, 1 if lazy else len(by_number[b.file_board])),
                           "contract": None if g is None else contract_text(g),
                           "declarer": None if g is None or g.declarer is None else g.declarer.name})  # fmt: skip
        name = None if state.source is None else os.path.basename(state.source)
        return {"source": name, "error": state.error, "boards": listed, "count": len(state.boards)}

    async def dd_table(board: Board) -> Any:
        async def table() -> Any:
            return (await in_thread(state.pool.dd_tables, [board.deal]))[0]

        return await state.tables.get(board.deal, table)

    async def contract(board: Board, q: BoardQuery) -> dict[str, Any]:
        """The contract played: the query's, else the record's, else par's (DDS's DealerPar), else 1NT by South."""
        from ddsbind.scoring import DealerParContract
        from ddsbind.solver import dealer_par

        strain, declarer, level, doubled, source = q.strain, q.declarer, q.level, q.doubled or 0, "chosen"
        g = board.game
        rec = g.bid if g is not None else None
        by = g.declarer if g is not None else None
        if rec is not None and strain in (None, rec.strain) and declarer in (None, by):
            strain, declarer, source = rec.strain, by, "record"
            if level in (None, rec.level) and q.doubled in (None, rec.doubled):
                level, doubled = rec.level, rec.doubled
            else:
                source = "chosen"
        if strain is None or declarer is None:
            t = await dd_table(board)
            items = [i for i in dealer_par(t, board.dealer or Seat.N, board.vulnerable).contracts if i.strip()]
            if items:
                p = DealerParContract.parse(items[0])
                if strain is None and declarer is None:
                    level, doubled, source = p.contract.level, p.contract.doubled, "par"
                strain = p.contract.strain if strain is None else strain
                declarer = p.declarers[0] if declarer is None else declarer
        strain = Strain.NT if strain is None else strain
        declarer = Seat.S if declarer is None else declarer
        return {"strain": strain, "declarer": declarer, "level": level, "doubled": doubled, "source": source}

    async def at(q: BoardQuery, to_fault: bool) -> tuple[Board, Any, dict[str, Any]]:
        board = state.board(q)
        c = await contract(board, q)
        return board, position(board, q.play, c["strain"], c["declarer"], to_fault=to_fault), c

    def contract_json(board: Board, c: dict[str, Any]) -> dict[str, Any]:
        from ddsbind.scoring import Contract

        declarer: Seat = c["declarer"]
        k = Contract(c["level"] or 1, c["strain"], c["doubled"], declarer)  # a strain chosen alone: level 1
        ours = board.vulnerable.is_vulnerable(declarer)
        return {"level": k.level, "strain": k.strain.name, "doubled": k.doubled, "declarer": declarer.name,
                "text": str(k).split(" by ")[0], "source": c["source"], "target": k.trick_target,
                "scores": [k.score(n, board.vulnerable) for n in range(14)], "declarer_vulnerable": ours}  # fmt: skip

    async def position_doc(query: dict[str, str]) -> dict[str, Any]:
        board, pos, c = await at(read_query(query), True)
        return {"board": board_json(board), "position": position_json(pos), "contract": contract_json(board, c)}

    def solved(pos: Any) -> Awaitable[Any]:
        """Every legal card's score at ``pos``, solved once (the cache) on the pool."""
        deal, strain, leader, trick = pos.solve_args
        key = (deal, int(strain), int(leader), trick)

        async def solve() -> Any:
            return (await in_thread(state.pool.solve_boards, [(deal, strain, leader, trick)]))[0]

        return state.solutions.get(key, solve)

    async def ahead(board: Board, pos: Any, sols: Any) -> None:
        """Solve, while the player thinks, the positions after each distinct card here (one of each equal group)."""
        for sc in sols:
            nxt = position(board, [*pos.play, sc.card], pos.strain, pos.declarer)
            if not nxt.state.finished:
                with contextlib.suppress(Error):
                    await solved(nxt)

    async def solve_doc(query: dict[str, str]) -> dict[str, Any]:
        board, pos, _c = await at(read_query(query), False)
        if pos.state.finished:
            return {"play": position_json(pos)["play"], "to_play": None, "cards": []}
        sols = await solved(pos)
        if state.prefetch:
            task = asyncio.ensure_future(ahead(board, pos, sols))
            state.ahead.add(task)
            task.add_done_callback(state.ahead.discard)
        cards = [{"card": str(sc.card), "score": sc.score, "equals": [str(c) for c in sc.equals]} for sc in sols]
        return {"play": [str(c) for c in pos.play], "to_play": pos.state.to_play.name, "cards": cards}

    async def table_doc(query: dict[str, str]) -> dict[str, Any]:
        from ddsbind.solver import par as par_of

        board = state.board(read_query(query))
        t = await dd_table(board)
        par = par_of(t, board.vulnerable)
        rows = {
            s.name: {seat: t[s, seat] for seat in SEAT_LETTERS}
            for s in (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
        }
        return {"table": rows, "par": par.words(), "par_score": par.score}

    async def analysis_doc(query: dict[str, str]) -> dict[str, Any]:
        board = state.board(read_query(query))
        g = board.game
        if g is None or g.strain is None or g.leader is None or not g.play:
            return {"trace": None, "costly": []}
        strain, leader, play = g.strain, g.leader, g.play

        def analyse() -> tuple[list[int], list[Any]]:
            from ddsbind.play import costly_cards
            from ddsbind.solver import analyse_play

            return (
                analyse_play(board.deal, strain, leader, play),
                costly_cards(board.deal, strain, leader, play),
            )

        async def run() -> tuple[list[int], list[Any]]:
            return await in_thread(analyse)

        trace, costly = await state.analyses.get((board.deal, id(g)), run)
        return {
            "trace": trace,
            "costly": [c.to_json() for c in costly],
        }

    async def export_doc(query: dict[str, str]) -> dict[str, Any]:
        from ddsbind.scoring import Contract

        board, pos, c = await at(read_query(query), False)
        contract = Contract(c["level"] or 1, c["strain"], c["doubled"], c["declarer"])
        return exports(board, contract, pos.play)

    async def single_dummy_doc(query: dict[str, str]) -> dict[str, Any]:
        from ddsbind.dealer.single_dummy import single_dummy
        from ddsbind.scoring import Contract

        q = read_query(query)
        _board, pos, c = await at(q, False)
        see = seen_by_default(pos) if q.see is None else q.see
        view = single_dummy_view(pos, see)
        contract = Contract(c["level"] or 1, c["strain"], c["doubled"], c["declarer"])
        played = tuple(str(card) for card in pos.play)
        samples = SD_SAMPLES if q.samples is None else q.samples
        seed = SD_SEED if q.seed is None else q.seed

        def run() -> Any:
            return single_dummy(view, contract=contract, played=played, samples=samples, seed=seed,
                                threads=state.threads)  # fmt: skip

        async def solve() -> Any:
            return await in_thread(run)

        r = await state.single_dummies.get((view, str(contract), played, samples, seed), solve)
        cards = []
        for card in r.cards:
            cards.append({"card": card.card, "equals": list(card.equals), "makes": card.makes,
                          "makes_ci": _finite(card.makes_ci), "vs_best": card.makes_vs_best,
                          "vs_best_ci": _finite(card.makes_vs_best_ci)})  # fmt: skip
        return {"view": view, "see": [seat.name for seat in see], "contract": str(contract), "play": list(played),
                "to_play": pos.state.to_play.name, "declaring": r.problem.declaring, "exact": r.exact,
                "samples": r.samples, "seed": r.seed, "confidence": r.confidence, "cards": cards,
                "more": None if r.exact or samples >= SD_MAX_SAMPLES else min(4 * samples, SD_MAX_SAMPLES)}  # fmt: skip

    async def asset(request: Request) -> Response:
        body, media = state.assets[request.url.path]
        return Response(body, media_type=media, headers=_SECURITY_HEADERS)

    #: The answers by route name, for a page written without a server (:func:`export_html`).
    state.handlers = {"boards": boards_doc, "position": position_doc, "solve": solve_doc, "table": table_doc,
                      "analysis": analysis_doc, "export": export_doc}  # fmt: skip
    routes = [Route(path, asset) for path in _ASSETS]
    for path, handler in (
        ("/api/boards", boards_doc),
        ("/api/position", position_doc),
        ("/api/solve", solve_doc),
        ("/api/table", table_doc),
        ("/api/analysis", analysis_doc),
        ("/api/export", export_doc),
        ("/api/single-dummy", single_dummy_doc),
    ):
        routes.append(Route(path, failing(handler)))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            # Solving ahead stops; the solves under way finish before their pool closes.
            for task in list(state.ahead):
                task.cancel()
            await asyncio.gather(
                *state.ahead, *state.solutions.pending(), *state.single_dummies.pending(), return_exceptions=True
            )
            state.pool.close()
            if isinstance(state.boards, RecordBoards):
                state.boards.close()

    return _HostGuard(Starlette(routes=routes, lifespan=lifespan), hosts, state)


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
    from ddsbind.deal import Deal, Seat, Vulnerability

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
