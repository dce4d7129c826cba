"""Proof trees (ddsbind.proof, ddsbind.prove): the checker, the three serialisations, composed endings, the CLI.

Endings are written as PBN ``N:spades.hearts.diamonds.clubs`` hands in seat
order N E S W (N=0 E=1 S=2 W=3).
"""

from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddsbind
from benchmarks.bench_prove import random_ending
from ddsbind.errors import FormatError, InvalidArgumentError, TargetTooHighError
from ddsbind.proof import Leaf, Node, ProofError, ProofTooLargeError, ProofTree, check_tree, prove
from ddsbind.solver import solve_board
from tests import minimax
from tests.support import cli, python_m

# The basic simple squeeze (the positional form every squeeze text opens with,
# e.g. Clyde E. Love, "Bridge Squeezes Complete", 1959): West alone guards
# both majors, North holds the one-card threat SJ and the two-card threat
# HA2, South cashes the squeeze card CA.  Notrump, South leads; North-South
# take all three tricks, and only by leading CA (HA first unblocks nothing,
# D2 loses to East).  By hand: on CA West throws SQ (then N throws H2, S
# crosses to HA, SJ wins) or a heart (N throws SJ, HA drops HK, H2 wins).
SQUEEZE = "N:J.A2.. ..987. .3.2.A Q.KQ.."

# The basic throw-in against a king (the endplay of every textbook on card
# play, e.g. The Official Encyclopedia of Bridge, "Throw-in play"): South's
# SAQ sit over West's SK3; South exits with H2 to West's bare HA and West
# must lead a spade into the tenace.  Notrump, South leads; North-South take
# 2 of 3 (HA is the defence's), and only by exiting H2: SA then SQ loses to
# SK, SQ is covered.  East's diamonds never win a trick: East never leads.
THROW_IN = "N:5..32. ..AKQ. AQ.2.. K3.A.."

# The trump coup in its bare form (The Official Encyclopedia of Bridge, "Trump coup"): spades are trumps,
# East's SK J sit under South's SA Q, and North leads a heart at the last two tricks.  East must ruff
# (no hearts) and South overruffs: North-South take both tricks.  With South on lead instead, South must
# lead into East's trumps and takes one.  By hand: on H3, East ruffs SJ (SQ over, SA wins) or SK (SA over,
# SQ wins); from South, SA then SQ loses to SK, SQ first loses to SK.
TRUMP_COUP = "N:.32.. KJ... AQ... ..54."


def _endings(cards: int, seeds: range) -> list[tuple[ddsbind.Deal, int, int]]:
    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        out.append((random_ending(cards, rng), int(rng.integers(5)), int(rng.integers(4))))
    return out


def _defender_nodes(tree: ProofTree) -> list[Node]:
    return [n for n in tree.nodes() if isinstance(n, Node) and n.seat % 2 != tree.side and len(n.moves) > 1]


def _node(tree: ProofTree, node_id: int) -> Node:
    found = next(n for n in tree.nodes() if n.id == node_id)
    assert isinstance(found, Node)
    return found


@pytest.fixture(scope="module")
def trees() -> list[ProofTree]:
    """Proof trees of random 3- and 4-card endings, random trump and leader."""
    return [prove(d, t, f) for d, t, f in _endings(3, range(4)) + _endings(4, range(10, 13))]


# -- the squeeze and the throw-in ----------------------------------------------------


def test_simple_squeeze_is_proved_with_the_squeeze_card_first():
    """Without this, a composer asking for the proof of a squeeze could be shown a wrong first card or target."""
    assert solve_board(SQUEEZE, "NT", "S").best_score == 3  # DDS agrees with the book
    tree = prove(SQUEEZE, "NT", "S", goodguys="NS")
    check_tree(tree)
    assert (tree.goodguys, tree.target) == ("NS", 3)
    assert isinstance(tree.root, Node) and [str(c) for c in tree.root.moves[0].cards] == ["CA"]


