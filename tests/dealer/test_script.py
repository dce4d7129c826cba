"""Dealer scripts: parsing, output byte for byte as Debian's dealer, conditions, tricks(), errors, the CLI."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ddsbind.dealer import DealerError, Predeal, parse, run
from tests import oracles, support
from tests.support import oneline_deals, owners_from_onelines

DEALER = str(oracles.find("dealer"))
needs_dealer = pytest.mark.usefixtures("debian_dealer")  # a missing dealer fails these tests (tests/oracles.py)
RANKS = "AKQJT98765432"


def cli(*args: str) -> tuple[int, str, str]:
    """``ddsbind dealer ARGS`` in this process: (exit code, stdout, stderr)."""
    result = support.cli("dealer", *args)
    return result.exit_code, result.stdout, result.stderr


FORMATS = """generate 2000
produce 17
condition hcp(north) >= 12
action printoneline(hcp(south) + 1), printall, printew, printcompact(hcp(north)), printcompact, printoneline, printpbn,
  average "north" hcp(north), average spades(south) * 2,
  frequency "spades" (spades(north), 3, 5), frequency (hcp(north), 12, 14, losers(south), 5, 8)
"""


@needs_dealer
def test_actions_print_byte_for_byte_as_dealer(tmp_path: Path) -> None:
    """Given dealer's own deals, every action prints exactly dealer's bytes (layout, PBN tags, tables)."""
    script = tmp_path / "fmt.dl"
    script.write_text(FORMATS)
    theirs = subprocess.run(
        [DEALER, "-s", "1", str(script)], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout
    deals = oneline_deals(theirs)[::2]  # two printoneline actions per deal
    assert len(deals) == 17  # PBN dealer and vulnerability rotate over 16 boards
    ours = io.StringIO()
    parsed = parse(FORMATS, str(script))
    result = run(parsed, 1, deals=deals, out=ours, source=str(script))
    ours.write(result.statistics_text(parsed))
    head = theirs.split("Generated ")[0]
    assert ours.getvalue() == head
    assert result.produced == 17  # (Debian dealer 20211121 at times omits its summary lines after printpbn)


CONDITION = """generate 100000
produce 50
predeal south SAQ542, HKJ87, D32, CAK
condition hcp(north) >= 11 && shape(north, any 4333 + any 4432 + 5xxx - 5xx0) && !hascard(north, KS)
  && (controls(north) > 2 or losers(north) < 7)
