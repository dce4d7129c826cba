"""Statistics of a database: :func:`stats` gives a :class:`DatabaseStats` (text, dict or plot).

``ddsbind stats FILE...`` prints :meth:`DatabaseStats.lines`.

The statistics proper are a :class:`Statistics`: counts that *merge*.  The
statistics of a file equal the :meth:`~Statistics.merge` of the statistics
of any split of it into parts (in any order), to the byte in ``to_dict()``
and ``--json``: shards of a database read on a Dask cluster give the
report one pass over the whole database gives.  Everything is a sum of
counts: par too, computed for every complete table by
:mod:`ddsbind.optimum` (DDS's ``DealerPar``, its own kernel), the dealer
drawn from each record's hash.  Asked for (``par_sample``), par is instead
computed for the ``par_sample`` records of smallest hash (a bottom-k
sample: a uniform random sample that depends only on the records, never on
their positions), so merging keeps the smallest of both.  The file is read
once, a chunk at a time: memory is one chunk's and the sample's, whatever
the file's size.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ddsbind._typing import Progress
from ddsbind.database._args import optional_whole, whole
from ddsbind.database.generation import is_running
from ddsbind.database.manifest import Manifest, read_run
from ddsbind.deal import SEAT_LETTERS, Strain, Vulnerability
from ddsbind.errors import DatabaseError, FormatError
from ddsbind.formats import files, order, registry, zdd
from ddsbind.formats.checksums import Checksum, format_checksum, matches
from ddsbind.formats.files import end_of_list, naming, save_figure

__all__ = ["CHUNK", "PAR_DEALERS", "DatabaseStats", "Statistics", "merge", "range_statistics", "stats", "stats_of"]

_STRAINS = tuple(s.symbol for s in Strain)
#: The two sides, named as vulnerability names them.
_SIDES = (Vulnerability.NS, Vulnerability.EW)
#: Who deals for par, as the text and the docstrings say it (a sample, or every deal).
PAR_DEALERS = "the dealer drawn from each sampled deal's hash"
PAR_DEALERS_ALL = "every deal, the dealer drawn from its hash"
#: Records read at a time.
CHUNK = 1 << 19
#: Two results (16 x 16, flattened) -> the better of them.
_BEST = np.maximum.outer(np.arange(16), np.arange(16)).ravel()
#: Byte -> True when either of its nibbles is not a trick count (14, 15 unknown).
_OVER_13 = ((np.arange(256) & 15) > 13) | ((np.arange(256) >> 4) > 13)
#: Pavlicek seats of each side's two hands (NS: N, S; EW: E, W).
_SIDE_SEATS = tuple(tuple(int(x) for x in order.pav_seats(pair)) for pair in ((0, 2), (1, 3)))
#: Pavlicek strain of each DDS strain (S H D C NT).
_PAV_STRAIN = order.pav_strains(np.arange(5)).astype(np.intp)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def _mix(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """splitmix64's finaliser: every bit of ``x`` moves every bit of the result."""
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    return x ^ (x >> np.uint64(31))


def _marginal(joint: NDArray[np.int64], seats: tuple[int, ...]) -> NDArray[np.int64]:
    """Counts of ``joint`` (5, 16, 16, 16, 16) by strain and the results of Pavlicek ``seats`` (in that order)."""
    keep = [4 - k for k in seats]
    out = joint.sum(axis=tuple(ax for ax in (1, 2, 3, 4) if ax not in keep))
    # The summed array's axes follow the kept axes in ascending order; put them in the order of ``seats``.
    order = sorted(keep)
    return out.transpose(0, *(1 + order.index(ax) for ax in keep))


def record_hash(raw: NDArray[np.uint8]) -> NDArray[np.uint64]:
    """A 64-bit hash of each record's first 16 bytes ``(n, size)`` uint8 -> ``(n,)`` uint64 (position-free)."""
    n, size = raw.shape
    head = np.zeros((n, 16), dtype=np.uint8)
    head[:, : min(size, 16)] = raw[:, :16]
    words = head.view("<u8").astype(np.uint64)
    return _mix(words[:, 1] ^ _mix(words[:, 0]))


