"""What the tests share, in one home (fixtures live in ``tests/conftest.py``): where things are and child
Pythons that run the build under test; DDS's reference hands and DDS asked from C; the format spec's worked
records; the CLI in this process, random end positions, deals with cards played, game records of reference
hands; Debian dealer's output read; the database tests' reference database.

Test modules import these as ``from tests.support import ...`` (the tree's root is on ``sys.path`` under
pytest's default import mode and under ``make test-source``'s ``--import-mode=append``).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner, Result

import ddsbind
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.formats.ddsref import ReferenceHand
from ddsbind.record import GameRecord
from tests import oracles

# -- where things are; child Pythons -------------------------------------------------------------------------

#: The checkout the tests run from (the folder holding ``tests/``).
REPO = Path(__file__).resolve().parents[1]

#: The directory this test process imported ``ddsbind`` from: the checkout
#: for an editable or in-place build (``make test``), the environment's
#: site-packages for a regular install (``make test-source``, whose checkout
#: holds no compiled module).
DDSBIND_HOME = Path(ddsbind.__file__).resolve().parents[1]


def child_env(*, script_dir: bool = False) -> dict[str, str]:
    """The environment for a child Python that must import the ddsbind under test, never another one.

    ``PYTHONPATH`` starts with :data:`DDSBIND_HOME`, and ``PYTHONSAFEPATH=1``
    keeps the working directory off the child's path, so ``python -c`` or
    ``python -m`` run in the checkout does not pick up the checkout's
    uncompiled ``ddsbind/``.  ``script_dir=True`` is for ``python
    path/to/script.py`` whose script imports a module beside it
    (``benchmarks/_common.py``): the script's own directory stays first on the
    child's path (it must hold no ``ddsbind/``).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(DDSBIND_HOME), *filter(None, [os.environ.get("PYTHONPATH")])])
    if script_dir:
        env.pop("PYTHONSAFEPATH", None)
    else:
        env["PYTHONSAFEPATH"] = "1"
    return env


