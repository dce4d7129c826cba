"""The analysis board (``ddsbind board``): its server's answers and safety, and the page in a real browser.

The oracle for every trick count shown is :func:`ddsbind.solve_board` on the
position, found here by removing the played cards from the deal by hand
(:func:`expected_scores`), not through the board's own code.  The browser
is Debian's chromium (tests/oracles.py: never skipped), driven by
Playwright for Python pointed at /usr/bin/chromium.  The browser tests take
the tutorial's screenshots (docs/tutorials/board.md); with
``DDSBIND_DOC_SCREENSHOTS=1`` they are copied into docs/images/.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import ddsbind
from ddsbind import Card, Deal, Seat, Strain
from ddsbind.board.app import BoardServer
from ddsbind.cli import main
from ddsbind.formats import read_games
from ddsbind.game import trick_winner
from tests.support import REPO

SESSION = REPO / "examples" / "data" / "session.lin"
SAMPLE_ZRD = REPO / "examples" / "data" / "sample.zrd"
DOC_IMAGES = REPO / "docs" / "images"


def expected_scores(deal: Deal, trump: Strain, declarer: Seat, play: list[Card]) -> dict[str, int]:
    """Every legal card of the hand on turn -> DDS's score, by solve_board on the position reached by ``play``."""
    masks = deal.remain_cards.copy()
    leader, trick = declarer.next(), []
    for c in play:
        seat = leader.next(len(trick))
        assert masks[seat, c.suit] >> c.rank & 1, f"{seat.name} does not hold {c}"
        masks[seat, c.suit] &= ~np.uint32(1 << c.rank)
        trick.append(c)
        if len(trick) == 4:
            leader, trick = trick_winner(trick, leader, trump), []
    if not masks.any():
        return {}
    sols = ddsbind.solve_board(Deal(masks), trump, leader, current_trick=trick)
    return {str(c): sc.score for sc in sols for c in sc.cards}