def test_simple_squeeze_west_has_every_discard_and_each_is_answered():
    """Without this, a defence (West's SQ or a heart) could be missing from the squeeze's proof."""
    tree = prove(SQUEEZE, "NT", "S", goodguys="NS")
    assert isinstance(tree.root, Node)
    west = tree.root.moves[0].next
    assert isinstance(west, Node) and west.seat == ddsbind.Seat.W
    assert sorted(tuple(str(c) for c in m.cards) for m in west.moves) == [("HK", "HQ"), ("SQ",)]
    leaves = [n for n in tree.nodes() if isinstance(n, Leaf)]
    assert leaves and all(leaf.tricks == 3 for leaf in leaves)


def test_throw_in_is_proved_by_the_exit_card():
    """Without this, the endplay's proof could start with a card that does not keep 2 tricks."""
    assert solve_board(THROW_IN, "NT", "S").best_score == 2
    tree = prove(THROW_IN, "NT", "S", goodguys="NS")
    check_tree(tree)
    assert tree.target == 2
    assert isinstance(tree.root, Node) and [str(c) for c in tree.root.moves[0].cards] == ["H2"]
    with pytest.raises(TargetTooHighError, match=r"double-dummy value is 2"):
        prove(THROW_IN, "NT", "S", goodguys="NS", target=3)


def test_trump_coup_needs_the_lead_in_dummy():
    """Without this, a proof could mishandle ruffs and overruffs, or accept a target the lead makes impossible."""
    assert solve_board(TRUMP_COUP, "S", "N").best_score == 2
    tree = prove(TRUMP_COUP, "S", "N", goodguys="NS")
    check_tree(tree)
    assert tree.target == 2
    assert isinstance(tree.root, Node) and [str(c) for c in tree.root.moves[0].cards] == ["H2", "H3"]
    east = tree.root.moves[0].next
    assert isinstance(east, Node) and [[str(c) for c in m.cards] for m in east.moves] == [["SK"], ["SJ"]]
    with pytest.raises(TargetTooHighError, match=r"NS cannot take 2 tricks: their double-dummy value is 1"):
        prove(TRUMP_COUP, "S", "S", goodguys="NS", target=2)


def test_equivalence_is_judged_at_the_start_of_the_trick():
    """Without this, East's SK and SJ around North's SQ on the table would be one class (Hirschberg's rule)."""
    # North (a defender: East-West are the good guys) leads SQ or HA; East's SK and SJ are split by the SQ
    # North held at the start of the trick, even once it is on the table.  West's DQ DJ are one class.
    deal = "N:Q.A.. KJ... ..AK. ..QJ."
    tree = prove(deal, "NT", "N", goodguys="EW")
    check_tree(tree)
    assert (tree.goodguys, tree.target) == ("EW", 1)
    assert isinstance(tree.root, Node) and [[str(c) for c in m.cards] for m in tree.root.moves] == [["SQ"], ["HA"]]
    east = tree.root.moves[0].next
    assert isinstance(east, Node) and [[str(c) for c in m.cards] for m in east.moves] == [["SK"]]
    west = next(n for n in tree.nodes() if isinstance(n, Node) and n.seat == ddsbind.Seat.W)
    assert [[str(c) for c in m.cards] for m in west.moves] == [["DJ", "DQ"]]  # a good guy plays the lowest
    doc = tree.to_dict()
    doc["root"]["moves"][0]["next"]["moves"][0]["cards"] = ["SK", "SJ"]
    with pytest.raises(ProofError, match=r"SK SJ is not a class of equivalent cards \(it is SK\)"):
        check_tree(ProofTree.from_dict(doc))


# -- the tree and its checker ----------------------------------------------------------


