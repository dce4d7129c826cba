"""The shipped DLL-layer examples and the solving commands of the ``ddsbind`` CLI."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np

import ddsbind
from tests.support import REPO, cli

PBN = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


def _run_example(name: str) -> str:
    proc = subprocess.run([sys.executable, str(REPO / "examples" / name)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_calc_dd_table_example_prints_reference_tables(list100):
    """examples/calc_dd_table.py prints DDS's reference tables for its deals (list100 hands 0-2)."""
    out = _run_example("calc_dd_table.py")
    blocks = out.split("CalcDDtable, deal ")[1:]
    assert len(blocks) == 3
    for block, h in zip(blocks, list100[:3], strict=True):
        rows = [list(map(int, ln.split()[1:])) for ln in block.splitlines()[2:7]]
        assert np.array_equal(np.array(rows), h.table)


def test_solve_board_example_matches_solve_board():
    """examples/solve_board.py prints the same cards and scores as the Pythonic solve_board."""
    out = _run_example("solve_board.py")
    first_block = out.split("SolveBoard, deal 2")[0]
    printed = re.findall(r"^  (\w\w)  score +(\d+)", first_block, re.M)
    sol = ddsbind.solve_board(PBN, "NT", "N", mode=0)
    assert printed == [(str(c.card), str(c.score)) for c in sol]


def test_cli_table_prints_table_and_par():
    """`ddsbind table DEAL` prints the DD table in the usual layout and DDS's par."""
    result = cli("table", PBN, "--vulnerable", "none", "--dealer", "N")
    assert result.exit_code == 0, result.output
    assert "NT     6   6   6   6" in result.output
    assert " S     5   8   5   8" in result.output
    assert "Par (None): NS -110  NS:EW 2S" in result.output
    assert "Par with N dealing: -110  2S-EW" in result.output


def test_cli_bad_deal_is_one_line_exit_1():
    """A bad deal on the command line gives one error line on stderr and exit status 1."""
    result = cli("table", "N:AK... QJ... T9...")
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0
    assert "must list 4 hands" in result.stderr


def test_cli_solve_and_info():
    """`ddsbind solve` scores the cards to play; `ddsbind info` names the DDS in use."""
    result = cli("solve", "N:K... QJ... T9... 87...", "--strain", "NT", "--leader", "N",
                                       "--trick", "SA")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert re.search(r"^SQ +0  SJ$", result.output, re.M)
    info = cli("info")
    assert info.exit_code == 0 and f"DDS {ddsbind.dds_info().version}" in info.output


def test_cli_demo_solves_deals():
    """`ddsbind demo` (the README's main job for now) prints boards with tables and par."""
    result = cli("demo", "--deals", "2", "--seed", "7")
    assert result.exit_code == 0, result.output
    assert result.output.count("Double-dummy tricks") == 2
    assert "Board 2, dealer E" in result.output


def test_cli_demo_boards_follow_the_16_board_cycle():
    """The demo's boards carry the real dealer and vulnerability cycle (board 5 NS, board 8 none), so par is right."""
    result = cli("demo", "--deals", "16", "--seed", "7")
    assert result.exit_code == 0, result.output
    heads = re.findall(r"^Board (\d+), dealer ([NESW]), vulnerable (\w+)$", result.output, re.M)
    # The cycle as printed on duplicate boards 1..16 (and Pavlicek's ZRJ notes).
    cycle = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None", "NS", "EW"]
    assert heads == [(str(b), "NESW"[(b - 1) % 4], cycle[b - 1]) for b in range(1, 17)]
    pars = re.findall(r"^Par \((\w+)\):", result.output, re.M)
    assert pars == cycle
