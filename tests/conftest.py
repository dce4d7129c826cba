"""Shared fixtures: DDS's reference hands (found in one place), loaded once per session; child Pythons
that run the build under test."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import ddsbind
from ddsbind.formats.ddsref import ReferenceHand, read_reference
from tests import oracles

REPO = Path(__file__).resolve().parents[1]

# No hypothesis deadline anywhere: how long one example takes depends on the machine and its load
# (DDS's threads, seven engineers on two cores), never on whether the answer is right.
settings.register_profile("ddsbind", deadline=None)
settings.load_profile("ddsbind")

#: The directory this test process imported ``ddsbind`` from: the checkout
#: for an editable or in-place build (``make test``), the environment's
#: site-packages for a regular install (``make test-source``, whose checkout
#: holds no compiled module).
DDSBIND_HOME = Path(ddsbind.__file__).resolve().parents[1]


def child_env(*, script_dir: bool = False) -> dict[str, str]:
    """The environment for a child Python that must import the ddsbind under test, never another one.

    ``PYTHONPATH`` starts with :data:`DDSBIND_HOME`, and ``PYTHONSAFEPATH=1``
    keeps the working directory off the child's path, so ``python -c`` or
    ``python -m`` run in the checkout does not pick up the checkout's
    uncompiled ``ddsbind/``.  ``script_dir=True`` is for ``python
    path/to/script.py`` whose script imports a module beside it
    (``benchmarks/_common.py``): the script's own directory stays first on the
    child's path (it must hold no ``ddsbind/``).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(DDSBIND_HOME), *filter(None, [os.environ.get("PYTHONPATH")])])
    if script_dir:
        env.pop("PYTHONSAFEPATH", None)
    else:
        env["PYTHONSAFEPATH"] = "1"
    return env


def run_script(script: Path, *args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT ARGS`` under the build under test (text output captured; ``kwargs`` go to ``subprocess.run``)."""
    if (script.parent / "ddsbind").exists():
        raise AssertionError(f"{script.parent} holds a ddsbind/ that would shadow the build under test")
    options: dict = {"capture_output": True, "text": True, "check": False, "env": child_env(script_dir=True)}
    options.update(kwargs)
    return subprocess.run([sys.executable, str(script), *map(str, args)], **options)


@pytest.fixture(scope="session", autouse=True)
def children_run_the_build_under_test() -> Iterator[None]:
    """Every child Python a test starts (``-c``, ``-m ddsbind``, Dask workers) imports the ddsbind under test."""
    with pytest.MonkeyPatch.context() as mp:
        for key, value in child_env().items():
            if os.environ.get(key) != value:
                mp.setenv(key, value)
        yield


#: Where DDS's reference hands are (None when missing): ``DDSBIND_REFERENCE``,
#: else ``$DDS_SOURCE_DIR/hands``, else the release ``make fetch-dds`` unpacks
#: into ``.cache/dds``, else the developers' ``shared/`` beside the checkout.
REFERENCE = oracles.find("dds-hands")


def reference_file(name: str) -> Path:
    """The path of DDS's reference file ``name``; fails the test (an oracle is never skipped) when none was found."""
    path = oracles.require("dds-hands") / name
    if not path.is_file():
        pytest.fail(f"{path} is missing from the reference hands in {REFERENCE}")
    return path


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


def threads_dds_configures(cores: int) -> int | None:
    """How many threads DDS 2.9's ``SetResources`` runs on this machine with ``cores`` cores; None when unsure.

    Derived by hand from DDS's ``Init.cpp``: every core gets a thread as long
    as 70% of the free memory (``MemAvailable``, which ddsbind's probe fix
    feeds DDS) holds a small thread's 30 MB per core; with less, DDS runs
    fewer threads.  Free memory moves while the suite runs, so within a factor
    of two of that limit the answer is None (any count from 1 to ``cores``).
    """
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemAvailable:"))
    usable_mb = 0.70 * kb / 1024
    if usable_mb >= 2 * 30 * cores:
        return cores
    return None


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


def ask_dds(oracle: Path, requests: list[str], cwd: Path) -> list[list[str]]:
    """DDS's answers (each line's words) to ``requests`` (lines as ``tests/dds_solve_oracle.c`` reads them).

    ``cwd``: DDS writes a dump.txt there for each request it refuses.
    """
    text = "".join(r + "\n" for r in requests)
    proc = subprocess.run([str(oracle)], input=text, capture_output=True, text=True, timeout=900, cwd=cwd, check=True)
    answers = [line.split() for line in proc.stdout.splitlines()]
    assert len(answers) == len(requests), proc.stderr
    return answers