@dataclass
class Statistics:
    """Double-dummy statistics as counts that merge (see the module docstring).

    Attributes
    ----------
    records : int
        Records read (whole records before any null terminator).
    tricks : ndarray (5, 4, 14) int64
        Complete tables whose declarer (N E S W) in strain (S H D C NT) takes k tricks.
    sides : ndarray (2, 5, 14) int64
        Complete tables where the side (NS, EW) takes k tricks in the strain
        with its better declarer.
    par_keys : ndarray (k,) uint64
        The hashes of the par sample: the ``par_sample`` smallest, ascending.
    par_tables : ndarray (k, 5, 4) uint8
        The sampled tables (DDS order).
    par_sample : int or None
        How many records the par sample keeps at most; None (the default):
        no sample, par of every complete table, counted in :attr:`par_counts`.
    par_counts : ndarray (4, 5) int64
        Without a sample: by dealer (N E S W), the deals, then those whose
        par is a doubled sacrifice by vulnerability (DDS codes: none, both,
        NS, EW).  With one: the same counts of the sample (see :attr:`par_table`).
    """

    records: int = 0
    tricks: NDArray[np.int64] = field(default_factory=lambda: np.zeros((5, 4, 14), np.int64))
    sides: NDArray[np.int64] = field(default_factory=lambda: np.zeros((2, 5, 14), np.int64))
    par_keys: NDArray[np.uint64] = field(default_factory=lambda: np.zeros(0, np.uint64))
    par_tables: NDArray[np.uint8] = field(default_factory=lambda: np.zeros((0, 5, 4), np.uint8))
    par_sample: int | None = None
    par_counts: NDArray[np.int64] = field(default_factory=lambda: np.zeros((4, 5), np.int64))
    _par: NDArray[np.bool_] | None = field(default=None, repr=False, compare=False)

    @property
    def tables(self) -> int:
        """Complete tables counted."""
        return int(self.tricks[0, 0].sum())

    def add(self, results: NDArray[np.uint8], raw: NDArray[np.uint8]) -> None:
        """Count the ZDD results ``(n, 10)`` of the records ``raw`` ``(n, size)``; incomplete tables are skipped.

        A strain's four results are two bytes of a ZDD record: one histogram
        of those 16-bit words per strain gives every declarer's tricks and
        each side's best, without decoding a table.
        """
        results = np.ascontiguousarray(results)
        if zdd.any_over_13(results):
            known = ~_OVER_13.take(results).any(axis=1)
            results, raw = results[known], raw[known]
        words = results.view("<u2").T.copy()  # (5, n): Pavlicek strain p, nibble k = Pavlicek seat k
        # (5 Pavlicek strains, 16, 16, 16, 16): word = W | N << 4 | E << 8 | S << 12, so seat k is axis 4 - k.
        joint = np.stack([np.bincount(w, minlength=1 << 16) for w in words]).reshape(5, 16, 16, 16, 16)
        pav = np.zeros((14, 20), np.int64)  # [tricks, 4 * Pavlicek strain + seat]
        for k in range(4):
            pav[:, k::4] = _marginal(joint, (k,))[:, :14].T
        self.tricks += order.dds_tables(pav).transpose(1, 2, 0)
        for j, pair in enumerate(_SIDE_SEATS):
            both = _marginal(joint, pair).reshape(5, 256)  # [strain, the pair's two results]
            best = np.stack([np.bincount(_BEST, weights=h, minlength=16) for h in both]).astype(np.int64)
            self.sides[j] += best[_PAV_STRAIN, :14]
        if self.par_sample is None and results.shape[0]:
            dealers = (record_hash(raw) & np.uint64(3)).astype(np.int8)
            sac = _sacrifices(zdd.tables_from_nibbles(results), dealers)
            self.par_counts[:, 0] += np.bincount(dealers, minlength=4)
            for v in range(4):
                self.par_counts[:, 1 + v] += np.bincount(dealers, weights=sac[:, v], minlength=4).astype(np.int64)
        elif self.par_sample and results.shape[0]:
            keys = record_hash(raw)
            if keys.size > self.par_sample:
                # Every key up to the k-th smallest (ties too): what the sample keeps is decided by _keep.
                kth = np.partition(keys, self.par_sample - 1)[self.par_sample - 1]
                pick = keys <= kth
                keys, results = keys[pick], results[pick]
            self._keep(keys, zdd.tables_from_nibbles(results))

    def _keep(self, keys: NDArray[np.uint64], tables: NDArray[np.uint8]) -> None:
        """The ``par_sample`` smallest of the sample and these: by hash, ties by the table's bytes."""
        keys = np.concatenate([self.par_keys, keys])
        tables = np.concatenate([self.par_tables, tables])
        flat = tables.reshape(-1, 20)
        order = np.lexsort((*flat.T[::-1], keys))[: self.par_sample]
        self.par_keys, self.par_tables = keys[order], tables[order]
        self._par = None

    def merge(self, other: Statistics) -> Statistics:
        """The statistics of both parts' records together (neither is changed)."""
        if other.par_sample != self.par_sample:
            raise DatabaseError(f"cannot merge statistics of par samples {self.par_sample} and {other.par_sample}")
        out = Statistics(
            self.records + other.records, self.tricks + other.tricks, self.sides + other.sides,
            self.par_keys, self.par_tables, self.par_sample, self.par_counts + other.par_counts,
        )  # fmt: skip
        out._keep(other.par_keys, other.par_tables)
        return out

    __add__ = merge

    @property
    def makes(self) -> NDArray[np.float64] | None:
        """``(2, 5, 7)``: fraction of complete tables where the side (NS, EW) makes level 1..7 in the strain."""
        total = self.tables
        if not total:
            return None
        at_least = self.sides[:, :, ::-1].cumsum(axis=2)[:, :, ::-1]  # (2, 5, 14): tables with >= k tricks
        return np.asarray(at_least[:, :, 7:14] / total, dtype=np.float64)

    @property
    def par_dealers(self) -> NDArray[np.int64]:
        """``(k,)`` the DDS seat dealing each sampled deal: the two low bits of its hash."""
        return (self.par_keys & np.uint64(3)).astype(np.int64)

    @property
    def sacrifices(self) -> NDArray[np.bool_]:
        """``(k, 4)`` whether the sample's par (DDS's ``DealerPar``) is a doubled sacrifice, by vulnerability code."""
        if self._par is None:
            self._par = _sacrifices(self.par_tables, self.par_dealers)
        return self._par

    @property
    def par_table(self) -> NDArray[np.int64]:
        """``(4, 5)``: by dealer, deals and par sacrifices by vulnerability: of every deal, or of the sample."""
        if self.par_sample is None:
            return self.par_counts
        dealers = self.par_dealers
        sac = self.sacrifices
        out = np.zeros((4, 5), np.int64)
        out[:, 0] = np.bincount(dealers, minlength=4)
        for v in range(4):
            out[:, 1 + v] = np.bincount(dealers, weights=sac[:, v], minlength=4).astype(np.int64)
        return out

    @property
    def par_deals(self) -> int:
        """Deals whose par is counted: every complete table, or the sample's."""
        return int(self.par_table[:, 0].sum())

    def sacrifice_rates(self) -> dict[str, tuple[float, float]] | None:
        """Vulnerability (``None``, ``All``, ``NS``, ``EW``) -> (fraction of par sacrifices, its standard error).

        The standard error is the binomial one, ``sqrt(p (1 - p) / n)``, of
        the ``n`` deals counted; None when no deal's par is counted.
        """
        t = self.par_table
        n = int(t[:, 0].sum())
        if not n:
            return None
        out = {}
        for v in Vulnerability:
            p = float(t[:, 1 + int(v)].sum() / n)
            out[str(v)] = (p, float(np.sqrt(p * (1 - p) / n)))
        return out

    def to_dict(self) -> dict[str, object]:
        """The statistics as a JSON-ready dict: counts, and the fractions they give.

        ``tricks`` is ``[strain S H D C NT][declarer N E S W][k]``; ``side_tricks``
        and ``makes`` are keyed by side (``NS``, ``EW``) then strain, ``makes``
        a fraction of the complete tables for levels 1..7; ``par`` holds the
        sample's size, dealers and sacrifices (counts by vulnerability then
        dealer) and the fractions by vulnerability.
        """
        makes = self.makes
        t = self.par_table
        k = int(t[:, 0].sum())
        rates = self.sacrifice_rates()
        return {
            "records": self.records,
            "tables": self.tables,
            "tricks": self.tricks.tolist(),
            "side_tricks": {
                str(side): {s: self.sides[j, i].tolist() for i, s in enumerate(_STRAINS)}
                for j, side in enumerate(_SIDES)
            },
            "makes": None
            if makes is None
            else {
                str(side): {s: makes[j, i].tolist() for i, s in enumerate(_STRAINS)} for j, side in enumerate(_SIDES)
            },
            "par": {
                "sample": self.par_sample,
                "deals": k,
                "dealers": {s: int(t[d, 0]) for d, s in enumerate(SEAT_LETTERS)},
                "sacrifices": {
                    str(v): {s: int(t[d, 1 + int(v)]) for d, s in enumerate(SEAT_LETTERS)} for v in Vulnerability
                },
                "sacrifice": None if rates is None else {v: p for v, (p, _) in rates.items()},
                "sacrifice_se": None if rates is None else {v: se for v, (_, se) in rates.items()},
            },
        }

    def lines(self) -> list[str]:
        """The statistics as text (what ``ddsbind stats`` prints after the files' lines)."""
        total = self.tables
        if total == 0:
            return ["no complete DD tables"]
        per = self.tricks.sum(axis=2)
        mean = (self.tricks * np.arange(14)).sum(axis=2) / np.maximum(per, 1)
        out = ["", f"Mean tricks by strain and declarer ({total} tables):"]
        out += ["       " + "".join(f"{s:>7}" for s in SEAT_LETTERS)]
        out += [f"  {s:<4} " + "".join(f"{v:7.2f}" for v in mean[i]) for i, s in enumerate(_STRAINS)]
        dist = self.tricks.sum(axis=1) / (4 * total) * 100
        out += ["", "Tricks for a declarer, % (all four declarers):"]
        out += ["      " + "".join(f"{k:>5}" for k in range(14))]
        out += [f"  {s:<3} " + "".join(f"{v:5.1f}" for v in dist[i]) for i, s in enumerate(_STRAINS)]
        makes = self.makes
        assert makes is not None
        out += ["", "Contract makes for each side (its better declarer), % of deals:"]
        out += ["         " + "".join(f"{k:>6}" for k in range(1, 8))]
        for j, side in enumerate(_SIDES):
            out += [
                f"  {side!s:<3}{s:<3} " + "".join(f"{v * 100:6.1f}" for v in makes[j, i])
                for i, s in enumerate(_STRAINS)
            ]
        rates = self.sacrifice_rates()
        if rates is not None:
            t = self.par_table
            k = int(t[:, 0].sum())
            shown = ", ".join(f"{v} {p * 100:.1f}% \u00b1 {se * 100:.1f}" for v, (p, se) in rates.items())
            how = PAR_DEALERS if self.par_sample is not None else PAR_DEALERS_ALL
            out += ["", f"Par is a doubled sacrifice ({k} deals, {how}; \u00b1 one standard error): {shown}"]
            out += ["  dealer  deals" + "".join(f"{v!s:>7}" for v in Vulnerability)]
            for d, s in enumerate(SEAT_LETTERS):
                n = int(t[d, 0])
                cells = "".join(f"{t[d, 1 + int(v)] / n * 100:6.1f}%" if n else "      -" for v in Vulnerability)
                out.append(f"  {s:<6}  {n:>5}{cells}")
        return out


