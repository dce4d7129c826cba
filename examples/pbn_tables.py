"""Double-dummy tables of every deal in a PBN file, and par.

    python examples/pbn_tables.py [FILE.pbn]     # default: examples/data/boards.pbn

``ddsbind.formats.pbn.read_pbn`` reads the file's games (``[Deal]`` and every
other tag); ``ddsbind.dd_tables`` solves all the deals in one call, on every
thread DDS runs; ``ddsbind.par`` gives par for each board's ``[Vulnerable]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ddsbind
from ddsbind.formats.pbn import read_pbn

DEFAULT = Path(__file__).resolve().parent / "data" / "boards.pbn"


def main(path: Path) -> None:
    boards = read_pbn(path)
    tables = ddsbind.dd_tables([b.deal for b in boards])
    for board, table in zip(boards, tables, strict=True):
        vul = ddsbind.Vulnerability.parse(board.tags.get("Vulnerable", "None"))  # prints None, NS, EW or All
        print(f"Board {board.tags.get('Board', '?')}: {board.deal.to_pbn()}")
        print(table)  # strains down, declarers N E S W across
        print(f"Par ({vul}): {' / '.join(ddsbind.par(table, vul).score_text)}")
        print()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
