"""Statistics of a database: :func:`stats` gives a :class:`DatabaseStats` (text, dict or plot).

``ddsbind stats FILE`` prints :meth:`DatabaseStats.lines`.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database._args import whole
from ddsbind.database.generation import is_running
from ddsbind.database.manifest import Manifest, read_run
from ddsbind.deal import SEAT_LETTERS
from ddsbind.errors import DatabaseError, FormatError
from ddsbind.formats import files
from ddsbind.formats.checksums import checksum, format_checksum, matches
from ddsbind.game import Vulnerability

__all__ = ["PAR_DEALERS", "DatabaseStats", "stats"]

_STRAINS = ("S", "H", "D", "C", "NT")
#: How par is sampled, as the text and the docstrings say it.
PAR_DEALERS = "dealer rotating N E S W over the sampled deals"


@dataclass
class DatabaseStats:
    """Statistics of a database (``tricks`` and the rest are None for deals-only files).

    Attributes
    ----------
    path, format : str
    count : int
        Records read (whole records before any null terminator).
    checksum : str
        The file's checksum (upper-case hex).
    manifest : Manifest or None
        ``OUT.json``, or ``OUT.generating.json`` when ``finished`` is False.
    finished : bool
        The run that made the database finished.
    running : bool
        Unfinished, and a ``generate`` process is writing it now.
    checksum_matches : bool or None
        The checksum equals the finished manifest's (None: no finished manifest).
    tricks : ndarray (5, 4, 14) int64 or None
        How many deals give declarer (N E S W) in strain (S H D C NT) k tricks.
    makes : ndarray (5, 7) float or None
        Fraction of (deal, side) pairs where the side makes level 1..7 in the strain.
    sacrifice : dict or None
        Vulnerability (``none``, ``both``, ``ns``, ``ew``) -> fraction of the
        sampled deals whose par is a doubled sacrifice.
    par_deals : int
        Deals the par figures are over.
    par_dealers : tuple of 4 int
        How many of them N, E, S, W dealt (the ``j``-th sampled deal: seat ``j % 4``).
    """

    path: str
    format: str
    count: int
    checksum: str
    manifest: Manifest | None
    finished: bool = False
    running: bool = False
    checksum_matches: bool | None = None
    tricks: NDArray[np.int64] | None = None
    makes: NDArray[np.float64] | None = None
    sacrifice: dict[str, float] | None = None
    par_deals: int = 0
    par_dealers: tuple[int, int, int, int] = (0, 0, 0, 0)

    def to_dict(self) -> dict[str, object]:
        """The statistics as a JSON-ready dict (arrays as nested lists)."""
        return {
            "path": self.path,
            "format": self.format,
            "count": self.count,
            "checksum": self.checksum,
            "manifest": None if self.manifest is None else self.manifest.to_dict(),
            "finished": self.finished,
            "running": self.running,
            "checksum_matches": self.checksum_matches,
            "tricks": None if self.tricks is None else self.tricks.tolist(),
            "makes": None if self.makes is None else self.makes.tolist(),
            "sacrifice": self.sacrifice,
            "par_deals": self.par_deals,
            "par_dealers": dict(zip(SEAT_LETTERS, self.par_dealers, strict=True)),
        }

    def lines(self) -> list[str]:
        """The statistics as the lines ``ddsbind stats FILE`` prints."""
        out = [f"{self.path}: {self.format}, {self.count} records, checksum {self.checksum}"]
        m = self.manifest
        if m is not None and self.finished:
            match = "matches" if self.checksum_matches else f"DIFFERS (manifest {m.checksum})"
            out.append(
                f"manifest: {m.count} deals, seed {m.seed}, {m.generator} v{m.generator_version}, "
                f"DDS {m.dds_version or '-'}, {m.seconds:.1f} s; checksum {match}"
            )
        elif m is not None and self.running:
            out.append(f"unfinished run: {self.count} of {m.count} records so far; a generate run is writing it now")
        elif m is not None:
            out.append(
                f"unfinished run: {self.count} of {m.count} records (seed {m.seed}); finish it with "
                f"'ddsbind generate {self.path} --count {m.count} --seed {m.seed} --resume'"
            )
        if self.tricks is None:
            return out
        per = self.tricks.sum(axis=2)
        total = int(per[0, 0])
        if total == 0:
            out.append("no complete DD tables")
            return out
        mean = (self.tricks * np.arange(14)).sum(axis=2) / np.maximum(per, 1)
        out += ["", f"Mean tricks by strain and declarer ({total} tables):"]
        out += ["       " + "".join(f"{s:>7}" for s in SEAT_LETTERS)]
        out += [f"  {s:<4} " + "".join(f"{v:7.2f}" for v in mean[i]) for i, s in enumerate(_STRAINS)]
        dist = self.tricks.sum(axis=1) / (4 * total) * 100
        out += ["", "Tricks for a declarer, % (all four declarers):"]
        out += ["      " + "".join(f"{k:>5}" for k in range(14))]
        out += [f"  {s:<3} " + "".join(f"{v:5.1f}" for v in dist[i]) for i, s in enumerate(_STRAINS)]
        if self.makes is not None:
            out += ["", "Contract makes for a side (best declarer), % of deals:"]
            out += ["      " + "".join(f"{k:>6}" for k in range(1, 8))]
            out += [f"  {s:<3} " + "".join(f"{v * 100:6.1f}" for v in self.makes[i]) for i, s in enumerate(_STRAINS)]
        if self.sacrifice is not None:
            # The bridge words (None, All, NS, EW), as every other output says vulnerability.
            shown = ", ".join(f"{Vulnerability.parse(v)} {p * 100:.1f}%" for v, p in self.sacrifice.items())
            out += ["", f"Par is a doubled sacrifice ({self.par_deals} deals, {PAR_DEALERS}): {shown}"]
        return out

    def plot(self, out: str | os.PathLike[str]) -> None:
        """Draw the statistics into an image (matplotlib, the ``plot`` extra)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise DatabaseError("--plot needs matplotlib: pip install 'ddsbind[plot]'") from None
        from ddsbind.formats.files import save_figure

        if self.tricks is None or self.tricks.sum() == 0:
            raise DatabaseError(f"{self.path} has no DD results to plot")
        total = self.tricks.sum(axis=(1, 2))[0]
        fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
        ax = axes[0]
        for i, s in enumerate(_STRAINS):
            ax.plot(range(14), self.tricks[i].sum(axis=0) / total * 100, marker="o", label=s)
        ax.set(title="Tricks a declarer takes", xlabel="tricks", ylabel="% of (deal, declarer)")
        ax.set_xticks(range(14))
        ax.legend(title="strain")
        ax = axes[1]
        if self.makes is not None:
            w = 0.16
            for i, s in enumerate(_STRAINS):
                ax.bar(np.arange(1, 8) + (i - 2) * w, self.makes[i] * 100, width=w, label=s)
        ax.set(title="Contract makes for a side", xlabel="level", ylabel="% of deals")
        ax.legend(title="strain")
        ax = axes[2]
        if self.sacrifice:
            vals = [v * 100 for v in self.sacrifice.values()]
            ax.bar(list(self.sacrifice), vals, color="tab:red")
            for x, v in enumerate(vals):
                ax.annotate(f"{v:.1f}%", (x, v), ha="center", va="bottom")
        ax.set(title=f"Par is a sacrifice ({self.par_deals} deals)", xlabel="vulnerable", ylabel="% of deals")
        fig.suptitle(f"{Path(self.path).name}: {self.count} deals")
        fig.tight_layout()
        save_figure(fig, out, dpi=100)
        plt.close(fig)


