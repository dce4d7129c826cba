"""Every drop of double-dummy results named, and solving into a target without results refused (issue 47, 7-8).

Oracles: each format's own layout (a ZBD, ZBS or LIN record has no place for
a result; hand-makes keeps one hand's five), read back with its decoder;
and the refusal convert already gave for solving into LIN or ZRJ.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import ddsbind
from ddsbind.errors import DroppedDataWarning
from ddsbind.formats import registry, zrd
from ddsbind.formats.convert import convert
from tests.support import cli, one_error

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"


@pytest.fixture(scope="module")
def solved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three ZRD records with DDS's tables."""
    deals = [ddsbind.Deal.random(i) for i in range(3)]
    owners = np.stack([d.owners() for d in deals])
    tables = np.stack([np.asarray(ddsbind.dd_table(d)) for d in deals]).astype(np.uint8)
    path = tmp_path_factory.mktemp("dropped") / "solved.zrd"
    path.write_bytes(zrd.encode_zrd(owners, tables))
    return path


def _dropped(src: Path, dst: Path, **kwargs: object) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        convert(src, dst, **kwargs)  # type: ignore[arg-type]
    return [str(w.message) for w in caught if issubclass(w.category, DroppedDataWarning)]


@pytest.mark.parametrize("target, fmt", [("out.zbd", None), ("out.lin", None), ("out.zbs", None)])
def test_results_dropped_by_a_target_without_them_are_named_once(
    solved: Path, tmp_path: Path, target: str, fmt: str | None
) -> None:
    """Without this, `convert x.zrd out.zbd` threw away all 20 results of every record without the one warning the
    help promises."""
    out = tmp_path / target
    assert not registry.guess(out, fmt, "output").results  # the format's layout has no place for them
    said = _dropped(solved, out, dst_format=fmt)
    assert said == [f"{out.suffix[1:]} cannot hold {solved}'s double-dummy results (20 a record): dropped"]
    assert out.stat().st_size  # written all the same: a warning, not a refusal


def test_hand_makes_names_the_three_hands_it_drops(solved: Path, tmp_path: Path) -> None:
    """Without this, hand-makes kept East's five makes and dropped the other fifteen without a word."""
    out = tmp_path / "out.hm"
    said = _dropped(solved, out, dst_format="hand-makes", hand=1)
    lost = "double-dummy results of N, S, W (hand-makes keeps E's)"
    assert said == [f"hand-makes cannot hold {solved}'s {lost}: dropped"]


def test_a_target_that_holds_the_results_warns_of_nothing(solved: Path, tmp_path: Path) -> None:
    """Without this, the warning would cry wolf on every conversion and be ignored."""
    assert _dropped(solved, tmp_path / "out.pbn") == []
    assert _dropped(solved, tmp_path / "out.gib") == []


def test_pbn_to_zbd_names_the_dd_tables_with_the_tags(tmp_path: Path) -> None:
    """Without this, PBN -> ZBD listed the tags it drops but not the DD tables Bridge Composer wrote."""
    src = RECORDS / "bridgecomposer_wrong_cell.pbn"
    (said,) = _dropped(src, tmp_path / "out.zbd")
    assert said.startswith(f"zbd cannot hold {src}'s board numbers") and "double-dummy results (20 a record)" in said


def test_solving_into_a_target_without_results_is_refused_in_one_line(solved: Path, tmp_path: Path) -> None:
    """Without this, `convert x.zbd out.zbd --solve` solved every deal and threw the results away without a word,
    where a LIN or ZRJ target is refused."""
    deals = tmp_path / "deals.zbd"
    assert cli("convert", solved, deals, "--quiet").exit_code == 0
    for target in ("out.zbd", "out.zbs"):
        res = cli("convert", deals, tmp_path / target, "--solve")
        one_error(res, rf"{target[4:]} files cannot hold double-dummy results: solving \(--solve\) applies to")
        assert not (tmp_path / target).exists()
        assert "solved" not in res.stdout


def test_library_mode_output_names_the_results_it_drops(solved: Path, tmp_path: Path) -> None:
    """Without this, `dealer -L lib.zrd -o out.zbd` wrote the deals and dropped every stored result without a word;
    a target that holds them (ZRD) says nothing."""
    script = tmp_path / "s.dl"
    script.write_text("action average hcp(north)\n")
    res = cli("dealer", script, "-L", solved, "-o", tmp_path / "out.zbd")
    assert res.exit_code == 0, res.output
    warned = [x for x in res.stderr.splitlines() if x.startswith("ddsbind: warning:")]
    assert warned == [f"ddsbind: warning: zbd cannot hold {solved}'s double-dummy results (20 a record): dropped"]
    res = cli("dealer", script, "-L", solved, "-o", tmp_path / "out.zrd")
    assert res.exit_code == 0 and "warning" not in res.stderr, res.output
    assert (tmp_path / "out.zrd").read_bytes() == solved.read_bytes()  # every result kept


def test_zrj_names_its_board_byte_limit_once_for_boards_above_240(tmp_path: Path) -> None:
    """Without this, converting boards 241-368 to ZRJ printed a line per board blaming "the board cycle", when the
    cause is ZRJ's board byte (numbers 1..240).  Oracles: the ZRJ layout (byte 13 = board - 1, 240..255 none) and
    the 16-board cycle, which still gives each game its dealer and vulnerability."""
    from ddsbind.formats.pbngame import format_games
    from ddsbind.formats.zrjgame import zrj_bytes_to_games
    from ddsbind.record import GameRecord

    boards = range(239, 369)  # two that fit, then 128 that cannot
    games = [
        GameRecord(
            deal=ddsbind.Deal.random(b),
            dealer=ddsbind.Seat.dealer_of_board(b),
            vulnerable=ddsbind.Vulnerability.of_board(b),
            board=b,
            auction=["Pass"] * 4,
            passed_out=True,
        )
        for b in boards
    ]
    src, out = tmp_path / "high.pbn", tmp_path / "high.zrj"
    src.write_text(format_games(games))
    res = cli("convert", src, out)
    assert res.exit_code == 0, res.output
    warned = [x for x in res.stderr.splitlines() if x.startswith("ddsbind: warning:")]
    assert warned == [
        f"ddsbind: warning: zrj cannot hold {src}'s board numbers above 240 (its board byte holds 1..240): dropped"
    ]
    back = zrj_bytes_to_games(out.read_bytes())
    assert [g.board for g in back] == [239, 240] + [None] * 128
    assert [(g.dealer, g.vulnerable) for g in back] == [(g.dealer, g.vulnerable) for g in games]
