"""The rules of the table live on the types: no seat arithmetic written out elsewhere in ``ddsbind/``.

The next seat, partner, left- and right-hand opponent, a seat's side, the
places between two seats (``Seat.next``, ``partner``, ``lho``, ``rho``,
``side``, ``steps_from``), the dealer and vulnerability of a board number
(``Seat.dealer_of_board``, ``Vulnerability.of_board``) and the arrays' forms
(``sides_of``, ``sides_vulnerable``) are ``ddsbind/deal.py``'s; the winner of
a trick is ``ddsbind/game.py``'s; Pavlicek's seat numbering is converted in
``ddsbind/formats/order.py`` alone.  Everywhere else a reader should meet
the method, not ``(leader + k) % 4``.

Read from the source with ``ast`` (nothing is imported).  What counts as
seat arithmetic:

* ``x % 4``, ``x % 2``, ``x & 3``, ``x ^ 1``, ``x ^ 2`` where ``x`` names a
  seat or a side (an identifier with a part in :data:`SEAT_WORDS`:
  ``leader``, ``t.winner``, ``declarer_side``...);
* ``1 - x`` where ``x`` names a side (the other side);
* ``Seat(...)`` around arithmetic (``Seat((leader + j) % 4)``);
* the board-number rule: ``% 16``, the 16-board vulnerability table written
  out, or ``.next(...)`` of a board number.

Arithmetic on other things (byte counts, ranks, suits in bit layouts, deal
numbers) does not name a seat and is not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

import ddsbind

ROOT = Path(ddsbind.__file__).resolve().parent

#: The homes of the rules, where seat arithmetic is written once (game.py: the trick; order.py: Pavlicek's seats).
HOMES = {"deal.py", "game.py", "formats/order.py"}
#: The home of the board-number rule (dealer and vulnerability of a board number): deal.py alone.
BOARD_HOME = "deal.py"
#: What :func:`offences` calls the board-number rule.
BOARD_RULE = ("the board-number cycle", "a board's dealer by arithmetic", "the board-number vulnerability table")

#: Parts of an identifier that say it holds a seat or a side.
SEAT_WORDS = {
    "seat",
    "seats",
    "leader",
    "declarer",
    "dealer",
    "winner",
    "player",
    "hand",
    "first",
    "lead",
    "to_play",
    "side",
    "sides",
    "partner",
    "dummy",
    "opener",
    "defender",
}

#: DDS's vulnerability code of boards 1..16, and the same cycle by PBN's names: the board rule written out.
_CYCLES = (
    (0, 2, 3, 1, 2, 3, 1, 0, 3, 1, 0, 2, 1, 0, 2, 3),
    ("None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"),
    ("None", "NS", "EW", "Both", "NS", "EW", "Both", "None", "EW", "Both", "None", "NS", "Both", "None", "NS", "EW"),
)

#: Files still offending while another branch of issue 45 (``calls``: records, the board, the match and PBN
#: games speak ``Call``/``Seat``) rewrites them; the coordinator removes each entry after merging it.  An entry
#: whose file no longer offends fails :func:`test_the_allowances_are_still_needed`, so none can stay stale.
ALLOWED = {
    "record.py",  # declarer % 2, t.winner % 2 in the score and trick counts (branch calls)
    "board/boards.py",  # w % 2 == pos.declarer % 2 in the board's trick count (branch calls)
}


def _names(node: ast.AST) -> set[str]:
    """Every identifier and attribute name inside ``node``."""
    out: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute):
            out.add(n.attr)
    return out


def _seat_like(node: ast.AST, words: set[str] = SEAT_WORDS) -> bool:
    """True when ``node`` mentions a name that holds a seat or a side (``leader``, ``declarer_side``, ``t.winner``)."""
    for name in _names(node):
        low = name.lower().strip("_")
        if low in words or any(part in words for part in low.split("_")):
            return True
    return False


def _const(node: ast.AST, *values: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value in values


def _literal(node: ast.AST) -> tuple[object, ...] | None:
    if isinstance(node, ast.Tuple | ast.List) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return None


def offences(source: str) -> list[tuple[int, str]]:
    """``(line, text)`` of each piece of seat arithmetic or board-number rule in ``source``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        why = None
        if isinstance(node, ast.BinOp):
            op, left, right = node.op, node.left, node.right
            if (
                (isinstance(op, ast.Mod) and _const(right, 2, 4))
                or (isinstance(op, ast.BitAnd) and _const(right, 3))
                or (isinstance(op, ast.BitXor) and _const(right, 1, 2))
            ) and _seat_like(left):
                why = "seat arithmetic"
            elif isinstance(op, ast.Sub) and _const(left, 1) and _seat_like(right, {"side", "sides"}):
                why = "the other side by arithmetic"
            elif isinstance(op, ast.Mod) and _const(right, 16):
                why = "the board-number cycle"
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "Seat" and any(isinstance(a, ast.BinOp) for a in node.args):
                why = "Seat() around arithmetic"
            elif (
                isinstance(func, ast.Attribute)
                and func.attr == "next"
                and any(_seat_like(a, {"board"}) for a in node.args)
            ):
                why = "a board's dealer by arithmetic"
        elif _literal(node) in _CYCLES:
            why = "the board-number vulnerability table"
        if why is not None:
            found.append((getattr(node, "lineno", 0), f"{why}: {ast.unparse(node)}"))
    return sorted(found)


