"""PBN's bytes as text: the encoding of a file, read whole or a block at a time, and written back as read.

PBN 2.1 says ISO-8859-1; the programs that write PBN also write UTF-8, with
a byte-order mark or without, and Bridge Composer declares its charset in a
``%Content-type: text/x-pbn; charset=UTF-8`` line.  :func:`pbn_encoding`
reads all of these, :func:`decode_pbn`/:func:`pbn_lines` decode a whole
file or stream its lines, :func:`encode_pbn` writes a text back in the
encoding it was read in.  :mod:`ddsbind.formats.pbn` re-exports the four.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO

from ddsbind.errors import FormatError
from ddsbind.formats import _common
from ddsbind.formats._common import decode_text, text_pieces

__all__ = ["decode_pbn", "encode_pbn", "pbn_encoding", "pbn_lines", "write_text"]

_BOM = b"\xef\xbb\xbf"


#: ``%Content-type: text/x-pbn; charset=UTF-8`` (Bridge Composer's header line): the declared encoding.
_CHARSET = re.compile(rb"^%\s*Content-type:[^\n]*?charset\s*=\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE | re.MULTILINE)


def pbn_encoding(data: bytes | bytearray | memoryview | IO[bytes], name: str = "PBN") -> str:
    """The encoding of a PBN file's bytes, as a Python codec name.

    ``"utf-8-sig"`` after a UTF-8 byte-order mark; else the charset a
    ``%Content-type ... charset=X`` line declares (``FormatError`` for a
    charset Python does not know); else ``"utf-8"`` when the bytes are valid
    UTF-8 and not all ASCII; else PBN 2.1's ``"latin-1"`` (ISO-8859-1), or
    ``"cp1252"`` when the ISO-8859-1 text holds Windows-1252's bytes 0x80-0x9F.
    An open binary file is read from where it stands a block at a time,
    and put back there.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        return _file_encoding(data, name)
    raw = bytes(data)
    if raw.startswith(_BOM):
        return "utf-8-sig"
    declared = _CHARSET.search(raw)
    if declared:
        return _as_windows_writes(_declared(declared, name), raw)
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            return _as_windows_writes("latin-1", raw)
        return "utf-8"
    return "latin-1"


#: Bytes ISO-8859-1 gives to control characters that Windows-1252 gives to letters and signs (the euro sign, quotes).
_C1 = re.compile(rb"[\x80-\x9f]")
_UNDEFINED_1252 = re.compile(rb"[\x81\x8d\x8f\x90\x9d]")


def _as_windows_writes(encoding: str, data: bytes | IO[bytes]) -> str:
    """``"cp1252"`` for an ISO-8859-1 text holding bytes 0x80-0x9F that Windows-1252 reads (Windows programs write
    them: the euro sign 0x80), else ``encoding``.

    The two encodings agree on every other byte, so the text reads as
    Windows wrote it and is written back byte for byte.  Bytes that
    Windows-1252 leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) keep ISO-8859-1,
    whose reader names them as bytes that are not text.
    """
    if codecs.lookup(encoding).name != "iso8859-1":
        return encoding
    if isinstance(data, bytes):
        blocks: Iterable[bytes] = [data]
    else:
        start = data.tell()
        blocks = iter(lambda: data.read(_common.TEXT_BLOCK), b"")
    found = False
    try:
        for block in blocks:
            if _UNDEFINED_1252.search(block):
                return encoding
            found = found or _C1.search(block) is not None
    finally:
        if not isinstance(data, bytes):
            data.seek(start)
    return "cp1252" if found else encoding


def _declared(declared: re.Match[bytes], name: str) -> str:
    charset = declared.group(1).decode("ascii")
    try:
        return codecs.lookup(charset).name
    except LookupError:
        raise FormatError(f"{name}: %Content-type declares charset {charset!r}, an encoding we do not know") from None


def _file_encoding(f: IO[bytes], name: str) -> str:
    """:func:`pbn_encoding` of an open file's bytes from where it stands, read a block at a time (then put back)."""
    start = f.tell()
    try:
        if f.read(len(_BOM)) == _BOM:
            return "utf-8-sig"
        f.seek(start)
        check = _common.Utf8Check()
        held: list[bytes] = []  # the bytes after the last line feed read so far: a line not yet searched
        while True:
            data = f.read(_common.TEXT_BLOCK)
            check.feed(data)
            cut = data.rfind(b"\n") + 1 if data else len(data)
            if data and not cut:
                held.append(data)
                continue
            declared = _CHARSET.search(b"".join([*held, data[:cut]]))
            if declared:
                f.seek(start)
                return _as_windows_writes(_declared(declared, name), f)
            held = [data[cut:]]
            if not data:
                break
        valid, ascii_only = check.feed(b"", final=True), check.ascii
        if ascii_only:
            return "latin-1"
        f.seek(start)
        return "utf-8" if valid else _as_windows_writes("latin-1", f)
    finally:
        f.seek(start)