def get(server: BoardServer, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET ``path`` exactly as written (no normalising), with ``host`` as the Host header (default: the server's)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", f"127.0.0.1:{server.port}" if host is None else host)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def api(server: BoardServer, route: str, **query: str) -> tuple[int, dict]:
    status, body = get(server, f"/api/{route}?{urllib.parse.urlencode(query)}")
    return status, json.loads(body)


@pytest.fixture(scope="module")
def session_server() -> Iterator[BoardServer]:
    with BoardServer(SESSION) as server:
        yield server


@pytest.fixture(scope="module")
def session_games() -> list:
    return read_games(SESSION)


# -- the server ---------------------------------------------------------------------------------


def test_server_listens_on_loopback_only(session_server):
    """Without it, anyone on the user's network could reach the board's server."""
    assert session_server.address == ("127.0.0.1", session_server.port)
    assert session_server.url == f"http://127.0.0.1:{session_server.port}/"
    # Any other address of this machine is refused.
    others = {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    for address in sorted(a for a in others if not a.startswith("127.")):
        with pytest.raises(OSError), socket.create_connection((address, session_server.port), timeout=10):
            pass


@pytest.mark.parametrize(
    "host",
    [
        "evil.example",
        "evil.example:{port}",
        "127.0.0.1",
        "127.0.0.1:{other}",
        "localhost",
        "127.0.0.2:{port}",
        "localhost.evil.example:{port}",
        "",
        "[::1]:{port}",
    ],
)
def test_a_foreign_host_header_is_refused(session_server, host):
    """Without it, a web page on another site could reach the board through DNS rebinding."""
    header = host.format(port=session_server.port, other=session_server.port + 1)
    for path in ("/", "/api/boards", "/api/position?board=1", "/assets/board.js"):
        status, body = get(session_server, path, host=header)
        assert status == 421, (header, path, status)
        assert b"refused" in body and b"ddsbind" not in body


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}"])
def test_its_own_host_is_answered(session_server, host):
    """Without it, the browser opening the printed address would be refused."""
    status, body = get(session_server, "/", host=host.format(port=session_server.port))
    assert status == 200 and b"/assets/board.js" in body


@pytest.mark.parametrize(
    "path",
    [
        "/assets/../pyproject.toml",
        "/assets/../../pyproject.toml",
        "/../../../etc/passwd",
        "/assets/%2e%2e/%2e%2e/pyproject.toml",
        "/assets/..%2f..%2fapp.py",
        "/assets/app.py",
        "/assets/index.html",
        "/assets/board.js/../app.py",
        "/ddsbind/board/app.py",
        "/examples/data/session.lin",
        "/session.lin",
        "//etc/passwd",
        "/api/../app.py",
        "/etc/passwd",
    ],
)
def test_a_path_outside_the_assets_is_refused(session_server, path):
    """Without it, a request could read files of the user's machine through the board's server."""
    status, body = get(session_server, path)
    assert status == 404, (path, status)
    for leak in (b"[build-system]", b"root:", b"BoardServer", b"pn|", b"<!doctype"):
        assert leak not in body


def test_the_assets_are_served_with_a_policy_that_loads_nothing_from_elsewhere(session_server):
    """Without it, the page could fetch scripts or fonts from the network (and fail offline)."""
    conn = http.client.HTTPConnection("127.0.0.1", session_server.port, timeout=60)
    conn.request("GET", "/")
    r = conn.getresponse()
    page = r.read().decode()
    policy = r.getheader("Content-Security-Policy") or ""
    conn.close()
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert "http" not in page.replace('lang="en"', "")  # no address of anywhere else
    for asset in ("/assets/board.js", "/assets/board.css", "/assets/favicon.svg"):
        status, body = get(session_server, asset)
        body = body.replace(b'xmlns="http://www.w3.org/2000/svg"', b"")  # a namespace name, never fetched
        assert status == 200 and b"http://" not in body and b"https://" not in body and b"@import" not in body


def test_boards_of_a_lin_file_are_listed_with_their_contracts(session_server, session_games):
    """Without it, the page could not offer the file's boards to choose from."""
    status, doc = api(session_server, "boards")
    assert status == 200 and doc["error"] is None and doc["source"] == "session.lin"
    # session.lin's rs| line: 3NW=,3NW+1,4SS+2,4SS+1,4SS-1,4SS=,4HS-1,3SW-3
    assert [(b["contract"], b["declarer"]) for b in doc["boards"]] == [
        ("3NT", "W"), ("3NT", "W"), ("4S", "S"), ("4S", "S"), ("4S", "S"), ("4S", "S"), ("4H", "S"), ("3S", "W")
    ]  # fmt: skip
    assert [(b["number"], b["room"]) for b in doc["boards"]] == [(g.board, g.tags["Room"]) for g in session_games]
    assert [b["query"] for b in doc["boards"]][:2] == ["board=1&room=open", "board=1&room=closed"]


def test_positions_along_a_record_are_dds_solve_board(session_server, session_games):
    """Without it, the tricks shown for a card could differ from DDS's answer for the position."""
    g = session_games[1]
    for k in (0, 1, 2, 3, 4, 6, 11):
        play = ",".join(str(c) for c in g.play[:k])
        status, pos = api(session_server, "position", board="1", room="closed", play=play)
        assert status == 200
        p = pos["position"]
        assert p["play"] == [str(c) for c in g.play[:k]] and p["trump"] == "NT" and p["declarer"] == "W"
        assert sum(len(s) for h in p["hands"].values() for s in h) == 52 - k
        assert len(p["trick"]) == k % 4 and len(p["tricks"]) == k // 4
        status, sol = api(session_server, "solve", board="1", room="closed", play=play)
        assert status == 200
        shown = {c: s["score"] for s in sol["cards"] for c in (s["card"], *s["equals"])}
        assert shown == expected_scores(g.deal, g.trump, g.declarer, g.play[:k])
        assert set(shown) == set(p["legal"])


def test_a_position_is_solved_once(session_server, session_games):
    """Without it, every click back and forth would solve the same position again (slow on full deals)."""
    g = session_games[3]
    play = ",".join(str(c) for c in g.play[:5])
    before = session_server.state.solutions.computed
    barrier = threading.Barrier(4)
    answers: list[dict] = []

    def ask() -> None:
        barrier.wait()
        answers.append(api(session_server, "solve", board="2", room="closed", play=play)[1])

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert api(session_server, "solve", board="2", room="closed", play=play)[1] == answers[0]
    assert all(a == answers[0] for a in answers)
    assert session_server.state.solutions.computed >= before + 1
    assert max(session_server.state.solutions.times.values()) == 1  # each position once, asked or solved ahead


def test_table_and_par_are_ddsbinds(session_server, session_games):
    """Without it, the page's double-dummy table or par could be another deal's or wrong."""
    g = session_games[2]
    status, doc = api(session_server, "table", board="2", room="open")
    assert status == 200
    table = ddsbind.dd_table(g.deal)
    assert doc["table"] == {s: {seat: table[s, seat] for seat in "NESW"} for s in ("NT", "S", "H", "D", "C")}
    assert doc["par"] == ddsbind.par(table, g.vulnerable).words()


def test_costly_cards_of_a_record_are_analyses(session_server, session_games):
    """Without it, the page would mark the wrong cards of the record as costly."""
    for g in session_games:
        status, doc = api(session_server, "analysis", board=str(g.board), room=g.tags["Room"])
        assert status == 200
        costly = ddsbind.costly_cards(g.deal, g.trump, g.leader, g.play)
        assert [(c["index"], c["card"], c["cost"]) for c in doc["costly"]] == [
            (c.index, str(c.card), c.cost) for c in costly
        ]
        assert doc["trace"] == ddsbind.analyse_play(g.deal, g.trump, g.leader, g.play)
    assert any(api(session_server, "analysis", board=str(n), table=t)[1]["costly"] for n in "123" for t in "12")


def test_a_bad_deal_answers_the_librarys_one_line(session_server):
    """Without it, a pasted typo would show a traceback or nothing at all."""
    for text in ("N:AKQ.xx", "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT9876543A"):
        with pytest.raises(ddsbind.Error) as caught:
            Deal.from_pbn(text)
        status, doc = api(session_server, "position", deal=text)
        assert status == 400 and doc == {"error": str(caught.value)}
        assert "\n" not in doc["error"]


def test_a_bad_card_or_board_answers_one_line_naming_it(session_server):
    """Without it, a mistyped address would not say which card or board is wrong."""
    status, doc = api(session_server, "position", board="1", room="closed", play="HJ,HQ,SA")
    # In place: the position up to the bad card, and why that card cannot be played.
    assert status == 200 and doc["position"]["play"] == ["HJ", "HQ"]
    fault = doc["position"]["fault"]
    assert fault.startswith("card 3 of the play, SA: ") and "SA is not held by" in fault and "\n" not in fault
    status, doc = api(session_server, "solve", board="1", room="closed", play="HJ,XX")
    assert status == 400 and "'XX' is not a card" in doc["error"]
    status, doc = api(session_server, "position", board="99")
    assert status == 400 and "boards 1 to 4" in doc["error"]  # session.lin: boards 1-4, Open and Closed
    status, doc = api(session_server, "position", board="1", trump="Z")
    assert status == 400 and doc["error"].startswith("trump='Z': ")
    for number in ("²", "abc", "-1", "0", "1.0", "١"):  # str.isdigit takes '²' and '١'; int() of '²' fails
        status, doc = api(session_server, "position", board=number)
        assert status == 400 and doc["error"].startswith(f"board {number!r} is not a number"), number
    status, doc = api(session_server, "position", board="1", room="lounge")
    assert status == 400 and "open or closed" in doc["error"]
    status, doc = api(session_server, "position", board="1", table="3")
    assert status == 400 and "2 table(s), not 3" in doc["error"]


def test_strains_and_seats_are_read_as_the_library_reads_them(session_server):
    """Without it, `trump=4` (DDS's number for notrump, as Strain.parse(4) reads it) would be refused."""
    for strain in ("4", "NT", "n", "notrump"):
        for name in ("strain", "trump"):
            status, doc = api(session_server, "position", board="1", **{name: strain, "declarer": "E"})
            assert status == 200 and doc["position"]["trump"] == "NT", (name, strain)
            assert doc["position"]["to_play"] == "S"
    status, doc = api(session_server, "position", board="1", strain="0", leader="W")
    assert status == 200 and doc["position"]["trump"] == "S" and doc["position"]["declarer"] == "S"
    status, doc = api(session_server, "position", board="1", strain="5")
    assert status == 400 and doc["error"].startswith("strain='5': ")
    status, doc = api(session_server, "position", board="1", declarer="N", leader="N")
    assert status == 400 and "left-hand opponent" in doc["error"]


def test_a_finished_deal_is_a_position(session_server):
    """Without it, the 52nd card (or a record stepped to its end) answered 'Zero cards (DDS code -2)'."""
    from ddsbind.game import Play

    deal = Deal.random(3)
    state, cards = Play(deal, Strain.H, Seat.N), []
    while not state.finished:
        cards.append(state.legal_cards()[-1])
        state.play(cards[-1])
    query = {"deal": deal.to_pbn(), "strain": "H", "declarer": "W", "play": ",".join(map(str, cards))}
    status, doc = api(session_server, "position", **query)
    assert status == 200
    p = doc["position"]
    assert p["finished"] and p["to_play"] is None and p["legal"] == [] and p["fault"] is None
    assert len(p["tricks"]) == 13 and p["declarer_tricks"] + p["defence_tricks"] == 13
    assert all(suit == [] for hand in p["hands"].values() for suit in hand)
    won = sum(1 for t in state.tricks if t.winner.side == Seat.W.side)
    assert p["declarer_tricks"] == won
    status, doc = api(session_server, "solve", **query)
    assert status == 200 and doc["to_play"] is None and doc["cards"] == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "N:AK97.QT5.K86.T85 QT52.K742.J9.A94 J86.AJ96.T7542.6 43.83.AQ3.KQJ73",
            "each hand holds 13 cards: W holds 12 cards (too few); nobody holds C2",
        ),
        (
            "N:AK97.QT5.K86.T852 QT52.K742.J9.A94 J86.AJ96.T7542.6 43.83.AQ3.KQJ73",
            "each hand holds 13 cards: N holds 14 cards (too many), W holds 12 cards (too few)",
        ),
        ("N:AK97.QT5.K86.T85 - J86.AJ96.T7542.6 -", "hands E and W are left as '-'"),
    ],
)
def test_a_deal_short_or_long_names_the_hand_and_card(session_server, text, message):
    """Without it, a 51-card paste answered 'AnalysePlay input error (DDS code -98)' naming nothing."""
    status, doc = api(session_server, "position", deal=text)
    assert status == 400 and doc["error"].startswith(message), doc


