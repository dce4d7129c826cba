"""The oracles the suite checks ddsbind against, each found in one place; a missing one is an error, never a skip.

``make setup`` and ``make test-deps`` install every one of them on Debian
(DDS's upstream release with its reference hands through ``make fetch-dds``,
Debian's ``dealer`` with its example scripts, a C compiler for the native
drivers in ``benchmarks/``).  A test that needs one asks :func:`require`,
which fails the test with one line naming the oracle and the command that
installs it.  ``python tests/oracles.py`` (run by ``make test``/``make
check`` before pytest) prints one line per missing oracle and exits 1, so a
machine without them stops there instead of running a suite with its
strongest checks gone.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _reference_dir() -> Path | None:
    """DDS's reference hands: ``DDSBIND_REFERENCE``, ``$DDS_SOURCE_DIR/hands``, ``.cache/dds``, ``shared/``."""
    # ddsbind.formats.ddsref holds the search order the package documents; imported late so that
    # ``python tests/oracles.py`` runs under any Python that has ddsbind installed.
    from ddsbind.formats.ddsref import find_reference_dir

    try:
        found = find_reference_dir(
            REPO / ".cache" / "dds" / "source" / "hands", REPO.parent / "shared" / "reference" / "dds-hands"
        )
    except FileNotFoundError:  # DDSBIND_REFERENCE names a folder without the lists
        return None
    if found is None or not all((found / name).is_file() for name in ("list100.txt", "list1000.txt")):
        return None
    return found


def _debian_dealer() -> Path | None:
    """Debian's ``dealer`` binary (``/usr/games`` is not on every PATH)."""
    found = shutil.which("dealer") or shutil.which("/usr/games/dealer")
    return Path(found) if found else None


def _dealer_examples() -> Path | None:
    """The example scripts Debian's ``dealer`` package ships, with dealer's own outputs (``Refer.*``)."""
    path = Path("/usr/share/doc/dealer/examples")
    return path if (path / "Descr.test_operator_order").is_file() else None


def _c_compiler() -> Path | None:
    """The C compiler that builds ``benchmarks/dds_driver.c``, DDS called from C with no Python in between."""
    found = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    return Path(found) if found else None


def _chromium() -> Path | None:
    """Debian's ``chromium``, the headless browser that opens the built site from disk."""
    found = shutil.which("chromium")
    return Path(found) if found else None


#: name -> (finder, what it is, how to install it).
ORACLES: dict[str, tuple[Callable[[], Path | None], str, str]] = {
    "dds-hands": (
        _reference_dir,
        "DDS's reference hands (list100.txt, list1000.txt)",
        "run `make fetch-dds` (needs network) or set DDSBIND_REFERENCE to a hands/ folder",
    ),
    "dealer": (_debian_dealer, "Debian's dealer (/usr/games/dealer)", "run `make test-deps` (apt-get install dealer)"),
    "dealer-examples": (
        _dealer_examples,
        "dealer's example scripts (/usr/share/doc/dealer/examples)",
        "run `make test-deps` (apt-get install dealer)",
    ),
    "chromium": (
        _chromium,
        "Debian's chromium (a headless browser)",
        "run `make test-deps` (apt-get install chromium)",
    ),
    "cc": (_c_compiler, "a C compiler for the native DDS drivers", "run `make setup` (installs build-essential)"),
}

_found: dict[str, Path | None] = {}


def find(name: str) -> Path | None:
    """The oracle ``name`` (a key of :data:`ORACLES`), or None when this machine lacks it; looked up once."""
    if name not in _found:
        _found[name] = ORACLES[name][0]()
    return _found[name]


def message(name: str) -> str:
    """The one line that says which oracle is missing and how to install it."""
    _, what, fix = ORACLES[name]
    return f"missing oracle: {what}: {fix}"


def require(name: str) -> Path:
    """The oracle ``name``; fails the calling test (no traceback, one line) when it is missing."""
    found = find(name)
    if found is None:
        import pytest

        pytest.fail(message(name), pytrace=False)
    return found


def main() -> int:
    """Print one line per missing oracle on stderr; exit status 1 when any is missing."""
    missing = [name for name in ORACLES if find(name) is None]
    for name in missing:
        print(message(name), file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
