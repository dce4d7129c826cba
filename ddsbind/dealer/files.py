"""Writing a run's deals (and tables) through the format registry: PBN, ZBD, ZRD, and the rest."""

from __future__ import annotations

import os

import numpy as np
from numpy.typing import NDArray

from ddsbind.formats import registry

__all__ = ["write_deals"]


def write_deals(
    path: str | os.PathLike[str],
    owners: NDArray[np.int8],
    tables: NDArray[np.int8] | None = None,
    format: str | None = None,
) -> str:
    """Write deals ``(n, 52)`` (DDS seats N=0 E=1 S=2 W=3) and optional tables ``(n, 5, 4)`` to ``path``.

    The format is ``format`` or guessed from the extension (``.pbn``,
    ``.zbd``, ``.zrd``...).  A format holding results gets the tables (15 =
    unknown when none were solved).  Returns the format's name.

    Raises
    ------
    FormatError
        Unknown format, or one that cannot be written or holds no deals.
    """
    fmt = registry.guess(path, format, role="output")
    table_array = None if tables is None else np.asarray(tables, dtype=np.uint8)
    records = registry.Records(owners=np.asarray(owners, dtype=np.int8), tables=table_array)
    if fmt.encode is not None:
        data = np.ascontiguousarray(fmt.encode(records)).tobytes()
    elif fmt.dump is not None:
        data = fmt.dump(records)
    else:  # pragma: no cover - guess() refuses formats that cannot be written
        raise registry.FormatError(f"{fmt.name} cannot be written")
    with open(path, "wb") as handle:
        handle.write(data)
    return fmt.name