def test_a_deal_with_one_hand_left_out_is_completed(session_server):
    """Without it, a deal pasted with the fourth hand as '-' (as PBN allows) would be refused."""
    full = Deal.from_pbn("N:AK97.QT5.K86.T85 QT52.K742.J9.A94 J86.AJ96.T7542.6 43.83.AQ3.KQJ732")
    for k in range(4):
        hands = full.to_pbn()[2:].split()
        hands[k] = "-"
        status, doc = api(session_server, "position", deal="N:" + " ".join(hands))
        assert status == 200 and doc["board"]["deal"] == full.to_pbn()


def test_a_pasted_deal_is_played_with_the_trump_and_declarer_chosen(session_server):
    """Without it, a deal without a record could only be played in notrump by South."""
    deal = Deal.random(40)
    status, doc = api(session_server, "solve", deal=deal.to_pbn(), trump="H", declarer="E")
    assert status == 200 and doc["to_play"] == "S"
    shown = {c: s["score"] for s in doc["cards"] for c in (s["card"], *s["equals"])}
    assert shown == expected_scores(deal, Strain.H, Seat.E, [])


def test_a_malformed_file_shows_the_readers_one_line(tmp_path):
    """Without it, a broken file would start a board that shows nothing and says nothing."""
    bad = tmp_path / "broken.pbn"
    bad.write_text('[Board "1"]\n[Deal "N:AKQ.xx"]\n')
    with pytest.raises(ddsbind.Error) as caught:
        read_games(bad)
    with BoardServer(bad) as server:
        status, doc = api(server, "boards")
        assert status == 200 and doc["boards"] == []
        assert str(caught.value) in doc["error"] and "\n" not in doc["error"]
        status, doc = api(server, "position", board="1")
        assert status == 400 and str(caught.value) in doc["error"]


