"""Type aliases shared across the package; no native import, so ``ddsbind.formats`` may use them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

#: A progress callback: called with the number of units (records, deals)
#: finished since its last call.  Its return value is ignored, so a tqdm
#: bar's ``update`` fits as it is.
Progress: TypeAlias = Callable[[int], object]
