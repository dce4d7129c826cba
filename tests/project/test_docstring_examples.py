"""Every ``>>>`` example in a docstring of ``ddsbind`` prints what it says (the API pages show them).

Without this, an example could rot unseen: the one that did showed
``neuberg``'s last floating-point digit as another machine's numpy summed it.
A module whose optional extra is not installed (dask, starlette) is skipped.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ddsbind

MODULES = sorted(m.name for m in pkgutil.walk_packages(ddsbind.__path__, "ddsbind.") if m.name != "ddsbind.__main__")


@pytest.mark.parametrize("name", ["ddsbind", *MODULES])
def test_docstring_examples_print_what_they_say(name: str) -> None:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        pytest.skip(f"{name} needs an optional extra: {exc}")
    runner = doctest.DocTestRunner()
    examples = 0
    for test in doctest.DocTestFinder().find(module, name):
        examples += len(test.examples)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {examples} examples in {name} print something else (above)"
