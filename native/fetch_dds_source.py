#!/usr/bin/env python3
"""Fetch DDS's upstream source release (Debian's ``dds`` source package) into a cache.

The release (``dds_2.9.0.orig.tar.gz``) holds DDS's ``src/``, ``include/``,
``examples/`` and its reference hands ``hands/list*.txt`` with known answers,
which the test suite checks ddsbind against and ``make test-source`` compiles.

How, without writing any package mirror into the project or touching a system
file:

1. Read the machine's own apt sources (``/etc/apt/sources.list`` and
   ``/etc/apt/sources.list.d/*.list``/``*.sources``) and keep the Debian
   entries: those whose suite is this release's codename or one of its
   ``codename-*`` suites (``bookworm``, ``bookworm-updates``,
   ``bookworm-security``).  Write each again as a ``deb-src`` entry into a
   private apt directory inside the cache.
2. ``apt-get update`` with that private configuration (its own lists, its
   own lock), then ``apt-get source --print-uris dds`` for the files and
   their hashes.
3. Download only the ``.dsc`` and the upstream ``.orig.tar.*`` with apt's own
   downloader (``apt-helper download-file``, which checks each hash), check
   the tarball's SHA-256 against the ``.dsc`` again, and unpack it.  The
   Debian patch tarball is not needed (and is not always served).

Idempotent: with the tree already unpacked it prints nothing and exits 0.
Exit status 1 (with one line on stderr) when the source cannot be had, for
example without network; the test suite then skips the known-answer tests.

Usage: ``python3 native/fetch_dds_source.py [CACHE_DIR]`` (default
``.cache/dds`` in the repository).  The tree is then ``CACHE_DIR/source``
(a link to the unpacked ``dds-<version>`` folder).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "dds"
APT_SOURCES = Path("/etc/apt")
APT_HELPER = Path("/usr/lib/apt/apt-helper")


def codename() -> str:
    """This Debian release's codename, from ``/etc/os-release``."""
    text = Path("/etc/os-release").read_text()
    m = re.search(r"^VERSION_CODENAME=\"?([a-z]+)\"?$", text, re.M)
    if not m:
        raise SystemExit("fetch_dds_source: /etc/os-release names no VERSION_CODENAME; not a Debian release?")
    return m.group(1)


def _is_debian_suite(suite: str, name: str) -> bool:
    return suite == name or suite.startswith(name + "-")


