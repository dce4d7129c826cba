"""Statistics of a ZRD database (deals + double-dummy tables, 23 bytes a deal) with numpy, nothing re-solved.

    python examples/read_zrd.py [FILE.zrd]      # default: examples/data/sample.zrd

``ddsbind.formats.iter_chunks`` memory-maps the file and decodes it a chunk
at a time into numpy arrays -- ``owners`` ``(n, 52)`` (the seat of each card
SA..C2) and ``tables`` ``(n, 5, 4)`` (tricks by strain S H D C NT and
declarer N E S W) -- so a 10-million-deal library is read in constant memory.
The sample is 24 deals made by ``ddsbind generate sample.zrd --count 24
--seed 2026``; its manifest (``sample.zrd.json``) holds the checksum.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from ddsbind.formats import checksum_hex, iter_chunks

DEFAULT = Path(__file__).resolve().parent / "data" / "sample.zrd"
STRAINS = ["S", "H", "D", "C", "NT"]
HIGH_CARD_POINTS = np.array([4, 3, 2, 1] + [0] * 9)  # A K Q J, then T..2, in each suit


def main(path: Path) -> None:
    count = 0
    tricks = np.zeros((5, 4))  # sum of tricks by strain and declarer
    nt_game_points: list[int] = []  # NS's high-card points on the deals where NS make 3NT
    for chunk in iter_chunks(path, chunk=10):  # small chunks to show the streaming; use 1_000_000 for real files
        owners, tables = chunk.owners, chunk.tables
        assert owners is not None and tables is not None
        count += len(chunk)
        tricks += tables.sum(axis=0)
        ns = (owners == 0) | (owners == 2)  # (n, 52): the card belongs to North or South
        points = (ns * np.tile(HIGH_CARD_POINTS, 4)).sum(axis=1)
        makes = tables[:, 4, [0, 2]].max(axis=1) >= 9  # NT, declarer N or S
        nt_game_points += points[makes].tolist()

    print(f"{path.name}: {count} deals, checksum {checksum_hex(path)}", end="")
    manifest = path.with_name(path.name + ".json")
    if manifest.exists():
        print(f" (manifest: {json.loads(manifest.read_text())['checksum']})", end="")
    print()
    print("average tricks   N     E     S     W")
    for strain, row in zip(STRAINS, tricks / count, strict=True):
        print(f"{strain:>2}           " + " ".join(f"{t:5.2f}" for t in row))
    print(f"NS make 3NT on {len(nt_game_points)} of {count} deals", end="")
    if nt_game_points:
        print(f", holding {min(nt_game_points)}..{max(nt_game_points)} high-card points", end="")
    print()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
