"""``ddsbind dealer`` and ``ddsbind stats``'s output files (ddsbind.cli.dealer, ddsbind.cli.databases).

Every file a run writes (-o, -C, -X, --plot) is checked before the first deal
and written atomically: a failed run leaves each as it was; two options
naming one file are refused in one line.  Oracles: the files' bytes before
and after, and the run's own standard output.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

from ddsbind.cli import main
from ddsbind.dealer.dealing import deal_batch
from ddsbind.formats.zrd import encode_zrd

CSV_SCRIPT = "generate 1000\nproduce 4\naction csvrpt(hcp(north)), export(north)\n"


def _run(tmp_path: Path, text: str, *args: str) -> Result:
    script = tmp_path / "s.dl"
    script.write_text(text)
    return CliRunner().invoke(main, ["dealer", "-s", "3", *args, str(script)])


def _one_error(result: Result, words: str) -> None:
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (("-C", "w:{f}", "-X", "w:{f}"), "-C and -X both name"),
        (("-C", "{f}", "-X", "w:{f}"), "-C and -X both name"),
        (("-o", "{f}", "-C", "{f}"), "-o and -C both name"),
        (("--contract", "3NS", "--plot", "{f}", "-o", "{f}"), "-o and --plot both name"),
        (("--force", "-o", "{s}"), "FILE and -o both name"),
    ],
)
def test_two_options_naming_one_file_are_refused_in_one_line(tmp_path: Path, options: tuple[str, ...], words: str):
    """-C w:F -X w:F would lose lines into one file: refused before dealing, and F is not made."""
    target = tmp_path / "out.png"
    result = _run(tmp_path, CSV_SCRIPT, *(o.format(f=target, s=tmp_path / "s.dl") for o in options))
    _one_error(result, words)
    assert not target.exists()
    assert (tmp_path / "s.dl").read_text() == CSV_SCRIPT  # the script itself is never written over


def test_csv_file_replaced_by_a_failed_run_keeps_its_old_lines(tmp_path: Path):
    """-C w:FILE then a run that fails (division by zero) leaves FILE as it was, not emptied."""
    csv = tmp_path / "fit.csv"
    csv.write_text("old line\n")
    text = "generate 1000\nproduce 4\naction csvrpt(hcp(north)), printes(1 / (hcp(north) - hcp(north)))\n"
    result = _run(tmp_path, text, "-C", f"w:{csv}")
    assert result.exit_code == 1
    assert csv.read_text() == "old line\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary file left


def test_csv_and_export_files_append_and_replace_atomically(tmp_path: Path):
    """-C FILE appends after the old lines, -X w:FILE replaces: each run's lines equal what standard output shows."""
    csv, export = tmp_path / "fit.csv", tmp_path / "hands.txt"
    csv.write_text("old\n")
    export.write_text("replaced\n")
    shown = _run(tmp_path, CSV_SCRIPT, "-v")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    result = _run(tmp_path, CSV_SCRIPT, "-v", "-C", str(csv), "-X", f"w:{export}")
    assert result.exit_code == 0, result.output
    assert csv.read_text().splitlines() == ["old", *lines[0::2]]
    assert export.read_text().splitlines() == lines[1::2]


def test_report_file_in_a_missing_folder_is_refused_before_dealing(tmp_path: Path):
    """-C into a folder that does not exist is one error line before any deal is dealt."""
    result = _run(tmp_path, CSV_SCRIPT, "-C", str(tmp_path / "nowhere" / "fit.csv"))
    _one_error(result, "-C ")
    assert "Generated" not in result.stdout


def test_contract_with_doubling_and_declarer_is_read(tmp_path: Path):
    """--contract 4SXN is 4S doubled by North (Contract.parse reads it), not refused as naming no declarer."""
    result = _run(tmp_path, "generate 200\nproduce 3\ncondition hcp(north) + hcp(south) >= 26\n", "--contract", "4SXN")
    assert result.exit_code == 0, result.output
    assert "4SXN" in result.stdout


def _database(tmp_path: Path) -> Path:
    owners = deal_batch(1, 0, size=20)
    path = tmp_path / "small.zrd"
    path.write_bytes(encode_zrd(owners, np.full((20, 5, 4), 7, dtype=np.uint8)).tobytes())
    return path


def test_stats_plot_of_an_unknown_image_type_is_refused_before_any_work(tmp_path: Path):
    """stats DB --plot out.xyz is one error line naming the known types, before reading DB: no matplotlib traceback."""
    result = CliRunner().invoke(main, ["stats", str(_database(tmp_path)), "--plot", str(tmp_path / "out.xyz")])
    _one_error(result, "cannot tell the image format")
    assert result.stdout == ""
    assert not (tmp_path / "out.xyz").exists()


def test_stats_plot_is_written_atomically(tmp_path: Path):
    """stats DB --plot out.png writes a PNG (its magic bytes) through the atomic writer, no temporary file left."""
    pytest.importorskip("matplotlib")
    out = tmp_path / "out.png"
    result = CliRunner().invoke(main, ["stats", str(_database(tmp_path)), "--plot", str(out), "--par-sample", "0"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
