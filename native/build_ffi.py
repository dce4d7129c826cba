"""cffi builder for ``ddsbind._dds`` (out-of-line API mode).

By default the extension links the system DDS (Debian's ``libdds-dev``:
header ``dds/dll.h``, library ``-ldds``).

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
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
ffibuilder = FFI()
ffibuilder.cdef((HERE / "dds_api.h").read_text())

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


def _configure() -> dict:
    tree = os.environ.get("DDS_SOURCE_DIR")
    if tree:
        return _source_config(Path(tree).expanduser().resolve())
    return {"libraries": ["dds"], "header": "#include <dds/dll.h>\n", "glue": GLUE}


_cfg = _configure()
ffibuilder.set_source(
    "ddsbind._dds",
    _cfg["header"] + _cfg["glue"],
    **{k: v for k, v in _cfg.items() if k not in ("header", "glue")},
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