def _walk_against_every_defence(tree: ProofTree) -> int:
    """Play the tree's good-guy cards against every legal defence, by the rules alone (tests/minimax.py).

    Fails on an illegal card, a defender card no move covers, or a leaf whose count is not the tricks the
    good guys really took; returns the fewest tricks they took on any path.
    """
    trump = int(tree.strain)
    side = ("NS", "EW").index(tree.goodguys)

    def walk(node, hands, leader, trick, taken) -> int:
        if isinstance(node, Leaf):
            assert not any(hands) and not trick
            assert node.tricks == taken, (node.id, node.tricks, taken)
            return taken
        seat = (leader + len(trick)) % 4
        assert int(node.seat) == seat, (node.id, node.seat, seat)
        allowed = minimax.legal(hands[seat], trick)
        if seat % 2 == side:
            assert len(node.moves) == 1, node.id
        else:
            covered = sorted((c.suit, c.rank) for m in node.moves for c in m.cards)
            assert covered == allowed, (node.id, covered, allowed)
            # The tree follows each class's first card; every other card of a class must leave the good guys
            # the target too, by brute force from the position it makes.
            for move in node.moves:
                for other in move.cards[1:]:
                    card = (other.suit, other.rank)
                    rest = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
                    left = (sum(map(len, rest)) + len(trick) + 1) // 4
                    ns = minimax.ns_tricks(rest, trump, leader, (*trick, card))
                    assert taken + (ns if side == 0 else left - ns) >= tree.target, (node.id, other)
        choices = [(m.cards[0].suit, m.cards[0].rank) for m in node.moves]
        nexts = [m.next for m in node.moves]
        worst = None
        for card, nxt in zip(choices, nexts, strict=True):
            assert card in allowed, (node.id, card)
            rest = tuple(h - {card} if i == seat else h for i, h in enumerate(hands))
            played = (*trick, card)
            if len(played) == 4:
                win = minimax.winner(played, leader, trump)
                got = walk(nxt, rest, win, (), taken + (win % 2 == side))
            else:
                got = walk(nxt, rest, leader, played, taken)
            worst = got if worst is None else min(worst, got)
        assert worst is not None
        return worst

    return walk(tree.root, minimax.parse_pbn(tree.deal.to_pbn()), int(tree.leader), (), 0)


def test_random_trees_hold_against_every_defence_by_brute_force(trees):
    """Without this, a proof tree could hold an illegal card, a missing defence or a path short of its target:
    every defence is played out by the rules alone and the good guys always take the target, which is the
    brute-force double-dummy value of the ending."""
    for tree in trees:
        check_tree(tree)
        side = ("NS", "EW").index(tree.goodguys)
        best = minimax.side_tricks(tree.deal.to_pbn(), int(tree.strain), int(tree.leader), side)
        assert tree.target == best
        assert _walk_against_every_defence(tree) == best


def test_target_is_the_double_dummy_value_of_the_side_on_lead(trees):
    """Without this, the default good guys could be the defence (composed problems are set for the side on
    lead), or the target not the best they can do (oracle: the brute-force minimax of tests/minimax.py, and DDS)."""
    for tree in trees:
        assert tree.goodguys == ("NS", "EW")[tree.leader % 2]
        assert tree.target == solve_board(tree.deal, tree.strain, tree.leader).best_score
        assert tree.target == minimax.side_tricks(
            tree.deal.to_pbn(), int(tree.strain), int(tree.leader), tree.leader % 2
        )


def test_the_squeeze_throw_in_and_trump_coup_hold_by_brute_force():
    """Without this, the three textbook endings' proofs could be wrong in a way the package's own checker shares."""
    for deal, trump, leader, goodguys, target in [
        (SQUEEZE, "NT", "S", "NS", 3),
        (THROW_IN, "NT", "S", "NS", 2),
        (TRUMP_COUP, "S", "N", "NS", 2),
    ]:
        tree = prove(deal, trump, leader, goodguys=goodguys)
        assert tree.target == target  # the hand derivations in the comments above
        assert _walk_against_every_defence(tree) == target


def test_removing_any_defender_class_makes_the_checker_fail(trees):
    """Without this, the checker could pass a proof that ignores a defence (the checker checked)."""
    tried = 0
    for tree in trees:
        for node in _defender_nodes(tree):
            for k in range(len(node.moves)):
                copy = ProofTree.from_json(tree.to_json())
                target = _node(copy, node.id)
                removed = target.moves.pop(k)
                with pytest.raises(
                    ProofError, match=rf"^node {node.id}: the defence {node.seat.name} may also play"
                ) as e:
                    check_tree(copy)
                assert e.value.node == node.id and str(removed.cards[0]) in str(e.value)
                tried += 1
    assert tried > 10


