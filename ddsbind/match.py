"""A session of played boards scored as the players scored it: a team match in IMPs, a pairs event in matchpoints.

:func:`analyse_session` takes a file's game records (PBN, LIN, ZRJ, handviewer
addresses: any :class:`~ddsbind.record.GameRecord`; a PBN hand record's
``ScoreTable`` gives one record a result, :mod:`ddsbind.formats.scoretable`)
and groups them by board (the board number and the deal).  What the file
holds decides how it is scored:

* **teams** -- the records name their room (LIN's ``qx|o1|``/``qx|c1|``,
  PBN's ``[Room "Open"]``/``[Room "Closed"]``): per board the two rooms'
  North-South scores and the swing in IMPs (WBF scale,
  :func:`ddsbind.scoring.imps`) for the *home* team, who sit North-South in
  the open room (the first team of LIN's ``vg|`` line, or PBN's
  ``HomeTeam``).  A vugraph segment's carry-over (``vg|`` fields 7 and 9)
  starts the match score.  The swing splits into **auction**, the IMPs
  between the double-dummy scores of the two rooms' contracts, and **play**,
  the rest (the IMP scale is not additive: play is the swing less the
  auction, not its own conversion).  Several matches in one file (each
  ``vg|`` segment, each pair of teams, or PBN's ``Table``) are each scored;
  a board with two results for one room of one match is refused, naming them.
* **pairs** -- every other file: each result of a board scored against the
  board's other results in the file (or in its section, ``by_section``) by
  the usual method, 2 matchpoints for each score beaten and 1 for each tie
  (top 2 x (results - 1)); a board played fewer times than the most-played
  one is scaled by Neuberg's formula; per-pair totals and a ranking each
  direction.  A board played at one table has no matchpoints.

Every table also gets its double-dummy result (declarer's tricks before the
opening lead; its North-South score), the cards that cost a trick
(:func:`ddsbind.play.costly_cards_batch`) with the player who chose each
(declarer for dummy's cards) and its cost in IMPs, and whether a claim
matched double dummy; every board its par (DDS's ``DealerPar``, dealer
first; one call site, :func:`_par`).  Scores are North-South's, positive
when North-South gain.  The text, JSON, DataFrame and HTML renderings are
:mod:`ddsbind.match_report`'s.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ddsbind._typing import Progress
from ddsbind.deal import Card, Seat, Side, Vulnerability
from ddsbind.errors import FormatError
from ddsbind.match_report import PairTotal, PlayerLine, pair_totals, player_lines
from ddsbind.play import PlayJob, analyse_plays, costly_cards_batch
from ddsbind.scoring import PASSED_OUT, Contract, PassedOut, imps, matchpoints, neuberg
from ddsbind.solver import dd_tables, dealer_par, par

if TYPE_CHECKING:
    from ddsbind.record import GameRecord
    from ddsbind.solver import DDTable

__all__ = [
    "BoardReport",
    "CostlyPlay",
    "PairTotal",
    "PlayerLine",
    "SessionReport",
    "TableResult",
    "TeamMatch",
    "analyse",
    "analyse_session",
]


@dataclass(frozen=True)
class CostlyPlay:
    """A card after which the double-dummy result moved against the side that played it, and who chose it.

    ``player`` is the name the file gives the player who chose the card
    (declarer for dummy's cards), else that seat's name (``"North"``);
    ``imps`` the IMPs the lost tricks are worth in the contract played.
    """

    index: int
    card: Card
    seat: Seat
    chooser: Seat
    player: str
    trick: int
    cost: int
    imps: int
    better: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        """The card as JSON types."""
        return {
            "index": self.index,
            "card": str(self.card),
            "seat": self.seat.name,
            "player": self.player,
            "chooser": self.chooser.name,
            "trick": self.trick,
            "cost": self.cost,
            "imps": self.imps,
            "better": [str(b) for b in self.better],
        }


@dataclass(frozen=True)
class TableResult:
    """One table's (one room's) play of a board.

    Attributes
    ----------
    index : int
        The record's place in the file, from 1.
    room : str or None
        ``"Open"`` or ``"Closed"`` in a team match, else None.
    players : dict
        Seat letter (``"N"`` ...) -> the player's name, for the names the file gives.
    contract : Contract, PASSED_OUT or None
        The contract without its declarer (``str()``: ``"4SX"``), :data:`~ddsbind.scoring.PASSED_OUT`
        (``"Pass"``), None when unknown.
    declarer : Seat or None
    result : int or None
        Declarer's tricks.
    score : int or None
        North-South's score (negative when East-West gain); None when unknown.
    dd_result : int or None
        Declarer's double-dummy tricks in the contract before the opening lead (from the deal's table when
        the play is not known); None when unknown.
    dd_score : int or None
        North-South's score of the contract with ``dd_result`` tricks (0 passed out).
    lead : Card or None
        The opening lead, when the play is known.
    cards_played : int
    claim_dd : int or None
        A claim (a result with the play stopped short): declarer's double-dummy tricks where it was made.
    costly : list of CostlyPlay
    section, pair_ns, pair_ew : str or None
        The section and the pairs (their numbers or names as the file gives them) of a pairs event.
    matchpoints, top : float or None
        North-South's matchpoints against the board's other results (2 a score beaten, 1 a tie) and the
        top (Neuberg-scaled on a board played fewer times than the most-played); None at a lone table.
    """

    index: int
    room: str | None
    players: dict[str, str]
    contract: Contract | PassedOut | None
    declarer: Seat | None
    result: int | None
    score: int | None
    dd_result: int | None = None
    dd_score: int | None = None
    lead: Card | None = None
    cards_played: int = 0
    claim_dd: int | None = None
    costly: list[CostlyPlay] = field(default_factory=list)
    section: str | None = None
    pair_ns: str | None = None
    pair_ew: str | None = None
    matchpoints: float | None = None
    top: float | None = None

    def played(self) -> str:
        """``3NT by W, 9 tricks``, ``passed out`` or ``contract unknown``."""
        if self.contract is PASSED_OUT:
            return "passed out"
        if self.contract is None or self.declarer is None:
            return "contract unknown"
        return f"{self.contract} by {self.declarer.name}, " + (
            "result unknown" if self.result is None else f"{self.result} tricks"
        )

    def names(self) -> str:
        """``N Carr, E Dale, S Ames, W Brook`` (empty when the file names nobody)."""
        return ", ".join(f"{seat} {self.players[seat.name]}" for seat in Seat if seat.name in self.players)

    @property
    def percent_ns(self) -> float | None:
        """North-South's matchpoints as a percentage of the top (None at a lone table)."""
        if self.matchpoints is None or not self.top:
            return None
        return 100.0 * self.matchpoints / self.top

    def to_json(self) -> dict[str, Any]:
        """The table as JSON types."""
        return {
            "index": self.index,
            "room": self.room,
            "players": dict(self.players),
            "contract": None if self.contract is None else str(self.contract),
            "declarer": None if self.declarer is None else self.declarer.name,
            "lead": None if self.lead is None else str(self.lead),
            "result": self.result,
            "score": self.score,
            "dd_result": self.dd_result,
            "dd_score": self.dd_score,
            "cards_played": self.cards_played,
            "claim_dd": self.claim_dd,
            "section": self.section,
            "pair_ns": self.pair_ns,
            "pair_ew": self.pair_ew,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "costly": [c.to_json() for c in self.costly],
        }


