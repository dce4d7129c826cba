"""The analyse, line and game-record convert commands, through click's CliRunner."""

from __future__ import annotations

import json

from ddsbind.deal import Strain
from ddsbind.formats.games import read_games
from ddsbind.formats.pbngame import format_games
from ddsbind.scoring import Contract
from tests import minimax
from tests.support import ask_dds, cli, reference_record

SUITS, RANKS = "SHDC", minimax.RANKS


def _costly_from_trace(h) -> list[tuple[int, str, int]]:
    """The costly cards DDS's own TRACE line implies: (index, card, cost) of each card after which the declarer's
    double-dummy tricks moved against the side that played it (TRACE: declarer's tricks before each card)."""
    owners = minimax.parse_pbn(h.pbn)
    declarer_side = (h.first + 3) % 2
    out = []
    for k in range(len(h.trace) - 1):
        card = h.play[2 * k : 2 * k + 2]
        seat = next(i for i, hand in enumerate(owners) if (SUITS.index(card[0]), RANKS.index(card[1]) + 2) in hand)
        moved = h.trace[k + 1] - h.trace[k]
        cost = -moved if seat % 2 == declarer_side else moved
        if cost > 0:
            out.append((k, card, cost))
    return out


def test_analyse_json_matches_the_library(list100, tmp_path):
    """Without this, `ddsbind analyse --json` could report other costly cards or DD results than DDS's TRACE
    lines imply."""
    hands = list100[:8]
    src = tmp_path / "games.pbn"
    src.write_text(format_games([reference_record(h, i + 1) for i, h in enumerate(hands)]), encoding="latin-1")
    assert cli("convert", src, tmp_path / "games.zrj").exit_code == 0
    for path in (src, tmp_path / "games.zrj"):
        result = cli("analyse", path, "--json")
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["kind"] == "games" and [b["board"] for b in report["boards"]] == list(range(1, 9))
        docs = [t for b in report["boards"] for t in b["tables"]]
        for d, h in zip(docs, hands, strict=True):
            assert d["dd_result"] == h.trace[0] and d["result"] == h.trace[-1]
            assert [(c["index"], c["card"], c["cost"]) for c in d["costly"]] == _costly_from_trace(h)
    text = cli("analyse", src).stdout.splitlines()
    assert text[0].startswith("Board 1 (dealer N, vulnerable None): par ")
    assert text[1].startswith("  1S by W, 8 tricks, lead CT, NS -110, double dummy 8 tricks (NS -110), one table")


def test_convert_warns_when_a_play_is_cut(list100, tmp_path):
    """Without this, a user converting to ZRJ would lose the end of a play without being told."""
    h = next(h for h in list100 if len(h.play) == 104)
    g = reference_record(h, 1)
    t = Strain(h.trump).symbol
    # Legal by the rules: declarer raises his strain over each redouble; XX, then the 3 closing passes.
    raises = [call for level in range(2, 7) for call in ("X", "XX", "Pass", f"{level}{t}")]
    g.auction = g.auction[:-3] + raises + ["X", "XX", "Pass", "Pass", "Pass"]
    g.contract = Contract.parse(f"6{t}XX")
    src = tmp_path / "long.pbn"
    src.write_text(format_games([g]), encoding="latin-1")
    result = cli("convert", src, tmp_path / "long.zrj")
    assert result.exit_code == 0
    assert "ddsbind: warning: Board 1 (game 1 of the file):" in result.stderr and "keeps the first" in result.stderr
    (back,) = read_games(tmp_path / "long.zrj")
    assert back.auction == g.auction and back.contract == g.contract and back.play == g.play[: len(back.play)]
    assert 0 < len(back.play) < 52


def test_analyse_bad_play_is_one_line_exit_1(tmp_path):
    """Without this, a file with an impossible play would print a traceback instead of naming the card."""
    src = tmp_path / "bad.pbn"
    src.write_text(
        '[Deal "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"]\n'
        '[Declarer "W"]\n[Contract "2S"]\n[Play "N"]\nCT H7 CA CJ\n',
        encoding="latin-1",
    )
    result = cli("--strict", "analyse", src)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "H7 is a revoke" in result.stderr
    # Read leniently, the play is set aside in one warning naming the card, and the contract analysed without it.
    lenient = cli("analyse", src)
    assert lenient.exit_code == 0 and lenient.stderr.count("H7 is a revoke") == 1 and "[Play" in lenient.stderr


def test_line_prints_thirteen_tricks_and_json(list100, dds_oracle, tmp_path):
    """Without this, `ddsbind line` could print a line that is not a best line: every card it plays is one DDS
    (asked from C at that very position, trick cards and all) scores best for the side to play."""
    h = list100[2]
    seat, strain = "NESW"[h.first], Strain(h.trump).symbol
    result = cli("line", h.pbn, "--strain", strain, "--leader", seat)
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()[2:]
    assert [int(r.split()[0]) for r in rows] == list(range(1, 14))
    docs = json.loads(cli("line", h.pbn, "--strain", strain, "--leader", seat, "--json").stdout)
    assert docs[0]["value"] == h.table[h.trump][(h.first + 3) % 4]
    played = [c.replace("10", "T") for d in docs for c in d["cards"]]
    assert len(played) == 52
    hands = list(minimax.parse_pbn(h.pbn))
    leader, trick, requests, cards = h.first, [], [], []
    for text in played:
        card = (SUITS.index(text[0]), RANKS.index(text[1]) + 2)
        pbn = "N:" + " ".join(
            ".".join("".join(RANKS[r - 2] for s2, r in sorted(hand, reverse=True) if s2 == s) for s in range(4))
            for hand in hands
        )
        pairs = [*trick, *[(0, 0)] * (3 - len(trick))]
        flat = " ".join(f"{s} {r}" for s, r in pairs)
        requests.append(f"{h.trump} {leader} -1 3 1 {len(trick)} {flat} {pbn}")
        cards.append(card)
        seat_now = (leader + len(trick)) % 4
        assert card in hands[seat_now], (text, seat_now)
        hands[seat_now] = hands[seat_now] - {card}
        trick.append(card)
        if len(trick) == 4:
            leader, trick = minimax.winner(tuple(trick), leader, h.trump), []
    for k, (answer, card) in enumerate(zip(ask_dds(dds_oracle, requests, tmp_path), cards, strict=True)):
        assert answer[0] == "ok", answer
        quads = [tuple(map(int, answer[3 + 4 * i : 7 + 4 * i])) for i in range(int(answer[2]))]
        top = max(q[3] for q in quads)
        best = {(q[0], r) for q in quads if q[3] == top for r in [q[1], *(r for r in range(2, 15) if q[2] >> r & 1)]}
        assert card in best, (k, played[k], sorted(best))
