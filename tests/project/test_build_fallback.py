"""Which DDS `pip install .` builds against: DDS_SOURCE_DIR, else the system's, else the fetched upstream release."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.support import REPO


def _builder():
    spec = importlib.util.spec_from_file_location("build_ffi_choice", REPO / "native" / "build_ffi.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


builder = _builder()


def _tree(root: Path) -> Path:
    (root / "src").mkdir(parents=True)
    (root / "include").mkdir()
    (root / "src" / "dds.cpp").write_text("")
    (root / "include" / "dll.h").write_text("")
    return root


def _never() -> bool:
    raise AssertionError("the system probe ran although its answer could not matter")


def test_dds_source_dir_wins_without_probing(tmp_path):
    """DDS_SOURCE_DIR builds the tree it names, even where a system DDS is installed."""
    tree = _tree(tmp_path / "dds")
    how, chosen = builder.choose_dds({"DDS_SOURCE_DIR": str(tree)}, _never, tmp_path / "cache" / "source")
    assert (how, chosen) == ("source", tree.resolve())


def test_system_dds_is_the_default_when_found(tmp_path):
    """With libdds installed nothing changes: the system library, even when a fetched release is at hand."""
    fetched = _tree(tmp_path / "fetched")
    assert builder.choose_dds({}, lambda: True, fetched) == ("system", None)
    assert builder.choose_dds({"DDSBIND_NO_SYSTEM_DDS": "0"}, lambda: True, fetched) == ("system", None)


def test_no_system_dds_uses_the_fetched_release(tmp_path):
    """Without libdds, `pip install .` compiles the release `make fetch-dds` already unpacked instead of failing."""
    fetched = _tree(tmp_path / "fetched")
    assert builder.choose_dds({}, lambda: False, fetched) == ("source", fetched.resolve())
    assert builder.choose_dds({"DDSBIND_NO_SYSTEM_DDS": "1"}, _never, fetched) == ("source", fetched.resolve())


def test_no_system_dds_and_nothing_fetched_asks_for_a_fetch(tmp_path):
    """Without libdds and without the cache, the build fetches DDS's release first (an empty folder is no tree)."""
    fetched = tmp_path / "cache" / "source"
    assert builder.choose_dds({}, lambda: False, fetched) == ("fetch", fetched)
    fetched.mkdir(parents=True)
    assert builder.choose_dds({"DDSBIND_NO_SYSTEM_DDS": "1"}, _never, fetched) == ("fetch", fetched)


def test_failed_fetch_says_what_to_install_or_set(tmp_path):
    """Offline and without libdds, the build stops with one message naming libdds-dev, DDS_SOURCE_DIR and the cause."""
    script = tmp_path / "fetch.py"
    script.write_text("import sys\nsys.exit('fetch_dds_source: apt-get update failed: network is unreachable')\n")
    with pytest.raises(SystemExit) as err:
        builder.fetch_release(tmp_path / "cache", script)
    message = str(err.value)
    assert "libdds-dev" in message and "DDS_SOURCE_DIR" in message
    assert "network is unreachable" in message
    assert "\n" not in message


def test_fetch_that_leaves_no_tree_is_a_failure(tmp_path):
    """A fetch script that exits 0 but unpacks nothing still stops the build with the same message."""
    script = tmp_path / "fetch.py"
    script.write_text("")
    with pytest.raises(SystemExit, match="libdds-dev"):
        builder.fetch_release(tmp_path / "cache", script)


def test_successful_fetch_gives_the_tree(tmp_path):
    """When the fetch works, the build compiles what it unpacked."""
    script = tmp_path / "fetch.py"
    script.write_text(
        "import os, sys\n"
        "cache = sys.argv[1]\n"
        "for d in ('dds-2.9.0/src', 'dds-2.9.0/include'): os.makedirs(os.path.join(cache, d))\n"
        "open(os.path.join(cache, 'dds-2.9.0/src/dds.cpp'), 'w').close()\n"
        "open(os.path.join(cache, 'dds-2.9.0/include/dll.h'), 'w').close()\n"
        "os.symlink('dds-2.9.0', os.path.join(cache, 'source'))\n"
    )
    assert builder.fetch_release(tmp_path / "cache", script) == (tmp_path / "cache" / "dds-2.9.0").resolve()


def test_probe_finds_no_dds_without_a_compiler(monkeypatch):
    """No compiler counts as no system DDS (the fallback then reports what is missing), not as a crash."""
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert builder.system_dds_found() is False


def test_probe_looks_where_the_compiler_looks(monkeypatch, tmp_path):
    """The probe uses the build's compiler flags: a compiler that sees no dds/dll.h nor libdds finds no system DDS."""
    for var in ("CC", "CPPFLAGS", "LDFLAGS"):
        monkeypatch.delenv(var, raising=False)
    # An empty sysroot: the standard header and library folders are looked for under it.
    monkeypatch.setenv("CFLAGS", f"--sysroot={tmp_path}")
    assert builder.system_dds_found() is False


@pytest.mark.skipif(not Path("/usr/include/dds/dll.h").is_file(), reason="no system libdds-dev here")
def test_probe_finds_the_installed_system_dds(monkeypatch):
    """On a machine with libdds-dev the probe finds it, so the default build stays the system library."""
    for var in ("CC", "CPPFLAGS", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(var, raising=False)
    assert builder.system_dds_found() is True
    assert builder.choose_dds({}, builder.system_dds_found, Path("/nonexistent"))[0] == "system"
