"""Shared fixtures: where DDS's reference hands are, loaded once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ddsbind.formats.ddsref import ReferenceHand, read_reference

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """``shared/`` beside the checkout (``DDSBIND_SHARED`` overrides)."""
    env = os.environ.get("DDSBIND_SHARED")
    return Path(env) if env else REPO.parent / "shared"


REFERENCE = shared_dir() / "reference" / "dds-hands"


@pytest.fixture(scope="session")
def list100() -> list[ReferenceHand]:
    """DDS's list100.txt: 100 hands with FUT, TABLE, PAR, PAR2, PLAY, TRACE lines."""
    return read_reference(REFERENCE / "list100.txt")


@pytest.fixture(scope="session")
def list1000() -> list[ReferenceHand]:
    """DDS's list1000.txt: 1000 hands."""
    return read_reference(REFERENCE / "list1000.txt")


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