@dataclass(frozen=True)
class BoardReport:
    """One board (of one match, in a team match): its tables, its par and, in a team match, the swing.

    ``imps`` is the home team's swing (negative: the visitors gain), ``auction_imps`` + ``play_imps`` =
    ``imps``; ``match`` the running score (home, visitors) after the board, the carry-over included.
    ``tables`` are in the file's order (the open room first in a team match).
    """

    board: int | None
    dealer: Seat | None
    vulnerable: Vulnerability
    par_score: int
    par_words: str
    tables: list[TableResult]
    imps: int | None = None
    match: tuple[float, float] | None = None
    auction_imps: int | None = None
    play_imps: int | None = None

    @property
    def label(self) -> str:
        """``Board 3`` as the file numbers it, or ``Record 5 of the file`` when it has no number."""
        return f"Board {self.board}" if self.board is not None else f"Record {self.tables[0].index} of the file"

    def to_json(self) -> dict[str, Any]:
        """The board as JSON types."""
        return {
            "board": self.board,
            "dealer": None if self.dealer is None else self.dealer.name,
            "vulnerable": str(self.vulnerable),
            "par": {"score": self.par_score, "words": self.par_words},
            "imps": self.imps,
            "auction_imps": self.auction_imps,
            "play_imps": self.play_imps,
            "match": None if self.match is None else list(self.match),
            "tables": [t.to_json() for t in self.tables],
        }


