"""The self-contained wheel of `make wheel`: installed into a fresh venv with no system DDS in reach, it solves.

The wheel is built here by ``make wheel DIST=<tmp>`` (about two minutes on
2 cores), or taken from ``DDSBIND_WHEEL=path/to/ddsbind-*.whl`` (``make
test-wheel`` builds dist/'s and passes it).  Where the test may create mount
namespaces (root, ``unshare``), the system's libdds files and the C compilers
are covered by ``/dev/null`` inside the namespace while pip installs the wheel
and Python solves with it, so neither can be found at all; a control run
shows the system-library build of ddsbind really fails to load there.
Elsewhere the checks are the loader's own trace (``LD_DEBUG=libs``) and the
module's ``DT_NEEDED`` entries.  Both the build and the fresh venv use
Debian's own ``/usr/bin/python3`` where it is installed (3.11.2 on Debian 12:
no ``tarfile`` extraction filter), as a user of a fresh Debian machine would.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ddsbind
from tests.support import REPO, built_once, threads_dds_configures

pytestmark = pytest.mark.slow

DDS_TREE = REPO / ".cache" / "dds" / "source"


def _base_python() -> Path:
    """The Python that builds and installs the wheel: Debian's own when present, as on a fresh Debian 12 machine.

    ``DDSBIND_WHEEL_PYTHON`` overrides; without ``/usr/bin/python3`` (>= 3.10,
    with venv) it is the base interpreter of the running test.
    """
    given = os.environ.get("DDSBIND_WHEEL_PYTHON")
    if given:
        return Path(given)
    system = Path("/usr/bin/python3")
    probe = "import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))"
    if system.exists() and subprocess.run([str(system), "-c", probe], capture_output=True, check=False).returncode == 0:
        return system
    return Path(sys.base_prefix) / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"


BASE_PYTHON = _base_python()

#: Each seat holds one whole suit: N spades, E hearts, S diamonds, W clubs.
#: In a suit contract the holder of trumps is void in everything else and
#: ruffs every trick, so his side takes 13 whoever declares; in notrump the
#: opening leader runs his suit and nobody can follow, so declarer takes 0.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
ONE_SUIT_TABLE = [
    [13, 0, 13, 0],  # spades, declarers N E S W
    [0, 13, 0, 13],  # hearts
    [13, 0, 13, 0],  # diamonds
    [0, 13, 0, 13],  # clubs
    [0, 0, 0, 0],  # notrump
]

#: Run by the fresh venv's Python (argv: the reference file or "", the expected site-packages).
SOLVE = """
import json, sys
from pathlib import Path
import numpy as np
import ddsbind
from ddsbind.formats.ddsref import read_reference

out = {"file": ddsbind.__file__}
info = ddsbind.dds_info()
out["info"] = {"source": info.source, "version": info.version, "major": info.major, "minor": info.minor,
               "threading": info.threading, "threads": info.threads, "cores": info.cores}
out["one_suit"] = np.asarray(ddsbind.dd_table(ddsbind.Deal.from_pbn(sys.argv[1]))).tolist()
out["reference"] = []
if sys.argv[2]:
    hands = [h for h in read_reference(sys.argv[2]) if h.table is not None][:5]
    tables = ddsbind.dd_tables([h.deal for h in hands])
    out["reference"] = [[np.asarray(t).tolist(), h.table.tolist()] for t, h in zip(tables, hands)]
print("RESULT " + json.dumps(out))
"""


def _clean_env(home: Path) -> dict[str, str]:
    """No PYTHONPATH, no LD_LIBRARY_PATH, nothing of the test run's environment but PATH's system part."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "LD_LIBRARY_PATH": "", "LANG": "C.UTF-8"}


def _can_hide() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    res = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"], capture_output=True, check=False)
    return res.returncode == 0


def _system_files() -> list[str]:
    """The real files behind the loader's libdds entries and the C/C++ compilers on PATH."""
    found: set[str] = set()
    res = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True, check=False)
    for line in res.stdout.splitlines():
        if "libdds" in line and "=>" in line:
            found.add(os.path.realpath(line.split("=>", 1)[1].strip()))
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib", "/usr/local/lib", "/lib/x86_64-linux-gnu"):
        for p in Path(d).glob("libdds.so*"):
            found.add(os.path.realpath(p))
    for tool in ("cc", "c++", "gcc", "g++", "cpp", "x86_64-linux-gnu-gcc", "x86_64-linux-gnu-g++", "clang"):
        path = shutil.which(tool, path="/usr/local/bin:/usr/bin:/bin")
        if path:
            found.add(os.path.realpath(path))
    return sorted(found)


#: Inside a private mount namespace: cover each named file with /dev/null, then run the command.
HIDE = (
    'n=$1; shift; while [ "$n" -gt 0 ]; do mount --bind /dev/null "$1" || exit 97; shift; n=$((n-1)); done; exec "$@"'
)


