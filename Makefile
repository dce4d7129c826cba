# The README's two commands: `make demo` and `make test`.  Both start with
# `make setup`, which installs whatever is missing on a fresh Debian machine
# (run as root): DDS (libdds-dev), a C compiler and Python headers, a venv,
# and this package built against DDS.  Set DDS_SOURCE_DIR to compile an
# upstream DDS source tree instead of linking the system library.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.ddsbind-installed
APT    := DEBIAN_FRONTEND=noninteractive apt-get
PYTEST_ARGS ?=

.PHONY: setup system-deps demo test lint bench clean

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

$(STAMP): pyproject.toml setup.py native/build_ffi.py native/dds_api.h
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[test,distributed,plot]"
	touch $@

# The main job: a 200-deal ZRD database (progress bar on stderr), verified,
# then its statistics (and demo.png when matplotlib is installed).  A rerun
# finishes or re-checks the same database (--resume), never overwrites it.
DEMO_DB ?= demo.zrd
demo: setup
	$(VENV)/bin/ddsbind generate $(DEMO_DB) --count 200 --seed 2026 --resume
	$(VENV)/bin/ddsbind verify $(DEMO_DB) --sample 20
	if $(PY) -c 'import matplotlib' 2>/dev/null; then \
	  $(VENV)/bin/ddsbind info $(DEMO_DB) --plot demo.png; \
	else $(VENV)/bin/ddsbind info $(DEMO_DB); fi

test: setup
	$(VENV)/bin/ruff check .
	$(PY) -m pytest $(PYTEST_ARGS)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: setup
	$(PY) benchmarks/bench_binding.py
	$(PY) benchmarks/bench_formats.py
	$(PY) benchmarks/bench_generate.py

clean:
	rm -rf demo.zrd demo.zrd.json demo.zrd.generating.json demo.zrd.parts demo.png
	rm -rf $(VENV) build *.egg-info ddsbind/_dds*.so ddsbind/_dds.c ddsbind/_dds.o
