"""Every CLI option the other CLI tests left untested, each against an oracle outside ddsbind.

Oracles: Debian's ``dealer`` (the same seed deals the same hands, prints the
same lines), DDS called from C (``tests/dds_solve_oracle.c``: SolveBoardPBN
and GetDDSInfo), DDS's reference hands (TABLE, PAR, PAR2, FUT and TRACE
lines of list100.txt), the Laws' scoring table written out by hand, and
corruptions whose record and byte offset the test itself chose.
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from ddsbind.formats import decode_zrd, encode_zbd, encode_zrd
from tests.support import ask_dds, cli, dealer_summary, oneline_pbns, python_m

RANKS = "23456789TJQKA"
SEATS = "NESW"
SCRIPT = "generate 100000\nproduce 8\ncondition hcp(north) + hcp(south) >= 24\naction printoneline\n"


def run(*args: object, ok: bool = True):
    """``ddsbind ARGS`` in this process; the result (exit code 0 required unless ``ok=False``)."""
    r = cli(*args)
    if ok:
        assert r.exit_code == 0, r.output
    return r


def before_time(text: str) -> str:
    """dealer's output up to its "Time needed" line (the one line that differs from run to run)."""
    return text.split("Time needed")[0]


def debian_dealer_output(dealer: Path, script: Path, *args: object) -> str:
    return subprocess.run(
        [str(dealer), *map(str, args), str(script)], capture_output=True, text=True, check=True, timeout=300
    ).stdout


def owner_of(pbn: str) -> dict[str, int]:
    """Card ("SA") -> seat (0=N .. 3=W) of a full PBN deal."""
    first, hands = pbn[0], pbn[2:].split()
    out = {}
    for i, hand in enumerate(hands):
        seat = (SEATS.index(first) + i) % 4
        for suit, ranks in zip("SHDC", hand.split("."), strict=True):
            for r in ranks:
                out[suit + r] = seat
    return out


def dds_best(oracle: Path, cwd: Path, questions: list[tuple[str, int, int]], solutions: int = 1) -> list[list[str]]:
    """DDS's SolveBoardPBN answer (words of the oracle's line) for each (PBN, trump, leader), target -1, mode 1."""
    lines = [f"{trump} {first} -1 {solutions} 1 0 0 0 0 0 0 0 {pbn}" for pbn, trump, first in questions]
    answers = ask_dds(oracle, lines, cwd)
    assert all(a[0] == "ok" for a in answers), answers
    return answers


def laws_score_3nt(tricks: int, vulnerable: bool) -> int:
    """Declarer's score for 3NT undoubled, from the Laws' table: 100 for three NT tricks, game bonus 300 (500
    vulnerable), 30 an overtrick; 50 (100 vulnerable) an undertrick."""
    if tricks >= 9:
        return 100 + (500 if vulnerable else 300) + 30 * (tricks - 9)
    return -(100 if vulnerable else 50) * (9 - tricks)


# -- ddsbind dealer -----------------------------------------------------------------------


@pytest.fixture()
def script(tmp_path) -> Path:
    path = tmp_path / "strong.dl"
    path.write_text(SCRIPT)
    return path


def hcp(hand: str) -> int:
    """Milton Work points of a ``S.H.D.C`` holding, counted by hand: A 4, K 3, Q 2, J 1."""
    return sum({"A": 4, "K": 3, "Q": 2, "J": 1}.get(c, 0) for c in hand)


def strong_ns(pbn: str) -> bool:
    """SCRIPT's condition, hcp(north) + hcp(south) >= 24, evaluated by hand on a PBN deal from North."""
    hands = pbn[2:].split()
    return hcp(hands[0]) + hcp(hands[2]) >= 24


def test_dealer_produce_stops_at_p_deals_that_meet_the_condition(script):
    """-p overrides the script's produce: exactly that many deals, each meeting the condition (counted by hand),
    summarised in dealer's words."""
    out = run("dealer", script, "-s", 11, "-p", 5).output
    deals = oneline_pbns(out)
    assert len(deals) == 5 and all(strong_ns(d) for d in deals)
    generated, produced = dealer_summary(out)
    assert produced == 5 and generated >= 5
    assert "Initial random seed 11" in out


def test_dealer_generate_stops_at_g_deals(debian_dealer, script):
    """-g overrides the script's generate: dealing stops after that many hands even short of -p, as Debian's
    dealer stops (its own summary says the same for the same limits)."""
    out = run("dealer", script, "-s", 11, "-g", 40, "-p", 30).output
    generated, produced = dealer_summary(out)
    assert generated == 40 and produced == len(oneline_pbns(out)) < 30
    assert all(strong_ns(d) for d in oneline_pbns(out))
    theirs = debian_dealer_output(debian_dealer, script, "-s", 11, "-g", 40, "-p", 30)
    assert dealer_summary(theirs)[0] == 40  # the flag means the same to Debian's dealer


