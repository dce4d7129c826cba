"""ddsbind: fast, faithful Python access to DDS, the double-dummy bridge solver.

Conventions (DDS's): seats 0=N 1=E 2=S 3=W; strains 0=S 1=H 2=D 3=C 4=NT;
ranks 2..14; ``remainCards[hand][suit]`` bit ``r`` set for rank ``r``.
"""

from ddsbind._binding import DDSInfo, dds_info
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, FormatError
from ddsbind.pool import SolverPool
from ddsbind.solver import (
    DDTable,
    DealerPar,
    Par,
    ScoredCard,
    Solutions,
    analyse_play,
    dd_table,
    dd_tables,
    dd_tables_array,
    dealer_par,
    par,
    solve_board,
)

__all__ = [
    "Card",
    "DDSError",
    "DDSInfo",
    "DDTable",
    "Deal",
    "DealerPar",
    "FormatError",
    "Par",
    "ScoredCard",
    "Seat",
    "Solutions",
    "SolverPool",
    "Strain",
    "analyse_play",
    "dd_table",
    "dd_tables",
    "dd_tables_array",
    "dds_info",
    "dealer_par",
    "par",
    "solve_board",
]
__version__ = "0.1.0"