def test_checker_refuses_extra_good_guy_classes_split_classes_and_losing_cards():
    """Without this, a good-guy node with two cards, half a class, or a card that loses the target would pass."""
    tree = prove(SQUEEZE, "NT", "S", goodguys="NS")
    doc = tree.to_dict()
    bad = json.loads(json.dumps(doc))
    bad["root"]["moves"].append({"cards": ["D2"], "next": {"id": 999, "tricks": 3}})
    with pytest.raises(ProofError, match=r"^node 0: the good guys \(S\) play 2 classes"):
        check_tree(ProofTree.from_dict(bad))
    split = json.loads(json.dumps(doc))
    west = split["root"]["moves"][0]["next"]
    heart = next(m for m in west["moves"] if m["cards"][0] == "HK")
    heart["cards"] = ["HK"]
    with pytest.raises(ProofError, match=rf"^node {west['id']}: HK is not a class"):
        check_tree(ProofTree.from_dict(split))
    # The throw-in's proof of 2 tricks is no proof of 3: every leaf falls short.
    short = prove(THROW_IN, "NT", "S", goodguys="NS").to_dict()
    short["target"] = 3
    with pytest.raises(ProofError, match=r"short of the target 3"):
        check_tree(ProofTree.from_dict(short))


def test_checker_refuses_a_reference_to_another_position(trees):
    """Without this, a hand-edited {"ref": id} to a different position would pass as a proof."""
    tree = next(t for t in trees if '"ref"' in t.to_json())
    doc = tree.to_dict()

    def first_ref(d: dict) -> dict | None:
        for m in d.get("moves", []):
            if "ref" in m["next"]:
                return m["next"]
            found = first_ref(m["next"])
            if found:
                return found
        return None

    ref = first_ref(doc["root"])
    assert ref is not None
    ref["ref"] = doc["root"]["moves"][0]["next"]["id"]
    with pytest.raises(ProofError, match=r"referenced from a position"):
        check_tree(ProofTree.from_dict(doc))


def test_equal_positions_are_one_node(trees):
    """Without this, the tree would repeat every transposed position in full (no node isomorphism)."""
    shared = 0
    for tree in trees:
        seen: set[tuple] = set()
        for n in tree.nodes():
            if isinstance(n, Node):
                # a node's id is unique; the proof reaches positions by several paths only through references
                assert n.id not in seen
                seen.add(n.id)
        shared += tree.to_json().count('"ref"')
    assert shared > 0


def test_max_nodes_refusal_says_how_far_it_got():
    """Without this, a huge ending would run for hours or fail without saying where it stopped."""
    deal, trump, first = _endings(4, range(1))[0]  # 126 nodes, estimated 112: the search starts, then stops
    with pytest.raises(
        ProofTooLargeError, match=r"max_nodes=20: stopped after 20 nodes .*deepest trick reached was \d+"
    ):
        prove(deal, trump, first, goodguys="NS", max_nodes=20)


def test_bad_arguments_are_refused():
    """Without this, a typo in goodguys or a target beyond the ending would build a meaningless tree."""
    with pytest.raises(InvalidArgumentError, match="goodguys"):
        prove(SQUEEZE, "NT", "S", goodguys="NE")
    with pytest.raises(InvalidArgumentError, match="target"):
        prove(SQUEEZE, "NT", "S", target=4)
    with pytest.raises(ddsbind.errors.CardCountError, match="N=3 E=2 S=3"):
        prove("N:J.A2.. ..98. .3.2.A Q.KQ..", "NT", "S")


# -- serialisations -----------------------------------------------------------------------


def test_round_trips_binary_tree_json(trees):
    """Without this, a stored tree file or JSON document could read back as a different proof."""
    for tree in trees:
        data = tree.to_bytes()
        back = ProofTree.from_bytes(data)
        assert back == tree and back.to_bytes() == data
        assert back.to_json() == tree.to_json()
        from_json = ProofTree.from_json(tree.to_json())
        assert from_json == tree and from_json.to_bytes() == data
        check_tree(back)


def test_json_has_the_issue_shape():
    """Without this, tools reading the documented JSON shape would break."""
    doc = json.loads(prove(SQUEEZE, "NT", "S", goodguys="NS").to_json())
    assert set(doc) == {"deal", "strain", "leader", "goodguys", "target", "root"}
    assert (doc["strain"], doc["leader"], doc["goodguys"], doc["target"]) == ("N", "S", "NS", 3)
    assert ddsbind.Deal.from_pbn(doc["deal"]) == ddsbind.Deal.from_pbn(SQUEEZE)
    root = doc["root"]
    assert set(root) == {"id", "seat", "moves"} and root["seat"] == "S" and len(root["moves"]) == 1
    assert set(root["moves"][0]) == {"cards", "next"}
    node = root
    while "moves" in node:
        node = node["moves"][0]["next"]
    assert set(node) == {"id", "tricks"} and node["tricks"] == 3


