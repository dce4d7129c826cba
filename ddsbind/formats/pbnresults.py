r"""Double-dummy results and par added to a PBN file's games, every other byte kept.

:func:`ddsbind.formats.pbn.add_results` and
:func:`~ddsbind.formats.pbn.iter_add_results` read the file's games (boards,
:mod:`ddsbind.formats.pbn`) and set their tags here: the results a game
already gives (:func:`existing_table`, from the tags' codecs in
:mod:`ddsbind.formats.pbntables`), the solver's answer compared with them,
and par as Bridge Composer writes it (:func:`format_par`).  The layouts and
their sources are :mod:`ddsbind.formats.pbn`'s docstring; the dealer and
vulnerability a par is computed for follow every reader's rule for a tag
the file does not say (:func:`ddsbind.formats._common.unsaid`).
:mod:`ddsbind.formats.pbn` re-exports the public names.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from ddsbind.deal import SEAT_LETTERS, Deal, Strain
from ddsbind.errors import DDSError, FormatError, ResultsWarning
from ddsbind.formats import _common, _dtypes
from ddsbind.formats._common import disagreements
from ddsbind.formats.pbntables import (
    format_double_dummy_tricks,
    format_optimum,
    optimum_header,
    par_agrees,
    parse_ability,
    parse_double_dummy_tricks,
    parse_optimum,
)
from ddsbind.formats.pbntext import GameText, TagUpdate, edit_lines, path_of
from ddsbind.game import Vulnerability
from ddsbind.scoring import PASSED_OUT, DealerParContract

__all__ = ["Fill", "ParFunc", "existing_table", "format_par", "solve_games"]


class Dealt(Protocol):
    """A game's deal and the results its tags give (a :class:`ddsbind.formats.pbn.PBNBoard`)."""

    deal: Deal
    table: NDArray[np.uint8] | None


#: ``fill(owners, tables) -> tables``: unknown entries (15) of DDS-order tables solved.
Fill = Callable[[NDArray[np.int8], NDArray[np.uint8] | None], NDArray[np.uint8]]
#: ``par(tables, dealers, vulnerabilities) -> [(ns_score, contracts), ...]``: DDS's ``DealerPar`` for each
#: complete table (dealer a DDS seat, vulnerability a :class:`~ddsbind.game.Vulnerability`), its score from
#: North-South's view and its contracts as DDS writes them (``"4S*-EW-1"``, ``"3N-N+1"``).
ParFunc = Callable[[NDArray[np.uint8], Sequence[int], Sequence[Vulnerability]], Sequence[tuple[int, Sequence[str]]]]


def format_par(ns_score: int, contracts: Sequence[str]) -> tuple[str, str]:
    """``(OptimumScore, ParContract)`` values from DDS's ``DealerPar`` answer, as Bridge Composer writes them.

    Conventions and where each comes from (Bridge Composer 5.118's own
    double-dummy analysis of eight boards, saved by it in a public
    repository's test fixture, ``pbn-order-test-bc-dd.pbn``, and that
    repository's notes on it; PBN 2.1 section 3.9 where they are silent):

    * ``OptimumScore`` names the side that declares par and gives the score
      from **that side's** view: ``"EW -100"`` for East-West's sacrifice
      ``2SX-1``, ``"EW 130"`` for their ``1D+3``, ``"NS 400"`` (Bridge
      Composer).  Nobody makes anything (DDS gives no contract): ``"NS 0"``
      (PBN 2.1's form, side and score; Bridge Composer's choice not seen).
    * ``ParContract``: the declaring side, or the single seat when only one
      partner takes the tricks (``"N 3N="``, ``"E 2S="``; the seats are
      DDS's, :class:`ddsbind.scoring.DealerParContract`), then level,
      strain with ``N`` for notrump, ``X`` for a doubled sacrifice, and the
      result: ``=`` made exactly, ``+n`` overtricks, ``-n`` down (Bridge
      Composer).  Every tie is listed, joined by ``"; "``, lowest bid first:
      ``"EW 2SX-1; EW 3CX-1"``, ``"NS 4H=; NS 4S="`` (Bridge Composer).
      ``"Pass"`` when nobody makes anything (our choice, PBN 2.1's word).

    DDS's text is read by :meth:`ddsbind.scoring.DealerParContract.parse`
    (``ContractError`` otherwise).

    Examples
    --------
    >>> format_par(-300, ["5H*-NS-2"])
    ('NS -300', 'NS 5HX-2')
    >>> format_par(630, ["3N-N+1"])
    ('NS 630', 'N 3N+1')
    >>> format_par(-420, ["4S-EW", "4H-EW"])
    ('EW 420', 'EW 4H=; EW 4S=')
    """
    pars = sorted(
        (DealerParContract.parse(c) for c in contracts),
        key=lambda p: p.contract.call,  # the bidding order (Call's rank): the order Bridge Composer lists ties in
    )
    if not pars:
        return "NS 0", str(PASSED_OUT)
    side = str(pars[0].declarers[0].side)
    out = []
    for p in pars:
        c = p.contract
        strain = "N" if c.strain == Strain.NT else Strain(c.strain).symbol
        result = f"{p.result:+d}" if p.result else "="
        out.append(f"{p.seats} {c.level}{strain}{'X' * c.doubled}{result}")
    return f"{side} {ns_score if side == 'NS' else -ns_score}", "; ".join(out)


