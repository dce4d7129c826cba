"""Played deals, double dummy: which card cost a trick, and the best line from any position.

Conventions: seats N=0 E=1 S=2 W=3, strains S=0 H=1 D=2 C=3 NT=4 (DDS's).
``leader`` is the hand that led (or leads) the first trick analysed; as in
:func:`ddsbind.analyse_play`, *declarer* is the seat to its right, and
double-dummy values are tricks for declarer's side.

* :func:`costly_cards` -- from ``analyse_play``'s trace, every card after
  which the value moved against the side that played it, with the cards that
  would have kept it (one ``SolveBoard`` per costly card).
* :func:`costly_cards_batch` -- the same for many played deals, in two
  batch steps, each behind one function where the batch path is chosen:
  :func:`analyse_plays` (DDS's ``AnalyseAllPlaysBin`` today;
  ``benchmarks/bench_play.py`` measures it against per-deal
  ``analyse_play`` on the thread slots, which a pool would run) and
  :func:`solve_positions` (DDS's ``SolveAllBoardsBin``) for the cards that
  would have kept the value.
* :func:`best_line` -- from any position, including a trick in progress, the
  cards DDS scores best, played out to the end, one ``SolveBoard`` per card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ddsbind import _html, dll
from ddsbind._marshal import card_play_call, decode_future, fill_deal, position, read_card_play
from ddsbind._typing import Progress, renamed
from ddsbind.deal import Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, InvalidArgumentError, PlayFaultError
from ddsbind.game import CardPlay, Play
from ddsbind.results import Position, Solutions
from ddsbind.solver import analyse_play, solve_board

__all__ = [
    "BestLine",
    "CardOption",
    "CardPlay",
    "CostlyCard",
    "CostlyCards",
    "GameAnalysis",
    "LineStep",
    "LineTrick",
    "Position",
    "analyse_game",
    "analyse_plays",
    "best_line",
    "costly_cards",
    "costly_cards_batch",
    "solve_positions",
]

#: One played deal for the batch functions: a :class:`~ddsbind.game.CardPlay` from the opening
#: lead, or its arguments ``(deal, strain, leader, plays)``.
PlayJob = CardPlay | tuple[Deal | str, Strain | int | str, Seat | int | str, str | Iterable[Card | str]]


@dataclass(frozen=True)
class CostlyCard:
    """A card after which the double-dummy result moved against the side that played it."""

    #: 0-based position of the card in ``plays``.
    index: int
    card: Card
    seat: Seat
    #: 1-based trick number.
    trick: int
    #: Tricks it cost its side (> 0).
    cost: int
    #: The cards the seat could have played instead and kept the value (equivalents included),
    #: spades first, each suit from the ace down.
    better: tuple[Card, ...]
    #: Declarer's double-dummy tricks before and after the card (``analyse_play``'s values).
    before: int
    after: int

    def to_json(self) -> dict[str, Any]:
        """The card as JSON types (the match report's and the analysis board's shape; no ``before``/``after``)."""
        return {
            "index": self.index,
            "card": str(self.card),
            "seat": self.seat.name,
            "trick": self.trick,
            "cost": self.cost,
            "better": [str(b) for b in self.better],
        }


@dataclass(frozen=True)
class CardOption:
    """A legal card class at a step of the best line."""

    #: The card DDS returned and its equivalent lower cards (``equals``), highest first.
    cards: tuple[Card, ...]
    #: Tricks the side to play takes from this trick on with these cards (DDS ``score``).
    score: int


@dataclass(frozen=True)
class LineStep:
    """One card of the best line: who played it, and every legal class with its score."""

    seat: Seat
    card: Card
    options: tuple[CardOption, ...]


@dataclass(frozen=True)
class LineTrick:
    """One trick of the best line."""

    #: 1-based trick number of the deal (13 minus the tricks still to play, plus 1).
    number: int
    leader: Seat
    #: The cards played to the trick in play order (given ones of a trick in progress first).
    cards: tuple[Card, ...]
    winner: Seat
    #: Tricks declarer's side takes from this trick to the end, double dummy, before it is played.
    value: int
    #: The line's choices on this trick (not the given cards of a trick in progress).
    steps: tuple[LineStep, ...]


class BestLine(list[LineTrick]):
    """:func:`best_line`'s answer: a list of :class:`LineTrick` that also shows as an HTML table in notebooks.

    Everything a list does it does (``repr`` and ``str`` are the list's); in
    Jupyter it is one row a trick: number, leader, the cards in play order
    (the winning card in bold), the winner and declarer's side's
    double-dummy tricks from that trick on.
    """

    def _repr_html_(self) -> str:
        """The line as an HTML table for notebooks."""
        rows = []
        for t in self:
            won = t.winner.steps_from(t.leader)  # the winning card's place in play order
            cards = " ".join(
                f"<b>{_html.card(str(c))}</b>" if k == won else _html.card(str(c)) for k, c in enumerate(t.cards)
            )
            rows.append((str(t.number), [t.leader.name, cards, t.winner.name, str(t.value)]))
        header = ["trick", "leader", "cards (play order)", "winner", "declarer's DD tricks from here"]
        return _html.grid("bestline", header, rows)


class GameRecord(Protocol):
    """What :func:`analyse_game` reads of a played game (:class:`ddsbind.formats.GameRecord` has it all)."""

    @property
    def card_play(self) -> CardPlay: ...
    def to_html(self, trace: Sequence[int] | None = None, costly: Sequence[CostlyCard] = ()) -> str: ...


class CostlyCards(list[CostlyCard]):
    """:func:`costly_cards`'s answer: a list of :class:`CostlyCard` that shows as an HTML table in notebooks."""

    def _repr_html_(self) -> str:
        """One row a costly card: trick, seat, card, tricks lost, the cards that would have kept them."""
        rows = [
            (
                str(c.trick),
                [c.seat.name, _html.card(str(c.card)), str(c.cost), " ".join(_html.card(str(b)) for b in c.better)],
            )
            for c in self
        ]
        caption = "no card changed the double-dummy result" if not self else ""
        return _html.grid("costly", ["trick", "seat", "card", "tricks lost", "better"], rows, caption)


@dataclass(frozen=True)
class GameAnalysis:
    """A played game and its double-dummy analysis; in notebooks, the game with its costly cards marked.

    Attributes
    ----------
    game : GameRecord
    trace : list of int
        Declarer's double-dummy tricks before the opening lead and after each card (:func:`analyse_play`).
    costly : CostlyCards
    """

    game: GameRecord
    trace: list[int]
    costly: CostlyCards

    @property
    def dd_result(self) -> int:
        """Declarer's double-dummy tricks before the opening lead."""
        return self.trace[0]

    def _repr_html_(self) -> str:
        return self.game.to_html(self.trace, self.costly)


def analyse_game(game: GameRecord) -> GameAnalysis:
    """The double-dummy trace and the costly cards of a played game (a :class:`~ddsbind.formats.GameRecord`).

    Raises
    ------
    InvalidArgumentError
        A game without contract and declarer (passed out, or unknown).
    PlayFaultError
        A card of the play not held, or a revoke.
    """
    played = game.card_play
    trace = analyse_play(played)
    costly = costly_cards_batch([played], traces=[trace])[0]
    return GameAnalysis(game, trace, CostlyCards(costly))


def _from_opening_lead(played: CardPlay) -> CardPlay:
    """``played``, checked to start at the opening lead (a full deal, no trick in progress) as traces do."""
    if not played.from_opening_lead:
        raise PlayFaultError(
            "a played deal needs the full deal (13 cards each), before the opening lead", function="AnalysePlayBin"
        )
    return played


_Pending = tuple[int, Card, Seat, int, int, int, int]  # CostlyCard's fields but ``better``


def _find_costly(played: CardPlay, trace: Sequence[int]) -> list[tuple[_Pending, Position]]:
    """The cards after which the trace moved against their side, each with the position before it."""
    declarer_side = played.declarer.side
    out: list[tuple[_Pending, Position]] = []
    table = Play(played.deal, played.strain, played.leader)
    for k, card in enumerate(played.plays):
        if k + 1 >= len(trace):
            break  # DDS does not value the last trick's cards: each hand holds one card
        seat = table.to_play
        delta = trace[k] - trace[k + 1]
        cost = delta if seat.side == declarer_side else -delta
        if cost > 0:
            before = Position(table.deal(), table.trump, table.leader, tuple(table.current))
            out.append(((k, card, seat, table.trick_number, cost, trace[k], trace[k + 1]), before))
        table.play(card)
    return out


def _with_better(pending: _Pending, sol: Solutions) -> CostlyCard:
    k, card, seat, number, cost, before, after = pending
    best = sol.best_score
    better = sorted((c for sc in sol if sc.score == best for c in sc.cards), key=lambda c: c.index)
    return CostlyCard(k, card, seat, number, cost, tuple(better), before, after)


def solve_positions(positions: Sequence[Position]) -> list[Solutions]:
    """``SolveBoard`` (target -1, solutions 3, mode 1) for many positions with DDS's ``SolveAllBoardsBin``.

    The seam for the batch path of :func:`costly_cards_batch`'s second step
    (the cards that would have kept the value): DDS's own threads today.
    """
    fn = "SolveAllBoardsBin"
    checked = []
    for i, (d, t, leader, on_trick) in enumerate(positions):
        try:
            checked.append(position(d, t, leader, on_trick, function=fn))
        except DDSError as exc:
            raise exc.at(i, "position") from None
    out: list[Solutions] = []
    bo, solved = dll.boards(), dll.solvedBoards()
    step = len(bo.deals)
    for start in range(0, len(checked), step):
        chunk = checked[start : start + step]
        bo.noOfBoards = len(chunk)
        for i, pos in enumerate(chunk):
            fill_deal(bo.deals[i], pos)
            bo.target[i], bo.solutions[i], bo.mode[i] = -1, 3, 1
        try:
            dll.raising.SolveAllBoardsBin(bo, solved)
        except DDSError as exc:
            if exc.index is not None and exc.item == "board":
                exc.at(start + exc.index, "position")
            raise
        out += [decode_future(solved.solvedBoard[i]) for i in range(len(chunk))]
    return out


@renamed(trump="strain", first="leader")
@card_play_call(CardPlay, "AnalysePlayBin")
def costly_cards(played: CardPlay) -> CostlyCards:
    """Every card that changed the double-dummy result, in play order.

    Parameters
    ----------
    played : CardPlay, or its arguments
        The play from the opening lead: ``costly_cards(CardPlay(deal, strain,
        leader, plays))`` or ``costly_cards(deal, strain, leader, plays)``,
        with ``deal`` the full deal before the opening lead, ``leader`` the
        opening leader (declarer is the seat to its right), ``plays``
        ``"C4CACJ..."``, ``"C4 CA C10"``, ``"C4,CA,CJ"`` or a list of cards,
        in play order from the opening lead.

    Returns
    -------
    list of CostlyCard
        ``index`` (0-based in ``plays``), ``card``, ``seat``, ``trick``
        (1-based), ``cost`` (tricks lost by the card's side, > 0), ``better``
        (the cards that would have kept the value), ``before``/``after``
        (declarer's DD tricks).

    Raises
    ------
    PlayFaultError
        A card not held by the seat to play, a revoke, more than 52 cards;
        the message names the card and its position.
    """
    found = _find_costly(_from_opening_lead(played), analyse_play(played))
    return CostlyCards(_with_better(p, solve_board(d, t, f, current_trick=trick)) for p, (d, t, f, trick) in found)


def _prepare(jobs: Sequence[PlayJob]) -> list[CardPlay]:
    """Every job read and played out; a fault keeps its class, with ``.index`` the job's (``"deal"``)."""
    out = []
    for i, job in enumerate(jobs):
        try:
            if isinstance(job, CardPlay):
                played = job
            elif isinstance(job, tuple | list) and len(job) == 4:
                played = CardPlay(*job)
            else:
                raise InvalidArgumentError(
                    f"a played deal is a CardPlay or (deal, strain, leader, plays), got {job!r:.80}"
                )
            out.append(_from_opening_lead(played))
        except DDSError as exc:
            exc.function = exc.function or "AnalysePlayBin"
            raise exc.at(i, "deal") from None
    return out


def analyse_plays(jobs: Sequence[PlayJob], *, progress: Progress | None = None) -> list[list[int]]:
    """``analyse_play`` for many played deals at once, with DDS's ``AnalyseAllPlaysBin``.

    A played deal repeated exactly (same deal, trump, leader and cards) is
    analysed once; ``progress`` still counts every input deal.

    This is the one seam for the batch path: DDS's own threads today; a
    pool of single ``AnalysePlayBin`` calls can be measured against it
    (``benchmarks/bench_play.py``) and swapped in here.

    Parameters
    ----------
    jobs : sequence of CardPlay or (deal, strain, leader, plays)
        Plays from the opening lead, as :func:`ddsbind.analyse_play` takes them (full deals).
    progress : callable, optional
        Called with the number of deals finished after each DDS call.

    Returns
    -------
    list of list of int
        Per deal, declarer's DD tricks before the first card and after each card.
    """
    prepared = _prepare(jobs)
    # A played deal repeated exactly (same deal, trump, leader and cards) is
    # analysed once and its trace copied: records of a session repeat boards.
    first: dict[CardPlay, int] = {}
    which = [first.setdefault(played, len(first)) for played in prepared]
    distinct = [-1] * len(first)
    for i, k in enumerate(which):
        if distinct[k] < 0:
            distinct[k] = i
    weights = [0] * len(first)
    for k in which:
        weights[k] += 1
    traces: list[list[int]] = []
    bo, plays, solved = dll.boards(), dll.playTracesBin(), dll.solvedPlays()
    step = min(len(bo.deals), len(plays.plays))
    for start in range(0, len(distinct), step):
        chunk = distinct[start : start + step]
        bo.noOfBoards = plays.noOfBoards = len(chunk)
        for i, j in enumerate(chunk):
            played = prepared[j]
            cards = played.plays
            fill_deal(bo.deals[i], Position(played.deal, played.strain, played.leader, ()))
            bo.target[i], bo.solutions[i], bo.mode[i] = -1, 1, 1
            tr = plays.plays[i]
            tr.number = len(cards)
            tr.suit[0 : len(cards)] = [c.suit for c in cards]
            tr.rank[0 : len(cards)] = [c.rank for c in cards]
        try:
            dll.raising.AnalyseAllPlaysBin(bo, plays, solved, 1)
        except DDSError as exc:
            if exc.index is not None and exc.item == "board":
                exc.at(chunk[exc.index], "deal")
            raise
        for i in range(len(chunk)):
            s = solved.solved[i]
            traces.append(list(s.tricks[0 : s.number]))
        if progress is not None:
            progress(sum(weights[start : start + step]))
    return [list(traces[k]) for k in which]


def costly_cards_batch(
    jobs: Sequence[PlayJob],
    *,
    traces: Sequence[Sequence[int]] | None = None,
    progress: Progress | None = None,
) -> list[list[CostlyCard]]:
    """:func:`costly_cards` for many played deals: traces in batches (:func:`analyse_plays`).

    ``jobs`` holds a :class:`~ddsbind.game.CardPlay` (or ``(deal, strain, leader, plays)``) per deal; the result is
    one list of :class:`CostlyCard` per deal, in input order.  ``traces``,
    when given, are :func:`analyse_plays`'s answer for the same jobs (not
    recomputed).  ``progress`` is called with the number of deals whose
    traces are done.
    """
    prepared = _prepare(jobs)
    if traces is None:
        traces = analyse_plays(prepared, progress=progress)
    elif len(traces) != len(prepared):
        raise InvalidArgumentError(f"{len(prepared)} played deals but {len(traces)} traces", field="traces")
    found = [_find_costly(played, tr) for played, tr in zip(prepared, traces, strict=True)]
    sols = iter(solve_positions([pos for per_deal in found for _, pos in per_deal]))
    return [[_with_better(p, next(sols)) for p, _ in per_deal] for per_deal in found]


def _lowest(options: Iterable[CardOption]) -> Card:
    # Lowest rank first; between equal ranks clubs < diamonds < hearts < spades.
    return min((c for o in options for c in o.cards), key=lambda c: (c.rank, -c.suit))


@renamed(trump="strain", first="leader")
def best_line(
    deal: CardPlay | Deal | str,
    strain: Strain | int | str | None = None,
    leader: Seat | int | str | None = None,
    current_trick: str | Iterable[Card | str] = (),
) -> BestLine:
    """The double-dummy best line from a position, played out to the end.

    At each step ``SolveBoard`` (solutions=3) scores every legal card; the
    line plays the lowest card (by rank, then clubs < diamonds < hearts <
    spades) of the classes with the best score.

    Parameters
    ----------
    deal : CardPlay, Deal or PBN string
        A :class:`~ddsbind.game.CardPlay`: the line starts where its play
        stands, and declarer is the seat to the right of its ``leader``
        (``strain``, ``leader`` and ``current_trick`` are then not given).
        Or the cards still held (cards already on the current trick are not
        in it), with:
    strain : Strain, 0..4 or name
    leader : Seat, 0..3 or name
        The hand that led the current trick (or leads the next one).
        Declarer is the seat to its right.
    current_trick : cards
        Up to 3 cards already played to the trick, in play order from ``leader``.

    Returns
    -------
    BestLine
        A list of :class:`LineTrick` (a table in notebooks), each with
        ``number``, ``leader``, ``cards`` (play order), ``winner``,
        ``value`` (declarer's side's DD tricks from that trick on) and
        ``steps`` (each chosen card with every legal class and its score).
        The tricks declarer's side wins add up to the first trick's ``value``.

    Raises
    ------
    DDSError
        An invalid position, by the same check as :func:`ddsbind.solve_board`
        (more than 3 trick cards, a trick card still held, hand lengths that
        do not fit the trick: ``CardCountError``, ``PlayedCardError``, ...).
        The line is played out by :class:`ddsbind.game.Play`, so it never
        replays a card nor runs past the last trick.
    """
    if isinstance(deal, CardPlay):
        if strain is not None or leader is not None or current_trick:
            raise InvalidArgumentError("best_line of a CardPlay takes no strain, leader or current trick: it has them")
        played = deal
    else:
        played = read_card_play("SolveBoard", deal, strain, leader, current_trick=current_trick)
    table = played.replayed()
    declarer_side = played.declarer.side
    tricks = BestLine()
    steps: list[LineStep] = []
    value: int | None = None
    while not table.finished:
        seat = table.to_play
        sol = solve_board(table.deal(), table.trump, table.leader, current_trick=table.current)
        options = tuple(CardOption(sc.cards, sc.score) for sc in sol)
        best = max(o.score for o in options)
        if value is None:
            # The first choice on this trick: DDS's score is for the side to play, from this trick on.
            value = best if seat.side == declarer_side else 14 - table.trick_number - best
        card = _lowest(o for o in options if o.score == best)
        steps.append(LineStep(seat, card, options))
        done = table.play(card)
        if done is not None:
            assert done.winner is not None  # a completed trick has a winner
            tricks.append(LineTrick(done.number, done.leader, done.cards, done.winner, value, tuple(steps)))
            steps, value = [], None
    return tricks
