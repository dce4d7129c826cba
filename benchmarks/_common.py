"""What every benchmark shares: DDS's reference hands, the native C drivers, timing, DDS's batch from the DLL layer.

The scripts in ``benchmarks/`` import this module from beside them (a script's
own directory is the first entry of its ``sys.path``), and use ddsbind's public
API only.

**The native drivers** (``dds_driver.c``, ``dds_play_driver.c``) are linked to
the same DDS as the ddsbind they are compared with, so the comparison is fair
for either build (``ddsbind.dds_info().source``):

* ``system library``: compiled with ``-I/usr/include/dds ... -ldds`` (Debian's
  ``libdds-dev``);
* ``source tree``: DDS's sources (``$DDS_SOURCE_DIR``, else the release ``make
  fetch-dds`` unpacks into ``.cache/dds/source``) compiled as the extension's
  build compiles them (``-O3``, ``DDS_THREADS`` and ``DDS_CXXFLAGS`` as there,
  the tree's ``include/``, ``-pthread -lstdc++``, and ``-Wl,--wrap=popen`` with the same ``popen``
  wrapper, taken from ``native/build_ffi.py``), once, into
  ``.cache/bench-dds/``; each driver links those objects.

A driver is rebuilt when missing, older than its source or linked to another
DDS than the installed ddsbind's (a stamp file beside it says which); it is written
beside its target and renamed, so a concurrent run never executes a half-written file.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import os
import resource
import shutil
import subprocess
import time
import timeit
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

import ddsbind
from ddsbind import dll
from ddsbind.formats.ddsref import find_reference_dir

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
#: Compiled DDS objects of a source tree, shared by the drivers (git-ignored, like .cache/dds).
OBJECT_CACHE = REPO / ".cache" / "bench-dds"
#: Deals in one ``CalcAllTables*`` call with all 5 strains (DDS's limit).
BATCH = dll.max_tables(5)
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3

T = TypeVar("T")


class BenchError(RuntimeError):
    """A benchmark cannot run, or two of its sides disagree."""


# -- DDS's reference hands ------------------------------------------------------------------


def reference_file(name: str) -> Path:
    """DDS's reference file ``name`` (``list100.txt`` ...), where the tests find it: ``DDSBIND_REFERENCE``,
    ``$DDS_SOURCE_DIR/hands``, ``.cache/dds/source/hands`` (``make fetch-dds``), ``shared/`` beside the checkout."""
    found = find_reference_dir(
        REPO / ".cache" / "dds" / "source" / "hands", REPO.parent / "shared" / "reference" / "dds-hands"
    )
    if found is None:
        raise BenchError("DDS's reference hands not found: run `make fetch-dds` or set DDSBIND_REFERENCE")
    return found / name


# -- building the native drivers ------------------------------------------------------------


def find_compiler(cxx: bool = False) -> str:
    """A C (``cxx``: C++) compiler: ``$CC``/``$CXX`` if set, else the usual names on ``PATH``."""
    names = (os.environ.get("CXX"), "c++", "g++", "clang++") if cxx else (os.environ.get("CC"), "cc", "gcc", "clang")
    for name in names:
        path = shutil.which(name) if name else None
        if path:
            return path
    raise BenchError(
        f"no {'C++' if cxx else 'C'} compiler found (looked for {', '.join(n for n in names if n)}); install one, "
        "e.g. 'apt-get install build-essential' (make setup does)"
    )


def _run(cmd: Sequence[str]) -> None:
    proc = subprocess.run(list(cmd), capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} failed:\n{proc.stderr.strip()[-3000:]}")


def source_tree() -> Path:
    """The DDS source tree of a source-tree build: ``$DDS_SOURCE_DIR``, else ``.cache/dds/source``."""
    tree = Path(os.environ.get("DDS_SOURCE_DIR") or REPO / ".cache" / "dds" / "source").expanduser().resolve()
    if not (tree / "include" / "dll.h").is_file() or not list((tree / "src").glob("*.cpp")):
        raise BenchError(
            f"ddsbind runs DDS compiled from a source tree, but {tree} is none (src/*.cpp, include/dll.h): "
            "set DDS_SOURCE_DIR to the tree ddsbind was built from"
        )
    return tree


def _popen_wrap_source() -> str:
    """The extension's ``popen`` wrapper (C source), read from ``native/build_ffi.py`` without running it."""
    tree = ast.parse((REPO / "native" / "build_ffi.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "POPEN_WRAP" for t in node.targets):
            return str(ast.literal_eval(node.value))
    raise BenchError("native/build_ffi.py no longer defines POPEN_WRAP")


def _threading_flags() -> list[str]:
    """DDS's threading system, chosen as the extension's build chooses it (``DDS_THREADS``)."""
    if os.environ.get("DDS_THREADS", "stl").lower() == "openmp":
        return ["-fopenmp", "-DDDS_THREADS_OPENMP"]
    return ["-DDDS_THREADS_STL"]


def _source_objects(tree: Path) -> list[Path]:
    """DDS's ``src/*.cpp`` and the popen wrapper compiled into objects, once per tree and flags."""
    flags = ["-O3", *_threading_flags(), *os.environ.get("DDS_CXXFLAGS", "").split()]
    sources = sorted((tree / "src").glob("*.cpp"))
    key = hashlib.sha256(repr((str(tree), flags, [(p.name, p.stat().st_mtime_ns) for p in sources])).encode())
    out = OBJECT_CACHE / key.hexdigest()[:16]
    objects = [out / f"{p.stem}.o" for p in sources] + [out / "popen_wrap.o"]
    if all(o.exists() for o in objects):
        return objects
    out.mkdir(parents=True, exist_ok=True)
    cxx, cc = find_compiler(cxx=True), find_compiler()
    wrap = out / "popen_wrap.c"
    wrap.write_text("#define _GNU_SOURCE\n#include <stdio.h>\n" + _popen_wrap_source())
    include = ["-I", str(tree / "include")]
    jobs = [[cxx, *flags, *include, "-c", str(p), "-o", str(o)] for p, o in zip(sources, objects, strict=False)]
    jobs.append([cc, "-O2", "-c", str(wrap), "-o", str(objects[-1])])
    print(f"compiling DDS from {tree} for the native drivers (once, into {out}) ...", flush=True)
    with ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as ex:
        list(ex.map(_run, jobs))
    return objects


def build_driver(source: Path, driver: Path, *, force: bool = False) -> Path:
    """Compile the C driver ``source`` into ``driver``, linked to the DDS the installed ddsbind uses."""
    from_source = ddsbind.dds_info().source == "source tree"
    built_for = f"{source_tree()} {_threading_flags()}" if from_source else "system library"
    stamp = driver.with_name(f".{driver.name}.dds")  # which DDS the driver was linked to
    if (
        not force
        and driver.exists()
        and driver.stat().st_mtime >= source.stat().st_mtime
        and stamp.exists()
        and stamp.read_text() == built_for
    ):
        return driver
    cc = find_compiler()
    tmp = driver.with_name(f".{driver.name}.{os.getpid()}.tmp")
    if from_source:
        tree = source_tree()
        objects = _source_objects(tree)
        obj = tmp.with_suffix(".o")
        _run([cc, "-O2", "-I", str(tree / "include"), "-c", str(source), "-o", str(obj)])
        try:
            link = [find_compiler(cxx=True), str(obj), *map(str, objects), "-pthread", "-Wl,--wrap=popen"]
            link += [f for f in _threading_flags() if f == "-fopenmp"]
            _run([*link, "-o", str(tmp)])
        finally:
            obj.unlink(missing_ok=True)
    else:
        _run([cc, "-O2", "-I", "/usr/include/dds", str(source), "-o", str(tmp), "-ldds"])
    os.replace(tmp, driver)
    stamp.write_text(built_for)
    return driver


def run_driver(driver: Path, *args: object) -> dict[str, str]:
    """Run a driver; its ``key value`` lines as a dict.  BenchError (with its stderr) when it fails."""
    cmd = [str(driver), *map(str, args)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise BenchError(
            f"{' '.join(cmd)} exited with status {proc.returncode}: {proc.stderr.strip() or '(no message)'}"
        )
    out: dict[str, str] = {}
    for line in proc.stdout.splitlines():
        key, _, value = line.partition(" ")
        if key:
            out[key] = value.strip()
    return out


# -- tables ---------------------------------------------------------------------------------


def fnv1a(tables: NDArray[np.integer]) -> int:
    """64-bit FNV-1a over every entry as one byte, in C order: the drivers' checksum."""
    h = FNV_OFFSET
    for byte in np.asarray(tables, dtype=np.int64).astype(np.uint8).tobytes():
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def batch_tables(masks: NDArray[np.integer], threads: int = 0) -> NDArray[np.int8]:
    """``(N, 4, 4)`` full-deal masks -> ``(N, 5, 4)`` tables through DDS's ``CalcAllTables``, calls of ``BATCH``.

    DDS's batch solver on ``threads`` threads (0: DDS's default), from the
    DLL layer: what ``ddsbind.dd_tables`` does on its batch route.
    """
    masks = np.asarray(masks)
    out = np.empty((len(masks), 5, 4), dtype=np.int8)
    tdeals, res, pres = dll.ddTableDeals(), dll.ddTablesRes(), dll.allParResults()
    deal_view = np.frombuffer(dll.ffi.buffer(tdeals.deals), dtype=np.uint32).reshape(-1, 4, 4)
    res_view = np.frombuffer(dll.ffi.buffer(res.results), dtype=np.int32).reshape(-1, 5, 4)
    if threads:
        dll.SetMaxThreads(threads)
    try:
        for start in range(0, len(masks), BATCH):
            k = min(BATCH, len(masks) - start)
            deal_view[:k] = masks[start : start + k]
            tdeals.noOfTables = k
            dll.raising.CalcAllTables(tdeals, -1, [0] * 5, res, pres)
            out[start : start + k] = res_view[:k]
    finally:
        if threads:
            dll.SetMaxThreads(0)
    return out


def random_masks(n: int, seed: int) -> NDArray[np.uint32]:
    """``(n, 4, 4)`` masks of deals ``0 .. n-1`` of database seed ``seed`` (``ddsbind.database``'s recipe)."""
    from ddsbind.database.recipe import make_deals
    from ddsbind.deal import owners_to_masks

    return owners_to_masks(make_deals(seed, 0, n))


def add_deal_arguments(p: argparse.ArgumentParser) -> None:
    """``--hands``, ``--limit``, ``--random N`` and ``--seed``: where a benchmark's deals come from."""
    p.add_argument("--hands", type=Path, default=None, help="DDS reference-hands file (default list1000.txt)")
    p.add_argument("--limit", type=int, default=None, help="only the first N deals of the file")
    p.add_argument("--random", type=int, default=None, metavar="N", help="N random deals (seed --seed) instead")
    p.add_argument("--seed", type=int, default=1, help="seed of the --random deals (default 1)")


def deal_masks(args: argparse.Namespace) -> tuple[NDArray[np.uint32], str]:
    """The deals :func:`add_deal_arguments` chose, as ``(N, 4, 4)`` masks, and where they came from."""
    from ddsbind.formats.ddsref import read_reference

    if args.random is not None:
        return random_masks(args.random, args.seed), f"{args.random} random deals, seed {args.seed}"
    path = (args.hands or reference_file("list1000.txt")).resolve()
    if not path.is_file():
        raise BenchError(f"no hands file at {path} (give one with --hands)")
    return np.stack([h.deal.remain_cards for h in read_reference(path)[: args.limit]]), str(path)


def distinct(masks: NDArray[np.integer]) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """``(first, inverse)``: ``masks[first]`` are the distinct deals of ``(N, 4, 4)`` masks in order of first
    appearance, and ``masks[first][inverse]`` equals ``masks`` (the pool's dedupe, with numpy's public API)."""
    n = len(masks)
    _, first, inverse = np.unique(masks.reshape(n, 16), axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)  # unique's order is sorted by value; put it in order of first appearance
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse.reshape(-1)]


# -- timing ---------------------------------------------------------------------------------


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """(wall seconds, result) of ``fn()``."""
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def best_of(fn: Callable[[], object], repeat: int) -> float:
    """The shortest wall time of ``repeat`` calls of ``fn()``."""
    return min(timed(fn)[0] for _ in range(repeat))


def best_per_call(fn: Callable[[], object], iterations: int, rounds: int) -> float:
    """Best-of-``rounds`` mean microseconds of ``fn()`` over ``iterations`` calls."""
    return min(timeit.Timer(fn).repeat(repeat=rounds, number=iterations)) / iterations * 1e6


def machine_cpu_seconds() -> float | None:
    """CPU seconds every process on the machine has used since boot (Linux ``/proc/stat``).

    Busy is everything but idle and iowait; steal (taken by the hypervisor)
    counts as busy, since it is as lost to us as another process's time.
    None where ``/proc/stat`` is missing.
    """
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    ticks = [int(x) for x in fields[1:9]]  # user nice system idle iowait irq softirq steal
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


class LoadMeter:
    """How many cores *other* processes kept busy while we ran something (``with LoadMeter() as m: ...``).

    Machine-wide busy CPU time over the window, minus our own (this process's
    and its children's), divided by the wall time.  A benchmark of two DDS
    threads on two cores is only meaningful when ``m.others`` is near 0.
    """

    def __enter__(self) -> LoadMeter:
        self.others: float | None = None
        self._m0 = machine_cpu_seconds()
        self._own0 = self._own()
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self._t0
        m1 = machine_cpu_seconds()
        if self._m0 is not None and m1 is not None and wall > 0:
            self.others = max(0.0, (m1 - self._m0 - (self._own() - self._own0)) / wall)

    @staticmethod
    def _own() -> float:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def load_text() -> str:
    """The machine's 1, 5 and 15 minute load averages (as ``uptime`` prints them)."""
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def compiled() -> None:
    """Byte-compile the ddsbind under test, as ``pip install`` does: start-up then reads ``.pyc`` files.

    (With ``PYTHONDONTWRITEBYTECODE`` set, as on some CI machines, every run
    would otherwise compile the package's sources again, a third of its start.)
    """
    import compileall

    compileall.compile_dir(Path(ddsbind.__file__).parent, quiet=1)


def others_text(others: float | None) -> str:
    """Cores other processes kept busy, as printed: ``0.03`` or ``?``."""
    return "?" if others is None else f"{others:.2f}"


@dataclass
class TablesRun:
    """One timed solve of all the deals."""

    seconds: float
    cpu_seconds: float
    batch_seconds: list[float]
    checksum: int
    #: Cores other processes kept busy meanwhile (None: unknown).
    others: float | None = None

    @property
    def busy(self) -> float:
        """Cores busy on average: CPU time over wall time."""
        return self.cpu_seconds / self.seconds if self.seconds > 0 else 0.0


def driver_tables(driver: Path, path: Path, threads: int, limit: int | None = None) -> tuple[TablesRun, dict[str, str]]:
    """One ``dds_driver tables PATH THREADS [LIMIT]`` run (only its solving is timed, by the driver's clock)."""
    with LoadMeter() as load:
        out = run_driver(driver, "tables", path, threads, *([limit] if limit else []))
    run = TablesRun(
        seconds=float(out["seconds"]),
        cpu_seconds=float(out["cpu_seconds"]),
        batch_seconds=[float(s) for s in out["batch_seconds"].split()],
        checksum=int(out["checksum"], 16),
        others=load.others,
    )
    return run, out


def rate(n: int, seconds: float) -> float:
    """Items per second."""
    return n / seconds if seconds > 0 else float("nan")
