"""A session of played boards scored as the players scored it: a team match in IMPs, a pairs session in matchpoints.

:func:`analyse_session` takes a file's game records (PBN, LIN, ZRJ: any
:class:`~ddsbind.formats.GameRecord`) and groups them by board (the board
number and the deal).  What the file holds decides how it is scored:

* **teams** -- the records name their room (LIN's ``qx|o1|``/``qx|c1|``,
  PBN's ``[Room "Open"]``/``[Room "Closed"]``): per board the two rooms'
  North-South scores, the swing in IMPs (WBF scale,
  :func:`ddsbind.scoring.imps`) for the *home* team, and the running and
  final match score.  The home team sits North-South in the open room and
  East-West in the closed room (BBO's vugraph order: the first team of
  LIN's ``vg|`` line, or PBN's ``HomeTeam`` tag).  A board played in one room
  only has no swing.
* **pairs** -- boards played at several tables without rooms: each table's
  North-South matchpoints against the others (:func:`ddsbind.scoring.matchpoints`).
* **games** -- every board once: each game on its own.

Every table also gets its double-dummy result (declarer's tricks before the
opening lead) and the cards that cost a trick (:func:`ddsbind.play.costly_cards_batch`);
every board its par (DDS's ``DealerPar``, dealer first).  Scores are
North-South's, positive when North-South gain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ddsbind import _report_html
from ddsbind._typing import Progress
from ddsbind.deal import SEAT_LETTERS, Seat
from ddsbind.play import CostlyCard, PlayJob, analyse_plays, costly_cards_batch
from ddsbind.scoring import imps, matchpoints
from ddsbind.solver import dd_tables, dealer_par, par

if TYPE_CHECKING:
    from ddsbind.record import GameRecord

__all__ = ["BoardReport", "SessionReport", "TableResult", "analyse_session"]


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
    contract : str or None
        ``"4SX"``, ``"Pass"`` (passed out), None when unknown.
    declarer : Seat or None
    result : int or None
        Declarer's tricks.
    score : int or None
        North-South's score (negative when East-West gain); None when unknown.
    dd_result : int or None
        Declarer's double-dummy tricks before the opening lead; None when not analysed.
    cards_played : int
    costly : list of CostlyCard
    matchpoints : float or None
        North-South's matchpoints against the board's other tables (pairs only).
    """

    index: int
    room: str | None
    players: dict[str, str]
    contract: str | None
    declarer: Seat | None
    result: int | None
    score: int | None
    dd_result: int | None = None
    cards_played: int = 0
    costly: list[CostlyCard] = field(default_factory=list)
    matchpoints: float | None = None

    def played(self) -> str:
        """``3NT by W, 9 tricks``, ``passed out`` or ``contract unknown``."""
        if self.contract is None or self.declarer is None:
            return "passed out" if (self.contract or "").upper() == "PASS" else "contract unknown"
        return f"{self.contract} by {self.declarer.name}, " + (
            "result unknown" if self.result is None else f"{self.result} tricks"
        )

    def words(self) -> str:
        """``3NT by W, 9 tricks, NS -400, double dummy 9 tricks`` (the parts the file gives)."""
        parts = [self.played()]
        if self.score is not None:
            parts.append(f"NS {self.score:+d}" if self.score else "NS 0")
        if self.dd_result is not None:
            parts.append(f"double dummy {self.dd_result} tricks")
        return ", ".join(parts)

    def names(self) -> str:
        """``N Carr, E Dale, S Ames, W Brook`` (empty when the file names nobody)."""
        return ", ".join(f"{seat} {self.players[seat]}" for seat in SEAT_LETTERS if seat in self.players)

    def to_json(self) -> dict[str, Any]:
        """The table as JSON types."""
        return {
            "index": self.index,
            "room": self.room,
            "players": dict(self.players),
            "contract": self.contract,
            "declarer": None if self.declarer is None else self.declarer.name,
            "result": self.result,
            "score": self.score,
            "dd_result": self.dd_result,
            "cards_played": self.cards_played,
            "matchpoints": self.matchpoints,
            "costly": [c.to_json() for c in self.costly],
        }


