"""Hostile use of best_line, the pool and play strings: refused clearly, or the right answer.

Cases that could hang (a line played past its end) run in a subprocess.
"""

from __future__ import annotations

import json

import pytest

import ddsbind
from ddsbind import Deal, dll, errors
from tests.support import python_c

FULL = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
# Three clubs a hand: N T98, E 765, S 432, W AKQ.
CLUBS = "N:...T98 ...765 ...432 ...AKQ"


# -- best_line: the current trick is checked as solve_board checks it ------------------------


def test_best_line_refuses_what_solve_board_refuses():
    """4 or 5 trick cards, one card four times, a trick card the hand that played it still holds: all refused.

    Before, best_line played these out: 14 tricks, cards played twice, the
    SA led by West who did not hold it.  Each case runs in a fresh process
    with a time limit, since a line run past its end could loop.
    """
    proc = python_c(
        f"""
        import json
        from ddsbind import Card, Deal, best_line, solve_board, errors
        full = Deal.from_pbn({FULL!r})

        def gone(*cards):
            masks = full.remain_cards.astype(int)
            for text in cards:
                c = Card.parse(text)
                masks[full.holder(c), c.suit] &= ~(1 << c.rank)
            return Deal(masks)

        cases = {{
            "SA x4": (full, "H", "W", ["SA", "SA", "SA", "SA"]),
            "4 cards (CLI --trick)": (full, "S", "W", "SA,SK,SQ,SJ"),
            "4 cards held by nobody": (gone("SA", "SQ", "SK", "S8"), "S", "W", ["SA", "SQ", "SK", "S8"]),
            "5 cards": (gone("SA", "SQ", "SK", "S8", "S2"), "S", "W", ["SA", "SQ", "SK", "S8", "S2"]),
            "SA still held by W": (full, "S", "W", ["SA", "SK", "SQ"]),
            "SQ led by W, held by N": (gone("SQ"), "S", "W", ["SQ"]),
        }}
        out = {{}}
        for name, (deal, trump, first, trick) in cases.items():
            row = []
            for fn in (best_line, lambda d, t, f, c: solve_board(d, t, f, current_trick=c)):
                try:
                    fn(deal, trump, first, trick)
                    row.append("accepted")
                except errors.Error as exc:
                    row.append(type(exc).__name__)
            out[name] = row
        print(json.dumps(out))
        """
    )
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    expected = {
        "SA x4": "CardCountError",
        "4 cards (CLI --trick)": "CardCountError",
        "4 cards held by nobody": "CardCountError",
        "5 cards": "CardCountError",
        "SA still held by W": "PlayedCardError",
        "SQ led by W, held by N": "CardCountError",
    }
    # best_line and solve_board answer each alike: one check.
    assert got == {name: [cls, cls] for name, cls in expected.items()}


def test_best_line_plays_each_card_once_and_stops_at_the_last_trick():
    """A line from a trick in progress: every card of the deal once, tricks numbered on to 13, no more."""
    deal = Deal.from_pbn(CLUBS)
    line = ddsbind.best_line(deal, "NT", "N")
    cards = [c for t in line for c in t.cards]
    assert sorted(cards) == sorted(c for s in "NESW" for c in deal.hand(s))
    assert [t.number for t in line] == [11, 12, 13]
    # The same position with N's CT already led, given as a string with a "10".
    after = Deal.from_pbn("N:...98 ...765 ...432 ...AKQ")
    line2 = ddsbind.best_line(after, "NT", "N", "C10")
    assert line2 == ddsbind.best_line(after, "NT", "N", ["CT"])
    assert line2[0].cards[0] == ddsbind.Card.parse("CT")
    assert sorted(c for t in line2 for c in t.cards) == sorted(cards)
    assert [t.number for t in line2] == [11, 12, 13]


# -- the pool: stream items and closing --------------------------------------------------------


@pytest.fixture(scope="module")
def pool1():
    with ddsbind.SolverPool(1) as p:
        yield p


@pytest.mark.parametrize("where", [0, 1, 2])
def test_imap_tables_none_is_a_bad_item_not_the_end(pool1, where):
    """``None`` in the stream raises ArgumentError at its position; before, it ended the stream silently."""
    items: list[object] = [CLUBS, CLUBS]
    items.insert(where, None)
    got = []
    with pytest.raises(errors.ArgumentError) as info:
        for t in pool1.imap_tables(items):
            got.append(t)
    assert (info.value.item, info.value.index) == ("deal", where)
    assert len(got) <= where  # never a table out of line with its input