def _deb822_stanzas(text: str) -> list[dict[str, str]]:
    stanzas: list[dict[str, str]] = []
    current: dict[str, str] = {}
    key = None
    for line in [*text.splitlines(), ""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if current:
                stanzas.append(current)
            current, key = {}, None
        elif line[0] in " \t" and key:
            current[key] += "\n " + line.strip()
        elif ":" in line:
            key, _, value = line.partition(":")
            key = key.strip()
            current[key] = value.strip()
    return stanzas


def source_entries(name: str, root: Path = APT_SOURCES) -> list[str]:
    """deb-src entries (deb822 text) for the machine's Debian ``deb`` sources."""
    out = []
    files = [root / "sources.list", *sorted((root / "sources.list.d").glob("*.list"))]
    for f in files:
        if not f.is_file():
            continue
        for line in f.read_text(errors="replace").splitlines():
            words = line.split("#", 1)[0].split()
            if not words or words[0] != "deb":
                continue
            options = []
            if words[1].startswith("["):
                while not words[1].endswith("]"):
                    options.append(words.pop(1))
                options.append(words.pop(1))
            uri, suite, *components = words[1:]
            if not _is_debian_suite(suite, name):
                continue
            extra = ""
            opts = " ".join(options).strip("[] ")
            m = re.search(r"signed-by=(\S+)", opts)
            if m:
                extra = f"Signed-By: {m.group(1)}\n"
            out.append(f"Types: deb-src\nURIs: {uri}\nSuites: {suite}\nComponents: {' '.join(components)}\n{extra}")
    for f in sorted((root / "sources.list.d").glob("*.sources")):
        for st in _deb822_stanzas(f.read_text(errors="replace")):
            if "deb" not in st.get("Types", "").split() or st.get("Enabled", "yes").lower() == "no":
                continue
            suites = [s for s in st.get("Suites", "").split() if _is_debian_suite(s, name)]
            if not suites:
                continue
            fields = dict(st, Types="deb-src", Suites=" ".join(suites))
            out.append("".join(f"{k}: {v}\n" for k, v in fields.items()))
    return out


def _apt_options(private: Path) -> list[str]:
    return [
        "-o", f"Dir::Etc::SourceList={private / 'sources.list'}",
        "-o", f"Dir::Etc::SourceParts={private / 'sources.list.d'}",
        "-o", f"Dir::State::Lists={private / 'lists'}",
        "-o", f"Dir::Cache={private / 'cache'}",
        "-o", "APT::Sandbox::User=root",
        "-o", "Debug::NoLocking=1",
    ]  # fmt: skip


def _command_name(cmd: list[str]) -> str:
    """``apt-get update`` for ``apt-get -o X=Y ... -qq update``: the program and its first non-option word."""
    words = [w for prev, w in itertools.pairwise(cmd) if not w.startswith("-") and prev != "-o"]
    return " ".join([Path(cmd[0]).name, *words[:1]])


def _run(cmd: list[str], **kw: object) -> str:
    res = subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    if res.returncode != 0:
        tail = (res.stderr or res.stdout).strip().splitlines()[-3:]
        raise SystemExit(f"fetch_dds_source: {_command_name(cmd)} failed: {' | '.join(tail)}")
    return str(res.stdout)


def _update(opts: list[str]) -> str:
    """``apt-get update`` into the private lists; the first download failure it warned of, or ``""``.

    apt exits 0 when it cannot reach the archive (it only warns "Failed to
    fetch"), and the next step then fails with a misleading "You must put
    some 'deb-src' URIs" error: the warning is the real cause.
    """
    res = subprocess.run(["apt-get", *opts, "-qq", "update"], capture_output=True, text=True, check=False)
    lines = (res.stderr + res.stdout).splitlines()
    if res.returncode != 0:
        raise SystemExit(f"fetch_dds_source: apt-get update failed: {' | '.join(lines[-3:])}")
    return next((line.strip() for line in lines if "Failed to fetch" in line), "")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _dsc_sha256(dsc: Path) -> dict[str, str]:
    text = dsc.read_text(errors="replace")
    m = re.search(r"^Checksums-Sha256:\s*\n((?:[ \t].*\n?)+)", text, re.M)
    if not m:
        raise SystemExit(f"fetch_dds_source: {dsc.name} has no Checksums-Sha256 field")
    out = {}
    for line in m.group(1).splitlines():
        digest, _size, name = line.split()
        out[name] = digest
    return out


def _refuse(tar_name: str, member: str, why: str) -> SystemExit:
    return SystemExit(f"fetch_dds_source: {tar_name} member {member!r} {why}; nothing unpacked (not a network problem)")


def _checked_members(tar: tarfile.TarFile, root: Path, tar_name: str) -> list[tarfile.TarInfo]:
    """The members, each checked as ``filter="data"`` checks them, with owner and mode made safe.

    Regular files, folders and links only; every path and link target stays
    under ``root``; no set-uid/set-gid/sticky bits or group/other write bits;
    the owner is whoever unpacks.
    """
    members = []
    for m in tar.getmembers():
        if not (m.isfile() or m.isdir() or m.issym() or m.islnk()):
            raise _refuse(tar_name, m.name, "is neither a file, a folder nor a link")
        target = (root / m.name).resolve()
        if Path(m.name).is_absolute() or (target != root and root not in target.parents):
            raise _refuse(tar_name, m.name, "would be written outside the folder")
        if m.issym() or m.islnk():
            base = target.parent if m.issym() else root
            dest = (base / m.linkname).resolve()
            if Path(m.linkname).is_absolute() or (dest != root and root not in dest.parents):
                raise _refuse(tar_name, m.name, f"links outside the folder ({m.linkname})")
        m.mode = (m.mode & 0o755) | (0o700 if m.isdir() else 0o600)
        m.uid, m.gid, m.uname, m.gname = os.getuid(), os.getgid(), "", ""
        members.append(m)
    return members


def unpack(orig: Path, dest: Path) -> None:
    """Unpack the tarball ``orig`` into the folder ``dest``, refusing members that would escape it.

    ``TarFile.extractall(filter="data")`` came with Python 3.12 and the
    security releases 3.11.4, 3.10.12, ...; Debian 12's own Python is 3.11.2,
    where the keyword is a ``TypeError``.  There the same checks are made by
    :func:`_checked_members` before a plain ``extractall``.  A tarball that
    cannot be read is one ``SystemExit`` line naming it, never blamed on the
    network: by then the download has succeeded and its hash matched.
    """
    root = dest.resolve()
    try:
        with tarfile.open(orig) as tar:
            if hasattr(tarfile, "data_filter"):
                tar.extractall(root, filter="data")
            else:
                tar.extractall(root, members=_checked_members(tar, root, orig.name))
    except (tarfile.TarError, OSError, EOFError) as exc:
        why = " ".join(str(exc).split())  # tarfile.open's message lists each method tried, one per line
        raise SystemExit(f"fetch_dds_source: could not unpack {orig.name}: {why} (not a network problem)") from None


def fetch(cache: Path) -> Path:
    """Download and unpack the upstream tree into ``cache``; return its path."""
    if (cache / "source" / "hands" / "list100.txt").is_file():
        return (cache / "source").resolve()
    if not APT_HELPER.exists():
        raise SystemExit("fetch_dds_source: apt is not installed (needs /usr/lib/apt/apt-helper)")
    private = cache / "apt"
    parts = private / "sources.list.d"
    for d in (parts, private / "lists" / "partial", private / "cache" / "archives" / "partial"):
        d.mkdir(parents=True, exist_ok=True)
    (private / "sources.list").write_text("")
    entries = source_entries(codename())
    if not entries:
        raise SystemExit("fetch_dds_source: no Debian entries in the machine's apt sources")
    (parts / "debian-src.sources").write_text("\n".join(entries))
    opts = _apt_options(private)
    failed = _update(opts)
    try:
        listing = _run(["apt-get", *opts, "source", "--print-uris", PACKAGE])
    except SystemExit:
        if failed:
            raise SystemExit(
                f"fetch_dds_source: apt could not reach Debian's archive (no network?): {failed}"
            ) from None
        raise
    uris = re.findall(r"^'(\S+)' (\S+) (\d+) (\S+)$", listing, re.M)
    wanted = [u for u in uris if u[1].endswith(".dsc") or ".orig.tar." in u[1]]
    if len(wanted) != 2:
        raise SystemExit(f"fetch_dds_source: expected a .dsc and an .orig tarball, apt offers {[u[1] for u in uris]}")
    for uri, name, _size, digest in wanted:
        target = cache / name
        if not target.exists():
            _run([str(APT_HELPER), *opts, "download-file", uri, str(target), digest])
    dsc = next(cache / u[1] for u in wanted if u[1].endswith(".dsc"))
    orig = next(cache / u[1] for u in wanted if ".orig.tar." in u[1])
    expected = _dsc_sha256(dsc).get(orig.name)
    if expected != _sha256(orig):
        orig.unlink()
        raise SystemExit(f"fetch_dds_source: {orig.name} does not match the SHA-256 in {dsc.name}; removed")
    staging = cache / "unpack.tmp"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    unpack(orig, staging)
    (top,) = list(staging.iterdir())
    if not (top / "hands" / "list100.txt").is_file() or not (top / "src").is_dir():
        raise SystemExit(f"fetch_dds_source: {orig.name} holds no hands/ and src/")
    final = cache / top.name
    shutil.rmtree(final, ignore_errors=True)
    top.rename(final)
    staging.rmdir()
    link = cache / "source"
    link.unlink(missing_ok=True)
    link.symlink_to(final.name)
    return final


def main() -> None:
    cache = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / ".cache" / "dds"
    cache.mkdir(parents=True, exist_ok=True)
    cached = (cache / "source" / "hands" / "list100.txt").is_file()
    try:
        tree = fetch(cache.resolve())
    except Exception as exc:  # one line for the build's message, never a traceback blamed on the network
        raise SystemExit(
            f"fetch_dds_source: {type(exc).__name__}: {exc} (a fault of this script, not of the network)"
        ) from None
    if not cached:
        print(f"DDS source release unpacked in {tree} (link: {cache / 'source'})", file=sys.stderr)


if __name__ == "__main__":
    main()