def test_a_deal_file_is_played_board_by_board_in_the_16_board_cycle():
    """Without it, a ZRD database could not be browsed on the board."""
    from ddsbind.formats import read_records

    owners = read_records(SAMPLE_ZRD).owners
    with BoardServer(SAMPLE_ZRD) as server:
        status, doc = api(server, "boards")
        assert len(doc["boards"]) == len(owners) == 24
        for n in (1, 6, 24):
            status, pos = api(server, "position", board=str(n))
            assert status == 200
            assert pos["board"]["deal"] == Deal.from_owners(owners[n - 1]).to_pbn()
            assert pos["board"]["dealer"] == Seat.dealer_of_board(n).name
            assert pos["board"]["vulnerable"] == ddsbind.Vulnerability.of_board(n).pbn


def test_the_cli_refuses_a_port_in_use_in_one_line():
    """Without it, a second board on the same port would crash with a traceback."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["board", str(SESSION), "--port", str(port), "--no-browser"])
    assert result.exit_code == 1
    assert (
        result.output.startswith(f"ddsbind: error: cannot listen on 127.0.0.1:{port}")
        and result.output.count("\n") == 1
    )


# -- the page in a real browser --------------------------------------------------------------


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_default_timeout(180_000)
    yield page
    context.close()
    assert not errors, errors


def wait_solved(page, play: list[Card] | list[str]) -> None:
    """Wait until the page shows, solved, the position after ``play``."""
    key = ",".join(str(c) for c in play)
    page.wait_for_function("key => document.body.dataset.solved === key", arg=key)


def shown_tricks(page) -> dict[str, int]:
    """data-card -> data-tricks of the hand on turn's solved cards."""
    return page.eval_on_selector_all(
        ".hand.on-turn [data-tricks]", "els => Object.fromEntries(els.map(e => [e.dataset.card, +e.dataset.tricks]))"
    )


def screenshot(page, tmp_path: Path, name: str, *, board: bool = True) -> Path:
    """A screenshot for the tutorial: into tmp_path, and into docs/images with DDSBIND_DOC_SCREENSHOTS=1."""
    if board:  # the DD table arrives on its own
        page.wait_for_function("() => document.body.dataset.table === '1'")
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 20_000
    if os.environ.get("DDSBIND_DOC_SCREENSHOTS") == "1":
        DOC_IMAGES.mkdir(exist_ok=True)
        shutil.copy(path, DOC_IMAGES / name)
    return path


@pytest.mark.slow
def test_page_steps_through_a_lin_record_showing_dds_scores(session_server, session_games, page, tmp_path):
    """Without it, the page could show a card's tricks wrong anywhere along a played game."""
    g = session_games[1]  # 1 Closed: North's opening lead cost a trick
    page.goto(session_server.url + "?board=1&room=closed")
    for k in range(len(g.play) + 1):
        wait_solved(page, g.play[:k])
        assert shown_tricks(page) == expected_scores(g.deal, g.trump, g.declarer, g.play[:k]), f"after {k} cards"
        if k < len(g.play):  # the hand on turn is the one that played the record's next card
            holder = g.deal.holder(g.play[k])
            assert page.locator(".hand.on-turn").get_attribute("data-seat") == holder.name
            assert page.locator(f".hand.on-turn [data-card='{g.play[k]}']").count() == 1
        if k == 0:
            page.wait_for_function("() => document.body.dataset.analysed === '1'")
            costly = page.locator(".rcard.costly")
            assert costly.count() == 1 and costly.get_attribute("data-index") == "0"
            assert page.locator("[data-card='HJ'].actual").count() == 1
            better = " ".join(str(c) for c in ddsbind.costly_cards(g.deal, g.trump, g.leader, g.play)[0].better)
            assert (
                page.locator("#note").inner_text() == f"In the record N played HJ here, which cost 1; better: {better}"
            )
            screenshot(page, tmp_path, "board-record.png")
        if k == 6:
            screenshot(page, tmp_path, "board-mid-trick.png")
        if k < len(g.play):
            page.click("#next")
    assert page.locator("#next").is_disabled()
    assert "play=" + ",".join(str(c) for c in g.play) in page.url


@pytest.mark.slow
def test_clicking_cards_undo_redo_back_to_a_trick_and_claim(session_server, session_games, page, tmp_path):
    """Without it, a player could not try their own line, take it back, or claim the rest."""
    g = session_games[2]
    page.goto(session_server.url + "?board=2&room=open")
    wait_solved(page, [])
    played: list[str] = []
    for _ in range(9):
        expected = expected_scores(g.deal, g.trump, g.declarer, [Card.parse(c) for c in played])
        assert shown_tricks(page) == expected
        # The lowest of the worst cards: a line of its own, not the record's.
        card = min(expected, key=lambda c: (expected[c], Card.parse(c).rank))
        page.click(f".hand.on-turn [data-card='{card}']")
        played.append(card)
        wait_solved(page, played)
        assert page.url.endswith("play=" + ",".join(played))
    taken = page.locator("#taken").inner_text()
    assert taken.endswith(("NS 2 · EW 0", "NS 1 · EW 1", "NS 0 · EW 2"))
    page.click("#undo")
    wait_solved(page, played[:-1])
    page.click("#undo")
    wait_solved(page, played[:-2])
    page.click("#redo")
    wait_solved(page, played[:-1])
    assert shown_tricks(page) == expected_scores(g.deal, g.trump, g.declarer, [Card.parse(c) for c in played[:-1]])
    page.click("#tricks li[data-trick='2']")
    wait_solved(page, played[:4])
    page.click("#claim")
    page.wait_for_function("() => document.getElementById('claimed').dataset.declarer !== undefined")
    tricks_won = page.locator("#claimed").get_attribute("data-declarer")
    assert (
        int(tricks_won or -1)
        == ddsbind.analyse_play(g.deal, g.trump, g.leader, [Card.parse(c) for c in played[:4]])[-1]
    )
    screenshot(page, tmp_path, "board-claim.png")
    page.go_back()  # the claim is a step of its own: Back takes it back
    page.wait_for_function("() => !new URLSearchParams(location.search).has('claim')")
    wait_solved(page, played[:4])
    page.wait_for_function("() => document.getElementById('claimed').textContent === ''")
    assert page.locator(".card.claimed").count() == 0


