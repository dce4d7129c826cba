"""The compiled module: struct layouts as DDS's header defines them, DDS info, and the build configuration."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

import ddsbind
from ddsbind import dll
from tests.conftest import REPO

ffi = dll.ffi


def test_spec_structs_have_the_dll_layout():
    """The four structs of the DLL specification have its fields in its order (ints, 4x4 masks)."""
    assert ffi.sizeof("struct deal") == 4 * (2 + 3 + 3 + 16)
    assert ffi.offsetof("struct deal", "remainCards") == 4 * 8
    assert ffi.sizeof("struct futureTricks") == 4 * (2 + 4 * 13)
    assert ffi.offsetof("struct futureTricks", "score") == 4 * (2 + 3 * 13)
    # dd_tables views these as flat uint32/int32 arrays:
    assert ffi.sizeof("struct ddTableDeal") == 4 * 16
    assert ffi.sizeof("struct ddTableResults") == 4 * 20
    assert ffi.sizeof("struct ddTableDeals") == 4 + ffi.sizeof("struct ddTableDeal") * len(dll.ddTableDeals().deals)


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
    assert [(REPO / p).resolve() for p in cfg["sources"]] == [(tmp_path / "src" / "dds.cpp").resolve()]
    assert cfg["source"].index("<stdbool.h>") < cfg["source"].index('"dll.h"')
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
        assert info.threads == info.cores


def test_source_tree_that_is_not_dds_is_refused(tmp_path):
    """Pointing DDS_SOURCE_DIR at the wrong folder stops the build with a message naming it."""
    builder = _builder()
    with pytest.raises(SystemExit, match="is not a DDS source tree"):
        builder._source_config(tmp_path)
