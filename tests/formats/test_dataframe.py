"""read_dataframe: records as pandas DataFrames, equal to dd_table, chunked in flat memory, pandas optional."""

from __future__ import annotations

import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import ddsbind  # noqa: E402
from ddsbind.database import generate  # noqa: E402
from ddsbind.deal import Deal  # noqa: E402
from ddsbind.errors import FormatError  # noqa: E402
from ddsbind.formats import encode_zbd, read_dataframe, write_games  # noqa: E402
from ddsbind.formats.dataframe import TABLE_COLUMNS, MissingExtraError, deal_strings  # noqa: E402
from ddsbind.formats.lin import parse_lin  # noqa: E402
from tests.support import REPO  # noqa: E402

SUITED = "SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432"


def _random_owners(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.permuted(np.tile(np.repeat(np.arange(4, dtype=np.int8), 13), (n, 1)), axis=1)


def test_generated_database_equals_dd_table(tmp_path):
    """Without this, a DataFrame column could hold another strain's or declarer's tricks than DDS gives."""
    path = tmp_path / "db.zrd"
    generate(path, 12, 20260)
    df = read_dataframe(path)
    assert list(df.columns) == ["deal", *TABLE_COLUMNS] and len(df) == 12
    assert TABLE_COLUMNS[:5] == ("S_N", "S_E", "S_S", "S_W", "H_N") and TABLE_COLUMNS[-1] == "NT_W"
    for row in df.itertuples(index=False):
        assert row.deal.startswith("N:")
        table = ddsbind.dd_table(row.deal)
        got = np.array([getattr(row, c) for c in TABLE_COLUMNS]).reshape(5, 4)
        assert np.array_equal(got, np.asarray(table))
    chunks = list(read_dataframe(path, chunksize=5))
    assert [len(c) for c in chunks] == [5, 5, 2]
    assert pd.concat(chunks, ignore_index=True).equals(df)


def test_deal_strings_are_deal_to_pbn():
    """Without this, the vectorised deal column could differ from Deal.to_pbn (hands or ranks misplaced)."""
    owners = _random_owners(200, 3)
    assert list(deal_strings(owners)) == [Deal.from_owners(o).to_pbn() for o in owners]
    with pytest.raises(FormatError, match="record 2: not a full deal"):
        deal_strings(np.stack([owners[0], np.zeros(52, np.int8)]))


def _peak(path, chunksize: int) -> int:
    tracemalloc.start()
    try:
        rows = 0
        for frame in read_dataframe(path, chunksize=chunksize):
            rows += len(frame)
            del frame
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_chunked_reading_keeps_memory_flat(tmp_path):
    """Without this, reading a database larger than memory chunk by chunk would still grow with the file."""
    small, big = tmp_path / "small.zbd", tmp_path / "big.zbd"
    encode_zbd(_random_owners(10_000, 1)).tofile(small)
    owners = _random_owners(80_000, 2)
    encode_zbd(owners).tofile(big)
    del owners
    peak_small, peak_big = _peak(small, 10_000), _peak(big, 10_000)
    assert peak_big < 1.5 * peak_small + (1 << 20), (peak_small, peak_big)
    tracemalloc.start()
    try:
        whole = read_dataframe(big)
        peak_whole = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(whole) == 80_000 and peak_whole > 3 * peak_big  # the measure does see memory that grows


def test_game_records_add_contract_and_dd_tricks(tmp_path):
    """Without this, a LIN or PBN game file would lose its contract, result or DD tricks in the DataFrame."""
    text = (
        "md|1" + SUITED + "|ah|Board 3|sv|e|mb|p|mb|p|mb|p|mb|p|\n"
        "md|3" + SUITED + "|ah|Board 4|sv|b|mb|p|mb|1H|mb|p|mb|p|mb|p|pc|SA|mc|7|\n"
    )
    games = parse_lin(text)
    write_games(tmp_path / "g.lin", games)
    for source in (tmp_path / "g.lin", games):
        df = ddsbind.read_dataframe(source)
        assert list(df["board"]) == [3, 4] and list(df["dealer"]) == ["S", "N"]
        assert list(df["vulnerability"]) == ["EW", "All"]
        assert list(df["contract"]) == ["Pass", "1H"] and df["declarer"].iloc[1] == "E"
        assert pd.isna(df["result"].iloc[0]) and df["result"].iloc[1] == 7
        table = ddsbind.dd_table(games[1].deal)
        assert pd.isna(df["dd_tricks"].iloc[0]) and df["dd_tricks"].iloc[1] == table["H", "E"]
        assert df["H_E"].iloc[1] == table["H", "E"]
    assert "dd_tricks" not in read_dataframe(games, solve=False).columns
    assert "dd_tricks" not in ddsbind.read_dataframe(games, solve=False).columns


def test_formats_reader_solves_only_with_the_solver_passed_in():
    """Without this, ddsbind.formats would have to import DDS's solver to give game records their DD columns."""
    games = parse_lin("md|3" + SUITED + "|ah|Board 4|sv|b|mb|p|mb|1H|mb|p|mb|p|mb|p|pc|SA|mc|7|\n")
    asked = []

    def solver(deals):
        asked.append(list(deals))
        return ddsbind.dd_tables(deals)

    assert "dd_tricks" not in read_dataframe(games).columns and not asked
    df = read_dataframe(games, solve=solver)
    assert asked == [[games[0].deal]] and df["dd_tricks"].iloc[0] == ddsbind.dd_table(games[0].deal)["H", "E"]
    with pytest.raises(FormatError, match=r"needs a solver here: pass solve=ddsbind.dd_tables"):
        read_dataframe(games, solve=True)


def test_empty_sources_give_the_columns():
    """Without this, an empty file would give a frame without its columns (and break code that selects them)."""
    assert list(read_dataframe([], solve=False).columns)[:3] == ["deal", "board", "dealer"]


def test_pandas_missing_names_the_extra(monkeypatch):
    """Without this, a user without pandas would get a bare ImportError, not the extra to install."""
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match=r"ddsbind\[pandas\]") as info:
        read_dataframe([])
    assert isinstance(info.value, ImportError)


