"""The analysis board: play any deal double dummy in the browser, card by card.

``ddsbind board [FILE | DEAL]`` (or :class:`BoardServer` from Python) serves
a page on ``http://127.0.0.1:8452/`` (the next free port when taken): the diagram, dealer, vulnerability,
the double-dummy table and par, and the play from any lead, every legal
card of the hand on turn showing the tricks it leaves for that hand's side.
A game record's auction and play are shown step by step with its costly
cards marked.  Its single-dummy view gives each legal card's make odds,
with intervals, from what the player to play sees (:func:`ddsbind.single_dummy`
on the server).

:mod:`.boards` reads the boards and plays positions out (no serving, no
solving); :mod:`.app` is the server (Starlette on uvicorn, the optional
extra ``ddsbind[board]``) and owns the pool and the caches; ``assets/``
holds the page, its script and style, served from memory by exact name.
In a notebook, :func:`show` puts the board of a ``Deal`` or game record
inline (an ``<iframe>`` of the page on one server per process, or the
static page when no server runs).  :func:`export_html` writes the page
as one file that opens from disk with no server (``ddsbind board FILE
--export out.html``).
"""

from ddsbind.board.boards import Board, BoardQuery, Position, load_boards, position, read_query

__all__ = [
    "Board",
    "BoardFrame",
    "BoardQuery",
    "BoardServer",
    "Position",
    "export_html",
    "load_boards",
    "position",
    "read_query",
    "show",
    "static_page",
    "stop_shown",
]


def __getattr__(name: str) -> object:
    # The server needs the optional extra (starlette, uvicorn): imported on first use only.
    if name in ("BoardFrame", "BoardServer", "export_html", "show", "static_page", "stop_shown"):
        from ddsbind.board import app

        return getattr(app, name)
    raise AttributeError(f"module 'ddsbind.board' has no attribute {name!r}")