def pbn_lines(f: IO[bytes], name: str = "PBN", encoding: str | None = None) -> Iterator[str]:
    """The lines of an open PBN file (``text.split("\\n")`` of :func:`decode_pbn` of its bytes), read a block at a time.

    The encoding is :func:`pbn_encoding`'s, found first by a pass over the
    bytes (which needs no more memory than a block); a byte-order mark is
    dropped.  Memory is a block and the longest line, whatever the file's size.
    ``encoding``: the file's :func:`pbn_encoding`, when the caller found it already.
    """
    encoding = encoding or pbn_encoding(f, name)
    if encoding == "utf-8-sig":
        f.read(len(_BOM))
        encoding = "utf-8"
    held = ""
    for piece in text_pieces(f, encoding, name):
        lines = piece.split("\n")
        lines[0] = held + lines[0]
        held = lines.pop()
        yield from lines
    yield held


def decode_pbn(data: bytes | bytearray | memoryview | str, name: str = "PBN") -> str:
    """PBN text of a file's bytes, in the encoding :func:`pbn_encoding` finds (a byte-order mark dropped).

    A ``str`` is returned without a leading byte-order mark.  Bytes that are
    not valid in the encoding the file declares raise ``FormatError`` naming
    ``name``, the line and the column.
    """
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    raw = bytes(data)
    encoding = pbn_encoding(raw, name)
    if encoding == "utf-8-sig":
        return decode_text(raw[len(_BOM) :], "utf-8", name)
    return decode_text(raw, encoding, name)


def write_text(parts: Iterable[str], out: IO[bytes], encoding: str | None = None) -> None:
    """Write text given in parts to ``out`` as ``encode_pbn("".join(parts), encoding)`` writes the whole.

    :func:`encode_pbn` chooses one encoding for the whole text (``encoding``;
    failing that ISO-8859-1; failing that a byte-order mark and UTF-8), which
    a part cannot know of the parts after it: the parts go to a spool (in
    memory up to a block, then a temporary file) in the first encoding that
    holds every part so far, re-encoded there when a part needs the next one,
    and the spool is copied to ``out`` at the end.  Memory is a part and a
    block, whatever the text's size.
    """
    choices = [c for c in (encoding, "latin-1", "utf-8-sig") if c]
    k = 0
    encoder = codecs.getincrementalencoder(choices[k])()
    with contextlib.ExitStack() as spools:
        spool = spools.enter_context(tempfile.SpooledTemporaryFile(max_size=_common.TEXT_BLOCK))
        for part in parts:
            while True:
                try:
                    spool.write(encoder.encode(part))
                    break
                except UnicodeEncodeError:  # the next encoding that holds the text so far: the spool re-encoded
                    old = choices[k]
                    while True:  # the last choice, UTF-8, holds any text
                        k += 1
                        encoder = codecs.getincrementalencoder(choices[k])()
                        again = spools.enter_context(tempfile.SpooledTemporaryFile(max_size=_common.TEXT_BLOCK))
                        if _recoded(spool, old, encoder, again):
                            spool.close()
                            spool = again
                            break
                        again.close()
        spool.write(encoder.encode("", final=True))
        spool.seek(0)
        shutil.copyfileobj(spool, out, _common.TEXT_BLOCK)


def _recoded(spool: IO[bytes], old: str, encoder: codecs.IncrementalEncoder, new: IO[bytes]) -> bool:
    """Write the text in ``spool`` (``old``'s bytes) to ``new`` by ``encoder``; False if it cannot hold it."""
    decoder = codecs.getincrementaldecoder(old)()
    spool.seek(0)
    try:
        while data := spool.read(_common.TEXT_BLOCK):
            new.write(encoder.encode(decoder.decode(data)))
        new.write(encoder.encode(decoder.decode(b"", final=True)))
    except UnicodeEncodeError:
        spool.seek(0, 2)
        return False
    return True


def encode_pbn(text: str, encoding: str | None = None) -> bytes:
    """A file's bytes for PBN ``text``, in ``encoding`` (a file's :func:`pbn_encoding`, to write it back as read).

    Without ``encoding`` (or when the text holds a character the encoding
    cannot): ISO-8859-1 when the text fits, else a byte-order mark and UTF-8.
    """
    if encoding is not None:
        try:
            return text.encode(encoding)
        except UnicodeEncodeError:
            pass
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return _BOM + text.encode("utf-8")
