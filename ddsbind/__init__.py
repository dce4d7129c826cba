"""ddsbind: fast, faithful Python access to DDS, the double-dummy bridge solver.

Conventions (DDS's): seats 0=N 1=E 2=S 3=W; strains 0=S 1=H 2=D 3=C 4=NT;
ranks 2..14; ``remainCards[hand][suit]`` bit ``r`` set for rank ``r``;
vulnerability 0 none, 1 both, 2 NS, 3 EW (:class:`Vulnerability`).

The rules of play (legal cards, trick winners, playing a sequence out)
are :mod:`ddsbind.game`'s, and need no DDS.  Every error raised on purpose
is a :class:`Error`.
"""

from typing import TYPE_CHECKING, Any

# The one table of the package's public names, by the module each comes from: ``__all__`` and the lazy
# imports (PEP 562) are made from it.  ``import ddsbind.formats`` and the deal/error classes work without
# loading DDS, and ``ddsbind dealer`` loads neither the solver nor the results classes it never uses.  The
# ``TYPE_CHECKING`` imports below say the same to type checkers (explicit re-exports) and a test holds the
# two equal; the docs read the table through docs/_ext/griffe_rst.py.
_PUBLIC: dict[str, tuple[str, ...]] = {
    "ddsbind._binding": ("DDSInfo", "dds_info"),
    "ddsbind.deal": ("Card", "Deal", "Seat", "Side", "Strain", "Vulnerability"),
    "ddsbind.dealer.single_dummy": ("SingleDummy", "single_dummy"),
    "ddsbind.errors": (
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
    ),
    "ddsbind.frames": ("read_dataframe",),
    "ddsbind.game": ("CardPlay",),
    "ddsbind.hand": ("Hand",),
    "ddsbind.match": ("analyse",),
    "ddsbind.play": ("best_line", "costly_cards"),
    "ddsbind.pool": ("SolverPool",),
    "ddsbind.proof": ("ProofTree", "prove"),
    "ddsbind.results": ("DDTable", "ScoredCard", "Solutions"),
    "ddsbind.scoring": ("Call", "Contract", "PayoffTable", "imps", "matchpoints", "payoff"),
    # Solving a board, its table(s) and par, a play analysed: in that order.
    "ddsbind.solver": (
        "solve_board",
        "dd_table",
        "dd_tables",
        "dd_tables_array",
        "tricks",
        "makes",
        "dd_score",
        "par",
        "Par",
        "dealer_par",
        "DealerPar",
        "analyse_play",
    ),
}
#: Each public name's module, from :data:`_PUBLIC`.
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = sorted(_LAZY)

if TYPE_CHECKING:
    __version__: str
    from ddsbind._binding import DDSInfo as DDSInfo
    from ddsbind._binding import dds_info as dds_info
    from ddsbind.deal import Card as Card
    from ddsbind.deal import Deal as Deal
    from ddsbind.deal import Seat as Seat
    from ddsbind.deal import Side as Side
    from ddsbind.deal import Strain as Strain
    from ddsbind.deal import Vulnerability as Vulnerability
    from ddsbind.dealer.single_dummy import SingleDummy as SingleDummy
    from ddsbind.dealer.single_dummy import single_dummy as single_dummy
    from ddsbind.errors import ContractError as ContractError
    from ddsbind.errors import DatabaseError as DatabaseError
    from ddsbind.errors import DDSError as DDSError
    from ddsbind.errors import DealerError as DealerError
    from ddsbind.errors import DroppedDataWarning as DroppedDataWarning
    from ddsbind.errors import Error as Error
    from ddsbind.errors import FieldWarning as FieldWarning
    from ddsbind.errors import FormatError as FormatError
    from ddsbind.errors import MissingExtraError as MissingExtraError
    from ddsbind.errors import ProofError as ProofError
    from ddsbind.errors import ProofTooLargeError as ProofTooLargeError
    from ddsbind.errors import ResultsWarning as ResultsWarning
    from ddsbind.errors import StateError as StateError
    from ddsbind.errors import ThreadsWarning as ThreadsWarning
    from ddsbind.errors import TruncatedPlayWarning as TruncatedPlayWarning
    from ddsbind.frames import read_dataframe as read_dataframe
    from ddsbind.game import CardPlay as CardPlay
    from ddsbind.hand import Hand as Hand
    from ddsbind.match import analyse as analyse
    from ddsbind.play import best_line as best_line
    from ddsbind.play import costly_cards as costly_cards
    from ddsbind.pool import SolverPool as SolverPool
    from ddsbind.proof import ProofTree as ProofTree
    from ddsbind.proof import prove as prove
    from ddsbind.results import DDTable as DDTable
    from ddsbind.results import ScoredCard as ScoredCard
    from ddsbind.results import Solutions as Solutions
    from ddsbind.scoring import Call as Call
    from ddsbind.scoring import Contract as Contract
    from ddsbind.scoring import PayoffTable as PayoffTable
    from ddsbind.scoring import imps as imps
    from ddsbind.scoring import matchpoints as matchpoints
    from ddsbind.scoring import payoff as payoff
    from ddsbind.solver import DealerPar as DealerPar
    from ddsbind.solver import Par as Par
    from ddsbind.solver import analyse_play as analyse_play
    from ddsbind.solver import dd_score as dd_score
    from ddsbind.solver import dd_table as dd_table
    from ddsbind.solver import dd_tables as dd_tables
    from ddsbind.solver import dd_tables_array as dd_tables_array
    from ddsbind.solver import dealer_par as dealer_par
    from ddsbind.solver import makes as makes
    from ddsbind.solver import par as par
    from ddsbind.solver import solve_board as solve_board
    from ddsbind.solver import tricks as tricks

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
    if name not in _LAZY:
        raise AttributeError(f"module 'ddsbind' has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
