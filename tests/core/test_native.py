"""The compiled module: struct layouts as DDS's header defines them, DDS info, and the build configuration."""

from __future__ import annotations

import importlib.util
import os
import subprocess
from pathlib import Path

import pytest

import ddsbind
from ddsbind import dll
from tests import oracles
from tests.support import REPO, threads_dds_configures

ffi = dll.ffi


def _c_layout(tmp_path) -> dict[str, int]:
    """sizeof and offsetof of every struct and field of the cdef, as the C compiler computes them from dll.h."""
    cfg = _builder()._cfg
    lines = []
    for name in ffi.list_types()[1]:
        lines.append(f'printf("struct {name} %zu\\n", sizeof(struct {name}));')
        for field, _ in ffi.typeof(f"struct {name}").fields:
            lines.append(f'printf("{name}.{field} %zu\\n", offsetof(struct {name}, {field}));')
    src = tmp_path / "layout.c"
    src.write_text(
        "#include <stdbool.h>\n#include <stddef.h>\n#include <stdio.h>\n"
        + cfg["header"]
        + "\nint main(void) {\n"
        + "\n".join(lines)
        + "\nreturn 0;\n}\n"
    )
    cc = str(oracles.require("cc"))
    exe = tmp_path / "layout"
    include = [f"-I{d}" for d in cfg.get("include_dirs", [])]
    subprocess.run([cc, "-x", "c", *include, str(src), "-o", str(exe)], check=True, capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    return {key: int(value) for key, value in (line.rsplit(" ", 1) for line in out.splitlines())}


def test_struct_layouts_equal_the_real_header(tmp_path):
    """Every struct of native/dds_api.h has the size and field offsets the C compiler gives dll.h's struct."""
    want = _c_layout(tmp_path)
    got = {}
    for name in ffi.list_types()[1]:
        got[f"struct {name}"] = ffi.sizeof(f"struct {name}")
        for field, _ in ffi.typeof(f"struct {name}").fields:
            got[f"{name}.{field}"] = ffi.offsetof(f"struct {name}", field)
    assert len(want) > 25 * 2
    assert got == want


def test_table_structs_are_flat_arrays():
    """dd_tables views ddTableDeal/ddTableResults as packed 4x4 uint32 and 5x4 int32 arrays."""
    assert ffi.sizeof("struct ddTableDeal") == 16 * ffi.sizeof("unsigned int")
    assert ffi.sizeof("struct ddTableResults") == 20 * ffi.sizeof("int")
    assert ffi.sizeof("struct ddTableDeals") == ffi.offsetof("struct ddTableDeals", "deals") + ffi.sizeof(
        "struct ddTableDeal"
    ) * len(dll.ddTableDeals().deals)


def test_batch_capacities_come_from_the_header():
    """Array sizes are DDS's own macros (MAXNOOFBOARDS, MAXNOOFTABLES), not copied numbers."""
    assert len(dll.boards().deals) == dll.MAXNOOFBOARDS
    assert len(dll.ddTableDeals().deals) == dll.MAXNOOFTABLES * dll.DDS_STRAINS
    assert len(dll.ddTablesRes().results) == dll.MAXNOOFTABLES * dll.DDS_STRAINS


def test_dds_info_reports_the_library():
    """dds_info() says which DDS is linked, its threading and how many threads it really runs."""
    info = ddsbind.dds_info()
    assert info.version == f"{info.major}.{info.minor}.{info.patch}"
    assert info.major * 10000 + info.minor * 100 + info.patch == dll.DDS_VERSION
    assert info.source in ("system library", "source tree")
    assert 1 <= info.threads <= max(1, info.cores)
    assert info.threading in info.threading_systems


def test_struct_constructors_take_c_initialisers():
    """dll.deal(trump=..., remainCards=...) initialises like C; count=n makes arrays."""
    dl = dll.deal(trump=4, first=2, remainCards=[[4, 0, 0, 0]] * 4)
    assert (dl.trump, dl.first, dl.remainCards[3][0]) == (4, 2, 4)
    pair = dll.parResultsDealer(count=2)
    assert len(pair) == 2
    with pytest.raises(ddsbind.errors.ArgumentError):
        dll.deal(no_such_field=1)


def test_solve_all_boards_bin_available():
    """SolveAllBoardsBin works even on DDS 2.9.0, which lacks it."""
    bo = dll.boards(noOfBoards=2)
    masks = ddsbind.Deal.from_pbn("N:A.K.. K.A.. Q.Q.. J.J..").remain_cards.tolist()
    for i in range(2):
        bo.deals[i].trump = 4
        bo.deals[i].first = i
        bo.deals[i].remainCards = masks
        bo.target[i], bo.solutions[i], bo.mode[i] = -1, 1, 1
    solved = dll.solvedBoards()
    assert dll.SolveAllBoardsBin(bo, solved) == dll.RETURN_NO_FAULT
    assert solved.noOfBoards == 2
    assert solved.solvedBoard[0].score[0] == 1 and solved.solvedBoard[1].score[0] == 1


def _builder():
    spec = importlib.util.spec_from_file_location("build_ffi_under_test", REPO / "native" / "build_ffi.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_source_tree_build_flags(tmp_path, monkeypatch):
    """DDS_SOURCE_DIR compiles the tree's sources through setuptools, -O3, one threading system, popen wrapped."""
    (tmp_path / "src").mkdir()
    (tmp_path / "include").mkdir()
    (tmp_path / "src" / "dds.cpp").write_text("")
    (tmp_path / "include" / "dll.h").write_text("int SolveAllBoardsBin(struct boards *, struct solvedBoards *);\n")
    builder = _builder()
    monkeypatch.delenv("DDS_THREADS", raising=False)
    cfg = builder._source_config(tmp_path)
    assert "-O3" in cfg["extra_compile_args"]
    assert ("DDS_THREADS_STL", "1") in cfg["define_macros"]
    assert ("DDSBIND_HAVE_SOLVEALLBOARDSBIN", "1") in cfg["define_macros"]
    assert "-Wl,--wrap=popen" in cfg["extra_link_args"]
    # The tree's sources alone: ddsbind's dealing and par kernels are a module of their own, linked to nothing.
    kernels = [(REPO / "native" / name).resolve() for name in ("dealkernel.c", "parkernel.c")]
    dds = (tmp_path / "src" / "dds.cpp").resolve()
    assert [(REPO / p).resolve() for p in cfg["sources"]] == [dds]
    module, _, _, options = builder.kernelbuilder._assigned_source
    assert module == "ddsbind._dealkernel" and [(REPO / p).resolve() for p in options["sources"]] == kernels
    assert not options.get("libraries") and "-O3" in options["extra_compile_args"]
    assert cfg["header"].index("<stdbool.h>") < cfg["header"].index('"dll.h"')
    monkeypatch.setenv("DDS_THREADS", "openmp")
    cfg = builder._source_config(tmp_path)
    assert "-fopenmp" in cfg["extra_compile_args"] and ("DDS_THREADS_OPENMP", "1") in cfg["define_macros"]


@pytest.mark.skipif(not os.environ.get("DDSBIND_EXPECT_DDS"), reason="DDSBIND_EXPECT_DDS not set (make sets it)")
def test_the_build_under_test_is_the_expected_dds():
    """`make test-source` really tests the DDS compiled from source, not the checkout's system-library build."""
    info = ddsbind.dds_info()
    assert info.source == os.environ["DDSBIND_EXPECT_DDS"]
    if info.source == "source tree":
        assert Path(ddsbind.__file__).resolve().parent != REPO / "ddsbind"
        # 2.9.0 on current Linux configures threads only with its memory probe fixed (build_ffi's popen wrap).
        expected = threads_dds_configures(info.cores)
        assert (info.threads == expected) if expected is not None else (1 <= info.threads <= info.cores)


def test_source_tree_that_is_not_dds_is_refused(tmp_path):
    """Pointing DDS_SOURCE_DIR at the wrong folder stops the build with a message naming it."""
    builder = _builder()
    with pytest.raises(SystemExit, match="is not a DDS source tree"):
        builder._source_config(tmp_path)