@dataclass(frozen=True)
class BoardReport:
    """One board: its tables, its par and, in a team match, the swing.

    Attributes
    ----------
    board : int or None
        The board's number in the file (None when the file gives none).
    dealer : Seat or None
    vulnerable : str
        ``None``, ``NS``, ``EW`` or ``All``.
    par_score : int
        North-South's par score (DDS's ``DealerPar``: the dealer bids first).
    par_words : str
        The par contracts and score in words.
    tables : list of TableResult
        In the file's order (the open room first in a team match).
    imps : int or None
        The home team's IMPs on the board (negative: the visitors gain); None
        when the board is not a team match's or a room is missing.
    match : tuple of int or None
        The running match score after this board: (home, visitors) IMPs.
    """

    board: int | None
    dealer: Seat | None
    vulnerable: str
    par_score: int
    par_words: str
    tables: list[TableResult]
    imps: int | None = None
    match: tuple[int, int] | None = None

    @property
    def label(self) -> str:
        """``Board 3`` as the file numbers it, or ``Record 5 of the file`` when it has no number."""
        return f"Board {self.board}" if self.board is not None else f"Record {self.tables[0].index} of the file"

    def to_json(self) -> dict[str, Any]:
        """The board as JSON types."""
        return {
            "board": self.board,
            "dealer": None if self.dealer is None else self.dealer.name,
            "vulnerable": self.vulnerable,
            "par": {"score": self.par_score, "words": self.par_words},
            "imps": self.imps,
            "match": None if self.match is None else list(self.match),
            "tables": [t.to_json() for t in self.tables],
        }


@dataclass(frozen=True)
class SessionReport:
    """:func:`analyse_session`'s answer; ``str()`` is ``ddsbind analyse``'s report.

    Attributes
    ----------
    kind : str
        ``"teams"``, ``"pairs"`` or ``"games"`` (module docstring).
    teams : tuple of str
        (home, visitors): the team names the file gives, else ``("Home", "Visitors")``.
    boards : list of BoardReport
        In the file's order of first appearance.
    """

    kind: str
    teams: tuple[str, str]
    boards: list[BoardReport]

    @property
    def total(self) -> tuple[int, int]:
        """The final match score in IMPs, (home, visitors): the sum of the boards' swings."""
        home = sum(b.imps for b in self.boards if b.imps is not None and b.imps > 0)
        away = -sum(b.imps for b in self.boards if b.imps is not None and b.imps < 0)
        return home, away

    def to_json(self) -> dict[str, Any]:
        """The report as JSON types: ``kind``, ``teams``, ``boards`` and (teams) ``total``."""
        out: dict[str, Any] = {"kind": self.kind, "boards": [b.to_json() for b in self.boards]}
        if self.kind == "teams":
            out["teams"] = list(self.teams)
            out["total"] = dict(zip(self.teams, self.total, strict=True))
        return out

    def lines(self) -> list[str]:
        """The report as text, one line a list item."""
        if self.kind == "games":
            return [line for b in self.boards for t in b.tables for line in _game_lines(b, t)]
        home, away = self.teams
        out = []
        if self.kind == "teams":
            out.append(f"{home} v {away} ({home} North-South in the open room, East-West in the closed room)")
        for b in self.boards:
            dealer = "" if b.dealer is None else f"dealer {b.dealer.name}, "
            out.append(f"{b.label} ({dealer}vulnerable {b.vulnerable}): par {b.par_words}")
            for t in b.tables:
                where = (t.room or "").lower() + " room" if t.room else f"record {t.index}"
                mp = ""
                if t.matchpoints is not None:
                    mp = f"; NS {t.matchpoints:g} of {len(b.tables) - 1} matchpoints"
                names = f" ({t.names()})" if t.names() else ""
                out.append(f"  {where.capitalize()}{names}: {t.words()}{mp}")
                out += ["    " + line for line in _costly_lines(t)]
            if self.kind == "teams":
                if b.imps is None:
                    out.append("  no swing: the file lacks one room's result")
                else:
                    gain = (
                        "no swing"
                        if b.imps == 0
                        else f"{home if b.imps > 0 else away} +{abs(b.imps)} IMP{'s' if abs(b.imps) > 1 else ''}"
                    )
                    assert b.match is not None
                    out.append(f"  {gain}; match: {home} {b.match[0]}, {away} {b.match[1]}")
        if self.kind == "teams":
            out.append(f"Match: {home} {self.total[0]}, {away} {self.total[1]} IMPs")
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        """The session in notebooks: one row a table of a board, with the swing or matchpoints and the match score."""
        header = ["board", "room" if self.kind == "teams" else "record", "players", "result", "NS score", "DD tricks"]
        header += {"teams": ["IMPs", "match"], "pairs": ["NS matchpoints"], "games": []}[self.kind]
        rows = []
        for b in self.boards:
            for n, t in enumerate(b.tables):
                cells = [t.room or "" if self.kind == "teams" else str(t.index), t.names(), t.played()]
                cells += ["" if t.score is None else f"{t.score:+d}", "" if t.dd_result is None else str(t.dd_result)]
                if self.kind == "teams":
                    last = n == len(b.tables) - 1
                    cells += [f"{b.imps:+d}" if last and b.imps is not None else "", _match_text(b) if last else ""]
                elif self.kind == "pairs":
                    cells.append("" if t.matchpoints is None else f"{t.matchpoints:g}")
                rows.append((b.label, cells))
        home, away = self.teams
        caption = f"{home} v {away}: {self.total[0]} - {self.total[1]} IMPs" if self.kind == "teams" else ""
        return _report_html.session(header, rows, caption)


