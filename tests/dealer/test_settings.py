"""A dealer run's settings as objects (issue 45, item 6): a deal source, limits and outputs, checked once.

Oracle: the keyword form of ``run`` (what every caller wrote before), which
must give the very deals and text the objects give.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from ddsbind.dealer import DealerError, DealSource, Limits, Outputs, parse, run

SCRIPT = "condition hcp(north) >= 15\nproduce 5\naction printoneline\n"


def test_the_objects_and_the_keywords_give_the_same_run() -> None:
    """Without this, a caller moving from keywords to the objects (or the CLI, which builds them) would get other
    deals or other text from the same seed."""
    script = parse(SCRIPT)
    by_keywords, by_objects = io.StringIO(), io.StringIO()
    a = run(script, 7, produce=3, out=by_keywords, keep=True, generator="philox-sort-1")
    b = run(
        script,
        DealSource(7, generator="philox-sort-1"),
        Limits(produce=3),
        Outputs(out=by_objects, keep=True),
    )
    assert a.deals is not None and b.deals is not None and a.deals.shape == (3, 52)
    assert np.array_equal(a.deals, b.deals)
    assert by_keywords.getvalue() == by_objects.getvalue() != ""
    c = run(script, DealSource(7, generator="philox-sort-1"), Limits(produce=3), produce=2, keep=True)
    assert c.deals is not None and np.array_equal(c.deals, a.deals[:2])  # a keyword overrides its object's field


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Limits(produce=-1), "produce must not be negative, got -1"),
        (lambda: Limits(generate=-5), "generate must not be negative, got -5"),
        (lambda: Limits(time_limit=-0.5), "time_limit must not be negative"),
        (lambda: DealSource(-1), "seed must be an integer"),
        (lambda: DealSource(1, generator="nope"), "unknown generator 'nope'"),
        (lambda: DealSource(1, swap=1), "swap must be 0, 2 or 3, got 1"),
        (lambda: DealSource(1, swap=2, library="lib.zrd"), "library mode"),
    ],
)
def test_a_bad_setting_is_refused_when_made_naming_it(make, words: str) -> None:
    """Without this, a bad setting surfaced only once dealing had begun, or as "generate and produce must not be
    negative" without saying which."""
    with pytest.raises(DealerError, match=words):
        make()


def test_settings_are_frozen_and_a_stray_keyword_is_a_type_error() -> None:
    """Without this, one run could change another's settings through a shared object, and a misspelt keyword
    (prodcue=10) was silently ignored."""
    limits = Limits(produce=3)
    with pytest.raises(AttributeError):
        limits.produce = 4  # type: ignore[misc]
    given = np.zeros((1, 52), dtype=np.int8)
    source = DealSource(1, deals=given)
    assert source.deals is not None and not source.deals.flags.writeable and given.flags.writeable
    with pytest.raises(TypeError, match="prodcue"):
        run(parse(SCRIPT), 1, prodcue=10)
