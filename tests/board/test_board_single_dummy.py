"""The analysis board's single-dummy view: ``/api/single-dummy`` and the page's bars.

The oracle is :func:`ddsbind.single_dummy` called directly, on a view written
here by hand from the record's deal (the hands the player sees, the others
``-``), with the same contract, play, samples and seed.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator

import pytest

from ddsbind import Deal, Seat, Strain, single_dummy
from ddsbind.board.app import BoardServer
from ddsbind.formats import read_games
from ddsbind.game import Play
from tests.board.test_board import SESSION, api, screenshot, wait_solved

#: Board 1 of the Closed room: 3NT by W.
BOARD = {"board": "1", "room": "closed"}


@pytest.fixture(scope="module")
def server() -> Iterator[BoardServer]:
    with BoardServer(SESSION) as s:
        yield s


@pytest.fixture(scope="module")
def game():
    return read_games(SESSION)[1]


def view_of(deal: Deal, seen: str) -> str:
    """The PBN view with the hands in ``seen`` whole and the others hidden."""
    return "N:" + " ".join(deal.hand_text(s) if s in seen else "-" for s in "NESW")


def numbers(cards) -> list[tuple]:
    return [(c["card"], c["equals"], c["makes"], c["makes_ci"], c["vs_best"], c["vs_best_ci"]) for c in cards]


def direct(view: str, play: list, samples: int, seed: int) -> list[tuple]:
    r = single_dummy(view, contract="3NTW", played=[str(c) for c in play], samples=samples, seed=seed)
    return [(c.card, list(c.equals), c.makes, list(c.makes_ci), c.makes_vs_best, list(c.makes_vs_best_ci))
            for c in r.cards]  # fmt: skip


def test_the_route_answers_what_single_dummy_answers_for_the_players_view(server, game):
    """Without it, the board's odds could differ from the library's for what the player really sees."""
    play = game.play[:12]  # trick 4: dummy (E) to lead, declarer W sees E and W
    status, doc = api(server, "single-dummy", **BOARD, play=",".join(map(str, play)))
    assert status == 200, doc
    assert doc["see"] == ["E", "W"] and doc["to_play"] == "E" and doc["declaring"]
    assert (doc["samples"], doc["seed"], doc["exact"], doc["more"]) == (200, 1, False, 800)
    assert numbers(doc["cards"]) == direct(view_of(game.deal, "EW"), play, 200, 1)
    best = max(c["makes"] for c in doc["cards"])
    assert any(c["vs_best"] == 0 for c in doc["cards"]) and all(c["vs_best"] <= 0 for c in doc["cards"])
    assert {c["card"]: c["vs_best"] for c in doc["cards"]} == pytest.approx(
        {c["card"]: c["makes"] - best for c in doc["cards"]}
    )
    # The opening leader (N) sees only his own hand; another seed and sample count are the library's too.
    status, doc = api(server, "single-dummy", **BOARD, samples="30", seed="7")
    assert status == 200 and doc["see"] == ["N"] and doc["to_play"] == "N" and not doc["declaring"]
    assert numbers(doc["cards"]) == direct(view_of(game.deal, "N"), [], 30, 7)
    # A defender (S, second to play) sees his own hand and dummy's.
    status, doc = api(server, "single-dummy", **BOARD, play=",".join(map(str, game.play[:25])))
    assert status == 200 and doc["see"] == ["E", "S"] and doc["to_play"] == "S" and not doc["declaring"]
    assert numbers(doc["cards"]) == direct(view_of(game.deal, "ES"), game.play[:25], 200, 1)
    assert all(c["vs_best"] >= 0 for c in doc["cards"])  # the defence's best makes it least often
    # Every hand seen: one layout, exact.
    status, doc = api(server, "single-dummy", **BOARD, play=",".join(map(str, play)), see="NESW")
    assert status == 200 and doc["exact"] and doc["samples"] == 1 and doc["more"] is None
    assert doc["view"] == game.deal.to_pbn()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"see": "NQ"}, "see='NQ': see 'Q' is not one of N"),
        ({"see": "NN"}, "each of N, E, S, W at most once"),
        ({"see": "S"}, "the hand to play, N, must be among the hands seen"),
        ({"samples": "0"}, "samples '0' is not a number from 1 to 5000"),
        ({"samples": "9999"}, "samples '9999' is not a number from 1 to 5000"),
        ({"seed": "-3"}, "seed '-3' is not a number from 0 or more"),
        ({"play": "HJ,SA"}, "SA"),
        ({"board": "99"}, "board 99: this file has boards"),
    ],
)
def test_a_bad_request_answers_400_naming_what_is_wrong(server, query, message):
    """Without it, a bad address would crash the view or be answered for something else than asked."""
    status, doc = api(server, "single-dummy", **{**BOARD, **query})
    assert status == 400 and message in doc["error"], doc


def test_a_finished_play_has_no_card_to_choose():
    """Without it, the view would answer an empty table (or crash) after the last card."""
    deal = Deal.random(5)
    p = Play(deal, Strain.NT, Seat.E)
    cards = []
    while not p.finished:
        c = p.legal_cards()[0]
        p.play(c)
        cards.append(str(c))
    with BoardServer() as s:
        query = {"deal": deal.to_pbn(), "strain": "NT", "declarer": "N", "play": ",".join(cards)}
        status, doc = api(s, "single-dummy", **query)
    assert status == 400 and doc["error"] == "single dummy: the play is over, no card is left to choose"


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1280])
def test_the_view_opens_by_keyboard_and_shows_a_bar_a_card(server, game, browser, width, tmp_path):
    """Without it, a player could not reach the single-dummy odds without a mouse, or they overflowed a phone."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.set_default_timeout(180_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    play = [str(c) for c in game.play[:12]]
    page.goto(server.url + "?" + urllib.parse.urlencode({**BOARD, "play": ",".join(play)}, safe=","))
    wait_solved(page, play)
    page.locator("body").click(position={"x": 1, "y": 1})
    for _ in range(80):  # Tab to the Single dummy button, Enter opens the view
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "sd-open":
            break
    page.keyboard.press("Enter")
    assert page.locator("#sd").is_visible() and page.locator("#sd-open").get_attribute("aria-expanded") == "true"
    page.wait_for_function("key => document.body.dataset.sd === key", arg=",".join(play))
    _, doc = api(server, "single-dummy", **BOARD, play=",".join(play))
    groups, seen = [], set()
    for c in doc["cards"]:
        if c["card"] not in seen:
            groups.append(c)
            seen.update([c["card"], *c["equals"]])
    rows = page.locator("#sd-cards .sd-row")
    assert rows.count() == len(groups)
    for k, c in enumerate(groups):
        row = rows.nth(k)
        assert row.get_attribute("data-card") == c["card"] and float(row.get_attribute("data-makes")) == c["makes"]
        bar = row.locator(".sd-bar").bounding_box()
        fill = row.locator(".sd-fill").bounding_box()
        ci = row.locator(".sd-ci").bounding_box()
        assert fill["width"] == pytest.approx(bar["width"] * c["makes"], abs=1.5)
        low, high = c["makes_ci"]
        assert ci["x"] - bar["x"] == pytest.approx(bar["width"] * low, abs=1.5)
        assert ci["width"] == pytest.approx(bar["width"] * (high - low), abs=1.5)
        assert f"{100 * c['makes']:.1f}%" in row.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if width > 1000:
        screenshot(page, tmp_path, "board-single-dummy.png")
    for selector in ("#sd-go", "#sd-more", ".sd-see >> nth=3", "#sd-cards .sd-row >> nth=0"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, selector
    # Another view by keyboard: every hand seen is one layout, exact; a bad one is said in place, one line.
    for seat in ("N", "S"):
        page.locator(f".sd-see[value='{seat}']").check()
    page.locator("#sd-go").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('sd-caption').textContent.includes('exact')")
    assert page.locator("#sd-more").is_hidden()
    assert page.locator("#sd-cards .sd-row").count() >= 1
    assert not errors, errors
    page.route("**/api/single-dummy?*", lambda route: route.fulfill(
        status=400, content_type="application/json", body='{"error": "see=\'Q\': not a seat"}'))  # fmt: skip
    page.locator("#sd-go").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('sd-error').hidden")
    assert page.locator("#sd-error").inner_text() == "see='Q': not a seat"
    assert page.locator("#sd").get_attribute("aria-busy") is None and page.locator("#sd-status").inner_text() == ""
    context.close()