def test_tree_file_layout_matches_the_spec():
    """Without this, the module docstring's byte-level spec and the bytes written could drift apart."""
    tree = prove(SQUEEZE, "NT", "S", goodguys="NS")
    data = tree.to_bytes()
    words = np.frombuffer(data, dtype="<u4")
    assert data[:4] == b"DDPT" and words[1] == 1
    assert words[2] == 3 | 4 << 4 | 2 << 8 | 0 << 12 | 3 << 16
    north = words[3]
    assert north & 0xFFFF == 1 << 11 and north >> 16 == (1 << 14 | 1 << 2)  # SJ; HA H2
    assert words[11] == len(words) - 12
    first = int(words[12])
    assert first & 63 == ddsbind.Card.parse("CA").index and first >> 24 & 15 == 11 and first >> 28 & 3 == 2


def test_text_labels_defences_and_repeats(trees):
    """Without this, the readable proof could drop a defence or a pointer to a repeated position."""
    text = prove(SQUEEZE, "NT", "S", goodguys="NS").to_text()
    assert text.startswith("NS to take 3 of 3 tricks against any defence; trump NT, S leads\n")
    assert re.search(r"^  11a: S CA, W SQ, N H2, E D9\(=D8,D7\); S wins$", text, re.M)
    assert re.search(r"^  11b: S CA, W HK\(=HQ\), N SJ, E D9\(=D8,D7\); S wins$", text, re.M)
    assert re.search(r"^      11b\.12\.13: N H2, E D7, S D2, W SQ; N wins; NS take 3$", text, re.M)
    tree = next(t for t in trees if '"ref"' in t.to_json())
    assert "; as after " in tree.to_text()


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_raise_only_format_error(data):
    """Without this, a corrupt tree file could crash a reader with an arbitrary exception, or be read as a tree
    that does not write back to the same bytes."""
    try:
        tree = ProofTree.from_bytes(data)
    except FormatError:
        return
    assert tree.to_bytes() == data


@pytest.fixture(scope="module")
def throw_in_file() -> bytes:
    """The throw-in's tree file, proved once for every corrupted copy below."""
    return prove(THROW_IN, "NT", "S", goodguys="NS").to_bytes()


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0), st.integers(min_value=0, max_value=255))
def test_corrupted_tree_files_raise_only_format_error_with_offset(throw_in_file, where, value):
    """Without this, one flipped byte in a tree file could crash the reader instead of naming the offset."""
    data = bytearray(throw_in_file)
    data[where % len(data)] = value
    try:
        ProofTree.from_bytes(bytes(data))
    except FormatError as exc:
        assert exc.offset is not None and 0 <= exc.offset <= len(data)


def test_bad_json_raises_format_error():
    """Without this, a malformed JSON tree would raise KeyError or TypeError from deep inside."""
    for text in ["[]", "{}", '{"deal": 1}', "not json"]:
        with pytest.raises(FormatError):
            ProofTree.from_json(text)
    doc = prove(SQUEEZE, "NT", "S", goodguys="NS").to_dict()
    doc["root"]["moves"][0]["next"] = {"ref": 77}
    with pytest.raises(FormatError, match="ref 77"):
        ProofTree.from_dict(doc)


# -- CLI ------------------------------------------------------------------------------------------