def test_dealer_output_with_to_holds_the_printed_deals(script, tmp_path):
    """-o with --to writes the produced deals in the named format, whatever the file's extension: the deals the
    same run prints."""
    out = tmp_path / "deals.out"
    printed = oneline_pbns(run("dealer", script, "-s", 3, "-p", 4, "-o", out, "--to", "pbn").output)
    written = re.findall(r'^\[Deal "([^"]+)"\]', out.read_text(), re.M)
    assert len(printed) == 4
    assert [owner_of(d) for d in written] == [owner_of(d) for d in printed]


def test_dealer_to_refuses_an_unknown_format(script, tmp_path):
    """A misspelt --to is one error line naming it, not a traceback or a file in some other format."""
    r = run("dealer", script, "-s", 3, "-p", 1, "-o", tmp_path / "x.out", "--to", "pdn", ok=False)
    assert r.exit_code != 0 and "pdn" in r.output
    assert not (tmp_path / "x.out").exists()


def test_dealer_contract_vul_json_and_csv_as_dds_and_the_laws(dds_oracle, script, tmp_path):
    """--contract reports the trick distribution DDS gives for the deals dealt and, with --vulnerable, the Laws' scores
    for that vulnerability; --json (vulnerable) and --csv (not) say the same distribution."""
    common = ("dealer", script, "-s", 21, "-p", 6, "--contract", "3NS")
    as_json = run(*common, "--vulnerable", "all", "--json").output
    as_csv = run(*common, "--vulnerable", "none", "--csv").output
    printed = run("dealer", script, "-s", 21, "-p", 6).output  # the same seed's deals, as dealer prints them
    deals = oneline_pbns(printed)
    assert len(deals) == 6
    # 3NT by South: West leads; DDS's score is the defence's tricks.
    tricks = [13 - int(a[6]) for a in dds_best(dds_oracle, tmp_path, [(d, 4, 3) for d in deals])]
    want_hist = np.bincount(tricks, minlength=14).tolist()

    doc = json.loads(as_json)  # one document
    assert (doc["generated"], doc["produced"]) == dealer_summary(printed)
    (report,) = doc["contracts"]
    assert report["mean_score"] == pytest.approx(np.mean([laws_score_3nt(t, True) for t in tricks]), abs=0.005)
    assert str(want_hist).replace(" ", "") in json.dumps(report).replace(" ", "")

    (row,) = csv.DictReader(io.StringIO(as_csv))
    assert [int(row[f"tricks_{t}"]) for t in range(14)] == want_hist
    assert int(row["deals"]) == 6
    assert float(row["make"]) == pytest.approx(np.mean([t >= 9 for t in tricks]), abs=1e-6)
    assert float(row["mean_tricks"]) == pytest.approx(np.mean(tricks), abs=1e-4)
    assert float(row["mean_score"]) == pytest.approx(np.mean([laws_score_3nt(t, False) for t in tricks]), abs=0.005)


def test_dealer_lead_table_as_dds(dds_oracle, script, tmp_path):
    """--lead scores every card West could lead against 3NT by South as DDS does: how many deals held it, the
    declarer's mean tricks after it, and how often it sets the contract."""
    deals = oneline_pbns(run("dealer", script, "-s", 5, "-p", 5).output)
    per_card: dict[str, list[int]] = defaultdict(list)
    for answer in dds_best(dds_oracle, tmp_path, [(d, 4, 3) for d in deals], solutions=3):
        for i in range(int(answer[2])):
            suit, rank, equals, score = map(int, answer[3 + 4 * i : 7 + 4 * i])
            for r in [rank, *(r for r in range(2, 15) if equals >> r & 1)]:
                per_card["SHDC"[suit] + RANKS[r - 2]].append(13 - score)
    doc = json.loads(run("dealer", script, "-s", 5, "-p", 5, "--lead", "3NS", "--json").output)["lead"]
    assert doc["deals"] == 5
    got = {row["lead"]: row for row in doc["leads"]}
    assert set(got) == set(per_card)
    for card, tricks in per_card.items():
        assert got[card]["deals"] == len(tricks), card
        assert got[card]["mean_tricks"] == pytest.approx(np.mean(tricks), abs=1e-6), card
        assert got[card]["set"] == pytest.approx(np.mean([t < 9 for t in tricks]), abs=1e-6), card