def run_script(script: Path, *args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """``python SCRIPT ARGS`` under the build under test (text output captured; ``kwargs`` go to ``subprocess.run``)."""
    if (script.parent / "ddsbind").exists():
        raise AssertionError(f"{script.parent} holds a ddsbind/ that would shadow the build under test")
    options: dict = {"capture_output": True, "text": True, "check": False, "env": child_env(script_dir=True)}
    options.update(kwargs)
    return subprocess.run([sys.executable, str(script), *map(str, args)], **options)


def python_c(code: str, cwd: Path = REPO, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` (dedented) in a child Python that imports the build under test; output captured as text."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd, timeout=timeout
    )


def python_m(*args: object, cwd: Path = REPO, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """``python -m ARGS`` (``"ddsbind", "table", ...``) in a child Python that imports the build under test.

    Output captured as text; the exit status is the caller's to check.
    """
    return subprocess.run(
        [sys.executable, "-m", *map(str, args)],
        cwd=cwd,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- DDS's reference hands; DDS asked from C; DDS's threads --------------------------------------------------

#: Where DDS's reference hands are (None when missing): ``DDSBIND_REFERENCE``,
#: else ``$DDS_SOURCE_DIR/hands``, else the release ``make fetch-dds`` unpacks
#: into ``.cache/dds``, else the developers' ``shared/`` beside the checkout.
REFERENCE = oracles.find("dds-hands")


def reference_file(name: str) -> Path:
    """The path of DDS's reference file ``name``; fails the test (an oracle is never skipped) when none was found."""
    path = oracles.require("dds-hands") / name
    if not path.is_file():
        pytest.fail(f"{path} is missing from the reference hands in {REFERENCE}")
    return path


def built_once(tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], object]) -> Path:
    """A folder ``build`` fills once for the whole run, shared by every pytest-xdist worker.

    The first worker to ask builds it while the others wait on a file lock
    (``fcntl.flock``), then all read the same folder: the wheel and the docs
    site are built once, whichever workers their tests land on.  A build
    that fails leaves nothing behind, so the next asker builds (and fails) again.
    """
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    root = tmp_path_factory.getbasetemp().parent / f"shared-{run}" if run else tmp_path_factory.getbasetemp() / "shared"
    root.mkdir(exist_ok=True)
    folder, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            build(folder)
            done.touch()
    return folder


#: The hands of list1000 whose TABLE lines the pool checks; the batch functions check the rest, so the
#: suite solves each of the 1000 tables once (tests/core/test_pool.py and test_reference.py).
LIST1000_POOL_TABLES = range(500, 1000)


def threads_dds_configures(cores: int) -> int | None:
    """How many threads DDS 2.9's ``SetResources`` runs on this machine with ``cores`` cores; None when unsure.

    Derived by hand from DDS's ``Init.cpp``: every core gets a thread as long
    as 70% of the free memory (``MemAvailable``, which ddsbind's probe fix
    feeds DDS) holds a small thread's 30 MB per core; with less, DDS runs
    fewer threads.  Free memory moves while the suite runs, so within a factor
    of two of that limit the answer is None (any count from 1 to ``cores``).
    """
    meminfo = Path("/proc/meminfo").read_text().splitlines()
    kb = next(int(line.split()[1]) for line in meminfo if line.startswith("MemAvailable:"))
    usable_mb = 0.70 * kb / 1024
    if usable_mb >= 2 * 30 * cores:
        return cores
    return None


def ask_dds(oracle: Path, requests: list[str], cwd: Path) -> list[list[str]]:
    """DDS's answers (each line's words) to ``requests`` (lines as ``tests/dds_solve_oracle.c`` reads them).

    ``cwd``: DDS writes a dump.txt there for each request it refuses.
    """
    text = "".join(r + "\n" for r in requests)
    proc = subprocess.run([str(oracle)], input=text, capture_output=True, text=True, timeout=900, cwd=cwd, check=True)
    answers = [line.split() for line in proc.stdout.splitlines()]
    assert len(answers) == len(requests), proc.stderr
    return answers


# -- the format spec's worked records ------------------------------------------------------------------------

# Provenance: specs/formats.md, "ZRD" (two records of Pavlicek's library).
RECORD0 = bytes.fromhex("72527a0ae17ae4f952e041fc7c494949492b2a39396767")
RECORD1 = bytes.fromhex("affe56236997458c20707d20be3737a3a37575393985 85".replace(" ", ""))
DEAL0 = "N:J873.J42.Q65.KT2 AT652.A976.AJ82.- Q4.85.KT9.A87643 K9.KQT3.743.QJ95"
DEAL1 = "N:543.J86532.K.AKT QJT6.KT94.96.752 AK9872.7.J2.QJ43 -.AQ.AQT87543.986"
# DDS resTable of record 0 (rows S H D C NT, columns N E S W), from the spec.
TABLE0 = np.array([[4, 9, 4, 9], [2, 10, 2, 11], [3, 9, 3, 9], [6, 7, 6, 7], [4, 9, 4, 9]])


# -- the CLI; deals and game records -------------------------------------------------------------------------


def cli(*args: object, input: str | None = None) -> Result:
    """``ddsbind ARGS`` in this process, through click's CliRunner (arguments as ``str``; ``input``: stdin)."""
    from ddsbind.cli import main

    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def ending(rng: np.random.Generator, cards: int) -> Deal:
    """A random end position: ``cards`` cards a hand from a shuffled pack (cheap to solve)."""
    pack = rng.permutation(52)[: 4 * cards]
    owners = np.full(52, -1, dtype=np.int8)
    owners[pack] = np.repeat(np.arange(4, dtype=np.int8), cards)
    return Deal.from_owners(owners)


def without(pbn: str, *cards: str) -> Deal:
    """The deal ``pbn`` with ``cards`` (``"SQ"``, ...) taken from the hands holding them (as played)."""
    d = Deal.from_pbn(pbn)
    masks = d.remain_cards.astype(int)
    for c in cards:
        card = Card.parse(c)
        seat = d.holder(card)
        assert seat is not None, c
        masks[seat, card.suit] &= ~(1 << card.rank)
    return Deal(masks)


def reference_record(h: ReferenceHand, board: int = 1) -> GameRecord:
    """A game record of DDS reference hand ``h`` as board ``board`` (its dealer and vulnerability): its trump
    at the 1 level, declared by the opening leader's RHO, played as its PLAY line, its TRACE's last result."""
    declarer = Seat((h.first + 3) % 4)
    strain = Strain(h.trump).symbol
    return GameRecord(
        deal=h.deal,
        dealer=Seat((board - 1) % 4),
        vulnerable=("None", "NS", "EW", "All", "NS", "EW", "All", "None")[(board - 1) % 8],
        board=board,
        auction=["Pass"] * ((declarer - (board - 1)) % 4) + [f"1{strain}", "Pass", "Pass", "Pass"],
        contract=f"1{strain}",
        declarer=declarer,
        result=h.trace[-1],
        play=[Card.parse(h.play[i : i + 2]) for i in range(0, len(h.play), 2)],
    )


# -- Debian dealer's output; dealer scripts ------------------------------------------------------------------

#: Debian dealer's ``printoneline`` line: ``n S.H.D.C e S.H.D.C s S.H.D.C w S.H.D.C`` (ranks AKQJT98765432).
ONELINE = re.compile(r"^n (\S*) e (\S*) s (\S*) w (\S*)", re.M)


def owners_from_oneline(line: str) -> np.ndarray:
    """The owner row (52 seats, 0=N .. 3=W, cards suit-major from the deuce) of one ``printoneline`` line."""
    return owners_from_onelines([line])[0]


#: The rank of each rank letter's byte (A=0 .. 2=12), -1 for any other byte.
_RANK_OF_BYTE = np.full(256, -1, dtype=np.int16)
_RANK_OF_BYTE[np.frombuffer(b"AKQJT98765432", np.uint8)] = np.arange(13)


def owners_from_onelines(lines: list[str]) -> np.ndarray:
    """Owner rows ``(n, 52)`` of ``printoneline`` lines (each ``n S.H.D.C e ... s ... w ...``, words after
    the four hands ignored), read all at once: dealer's 100,000-deal outputs in a fraction of a second."""
    hands: list[str] = []
    for line in lines:
        words = line.split()
        assert words[0:8:2] == list("nesw"), line
        hands += words[1:8:2]
    text = np.frombuffer("|".join([*hands, ""]).encode(), np.uint8)  # each hand ends in "|"
    sep, dot = text == ord("|"), text == ord(".")
    hand = np.cumsum(sep) - sep  # of each byte: its hand, 4 * deal + seat
    dots = np.cumsum(dot)
    suit = dots - np.concatenate([[0], dots[sep][:-1]])[hand]  # the dots before it in its own hand
    card = ~(sep | dot)
    rank = _RANK_OF_BYTE[text[card]]
    assert (rank >= 0).all(), "a byte that is no rank letter"
    assert (np.bincount(hand[dot], minlength=len(hands)) == 3).all(), "a hand without four suits"
    owners = np.full((len(hands) // 4, 52), -1, dtype=np.int8)
    owners[hand[card] // 4, 13 * suit[card] + rank] = hand[card] % 4
    assert card.sum() == owners.size and (owners >= 0).all(), "a card missing or dealt twice"
    return owners


def oneline_deals(text: str) -> np.ndarray:
    """Owner rows ``(n, 52)`` of every ``printoneline`` line of dealer's output ``text``."""
    return owners_from_onelines([m.group(0) for m in ONELINE.finditer(text)])


def oneline_hands(text: str) -> list[list[str]]:
    """Each ``printoneline`` deal of ``text`` as its four dotted hands, N E S W."""
    return [list(hands) for hands in ONELINE.findall(text)]


def oneline_pbns(text: str) -> list[str]:
    """The deals of dealer's ``printoneline`` lines as PBN strings from North."""
    return ["N:" + " ".join(hands) for hands in oneline_hands(text)]


def script_file(tmp_path: Path, text: str, name: str = "s.dl") -> str:
    """A dealer script ``text`` written (UTF-8) as ``tmp_path/name``; its path."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error(result: Result, pattern: str) -> None:
    """The CLI ``result`` failed (exit 1) with one ``ddsbind: error:`` line on stderr matching ``pattern``."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ddsbind: error: "), result.stderr
    assert re.search(pattern, lines[0]), lines[0]


def dealer_summary(text: str) -> tuple[int, int]:
    """(generated, produced) from dealer's summary lines (which may follow a printed hand on its line)."""
    generated = re.search(r"Generated (\d+) hands", text)
    produced = re.search(r"Produced (\d+) hands", text)
    assert generated and produced, text
    return int(generated.group(1)), int(produced.group(1))


# -- the database tests' reference database ------------------------------------------------------------------

#: The database tests' reference database: COUNT deals of SEED, written REC bytes a record (ZRD).
COUNT = 24
SEED = 11
REC = 23


def make_ref(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted single-process ZRD database of COUNT deals of SEED (fixture ``ref`` makes it once a module)."""
    from ddsbind import database as db

    out = tmp_path_factory.mktemp("ref") / "ref.zrd"
    db.generate(out, COUNT, SEED)
    return out


def copy_db(src: Path, dst: Path) -> Path:
    """A copy of database ``src`` and its manifest as ``dst``."""
    from ddsbind import database as db

    dst.write_bytes(src.read_bytes())
    db.manifest_path(dst).write_text(db.manifest_path(src).read_text())
    return dst


def wait_for(pred: Callable[[], bool], proc: subprocess.Popen[bytes] | None = None, timeout: float = 300.0) -> None:
    """Poll ``pred`` until true; fail when ``proc`` exits first, or after ``timeout`` seconds (not a speed bound)."""
    end = time.monotonic() + timeout
    while not pred():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"generate exited ({proc.returncode}) before the condition held")
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)
