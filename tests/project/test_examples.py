"""Every example in examples/ runs, by path under the build under test, and prints what it says it does.

Each test checks the output against answers found another way (DDS's
reference TABLE lines, the library called here, the file's own manifest), so
an example that prints nonsense fails, not only one that crashes.
"""

from __future__ import annotations

import json
import re

import numpy as np

import ddsbind
from ddsbind.formats import read_games, read_records
from tests.support import REPO, run_script

EXAMPLES = REPO / "examples"
DATA = EXAMPLES / "data"


def _run(name: str, *args: object) -> str:
    proc = run_script(EXAMPLES / name, *args, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", proc.stderr
    return proc.stdout


def _tables(out: str) -> list[np.ndarray]:
    """The DD tables printed in DDTable's layout (a header line, then rows NT S H D C)."""
    blocks = re.findall(r"^ +N +E +S +W\n((?:.+\n){5})", out, re.M)
    order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
    tables = []
    for block in blocks:
        t = np.zeros((5, 4), dtype=int)
        for line in block.splitlines():
            name, *values = line.split()
            t[order[name]] = [int(v) for v in values]
        tables.append(t)
    return tables


def test_every_example_has_a_test():
    """A new example needs its test here (the DLL-layer ones are in test_examples_cli.py)."""
    here = {"pbn_tables.py", "stream_pool.py", "read_zrd.py", "analyse_games.py"}
    elsewhere = {"calc_dd_table.py", "solve_board.py", "statistics_study.py"}  # the last: tests/dealer/test_library.py
    assert {p.name for p in EXAMPLES.glob("*.py")} == here | elsewhere


def test_pbn_tables(list100):
    """The four boards' tables: DDS's TABLE lines for the first three; the fourth is West's 12 tricks anywhere."""
    out = _run("pbn_tables.py")
    tables = _tables(out)
    assert len(tables) == 4
    for table, h in zip(tables[:3], list100[:3], strict=True):
        assert np.array_equal(table, h.table)
    assert (tables[3][:, [1, 3]] == 12).all() and (tables[3][:, [0, 2]] == 1).all()
    pars = re.findall(r"^Par \((\w+)\): (.+)$", out, re.M)
    assert [v for v, _ in pars] == ["None", "NS", "EW", "All"]
    for (vul, text), table in zip(pars, tables, strict=True):
        assert text == " / ".join(ddsbind.par(table, vul).score_text)


def test_stream_pool():
    """Six seeded random deals in order, each with North-South's notrump tricks, and a count that adds up."""
    out = _run("stream_pool.py", 6, 5)
    rows = re.findall(r"^deal (\d+): (N:\S+ \S+ \S+ \S+)  NS in NT: (\d+) tricks$", out, re.M)
    assert [int(n) for n, _, _ in rows] == [1, 2, 3, 4, 5, 6]
    assert len({pbn for _, pbn, _ in rows}) == 6
    first = ddsbind.dd_table(rows[0][1])
    assert int(rows[0][2]) == max(first["NT", "N"], first["NT", "S"])
    games = sum(int(t) >= 9 for _, _, t in rows)
    assert re.search(rf"^6 deals: North-South make 3NT on {games} \(", out, re.M), out
    again = re.findall(r"^deal \d+: (N:.+)  NS", _run("stream_pool.py", 2, 5), re.M)
    assert again == [pbn for _, pbn, _ in rows[:2]]  # the same seed, the same deals


def test_read_zrd():
    """The averages and the 3NT count are the sample database's, and the checksum matches its manifest."""
    out = _run("read_zrd.py")
    records = read_records(DATA / "sample.zrd")
    assert records.tables is not None
    manifest = json.loads((DATA / "sample.zrd.json").read_text())
    assert f"sample.zrd: {manifest['count']} deals, checksum {manifest['checksum']} (manifest: " in out
    printed = np.array([[float(x) for x in ln.split()[1:]] for ln in out.splitlines()[2:7]])
    assert np.allclose(printed, records.tables.mean(axis=0), atol=0.005)
    makes = int((records.tables[:, 4, [0, 2]].max(axis=1) >= 9).sum())
    assert f"NS make 3NT on {makes} of {manifest['count']} deals" in out


def test_analyse_games():
    """The costly cards printed are ddsbind.costly_cards' for each game of the file, and each best first trick."""
    out = _run("analyse_games.py")
    games = read_games(DATA / "games.pbn")
    blocks = out.strip().split("\n\n")
    assert len(blocks) == len(games) == 3
    for block, game in zip(blocks, games, strict=True):
        costly = ddsbind.costly_cards(game.deal, game.strain, game.leader, game.play)
        printed = re.findall(r"trick +(\d+): (\w) played (\w\w), cost (\d+)", block)
        assert printed == [(str(c.trick), c.seat.name, str(c.card), str(c.cost)) for c in costly]
        first = ddsbind.best_line(game.deal, game.strain, game.leader)[0]
        assert f"best first trick: {' '.join(map(str, first.cards))}, won by {first.winner.name}" in block
    assert "trick  1: E played SQ, cost 1" in out  # board 2's opening lead gave a trick away