def _match_text(b: BoardReport) -> str:
    return "" if b.match is None else f"{b.match[0]} - {b.match[1]}"


def _costly_lines(t: TableResult) -> list[str]:
    """The costly cards of one table, one line each (or the line that says there is none)."""
    if t.dd_result is None:
        return []
    if not t.costly:
        return [f"no card changed the double-dummy result ({t.cards_played} cards played)"]
    out = []
    for c in t.costly:
        s = "s" if c.cost > 1 else ""
        better = " ".join(str(b) for b in c.better)
        out.append(f"trick {c.trick:>2}: {c.seat.name} played {c.card}, cost {c.cost} trick{s} (better: {better})")
    return out


def _game_lines(b: BoardReport, t: TableResult) -> list[str]:
    """A board played once: today's ``Board 1: 3NT by W, 9 tricks, double dummy 9 tricks`` and its costly cards."""
    label = f"Board {b.board}" if b.board is not None else "Deal"
    result = "result unknown" if t.result is None else f"{t.result} tricks"
    declarer = t.declarer.name if t.declarer is not None else "?"
    head = f"{label}: {t.contract} by {declarer}, {result}, double dummy {t.dd_result} tricks"
    return [head, *("  " + line for line in _costly_lines(t))]


def _contract_text(game: GameRecord) -> str | None:
    """The game's contract as PBN spells it (``"4HX"``, ``"3NT"``), ``"Pass"`` when passed out, None when unknown."""
    if game.passed_out:
        return "Pass"
    return None if game.contract is None else str(game.contract)


def _team_names(games: Sequence[GameRecord]) -> tuple[str, str]:
    """The home and visiting teams: PBN's HomeTeam/VisitTeam tags, or LIN's ``vg|`` line (its 6th and 8th fields)."""
    for g in games:
        if g.tags.get("HomeTeam") and g.tags.get("VisitTeam"):
            return g.tags["HomeTeam"], g.tags["VisitTeam"]
        header = g.tags.get("LinHeader", "")
        start = header.find("vg|")
        if start >= 0:
            fields = header[start + 3 :].split("|", 1)[0].split(",")
            if len(fields) >= 8 and fields[5].strip() and fields[7].strip():
                return fields[5].strip(), fields[7].strip()
    return "Home", "Visitors"


