"""The format of a path is decided once and the decided Format passed on, the file not read again to tell it."""

from __future__ import annotations

import pytest

from ddsbind.formats import registry
from ddsbind.formats.games import read_games
from tests.support import cli

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
GAMES = "".join(
    f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n[Contract "3NT"]\n[Declarer "S"]\n'
    f'[Result "9"]\n\n'
    for n in (1, 2)
)


def _asked(monkeypatch, teller: str) -> list[str]:
    """Every path ``registry.<teller>`` (``by_content``, ``by_extension``) is asked to tell the format of."""
    seen: list[str] = []
    real = getattr(registry, teller)

    def counted(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(registry, teller, counted)
    return seen


@pytest.fixture
def sniffs(monkeypatch):
    """Every path :func:`registry.by_content` reads to tell a format."""
    return _asked(monkeypatch, "by_content")


def test_a_decided_format_is_taken_as_it_is(tmp_path, sniffs):
    """Without this, a reader given the Format its caller decided would name or read the file again to tell it."""
    path = tmp_path / "games"  # no extension: only the content tells
    path.write_text(GAMES)
    pbn = registry.guess(path)
    assert pbn is registry.get("pbn") and sniffs == [str(path)]
    assert registry.guess(path, pbn) is pbn
    assert [g.board for g in read_games(path, pbn)] == [1, 2]
    assert sniffs == [str(path)]


def test_convert_reads_a_nameless_file_once_to_tell_its_format(tmp_path, sniffs):
    """Without this, ``ddsbind convert`` would read the head of a nameless file twice (progress bar, then convert)."""
    src, dst = tmp_path / "deals", tmp_path / "out.zbd"
    src.write_text(GAMES)
    result = cli("convert", src, dst)
    assert result.exit_code == 0, result.output
    assert sniffs == [str(src)]
    assert dst.stat().st_size == 2 * 13


def test_the_board_reads_a_nameless_file_once_to_tell_its_format(tmp_path, sniffs):
    """Without this, the analysis board would tell a file's format once to choose a reader and again inside it."""
    from ddsbind.board.boards import load_boards

    path = tmp_path / "session"
    path.write_text(GAMES)
    boards = load_boards(path)
    assert [b.label for b in boards] == ["1", "2"]
    assert sniffs == [str(path)]


@pytest.mark.parametrize("library", [False, True], ids=["dealt", "library"])
def test_the_dealer_decides_its_output_format_once(tmp_path, monkeypatch, library):
    """Without this, ``ddsbind dealer -o FILE`` told FILE's format by its extension up to four times (checking it,
    streaming a library's records, warning of dropped results, writing), each a place to tell it differently."""
    import numpy as np

    from ddsbind.dealer.dealing import deal_batch
    from ddsbind.formats.lin import parse_lin
    from ddsbind.formats.zrd import encode_zrd

    told = _asked(monkeypatch, "by_extension")
    script, out = tmp_path / "s.dl", tmp_path / "boards.lin"
    script.write_text("produce 3\ndealer south\n")
    args = ["dealer", "-s", "1", "-o", out, script]
    if library:
        owners = deal_batch(1, 0, size=3)
        (tmp_path / "lib.zrd").write_bytes(encode_zrd(owners, np.full((3, 5, 4), 7, np.uint8)).tobytes())
        args += ["-L", tmp_path / "lib.zrd"]
    result = cli(*args)
    assert result.exit_code == 0, result.output
    assert told.count(str(out)) == 1
    assert [g.dealer.name for g in parse_lin(out.read_text())] == ["S"] * 3
