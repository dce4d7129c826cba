"""The analysis board's Starlette app: its routes and what each answers, the state they share, the host guard.

:func:`create_app` builds the app :class:`~ddsbind.board.app.BoardServer`
serves (and :func:`~ddsbind.board.app.static_page` asks without a server):
the routes, the boards and the query that names one (:class:`_State`), the
:class:`~ddsbind.SolverPool` and the caches of solved positions, tables,
analyses and single-dummy views (:class:`_Cache`), and the guard refusing
any other ``Host``.  :mod:`ddsbind.board.app`'s docstring describes the
routes, their safety and their speed; its :func:`~ddsbind.board.app.create_app`
is this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from importlib import resources
from typing import Any, TypeVar

from ddsbind.board.boards import (
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
    position,
    position_json,
    read_query,
    seen_by_default,
    single_dummy_view,
)
from ddsbind.deal import SEAT_LETTERS, Seat, Strain
from ddsbind.errors import Error

__all__ = ["LISTED", "create_app"]

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
