"""cffi builder for ``ddsbind._dds`` (out-of-line API mode).

Which DDS, decided by :func:`choose_dds`:

1. ``DDS_SOURCE_DIR=/path/to/dds``: that upstream source tree, compiled in.
2. Else the system DDS (Debian's ``libdds-dev``: header ``dds/dll.h``,
   library ``-ldds``) when the C compiler finds it: a probe program including
   ``<dds/dll.h>`` compiles and links with ``-ldds`` (:func:`system_dds_found`).
   ``DDSBIND_NO_SYSTEM_DDS=1`` skips the probe and acts as if it failed.
3. Else DDS's upstream release that ``make fetch-dds`` unpacks into
   ``.cache/dds/source`` (fetched now by ``native/fetch_dds_source.py`` when
   it is not there yet), compiled in as in 1.  Without network (or apt) the
   build stops with one message saying what to install or set.

So ``pip install .`` works on a machine without libdds, and the default
(the system library wherever it is installed) is unchanged.

ddsbind's own dealing kernel (``native/dealkernel.c``, its cdef
``native/dealkernel.h``; plain C99, no DDS) is a module of its own,
``ddsbind._dealkernel`` (:data:`kernelbuilder`), compiled with ``-O3`` and
linked to nothing: dealing never loads DDS (loading libdds, its C++ runtime
and its exit guard was a tenth of a small dealer script's start-up).  The
par kernel (``native/parkernel.c``, its cdef ``native/parkernel.h``: DDS's
``Par`` and ``DealerPar`` over arrays of tables, no DDS) is compiled into
the same module, for :mod:`ddsbind.optimum`.

With ``DDS_SOURCE_DIR=/path/to/dds`` (an upstream DDS source tree, such as
the 2.9.0 release that ``make fetch-dds`` unpacks into ``.cache/dds/source``)
every ``src/*.cpp`` of that tree is compiled into the extension instead,
through cffi's ``sources=`` (so setuptools' ``build_ext`` compiles them into
its own build directory), with the tree's ``include/`` on the header path.

* ``-O3`` and one threading system: ``-DDDS_THREADS_STL`` (default here), or
  ``DDS_THREADS=openmp`` to add ``-fopenmp -DDDS_THREADS_OPENMP``.  The C++
  dialect is the compiler's default GNU one: DDS recognises Linux through the
  ``__linux`` macro, which strict ISO modes (``-std=c++11``) do not define.
* linked with ``-pthread`` and ``-lstdc++``.
* 2.9.0's ``dll.h`` uses ``bool`` without ``<stdbool.h>``; the generated C
  module includes it first.
* 2.9.0 reads free memory on Linux by running ``free -k | tail -n+3 | head
  -n1`` (``System::GetHardware``).  Current procps prints no "-/+ buffers"
  line any more, so that is the Swap line: 0 on a machine without swap, and
  DDS then configures no threads at all.  The extension is linked with
  ``-Wl,--wrap=popen``: DDS's call reaches ``__wrap_popen`` below, which
  answers exactly that command with ``MemAvailable`` from ``/proc/meminfo``
  and passes every other command to the real ``popen``.  No upstream file is
  edited.

Extra compile flags can be passed with ``DDS_CXXFLAGS``.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ffibuilder = FFI()
ffibuilder.cdef((HERE / "dds_api.h").read_text())
#: The dealing kernel's own module: plain C, no DDS (setuptools takes paths relative to setup.py's folder).
#: The par kernel (``native/parkernel.c``, DDS-free too) is compiled into the same module.
KERNEL_HEADERS = ("dealkernel.h", "parkernel.h")
kernelbuilder = FFI()
kernelbuilder.cdef("".join((HERE / h).read_text() for h in KERNEL_HEADERS))
kernelbuilder.set_source(
    "ddsbind._dealkernel",
    "#include <stdint.h>\n" + "".join((HERE / h).read_text() for h in KERNEL_HEADERS),
    sources=[os.path.relpath(HERE / c, HERE.parent) for c in ("dealkernel.c", "parkernel.c")],
    extra_compile_args=["-O3"],
)

GLUE = r"""
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Debian's DDS 2.9.0 frees its memory from a library destructor that runs
   after the C++ static objects it uses are destroyed, so every process that
   loaded it dies with SIGSEGV at exit (status 139) after its work is done.
   on_exit handlers run before the destructors of libraries loaded earlier:
   this one flushes C stdio and leaves with the process's own status. Python
   has already finalised (and flushed sys.stdout/stderr) when exit() runs. */