def test_importing_formats_does_not_import_pandas():
    """Without this, every user of ddsbind.formats would pay pandas' import time (or need it installed)."""
    code = "import sys, ddsbind.formats; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


GAME_COLUMNS = ["board", "dealer", "vulnerability", "north", "east", "south", "west"]
GAME_COLUMNS += ["contract", "declarer", "result", "score", "auction", "play"]


@pytest.mark.parametrize("name", ["club.pbn", "session.lin"])
def test_game_files_fill_every_column_and_solve_as_dd_table(name):
    """Without this, a hand-record or match file's frame would lack its boards' facts, or disagree with dd_table."""
    from ddsbind.formats import read_games
    from ddsbind.frames import read_dataframe as solved_frame

    path = REPO / "examples" / "data" / name
    games = read_games(path)
    df = solved_frame(path)
    assert len(df) == len(games) and not df[[*GAME_COLUMNS, "par", "par_contracts"]].isna().any().any()
    for k, g in enumerate(games):
        table = ddsbind.dd_table(g.deal)
        assert [df[c].iloc[k] for c in TABLE_COLUMNS] == np.asarray(table).ravel().tolist()
        assert df["par"].iloc[k] == ddsbind.dealer_par(table, g.dealer, g.vulnerable).score
        assert df["auction"].iloc[k].split() == [str(c) for c in g.auction]
        assert df["play"].iloc[k].split() == [str(c) for c in g.play]
    unsolved = solved_frame(path, solve=False)
    assert "par" not in unsolved.columns and "S_N" not in unsolved.columns


def test_club_file_worked_by_hand():
    """Without this, a row could carry another seat's player, the other side's score or a room not in the file."""
    df = ddsbind.read_dataframe(REPO / "examples" / "data" / "club.pbn", solve=False)
    first = df.iloc[0]
    assert (first["board"], first["dealer"], first["vulnerability"]) == (1, "N", "None")
    players = ("Lindqvist", "Baptiste", "Moreau", "Okafor")
    assert (first["north"], first["east"], first["south"], first["west"]) == players
    # 5D by East (not vulnerable) making 12: 5 x 20 + 300 (game) + 20 (overtrick) = 420 to East-West.
    assert (first["contract"], first["declarer"], first["result"], first["score"]) == ("5D", "E", 12, -420)
    assert first["auction"].startswith("Pass 1D 1H 1S 2H 3C") and first["play"].startswith("H4 H6 HK H2")
    assert df["room"].isna().all()


def test_team_match_rows_name_their_rooms():
    """Without this, a team match's two rows of a board could not be told apart (which room, which players)."""
    df = ddsbind.read_dataframe(REPO / "examples" / "data" / "session.lin", solve=False)
    assert list(df["room"][:2]) == ["Open", "Closed"] and list(df["board"][:2]) == [1, 1]
    assert df["north"].iloc[0] != df["north"].iloc[1]