def _run(cmd: list[str], hide: list[str] | None, **kw: object) -> subprocess.CompletedProcess[str]:
    if hide is not None:
        cmd = ["unshare", "--mount", "--propagation", "private", "sh", "-c", HIDE, "sh", str(len(hide)), *hide, *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`make wheel`'s wheel (or DDSBIND_WHEEL's), built once for the run: `make wheel` builds in the checkout."""
    given = os.environ.get("DDSBIND_WHEEL")
    if given:
        return Path(given).resolve()
    if not (DDS_TREE / "include" / "dll.h").is_file():
        pytest.skip("DDS's source release not fetched (run `make fetch-dds`): nothing to build the wheel from")

    def build(dist: Path) -> None:
        res = subprocess.run(
            ["make", "-C", str(REPO), "wheel", f"DIST={dist}", f"PYTHON={BASE_PYTHON}"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert res.returncode == 0, f"make wheel failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"

    (built,) = built_once(tmp_path_factory, "dist", build).glob("ddsbind-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str] | None]:
    """A fresh venv with the wheel installed (no compiler, no system DDS in reach where they can be hidden).

    Made once for the run, like the wheel.
    """
    hide = _system_files() if _can_hide() else None

    def build(home: Path) -> None:
        venv = home / "venv"
        subprocess.run([str(BASE_PYTHON), "-m", "venv", str(venv)], check=True, env=_clean_env(home), cwd=home)
        # Only wheels, so pip could not build anything even if a compiler were at hand.
        res = _run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--only-binary=:all:", str(wheel)],
            hide,
            env=_clean_env(home),
            cwd=home,
        )
        assert res.returncode == 0, f"pip install of {wheel.name} failed:\n{res.stdout}\n{res.stderr}"

    return built_once(tmp_path_factory, "wheel-home", build) / "venv", hide


def test_wheel_is_manylinux_and_needs_no_libdds(wheel: Path, tmp_path: Path) -> None:
    """One wheel for every CPython >= 3.10 on a manylinux glibc, whose module links no libdds."""
    assert "-cp310-abi3-manylinux_" in wheel.name and wheel.name.endswith("_x86_64.whl"), wheel.name
    shutil.unpack_archive(wheel, tmp_path, format="zip")
    (module,) = (tmp_path / "ddsbind").glob("_dds*.so")
    if shutil.which("readelf") is None:
        pytest.skip("no readelf to list the module's DT_NEEDED")
    dyn = subprocess.run(["readelf", "-d", str(module)], capture_output=True, text=True, check=True).stdout
    needed = [line.split("[", 1)[1].rstrip("]") for line in dyn.splitlines() if "(NEEDED)" in line]
    assert needed and not [n for n in needed if "dds" in n], needed
    # Whatever the module needs beyond the manylinux policy's libraries, the wheel carries.
    bundled = {p.name for p in tmp_path.glob("ddsbind.libs/*")}
    policy = {"libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libpthread.so.0", "libdl.so.2"}
    assert set(needed) - policy <= bundled, (needed, bundled)


def test_wheel_solves_without_system_dds(installed: tuple[Path, list[str] | None], tmp_path: Path) -> None:
    """`pip install ddsbind-*.whl` in a fresh venv is all a user needs: DDS 2.9.0 is inside and solves right."""
    venv, hide = installed
    script = tmp_path / "solve.py"
    script.write_text(SOLVE)
    reference = DDS_TREE / "hands" / "list100.txt"
    env = dict(_clean_env(tmp_path), LD_DEBUG="libs")
    cmd = [str(venv / "bin" / "python"), str(script), ONE_SUIT_EACH, str(reference) if reference.is_file() else ""]
    res = _run(cmd, hide, env=env, cwd=tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    (line,) = [x for x in res.stdout.splitlines() if x.startswith("RESULT ")]
    out = json.loads(line[len("RESULT ") :])
    # The loader's trace: the venv's module was loaded, and no libdds was even looked for.
    assert out["file"].startswith(str(venv)), out["file"]
    assert [x for x in res.stderr.splitlines() if "calling init:" in x and str(venv) in x and "_dds" in x]
    assert "libdds" not in res.stderr
    assert out["info"]["source"] == "source tree"
    assert (out["info"]["major"], out["info"]["minor"]) == (2, 9)
    assert out["info"]["threading"] == "stl"
    expected = threads_dds_configures(out["info"]["cores"])  # the memory probe fix is inside
    assert (out["info"]["threads"] == expected) if expected is not None else (out["info"]["threads"] >= 1)
    assert out["one_suit"] == ONE_SUIT_TABLE
    if reference.is_file():
        assert len(out["reference"]) == 5
        for got, expected in out["reference"]:
            assert got == expected


def test_hiding_really_hides_the_system_dds(installed: tuple[Path, list[str] | None], tmp_path: Path) -> None:
    """The no-libdds environment above is real: there the system-library build cannot load and no compiler runs."""
    _venv, hide = installed
    if hide is None:
        pytest.skip("no mount namespaces here (needs root and unshare): only the loader trace was checked")
    assert any("libdds" in f for f in hide), hide
    res = _run(["cc", "--version"], hide, env=_clean_env(tmp_path), cwd=tmp_path)
    assert res.returncode != 0
    if ddsbind.dds_info().source != "system library":
        pytest.skip("the suite's own ddsbind is not the system-library build: no control to run")
    home = Path(ddsbind.__file__).resolve().parents[1]
    env = dict(_clean_env(tmp_path), PYTHONPATH=str(home), PYTHONSAFEPATH="1")
    res = _run([sys.executable, "-c", "import ddsbind; ddsbind.dds_info()"], hide, env=env, cwd=tmp_path)
    assert res.returncode != 0 and "libdds" in res.stderr, res.stderr[-2000:]
