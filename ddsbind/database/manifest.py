"""Manifests: what ``OUT.json`` records about a finished database (``OUT.generating.json`` while unfinished).

Both are JSON objects validated on reading against :data:`SCHEMA` (the type
and range of every field), so a hand-edited or damaged manifest is a
:class:`~ddsbind.DatabaseError` naming the file and the field, never a
traceback or a comparison with the wrong kind of value.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from ddsbind.database.check import FORMATS, RECORD
from ddsbind.database.recipe import GENERATOR, GENERATOR_VERSION, SEED_LIMIT
from ddsbind.errors import DatabaseError
from ddsbind.formats.checksums import parse_checksum
from ddsbind.formats.files import atomic_output

__all__ = [
    "SCHEMA",
    "Manifest",
    "fsync_dir",
    "generating_path",
    "manifest_path",
    "parts_dir",
    "read_run",
    "write_manifest",
]


def _integer(low: int, high: int | None = None) -> Callable[[object], str | None]:
    def check(v: object) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return "an integer"
        if v < low or (high is not None and v > high):
            return f"an integer {'>= ' + str(low) if high is None else f'in {low} .. {high}'}"
        return None

    return check


def _text(v: object) -> str | None:
    return None if isinstance(v, str) else "text"


def _format(v: object) -> str | None:
    return None if v in FORMATS else f"one of {', '.join(FORMATS)}"


def _seed(v: object) -> str | None:
    # Seeds above 2**53 are written as decimal text, for JSON readers with float numbers only.
    if isinstance(v, str) and v.isascii() and v.isdecimal():
        v = int(v)
    return _integer(0, SEED_LIMIT - 1)(v) and "an integer (or decimal text) in 0 .. 2**128-1"


def _seconds(v: object) -> str | None:
    ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
    return None if ok else "a number of seconds >= 0"


def _checksum(v: object) -> str | None:
    if isinstance(v, str) and v.strip():
        try:
            parse_checksum(v)
        except ValueError:
            pass
        else:
            return None
    return "hexadecimal text"


def _or_null(check: Callable[[object], str | None]) -> Callable[[object], str | None]:
    def either(v: object) -> str | None:
        if v is None:
            return None
        why = check(v)
        return why and f"{why} or null"

    return either


#: Field -> (required, check): each check returns None for a good value, else what the value must be.
SCHEMA: dict[str, tuple[bool, Callable[[object], str | None]]] = {
    "format": (True, _format),
    "count": (True, _integer(1)),
    "seed": (True, _seed),
    "generator": (False, _text),
    "generator_version": (False, _integer(0)),
    "ddsbind_version": (False, _text),
    "dds_version": (False, _or_null(_text)),
    "checksum": (False, _or_null(_checksum)),
    "seconds": (False, _seconds),
    "record_size": (False, _integer(0)),
}


@dataclass
class Manifest:
    """What ``OUT.json`` records about a finished database (``OUT.generating.json`` while unfinished)."""

    format: str
    count: int
    seed: int
    generator: str = GENERATOR
    generator_version: int = GENERATOR_VERSION
    ddsbind_version: str = ""
    dds_version: str | None = None
    checksum: str | None = None
    seconds: float = 0.0
    record_size: int = 0

    def to_json(self) -> str:
        """The manifest as JSON text (seed as a string when above 2**53, for other JSON readers)."""
        d = asdict(self)
        if self.seed >= 1 << 53:
            d["seed"] = str(self.seed)
        return json.dumps(d, indent=2) + "\n"

    def to_dict(self) -> dict[str, object]:
        """The fields as a dict (seed an int)."""
        return asdict(self)

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], *, finished: bool = True) -> Manifest:
        """Read and validate a manifest; ``DatabaseError`` naming the file (and field) when it is not one.

        ``finished=True`` (``OUT.json``) also requires the checksum and a
        record size matching the format; ``False`` is for ``OUT.generating.json``.
        """
        where = os.fspath(path)
        try:
            d = json.loads(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise DatabaseError(f"{where}: cannot read the manifest ({exc.strerror})") from None
        except ValueError as exc:  # bad JSON or bad UTF-8
            raise DatabaseError(f"{where}: not a JSON manifest ({exc})") from None
        if not isinstance(d, dict):
            raise DatabaseError(f"{where}: not a ddsbind manifest (a JSON {type(d).__name__}, not an object)")
        for name, (required, check) in SCHEMA.items():
            if name not in d:
                if required or (finished and name in ("checksum", "record_size")):
                    raise DatabaseError(f"{where}: field {name!r} is missing")
                continue
            why = check(d[name])
            if why is not None:
                raise DatabaseError(f"{where}: field {name!r} must be {why}, got {json.dumps(d[name])}")
        fields = {k: d[k] for k in SCHEMA if k in d}
        fields["seed"] = int(fields["seed"])
        man = cls(**fields)
        if finished:
            if man.checksum is None:
                raise DatabaseError(f"{where}: field 'checksum' must be hexadecimal text, got null")
            if man.record_size != RECORD[man.format]:
                raise DatabaseError(
                    f"{where}: field 'record_size' must be {RECORD[man.format]} for {man.format}, got {man.record_size}"
                )
        return man


def manifest_path(out: str | os.PathLike[str]) -> Path:
    """The manifest of database ``out``: ``out`` with ``.json`` appended (``deals.zrd.json``)."""
    return Path(os.fspath(out) + ".json")


def generating_path(out: str | os.PathLike[str]) -> Path:
    """The manifest of an unfinished run of ``out``: ``out`` with ``.generating.json`` appended."""
    return Path(os.fspath(out) + ".generating.json")


def parts_dir(out: str | os.PathLike[str]) -> Path:
    """Where a distributed run keeps shards not yet appended: ``out`` with ``.parts`` appended."""
    return Path(os.fspath(out) + ".parts")


def read_run(out: str | os.PathLike[str]) -> tuple[Manifest | None, bool]:
    """The manifest of database ``out`` and whether its run finished.

    ``OUT.json`` (finished) wins over ``OUT.generating.json`` (a run killed
    between writing the one and removing the other finished); neither gives
    ``(None, False)``.
    """
    final = manifest_path(out)
    if final.exists():
        return Manifest.from_file(final), True
    side = generating_path(out)
    if side.exists():
        return Manifest.from_file(side, finished=False), False
    return None, False


def write_manifest(path: Path, man: Manifest) -> None:
    """Write ``man`` to ``path`` all or nothing (temporary file, fsync, rename), then sync the directory."""
    with atomic_output(path) as f:
        f.write(man.to_json().encode())
    fsync_dir(path.parent)


def fsync_dir(path: Path) -> None:
    """Make a rename or a new file in ``path`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