def scan(root: Path = ROOT) -> dict[str, list[tuple[int, str]]]:
    """Every module of ``root`` (a ``ddsbind/`` tree) with its offences: seat arithmetic outside :data:`HOMES`,
    the board-number rule outside :data:`BOARD_HOME`."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name == BOARD_HOME:
            continue
        found = offences(path.read_text(encoding="utf-8"))
        if name in HOMES:
            found = [(line, what) for line, what in found if what.startswith(BOARD_RULE)]
        if found:
            out[name] = found
    return out


def test_no_seat_arithmetic_outside_the_types_homes():
    """Without this, ``% 4`` on seats grows back at each new caller, and a reader must check each copy is right."""
    assert (ROOT / "deal.py").is_file(), f"no ddsbind package at {ROOT}: the scan would read nothing"
    found = {name: hits for name, hits in scan().items() if name not in ALLOWED}
    lines = [f"ddsbind/{name}:{line}: {what}" for name, hits in found.items() for line, what in hits]
    assert not lines, (
        "seat arithmetic outside deal.py/game.py (use Seat.next/lho/rho/partner/side/steps_from, "
        "Seat.dealer_of_board, Vulnerability.of_board, sides_of, game.trick_winner):\n" + "\n".join(lines)
    )


def test_the_allowances_are_still_needed():
    """Without this, a file cleaned by its branch would keep its allowance and could grow the arithmetic back."""
    found = scan()
    stale = sorted(name for name in ALLOWED if name not in found)
    assert not stale, f"allowed seat arithmetic but none left (remove the allowance): {stale}"


def test_the_scan_finds_what_it_looks_for():
    """Without this, a scan that matched nothing (a renamed node, a wrong word list) would pass every file."""
    flagged = [
        "side = seat % 2",
        "w = (t.leader + k) % 4",
        "same = declarer % 2 == dummy % 2",
        "s = Seat((leader + j) % 4)",
        "p = seat ^ 2",
        "o = 1 - side",
        "v = VUL[(board - 1) % 16]",
        "d = Seat.N.next(board - 1)",
        "T = (0, 2, 3, 1, 2, 3, 1, 0, 3, 1, 0, 2, 1, 0, 2, 3)",
        "h = order.dds_seats(first_hand & 3)",
    ]
    for line in flagged:
        assert offences(line), f"the scan misses {line!r}"
    kept = [
        "n = len(data) % 4",
        "r, s = k // 4, k % 4",
        "mask = card % 4",
        "seat = leader.next(j)",
        "x = (total - 4) // 4",
        "b = bits & 3",
        "o = 1 - p",
    ]
    for line in kept:
        assert not offences(line), f"the scan flags {line!r}, which is not seat arithmetic"