@dataclass(frozen=True)
class TeamMatch:
    """One match of a file: its teams, the carry-over it starts from and its boards."""

    teams: tuple[str, str]
    carry: tuple[float, float]
    boards: list[BoardReport]

    @property
    def total(self) -> tuple[float, float]:
        """The match score in IMPs, (home, visitors): the carry-over plus the boards' swings."""
        home = self.carry[0] + sum(b.imps for b in self.boards if b.imps is not None and b.imps > 0)
        away = self.carry[1] - sum(b.imps for b in self.boards if b.imps is not None and b.imps < 0)
        return home, away

    def to_json(self) -> dict[str, Any]:
        """The match as JSON types."""
        return {
            "teams": list(self.teams),
            "carry": dict(zip(self.teams, self.carry, strict=True)),
            "total": dict(zip(self.teams, self.total, strict=True)),
            "boards": [b.to_json() for b in self.boards],
        }


@dataclass(frozen=True)
class SessionReport:
    """:func:`analyse_session`'s answer; ``str()`` is ``ddsbind analyse``'s report (:mod:`ddsbind.match_report`).

    Attributes
    ----------
    kind : str
        ``"teams"``, ``"pairs"`` (a board with several results) or ``"games"`` (every board at one table).
    matches : list of TeamMatch
        A team match's matches (one, or each of the file's).
    boards : list of BoardReport
        Every board in the file's order of first appearance (each match's, in a team match).
    pairs : list of PairTotal
        A pairs event's totals, by section and direction, best first.
    players : list of PlayerLine
        Every player the file names (else the seats), in the order first met.
    """

    kind: str
    boards: list[BoardReport]
    matches: list[TeamMatch] = field(default_factory=list)
    pairs: list[PairTotal] = field(default_factory=list)
    players: list[PlayerLine] = field(default_factory=list)
    by_section: bool = False
    games: Sequence[GameRecord] = field(default=(), repr=False, compare=False)
    traces: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def teams(self) -> tuple[str, str]:
        """(home, visitors) of the first match: the team names the file gives, else ``("Home", "Visitors")``."""
        return self.matches[0].teams if self.matches else ("Home", "Visitors")

    @property
    def total(self) -> tuple[float, float]:
        """The first match's score in IMPs (home, visitors), carry-over included."""
        return self.matches[0].total if self.matches else (0, 0)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON types."""
        from ddsbind import match_report

        return match_report.to_json(self)

    def lines(self, *, detail: bool = False) -> list[str]:
        """The report as text, one line a list item; ``detail`` adds each table's costly cards and claims."""
        from ddsbind import match_report

        return match_report.lines(self, detail=detail)

    def to_frame(self) -> Any:
        """A pandas DataFrame: one row per board and room (teams) or per result (pairs)."""
        from ddsbind import match_report

        return match_report.to_frame(self)

    def to_html(self) -> str:
        """The whole report as one self-contained HTML page (nothing fetched): scorecard, players, boards."""
        from ddsbind import match_report

        return match_report.page(self)

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        from ddsbind import match_report

        return match_report.fragment(self)


def _par(table: DDTable, game: GameRecord) -> tuple[int, str]:
    """The board's par, North-South's score and words: the one place the report asks for par."""
    if game.dealer is not None:
        dp = dealer_par(table, game.dealer, game.vulnerable)
        return dp.score, dp.words()
    p = par(table, game.vulnerable)
    return p.score, p.words()


def _ns_score(game: GameRecord, tricks: int | None) -> int | None:
    """North-South's score of the game's contract with ``tricks`` (0 passed out; None when unknown)."""
    if game.contract is PASSED_OUT:
        return 0
    if game.bid is None or game.declarer is None or tricks is None:
        return None
    s = game.bid.score(tricks, declarer_vulnerable=game.vulnerable.is_vulnerable(game.declarer))
    return s if game.declarer.side is Side.NS else -s


def _table_score(game: GameRecord) -> int | None:
    """North-South's score: from contract and tricks, else a ScoreTable's score as given."""
    s = game.ns_score()
    if s is None and game.tags.get("Score_NS", "").lstrip("-").isdigit():
        return int(game.tags["Score_NS"])
    return s