def analyse_session(games: Sequence[GameRecord], *, progress: Progress | None = None) -> SessionReport:
    """Score and analyse a file's played boards: IMPs for a team match, matchpoints for pairs (module docstring).

    Parameters
    ----------
    games : sequence of GameRecord
        A file's records, in its order (:func:`ddsbind.formats.read_games`).
    progress : callable, optional
        Called with the number of games whose play was analysed, as they are.

    Returns
    -------
    SessionReport

    Raises
    ------
    PlayFaultError
        A card of a play not held, or a revoke.
    """
    groups: dict[tuple[int | None, str], list[int]] = {}
    for k, g in enumerate(games):
        key = (g.board, g.deal.to_pbn()) if g.board is not None else (None, f"#{k}")
        groups.setdefault(key, []).append(k)
    rooms = [games[k].tags.get("Room") for k in range(len(games))]
    teams = any({rooms[k] for k in ks} == {"Open", "Closed"} for ks in groups.values())
    pairs = not teams and any(len(ks) > 1 for ks in groups.values())
    kind = "teams" if teams else "pairs" if pairs else "games"

    playable = [k for k, g in enumerate(games) if g.trump is not None and g.declarer is not None]
    jobs: list[PlayJob] = []
    for k in playable:
        g = games[k]
        assert g.trump is not None and g.leader is not None
        jobs.append((g.deal, g.trump, g.leader, g.play))
    traces = analyse_plays(jobs, progress=progress)
    costly_all = costly_cards_batch(jobs, traces=traces)
    analysed = {k: (trace, costly) for k, trace, costly in zip(playable, traces, costly_all, strict=True)}

    firsts = [ks[0] for ks in groups.values()]
    tables = dd_tables([games[k].deal for k in firsts]) if kind != "games" else []
    boards: list[BoardReport] = []
    match = [0, 0]
    for n, ks in enumerate(groups.values()):
        results = []
        for k in ks:
            g = games[k]
            trace, costly = analysed.get(k, (None, []))
            results.append(
                TableResult(
                    index=k + 1,
                    room=rooms[k] if teams else None,
                    players=g.players,
                    contract=_contract_text(g),
                    declarer=g.declarer,
                    result=g.result,
                    score=g.ns_score(),
                    dd_result=None if trace is None else trace[0],
                    cards_played=len(g.play),
                    costly=list(costly),
                )
            )
        first = games[ks[0]]
        par_score, par_words = 0, ""
        if kind != "games":
            if first.dealer is not None:
                dp = dealer_par(tables[n], first.dealer, first.vulnerable)
                par_score, par_words = dp.score, dp.words()
            else:
                p = par(tables[n], first.vulnerable)
                par_score, par_words = p.score, p.words()
        swing: int | None = None
        if teams:
            results.sort(key=lambda t: ("Open", "Closed").index(t.room) if t.room in ("Open", "Closed") else 2)
            opens = [t for t in results if t.room == "Open"]
            closeds = [t for t in results if t.room == "Closed"]
            if len(opens) == len(closeds) == 1 and opens[0].score is not None and closeds[0].score is not None:
                swing = int(imps(opens[0].score - closeds[0].score))
                match[0 if swing > 0 else 1] += abs(swing)
        elif pairs and len(results) > 1 and all(t.score is not None for t in results):
            points = matchpoints([t.score or 0 for t in results])
            results = [replace(t, matchpoints=float(mp)) for t, mp in zip(results, points, strict=True)]
        boards.append(
            BoardReport(
                board=first.board,
                dealer=first.dealer,
                vulnerable=str(first.vulnerable),
                par_score=par_score,
                par_words=par_words,
                tables=results,
                imps=swing,
                match=(match[0], match[1]) if swing is not None else None,
            )
        )
    return SessionReport(kind, _team_names(games) if teams else ("Home", "Visitors"), boards)
