"""The sample inputs in examples/data/ are what their README says they are, and read as their users' tools read them."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings

import pytest

from ddsbind import cribbage
from ddsbind.formats import read_games, write_games
from tests.support import REPO, python_m

DATA = REPO / "examples" / "data"
DEBIAN_DEALER = shutil.which("dealer") or "/usr/games/dealer"


def test_every_sample_is_described():
    """Each file in examples/data/ has its line in the README there, and each line names a file that exists."""
    readme = (DATA / "README.md").read_text()
    described = set(re.findall(r"^\| `([^`]+)`", readme, re.M))
    files = {p.name for p in DATA.iterdir() if p.name not in ("README.md", "sample.zrd.json")}
    assert described == files


def test_lin_session_agrees_with_its_own_results_line():
    """The vugraph session's boards give the contracts and results its rs| header line records, board by board."""
    text = (DATA / "session.lin").read_text()
    recorded = re.search(r"^rs\|([^|]*)\|", text, re.M)[1].split(",")
    games = read_games(DATA / "session.lin")
    assert len(games) == len(recorded) == 8
    for game, rs in zip(games, recorded, strict=True):
        strain = str(game.contract)[1:].replace("NT", "N")
        over = game.result - (game.level + 6)
        result = "=" if over == 0 else f"{over:+d}"
        assert f"{game.level}{strain}{game.declarer.name}{result}" == rs
        assert game.tags["LinQx"][0] in "oc"


def test_club_zrj_is_the_club_pbn_converted(tmp_path):
    """club.zrj holds the same four games as club.pbn, byte for byte what writing them as ZRJ gives."""
    games = read_games(DATA / "club.pbn")
    assert [g.board for g in games] == [1, 2, 3, 4]
    assert all(g.auction and g.play and g.result is not None for g in games)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # two plays are cut to fit, as the README says
        write_games(tmp_path / "club.zrj", games)
    assert (tmp_path / "club.zrj").read_bytes() == (DATA / "club.zrj").read_bytes()
    zrj = read_games(DATA / "club.zrj")
    assert [(g.contract, g.declarer, g.result) for g in zrj] == [(g.contract, g.declarer, g.result) for g in games]


def test_dealer_script_runs_in_debian_dealer():
    """opening.dl is a script Debian's dealer itself accepts and runs to its produce count."""
    proc = subprocess.run(
        [DEBIAN_DEALER, "-s", "1", str(DATA / "opening.dl")], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert "Produced 200 hands" in proc.stdout


def test_code64_record_round_trips():
    """game.c64 decodes, and encodes back to its own text once the 76-column wrapping is removed."""
    text = (DATA / "game.c64").read_text()
    session = cribbage.decode(text)
    assert len(session.deals) == 6 and session.players == ("Hal", "Marge")
    assert cribbage.encode(session) == "".join(text.split())
    assert all(len(line) <= 76 for line in text.splitlines())


@pytest.mark.slow
def test_sample_database_is_remade_by_its_command(tmp_path):
    """sample.zrd is exactly what `ddsbind generate sample.zrd --count 24 --seed 2026` makes."""
    proc = python_m("ddsbind", "generate", "sample.zrd", "--count", "24", "--seed", "2026", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "sample.zrd").read_bytes() == (DATA / "sample.zrd").read_bytes()