def _vg_segments(games: Sequence[GameRecord]) -> list[tuple[int, tuple[str, str], tuple[float, float]]]:
    """Per record, its vugraph segment: (number, teams, carry-over), from the last ``vg|`` line before it."""
    out = []
    current: tuple[int, tuple[str, str], tuple[float, float]] = (0, ("Home", "Visitors"), (0.0, 0.0))
    for g in games:
        header = g.tags.get("LinHeader", "")
        start = header.find("vg|")
        if start >= 0:
            fields = header[start + 3 :].split("|", 1)[0].split(",")
            teams = ("Home", "Visitors")
            if len(fields) >= 8 and fields[5].strip() and fields[7].strip():
                teams = (fields[5].strip(), fields[7].strip())
            carry = (_number(fields, 6), _number(fields, 8))
            current = (current[0] + 1, teams, carry)
        out.append(current)
    return out


def _number(fields: list[str], i: int) -> float:
    """A carry-over field (0 when absent or not a number; a whole number as an int, as the file wrote it)."""
    try:
        value = float(fields[i]) if i < len(fields) and fields[i].strip() else 0.0
    except ValueError:
        return 0
    if not np.isfinite(value):
        return 0
    return int(value) if value.is_integer() else value


def _match_keys(games: Sequence[GameRecord]) -> tuple[list[tuple[Any, ...]], dict[tuple[Any, ...], Any]]:
    """Per record, the key of the match it belongs to; and per key, (teams, carry-over)."""
    segments = _vg_segments(games)
    keys: list[tuple[Any, ...]] = []
    about: dict[tuple[Any, ...], Any] = {}
    for g, (number, teams, carry) in zip(games, segments, strict=True):
        if g.tags.get("HomeTeam") and g.tags.get("VisitTeam"):
            teams = (g.tags["HomeTeam"], g.tags["VisitTeam"])
        key = (number, teams, g.tags.get("Table"))
        keys.append(key)
        about.setdefault(key, (teams, carry))
    return keys, about


def _costly_plays(game: GameRecord, costly: Sequence[Any]) -> list[CostlyPlay]:
    """The costly cards of a game, each with the player who chose it and its cost in IMPs."""
    out = []
    contract = game.bid
    assert game.declarer is not None and contract is not None
    dummy = game.declarer.partner
    declarer_vulnerable = game.vulnerable.is_vulnerable(game.declarer)
    for c in costly:
        chooser = game.declarer if c.seat == dummy else c.seat
        before = contract.score(c.before, declarer_vulnerable=declarer_vulnerable)
        after = contract.score(c.after, declarer_vulnerable=declarer_vulnerable)
        player = game.tags.get(chooser.full_name) or chooser.full_name
        worth = abs(int(imps(before - after)))
        out.append(CostlyPlay(c.index, c.card, c.seat, chooser, player, c.trick, c.cost, worth, c.better))
    return out


def _results(games: Sequence[GameRecord], progress: Progress | None) -> tuple[list[TableResult], dict[int, list[int]]]:
    """Every record's table: score, double dummy (play traced), lead, claim, costly cards."""
    playable = [k for k, g in enumerate(games) if g.strain is not None and g.declarer is not None]
    jobs: list[PlayJob] = []
    for k in playable:
        g = games[k]
        assert g.strain is not None and g.leader is not None
        jobs.append((g.deal, g.strain, g.leader, g.play))
    traces = analyse_plays(jobs, progress=progress)
    costly_all = costly_cards_batch(jobs, traces=traces)
    analysed = {k: (list(tr), costly) for k, tr, costly in zip(playable, traces, costly_all, strict=True)}
    out = []
    for k, g in enumerate(games):
        trace, costly = analysed.get(k, (None, []))
        dd = None if trace is None else trace[0]
        claim = None
        if trace is not None and g.result is not None and 0 < len(g.play) < 52:
            claim = trace[-1]
        out.append(
            TableResult(
                index=k + 1,
                room=None,
                players=g.players,
                contract=g.contract,
                declarer=g.declarer,
                result=g.result,
                score=_table_score(g),
                dd_result=dd,
                dd_score=_ns_score(g, dd),
                lead=g.play[0] if g.play else None,
                cards_played=len(g.play),
                claim_dd=claim,
                costly=_costly_plays(g, costly) if costly else [],
                section=g.tags.get("Section"),
                pair_ns=_pair(g, Side.NS),
                pair_ew=_pair(g, Side.EW),
            )
        )
    return out, {k: analysed[k][0] for k in analysed}


