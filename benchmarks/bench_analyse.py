"""The match report's speed: ``ddsbind.match.analyse_session`` of N played boards, as a team match.

The boards are DDS's reference hands that carry a play (``list1000.txt``'s
PLAY lines): each hand is a board played in both rooms of a match (the open
room as DDS's file plays it, the closed room the same contract with the
play stopped after the opening lead's trick, so that the rooms differ and
every swing, par, double-dummy score and costly card is worked out).  The
time covers what ``ddsbind analyse --detail`` does after reading the file:
every play traced (DDS's ``AnalyseAllPlaysBin``), one ``SolveBoard`` per
costly card for the better cards, the tables and par of each board, the
scorecard, players' table and text.

Prints ``key value`` lines: ``boards``, ``records``, ``costly_cards``;
``costly_seconds`` (the costly-card analysis alone: traces and better cards,
as ``analyse_session`` runs it) and ``report_seconds`` (the whole report,
which adds each board's double-dummy table for par), each also projected to
the issue's 1,000 boards (``..._for_1000_boards``), wall and CPU (every
thread's: on idle cores the wall time is about CPU over the cores); no
assertions on speed.

    python benchmarks/bench_analyse.py                # 1,000 boards (as many as the file holds)
    python benchmarks/bench_analyse.py --limit 100    # a short run
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from _common import reference_file, timed

from ddsbind.deal import Card, Seat, Strain
from ddsbind.formats.ddsref import read_reference
from ddsbind.match import analyse_session
from ddsbind.play import analyse_plays, costly_cards_batch
from ddsbind.record import GameRecord, contract_of_auction
from ddsbind.scoring import Contract


def match_of(path: Path, limit: int) -> list[GameRecord]:
    """Two records a reference hand with a play: open room (the file's play) and closed room (one trick, claimed)."""
    out: list[GameRecord] = []
    hands = [h for h in read_reference(path) if h.play][:limit]
    for k, h in enumerate(hands):
        dealer, declarer = Seat(h.dealer), Seat(h.first).next(3)
        calls = ["Pass"] * ((declarer - dealer) % 4) + [f"4{Strain(h.trump).symbol}", "Pass", "Pass", "Pass"]
        contract, who = contract_of_auction(dealer, calls)
        assert isinstance(contract, Contract) and who == declarer
        cards = [Card.parse(h.play[i : i + 2]) for i in range(0, len(h.play or ""), 2)]
        for room, play in (("Open", cards), ("Closed", cards[:4])):
            g = GameRecord(h.deal, dealer, h.vul, board=k + 1, auction=calls, auction_marks=[0] * len(calls))
            g.contract, g.declarer, g.play, g.play_marks = contract, declarer, play, [0] * len(play)
            g.tags = {"Room": room, "HomeTeam": "Home", "VisitTeam": "Visitors"}
            g.result = g.declarer_tricks_played() if len(play) == 52 else 7
            out.append(g)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--file", type=Path, default=None, help="A DDS reference file (default: list1000.txt).")
    p.add_argument("--limit", type=int, default=1000, help="Boards to analyse (default 1000).")
    args = p.parse_args(argv)
    games = match_of(args.file or reference_file("list1000.txt"), args.limit)
    boards = len(games) // 2
    jobs = [(g.deal, g.trump, g.leader, g.play) for g in games]

    def costly() -> list:
        return costly_cards_batch(jobs, traces=analyse_plays(jobs))

    cpu0 = time.process_time()
    costly_seconds, found = timed(costly)
    cpu1 = time.process_time()
    seconds, report = timed(lambda: analyse_session(games))
    cpu2 = time.process_time()
    text = "\n".join(report.lines(detail=True))
    assert len(report.boards) == boards and "None" not in text.replace("vulnerable None", "")
    assert sum(map(len, found)) == sum(len(t.costly) for b in report.boards for t in b.tables)
    print(f"boards {boards}")
    print(f"records {len(games)}")
    print(f"costly_cards {sum(map(len, found))}")
    print(f"costly_seconds {costly_seconds:.2f}")
    print(f"costly_seconds_for_1000_boards {1000 * costly_seconds / boards:.1f}")
    print(f"report_seconds {seconds:.2f}")
    print(f"report_seconds_for_1000_boards {1000 * seconds / boards:.1f}")
    # CPU seconds (every thread of the process, DDS's included): on a loaded machine, wall / CPU says how much of
    # the cores the run got; CPU / cores is the wall time the same run takes on idle cores.
    print(f"costly_cpu_seconds_for_1000_boards {1000 * (cpu1 - cpu0) / boards:.1f}")
    print(f"report_cpu_seconds_for_1000_boards {1000 * (cpu2 - cpu1) / boards:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
