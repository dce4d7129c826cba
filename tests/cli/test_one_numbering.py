"""One numbering of records, and errors as data (issue 47, item 12).

Oracle: counting by hand.  A ZRD record is 23 bytes, so byte offset 69 is
the first byte after three whole records: the fourth record, as a user
counts ("record 4"), whichever command meets it.  Before this, an error
said "record 3, byte offset 69" for the record a warning called "record 4",
and ``verify`` and ``--start`` counted from 0.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pytest

import ddsbind
from ddsbind.errors import DatabaseError, FormatError, PBNError, where
from ddsbind.formats import zrd
from ddsbind.hands import hcp
from tests.support import cli, one_error


@pytest.fixture(scope="module")
def torn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five ZRD records, the fourth's deal bytes (69..72) all 0xff: no deal."""
    deals = [ddsbind.Deal.random(i) for i in range(5)]
    owners = np.stack([d.owners() for d in deals])
    tables = np.stack([np.asarray(ddsbind.dd_table(d)) for d in deals]).astype(np.uint8)
    data = bytearray(zrd.encode_zrd(owners, tables))
    data[69:73] = b"\xff" * 4
    path = tmp_path_factory.mktemp("numbering") / "torn.zrd"
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("command", [["convert", "{f}", "{d}/out.pbn"], ["verify", "{f}"], ["stats", "{f}"]])
def test_every_command_names_the_fourth_record_record_4(torn: Path, command: list[str]) -> None:
    """Without this, one command says record 3 and another record 4 for the same bytes, and the user looks at
    the wrong deal."""
    args = [a.format(f=torn, d=torn.parent) for a in command]
    one_error(cli(*args), rf"{torn}: record 4, byte offset 69: ")


def test_an_error_carries_its_location_as_fields_rendered_once() -> None:
    """Without this, code that wants the record or the file of a fault must parse a message, and every caller
    rendering it writes its own (the regex rewriting the CLI had)."""
    exc = FormatError("deal is not 13 cards in each hand", index=3, offset=69)
    assert (exc.index, exc.record, exc.offset, exc.path) == (3, 4, 69, None)
    assert str(exc) == "record 4, byte offset 69: deal is not 13 cards in each hand"
    exc.locate(path="torn.zrd", record=99)  # the raiser's record is kept: the code nearest the fault knows best
    assert str(exc) == "torn.zrd: record 4, byte offset 69: deal is not 13 cards in each hand"
    back = pickle.loads(pickle.dumps(exc))
    assert (str(back), back.index, back.record) == (str(exc), 3, 4)
    games = DatabaseError("no deal", path="g.pbn", record=2, board=7, room="closed", line=40)
    assert str(games) == "g.pbn: record 2 (Board 7, closed room), line 40: no deal"
    assert where(board=7, line=3) == "Board 7, line 3" and where() == ""
    with pytest.raises(TypeError, match="'column' is not a location field"):
        exc.locate(column=3)


@pytest.mark.parametrize(
    "text, why",
    [
        ("AK32.KJ4.Q98", "hand 'AK32.KJ4.Q98' must have 4 suits separated by '.', found 3"),
        ("AKX.-.-.-", "hand 'AKX.-.-.-': 'X' in S 'AKX' is not a rank"),
        ("AKQJT98765432.2.-.-", "hand 'AKQJT98765432.2.-.-' holds 14 cards; at most 13"),
    ],
)
def test_a_hand_dds_never_sees_carries_no_dds_code(text: str, why: str) -> None:
    """Without this, a typo in one hand reads "PBN string error (DDS code -99)": a code DDS never gave, for an
    input DDS never takes.  The class stays, for `except PBNError`."""
    with pytest.raises(ddsbind.DDSError) as info:
        ddsbind.Hand(text)
    assert str(info.value) == why
    assert "DDS" not in str(info.value)


def test_a_deal_string_keeps_the_code_dds_gives_it() -> None:
    """Without this, the rule above would strip DDS's code from a PBN deal, which DDS's CalcDDtablePBN takes and
    answers -99 for: the oracle is DDS's own code for the same string."""
    with pytest.raises(PBNError, match=r"\(DDS code -99\): hand N 'AK32.KJ4.Q98' must have 4 suits"):
        ddsbind.Deal.from_pbn("N:AK32.KJ4.Q98 - - -")


def test_start_counts_records_as_messages_do(tmp_path: Path) -> None:
    """Without this, `--start 4` read from the fifth record: a user pasting "record 4" from a message into
    --start skipped the record the message named.  Oracle: the library's own record 4, read by hand."""
    deals = [ddsbind.Deal.random(i) for i in range(6)]
    owners = np.stack([d.owners() for d in deals])
    tables = np.stack([np.asarray(ddsbind.dd_table(d)) for d in deals]).astype(np.uint8)
    lib = tmp_path / "six.zrd"
    lib.write_bytes(zrd.encode_zrd(owners, tables))
    script = tmp_path / "s.dl"
    script.write_text("action average hcp(north)\n")
    res = cli("dealer", script, "-L", lib, "--start", "4", "--count", "1")
    assert res.exit_code == 0, res.output
    north = hcp(owners)[:, 0].tolist()  # North's points record by record, by the DDS-free evaluator
    assert north[3] not in (north[2], north[4])  # the seeds make an off-by-one visible
    assert f"{north[3]:.4g}" in res.stdout.split() and f"{north[4]:.4g}" not in res.stdout.split(), res.stdout


def test_table_names_the_files_board_of_a_deal_dds_refuses(tmp_path: Path) -> None:
    """Without this, `table games.pbn` named a short hand "deal 2" (the batch's count) and no file or board:
    the user had to count deals to find [Board "9"].  Oracle: the file's own second board, written here."""
    good = ddsbind.Deal.random(1).to_pbn()
    short = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.543"
    path = tmp_path / "games.pbn"
    path.write_text(f'[Board "3"]\n[Deal "{good}"]\n\n[Board "9"]\n[Deal "{short}"]\n')
    result = cli("table", path)
    one_error(result, rf"^ddsbind: error: {path}: record 2 \(Board 9\): CalcAllTables: .*W=12 cards")
    assert "deal 2" not in result.stderr