@pytest.mark.slow
def test_dealer_workers_deal_the_seeds_deals(script):
    """--workers deals on a real local Dask cluster (one process per worker) and prints exactly what one thread
    prints for the seed, every deal meeting the condition: a cluster changes the speed, never the deals."""
    alone = run("dealer", script, "-s", 17, "-p", 6, "--threads", 1).output
    ours = run("dealer", script, "-s", 17, "-p", 6, "--workers", 2).output
    assert before_time(ours) == before_time(alone)
    assert len(oneline_pbns(ours)) == 6 and all(strong_ns(d) for d in oneline_pbns(ours))


# -- database commands ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_db(tmp_path_factory) -> Path:
    """A 4-deal ZRD database made by ``ddsbind generate`` (with its manifest)."""
    path = tmp_path_factory.mktemp("db") / "small.zrd"
    run("generate", path, "--count", 4, "--seed", 9)
    return path


def test_verify_json_names_the_corrupted_record_and_byte(small_db, tmp_path):
    """verify --json says ok for a sound database and, for one whose record 2 has a flipped table byte, that
    record and that byte's offset (exit 1): a script can find the damage."""
    good = json.loads(run("verify", small_db, "--sample", 4, "--json").output)
    assert (good["ok"], good["count"], good["index"], good["error"]) == (True, 4, None, None)
    bad = tmp_path / "bad.zrd"
    data = bytearray(small_db.read_bytes())
    data[2 * 23 + 15] ^= 0x11  # record 2, a byte of its DD table (ZRD: 13 deal bytes, then the table)
    bad.write_bytes(bytes(data))
    bad.with_name("bad.zrd.json").write_text(small_db.with_name("small.zrd.json").read_text())
    r = run("verify", bad, "--sample", 4, "--json", ok=False)
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert (report["ok"], report["index"], report["offset"]) == (False, 2, 2 * 23 + 15)


def test_stats_json_counts_dds_reference_tables(list100, tmp_path):
    """stats --json counts each strain's and declarer's tricks exactly as DDS's TABLE lines give them."""
    tables = np.stack([h.table for h in list100]).astype(np.uint8)
    owners = np.stack([h.deal.owners() for h in list100])
    path = tmp_path / "ref.zrd"
    path.write_bytes(encode_zrd(owners, tables).tobytes())
    doc = json.loads(run("stats", path, "--json", "--par-sample", 0).output)
    assert doc["count"] == 100
    want = [[np.bincount(tables[:, s, d], minlength=14).tolist() for d in range(4)] for s in range(5)]
    assert doc["statistics"]["tricks"] == want


def test_convert_threads_solve_as_dds_tables(list100, tmp_path):
    """convert --solve --threads N fills in DDS's TABLE lines whatever N, byte for byte the same file."""
    hands = list100[:6]
    src = tmp_path / "deals.zbd"
    src.write_bytes(encode_zbd(np.stack([h.deal.owners() for h in hands])).tobytes())
    outs = []
    for threads in (1, 2):
        dst = tmp_path / f"solved{threads}.zrd"
        run("convert", src, dst, "--solve", "--threads", threads)
        outs.append(dst.read_bytes())
    assert outs[0] == outs[1]
    _, tables = decode_zrd(outs[0])
    assert tables.tolist() == [h.table.tolist() for h in hands]


# -- single deals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("vul", "code", "word"), [("none", 0, "None"), ("both", 1, "All"), ("ns", 2, "NS"), ("ew", 3, "EW")]
)
def test_table_vul_and_dealer_par_as_dds_reference(list100, vul, code, word):
    """table --vulnerable prints DDS's PAR line for that vulnerability and --dealer its PAR2 line: the par a user reads
    is the one DDS's own reference lists."""
    h = next(h for h in list100 if h.vul == code)
    dealer = SEATS[h.dealer]
    out = run("table", h.pbn, "--vulnerable", vul, "--dealer", dealer).output
    assert f"Par ({word}): {h.par[0]}  {h.par[2]}\n" in out, out
    m = re.search(rf"^Par with {dealer} dealing: ([+-]?\d+)  (.+)$", out, re.M)
    assert m, out
    assert int(m.group(1)) == int(h.dealer_par[0])
    assert m.group(2).split() == list(h.dealer_par[1:])


