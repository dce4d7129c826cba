"""Unpacking DDS's release works on every supported Python, Debian 12's own 3.11.2 included.

``TarFile.extractall(filter=...)`` does not exist before 3.11.4/3.12; the
fetch script must unpack there too (the no-libdds build and ``make wheel``
depend on it) and refuse members that would land outside its folder.  Each
check runs the script in a subprocess under the test's Python and, where it
is installed, under ``/usr/bin/python3`` (Debian's, without ``filter``).
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.support import REPO

SCRIPT = REPO / "native" / "fetch_dds_source.py"
SYSTEM_PYTHON = Path("/usr/bin/python3")
PYTHONS = [sys.executable] + ([str(SYSTEM_PYTHON)] if SYSTEM_PYTHON.exists() else [])

#: Imports the script as a module and unpacks argv[1] into argv[2].
UNPACK = (
    "import importlib.util, sys, tarfile\n"
    "from pathlib import Path\n"
    f"spec = importlib.util.spec_from_file_location('fetch', {str(SCRIPT)!r})\n"
    "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
    "print('FILTER', hasattr(tarfile, 'data_filter'))\n"
    "mod.unpack(Path(sys.argv[1]), Path(sys.argv[2]))\n"
)


def _tarball(path: Path, members: list[tuple[str, bytes | None, str | None]]) -> Path:
    """A .tar.gz of ``(name, data, symlink_target)``: data None and no target is a folder."""
    with tarfile.open(path, "w:gz") as tar:
        for name, data, link in members:
            info = tarfile.TarInfo(name)
            if link is not None:
                info.type, info.linkname = tarfile.SYMTYPE, link
                tar.addfile(info)
            elif data is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                info.size, info.mode = len(data), 0o4755
                tar.addfile(info, io.BytesIO(data))
    return path


def _unpack(python: str, tarball: Path, dest: Path) -> subprocess.CompletedProcess[str]:
    dest.mkdir()
    return subprocess.run([python, "-c", UNPACK, str(tarball), str(dest)], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("python", PYTHONS)
def test_release_shaped_tarball_unpacks(python: str, tmp_path: Path) -> None:
    """A dds-2.9.0/ tree with src/, hands/ and an internal link unpacks; set-uid bits are dropped."""
    tarball = _tarball(
        tmp_path / "dds_2.9.0.orig.tar.gz",
        [
            ("dds-2.9.0", None, None),
            ("dds-2.9.0/src", None, None),
            ("dds-2.9.0/src/dds.cpp", b"int x;\n", None),
            ("dds-2.9.0/hands", None, None),
            ("dds-2.9.0/hands/list100.txt", b"hands\n", None),
            ("dds-2.9.0/hands/latest.txt", None, "list100.txt"),
        ],
    )
    res = _unpack(python, tarball, tmp_path / "out")
    assert res.returncode == 0, res.stderr
    top = tmp_path / "out" / "dds-2.9.0"
    assert (top / "src" / "dds.cpp").read_bytes() == b"int x;\n"
    assert (top / "hands" / "latest.txt").read_text() == "hands\n"
    assert not (top / "src" / "dds.cpp").stat().st_mode & 0o4000


@pytest.mark.parametrize("python", PYTHONS)
@pytest.mark.parametrize(
    ("member", "link"),
    [("../escape.txt", None), ("dds/evil", "../../outside"), ("dds/abs", "/etc/passwd")],
)
def test_escaping_member_is_refused_in_one_line(python: str, member: str, link: str | None, tmp_path: Path) -> None:
    """A member outside the folder stops the fetch with one line that names the tarball and blames no network."""
    tarball = _tarball(tmp_path / "bad.tar.gz", [("dds", None, None), (member, b"x" if link is None else None, link)])
    res = _unpack(python, tarball, tmp_path / "out")
    assert res.returncode == 1
    (line,) = res.stderr.strip().splitlines()
    assert line.startswith("fetch_dds_source: ") and "bad.tar.gz" in line
    assert "no network" not in line and "not a network problem" in line
    assert not (tmp_path / "escape.txt").exists()


@pytest.mark.parametrize("python", PYTHONS)
def test_absolute_member_never_lands_at_its_absolute_path(python: str, tmp_path: Path) -> None:
    """An absolute member name is refused or put under the folder (as ``filter="data"`` does), never written there."""
    target = tmp_path / "elsewhere" / "abs-escape.txt"
    tarball = _tarball(tmp_path / "abs.tar.gz", [(str(target), b"x", None)])
    res = _unpack(python, tarball, tmp_path / "out")
    assert not target.exists()
    assert res.returncode == 0 or "abs.tar.gz" in res.stderr


@pytest.mark.parametrize("python", PYTHONS)
def test_corrupt_tarball_is_one_line(python: str, tmp_path: Path) -> None:
    """A tarball that is not one gives one line naming it, not a traceback."""
    bad = tmp_path / "dds_2.9.0.orig.tar.gz"
    bad.write_bytes(b"\x1f\x8b\x08 not really gzip")
    res = _unpack(python, bad, tmp_path / "out")
    assert res.returncode == 1
    (line,) = res.stderr.strip().splitlines()
    assert "could not unpack dds_2.9.0.orig.tar.gz" in line and "Traceback" not in res.stderr


@pytest.mark.parametrize("python", PYTHONS)
def test_fetched_release_unpacks(python: str, tmp_path: Path) -> None:
    """The real upstream tarball, where `make fetch-dds` left it, unpacks with its reference hands."""
    cached = sorted((REPO / ".cache" / "dds").glob("dds_*.orig.tar.*"))
    if not cached:
        pytest.skip("DDS's release not fetched (run `make fetch-dds`)")
    res = _unpack(python, cached[0], tmp_path / "out")
    assert res.returncode == 0, res.stderr
    (top,) = (tmp_path / "out").iterdir()
    assert (top / "hands" / "list100.txt").is_file() and (top / "include" / "dll.h").is_file()