def test_imap_tables_closed_by_another_thread_between_items_raises_keyboard_interrupt():
    """The consumer of imap_tables whose pool another thread closes gets the documented KeyboardInterrupt.

    Before, the next item raised ``RuntimeError``.  In a fresh process with a
    time limit: a stream that missed the close would wait for ever.
    """
    proc = python_c(
        f"""
        import threading
        import ddsbind

        def endless():
            while True:
                yield {CLUBS!r}

        pool = ddsbind.SolverPool(1)
        stream = pool.imap_tables(endless())
        print("first", next(stream)[4, 0] >= 0)
        closer = threading.Thread(target=pool.close)
        closer.start()
        closer.join()
        try:
            next(stream)
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        except BaseException as exc:
            print("wrong", type(exc).__name__, exc)
        stream.close()
        # A stream started on a closed pool is refused (a StateError: a ddsbind.Error and a RuntimeError).
        for call in (lambda: next(pool.imap_tables([{CLUBS!r}])), lambda: pool.dd_tables([{CLUBS!r}])):
            try:
                call()
            except ddsbind.StateError as exc:
                print("StateError", "closed" in str(exc))
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[:4] == ["first True", "KeyboardInterrupt", "StateError True", "StateError True"], (
        proc.stdout,
        proc.stderr,
    )


def test_settings_refused_while_solving_are_a_ddsbind_error():
    """SetMaxThreads with a pool open is refused by a ``ddsbind.Error`` (StateError), still a RuntimeError."""
    with ddsbind.SolverPool(1), pytest.raises(errors.StateError, match="SolverPool is open") as info:
        dll.SetMaxThreads(1)
    assert isinstance(info.value, ddsbind.Error) and isinstance(info.value, RuntimeError)


@pytest.mark.parametrize("threads", [True, False, 0, -1, 1.0, "2", 2**70, 129])
def test_pool_thread_counts_that_are_not_counts_are_refused(threads):
    """``SolverPool(True)`` is not one thread, ``2**70`` is not DDS's "userThreads" problem: both named as threads."""
    with pytest.raises(errors.InvalidArgumentError, match="threads") as info:
        ddsbind.SolverPool(threads)
    assert "userThreads" not in str(info.value)
    assert "General error" not in str(info.value)


def test_pool_order_is_a_constructor_argument():
    """The table order is chosen when the pool is made (not a class attribute to mutate); refused if unknown."""
    with ddsbind.SolverPool(1, order="hardest") as p:
        assert p.order == "hardest"
        assert [t.array.tolist() for t in p.dd_tables([CLUBS])] == [ddsbind.dd_table(CLUBS).array.tolist()]
    with pytest.raises(errors.InvalidArgumentError, match="order"):
        ddsbind.SolverPool(1, order="fastest")
    assert not hasattr(ddsbind.SolverPool, "leaders") and not hasattr(ddsbind.SolverPool, "later_mode")
    from ddsbind import solver

    assert not hasattr(solver, "TABLES_ROUTE")


# -- play strings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "plays", ["C10C7C4CA", "C10 C7 C4 CA", "CT,C7,C4,CA", "C10, C7, C4, CA", ["C10", "C7", "C4", "CA"]]
)
def test_play_strings_with_10_and_commas(plays):
    """``C10`` is a ten (not "'C1' is not a card"), and commas separate cards as ``--trick`` does."""
    assert ddsbind.analyse_play(CLUBS, "NT", "N", plays) == ddsbind.analyse_play(CLUBS, "NT", "N", "CTC7C4CA")


def test_costly_cards_takes_a_comma_separated_play_with_a_10():
    """costly_cards reads the same play strings as analyse_play."""
    assert ddsbind.costly_cards(FULL, "NT", "N", "C10, C4") == ddsbind.costly_cards(FULL, "NT", "N", ["CT", "C4"])


def test_dll_pbn_play_string_is_read_as_the_python_layer_reads_it():
    """AnalysePlayPBN takes "C10" and separators too, and hands DDS its own two-character form."""
    deal = dll.dealPBN(trump=4, first=0, remainCards=CLUBS.encode())
    answers = []
    for text in (b"CTC7C4CA", b"C10 C7,C4 CA"):
        solved = dll.solvedPlay()
        rc = dll.AnalysePlayPBN(deal, dll.playTracePBN(number=4, cards=text), solved, 0)
        assert rc == dll.RETURN_NO_FAULT, dll.last_error()
        answers.append(list(solved.tricks[0 : solved.number]))
    assert answers[0] == answers[1] == ddsbind.analyse_play(CLUBS, "NT", "N", "CTC7C4CA")
    rc = dll.AnalysePlayPBN(deal, dll.playTracePBN(number=5, cards=b"CTC7C4CA"), dll.solvedPlay(), 0)
    assert rc == dll.RETURN_PLAY_FAULT
