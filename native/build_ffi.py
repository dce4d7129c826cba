"""cffi builder for ``ddsbind._dds`` (out-of-line API mode).

By default the extension links the system DDS (Debian's ``libdds-dev``:
header ``dds/dll.h``, library ``-ldds``).

With ``DDS_SOURCE_DIR=/path/to/dds`` (an upstream DDS source checkout) every
``src/*.cpp`` of that tree is compiled into the extension instead, with the
tree's ``include/`` on the header path.  The flags matter:

* ``-std=gnu++11`` (not ``-std=c++11``): DDS recognises Linux through the
  ``__linux`` macro, which strict ISO modes do not define; without it DDS
  silently builds for an unknown system and misdetects memory and threads.
* ``-O3`` and one threading system: ``-DDDS_THREADS_STL`` (default here), or
  ``DDS_THREADS=openmp`` to add ``-fopenmp -DDDS_THREADS_OPENMP``.
* linked with ``-pthread`` (and ``-lstdc++``).

Extra compile flags can be passed with ``DDS_CXXFLAGS``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
CDEF = (HERE / "dds_api.h").read_text()

# Strip comments: cffi's parser does not want them.
_cdef = re.sub(r"/\*.*?\*/", "", CDEF, flags=re.S)

ffibuilder = FFI()
ffibuilder.cdef(_cdef)

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


def _source_config(tree: Path) -> dict:
    src = sorted((tree / "src").glob("*.cpp"))
    include = tree / "include"
    if not src or not (include / "dll.h").is_file():
        sys.exit(f"DDS_SOURCE_DIR={tree} is not a DDS source tree: expected src/*.cpp and include/dll.h")
    header = (include / "dll.h").read_text(errors="replace")
    macros = [("DDSBIND_FROM_SOURCE", "1")]
    if re.search(r"\bSolveAllBoardsBin\s*\(", header):
        macros.append(("DDSBIND_HAVE_SOLVEALLBOARDSBIN", "1"))
    cxxflags = ["-std=gnu++11", "-O3", "-fPIC"]
    threads = os.environ.get("DDS_THREADS", "stl").lower()
    if threads == "openmp":
        cxxflags += ["-fopenmp", "-DDDS_THREADS_OPENMP"]
        link = ["-fopenmp"]
    else:
        cxxflags += ["-DDDS_THREADS_STL"]
        link = []
    cxxflags += os.environ.get("DDS_CXXFLAGS", "").split()
    return {
        "sources": [str(p) for p in src],
        "include_dirs": [str(include)],
        "define_macros": macros,
        "extra_compile_args": cxxflags,
        "extra_link_args": ["-pthread", *link],
        "libraries": ["stdc++"],
        "header": '#include "dll.h"',
    }


def _configure() -> dict:
    tree = os.environ.get("DDS_SOURCE_DIR")
    if tree:
        return _source_config(Path(tree).expanduser().resolve())
    return {
        "sources": [],
        "include_dirs": [],
        "define_macros": [],
        "extra_compile_args": [],
        "extra_link_args": [],
        "libraries": ["dds"],
        "header": "#include <dds/dll.h>",
    }


_cfg = _configure()
# The glue is C compiled as C; DDS's own sources (if any) are C++.  cffi
# compiles the generated module with the C compiler, so compile-only flags
# for C++ must not reach it: setuptools passes extra_compile_args to every
# source, which is why the source-tree build compiles DDS as separate
# objects below rather than through extra_compile_args.
if _cfg["sources"]:
    import subprocess
    import tempfile

    _objdir = Path(tempfile.mkdtemp(prefix="ddsbind-dds-"))
    _objects = []
    for cpp in _cfg["sources"]:
        obj = _objdir / (Path(cpp).stem + ".o")
        cmd = [
            os.environ.get("CXX", "g++"),
            "-c",
            cpp,
            "-o",
            str(obj),
            *[f"-I{d}" for d in _cfg["include_dirs"]],
            *_cfg["extra_compile_args"],
        ]
        subprocess.run(cmd, check=True)
        _objects.append(str(obj))
    ffibuilder.set_source(
        "ddsbind._dds",
        _cfg["header"] + "\n" + GLUE,
        include_dirs=_cfg["include_dirs"],
        define_macros=_cfg["define_macros"],
        extra_objects=_objects,
        extra_link_args=_cfg["extra_link_args"],
        libraries=_cfg["libraries"],
    )
else:
    ffibuilder.set_source(
        "ddsbind._dds",
        _cfg["header"] + "\n" + GLUE,
        libraries=_cfg["libraries"],
        define_macros=_cfg["define_macros"],
    )

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
