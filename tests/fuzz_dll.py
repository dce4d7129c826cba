"""Random sequences of DLL-layer calls with random, mostly invalid, arguments (run by test_fuzz.py).

Run as ``python tests/fuzz_dll.py --steps N --seed S``: it must end with
status 0 and print one summary line.  Each step calls one ``ddsbind.dll``
function with arguments drawn from: the right struct (zeroed, random bytes,
or a small plausible position), the wrong struct, arrays of 0 or 2 structs,
NULL pointers, Python junk, and ints from tiny to beyond a C int.  Only
``DDSError`` subclasses may escape a call (ArgumentError for wrong types);
anything else -- or the process dying -- is a failure.
"""

from __future__ import annotations

import argparse
import collections
import sys

import numpy as np

from ddsbind import Deal, dll, errors

STRUCTS = [n for n in dll.__all__ if n[0].islower() and n not in ("ffi", "last_error", "max_tables", "raising")]
INTS = [0, 1, 2, 3, 4, -1, -2, 5, 13, 14, 100, 2**31 - 1, -(2**31), 2**31, 2**40]


class Fuzzer:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choice(self, seq):  # type: ignore[no-untyped-def]
        return seq[int(self.rng.integers(len(seq)))]

    def integer(self) -> int:
        return int(self.rng.integers(-5, 20)) if self.rng.random() < 0.6 else self.choice(INTS)

    def ending(self) -> list[list[int]]:
        """A small legal position: k cards a hand (k = 1..3), from a random deal."""
        k = int(self.rng.integers(1, 4))
        owners = np.repeat(np.arange(4), 13)
        self.rng.shuffle(owners)
        for seat in range(4):
            drop = np.flatnonzero(owners == seat)[k:]
            owners[drop] = -1
        return Deal.from_owners(owners).remain_cards.tolist()

    def fill(self, obj, name: str) -> None:  # type: ignore[no-untyped-def]
        """Zeroed, random bytes, or plausible fields."""
        r = self.rng.random()
        if r < 0.35:
            buf = dll.ffi.buffer(dll.ffi.addressof(obj))
            buf[:] = self.rng.bytes(len(buf))
        elif r < 0.8:
            self.plausible(obj, name)

    def plausible(self, obj, name: str) -> None:  # type: ignore[no-untyped-def]
        if name == "deal":
            obj.trump, obj.first = int(self.rng.integers(0, 5)), int(self.rng.integers(0, 4))
            obj.remainCards = self.ending()
        elif name == "dealPBN":
            obj.trump, obj.first = int(self.rng.integers(0, 5)), int(self.rng.integers(0, 4))
            obj.remainCards = Deal(self.ending()).to_pbn().encode()
        elif name == "ddTableDeal":
            obj.cards = Deal.random(self.rng).remain_cards.tolist() if self.rng.random() < 0.2 else self.ending()
        elif name in ("boards", "boardsPBN"):
            n = int(self.rng.integers(0, 4))
            obj.noOfBoards = n
            for i in range(n):
                self.plausible(obj.deals[i], "deal" if name == "boards" else "dealPBN")
                obj.target[i], obj.solutions[i], obj.mode[i] = -1, int(self.rng.integers(1, 4)), 1
        elif name == "ddTableDeals":
            obj.noOfTables = int(self.rng.integers(0, 3))
            for i in range(obj.noOfTables):
                self.plausible(obj.deals[i], "ddTableDeal")
        elif name == "ddTableResults":
            obj.resTable = self.rng.integers(0, 14, (5, 4)).tolist()
        elif name in ("playTraceBin", "playTracePBN"):
            n = int(self.rng.integers(0, 5))
            obj.number = n
            if name == "playTracePBN":
                obj.cards = b"".join(self.choice([b"SA", b"HK", b"D2", b"C9", b"XX"]) for _ in range(n))
            else:
                for i in range(n):
                    obj.suit[i], obj.rank[i] = int(self.rng.integers(0, 4)), int(self.rng.integers(2, 15))

    def struct(self, name: str):  # type: ignore[no-untyped-def]
        r = self.rng.random()
        if r < 0.88:
            obj = getattr(dll, name)()
            self.fill(obj[0], name)
            return obj
        if r < 0.91:
            return getattr(dll, self.choice(STRUCTS))()
        if r < 0.94:
            return getattr(dll, name)(count=int(self.rng.integers(0, 3)))
        if r < 0.96:
            return dll.ffi.cast(f"struct {name} *", 0)
        if r < 0.98:
            return getattr(dll, name)()[0]  # a struct lvalue
        return self.choice([None, 0, "N:AKQ", b"\x00", 3.5, [1, 2], dll.ffi.NULL])

    def chars(self):  # type: ignore[no-untyped-def]
        return dll.ffi.new(f"char[{self.choice([0, 1, 79, 80, 255, 256, 300])}]")

    def filt(self):  # type: ignore[no-untyped-def]
        return self.choice([[0] * 5, [1] * 5, [0, 1, 0, 1, 0], [0] * 4, None, "00000", [0.5] * 5,
                            dll.ffi.new("int[5]"), dll.ffi.new("int[2]")])  # fmt: skip

    def call(self) -> int:
        s, i = self.struct, self.integer
        calls = {
            "SolveBoard": lambda: dll.SolveBoard(s("deal"), i(), i(), i(), s("futureTricks"), i()),
            "SolveBoardPBN": lambda: dll.SolveBoardPBN(s("dealPBN"), i(), i(), i(), s("futureTricks"), i()),
            "CalcDDtable": lambda: dll.CalcDDtable(s("ddTableDeal"), s("ddTableResults")),
            "CalcDDtablePBN": lambda: dll.CalcDDtablePBN(s("ddTableDealPBN"), s("ddTableResults")),
            "CalcAllTables": lambda: dll.CalcAllTables(
                s("ddTableDeals"), i(), self.filt(), s("ddTablesRes"), s("allParResults")
            ),
            "CalcAllTablesPBN": lambda: dll.CalcAllTablesPBN(
                s("ddTableDealsPBN"), i(), self.filt(), s("ddTablesRes"), s("allParResults")
            ),
            "SolveAllBoards": lambda: dll.SolveAllBoards(s("boardsPBN"), s("solvedBoards")),
            "SolveAllBoardsBin": lambda: dll.SolveAllBoardsBin(s("boards"), s("solvedBoards")),
            "SolveAllChunksBin": lambda: dll.SolveAllChunksBin(s("boards"), s("solvedBoards"), i()),
            "SolveAllChunksPBN": lambda: dll.SolveAllChunksPBN(s("boardsPBN"), s("solvedBoards"), i()),
            "Par": lambda: dll.Par(s("ddTableResults"), s("parResults"), i()),
            "DealerPar": lambda: dll.DealerPar(s("ddTableResults"), s("parResultsDealer"), i(), i()),
            "DealerParBin": lambda: dll.DealerParBin(s("ddTableResults"), s("parResultsMaster"), i(), i()),
            "SidesPar": lambda: dll.SidesPar(s("ddTableResults"), dll.parResultsDealer(count=i() % 4), i()),
            "SidesParBin": lambda: dll.SidesParBin(s("ddTableResults"), dll.parResultsMaster(count=i() % 4), i()),
            "ConvertToDealerTextFormat": lambda: dll.ConvertToDealerTextFormat(s("parResultsMaster"), self.chars()),
            "ConvertToSidesTextFormat": lambda: dll.ConvertToSidesTextFormat(
                dll.parResultsMaster(count=i() % 4), s("parTextResults")
            ),
            "CalcPar": lambda: dll.CalcPar(s("ddTableDeal"), i(), s("ddTableResults"), s("parResults")),
            "CalcParPBN": lambda: dll.CalcParPBN(s("ddTableDealPBN"), s("ddTableResults"), i(), s("parResults")),
            "AnalysePlayBin": lambda: dll.AnalysePlayBin(s("deal"), s("playTraceBin"), s("solvedPlay"), i()),
            "AnalysePlayPBN": lambda: dll.AnalysePlayPBN(s("dealPBN"), s("playTracePBN"), s("solvedPlay"), i()),
            "AnalyseAllPlaysBin": lambda: dll.AnalyseAllPlaysBin(
                s("boards"), s("playTracesBin"), s("solvedPlays"), i()
            ),
            "AnalyseAllPlaysPBN": lambda: dll.AnalyseAllPlaysPBN(
                s("boardsPBN"), s("playTracesPBN"), s("solvedPlays"), i()
            ),
            "SetMaxThreads": lambda: dll.SetMaxThreads(i()),
            "SetResources": lambda: dll.SetResources(self.choice([0, 1, 10, 23, 24, 100, -1, 2**31 - 1]), i()),
            "FreeMemory": dll.FreeMemory,
            "GetDDSInfo": lambda: dll.GetDDSInfo(s("DDSInfo")),
            "ErrorMessage": lambda: dll.ErrorMessage(i(), self.chars()),
        }
        name = self.choice(list(calls))
        rc = calls[name]()
        if isinstance(rc, int) and rc != dll.RETURN_NO_FAULT:
            code, fn, _ = dll.last_error()
            assert (code, fn) == (rc, name), (name, rc, dll.last_error())
        return rc if isinstance(rc, int) else dll.RETURN_NO_FAULT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    fuzz = Fuzzer(args.seed)
    outcomes: collections.Counter[str] = collections.Counter()
    for _ in range(args.steps):
        try:
            rc = fuzz.call()
            outcomes["ok" if rc == dll.RETURN_NO_FAULT else f"rc{rc}"] += 1
        except errors.DDSError as exc:
            outcomes[type(exc).__name__] += 1
    print(f"steps {args.steps} " + " ".join(f"{k}={v}" for k, v in sorted(outcomes.items())))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
