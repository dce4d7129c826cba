"""Where the benchmarks find DDS's reference hands: the same places as the tests."""

from __future__ import annotations

from pathlib import Path

from ddsbind.formats.ddsref import find_reference_dir

REPO = Path(__file__).resolve().parents[1]


def reference_file(name: str) -> Path:
    """DDS's reference file ``name`` (``list100.txt`` ...): ``DDSBIND_REFERENCE``, ``$DDS_SOURCE_DIR/hands``,
    the release ``make fetch-dds`` unpacks into ``.cache/dds``, or ``shared/`` beside the checkout."""
    found = find_reference_dir(
        REPO / ".cache" / "dds" / "source" / "hands", REPO.parent / "shared" / "reference" / "dds-hands"
    )
    if found is None:
        raise SystemExit("DDS's reference hands not found: run `make fetch-dds` or set DDSBIND_REFERENCE")
    return found / name
