"""Answer at the speed of the question: ``makes``/``tricks`` against full DD tables, and the dealer's planner.

Same deals, same process, 2 threads (``--threads``), variants interleaved in
each of ``--repeat`` rounds; the best round of each variant counts:

* ``native tables``: ``benchmarks/dds_driver tables`` -- plain C calling
  DDS's batch (``CalcAllTablesPBN`` in calls of 40) for the whole table of
  every deal, as a program that only knows tables answers any question.
* ``makes``: ``SolverPool(threads).makes(deals, CONTRACT)`` -- one target
  search (``target``, ``solutions=1``) per deal.
* ``tricks``: ``SolverPool(threads).tricks(deals, strain, declarer)`` -- one
  search (``target=-1``, ``solutions=1``) per deal, leader the declarer's LHO.
* ``redeal's way``: what redeal's ``dd_tricks`` does for a make-or-fail
  question, one full search per deal (no target), then ``>= level + 6``;
  run here through ``SolverPool(threads).solve_boards(..., solutions=1)``
  on the same threads.
* ``single answers`` (printed once, untimed beyond its own clock): the cost
  per deal of each kind of question, the figures the dealer's planner uses.

Every variant's answers must equal the whole tables' (DDS's batch, solved
once before timing; the driver's checksum must match them too), else the
script exits 1.  Printed ratios (seconds of the first over the second):

1. ``native tables / makes``       (aim >= 20)
2. ``native tables / tricks``      (aim >= 6)
3. ``redeal's way / makes``

``--dealer N`` adds the planner's measurement: one dealer script whose
action needs one result per deal (``average tricks(south, notrumps)``)
against the same script needing all twenty (twenty ``average`` lines), over
the same ``N`` accepted deals (aim: one result >= 5x faster).

``--crossover`` measures the planner's crossover (:data:`ddsbind.dealer.run.TABLE_FROM`):
the CPU seconds, at one thread, of ``k`` exact results per deal asked as
single searches (``SolverPool.answers``, one deal's searches in a row, so
DDS keeps its transposition table within a strain), for ``k`` = 1 .. 20
(strain by strain, and spread over the strains), and of one target search,
each over the CPU seconds of the whole tables (``SolverPool.dd_tables_array``)
of the same deals.  CPU time, not wall time: the figures hold on a busy machine.

``--leads`` measures the opening-lead table's searches (one thread, CPU
time): for each deal, every lead of the declarer's left-hand opponent
scored by one ``SolveBoard`` with ``solutions=3`` (what
``ddsbind.dealer.lead_table`` does: DDS scores the cards one after another
in one call, on one transposition table), against one search per lead card
(the card on the table, ``target=-1``) run deal by deal in a row on the
thread (DDS keeps its table between them: same deal, same strain) and run
card-major across the deals (a new deal every search: the table reset
each time).  All three must give the same tricks for every card.

``others busy`` is how many cores other processes kept busy during a run;
figures taken while it is well above 0 measure the machine, not ddsbind.

Short run::

    .venv/bin/python benchmarks/bench_question.py --random 40 --repeat 1
    .venv/bin/python benchmarks/bench_question.py --random 40 --dealer 40
    .venv/bin/python benchmarks/bench_question.py --random 30 --crossover
    .venv/bin/python benchmarks/bench_question.py --random 20 --leads
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from _common import (
    BenchError,
    LoadMeter,
    batch_tables,
    build_driver,
    driver_tables,
    fnv1a,
    others_text,
    random_masks,
)

import ddsbind
from ddsbind.formats.ddsref import read_reference

HERE = Path(__file__).resolve().parent
DRIVER_SOURCE = HERE / "dds_driver.c"
SEATS = "NESW"
STRAINS = ("spades", "hearts", "diamonds", "clubs", "notrumps")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--random", type=int, default=40, metavar="N", help="N distinct random deals (default 40)")
    p.add_argument("--seed", type=int, default=1, help="seed of the --random deals (default 1)")
    p.add_argument("--hands", type=Path, default=None, help="a DDS reference-hands file instead of random deals")
    p.add_argument("--limit", type=int, default=None, help="only the first N deals of --hands")
    p.add_argument("--contract", default="3NTS", help="the make-or-fail question (default 3NTS: 3NT by South)")
    p.add_argument("--threads", type=int, default=2, help="solver threads of every variant (default 2)")
    p.add_argument("--repeat", type=int, default=2, help="interleaved rounds; each variant's best counts (default 2)")
    p.add_argument("--dealer", type=int, default=0, metavar="N", help="also time the planner on N accepted deals")
    p.add_argument("--driver", type=Path, default=HERE / "dds_driver", help="where the driver binary lives")
    p.add_argument("--crossover", action="store_true", help="only measure the planner's crossover (CPU time)")
    p.add_argument("--leads", action="store_true", help="only measure the lead table's searches (CPU time)")
    args = p.parse_args(argv)
    if args.repeat < 1 or args.random < 1 or args.threads < 1 or args.dealer < 0:
        p.error("--repeat, --random and --threads must be >= 1, --dealer >= 0")
    return args


def deals_of(args: argparse.Namespace, folder: Path) -> tuple[np.ndarray, Path, str]:
    """The deals as masks, a file of their PBN lines for the driver, and where they came from."""
    if args.hands is not None:
        masks = np.stack([h.deal.remain_cards for h in read_reference(args.hands.resolve())[: args.limit]])
        source = str(args.hands)
    else:
        masks = random_masks(args.random, args.seed)
        source = f"{args.random} random deals, seed {args.seed}"
    path = folder / "deals.txt"
    path.write_text("".join(f'PBN "{ddsbind.Deal(m).to_pbn()}"\n' for m in masks))
    return masks, path, source


def main(argv: Sequence[str] | None = None) -> int:
    """Run the rounds, check the answers, print the figures."""
    args = parse_args(argv)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return _main(args, Path(tmp))
    except (BenchError, ddsbind.Error) as exc:
        print(f"bench_question: {exc}", file=sys.stderr)
        return 1


def _main(args: argparse.Namespace, tmp: Path) -> int:
    contract = ddsbind.Contract.parse(args.contract).declared()
    level, strain, declarer = contract.level, int(contract.strain), int(contract.declarer or 0)
    masks, path, source = deals_of(args, tmp)
    if args.crossover:
        _crossover(masks, source, (strain, declarer, level + 6))
        return 0
    if args.leads:
        _leads(masks, source, strain, (declarer + 1) % 4)
        return 0
    n = len(masks)
    tables = batch_tables(masks)  # the answers every variant must give (untimed)
    exact = tables[:, strain, declarer]
    made = exact >= level + 6
    driver = build_driver(DRIVER_SOURCE, args.driver.resolve())
    leader = (declarer + 1) % 4

    def native() -> tuple[float, np.ndarray, float | None]:
        run, out = driver_tables(driver, path, args.threads, n)
        if int(out["deals"]) != n or run.checksum != fnv1a(tables):
            raise BenchError("the driver's tables differ from DDS's batch tables")
        return run.seconds, made, run.others

    def timed(fn: Callable[[ddsbind.SolverPool], np.ndarray]) -> Callable[[], tuple[float, np.ndarray, float | None]]:
        def run() -> tuple[float, np.ndarray, float | None]:
            with ddsbind.SolverPool(args.threads) as pool, LoadMeter() as load:
                t0 = time.perf_counter()
                out = fn(pool)
                seconds = time.perf_counter() - t0
            return seconds, out, load.others

        return run

    def redeal(pool: ddsbind.SolverPool) -> np.ndarray:
        boards = [(ddsbind.Deal(m), strain, leader) for m in masks]
        defence = np.array([s.best_score for s in pool.solve_boards(boards, solutions=1)])
        return 13 - defence >= level + 6

    variants: dict[str, Callable[[], tuple[float, np.ndarray, float | None]]] = {
        "native tables": native,
        "makes": timed(lambda pool: pool.makes(masks, args.contract)),
        "tricks": timed(lambda pool: pool.tricks(masks, strain, declarer)),
        "redeal's way": timed(redeal),
    }
    want = {"native tables": made, "makes": made, "tricks": exact, "redeal's way": made}
    seconds: dict[str, list[float]] = {k: [] for k in variants}
    others: dict[str, list[float | None]] = {k: [] for k in variants}
    for _ in range(args.repeat):
        for name, run in variants.items():
            s, out, o = run()
            if not np.array_equal(np.asarray(out), want[name]):
                bad = _first_diff(out, want[name])
                raise BenchError(f"{name}: answers differ from the whole tables' on deal {bad}")
            seconds[name].append(s)
            others[name].append(o)

    info = ddsbind.dds_info()
    best = {k: min(v) for k, v in seconds.items()}
    print(f"DDS {info.version} ({info.source}), {info.cores} cores; threads {args.threads}")
    print(f"deals     {n}: {source}; question: does {args.contract} make? ({int(made.sum())} of {n} do)")
    print(f"rounds    {args.repeat} (variants interleaved; best of each counts); answers equal the tables' in all")
    print()
    print(f"{'variant':<18}{'best s':>9}{'ms/deal':>10}{'others busy':>13}   all runs (s)")
    for name in variants:
        i = seconds[name].index(best[name])
        runs = " ".join(f"{s:.3f}" for s in seconds[name])
        busy = others_text(others[name][i])
        print(f"  {name:<16}{best[name]:>9.3f}{1000 * best[name] / n:>10.2f}{busy:>13}   {runs}")
    print()
    print(f"1. native tables / makes:  {best['native tables'] / best['makes']:8.2f}   (aim >= 20)")
    print(f"2. native tables / tricks: {best['native tables'] / best['tricks']:8.2f}   (aim >= 6)")
    redeal_ratio = best["redeal's way"] / best["makes"]
    print(f"3. redeal's way / makes:   {redeal_ratio:8.2f}")
    if args.dealer:
        print()
        _planner(args, masks, tables)
    loads = [o for v in others.values() for o in v if o is not None]
    if loads and max(loads) > 0.25:
        print(
            f"note: other processes kept up to {max(loads):.2f} cores busy during these runs; "
            "the figures measure the machine's load as much as ddsbind -- rerun on an idle machine"
        )
    return 0


def _crossover(masks: np.ndarray, source: str, target: tuple[int, int, int]) -> None:
    """CPU seconds of k single searches per deal, and of one target search, over those of whole tables."""
    from ddsbind.dealer.run import TABLE_FROM

    def cpu(fn: Callable[[], object]) -> float:
        t0 = time.process_time()
        fn()
        return time.process_time() - t0

    orders = {
        "strain by strain": [(s, d, -1) for s in (4, 0, 1, 2, 3) for d in range(4)],
        "spread": [(s, d, -1) for d in range(4) for s in (4, 0, 1, 2, 3)],
    }
    with ddsbind.SolverPool(1) as pool:
        table = cpu(lambda: pool.dd_tables_array(masks))
        target_share = cpu(lambda: pool.answers(masks, [target])) / table
        shares = {
            name: [cpu(lambda q=q, k=k: pool.answers(masks, q[:k])) / table for k in range(1, 21)]
            for name, q in orders.items()
        }
        table = (table + cpu(lambda: pool.dd_tables_array(masks))) / 2  # the table timed before and after
    print(f"crossover, 1 thread, CPU seconds over the whole tables' ({table:.3f} s, {len(masks)} deals: {source})")
    print(f"  one target search a deal: {target_share:.3f}")
    print(f"  {'k':>3}" + "".join(f"{name:>18}" for name in orders))
    for k in range(1, 21):
        print(f"  {k:>3}" + "".join(f"{shares[name][k - 1]:>18.3f}" for name in orders))
    cheaper = [k for k in range(1, 21) if min(s[k - 1] for s in shares.values()) >= 1.0]
    print(f"table cheaper from k = {cheaper[0] if cheaper else 'never (up to 20)'}; TABLE_FROM = {TABLE_FROM}")


def _leads(masks: np.ndarray, source: str, strain: int, leader: int) -> None:
    """CPU seconds of the lead searches three ways, one thread; the tricks after each lead checked equal."""
    from ddsbind.deal import Card

    def cpu(fn: Callable[[], object]) -> tuple[float, object]:
        t0 = time.process_time()
        out = fn()
        return time.process_time() - t0, out

    deals = [ddsbind.Deal(m) for m in masks]
    per_deal: list[list[tuple[ddsbind.Deal, int, int, list[Card]]]] = []
    for m in masks:
        boards = []
        for suit in range(4):
            for rank in range(2, 15):
                if m[leader, suit] >> rank & 1:
                    rest = m.copy()
                    rest[leader, suit] &= ~np.uint32(1 << rank)
                    boards.append((ddsbind.Deal(rest), strain, leader, [Card(suit, rank)]))
        per_deal.append(boards)
    in_a_row = [b for boards in per_deal for b in boards]
    # One card of each run of touching cards in the leader's hand (equivalent leads): the highest.
    grouped = [
        [b for b in boards if not (masks[d][leader, b[3][0].suit] >> (b[3][0].rank + 1) & 1)]
        for d, boards in enumerate(per_deal)
    ]
    groups = [b for boards in grouped for b in boards]
    owner = [d for d, boards in enumerate(grouped) for _ in boards]
    card_major = [boards[k] for k in range(13) for boards in per_deal]
    with ddsbind.SolverPool(1) as pool:
        one_call, solved = cpu(lambda: pool.solve_boards([(d, strain, leader) for d in deals], solutions=3))
        row_s, row = cpu(lambda: pool.solve_boards(in_a_row, solutions=1))
        major_s, major = cpu(lambda: pool.solve_boards(card_major, solutions=1))
        group_s, by_group = cpu(lambda: pool.solve_boards(groups, solutions=1))
    want = {}
    for d, sol in enumerate(solved):  # type: ignore[arg-type]
        for scored in sol:
            for card in scored.cards:
                want[d, card] = 13 - scored.score  # declarer's tricks after this lead
    got_row = {(i // 13, b[3][0]): r.best_score for i, (b, r) in enumerate(zip(in_a_row, row, strict=True))}
    got_major = {
        (i % len(deals), b[3][0]): r.best_score for i, (b, r) in enumerate(zip(card_major, major, strict=True))
    }
    got_group = {(owner[i], b[3][0]): r.best_score for i, (b, r) in enumerate(zip(groups, by_group, strict=True))}
    if got_row != want or got_major != want or any(want[key] != value for key, value in got_group.items()):
        raise BenchError("the lead searches disagree with SolveBoard's solutions=3 scores")
    n = len(deals)
    print(f"opening leads, 1 thread, CPU seconds ({n} deals: {source}; tricks after every lead equal every way)")
    print(f"  solutions=3, one call a deal:        {one_call:8.3f} s  {1000 * one_call / n:8.2f} ms/deal")
    print(f"  one search a card, a deal in a row:  {row_s:8.3f} s  {1000 * row_s / n:8.2f} ms/deal")
    print(f"  one search a card, card-major:       {major_s:8.3f} s  {1000 * major_s / n:8.2f} ms/deal")
    print(f"  one search a run of touching cards:  {group_s:8.3f} s  {1000 * group_s / n:8.2f} ms/deal")
    print(f"5. card-major / in a row: {major_s / row_s:6.2f}   in a row / one call: {row_s / one_call:6.2f}")
    print(f"6. one call / one search a run: {one_call / group_s:6.2f}")


def _first_diff(got: np.ndarray, want: np.ndarray) -> int:
    return int(np.flatnonzero(np.asarray(got) != want)[0])


def _planner(args: argparse.Namespace, masks: np.ndarray, tables: np.ndarray) -> None:
    """A dealer script needing one result per deal against the same deals needing all twenty; contract reports."""
    from ddsbind.dealer import parse, run

    deals = np.stack([ddsbind.Deal(m).owners() for m in masks[: args.dealer]]).astype(np.int8)
    n = len(deals)
    one = "action average tricks(south, notrumps)\n"
    twenty = "action " + ",\n  ".join(
        f"average tricks({seat}, {strain})" for strain in STRAINS for seat in ("north", "east", "south", "west")
    )
    figures = {}
    for name, text in (("one result", one), ("twenty results", twenty)):
        script = parse(text)
        with LoadMeter() as load:
            t0 = time.perf_counter()
            result = run(script, 1, deals=deals, threads=args.threads)
            took = time.perf_counter() - t0
        figures[name] = (took, load.others)
        means = [s / n for s in result.sums]
        want = tables[:n, 4, 2].mean() if name == "one result" else tables[:n].transpose(1, 2, 0).reshape(20, n).mean(1)
        if not np.allclose(means, want):
            raise BenchError(f"dealer script ({name}): averages differ from the whole tables'")
    ratio = figures["twenty results"][0] / figures["one result"][0]
    print(f"dealer planner, {n} accepted deals, {args.threads} threads:")
    for name, (s, o) in figures.items():
        print(f"  {name:<16}{s:>9.3f} s{1000 * s / n:>10.2f} ms/deal   others busy {others_text(o)}")
    print(f"4. twenty results / one result: {ratio:8.2f}   (aim >= 5)")


if __name__ == "__main__":
    sys.exit(main())
