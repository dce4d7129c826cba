"""ddsbind: fast, faithful Python access to DDS, the double-dummy bridge solver.

Conventions (DDS's): seats 0=N 1=E 2=S 3=W; strains 0=S 1=H 2=D 3=C 4=NT;
ranks 2..14; ``remainCards[hand][suit]`` bit ``r`` set for rank ``r``;
vulnerability 0 none, 1 both, 2 NS, 3 EW (:class:`Vulnerability`).

The rules of play (legal cards, trick winners, playing a sequence out)
are :mod:`ddsbind.game`'s, and need no DDS.  Every error raised on purpose
is a :class:`Error`.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    __version__: str
    from ddsbind._binding import DDSInfo, dds_info
    from ddsbind.deal import Card, Deal, Seat, Side, Strain, Vulnerability
    from ddsbind.dealer.single_dummy import SingleDummy, single_dummy
    from ddsbind.errors import (
        ContractError,
        DatabaseError,
        DDSError,
        DealerError,
        DroppedDataWarning,
        Error,
        FieldWarning,
        FormatError,
        MissingExtraError,
        ProofError,
        ProofTooLargeError,
        ResultsWarning,
        StateError,
        ThreadsWarning,
        TruncatedPlayWarning,
    )
    from ddsbind.frames import read_dataframe
    from ddsbind.game import CardPlay
    from ddsbind.hand import Hand
    from ddsbind.match import analyse
    from ddsbind.play import best_line, costly_cards
    from ddsbind.pool import SolverPool
    from ddsbind.proof import ProofTree, prove
    from ddsbind.results import DDTable, ScoredCard, Solutions
    from ddsbind.scoring import Call, Contract, PayoffTable, imps, matchpoints, payoff
    from ddsbind.solver import (
        DealerPar,
        Par,
        analyse_play,
        dd_score,
        dd_table,
        dd_tables,
        dd_tables_array,
        dealer_par,
        makes,
        par,
        solve_board,
        tricks,
    )

# Every name of ``__all__`` is imported on first use (PEP 562), from the module named here, else from
# ``ddsbind.solver``: ``import ddsbind.formats`` and the deal/error classes work without loading DDS, and
# ``ddsbind dealer`` loads neither the solver nor the results classes it never uses.
_LAZY = {
    **dict.fromkeys(["Card", "Deal", "Seat", "Side", "Strain", "Vulnerability"], "ddsbind.deal"),
    **dict.fromkeys(
        [
            "ContractError",
            "DatabaseError",
            "DDSError",
            "DealerError",
            "DroppedDataWarning",
            "Error",
            "FieldWarning",
            "FormatError",
            "MissingExtraError",
            "ProofError",
            "ProofTooLargeError",
            "ResultsWarning",
            "StateError",
            "ThreadsWarning",
            "TruncatedPlayWarning",
        ],
        "ddsbind.errors",
    ),
    "CardPlay": "ddsbind.game",
    "Hand": "ddsbind.hand",
    **dict.fromkeys(["DDTable", "ScoredCard", "Solutions"], "ddsbind.results"),
    **dict.fromkeys(["Call", "Contract", "PayoffTable", "imps", "matchpoints", "payoff"], "ddsbind.scoring"),
    "DDSInfo": "ddsbind._binding",
    "dds_info": "ddsbind._binding",
    "best_line": "ddsbind.play",
    "costly_cards": "ddsbind.play",
    "SolverPool": "ddsbind.pool",
    "ProofTree": "ddsbind.proof",
    "prove": "ddsbind.proof",
    "read_dataframe": "ddsbind.frames",
    "SingleDummy": "ddsbind.dealer.single_dummy",
    "single_dummy": "ddsbind.dealer.single_dummy",
    "analyse": "ddsbind.match",
}
#: The modules ``import ddsbind`` loaded before its names were lazy: ``ddsbind.deal.Deal`` after a bare
#: ``import ddsbind`` still works, each imported when first named.
_SUBMODULES = frozenset({"deal", "errors", "hand", "hands", "results", "scoring"})


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # pyproject.toml's version, read from the installed metadata on first use (importlib.metadata
        # costs a tenth of a small command's start); a checkout never installed has none to read.
        from importlib import metadata

        try:
            version = metadata.version("ddsbind")
        except metadata.PackageNotFoundError:
            version = "0+unknown"
        globals()["__version__"] = version
        return version
    import importlib

    if name in _SUBMODULES:
        return importlib.import_module(f"ddsbind.{name}")
    if name not in __all__:
        raise AttributeError(f"module 'ddsbind' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY.get(name, "ddsbind.solver")), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "Call",
    "Card",
    "CardPlay",
    "Contract",
    "ContractError",
    "DDSError",
    "DDSInfo",
    "DDTable",
    "DatabaseError",
    "Deal",
    "DealerError",
    "DealerPar",
    "DroppedDataWarning",
    "Error",
    "FieldWarning",
    "FormatError",
    "Hand",
    "MissingExtraError",
    "Par",
    "PayoffTable",
    "ProofError",
    "ProofTooLargeError",
    "ProofTree",
    "ResultsWarning",
    "ScoredCard",
    "Seat",
    "Side",
    "SingleDummy",
    "Solutions",
    "SolverPool",
    "StateError",
    "Strain",
    "ThreadsWarning",
    "TruncatedPlayWarning",
    "Vulnerability",
    "analyse",
    "analyse_play",
    "best_line",
    "costly_cards",
    "dd_score",
    "dd_table",
    "dd_tables",
    "dd_tables_array",
    "dds_info",
    "dealer_par",
    "imps",
    "makes",
    "matchpoints",
    "par",
    "payoff",
    "prove",
    "read_dataframe",
    "single_dummy",
    "solve_board",
    "tricks",
]