@pytest.mark.slow
def test_a_position_opens_from_its_address(session_server, session_games, page, tmp_path):
    """Without it, a position could not be shared as a link and reopened."""
    g = session_games[4]
    play = g.play[:6]
    page.goto(session_server.url + "?board=3&room=open&play=" + ",".join(str(c) for c in play))
    wait_solved(page, play)
    assert shown_tricks(page) == expected_scores(g.deal, g.trump, g.declarer, play)
    assert page.locator("#center .on-table").count() == 2
    assert page.locator("#tricks li.trick").count() == 2
    for seat in "NESW":
        assert page.locator(f"#hand-{seat} .card").count() in (11, 12)
    assert page.locator("#boards").input_value() == "board=3&room=open"
    page.wait_for_function("() => document.body.dataset.table === '1'")
    table = ddsbind.dd_table(g.deal)
    cells = page.eval_on_selector_all(
        "#dd-table td", "els => els.map(e => [e.dataset.strain, e.dataset.seat, +e.textContent])"
    )
    assert sorted(cells) == sorted([s, seat, table[s, seat]] for s in ("NT", "S", "H", "D", "C") for seat in "NESW")
    assert page.locator("#par").inner_text() == "Par: " + ddsbind.par(table, g.vulnerable).words()
    screenshot(page, tmp_path, "board-address.png")


@pytest.mark.slow
def test_a_pasted_bad_deal_shows_the_error_and_a_good_one_plays(browser, tmp_path):
    """Without it, a user pasting a typo would see nothing, and the paste page would be a dead end."""
    context = browser.new_context(viewport={"width": 1280, "height": 500})
    page = context.new_page()
    page.set_default_timeout(180_000)
    bad = "N:AKQ2.AK2.A2.AK32 T98.QJT.KQJ.QJT9"
    with pytest.raises(ddsbind.Error) as caught:
        Deal.from_pbn(bad)
    with BoardServer() as server:
        page.goto(server.url)
        page.wait_for_function("() => document.body.dataset.ready === 'paste'")
        page.fill("#deal-input", bad)
        page.click("#deal-go")
        page.wait_for_selector("#error:not([hidden])")
        assert page.locator("#error").inner_text() == str(caught.value)
        assert page.locator("#main").is_hidden()
        screenshot(page, tmp_path, "board-error.png", board=False)
        deal = Deal.random(7)
        page.fill("#deal-input", deal.to_pbn())
        page.click("#deal-go")
        wait_solved(page, [])
        assert page.locator("#error").is_hidden()
        # No record: the contract is par's (DDS's DealerPar, dealer N, nobody vulnerable), its first declarer.
        from ddsbind.scoring import DealerParContract

        par = DealerParContract.parse(ddsbind.dealer_par(ddsbind.dd_table(deal), "N", "None").contracts[0])
        assert shown_tricks(page) == expected_scores(deal, par.contract.strain, par.declarers[0], [])
        assert page.locator("#contract-source").inner_text().startswith("(par)")
    context.close()


def test_the_cli_refuses_a_missing_file_in_one_line():
    """Without it, a mistyped file name would start a board with nothing to show."""
    result = CliRunner().invoke(main, ["board", "no-such-file.pbn", "--no-browser"])
    assert result.exit_code == 1
    assert (
        result.output
        == "ddsbind: error: no-such-file.pbn: no such file (nor a PBN deal such as 'N:AKQ2.AK2.A2.AK32 ...')\n"
    )


def test_show_puts_a_deal_or_a_game_inline_in_a_notebook(session_games):
    """Without it, a notebook user would have to start the board by hand for each deal."""
    from ddsbind.board import show, stop_shown

    deal = Deal.random(11)
    frame = show(deal)
    game_frame = show(session_games[1], play="HJ,HQ")
    assert frame.url.split("?")[0] == game_frame.url.split("?")[0]  # one server for the process
    html = game_frame._repr_html_()
    assert html.startswith("<iframe ") and "&amp;play=HJ,HQ" in html
    parsed = urllib.parse.urlsplit(game_frame.url)
    query = dict(urllib.parse.parse_qsl(parsed.query))
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=300)
    conn.request("GET", "/api/position?" + urllib.parse.urlencode(query))
    doc = json.loads(conn.getresponse().read())
    conn.request("GET", "/api/position?" + urllib.parse.urlsplit(frame.url).query)
    deal_doc = json.loads(conn.getresponse().read())
    conn.request("GET", "/")
    policy = conn.getresponse().getheader("Content-Security-Policy") or ""
    conn.close()
    assert doc["board"]["record"]["play"] == [str(c) for c in session_games[1].play]
    assert doc["position"]["play"] == ["HJ", "HQ"]
    assert deal_doc["board"]["deal"] == deal.to_pbn() and deal_doc["board"]["record"] is None
    assert "frame-ancestors 'self' http://localhost:* http://127.0.0.1:*" in policy
    with pytest.raises(ddsbind.Error, match="SA"):
        show(session_games[1], play="HJ,HQ,SA")
    stop_shown()
    with pytest.raises(OSError):  # stopped, and its pool closed with it
        socket.create_connection((parsed.hostname, parsed.port), timeout=30).close()
    assert frame.server.state.pool.closed and game_frame.server is frame.server


