"""Shared fixtures: DDS's reference hands (found in one place), loaded once per session; child Pythons
that run the build under test; oracles that must be present; a counter of DDS searches.

The tests mirror the package (tests/README.md has the map); helpers live in ``tests/support.py``.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

from ddsbind.formats.ddsref import ReferenceHand, read_reference
from tests import oracles

# Helpers that moved to tests.support, still importable from here for test files written before the move.
from tests.support import (  # noqa: F401
    REFERENCE,
    REPO,
    ask_dds,
    child_env,
    reference_file,
    run_script,
    threads_dds_configures,
)

# No hypothesis deadline anywhere: how long one example takes depends on the machine and its load
# (DDS's threads, seven engineers on two cores), never on whether the answer is right.
settings.register_profile("ddsbind", deadline=None)
settings.load_profile("ddsbind")


@pytest.fixture(scope="session", autouse=True)
def children_run_the_build_under_test() -> Iterator[None]:
    """Every child Python a test starts (``-c``, ``-m ddsbind``, Dask workers) imports the ddsbind under test."""
    with pytest.MonkeyPatch.context() as mp:
        for key, value in child_env().items():
            if os.environ.get(key) != value:
                mp.setenv(key, value)
        yield


@pytest.fixture(scope="session")
def list100() -> list[ReferenceHand]:
    """DDS's list100.txt: 100 hands with FUT, TABLE, PAR, PAR2, PLAY, TRACE lines."""
    return read_reference(reference_file("list100.txt"))


@pytest.fixture(scope="session")
def list1000() -> list[ReferenceHand]:
    """DDS's list1000.txt: 1000 hands."""
    return read_reference(reference_file("list1000.txt"))


@pytest.fixture()
def in_tmp_cwd(tmp_path, monkeypatch) -> Path:
    """Run in an empty directory, to see whether DDS wrote a dump.txt there."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture()
def calc_all_tables_spy(monkeypatch):
    """Replace dll's CalcAllTables by a pass-through that sets ``entered`` before DDS runs and ``done`` after."""
    import threading

    from ddsbind import dll

    real = dll.lib
    events = {"entered": threading.Event(), "done": threading.Event()}

    class Spy:
        def __getattr__(self, name):
            return getattr(real, name)

        @staticmethod
        def CalcAllTables(*args):
            events["entered"].set()
            try:
                return real.CalcAllTables(*args)
            finally:
                events["done"].set()

    monkeypatch.setattr(dll, "lib", Spy())
    return events


@pytest.fixture(scope="session")
def debian_dealer() -> Path:
    """Debian's dealer, the reference the dealer language is compared with; a missing one fails the test."""
    return oracles.require("dealer")


@pytest.fixture(scope="session")
def dealer_examples() -> Path:
    """The folder of dealer's example scripts (``Descr.*``) with dealer's own outputs (``Refer.*``)."""
    return oracles.require("dealer-examples")


@pytest.fixture(scope="session")
def c_compiler() -> Path:
    """A C compiler for the native DDS drivers in ``benchmarks/``; a missing one fails the test."""
    return oracles.require("cc")


@pytest.fixture(scope="session")
def dds_oracle(tmp_path_factory, c_compiler) -> Path:
    """``tests/dds_solve_oracle.c`` (DDS's SolveBoardPBN and GetDDSInfo from plain C) built against the DDS the
    installed ddsbind uses, by ``benchmarks/_common.build_driver``."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("benchmarks_common", REPO / "benchmarks" / "_common.py")
    assert spec is not None and spec.loader is not None
    common = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, common)  # dataclasses look their module up there
    spec.loader.exec_module(common)
    out = tmp_path_factory.mktemp("oracle") / "dds_solve_oracle"
    return common.build_driver(REPO / "tests" / "dds_solve_oracle.c", out)


@pytest.fixture()
def searches(monkeypatch):
    """Counts DDS searches by deal (masks bytes) through a wrapper around ``dll.solve_board``."""
    from ddsbind import dll

    seen: Counter[bytes] = Counter()
    lock = threading.Lock()
    real = dll.solve_board

    def counting(dl, *args, **kwargs):
        key = np.array([list(hand) for hand in dl.remainCards], np.uint32).tobytes()
        with lock:
            seen[key] += 1
        return real(dl, *args, **kwargs)

    monkeypatch.setattr(dll, "solve_board", counting)
    return seen


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's chromium, headless, driven by Playwright (never a browser of its own): one a test process."""
    chromium = oracles.require("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium))
        yield b
        b.close()
