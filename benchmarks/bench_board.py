"""How soon the analysis board shows a full deal: its first position, then every card of the opening lead solved.

For ``--random N`` full deals (database seed ``--seed``), a :class:`ddsbind.board.BoardServer`
on 127.0.0.1 is asked over HTTP, as the page asks it, for each deal pasted
(``?deal=PBN``, notrump by South, so West leads):

* ``position``: ``/api/position`` -- the diagram and the hand on turn (no solving);
* ``first solve``: ``/api/solve`` -- every legal lead's score, solved on the pool;
* ``again``: the same ``/api/solve`` once more (the cache: no solving);
* ``table``: ``/api/table`` -- the double-dummy table and par.

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
import statistics
import sys
import urllib.parse

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
    args = p.parse_args()
    deals = [Deal(m) for m in random_masks(args.random, args.seed)]
    times: dict[str, list[float]] = {"position": [], "first solve": [], "again": [], "table": []}
    with BoardServer(threads=args.threads) as server, LoadMeter() as load:
        for deal in deals:
            pbn = deal.to_pbn()
            seconds, _ = timed(lambda pbn=pbn: ask(server.port, "position", deal=pbn))
            times["position"].append(seconds)
            seconds, doc = timed(lambda pbn=pbn: ask(server.port, "solve", deal=pbn))
            times["first solve"].append(seconds)
            seconds, again = timed(lambda pbn=pbn: ask(server.port, "solve", deal=pbn))
            times["again"].append(seconds)
            seconds, _ = timed(lambda pbn=pbn: ask(server.port, "table", deal=pbn))
            times["table"].append(seconds)
            want = {str(c): sc.score for sc in solve_board(deal, Strain.NT, Seat.W) for c in sc.cards}
            got = {c: s["score"] for s in doc["cards"] for c in (s["card"], *s["equals"])}
            if got != want or again != doc:
                print(f"MISMATCH on {pbn}: {got} != {want}", file=sys.stderr)
                return 1
    print(f"{len(deals)} full random deals (seed {args.seed}), {server.state.pool.threads} pool threads; "
          f"other processes kept {others_text(load.others)} cores busy")  # fmt: skip
    print(f"{'request':<12} {'median s':>9} {'worst s':>9}")
    for name, values in times.items():
        print(f"{name:<12} {statistics.median(values):>9.3f} {max(values):>9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
