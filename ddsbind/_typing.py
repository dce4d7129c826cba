"""Type aliases, protocols and the renaming helpers; no native import, so ``ddsbind.formats`` may use them."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar, cast

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from ddsbind.deal import Deal

F = TypeVar("F", bound=Callable[..., Any])

#: A progress callback: called with the number of units (records, deals)
#: finished since its last call.  Its return value is ignored, so a tqdm
#: bar's ``update`` fits as it is.
Progress: TypeAlias = Callable[[int], object]


def renamed(**old_names: str) -> Callable[[F], F]:
    """Accept a public function's former keyword names (``trump=`` for ``strain=``), with a DeprecationWarning.

    ``renamed(trump="strain", first="leader")`` maps each old keyword to its
    new name; giving both is a ``TypeError``, as Python gives for any
    argument given twice.
    """

    def wrap(function: F) -> F:
        @functools.wraps(function)
        def call(*args: Any, **kwargs: Any) -> Any:
            given = [(old, new) for old, new in old_names.items() if old in kwargs]
            for old, new in given:
                if new in kwargs:
                    raise TypeError(f"{_called(function)}() got {old}= and {new}=: give {new}= only")
                kwargs[new] = kwargs.pop(old)
            if given:
                was = ", ".join(f"{old}=..." for old, _ in given)
                now = ", ".join(f"{new}=..." for _, new in given)
                deprecated(f"{_called(function)}({was})", f"{_called(function)}({now})")
            return function(*args, **kwargs)

        return cast(F, call)  # the same call, keywords renamed

    return wrap


def _called(function: Callable[..., Any]) -> str:
    """How a caller writes ``function``: ``Play`` for ``Play.__init__``, ``prove`` for ``prove``."""
    name = function.__qualname__
    return name.removesuffix(".__init__") if name.endswith(".__init__") else function.__name__


def deprecated(was: str, now: str, *, stacklevel: int = 2) -> None:
    """Warn (DeprecationWarning) that ``was`` (``prove(trump=...)``) is now written ``now``: one wording everywhere."""
    warnings.warn(f"{was} is now {now}", DeprecationWarning, stacklevel=stacklevel + 1)


def renamed_attribute(old: str, new: str) -> property:
    """A read-only property ``old`` giving attribute ``new`` with a DeprecationWarning (``Play.trump``: ``.strain``)."""

    def get(self: object) -> Any:
        deprecated(f"{type(self).__name__}.{old}", f"{type(self).__name__}.{new}")
        return getattr(self, new)

    return property(get, doc=f"Deprecated spelling of :attr:`{new}`.")


class TablesSolver(Protocol):
    """What solves deals into double-dummy tables for a layer that must not import the solver.

    :func:`ddsbind.dd_tables` is one: called with a list of deals, it
    answers one table per deal, each array-like ``(5, 4)`` of tricks,
    strains S H D C NT by declarers N E S W (DDS order).  ``ddsbind.formats``
    never calls DDS itself: what solves above it passes the solver in
    (:func:`ddsbind.read_dataframe` passes :func:`ddsbind.dd_tables`).
    """

    def __call__(self, deals: Sequence[Deal], /) -> Sequence[ArrayLike]: ...