def merge(parts: Iterable[Statistics]) -> Statistics:
    """The statistics of several parts' records together (:meth:`Statistics.merge` over them)."""
    it = iter(parts)
    try:
        out = next(it)
    except StopIteration:
        raise DatabaseError("no statistics to merge") from None
    for p in it:
        out = out.merge(p)
    return out


@dataclass
class DatabaseStats:
    """What ``ddsbind stats`` reports of one file: the file's facts, and its :class:`Statistics`.

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
    statistics : Statistics or None
        None for files without results (``.zbd``, ``hand-makes``).
    """

    path: str
    format: str
    count: int
    checksum: str
    manifest: Manifest | None
    finished: bool = False
    running: bool = False
    checksum_matches: bool | None = None
    statistics: Statistics | None = None

    @property
    def count_matches(self) -> bool | None:
        """The file holds the records its finished manifest counts (None: no finished manifest)."""
        return None if self.manifest is None or not self.finished else self.manifest.count == self.count

    @property
    def tricks(self) -> NDArray[np.int64] | None:
        """``(5, 4, 14)`` tables by strain, declarer and tricks (:attr:`Statistics.tricks`), or None."""
        return None if self.statistics is None else self.statistics.tricks

    @property
    def makes(self) -> NDArray[np.float64] | None:
        """``(2, 5, 7)`` make rates by side, strain and level (:attr:`Statistics.makes`), or None."""
        return None if self.statistics is None else self.statistics.makes

    @property
    def par_deals(self) -> int:
        """Deals whose par is counted (every complete table, or the par sample)."""
        return 0 if self.statistics is None else self.statistics.par_deals

    @property
    def sacrifice(self) -> dict[str, float] | None:
        """Vulnerability (``None``, ``All``, ``NS``, ``EW``) -> fraction of counted deals whose par is a sacrifice."""
        rates = None if self.statistics is None else self.statistics.sacrifice_rates()
        return None if rates is None else {v: p for v, (p, _) in rates.items()}

    def file_dict(self) -> dict[str, object]:
        """The file's facts as a JSON-ready dict."""
        return {
            "path": self.path,
            "format": self.format,
            "count": self.count,
            "checksum": self.checksum,
            "manifest": None if self.manifest is None else self.manifest.to_dict(),
            "finished": self.finished,
            "running": self.running,
            "checksum_matches": self.checksum_matches,
            "count_matches": self.count_matches,
        }

    def to_dict(self) -> dict[str, object]:
        """The report as a JSON-ready dict: the file's facts, and ``statistics`` (:meth:`Statistics.to_dict`)."""
        return {**self.file_dict(), "statistics": None if self.statistics is None else self.statistics.to_dict()}

    def file_lines(self) -> list[str]:
        """The file's lines: format, count, checksum, and what its manifest says."""
        out = [f"{self.path}: {self.format}, {self.count} records, checksum {self.checksum}"]
        m = self.manifest
        if m is not None and self.finished:
            match = "matches" if self.checksum_matches else f"DIFFERS (manifest {m.checksum})"
            count = "" if self.count_matches else f"; count DIFFERS (the file holds {self.count} records)"
            out.append(
                f"manifest: {m.count} deals, seed {m.seed}, {m.generator} v{m.generator_version}, "
                f"DDS {m.dds_version or '-'}, {m.seconds:.1f} s; checksum {match}{count}"
            )
        elif m is not None and self.running:
            out.append(f"unfinished run: {self.count} of {m.count} records so far; a generate run is writing it now")
        elif m is not None:
            out.append(
                f"unfinished run: {self.count} of {m.count} records (seed {m.seed}); finish it with "
                f"'ddsbind generate {self.path} --count {m.count} --seed {m.seed} --resume'"
            )
        return out

    def lines(self) -> list[str]:
        """The report as the lines ``ddsbind stats FILE`` prints."""
        return self.file_lines() + ([] if self.statistics is None else self.statistics.lines())

    def plot(self, out: str | os.PathLike[str]) -> None:
        """Draw the statistics into an image (matplotlib, the ``plot`` extra)."""
        if self.statistics is None:
            raise DatabaseError(f"{self.path} has no DD results to plot")
        plot(self.statistics, out, f"{Path(self.path).name}: {self.count} deals")