def test_the_cli_serves_the_file_until_ctrl_c():
    """Without it, `ddsbind board FILE` might not serve the file, or Ctrl-C might leave a traceback or a process."""
    import signal
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cmd = [sys.executable, "-m", "ddsbind", "board", str(SESSION), "--port", str(port), "--no-browser"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        doc = None
        deadline = time.monotonic() + 300
        while doc is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
                conn.request("GET", "/api/boards")
                doc = json.loads(conn.getresponse().read())
                conn.close()
            except OSError:
                time.sleep(0.2)
        assert doc is not None and doc["source"] == "session.lin" and len(doc["boards"]) == 8
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0 and out == ""
    assert err == f"ddsbind board: http://127.0.0.1:{port}/  (Ctrl-C stops it)\nddsbind board: stopped\n"


@pytest.mark.slow
def test_a_malformed_file_shows_the_readers_error_on_the_page(browser, tmp_path):
    """Without it, `ddsbind board broken.pbn` would open a blank page that does not say what is wrong."""
    bad = tmp_path / "broken.lin"
    bad.write_text("qx|o1|md|3SAKQ,HAK,DAK,CAK|\n")
    with pytest.raises(ddsbind.Error) as caught:
        read_games(bad)
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(180_000)
    with BoardServer(bad) as server:
        page.goto(server.url)
        page.wait_for_function("() => document.body.dataset.failed === '1'")
        shown = page.locator("#error").inner_text()
        assert str(caught.value) in shown and "\n" not in shown
        assert page.locator("#main").is_hidden()
    context.close()


# -- links that last, the exported page, the page on every screen --------------------------------


def test_the_default_port_is_fixed_and_the_next_free_one_when_taken():
    """Without it, a link to the board would die with every restart (the port changed each time)."""
    from ddsbind.board.boards import DEFAULT_PORT, PORT_TRIES

    assert str(DEFAULT_PORT) in CliRunner().invoke(main, ["board", "--help"]).output
    with socket.socket() as busy:
        try:
            busy.bind(("127.0.0.1", DEFAULT_PORT))
            busy.listen()
        except OSError:  # another program holds it already: the board must step over it all the same
            pass
        with BoardServer(SESSION, port=None) as server:
            assert DEFAULT_PORT < server.port < DEFAULT_PORT + PORT_TRIES
            assert api(server, "boards")[0] == 200


def test_export_writes_one_page_with_every_position_of_the_record(tmp_path, session_games):
    """Without it, `board --export` would write a page missing positions of the play, or too big to mail."""
    from ddsbind.formats.lin import format_lin

    g = session_games[3]  # 2 Closed: 24 cards
    source = tmp_path / "one.lin"
    source.write_text(format_lin([g]))
    out = tmp_path / "one.html"
    result = CliRunner().invoke(main, ["board", str(source), "--export", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert out.stat().st_size < 300_000  # one distinct deal
    assert "/assets/" not in page and "fetch(" in page  # the script inline; fetch() only on a live board
    start = page.index('<script id="static-data" type="application/json">') + 49
    data = json.loads(page[start : page.index("</script>", start)])
    where = data["boards"]["boards"][0]["query"]
    for k in (0, 5, 24):
        play = ",".join(str(c) for c in g.play[:k])
        sol = data["answers"][f"solve?{where}" + (f"&play={play}" if play else "")]
        shown = {c: s["score"] for s in sol["cards"] for c in (s["card"], *s["equals"])}
        assert shown == expected_scores(g.deal, g.trump, g.declarer, g.play[:k])
    assert len([k for k in data["answers"] if k.startswith("position?")]) == len(g.play) + 1


def test_show_without_a_server_is_the_static_page(session_games):
    """Without it, a saved notebook would show an empty frame where the deal was."""
    from ddsbind.board import show

    frame = show(session_games[7], live=False)
    html = frame._repr_html_()
    assert frame.url is None and not frame.live
    assert html.startswith("<iframe srcdoc=") and "static-data" in html and "&lt;script" in html
    with pytest.raises(ddsbind.Error, match="SA"):
        show(session_games[1], play="HJ,HQ,SA", live=False)


def expected_shown(deal: Deal, trump: Strain, declarer: Seat, play: list[Card], how: str, level: int) -> dict[str, str]:
    """What each legal card shows in display ``how``, from solve_board's scores (the oracle) and the tricks so far."""
    scores = expected_scores(deal, trump, declarer, play)
    state = ddsbind.game.Play(deal, trump, declarer.next())
    state.play_all(play)
    won = sum(1 for t in state.tricks if t.winner.side == declarer.side)
    left = 13 - len(state.tricks)
    on_turn_declares = state.to_play.side == declarer.side
    out = {}
    for card, score in scores.items():
        total = won + (score if on_turn_declares else left - score)
        over = total - level - 6
        out[card] = {"side": str(score), "declarer": str(total), "result": "=" if over == 0 else f"{over:+d}"}[how]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1280])
def test_every_control_fits_and_works_at_a_phone_and_a_desktop_width(
    session_server, session_games, browser, width, tmp_path
):
    """Without it, on a phone half the board and its buttons were off-screen, and the numbers read ambiguously."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(180_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    g = session_games[1]  # 1 Closed, 3NT by W
    play = g.play[:5]
    # A bad card in the address: the play up to it, and which card and why, on the page.
    page.goto(session_server.url + "?board=1&room=closed&play=" + ",".join(map(str, play)) + ",XX,SA")
    wait_solved(page, play)
    fault = page.locator("#fault")
    assert (
        fault.is_visible() and "card 6 of the play, XX" in fault.inner_text() and "is not a card" in fault.inner_text()
    )
    assert page.url.endswith("play=" + ",".join(map(str, play)))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    controls = ["#boards", "#deal-input", "#deal-go", "#level", "#trump", "#doubled", "#declarer", "#display"]
    controls += [
        f"#controls #{b}" for b in ("start", "prev-trick", "undo", "next-trick", "end", "next", "best", "claim")
    ]
    controls += ["#link", "#copy", "#export-handviewer", "#export-lin", "#export-pbn", ".show-hand >> nth=0"]
    controls += [".hand.on-turn .card.legal >> nth=0", "#hand-E .seat .hide"]
    for selector in controls:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    if width < 700:  # a finger's size on a phone
        sizes = page.eval_on_selector_all(".hand.on-turn .card.legal", "els => els.map(e => e.getBoundingClientRect())")
        assert sizes and all(s["width"] >= 40 and s["height"] >= 40 for s in sizes)
    # The numbers, in each display, are solve_board's: result against the contract by default.
    assert page.locator("#display").input_value() == "result"
    for how in ("result", "declarer", "side"):
        page.select_option("#display", how)
        got = page.eval_on_selector_all(
            ".hand.on-turn [data-shown]", "els => Object.fromEntries(els.map(e => [e.dataset.card, e.dataset.shown]))"
        )
        assert got == expected_shown(g.deal, g.trump, g.declarer, play, how, 3), how
        assert page.locator("#legend").inner_text()
    for at in ([], g.play):  # more positions: the opening lead, and the record's last card
        page.click("#start" if not at else "#end")
        wait_solved(page, at)
        got = page.eval_on_selector_all(
            ".hand.on-turn [data-shown]", "els => Object.fromEntries(els.map(e => [e.dataset.card, e.dataset.shown]))"
        )
        assert got == expected_shown(g.deal, g.trump, g.declarer, at, "side", 3)
    page.click("#start")
    page.keyboard.press("Shift+ArrowRight")
    wait_solved(page, g.play[:4])
    page.keyboard.press("ArrowRight")
    wait_solved(page, play)
    page.select_option("#display", "result")
    total = ddsbind.analyse_play(g.deal, g.trump, g.leader, play)[-1]
    if width < 700:
        screenshot(page, tmp_path, "board-phone.png")
    words = "makes" if total >= 9 else "down"
    assert page.locator("#outlook").get_attribute("data-declarer") == str(total)
    assert words in page.locator("#outlook").inner_text()
    # Export: LIN and the handviewer address carry the deal and the play so far.
    page.click("#export-lin")
    page.wait_for_function("() => document.getElementById('export-text').dataset.kind === 'lin'")
    lin = page.locator("#export-text").input_value()
    assert lin.endswith("pc|" + "|pc|".join(map(str, play)) + "|") and "md|" in lin
    page.click("#export-handviewer")
    page.wait_for_function("() => document.getElementById('export-text').dataset.kind === 'handviewer'")
    assert (
        page.locator("#export-text").input_value().startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
    )
    assert page.locator("#link").input_value() == page.url
    # The contract chooser and hiding a hand.
    page.select_option("#trump", "S")
    wait_solved(page, [])
    assert "strain=S" in page.url and shown_tricks(page) == expected_scores(g.deal, Strain.S, g.declarer, [])
    page.click("#hand-E .seat .hide")
    assert page.locator("#hand-E .hidden-cards").count() == 1
    context.close()
    assert not errors, errors


@pytest.mark.slow
def test_a_whole_board_is_played_by_keyboard_alone(browser):
    """Without it, a keyboard user lost the focus after each card and had no keys to step through the play."""
    deal = Deal.random(21)
    context = browser.new_context(viewport={"width": 390, "height": 800})
    page = context.new_page()
    page.set_default_timeout(180_000)
    with BoardServer() as server:  # the paste page, the deal pasted
        page.goto(server.url + "?" + urllib.parse.urlencode({"deal": deal.to_pbn(), "strain": "H", "declarer": "N"}))
        wait_solved(page, [])
        page.select_option("#vul-pick", "NS")  # kept in the address, shown in the hands' colours
        page.wait_for_function("() => new URLSearchParams(location.search).get('vul') === 'NS'")
        wait_solved(page, [])
        assert page.locator("#hand-N.vul").count() == 1 and page.locator("#hand-E.vul").count() == 0
        page.locator("body").click(position={"x": 1, "y": 1})
        for _ in range(60):  # Tab reaches the hand to play's cards
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('legal')"):
                break
        played: list[str] = []
        for _ in range(52):
            focused = page.evaluate("document.activeElement.dataset.card")
            assert focused and page.locator(f".hand.on-turn .card.legal[data-card='{focused}']").count() == 1
            page.keyboard.press("Enter")
            played.append(focused)
            wait_solved(page, played)
        assert page.locator("#outlook").inner_text().startswith("Played out: declarer took")
        won = ddsbind.game.Play(deal, Strain.H, Seat.E)
        won.play_all(played)
        decl = sum(1 for t in won.tricks if t.winner.side == Seat.N.side)
        assert page.locator("#outlook").get_attribute("data-declarer") == str(decl)
        for key, n in (("ArrowLeft", 51), ("Shift+ArrowLeft", 48), ("u", 47), ("Home", 0), ("r", 1),
                       ("Shift+ArrowRight", 4), ("ArrowRight", 5), ("End", 52)):  # fmt: skip
            page.keyboard.press(key)
            wait_solved(page, played[:n])
    context.close()


@pytest.mark.slow
def test_an_exported_file_plays_the_record_from_disk_with_no_request(browser, tmp_path, session_games):
    """Without it, the exported page would need a server (or the network) to show what it promises."""
    from ddsbind.board.app import export_html
    from ddsbind.formats.lin import format_lin

    g = session_games[5]  # 3 Closed: 8 cards
    source = tmp_path / "short.lin"
    source.write_text(format_lin([g]))
    out = tmp_path / "short.html"
    export_html(source, out)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(60_000)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    for k in range(len(g.play) + 1):
        wait_solved(page, g.play[:k])
        scores = shown_tricks(page)
        assert scores == expected_scores(g.deal, g.trump, g.declarer, g.play[:k]), k
        if k == 0:  # another card than the record's: said, and the page stays
            other = next(c for c in scores if c != str(g.play[0]))
            page.click(f".hand.on-turn [data-card='{other}']")
            assert "the record's own play only" in page.locator("#status").inner_text()
            assert page.locator("#main").is_visible() and page.evaluate("document.body.dataset.solved") == ""
        if k < len(g.play):
            page.click("#next")
    page.wait_for_function("() => document.body.dataset.table === '1'")
    page.click("#sd-open")  # single dummy deals and solves on a server: the page says it needs the live board
    assert page.locator("#sd-static").is_visible() and page.locator("#sd-controls").is_hidden()
    assert "needs the live board" in page.locator("#sd").inner_text()
    assert requests == [out.as_uri()]
    context.close()


@pytest.mark.slow
def test_a_shared_link_reopens_the_same_position_after_a_restart(browser, session_games):
    """Without it, a link sent to a partner would open nothing once the board restarted on another port."""
    g = session_games[3]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(180_000)
    with BoardServer(SESSION, port=None) as server:
        page.goto(server.url + "?board=2&room=closed")
        wait_solved(page, [])
        for k in range(3):
            page.click("#next")
            wait_solved(page, g.play[: k + 1])
        link = page.locator("#link").input_value()
        port = server.port
    with BoardServer(SESSION, port=None) as again:
        assert again.port == port
        page.goto("about:blank")
        page.goto(link)
        wait_solved(page, g.play[:3])
        assert shown_tricks(page) == expected_scores(g.deal, g.trump, g.declarer, g.play[:3])
    context.close()


def test_a_lin_board_or_a_handviewer_address_is_pasted_as_a_record(session_server, session_games):
    """Without it, a player could not paste the LIN or handviewer link BBO gives them."""
    from ddsbind.formats.lin import format_lin

    g = session_games[1]
    lin = format_lin([g]).strip()
    hv = "https://www.bridgebase.com/tools/handviewer.html?lin=" + urllib.parse.quote(lin, safe="")
    for text in (lin, hv, "n=SAKQHAKQDAKQCAKQJ&s=S2345H2345D2345C2&e=S6789H6789D6789C3&d=s&v=b&a=7nppp&p=sjsa"):
        status, doc = api(session_server, "position", deal=text, play="")
        assert status == 200, doc
        record = doc["board"]["record"]
        if text is hv or text is lin:
            assert doc["board"]["deal"] == g.deal.to_pbn() and record["play"] == [str(c) for c in g.play]
            assert doc["contract"]["text"] == "3NT" and doc["contract"]["source"] == "record"
        else:
            assert record["play"] == ["SJ", "SA"] and doc["board"]["vulnerable"] == "All"
            assert doc["board"]["dealer"] == "S" and doc["contract"]["declarer"] == "S"
    status, doc = api(session_server, "position", deal=lin, dealer="E", vul="NS")
    assert status == 200 and doc["board"]["dealer"] == "E" and doc["board"]["vulnerable"] == "NS"
    status, doc = api(session_server, "position", deal="https://tinyurl.com/abc")
    assert status == 400 and "network" in doc["error"]


def test_a_large_deal_file_is_opened_as_read_not_loaded(tmp_path):
    """Without it, a database of millions of deals took minutes and gigabytes before the board showed one."""
    from ddsbind.board.boards import RecordBoards
    from ddsbind.formats import read_records

    sample = SAMPLE_ZRD.read_bytes()
    n = 24 * 5000  # sample.zrd's 24 records, 5000 times over
    big = tmp_path / "big.zrd"
    big.write_bytes(sample * 5000)
    owners = read_records(SAMPLE_ZRD).owners
    with BoardServer(big) as server:
        assert isinstance(server.state.boards, RecordBoards) and len(server.state.boards) == n
        status, doc = api(server, "boards")
        assert status == 200 and doc["count"] == n and len(doc["boards"]) == 2000
        for number in (1, 24 * 4321 + 7, n):
            status, pos = api(server, "position", board=str(number))
            assert status == 200
            assert pos["board"]["deal"] == Deal.from_owners(owners[(number - 1) % 24]).to_pbn()
            assert pos["board"]["dealer"] == Seat.dealer_of_board(number).name
            assert pos["board"]["vulnerable"] == ddsbind.Vulnerability.of_board(number).pbn
        status, doc = api(server, "position", board=str(n + 1))
        assert status == 400 and f"boards 1 to {n}" in doc["error"]