action printoneline
"""


def independent_check(owners: np.ndarray) -> bool:
    """The CONDITION computed from the cards directly, without the package's arrays."""
    north = [c for c in range(52) if owners[c] == 0]
    hcp = sum(max(0, 4 - c % 13) for c in north)
    lengths = [sum(1 for c in north if c // 13 == s) for s in range(4)]
    pattern = sorted(lengths, reverse=True)
    shape = pattern in ([4, 3, 3, 3], [4, 4, 3, 2]) or (lengths[0] == 5 and lengths[3] != 0)
    controls = sum(2 if c % 13 == 0 else 1 if c % 13 == 1 else 0 for c in north)
    losers = 0
    for s in range(4):
        held = [c % 13 for c in north if c // 13 == s]
        top = min(len(held), 3)
        losers += top - sum(1 for r in held if r < top)
    return hcp >= 11 and shape and 1 not in north and (controls > 2 or losers < 7)


def test_every_printed_deal_satisfies_condition_and_predeal(tmp_path: Path) -> None:
    """Each printed deal keeps the predeal and passes the condition, checked card by card."""
    path = tmp_path / "c.dl"
    path.write_text(CONDITION)
    code, out, err = cli(str(path), "-s", "3")
    assert code == 0, err
    deals = oneline_deals(out)
    assert len(deals) == 50
    south = Predeal.from_hands({"S": "SAQ542,HKJ87,D32,CAK"}).owners == 2
    assert (deals[:, south] == 2).all()
    assert all(independent_check(d) for d in deals)
    assert out.count("Produced 50 hands") == 1


def test_rejected_deals_fail_the_condition() -> None:
    """Deals the script rejects really fail its condition: the filter is neither too strict nor too loose."""
    script = parse(CONDITION)
    from ddsbind.dealer import deal_batch

    deals = deal_batch(3, 0, script.predeal, size=3000)
    result = run(script, 3, deals=deals, produce=3000, keep=True)
    accepted = {d.tobytes() for d in result.deals}
    for d in deals:
        assert (d.tobytes() in accepted) == independent_check(d)


def test_same_seed_same_output_at_one_and_two_threads(tmp_path: Path) -> None:
    """A seed gives the same printed deals whatever -t says."""
    path = tmp_path / "t.dl"
    path.write_text("generate 50000\nproduce 20\ncondition hcp(north) > 15\naction printoneline\n")
    one = cli(str(path), "-s", "99", "--threads", "1")[1]
    two = cli(str(path), "-s", "99", "--threads", "2")[1]
    strip = lambda text: text.split("Time needed")[0]  # noqa: E731
    assert strip(one) == strip(two)
    assert strip(one) != strip(cli(str(path), "-s", "98")[1])


def test_tricks_equal_dd_tables_on_printed_deals(tmp_path: Path) -> None:
    """tricks(seat, strain) printed beside each deal is DDS's table entry for it."""
    from ddsbind import dd_tables_array
    from ddsbind.deal import owners_to_masks

    path = tmp_path / "tr.dl"
    path.write_text(
        "produce 5\ncondition hcp(north) + hcp(south) >= 20\n"
        "action printoneline(tricks(south, notrump) * 100 + tricks(east, hearts)), average tricks(north, spades)\n"
    )
    code, out, err = cli(str(path), "-s", "4", "--threads", "2")
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if ln.startswith("n ")]
    deals = owners_from_onelines(lines)
    values = [int(ln.split()[-1]) for ln in lines]
    tables = np.asarray(dd_tables_array(owners_to_masks(deals)))
    assert values == (tables[:, 4, 2].astype(int) * 100 + tables[:, 1, 1]).tolist()
    mean = float(out.split("Frequency")[0].splitlines()[len(lines)])
    assert math.isclose(mean, tables[:, 0, 0].mean(), rel_tol=1e-5)


def test_score_and_imps_in_scripts() -> None:
    """score() and imps() follow duplicate scoring and the WBF IMP scale."""
    script = parse(
        "produce 1\naction average score(nv, x3N, 9), average score(vul, x4S, 8),"
        " average imps(score(vul, x6C, 12) - 920)"
    )
    deals = np.repeat(np.arange(4, dtype=np.int8), 13)[None]
    result = run(script, 1, deals=deals)
    assert result.sums == [400.0, -200.0, 10.0]  # 6C vulnerable made: 1370; 1370 - 920 = 450: 10 IMPs


# Debian's example scripts (Descr.*) are compared with Debian's dealer byte for byte, on dealer's own
# deals, in tests/dealer/test_agreement.py (test_same_deals_same_output_byte_for_byte).


@needs_dealer
def test_operator_order_example_prints_as_dealer(tmp_path: Path) -> None:
    """dealer's own operator-precedence example prints the same lines (printes, ?:, && ||, / %, unary minus)."""
    script = oracles.require("dealer-examples") / "Descr.test_operator_order"
    theirs = subprocess.run([DEALER, "-s", "1", str(script)], capture_output=True, text=True, check=True).stdout
    code, ours, err = cli(str(script), "-s", "1")
    assert code == 0, err
    assert ours.split("Time needed")[0] == theirs.split("Time needed")[0]


MALFORMED = {
    "unknown function": ("condition hcp(north) > foo(3)\n", r"x\.dl:1:24: unknown function 'foo'"),
    "unknown name": ("condition hcp(north) > opener\n", r"x\.dl:1:24: unknown name 'opener'"),
    "wrong arity": ("condition hcp(north, spades, 3) > 1\n", r"x\.dl:1:28: unexpected ',', expected '\)'"),
    "too few arguments": ("condition hascard(north) \n", r"x\.dl:1:24: unexpected '\)', expected ','"),
    "bad predeal": ("predeal north SAK, XQ\n", r"x\.dl:1:20: unexpected 'XQ', expected a holding"),
    "card predealt twice": ("predeal north SAK\npredeal east SK\n", r"x\.dl:2:14: predeal: SK is predealt twice"),
    "14 cards": ("predeal north SAKQJT98765432, HA\n", r"x\.dl:1:31: predeal: N is given 14 cards"),
    "literal too large": ("condition hcp(north) > 9223372036854775808\n", r"x\.dl:1:24: .*too large"),
    "bad shape": ("condition shape(north, 5444)\n", r"x\.dl:1:24: shape 5444 does not add up to 13"),
    "unterminated": ("condition (hcp(north) > 3\n", r"x\.dl:\d+:\d+: unexpected end of input, expected '\)'"),
    "stray character": ("condition hcp(north) @ 3\n", r"x\.dl:1:22: unexpected '@'"),
    "unknown function in an action": ("action average dddd(north)\n", r"x\.dl:1:16: unknown function 'dddd'"),
    "self reference": ("a = a + 1\ncondition a\n", r"x\.dl:1:5: 'a' is defined in terms of itself"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_script_is_one_line_and_exit_1(tmp_path: Path, case: str) -> None:
    """A broken script gets one line naming where and what, exit status 1, never a traceback."""
    text, pattern = MALFORMED[case]
    path = tmp_path / "x.dl"
    path.write_text(text)
    result = support.cli("dealer", str(path), "-s", "1")
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)  # the error boundary, not a traceback
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ddsbind: error: ")
    assert re.search(pattern, lines[0]), lines[0]


def test_malformed_script_in_a_real_process(tmp_path: Path) -> None:
    """Run as a program, a broken script prints one line on stderr and exits 1."""
    path = tmp_path / "x.dl"
    path.write_text("condition hcp(north) > foo(3)\n")
    result = subprocess.run(
        [sys.executable, "-m", "ddsbind", "dealer", str(path)], capture_output=True, text=True, timeout=120
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"ddsbind: error: {path}:1:24: unknown function 'foo'\n"


def test_dealer_error_is_a_value_error() -> None:
    """Callers can catch script errors as ddsbind.Error or ValueError."""
    from ddsbind import Error

    with pytest.raises(DealerError, match="unexpected end of input"):
        parse("condition (")
    assert issubclass(DealerError, Error) and issubclass(DealerError, ValueError)


def test_tricks_in_condition_solves_only_what_produce_needs() -> None:
    """A condition on tricks() with a small produce solves a few chunks of deals, not a whole batch, each once."""
    from ddsbind.dealer.run import SOLVE_CHUNK_PER_THREAD, solver_for

    solve, pool = solver_for(1)
    solved: list[np.ndarray] = []

    def counting(owners: np.ndarray) -> np.ndarray:
        solved.append(owners.copy())
        return solve(owners)

    try:
        script = parse("produce 3\ncondition hcp(north) > 9 && tricks(north, notrump) >= 7\naction printoneline")
        result = run(script, 12, threads=1, solve=counting, keep=True)
    finally:
        pool.close()
    assert result.produced == 3
    assert result.tables is not None and (result.tables[:, 4, 0] >= 7).all()
    everything = np.concatenate(solved)
    assert len(everything) <= 4 * SOLVE_CHUNK_PER_THREAD
    assert len({row.tobytes() for row in everything}) == len(everything)


def test_counts_and_synonyms_in_scripts() -> None:
    """pointcount, altcount, the pt0..pt9 synonyms, controls, losers and top-k give the arrays' values."""
    from ddsbind.dealer import Hands, deal_batch

    deals = deal_batch(21, 0, size=400)
    hands = Hands(deals)
    script = parse(
        "pointcount 6 4 2 1\naltcount 3 1 1 1 1 1\n"
        "action average hcp(east), average pt3(west, hearts), average queens(south), average aces(north),"
        " average top4(east, clubs), average c13(west), average controls(north, spades), average loser(south),"
        " average tens(east), average jacks(north, diamonds)"
    )
    result = run(script, 1, deals=deals)
    means = [total / 400 for total in result.sums]
    c13 = hands.count((6, 4, 2, 1))
    expected = [
        c13[:, 1].mean(),
        hands.count((1, 1, 1, 1, 1), by_suit=True)[:, 3, 1].mean(),  # altcount 3 overridden: top five honours
        hands.count((0, 0, 1))[:, 2].mean(),
        hands.count((1,))[:, 0].mean(),  # aces: pt4
        hands.count((1, 1, 1, 1), by_suit=True)[:, 1, 3].mean(),
        c13[:, 3].mean(),
        hands.controls_by_suit[:, 0, 0].mean(),
        hands.losers[:, 2].mean(),
        hands.count((0, 0, 0, 0, 1))[:, 1].mean(),
        hands.count((0, 0, 0, 1), by_suit=True)[:, 0, 2].mean(),
    ]
    assert np.allclose(means, expected)


@needs_dealer
def test_print_seats_pages_byte_for_byte_as_dealer(tmp_path: Path) -> None:
    """print(north, west) prints dealer's pages: each seat's hands four across, numbered, a form feed after each."""
    text = "generate 1000\nproduce 11\naction printoneline, print(north, west), average hcp(west)\n"
    script = tmp_path / "p.dl"
    script.write_text(text)
    theirs = subprocess.run([DEALER, "-s", "5", str(script)], capture_output=True, text=True, check=True).stdout
    deals = oneline_deals(theirs)
    assert len(deals) == 11
    ours = io.StringIO()
    parsed = parse(text)
    result = run(parsed, 5, deals=deals, out=ours)
    ours.write(result.statistics_text(parsed))
    assert ours.getvalue() == theirs.split("Generated ")[0]


def test_predeal_of_suit_lengths() -> None:
    """`predeal spades(north)==1, hearts(south)==5` makes every produced deal have those lengths, with the condition."""
    from ddsbind.dealer import Hands

    script = parse(
        "produce 200\npredeal spades(north)==1, hearts(south) == 5\ncondition hcp(east) > 10\naction printoneline"
    )
    result = run(script, 8, keep=True)
    hands = Hands(result.deals)
    assert result.produced == 200
    assert (hands.lengths[:, 0, 0] == 1).all() and (hands.lengths[:, 2, 1] == 5).all()
    assert (hands.hcp[:, 1] > 10).all()
    with pytest.raises(DealerError, match=r"0 \.\. 13"):
        parse("predeal clubs(west)==14")


SHAPE_PATTERNS = ["4333", "any 4333", "any 4432", "5xxx", "x5xx", "any 5xxx", "any 7xx0", "xx0x", "any 6520", "4x4x"]


@pytest.mark.parametrize("pattern", SHAPE_PATTERNS)
def test_shape_accepts_exactly_the_hands_the_manual_describes(pattern: str) -> None:
    """``shape(north, P)``: lengths S H D C equal P's digits where P has one (``x``: any), in that order,
    or, with ``any``, in some order; checked on 4096 deals against that definition, hand by hand."""
    import itertools

    from ddsbind.dealer import deal_batch
    from ddsbind.dealer.dealing import Hands
    from ddsbind.dealer.language import Frame

    script = parse(f"condition shape(north, {pattern})\n")
    owners = deal_batch(11, 0, size=4096)
    got = script.condition(Frame(Hands(owners)), np.arange(len(owners))) != 0
    any_order = pattern.startswith("any ")
    digits = pattern.removeprefix("any ")

    def fits(lengths: tuple[int, ...]) -> bool:
        return all(p == "x" or int(p) == n for p, n in zip(digits, lengths, strict=True))

    for deal, accepted in zip(owners, got, strict=True):
        lengths = tuple(int((deal[13 * s : 13 * s + 13] == 0).sum()) for s in range(4))
        expected = any(fits(p) for p in itertools.permutations(lengths)) if any_order else fits(lengths)
        assert accepted == expected, (pattern, lengths)
    assert got.any() or pattern == "4333"


def test_a_script_parsed_again_is_read_from_the_tree_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A repeated script starts fast from its cached tree, and a damaged or foreign cache never changes what runs."""
    from ddsbind.dealer import syntax

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    text = "condition hcp(north) >= 15 && shape(north, any 4333)\naction average hcp(south)\n"
    first = syntax.parse_tree(text)
    path = syntax._tree_path(text)
    assert path is not None and Path(path).is_file()
    Path(path).write_bytes(b"not a pickle")  # damaged: parsed again, and stored again
    assert syntax.parse_tree(text) == first
    assert syntax._cached_tree(path) == first
    monkeypatch.setattr(syntax, "_parser", None)  # a cached script never reaches the parser
    assert syntax.parse_tree(text) == first
    assert [a.kind for a in parse(text).actions] == ["average"]
    with pytest.raises(TypeError):  # a script never seen does reach it
        syntax.parse_tree(text + "produce 3\n")


def test_a_small_script_run_again_loads_only_what_it_runs(tmp_path: Path) -> None:
    """A repeated small script starts without lark, the scoring rules, the solver or the formats: without this its
    start-up grows back past the 0.2 s the issue asks for (``benchmarks/bench_dealer_startup.py``)."""
    path = support.script_file(tmp_path, "produce 1\naction printoneline\n")
    code = f"""
import sys
from ddsbind.cli import main
sys.argv = ["ddsbind", "dealer", "-s", "1", {path!r}]
try:
    main()
finally:
    heavy = ["lark", "ddsbind.scoring", "ddsbind.results", "ddsbind.solver", "ddsbind._binding", "ddsbind.formats",
             "ddsbind.dealer.statistics", "tqdm"]
    print(sorted(name for name in heavy if name in sys.modules), file=sys.stderr)
"""
    env = {**support.child_env(), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    first, again = (subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env) for _ in "12")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    assert first.stderr.splitlines()[-1] == "['lark']"  # parsed once, by lark
    assert again.stderr.splitlines()[-1] == "[]"
    assert again.stdout.splitlines()[:3] == first.stdout.splitlines()[:3]  # the deal, Generated, Produced


def test_a_script_without_condition_deals_no_more_than_it_produces(monkeypatch: pytest.MonkeyPatch) -> None:
    """``produce 3`` with no condition deals 3 deals (the seed's first 3), not a whole batch of 16,384 first."""
    import importlib

    from ddsbind.dealer import deal_batch

    run_module = importlib.import_module("ddsbind.dealer.run")  # the module (the package's ``run`` is the function)

    sizes: list[int] = []

    def counted(seed: int, batch: int, predeal: Predeal | None = None, size: int = 0, *args: object) -> np.ndarray:
        sizes.append(size)
        return deal_batch(seed, batch, predeal, size, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(run_module, "deal_batch", counted)
    result = run(parse("produce 3\naction printall\n"), 7, keep=True)
    assert sizes == [3] and result.generated == result.produced == 3
    assert result.deals is not None and (result.deals == deal_batch(7, 0, size=5)[:3]).all()
    with_condition = run(parse("produce 3\ncondition hcp(north) >= 0\naction printall\n"), 7, keep=True)
    assert with_condition.deals is not None and (with_condition.deals == result.deals).all()


def test_the_tree_cache_keeps_the_newest_trees(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree cache cannot fill the disk: past its limit the oldest trees are dropped."""
    from ddsbind.dealer import syntax

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(syntax, "TREES_KEPT", 3)
    for n in range(5):
        syntax.parse_tree(f"generate {n + 1}\n")
    folder = Path(str(syntax._tree_path("generate 1\n"))).parent
    assert len(list(folder.iterdir())) == 3
    assert syntax._cached_tree(syntax._tree_path("generate 5\n")) is not None