def plot(st: Statistics, out: str | os.PathLike[str], title: str) -> None:
    """Draw statistics into an image: tricks by strain, make rates by side, par sacrifices (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise DatabaseError("--plot needs matplotlib: pip install matplotlib (the 'plot' extra)") from None
    total = st.tables
    if not total:
        raise DatabaseError(f"{title}: no DD results to plot")
    makes = st.makes
    assert makes is not None
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    ax = axes[0]
    for i, s in enumerate(_STRAINS):
        ax.plot(range(14), st.tricks[i].sum(axis=0) / (4 * total) * 100, marker="o", label=s)
    ax.set(title="Tricks a declarer takes", xlabel="tricks", ylabel="% of (deal, declarer)")
    ax.set_xticks(range(14))
    ax.legend(title="strain")
    ax = axes[1]
    w = 0.08
    for j, side in enumerate(_SIDES):
        for i, s in enumerate(_STRAINS):
            ax.bar(np.arange(1, 8) + (j * 5 + i - 4.5) * w, makes[j, i] * 100, width=w, label=f"{side} {s}",
                   hatch="//" if j else None)  # fmt: skip
    ax.set(title="Contract makes for each side", xlabel="level", ylabel="% of deals")
    ax.legend(title="side, strain", ncols=2, fontsize="small")
    ax = axes[2]
    rates = st.sacrifice_rates()
    if rates is not None:
        vals = [p * 100 for p, _ in rates.values()]
        ax.bar(list(rates), vals, yerr=[se * 100 for _, se in rates.values()], color="tab:red", capsize=4)
        for x, v in enumerate(vals):
            ax.annotate(f"{v:.1f}%", (x, v), ha="center", va="bottom")
    ax.set(title=f"Par is a sacrifice ({st.par_deals} deals)", xlabel="vulnerable", ylabel="% of deals")
    fig.suptitle(title)
    fig.tight_layout()
    save_figure(fig, out, dpi=100)
    plt.close(fig)


def stats(
    path: str | os.PathLike[str],
    *,
    par_sample: int | None = None,
    chunk: int = CHUNK,
    progress: Progress | None = None,
    format: str | None = None,
) -> DatabaseStats:
    """Count, checksum and double-dummy statistics of a database (or any fixed-size record file), in one pass.

    Parameters
    ----------
    path : path-like
        A ``.zrd`` or ``.zbd`` database (other record formats: count and
        checksum, and for ``.zdd`` the statistics).  A run not finished is
        read up to its last whole record and said to be unfinished.
    par_sample : int, optional
        None (the default): par (DDS's ``DealerPar`` by
        :mod:`ddsbind.optimum`, each vulnerability) of every complete table,
        the dealer drawn from the record's hash.  A number: par of only
        this many complete tables of smallest record hash (all if fewer):
        a random sample that depends on the records only, so statistics of
        parts merge (:meth:`Statistics.merge`).  0: no par.
    chunk : int
        Records read at a time: memory is about ``chunk`` times 60 bytes.
    progress : callable, optional
        Called with the number of records read after each chunk.
    format : str, optional
        The record format (``"hand-makes"``, whose files have no extension
        of their own); None: from the extension.

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
    par_sample = optional_whole(par_sample, "par_sample", 0)
    chunk = whole(chunk, "chunk", 1)
    name = format.lower() if format else files.guess_format(path)
    if name not in files.RECORD_SIZES:
        kinds = ", ".join(sorted(files.RECORD_SIZES))
        if name is None:
            raise DatabaseError(f"{path}: the extension names no record format: name it with --from ({kinds})")
        raise DatabaseError(f"{path}: stats reads fixed-size record files ({kinds}), not {name}")
    fmt = registry.get(name)
    size = files.RECORD_SIZES[name]
    man, finished = read_run(path)
    st = Statistics(par_sample=par_sample) if fmt.results and name != "hand-makes" else None
    total = Checksum()
    count = 0
    try:
        with files.RecordReader(path, size) as reader:
            ended = False
            for start in range(0, reader.count, chunk):
                part = reader.read(start, start + chunk)
                total.update(part)
                if ended:
                    continue
                end = end_of_list(part)
                recs = part[:end]
                with naming(path):
                    fmt.validate(recs, start, "raise")
                count = start + end
                ended = end < part.shape[0]
                if st is not None:
                    st.records += end
                    st.add(recs[:, size - zdd.RECORD_SIZE :], recs)
                if progress is not None:
                    progress(end)
            tail = reader.nbytes - reader.count * size
            if tail:
                extra = np.empty(tail, np.uint8)
                reader.read_into(extra, reader.count)
                total.update(extra)
                torn = man is not None and not finished
                if not ended and not torn:  # an unfinished run may end in a torn write; anything else is damage
                    n = reader.count
                    with naming(path):
                        raise FormatError(
                            f"truncated tail: {tail} bytes after the last whole {size}-byte record",
                            index=n,
                            offset=n * size,
                        )
    except OSError as exc:
        raise DatabaseError(f"{path}: {exc.strerror}") from None
    value = total.value
    res = DatabaseStats(str(path), name, count, format_checksum(value), man, finished, statistics=st)
    res.running = man is not None and not finished and is_running(path)
    if man is not None and finished:
        assert man.checksum is not None  # a finished manifest always has one (validated)
        res.checksum_matches = matches(value, man.checksum)
    return res


