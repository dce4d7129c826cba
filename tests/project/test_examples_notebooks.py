"""The two notebooks in examples/ run from top to bottom, draw their plots, and print the library's own figures."""

from __future__ import annotations

import re

import nbclient
import nbformat
import numpy as np
import pytest

import ddsbind
from ddsbind.deal import owners_to_masks
from ddsbind.dealer import parse, run
from ddsbind.formats import read_records
from tests.support import REPO

EXAMPLES = REPO / "examples"


def _execute(name: str) -> tuple[str, int]:
    """Run notebook ``name`` in examples/ on a fresh kernel; its printed text and how many images it drew."""
    notebook = nbformat.read(EXAMPLES / name, as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    text, images = [], 0
    for cell in notebook.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                text.append(out["text"])
            images += "image/png" in out.get("data", {})
    return "".join(text), images


def test_notebooks_are_stored_without_outputs():
    """The notebooks are committed clean, so a diff shows code, and what they print comes from this build."""
    for path in EXAMPLES.glob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        nbformat.validate(notebook)
        assert all(not c.get("outputs") for c in notebook.cells if c.cell_type == "code"), path.name


@pytest.mark.slow
def test_simulation_notebook():
    """The simulation notebook plots twice and prints the make rates of the same seed's deals, solved here."""
    text, images = _execute("simulation.ipynb")
    assert images == 2
    m = re.search(r"^(\d+) deals accepted of (\d+) dealt$", text, re.M)
    assert m, text
    script = parse(
        "produce 32\n"
        "condition hcp(north) >= 15 && hcp(north) <= 17 && spades(north) == 4"
        " && shape(north, any 4333 + any 4432 + any 5332)"
        " && hcp(south) >= 8 && hcp(south) <= 9 && spades(south) == 4"
        " && shape(south, any 4333 + any 4432 + any 5332 + any 5422)"
    )
    result = run(script, seed=2026, keep=True)
    assert (int(m[1]), int(m[2])) == (result.produced, result.generated)
    tables = np.array([np.asarray(t) for t in ddsbind.dd_tables(list(owners_to_masks(result.deals)))])
    nt_make = float(np.mean(tables[:, 4, 0] >= 9))
    spade_make = float(np.mean(tables[:, 0, 0] >= 10))
    assert f"3NT by N: makes {nt_make:.0%}" in text and f"4S by N: makes {spade_make:.0%}" in text, text


@pytest.mark.slow
def test_database_statistics_notebook():
    """The database notebook plots twice and prints the sample's count, checksum and a correlation computed here."""
    text, images = _execute("database_statistics.ipynb")
    assert images == 2
    assert "24 deals, checksum 3D22FD2287 matches the manifest: True" in text
    records = read_records(EXAMPLES / "data" / "sample.zrd")
    points = np.array([4, 3, 2, 1] + [0] * 9)
    hcp = np.stack([((records.owners == seat) * np.tile(points, 4)).sum(axis=1) for seat in range(4)], axis=1)
    ns_points = hcp[:, 0] + hcp[:, 2]
    ns_nt = records.tables[:, 4, [0, 2]].max(axis=1)
    assert f"correlation: {round(float(np.corrcoef(ns_points, ns_nt)[0, 1]), 3)}" in text