def test_cli_prints_text_json_and_writes_and_reads_the_tree_file(tmp_path):
    """Without this, `ddsbind prove` could print a wrong proof or lose a stored tree (oracle: the squeeze's
    lines derived by hand above, and the brute-force walk of the tree it writes)."""
    tree = prove(SQUEEZE, "NT", "S", goodguys="NS")
    r = cli("prove", SQUEEZE, "--strain", "NT", "--leader", "S", "--goodguys", "NS")
    assert r.exit_code == 0
    printed = r.output
    assert printed.startswith("NS to take 3 of 3 tricks against any defence; trump NT, S leads\n")
    assert re.search(r"^  11a: S CA, W SQ, N H2, E D9\(=D8,D7\); S wins$", printed, re.M)
    assert re.search(r"^  11b: S CA, W HK\(=HQ\), N SJ, E D9\(=D8,D7\); S wins$", printed, re.M)
    assert _walk_against_every_defence(tree) == 3
    r = cli("prove", SQUEEZE, "--strain", "NT", "--leader", "S", "--goodguys", "ns", "--json")
    assert r.exit_code == 0 and ProofTree.from_json(r.output) == tree
    out = tmp_path / "squeeze.tree"
    r = cli("prove", SQUEEZE, "--strain", "NT", "--leader", "S", "--goodguys", "NS", "--target", "3", "--out", out)
    assert r.exit_code == 0 and out.read_bytes() == tree.to_bytes()
    r = cli("prove", "--read", out)
    assert r.exit_code == 0 and r.output == printed


def test_cli_read_refuses_spade_trump_and_north_leader_too(tmp_path):
    """Without this, `prove --read FILE --strain S` (or `--leader N`, both numbered 0) would be silently ignored."""
    out = tmp_path / "squeeze.tree"
    out.write_bytes(prove(SQUEEZE, "NT", "S", goodguys="NS").to_bytes())
    for extra in (["--strain", "S"], ["--leader", "N"], ["--goodguys", "ns"], ["--target", "0"]):
        r = cli("prove", "--read", out, *extra)
        assert r.exit_code == 2 and "--read takes no DEAL" in r.output, extra
    r = cli("prove", SQUEEZE, "--strain", "NT", "--leader", "S", "--goodguys", "NX")
    assert r.exit_code == 2 and "NS|EW" in r.output


def test_cli_errors_are_one_line(tmp_path):
    """Without this, a bad target or a corrupt tree file would print a traceback instead of one error line."""
    r = cli("prove", THROW_IN, "--strain", "NT", "--leader", "S", "--goodguys", "NS", "--target", "3")
    assert r.exit_code == 1
    assert r.output.count("ddsbind: error:") == 1 and "double-dummy value is 2" in r.output
    bad = tmp_path / "bad.tree"
    bad.write_bytes(b"DDPT" + bytes(5))
    r = cli("prove", "--read", bad)
    assert r.exit_code == 1 and r.output.count("ddsbind: error:") == 1 and "byte offset" in r.output
    r = cli("prove", "--strain", "NT", "--leader", "S")
    assert r.exit_code == 2


def test_cli_bad_deal_is_one_line_without_traceback_as_a_user_runs_it():
    """Without this, `python -m ddsbind prove` on a deal of unequal hands could print a traceback."""
    proc = python_m("ddsbind", "prove", "N:J.A2.. ..98. .3.2.A Q.KQ..", "--strain", "NT", "--leader", "S", timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    errors = [ln for ln in proc.stderr.splitlines() if ln.startswith("ddsbind: error:")]
    assert len(errors) == 1 and "E=2" in errors[0], proc.stderr


def test_the_docstring_example_file_is_what_is_written():
    """Without this, the worked example in the tree file's spec could disagree with the bytes written."""
    words = np.frombuffer(prove("N:A... K... Q... J...", "NT", "W", goodguys="NS").to_bytes(), dtype="<u4")
    spec = "54504444 00000001 00010341 00004000 00000000 00002000 00000000 00001000 00000000 00000800 00000000"
    assert [f"{w:08x}" for w in words] == [*spec.split(), "00000001", "3d081003"]
    assert "``3d081003``" in (sys.modules["ddsbind.formats.prooftree"].__doc__ or "")


def test_absurdly_nested_json_is_a_format_error():
    """Without this, a hostile JSON tree nested thousands deep would crash the reader with RecursionError."""
    doc = prove(SQUEEZE, "NT", "S", goodguys="NS").to_dict()
    node: dict = {"id": 0, "tricks": 0}
    for k in range(1, 5000):
        node = {"id": k, "seat": "N", "moves": [{"cards": ["SA"], "next": node}]}
    doc["root"] = node
    with pytest.raises(FormatError, match="nested"):
        ProofTree.from_dict(doc)