def range_statistics(
    path: str | os.PathLike[str],
    start: int = 0,
    stop: int | None = None,
    *,
    par_sample: int | None = None,
    chunk: int = CHUNK,
    progress: Progress | None = None,
) -> Statistics:
    """The :class:`Statistics` of records ``start .. stop`` of a ZRD or ZDD file (a shard of it, read by position).

    What a worker of a cluster computes for its part of a large database on
    shared storage: :func:`merge` of the parts of a split of the file equals
    ``stats(path).statistics``, byte for byte in ``to_dict()``.  ``stop``
    (default: the end) is clipped to the file's whole records; records
    after a null record are not read.

    Examples
    --------
    >>> parts = [range_statistics("big.zrd", a, a + 10**7) for a in range(0, 10**8, 10**7)]  # doctest: +SKIP
    >>> merge(parts).to_dict() == stats("big.zrd").statistics.to_dict()  # doctest: +SKIP
    True
    """
    path = Path(path)
    start = whole(start, "start", 0)
    chunk = whole(chunk, "chunk", 1)
    name = files.guess_format(path)
    if name not in ("zrd", "zdd"):
        raise DatabaseError(f"{path}: statistics of a range read .zrd or .zdd files (records with DD results)")
    fmt = registry.get(name)
    size = files.RECORD_SIZES[name]
    st = Statistics(par_sample=optional_whole(par_sample, "par_sample", 0))
    try:
        with files.RecordReader(path, size) as reader:
            end_at = reader.count if stop is None else min(whole(stop, "stop", 0), reader.count)
            for a in range(start, end_at, chunk):
                part = reader.read(a, min(a + chunk, end_at))
                end = end_of_list(part)
                recs = part[:end]
                with naming(path):
                    fmt.validate(recs, a, "raise")
                st.records += end
                st.add(recs[:, size - zdd.RECORD_SIZE :], recs)
                if progress is not None:
                    progress(end)
                if end < part.shape[0]:
                    break
    except OSError as exc:
        raise DatabaseError(f"{path}: {exc.strerror}") from None
    return st


def _sacrifices(tables: NDArray[np.uint8], dealers: NDArray[np.integer]) -> NDArray[np.bool_]:
    """``(k, 4)``: whether par of ``tables[i]`` (``dealers[i]`` dealing) is a doubled sacrifice, by vulnerability.

    DDS's ``DealerPar`` (:func:`ddsbind.optimum.sacrifice_flags`): a par
    contract that goes down, which par only allows doubled.  Vulnerability
    in DDS's codes (none, both, NS, EW).
    """
    from ddsbind.optimum import sacrifice_flags

    return np.stack([sacrifice_flags(tables, dealers, int(vul)) for vul in Vulnerability], axis=1)


def stats_of(parts: Sequence[DatabaseStats]) -> Statistics | None:
    """The merged statistics of several files' reports (None when none has results)."""
    found = [p.statistics for p in parts if p.statistics is not None]
    return merge(found) if found else None