static void ddsbind_exit_guard(int status, void *arg)
{
  (void) arg;
  fflush(NULL);
  _exit(status);
}

static int ddsbind_install_exit_guard(void)
{
  return on_exit(ddsbind_exit_guard, NULL);
}

#ifdef DDSBIND_HAVE_SOLVEALLBOARDSBIN
static int ddsbind_SolveAllBoardsBin(struct boards *bop, struct solvedBoards *solvedp)
{
  return SolveAllBoardsBin(bop, solvedp);
}
static int ddsbind_has_SolveAllBoardsBin(void) { return 1; }
#else
static int ddsbind_SolveAllBoardsBin(struct boards *bop, struct solvedBoards *solvedp)
{
  return SolveAllChunksBin(bop, solvedp, 1);
}
static int ddsbind_has_SolveAllBoardsBin(void) { return 0; }
#endif

#ifdef DDSBIND_FROM_SOURCE
static int ddsbind_from_source(void) { return 1; }
#else
static int ddsbind_from_source(void) { return 0; }
#endif
"""


# Linked only into source-tree builds (see the module docstring).
POPEN_WRAP = r"""
#include <string.h>

FILE *__real_popen(const char *command, const char *type);

static char ddsbind_free_kb[32];

FILE *__wrap_popen(const char *command, const char *type)
{
  if (strncmp(command, "free -k", 7) == 0 && type[0] == 'r') {
    unsigned long long kb = 0;
    char line[256];
    FILE *f = fopen("/proc/meminfo", "r");
    if (f != NULL) {
      while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
          break;
      fclose(f);
    }
    snprintf(ddsbind_free_kb, sizeof ddsbind_free_kb, "%llu\n", kb);
    /* DDS closes the stream with fclose(), which is right for fmemopen. */
    return fmemopen(ddsbind_free_kb, strlen(ddsbind_free_kb), "r");
  }
  return __real_popen(command, type);
}
"""


def _source_config(tree: Path) -> dict:
    src = sorted((tree / "src").glob("*.cpp"))
    include = tree / "include"
    if not src or not (include / "dll.h").is_file():
        sys.exit(f"DDS_SOURCE_DIR={tree} is not a DDS source tree: expected src/*.cpp and include/dll.h")
    header = (include / "dll.h").read_text(errors="replace")
    macros = [("DDSBIND_FROM_SOURCE", "1")]
    if re.search(r"\bSolveAllBoardsBin\s*\(", header):
        macros.append(("DDSBIND_HAVE_SOLVEALLBOARDSBIN", "1"))
    flags = ["-O3"]
    link = ["-pthread", "-Wl,--wrap=popen"]
    if os.environ.get("DDS_THREADS", "stl").lower() == "openmp":
        flags += ["-fopenmp"]
        macros.append(("DDS_THREADS_OPENMP", "1"))
        link += ["-fopenmp"]
    else:
        macros.append(("DDS_THREADS_STL", "1"))
    flags += os.environ.get("DDS_CXXFLAGS", "").split()
    return {
        # setuptools takes only paths relative to setup.py's folder.
        "sources": [os.path.relpath(p, HERE.parent) for p in src],
        "include_dirs": [str(include)],
        "define_macros": macros,
        "extra_compile_args": flags,
        "extra_link_args": link,
        "libraries": ["stdc++"],
        "header": '#include <stdbool.h>\n#include "dll.h"\n',
        "glue": GLUE + POPEN_WRAP,
    }


#: Where ``make fetch-dds`` unpacks DDS's upstream release (a link to ``dds-<version>``).
FETCH_CACHE = HERE.parent / ".cache" / "dds"
FETCH_SCRIPT = HERE / "fetch_dds_source.py"

SYSTEM_PROBE = r"""
#include <stdbool.h>
#include <dds/dll.h>
int main(void) { struct DDSInfo info; GetDDSInfo(&info); return info.major == 0; }
"""


def system_dds_found() -> bool:
    """Whether the C compiler finds the system DDS: ``<dds/dll.h>`` compiles and ``-ldds`` links.

    The same compiler and flags as the build (``CC``, ``CPPFLAGS``, ``CFLAGS``,
    ``LDFLAGS``), so the header and library are looked for where the build
    would look.  No compiler at all counts as not found.
    """
    cc = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    flags = [f for var in ("CPPFLAGS", "CFLAGS", "LDFLAGS") for f in shlex.split(os.environ.get(var, ""))]
    with tempfile.TemporaryDirectory(prefix="ddsbind-probe-") as tmp:
        src = Path(tmp) / "probe.c"
        src.write_text(SYSTEM_PROBE)
        cmd = [*cc, *flags, str(src), "-o", str(Path(tmp) / "probe"), "-ldds"]
        try:
            return subprocess.run(cmd, capture_output=True, check=False).returncode == 0
        except OSError:
            return False


def _is_source_tree(tree: Path) -> bool:
    return (tree / "include" / "dll.h").is_file() and any((tree / "src").glob("*.cpp"))


def choose_dds(env: Mapping[str, str], system_found: Callable[[], bool], fetched: Path) -> tuple[str, Path | None]:
    """Which DDS to build against: ``(how, tree)``.

    ``how`` is ``"source"`` (compile ``tree``: ``DDS_SOURCE_DIR``, or the
    fetched release already in ``fetched``), ``"system"`` (link ``-ldds``,
    ``tree`` None) or ``"fetch"`` (fetch the release into ``fetched`` first,
    then compile it).  ``system_found`` is called only when its answer
    matters, and not at all with ``DDSBIND_NO_SYSTEM_DDS=1``.
    """
    explicit = env.get("DDS_SOURCE_DIR")
    if explicit:
        return "source", Path(explicit).expanduser().resolve()
    if env.get("DDSBIND_NO_SYSTEM_DDS", "") in ("", "0") and system_found():
        return "system", None
    if _is_source_tree(fetched):
        return "source", fetched.resolve()
    return "fetch", fetched


NO_DDS = (
    "ddsbind: no DDS to build against. The system DDS was not used (the C compiler could not "
    "compile <dds/dll.h> and link -ldds, or DDSBIND_NO_SYSTEM_DDS is set), and DDS's upstream release "
    "could not be fetched into {cache} ({reason}). Install the system library (Debian: apt-get install "
    "libdds-dev), or set DDS_SOURCE_DIR=/path/to/dds to an unpacked DDS source tree (src/*.cpp, "
    "include/dll.h), or fix the cause in brackets and run `make fetch-dds`."
)


def fetch_release(cache: Path, script: Path = FETCH_SCRIPT) -> Path:
    """Fetch DDS's upstream release into ``cache`` with ``script``; the tree, or one clear SystemExit."""
    res = subprocess.run([sys.executable, str(script), str(cache)], capture_output=True, text=True, check=False)
    tree = cache / "source"
    if res.returncode != 0 or not _is_source_tree(tree):
        lines = (res.stderr or res.stdout).strip().splitlines()
        reason = lines[-1] if lines else f"{script.name} exited with status {res.returncode}"
        sys.exit(NO_DDS.format(cache=cache, reason=reason))
    return tree.resolve()


def _configure() -> dict:
    how, tree = choose_dds(os.environ, system_dds_found, FETCH_CACHE / "source")
    if how == "system":
        return {
            "extra_compile_args": ["-O3"],
            "libraries": ["dds"],
            "header": "#include <dds/dll.h>\n",
            "glue": GLUE,
        }
    why = (
        "DDSBIND_NO_SYSTEM_DDS is set"
        if os.environ.get("DDSBIND_NO_SYSTEM_DDS", "") not in ("", "0")
        else "no system DDS found"
    )
    if how == "fetch":
        print(f"ddsbind: {why}; fetching DDS's upstream release into {FETCH_CACHE}", file=sys.stderr)
        tree = fetch_release(FETCH_CACHE)
    assert tree is not None
    if not os.environ.get("DDS_SOURCE_DIR"):
        print(f"ddsbind: {why}; compiling DDS's release from {tree}", file=sys.stderr)
    return _source_config(tree)


_cfg = _configure()
ffibuilder.set_source(
    "ddsbind._dds",
    _cfg["header"] + _cfg["glue"],
    **{k: v for k, v in _cfg.items() if k not in ("header", "glue")},
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
    kernelbuilder.compile(verbose=True)
