"""How soon the analysis board answers: a full deal's first position, a card click, a large file opened.

For ``--random N`` full deals (database seed ``--seed``), a :class:`ddsbind.board.BoardServer`
on 127.0.0.1 is asked over HTTP, as the page asks it, for each deal pasted
(``?deal=PBN&strain=NT&declarer=S``, so West leads):

* ``position``: ``/api/position`` -- the diagram and the hand on turn (no solving);
* ``first solve``: ``/api/solve`` -- every legal lead's score, solved on the pool;
* ``again``: the same ``/api/solve`` once more (the cache: no solving);
* ``table``: ``/api/table`` -- the double-dummy table and par.

Then ``--clicks`` cards are played on each deal as a player clicks them (a
random legal card, ``--think`` seconds apart), each click timed as the page
sees it: ``/api/position`` then ``/api/solve`` of the new position; while the
player thinks, the board solves ahead.  Printed: p50 and p95 of a click.

Last, a ZRD of ``--zrd-records`` deals (``sample.zrd`` repeated, in a
temporary directory) is opened as ``ddsbind board FILE`` opens it, and its
last board shown: the seconds, and the growth of the process's peak memory.

Printed: median and worst seconds of each, and how many cores other processes
kept busy meanwhile (the figures mean something only near 0).  The aim: the
first position shows (``position``) well within a second, and its cards'
scores (``first solve``) within a second on this 2-core machine.
Every answer is checked against :func:`ddsbind.solve_board`; a mismatch exits 1.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import resource
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from _common import LoadMeter, others_text, random_masks, timed

from ddsbind.board.app import BoardServer
from ddsbind.deal import Deal, Seat, Strain
from ddsbind.solver import solve_board


def ask(port: int, route: str, **query: str) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        conn.request("GET", f"/api/{route}?{urllib.parse.urlencode(query)}")
        return json.loads(conn.getresponse().read())
    finally:
        conn.close()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--random", type=int, default=20, metavar="N", help="full random deals (default 20)")
    p.add_argument("--seed", type=int, default=3, help="their database seed (default 3)")
    p.add_argument("--threads", type=int, default=None, help="the board's pool threads (default: DDS's)")
    p.add_argument("--clicks", type=int, default=12, help="cards clicked on each deal (default 12)")
    p.add_argument("--think", type=float, default=0.5, help="seconds between clicks (default 0.5)")
    p.add_argument("--zrd-records", type=int, default=1_000_000, help="deals in the large ZRD (default 1,000,000)")
    args = p.parse_args()
    deals = [Deal(m) for m in random_masks(args.random, args.seed)]
    times: dict[str, list[float]] = {"position": [], "first solve": [], "again": [], "table": []}
    clicks: list[float] = []
    with BoardServer(threads=args.threads) as server, LoadMeter() as load:
        for deal in deals:
            pbn = deal.to_pbn()
            q = {"deal": pbn, "strain": "NT", "declarer": "S"}
            seconds, _ = timed(lambda q=q: ask(server.port, "position", **q))
            times["position"].append(seconds)
            seconds, doc = timed(lambda q=q: ask(server.port, "solve", **q))
            times["first solve"].append(seconds)
            seconds, again = timed(lambda q=q: ask(server.port, "solve", **q))
            times["again"].append(seconds)
            seconds, _ = timed(lambda q=q: ask(server.port, "table", **q))
            times["table"].append(seconds)
            want = {str(c): sc.score for sc in solve_board(deal, Strain.NT, Seat.W) for c in sc.cards}
            got = {c: s["score"] for s in doc["cards"] for c in (s["card"], *s["equals"])}
            if got != want or again != doc:
                print(f"MISMATCH on {pbn}: {got} != {want}", file=sys.stderr)
                return 1
        rng = random.Random(args.seed)
        for deal in deals:
            play: list[str] = []
            q = {"deal": deal.to_pbn(), "strain": "NT", "declarer": "S"}
            legal = [c for s in ask(server.port, "solve", **q)["cards"] for c in (s["card"], *s["equals"])]
            for _ in range(args.clicks):
                time.sleep(args.think)
                play.append(rng.choice(legal))
                q["play"] = ",".join(play)
                start = time.perf_counter()
                ask(server.port, "position", **q)
                answer = ask(server.port, "solve", **q)
                clicks.append(time.perf_counter() - start)
                legal = [c for s in answer["cards"] for c in (s["card"], *s["equals"])]
    print(f"{len(deals)} full random deals (seed {args.seed}), {server.state.pool.threads} pool threads; "
          f"other processes kept {others_text(load.others)} cores busy")  # fmt: skip
    print(f"{'request':<12} {'median s':>9} {'worst s':>9}")
    for name, values in times.items():
        print(f"{name:<12} {statistics.median(values):>9.3f} {max(values):>9.3f}")
    q = statistics.quantiles(clicks, n=20)
    print(f"card click (position + solve, {len(clicks)} clicks, {args.think} s apart): "
          f"p50 {statistics.median(clicks) * 1000:.0f} ms, p95 {q[18] * 1000:.0f} ms")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        sample = (Path(__file__).parent.parent / "examples" / "data" / "sample.zrd").read_bytes()
        big = Path(tmp) / "big.zrd"
        with big.open("wb") as f:
            repeats = -(-args.zrd_records // 24)
            for _ in range(0, repeats, 10_000):
                f.write(sample * min(10_000, repeats))
            f.truncate(args.zrd_records * 23)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        with BoardServer(big, port=0) as server:
            ask(server.port, "position", board=str(args.zrd_records))
            seconds = time.perf_counter() - start
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024
    print(f"a ZRD of {args.zrd_records:,} deals ({args.zrd_records * 23 / 1e6:.0f} MB) opened and its last board "
          f"shown in {seconds:.2f} s; peak memory grew {grown:.0f} MB")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
