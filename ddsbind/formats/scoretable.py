"""PBN's ``ScoreTable``: a hand record's table of results, read into one :class:`~ddsbind.record.GameRecord` a row.

No DDS calls here.

Layout (PBN 2.1 section 5.3, as Bridge Composer, BridgeWebs and club scorers write it)
--------------------------------------------------------------------------------------
* The tag's value names the columns, ``;`` between them, each
  ``Name\\widthAlign`` (``PairId_NS\\2R``: name, then an optional width and
  ``L``/``R``); the width and alignment only lay the rows out.
* Each following line (the tag's section) is one result: values in column
  order, separated by spaces; a value with spaces is quoted (``"Ann - Bob"``);
  ``-`` is an empty value.
* Columns read: ``Section``, ``Table``, ``Round``, ``PairId_NS``,
  ``PairId_EW``, ``Contract`` (``4SX``, ``Pass``), ``Declarer`` (``N`` ..),
  ``Result`` (declarer's tricks; or ``=``, ``+1``, ``-2`` against the
  contract, as some scorers write it), ``Score_NS`` / ``Score_EW`` (used when the
  contract or tricks are not given), ``Names_NS`` / ``Names_EW``, ``Lead``.
  Others (``MP_NS``, ``Percentage_NS``, ...: the scorer's own sums) are not
  needed: the report works them out again.

Each row becomes a record of the hand record's deal, board, dealer and
vulnerability, with its contract, declarer and result, and the tags
``Section``, ``Table``, ``Round``, ``PairId_NS``, ``PairId_EW``,
``Names_NS``, ``Names_EW`` and ``Score_NS`` (North-South's, when only the score
is given) as the row gives them.  A row that cannot be read is left out of
the results and named once in a :class:`~ddsbind.errors.FieldWarning` (the
board, the row from 1 and why), the one rule of every reader; under strict
reading (:func:`ddsbind.formats.reading`) it raises
:class:`~ddsbind.errors.FormatError` instead.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ddsbind.deal import Seat
from ddsbind.errors import FormatError
from ddsbind.formats._common import set_aside
from ddsbind.record import PASSED_OUT, GameRecord, read_contract
from ddsbind.scoring import Contract

__all__ = ["has_score_table", "score_table_games"]

_VALUE = re.compile(r'"((?:[^"\\]|\\.)*)"|(\S+)')
_KEPT = ("Section", "Table", "Round", "PairId_NS", "PairId_EW", "Names_NS", "Names_EW")


def has_score_table(game: GameRecord) -> bool:
    """Whether the record holds a ``ScoreTable`` with at least one row."""
    return bool(game.tags.get("ScoreTable") and game.sections.get("ScoreTable"))


def _columns(spec: str) -> list[str]:
    return [c.split("\\", 1)[0].strip() for c in spec.split(";")]


def score_table_games(game: GameRecord) -> list[GameRecord]:
    """The results of a hand record's ``ScoreTable``, one game record a row (layout: the module docstring).

    Returns an empty list when the record has no table.  A row with more
    values than columns, or a contract, declarer or result that cannot be
    read, is left out and named in a warning (the board, the row counted
    from 1, why); strict reading raises :class:`FormatError` instead.
    """
    if not has_score_table(game):
        return []
    columns = _columns(game.tags["ScoreTable"])
    out = []
    for n, line in enumerate(game.sections["ScoreTable"], start=1):
        values = [m.group(1) if m.group(1) is not None else m.group(2) for m in _VALUE.finditer(line)]
        if not values:
            continue
        if len(values) > len(columns):
            why = f"row {n} has {len(values)} values for {len(columns)} columns; the row is left out"
            set_aside(game.board, "ScoreTable", line.strip(), why)
            continue
        row = {c: v for c, v in zip(columns, values, strict=False) if v != "-"}
        try:
            out.append(_record(game, row))
        except ValueError as exc:  # ContractError, FormatError, or a number int() cannot read
            set_aside(game.board, "ScoreTable", line.strip(), f"row {n}: {exc}; the row is left out")
    return out


def _record(game: GameRecord, row: dict[str, str]) -> GameRecord:
    tags = {k: v for k, v in game.tags.items() if k not in ("ScoreTable", "Contract", "Declarer", "Result")}
    tags.update({k: row[k] for k in _KEPT if k in row})
    contract = read_contract(row["Contract"]) if "Contract" in row else None
    passed = contract is PASSED_OUT
    declarer = Seat.parse(row["Declarer"]) if "Declarer" in row and not passed else None
    result = None
    if "Result" in row and not passed:
        text = row["Result"].strip()
        if text[:1] in ("=", "+", "-") and isinstance(contract, Contract):  # made, overtricks, down
            result = contract.level + 6 + (0 if text == "=" else int(text))
        elif text.isascii() and text.isdigit():
            result = int(text)
        else:
            raise FormatError(f"result {text!r} is not a number of tricks (or =, +1, -2 against the contract)")
        if not 0 <= result <= 13:
            raise FormatError(f"result {text!r} is not 0..13 tricks")
    if isinstance(contract, Contract) and (declarer is None or result is None):
        for side, sign in (("Score_NS", 1), ("Score_EW", -1)):
            if side in row:
                tags["Score_NS"] = str(sign * int(row[side]))
                break
    return replace(
        game,
        tags=tags,
        sections={k: v for k, v in game.sections.items() if k != "ScoreTable"},
        contract=contract,
        declarer=declarer,
        result=result,
        auction=[],
        auction_marks=[],
        play=[],
        play_marks=[],
        source=None,
    )