def stats(path: str | os.PathLike[str], *, par_sample: int = 10_000, progress: Progress | None = None) -> DatabaseStats:
    """Count, checksum and double-dummy statistics of a database (or any fixed-size record file).

    Parameters
    ----------
    path : path-like
        A ``.zrd`` or ``.zbd`` database (other record formats: count and
        checksum, and for ``.zdd`` the statistics).  A run not finished is
        read up to its last whole record and said to be unfinished.
    par_sample : int
        Par is computed (DDS ``DealerParBin``) for this many records spread
        evenly over the file (all if fewer), the dealer rotating N E S W over
        the sampled deals (the ``j``-th sampled deal is dealt by seat
        ``j % 4``), whatever the spacing of the sample.  0: no par.
    progress : callable, optional
        Called with the number of records read after each chunk.

    Returns
    -------
    DatabaseStats

    Raises
    ------
    DatabaseError
        Not a record file; a bad manifest; a file that cannot be read.
    FormatError
        A malformed or truncated file (naming the file, the record and the
        byte offset).
    """
    path = Path(path)
    par_sample = whole(par_sample, "par_sample", 0)
    fmt = files.guess_format(path)
    if fmt not in files.RECORD_SIZES:
        raise DatabaseError(f"{path}: stats reads fixed-size record files ({', '.join(sorted(files.RECORD_SIZES))})")
    man, finished = read_run(path)
    try:
        count = files.count_records(path, fmt)
        value = checksum(path)
        res = DatabaseStats(str(path), fmt, count, format_checksum(value), man, finished)
        res.running = man is not None and not finished and is_running(path)
        if man is not None and finished:
            assert man.checksum is not None  # a finished manifest always has one (validated)
            res.checksum_matches = matches(value, man.checksum)
    except OSError as exc:
        raise DatabaseError(f"{path}: {exc.strerror}") from None
    step = max(1, count // par_sample) if par_sample else 0
    acc = _Tally(step, par_sample)
    try:
        for c in files.iter_chunks(path, fmt):
            if c.tables is not None:
                acc.add(c.tables, c.index)
            if progress is not None:
                progress(len(c))
    except FormatError as exc:
        torn_tail = man is not None and not finished and exc.index == path.stat().st_size // files.RECORD_SIZES[fmt]
        if not torn_tail:  # an unfinished run may end in a torn write; anything else is damage
            raise DatabaseError(f"{path}: {exc}") from None
    if fmt in ("zrd", "zdd"):
        acc.finish(res)
    return res


class _Tally:
    """Running sums of :func:`stats` over chunks, and the par sample."""

    def __init__(self, step: int, par_sample: int) -> None:
        self.step = step
        self.par_sample = par_sample
        self.hist = np.zeros((5, 4, 14), dtype=np.int64)
        self.side = np.zeros((5, 2, 14), dtype=np.int64)
        self.picked: list[NDArray[np.uint8]] = []

    def add(self, tables: NDArray[np.uint8], index: NDArray[np.int64]) -> None:
        known = (tables <= 13).all(axis=(1, 2))
        t = tables[known]
        flat = (np.arange(20).reshape(1, 5, 4) * 14 + t.astype(np.int64)).ravel()
        self.hist += np.bincount(flat, minlength=280).reshape(5, 4, 14)
        best = np.stack([np.maximum(t[:, :, 0], t[:, :, 2]), np.maximum(t[:, :, 1], t[:, :, 3])], axis=2)
        self.side += np.bincount((np.arange(10).reshape(1, 5, 2) * 14 + best).ravel(), minlength=140).reshape(5, 2, 14)
        if self.step:
            self.picked.append(tables[(index % self.step == 0) & known])

    def finish(self, res: DatabaseStats) -> None:
        res.tricks = self.hist
        pairs = int(self.side.sum(axis=(1, 2))[0])
        if pairs:
            at_least = self.side.sum(axis=1)[:, ::-1].cumsum(axis=1)[:, ::-1]  # (5, 14): pairs with >= k tricks
            res.makes = at_least[:, 7:14] / pairs
        if self.step and self.picked:
            tables = np.concatenate(self.picked)[: self.par_sample]
            dealers = np.arange(tables.shape[0]) % 4
            res.sacrifice = _sacrifices(tables, dealers)
            res.par_deals = int(tables.shape[0])
            n, e, s, w = (int(k) for k in np.bincount(dealers, minlength=4))
            res.par_dealers = (n, e, s, w)


def _sacrifices(tables: NDArray[np.uint8], dealers: NDArray[np.int64]) -> dict[str, float]:
    """Vulnerability -> fraction of ``tables`` whose par (``dealers[i]`` dealing) is a doubled sacrifice.

    Read from DDS's structured par (``DealerParBin``): a par contract with
    ``underTricks > 0`` goes down, which par only allows doubled.
    """
    from ddsbind.dll import ddTableResults, parResultsMaster, raising

    results = [ddTableResults(resTable=t.tolist()) for t in tables]
    out = {}
    for vul in Vulnerability:
        sac = 0
        for res, dealer in zip(results, dealers.tolist(), strict=True):
            par = parResultsMaster()
            raising.DealerParBin(res, par, dealer, int(vul))
            sac += any(par.contracts[i].underTricks > 0 for i in range(par.number))
        out[vul.name.lower()] = sac / len(results) if results else math.nan
    return out