def _pair(g: GameRecord, side: Side) -> str | None:
    """A pair as the file names it: a ScoreTable's names or number, else the two players' names."""
    if g.tags.get(f"Names_{side.name}"):
        return g.tags[f"Names_{side.name}"]
    if g.tags.get(f"PairId_{side.name}"):
        return f"pair {g.tags[f'PairId_{side.name}']}"
    names = [g.tags.get(s.full_name, "") for s in side.seats]
    return " - ".join(names) if all(names) else None


def analyse_session(
    games: Sequence[GameRecord], *, by_section: bool = False, progress: Progress | None = None
) -> SessionReport:
    """Score and analyse a file's played boards: IMPs for a team match, matchpoints for pairs (module docstring).

    Parameters
    ----------
    games : sequence of GameRecord
        A file's records, in its order (:func:`ddsbind.formats.read_games`); a hand record's ``ScoreTable``
        rows as records (:func:`ddsbind.formats.scoretable.score_table_games`).
    by_section : bool
        Matchpoint each section apart (the ``Section`` the file gives each result).
    progress : callable, optional
        Called with the number of games whose play was analysed, as they are.

    Returns
    -------
    SessionReport

    Raises
    ------
    FormatError
        No record holds a contract or a result (a file of deals only: nothing to analyse); a board with two
        results for one room of one match (naming the records and their tables).
    PlayFaultError
        A card of a play not held, or a revoke.
    """
    if not any(g.contract is not None or _table_score(g) is not None for g in games):
        raise FormatError(
            f"the file holds {len(games)} deal(s) and no contract or result: nothing to analyse "
            "(a match or session needs contracts and results)"
        )
    results, traces = _results(games, progress)
    groups: dict[tuple[int | None, str], list[int]] = {}
    for k, g in enumerate(games):
        key = (g.board, g.deal.to_pbn()) if g.board is not None else (None, f"#{k}")
        groups.setdefault(key, []).append(k)
    firsts = [ks[0] for ks in groups.values()]
    pars = [_par(t, games[k]) for t, k in zip(dd_tables([games[k].deal for k in firsts]), firsts, strict=True)]
    rooms = [g.tags.get("Room") if g.tags.get("Room") in ("Open", "Closed") else None for g in games]
    teams = any({rooms[k] for k in ks} == {"Open", "Closed"} for ks in groups.values())
    players = player_lines(games, results)
    if teams:
        matches = _team_matches(games, results, rooms, groups, pars)
        boards = [b for m in matches for b in m.boards]
        return SessionReport("teams", boards, matches=matches, players=players, games=games, traces=traces)
    boards, totals = _pairs(games, results, groups, pars, by_section)
    kind = "pairs" if any(len(b.tables) > 1 for b in boards) else "games"
    return SessionReport(kind, boards, pairs=totals, players=players, by_section=by_section, games=games, traces=traces)


def _board(game: GameRecord, tables: list[TableResult], par_: tuple[int, str], **swing: Any) -> BoardReport:
    return BoardReport(game.board, game.dealer, game.vulnerable, par_[0], par_[1], tables, **swing)


def _team_matches(
    games: Sequence[GameRecord],
    results: list[TableResult],
    rooms: list[str | None],
    groups: dict[tuple[int | None, str], list[int]],
    pars: list[tuple[int, str]],
) -> list[TeamMatch]:
    keys, about = _match_keys(games)
    # PBN's Table may number the two rooms of one match apart: then it does not tell matches apart.
    if not any(
        {rooms[k] for k in ks if keys[k] == key} == {"Open", "Closed"} for ks in groups.values() for key in about
    ):
        keys = [(n, t, None) for n, t, _ in keys]
        about = {(n, t, None): v for (n, t, _), v in about.items()}
    per_match: dict[tuple[Any, ...], list[BoardReport]] = {key: [] for key in dict.fromkeys(keys)}
    running = {key: list(about[key][1]) for key in per_match}
    for n, ks in enumerate(groups.values()):
        first = games[ks[0]]
        for key in dict.fromkeys(keys[k] for k in ks):
            mine = [k for k in ks if keys[k] == key]
            for room in ("Open", "Closed"):
                twice = [k for k in mine if rooms[k] == room]
                if len(twice) > 1:
                    named = ", ".join(f"record {k + 1} (table {games[k].tags.get('Table', 'unnamed')})" for k in twice)
                    raise FormatError(
                        f"{_label(first)}: {len(twice)} {room.lower()}-room results in one match: {named}; "
                        "name each match (PBN's HomeTeam and VisitTeam or Table, LIN's vg| line before it)"
                    )
            order = sorted(mine, key=lambda k: ("Open", "Closed", None).index(rooms[k]))
            tables = [replace(results[k], room=rooms[k]) for k in order]
            swing = _swing(tables)
            if swing is not None:
                score = running[key]
                score[0 if swing[0] > 0 else 1] += abs(swing[0])
                b = _board(first, tables, pars[n], imps=swing[0], auction_imps=swing[1], play_imps=swing[2])
                per_match[key].append(replace(b, match=(score[0], score[1])))
            else:
                per_match[key].append(_board(first, tables, pars[n]))
    return [TeamMatch(about[key][0], about[key][1], boards) for key, boards in per_match.items()]