def test_analyse_from_reads_a_file_whose_name_does_not_tell(list100, tmp_path):
    """analyse --from pbn reads a PBN game under any name, with DDS's answers: the DD result of its FUT line and
    the trick its TRACE line says East's lead cost, with the FUT line's best cards as better."""
    h = list100[1]  # East leads against NT: DDS's FUT and TRACE lines
    assert (h.trump, h.first) == (4, 1)
    trick = [h.play[i : i + 2] for i in range(0, 8, 2)]
    owners = owner_of(h.pbn)
    by_seat = sorted(trick, key=lambda c: (owners[c] - h.first) % 4)
    game = tmp_path / "game.txt"
    game.write_text(
        f'[Board "1"]\n[Dealer "{SEATS[h.dealer]}"]\n[Vulnerable "NS"]\n[Deal "{h.pbn}"]\n'
        f'[Declarer "N"]\n[Contract "3NT"]\n[Result "9"]\n[Play "E"]\n{" ".join(by_seat)}\n*\n'
    )
    unknown = tmp_path / "notes.txt"
    unknown.write_text("Board 1: a note in words\n")
    refused = run("analyse", unknown, ok=False)
    assert refused.exit_code == 1 and "cannot tell the input format" in refused.output and "--from" in refused.output
    assert "pbn, gib, dds or lin" in refused.output  # the formats in words, not a Python tuple
    assert run("analyse", game, "--json").output == run("analyse", game, "--from", "pbn", "--json").output  # [ is PBN
    (played,) = json.loads(run("analyse", game, "--from", "pbn", "--json").output)["boards"]
    (board,) = played["tables"]
    fut = h.future
    assert board["dd_result"] == 13 - max(fut.score)
    best = [i for i in range(fut.cards) if fut.score[i] == max(fut.score)]
    better = {
        "SHDC"[fut.suit[i]] + RANKS[r - 2]
        for i in best
        for r in [fut.rank[i], *(r for r in range(2, 15) if fut.equals[i] >> r & 1)]
    }
    costly = {c["card"]: c for c in board["costly"]}
    lead = trick[0]
    assert lead in costly and costly[lead]["cost"] == h.trace[1] - h.trace[0]
    assert {c.replace("10", "T") for c in costly[lead]["better"]} == better
    assert run("analyse", game, "--from", "lin", ok=False).exit_code == 1


def test_prove_text_is_the_default_and_reads_as_derived_by_hand():
    """prove --text prints the indented tricks (the default); here a 2-card ending derived by hand: North cashes
    a top spade (the other is equal), each defender must follow with his one spade, then North cashes the other
    while each defender has only a heart left."""
    deal = "N:AK... 2.2.. 3.3.. 4.4.."
    args = ("prove", deal, "--strain", "nt", "--leader", "n", "--goodguys", "ns")
    text = run(*args, "--text").output
    assert text == run(*args).output
    assert text == (
        "NS to take 2 of 2 tricks against any defence; trump NT, N leads\n"
        "N: AK.-.-.-  E: 2.2.-.-  S: 3.3.-.-  W: 4.4.-.-\n"
        "  12: N SK(=SA), E S2, S S3, W S4; N wins\n"
        "    12.13: N SA, E H2, S H3, W H4; N wins; NS take 2\n"
    )


def test_info_reports_the_dds_ddsbind_runs(dds_oracle, tmp_path):
    """ddsbind info names the DDS version, threads and cores that DDS's own GetDDSInfo reports from C."""
    (answer,) = ask_dds(dds_oracle, ["info"], tmp_path)
    major, minor, patch, threads, cores = map(int, answer[1:])
    proc = python_m("ddsbind", "info", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"DDS {major}.{minor}.{patch} (")
    assert f"threads: {threads} on {cores} cores" in proc.stdout


def test_demo_tables_are_dds_double_dummy_results(dds_oracle, tmp_path):
    """demo's tables are DDS's: each entry is 13 minus what the defence takes with declarer's left-hand
    opponent on lead, asked of DDS from C."""
    out = run("demo", "--deals", 1, "--seed", 7).output
    (pbn,) = re.findall(r"^Deal (N:\S+ \S+ \S+ \S+)$", out, re.M)
    rows = {m[0]: list(map(int, m[1:])) for m in re.findall(r"^ +(NT|S|H|D|C) +(\d+) +(\d+) +(\d+) +(\d+)$", out, re.M)}
    assert set(rows) == {"NT", "S", "H", "D", "C"}
    questions = [(pbn, strain, (declarer + 1) % 4) for strain in range(5) for declarer in range(4)]
    answers = dds_best(dds_oracle, tmp_path, questions)
    want = np.array([13 - int(a[6]) for a in answers]).reshape(5, 4)
    for strain, name in enumerate(["S", "H", "D", "C", "NT"]):
        assert rows[name] == want[strain].tolist(), name