def existing_table(values: Mapping[str, str], sections: Mapping[str, list[str]]) -> NDArray[np.uint8] | None:
    """The results a game's tags give (Bridge Composer's two, Deep Finesse's ``Ability``); None without any.

    Where several are given, each known entry must agree (``FormatError``
    naming the two tags); the table holds every entry any of them knows.
    """
    table: NDArray[np.uint8] | None = None
    first = ""
    readers: list[tuple[str, Callable[[], NDArray[np.uint8]]]] = [
        ("DoubleDummyTricks", lambda: parse_double_dummy_tricks(values["DoubleDummyTricks"])),
        (
            "OptimumResultTable",
            lambda: parse_optimum(values["OptimumResultTable"], sections.get("OptimumResultTable", [])),
        ),
        ("Ability", lambda: parse_ability(values["Ability"])),
    ]
    for tag, read in readers:
        if tag not in values or (tag != "OptimumResultTable" and not values[tag].strip()):
            continue
        got = read()
        if table is None:
            table, first = got, tag
            continue
        both = (table <= 13) & (got <= 13)
        if not np.array_equal(table[both], got[both]):
            raise FormatError(f"{first} and {tag} disagree")
        table = np.where(table <= 13, table, got).astype(np.uint8)
    return table


def solve_games(
    lines: list[str],
    base: int,
    batch: Sequence[tuple[GameText, dict[str, str], Dealt]],
    name: str,
    fill: Fill,
    par: ParFunc | None,
) -> None:
    """Results (and par) of the games of ``batch`` solved by ``fill`` and set in ``lines`` (line ``base`` first)."""
    if not batch:
        return
    unknown = [item for item in batch if not item[2].deal.is_full]
    for game, values, _ in unknown:  # refused for that board only: the rest of the file is solved
        why = "hands unknown or short, not solved (the deal is kept)"
        line = game.spans["Deal"][0] + 1
        _common.set_aside(values.get("Board"), "Deal", values["Deal"], why, source=path_of(name), line=line)
    batch = [item for item in batch if item[2].deal.is_full]
    if not batch:
        return
    owners = np.stack([board.deal.owners() for _, _, board in batch])
    known = [np.full((5, 4), _dtypes.UNKNOWN, np.uint8) if b.table is None else b.table for _, _, b in batch]
    tables = np.asarray(fill(owners, np.stack(known).astype(np.uint8)), dtype=np.uint8).reshape(-1, 5, 4)
    for (game, values, _), given, table in zip(batch, known, tables, strict=True):
        wrong = disagreements(given, table)
        if wrong:
            where = f"{name}: line {game.spans['Deal'][0] + 1} (Board {values.get('Board', '?')})"
            warnings.warn(
                ResultsWarning(f"{where}: its results contradict the deal, DDS's written instead: {'; '.join(wrong)}"),
                stacklevel=4,
            )
    pars: Sequence[tuple[int, Sequence[str]]] = []
    if par is not None:
        dealers, vuls = zip(*(par_seats(values) for _, values, _ in batch), strict=True)
        pars = par(tables, list(dealers), list(vuls))
    updates: list[dict[str, TagUpdate]] = []
    for k, ((_, values, board), table) in enumerate(zip(batch, tables, strict=True)):
        old = board.table  # None when the game has no result tag, or one set aside (unreadable): replaced here
        update: dict[str, TagUpdate] = {}
        complete = bool(np.all(table <= 13))
        if complete and (old is None or not np.array_equal(old, table) or "DoubleDummyTricks" not in values):
            update["DoubleDummyTricks"] = (format_double_dummy_tricks(table), [])
        if pars:
            score, contract = format_par(*pars[k])
            for tag, value in (("OptimumScore", score), ("ParContract", contract)):
                if not par_agrees(tag, values.get(tag), value):  # right in the file's spelling: left as it is
                    update[tag] = (value, [])
                    _name_wrong_par(name, values, tag, value)
        if old is None or not np.array_equal(old, table) or "OptimumResultTable" not in values:
            # last: Bridge Composer writes the table after the one-line tags
            update["OptimumResultTable"] = (optimum_header(table), format_optimum(table))
        updates.append(update)
    games = [game for game, _, _ in batch]
    edit_lines(lines, games, updates, before_play=("DoubleDummyTricks", "OptimumScore", "ParContract"), base=base)


def _name_wrong_par(name: str, values: Mapping[str, str], tag: str, value: str) -> None:
    if tag in values:
        board = values.get("Board", "?")
        why = f"[{tag} {values[tag]!r}] is not the par of its double-dummy table, {value!r} written instead"
        warnings.warn(ResultsWarning(f"{name}: Board {board}: {why}"), stacklevel=5)


def par_seats(values: dict[str, str]) -> tuple[int, Vulnerability]:
    """The dealer (a DDS seat) and vulnerability a game's par is computed for: its tags, else the one rule."""
    board = values.get("Board", "").strip()
    number = int(board) if board.isdigit() and int(board) > 0 else None
    unsaid_dealer, vul = _common.unsaid(number)
    letter = values.get("Dealer", "").strip().upper()
    if len(letter) == 1 and letter in SEAT_LETTERS:
        dealer = SEAT_LETTERS.index(letter)
    else:
        dealer = int(unsaid_dealer) if unsaid_dealer is not None else 0  # DealerPar needs a dealer: North
    said = values.get("Vulnerable", "").strip()
    with contextlib.suppress(DDSError):
        vul = Vulnerability.parse(said) if said else vul
    return dealer, vul
