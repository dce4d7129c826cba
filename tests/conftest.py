"""Shared fixtures: DDS's reference hands (found in one place), loaded once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddsbind.formats.ddsref import ReferenceHand, find_reference_dir, read_reference

REPO = Path(__file__).resolve().parents[1]

#: Where DDS's reference hands are: ``DDSBIND_REFERENCE``, else
#: ``$DDS_SOURCE_DIR/hands``, else the release ``make fetch-dds`` unpacks into
#: ``.cache/dds``, else the developers' ``shared/`` beside the checkout.
REFERENCE = find_reference_dir(
    REPO / ".cache" / "dds" / "source" / "hands", REPO.parent / "shared" / "reference" / "dds-hands"
)


def reference_file(name: str) -> Path:
    """The path of DDS's reference file ``name``; skips the test when none was found."""
    if REFERENCE is None:
        pytest.skip("DDS's reference hands not found: run `make fetch-dds` or set DDSBIND_REFERENCE")
    path = REFERENCE / name
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