def _label(game: GameRecord) -> str:
    return f"Board {game.board}" if game.board is not None else "a board"


def _swing(tables: list[TableResult]) -> tuple[int, int | None, int | None] | None:
    """(swing, auction, play) for the home team, None without both rooms' scores; the split None without DD."""
    opens = [t for t in tables if t.room == "Open"]
    closeds = [t for t in tables if t.room == "Closed"]
    if len(opens) != 1 or len(closeds) != 1 or opens[0].score is None or closeds[0].score is None:
        return None
    swing = int(imps(opens[0].score - closeds[0].score))
    if opens[0].dd_score is None or closeds[0].dd_score is None:
        return swing, None, None
    auction = int(imps(opens[0].dd_score - closeds[0].dd_score))
    return swing, auction, swing - auction


def _pairs(
    games: Sequence[GameRecord],
    results: list[TableResult],
    groups: dict[tuple[int | None, str], list[int]],
    pars: list[tuple[int, str]],
    by_section: bool,
) -> tuple[list[BoardReport], list[PairTotal]]:
    """Each board's results matchpointed in its field (the file, or its section); Neuberg where played less."""
    fields: list[list[list[int]]] = []
    for ks in groups.values():
        scored = [k for k in ks if results[k].score is not None]
        if by_section:
            sections: dict[str | None, list[int]] = {}
            for k in scored:
                sections.setdefault(results[k].section, []).append(k)
            fields.append(list(sections.values()))
        else:
            fields.append([scored] if scored else [])
    most: dict[str | None, int] = {}
    for per_board in fields:
        for f in per_board:
            sec = results[f[0]].section if by_section else None
            most[sec] = max(most.get(sec, 0), len(f))
    points: dict[int, tuple[float, float]] = {}
    for per_board in fields:
        for f in per_board:
            if len(f) < 2:
                continue
            expected = most[results[f[0]].section if by_section else None]
            mp = 2.0 * matchpoints([results[k].score or 0 for k in f])  # f holds scored results only
            top = 2.0 * (len(f) - 1)
            if len(f) < expected:
                mp, top = 2.0 * neuberg(mp / 2.0, expected), 2.0 * (expected - 1)
            for k, v in zip(f, mp.tolist(), strict=True):
                points[k] = (float(v), top)
    boards = []
    for n, ks in enumerate(groups.values()):
        tables = [
            replace(results[k], matchpoints=points[k][0], top=points[k][1]) if k in points else results[k] for k in ks
        ]
        boards.append(_board(games[ks[0]], tables, pars[n]))
    return boards, pair_totals([t for b in boards for t in b.tables], by_section)


def analyse(
    path: str | os.PathLike[str] | Sequence[str], *, by_section: bool = False, progress: Progress | None = None
) -> SessionReport:
    """Read a file of played boards (or handviewer addresses) and analyse it: :func:`analyse_session` of it.

    Parameters
    ----------
    path : path, address or list of them
        A PBN (games, or a hand record with a ``ScoreTable``), LIN or ZRJ file; a BBO handviewer address;
        a text file of addresses, one a line; or a list of any of these, read in turn.
    by_section : bool
        Matchpoint each section apart.

    Returns
    -------
    SessionReport
        ``.boards``, ``.to_frame()``, ``.to_html()``, ``_repr_html_`` in notebooks; ``str()`` the text.

    Raises
    ------
    FormatError
        A file that cannot be read, an address that needs the network, a file of deals only.
    """
    from ddsbind.formats.games import read_played

    sources = [os.fspath(path)] if isinstance(path, (str, os.PathLike)) else [str(p) for p in path]
    games = [g for source in sources for g in read_played(source)]
    return analyse_session(games, by_section=by_section, progress=progress)
