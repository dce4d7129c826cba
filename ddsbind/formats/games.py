"""Game records in files: reading and writing them in any format of the table that holds them.

Which formats hold game records (:class:`~ddsbind.record.GameRecord`:
deal, auction, contract, result and play) is the table's business
(:mod:`ddsbind.formats.registry`: each format's :class:`~ddsbind.formats.registry.GameCodec`); this module
asks it and never branches on a format's name.  Today they are PBN (game
records, :mod:`.pbngame`) and ZRJ (played-deal records, :mod:`.zrjgame`).

:func:`carries_games` is the one decision of :func:`ddsbind.formats.convert.convert`
whether a conversion goes game by game (keeping auction and play) or deal by
deal: game records in, and a format that holds them out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

from ddsbind._typing import Progress
from ddsbind.errors import FormatError
from ddsbind.formats import registry
from ddsbind.formats._common import atomic_output, reading
from ddsbind.formats.registry import Format, FormatLike
from ddsbind.record import GameRecord

__all__ = ["carries_games", "convert_games", "game_formats", "read_games", "read_played", "write_games"]


def game_formats() -> tuple[Format, ...]:
    """The formats whose files hold game records (read and written)."""
    return tuple(f for f in registry.formats() if f.games is not None)


def _games_format(path: str | os.PathLike[str], given: FormatLike | None, role: str) -> Format:
    fmt = registry.guess(path, given, role)
    if fmt not in game_formats():
        names = " or ".join(f.name for f in game_formats())
        raise FormatError(f"{fmt.name} files hold no game records (game records are {names})")
    return fmt


def read_games(
    path: str | os.PathLike[str], format: FormatLike | None = None, *, strict: bool | None = None
) -> list[GameRecord]:
    """Read game records from a file of a format that holds them (PBN ``.pbn``, ZRJ ``.zrj``).

    A ZRJ file is read up to its null record.  Raises ``FormatError`` for a
    format that holds no game records, or for a malformed record (naming it).
    A field that cannot be used is kept, named in a
    :class:`~ddsbind.errors.FieldWarning` and left out; ``strict=True`` refuses it.
    """
    fmt = _games_format(path, format, "input")
    assert fmt.games is not None
    with reading(strict):
        return fmt.games.load(Path(path).read_bytes(), os.fspath(path))


def read_played(source: str | os.PathLike[str], format: FormatLike | None = None) -> list[GameRecord]:
    """The played results a player has: a file of game records, a BBO handviewer address, or a text file of
    addresses (one a line; blank lines and ``#`` comments skipped).

    A PBN hand record's ``ScoreTable`` gives one record a row
    (:func:`ddsbind.formats.scoretable.score_table_games`) in place of the
    hand record.  Raises ``FormatError`` for what :func:`read_games` and
    :func:`ddsbind.formats.handviewer.parse_handviewer` refuse (a line of a
    file of addresses named by its number, from 1).
    """
    from ddsbind.formats.handviewer import is_handviewer, parse_handviewer
    from ddsbind.formats.scoretable import has_score_table, score_table_games

    text = os.fspath(source)
    if not os.path.exists(text) and is_handviewer(text):
        return [parse_handviewer(text)]
    path = Path(text)
    if format is None and path.suffix.lower() in (".txt", ".url", ".urls", ""):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        wanted = [(n, ln.strip()) for n, ln in enumerate(lines, 1) if ln.strip() and not ln.lstrip().startswith("#")]
        if wanted and all(is_handviewer(ln) for _, ln in wanted):
            out = []
            for n, ln in wanted:
                try:
                    out.append(parse_handviewer(ln))
                except FormatError as exc:
                    raise FormatError(f"{text}: line {n}: {exc}") from None
            return out
    out = []
    for g in read_games(path, format):
        out += score_table_games(g) if has_score_table(g) else [g]
    return out


def write_games(path: str | os.PathLike[str], games: Sequence[GameRecord], format: FormatLike | None = None) -> int:
    """Write game records as PBN or ZRJ (by ``format`` or the extension); returns the count.

    ``"-"`` writes to standard output.  The file is written whole or not at
    all (:func:`ddsbind.formats._common.atomic_output`).  ZRJ records that
    cannot hold the whole play are truncated in their play with a
    :class:`~ddsbind.formats.zrjgame.TruncatedPlayWarning`.
    """
    fmt = _games_format(path, format, "output")
    assert fmt.games is not None
    data = fmt.games.dump(games)
    with atomic_output(path) as out:
        out.write(data)
    return len(games)


def carries_games(src: str | os.PathLike[str], sfmt: Format, dfmt: Format) -> bool:
    """True when converting ``src`` (of format ``sfmt``) to ``dfmt`` goes game record by game record.

    That is when both formats hold game records and either side's records
    are played games (ZRJ), or the source file holds game records (a PBN file
    with contracts, auctions or plays): game records in, game records out.
    A PBN file of bare deals converts deal by deal (its double-dummy results
    kept).
    """
    if sfmt not in game_formats() or dfmt not in game_formats():
        return False
    return dfmt.plays or sfmt.holds_games(src)


class _Unheld:
    """What a target cannot hold of game records seen batch by batch: its ``unheld`` of them all, in words.

    ``unheld`` words what any of the records has (a flag, or a tag name
    among the first few): a record that changes nothing of the words of
    those kept so far changes nothing of the words of all, so only the few
    records that did are kept, not the file.
    """

    def __init__(self, unheld: Callable[[Sequence[GameRecord]], list[str]]) -> None:
        self.unheld = unheld
        self.kept: list[GameRecord] = []
        self.words: list[str] = unheld([])

    def add(self, games: Sequence[GameRecord]) -> None:
        if self.unheld([*self.kept, *games]) == self.words:
            return
        for g in games:
            words = self.unheld([*self.kept, g])
            if words != self.words:
                self.kept.append(g)
                self.words = words


def convert_games(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str] | IO[bytes],
    sfmt: Format,
    dfmt: Format,
    *,
    chunk: int,
    progress: Progress | None = None,
) -> tuple[int, list[str]]:
    """Game records of ``src`` written to ``dst`` in ``dfmt``, ``chunk`` records at a time.

    Returns the number written and what of them ``dfmt`` cannot hold, in
    words (for the caller's one warning).  The bytes are ``dfmt``'s
    codec's ``dump`` of every record of ``src`` read whole, and the errors
    those of reading or writing it whole; memory is a batch of records,
    whatever the file's size.  A path ``dst`` is written whole or not at all
    (:func:`ddsbind.formats._common.atomic_output`); an open binary file is
    written from where it stands.
    """
    assert sfmt.games is not None and dfmt.games is not None
    dropped = _Unheld(dfmt.games.unheld) if dfmt.games.unheld is not None else None
    read_games, write_games = sfmt.games.read, dfmt.games.write

    def batches() -> Iterator[list[GameRecord]]:
        with open(src, "rb") as f:
            for games in read_games(f, os.fspath(src), chunk):
                if dropped is not None:
                    dropped.add(games)
                yield games
                if progress is not None:
                    progress(len(games))

    if isinstance(dst, str | os.PathLike):
        with atomic_output(dst) as out:
            n = write_games(batches(), out)
    else:
        n = write_games(batches(), dst)
    return n, dropped.words if dropped is not None else []
