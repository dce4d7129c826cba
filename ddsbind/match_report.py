"""The match report's renderings: the text scorecard, JSON, a pandas DataFrame and HTML (a notebook's, a page's).

Everything here reads a :class:`ddsbind.match.SessionReport`; nothing
solves.  Numbers are shown as players write them: scores signed
(``+420``), IMPs whole, matchpoints to two decimals at most, percentages to
one; what is unknown is left blank or said in words (never ``None`` or
``nan``).  The HTML page is one file that opens from disk: its only
styles are inline and it fetches nothing (:func:`ddsbind._report_html.page`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ddsbind import _report_html
from ddsbind.deal import Seat, Side
from ddsbind.scoring import PASSED_OUT

# The report's classes live in ddsbind.match, which calls in here: naming them would close an import circle.
SessionReport = Any
TableResult = Any
TeamMatch = Any
GameRecord = Any


@dataclass(frozen=True)
class PairTotal:
    """A pair's matchpoints over the boards it played in one direction (and section): total, tops, rank.

    ``direction`` is the pair's :class:`~ddsbind.deal.Side` (``"NS"`` in JSON, ``str(Side.NS)``).
    """

    section: str | None
    direction: Side
    pair: str
    boards: int
    matchpoints: float
    tops: float
    rank: int

    @property
    def percent(self) -> float:
        """Total matchpoints over total tops, in percent."""
        return 100.0 * self.matchpoints / self.tops if self.tops else 0.0

    def to_json(self) -> dict[str, Any]:
        """The pair's line as JSON types."""
        return {
            "section": self.section,
            "direction": str(self.direction),
            "pair": self.pair,
            "boards": self.boards,
            "matchpoints": self.matchpoints,
            "tops": self.tops,
            "percent": round(self.percent, 2),
            "rank": self.rank,
        }


@dataclass(frozen=True)
class PlayerLine:
    """One player's boards and double-dummy tricks lost: as declarer (dummy's cards included), in defence, on lead.

    ``worst`` holds per board the player's costliest card: (board label, card, tricks it cost).
    """

    player: str
    declared: int
    defended: int
    led: int
    lost_declaring: int
    lost_defending: int
    lost_on_lead: int
    worst: list[tuple[str, str, int]]

    def to_json(self) -> dict[str, Any]:
        """The player's line as JSON types."""
        return {
            "player": self.player,
            "declared": self.declared,
            "defended": self.defended,
            "led": self.led,
            "lost_declaring": self.lost_declaring,
            "lost_defending": self.lost_defending,
            "lost_on_lead": self.lost_on_lead,
            "worst": [{"board": b, "card": c, "cost": n} for b, c, n in self.worst],
        }


def pair_totals(tables: list[TableResult], by_section: bool) -> list[PairTotal]:
    """Each pair's matchpoints over the results it played, by section (with ``by_section``) and direction, ranked."""
    sums: dict[tuple[str | None, Side, str], list[float]] = {}
    for t in tables:
        if t.matchpoints is None or t.top is None:
            continue
        sec = t.section if by_section else None
        for direction, pair, mp in ((Side.NS, t.pair_ns, t.matchpoints), (Side.EW, t.pair_ew, t.top - t.matchpoints)):
            if pair is None:
                continue
            acc = sums.setdefault((sec, direction, pair), [0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += mp
            acc[2] += t.top
    out: list[PairTotal] = []
    for sec, direction in dict.fromkeys((s, d) for s, d, _ in sums):
        lines = [(p, v) for (s, d, p), v in sums.items() if (s, d) == (sec, direction)]
        lines.sort(key=lambda pv: -pv[1][1] / pv[1][2] if pv[1][2] else 0.0)
        percents = [v[1] / v[2] if v[2] else 0.0 for _, v in lines]
        for i, (pair, v) in enumerate(lines):
            rank = 1 + sum(1 for p in percents if p > percents[i] + 1e-12)
            out.append(PairTotal(sec, direction, pair, int(v[0]), v[1], v[2], rank))
    return out


def player_lines(games: Sequence[GameRecord], results: list[TableResult]) -> list[PlayerLine]:
    """Per player (the names the file gives, else the seats): boards declared, defended, led; tricks lost."""
    stats: dict[str, list[Any]] = {}
    named = any(g.players for g in games)
    nobody = [0, 0, 0, 0, 0, 0, {}]

    def line(name: str | None) -> list[Any]:
        return nobody if name is None else stats.setdefault(name, [0, 0, 0, 0, 0, 0, {}])

    for g, t in zip(games, results, strict=True):
        if g.declarer is None or g.bid is None:
            continue
        room = f" {g.tags['Room'].lower()}" if g.tags.get("Room") in ("Open", "Closed") else ""
        label = (f"Board {g.board}" if g.board is not None else "a board") + room

        def who(seat: Seat, g: GameRecord = g) -> str | None:
            """The player's name; the seat's when the file names nobody and the play is known; else nobody."""
            return g.tags.get(seat.full_name) or (seat.full_name if not named and g.play else None)

        line(who(g.declarer))[0] += 1
        for seat in (g.declarer.lho, g.declarer.rho):
            line(who(seat))[1] += 1
        if g.play:
            line(who(g.declarer.lho))[2] += 1
        for c in t.costly:
            stat = line(who(c.chooser))
            slot = 3 if c.chooser == g.declarer else 5 if c.index == 0 else 4
            stat[slot] += c.cost
            worst = stat[6].get(label)
            if worst is None or c.cost > worst[1]:
                stat[6][label] = (str(c.card), c.cost)
    return [
        PlayerLine(name, s[0], s[1], s[2], s[3], s[4], s[5], [(b, c, n) for b, (c, n) in s[6].items()])
        for name, s in stats.items()
    ]


__all__ = ["PairTotal", "PlayerLine", "fragment", "lines", "page", "pair_totals", "player_lines", "to_frame", "to_json"]


def _num(x: float) -> str:
    """A matchpoint or IMP figure: whole numbers bare, others to two decimals (``2``, ``2.5``, ``1.33``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _signed(x: int | None) -> str:
    return "" if x is None else f"{x:+d}" if x else "0"


def _tricks(n: int) -> str:
    return f"{n} trick{'s' if n != 1 else ''}"


def _imps_words(n: int) -> str:
    return f"{n} IMP{'s' if abs(n) != 1 else ''}"


def _room_cell(t: TableResult) -> str:
    """``3NT W HJ   9   -430``: contract, declarer, lead, tricks, North-South score (blank where unknown)."""
    if t.contract is PASSED_OUT:
        return f"{PASSED_OUT!s:<13}{_signed(t.score):>7}"
    if t.contract is None or t.declarer is None:
        return f"{'unknown':<13}{_signed(t.score):>7}"
    lead = "" if t.lead is None else str(t.lead)
    tricks = "" if t.result is None else str(t.result)
    return f"{t.contract!s:<5}{t.declarer.name:<2}{lead:<3}{tricks:>3}{_signed(t.score):>7}"


def _dd_words(t: TableResult) -> str:
    if t.contract is PASSED_OUT:
        return "passed out (NS 0)"
    if t.dd_result is None or t.dd_score is None:
        return "unknown"
    return f"{t.contract} {_tricks(t.dd_result)} (NS {_signed(t.dd_score)})"


def _detail(t: TableResult, where: str) -> list[str]:
    """A table's costly cards (by player, with their cost in tricks and IMPs) and its claim against double dummy."""
    if t.declarer is None or t.dd_result is None:
        return []
    out = []
    if t.cards_played and not t.costly:
        out.append(f"{where}: no card changed the double-dummy result ({t.cards_played} cards played)")
    for c in t.costly:
        whose = f"{c.player} ({c.chooser.name}{', from dummy' if c.seat != c.chooser else ''})"
        better = " ".join(str(b) for b in c.better)
        out.append(
            f"{where}: trick {c.trick:>2}, {whose} played {c.card}: cost {_tricks(c.cost)}, "
            f"{_imps_words(c.imps)} (better: {better})"
        )
    if t.claim_dd is not None and t.result is not None:
        if t.claim_dd == t.result:
            verdict = "as double dummy"
        else:
            diff = t.result - t.claim_dd
            verdict = f"double dummy {t.claim_dd}: {_tricks(abs(diff))} {'more' if diff > 0 else 'fewer'}"
        out.append(f"{where}: claim of {_tricks(t.result)} after {t.cards_played} cards, {verdict}")
    return out


def _team_lines(m: TeamMatch, detail: bool) -> list[str]:
    home, away = m.teams
    out = [f"{home} v {away} ({home} North-South in the open room, East-West in the closed room)"]
    if any(m.carry):
        out.append(f"Carried over: {home} {_num(m.carry[0])}, {away} {_num(m.carry[1])} (the match score starts there)")
    out.append(f"{'Board':>5}  {'Open room':<20}  {'Closed room':<20}  {home[:8]:>8} {away[:8]:>8}  Match")
    for b in m.boards:
        cells = {t.room: _room_cell(t) for t in b.tables}
        gain = ("", "") if b.imps is None else (str(b.imps) if b.imps > 0 else "", str(-b.imps) if b.imps < 0 else "")
        score = "" if b.match is None else f"{_num(b.match[0])} - {_num(b.match[1])}"
        number = str(b.board) if b.board is not None else "-"
        out.append(
            f"{number:>5}  {cells.get('Open', ''):<20}  {cells.get('Closed', ''):<20}  "
            f"{gain[0]:>8} {gain[1]:>8}  {score}".rstrip()
        )
        rooms = {t.room: t for t in b.tables}
        dd = "; ".join(f"{r.lower()} {_dd_words(rooms[r])}" for r in ("Open", "Closed") if r in rooms)
        out.append(f"       par {b.par_words}; double dummy: {dd}")
        if b.imps is None:
            out.append("       no swing: the file lacks one room's result")
        elif b.auction_imps is not None and b.play_imps is not None:
            # Told from the winners' side (the home team's when no swing): auction + play = the swing.
            team, sign = (away, -1) if b.imps < 0 else (home, 1)
            split = f"auction {_signed(sign * b.auction_imps)}, play {_signed(sign * b.play_imps)}"
            head = f"swing {team} {_imps_words(sign * b.imps)}" if b.imps else f"no swing ({home}'s view)"
            out.append(f"       {head}: {split}")
        if detail:
            for t in b.tables:
                out += ["       " + line for line in _detail(t, (t.room or "").lower())]
    total = m.total
    out.append(f"Match: {home} {_num(total[0])}, {away} {_num(total[1])} IMPs")
    return out


def _pairs_lines(report: SessionReport, detail: bool) -> list[str]:
    out = []
    for b in report.boards:
        dealer = "" if b.dealer is None else f"dealer {b.dealer.name}, "
        out.append(f"{b.label} ({dealer}vulnerable {b.vulnerable}): par {b.par_words}")
        for t in b.tables:
            who = []
            if t.section:
                who.append(f"section {t.section}")
            if t.pair_ns or t.pair_ew:
                who.append(f"NS {t.pair_ns or 'unnamed'} v EW {t.pair_ew or 'unnamed'}")
            words = [t.played()]
            if t.lead is not None:
                words.append(f"lead {t.lead}")
            if t.score is not None:
                words.append(f"NS {_signed(t.score)}")
            if t.dd_result is not None and t.dd_score is not None and t.contract is not PASSED_OUT:
                words.append(f"double dummy {_tricks(t.dd_result)} (NS {_signed(t.dd_score)})")
            if t.matchpoints is not None and t.top is not None:
                words.append(f"NS {_num(t.matchpoints)} of {_num(t.top)} matchpoints ({t.percent_ns:.1f}%)")
            elif len(b.tables) == 1:
                words.append("one table: no matchpoints")
            else:
                words.append("no matchpoints (score unknown)" if t.score is None else "no other result in its field")
            head = f"  {', '.join(who)}: " if who else "  "
            out.append(head + ", ".join(words))
            if detail:
                out += ["    " + line for line in _detail(t, "play")]
    if report.pairs:
        for (section, direction), rows in _by_field(report).items():
            out.append(f"{direction.full_name}{f' (section {section})' if section else ''}:")
            out.append(f"{'Rank':>4}  {'Pair':<32} {'Boards':>6} {'Matchpoints':>11} {'Tops':>6} {'%':>6}")
            for p in rows:
                out.append(
                    f"{p.rank:>4}  {p.pair[:32]:<32} {p.boards:>6} {_num(p.matchpoints):>11} "
                    f"{_num(p.tops):>6} {p.percent:>6.2f}"
                )
    return out


def _by_field(report: SessionReport) -> dict[tuple[str | None, Side], list[Any]]:
    out: dict[tuple[str | None, Side], list[Any]] = {}
    for p in report.pairs:
        out.setdefault((p.section, p.direction), []).append(p)
    return out


def _player_lines(report: SessionReport) -> list[str]:
    if not report.players:
        return []
    out = [
        "Players (double-dummy tricks lost):",
        f"{'Player':<20} {'Declared':>8} {'Defended':>8} {'Led':>4} {'Declaring':>9} {'Defending':>9} "
        f"{'On lead':>7}  Worst card a board",
    ]
    for p in report.players:
        worst = ", ".join(f"{b} {c} ({n})" for b, c, n in p.worst)
        out.append(
            f"{p.player[:20]:<20} {p.declared:>8} {p.defended:>8} {p.led:>4} {p.lost_declaring:>9} "
            f"{p.lost_defending:>9} {p.lost_on_lead:>7}  {worst}".rstrip()
        )
    return out


def lines(report: SessionReport, *, detail: bool = False) -> list[str]:
    """The report as text: each match's scorecard (teams) or each board's results and the pairs' totals."""
    out: list[str] = []
    if report.kind == "teams":
        for m in report.matches:
            out += _team_lines(m, detail)
    else:
        out += _pairs_lines(report, detail)
    return out + _player_lines(report)


def to_json(report: SessionReport) -> dict[str, Any]:
    """The report as JSON types: ``kind``, ``boards``, ``players``; ``matches``, ``teams`` and ``total`` (teams);
    ``pairs`` (pairs)."""
    out: dict[str, Any] = {"kind": report.kind, "boards": [b.to_json() for b in report.boards]}
    if report.kind == "teams":
        out["matches"] = [m.to_json() for m in report.matches]
        out["teams"] = list(report.teams)
        out["total"] = dict(zip(report.teams, report.total, strict=True))
    else:
        out["by_section"] = report.by_section
        out["pairs"] = [p.to_json() for p in report.pairs]
    out["players"] = [p.to_json() for p in report.players]
    return out


def _rows(report: SessionReport) -> list[dict[str, Any]]:
    rows = []
    for b in report.boards:
        for t in b.tables:
            d = t.to_json()
            row: dict[str, Any] = {"board": b.board}
            row |= {k: d[k] for k in ("room", "section", "pair_ns", "pair_ew", "contract", "declarer", "lead")}
            row |= {k: d[k] for k in ("result", "score", "dd_result", "dd_score")}
            row |= {"par": b.par_score, "costly_cards": len(t.costly), "tricks_lost": sum(c.cost for c in t.costly)}
            if report.kind == "teams":
                last = t is b.tables[-1]
                row |= {
                    "imps": b.imps if last else None,
                    "auction_imps": b.auction_imps if last else None,
                    "play_imps": b.play_imps if last else None,
                }
            else:
                row |= {"matchpoints_ns": t.matchpoints, "top": t.top, "percent_ns": t.percent_ns}
            rows.append(row)
    return rows


def to_frame(report: SessionReport) -> Any:
    """One row per board and room (teams) or per result (pairs); unknown values are missing (pandas' NA)."""
    from ddsbind.formats.dataframe import pandas_module

    pd = pandas_module("to_frame")
    # pandas' nullable types: a missing value is NA in every column (never None or NaN), whole numbers stay whole.
    frame = pd.DataFrame(_rows(report)).convert_dtypes()
    for column in frame.columns[frame.isna().all()]:  # a column with no value at all (no sections, say)
        frame[column] = frame[column].astype("string")
    return frame


def _scorecard_tables(report: SessionReport) -> list[str]:
    """The scorecard, pairs totals and players as HTML tables (escaped text in :func:`_report_html.session`)."""
    parts = []
    if report.kind == "teams":
        for m in report.matches:
            home, away = m.teams
            header = ["open room", "closed room", home, away, "match", "auction", "play", "par"]
            rows = []
            for b in m.boards:
                room_cells = {t.room: " ".join(_room_cell(t).split()) for t in b.tables}
                gain = "" if b.imps is None else str(abs(b.imps))
                rows.append(
                    (
                        b.label,
                        [
                            room_cells.get("Open", ""),
                            room_cells.get("Closed", ""),
                            gain if b.imps and b.imps > 0 else "",
                            gain if b.imps and b.imps < 0 else "",
                            "" if b.match is None else f"{_num(b.match[0])} - {_num(b.match[1])}",
                            _signed(b.auction_imps),
                            _signed(b.play_imps),
                            b.par_words,
                        ],
                    )
                )
            total = m.total
            carry = f" (carried over {_num(m.carry[0])} - {_num(m.carry[1])})" if any(m.carry) else ""
            caption = f"{home} v {away}: {_num(total[0])} - {_num(total[1])} IMPs{carry}"
            parts.append(_report_html.session(header, rows, caption))
    else:
        header = ["section", "NS pair", "EW pair", "result", "lead", "NS score", "DD tricks", "NS matchpoints", "NS %"]
        rows = []
        for b in report.boards:
            for t in b.tables:
                mp = "one table" if len(b.tables) == 1 else ""
                if t.matchpoints is not None and t.top is not None:
                    mp = f"{_num(t.matchpoints)} / {_num(t.top)}"
                pct = "" if t.percent_ns is None else f"{t.percent_ns:.1f}"
                dd = "" if t.dd_result is None else str(t.dd_result)
                lead = "" if t.lead is None else str(t.lead)
                cells = [t.section or "", t.pair_ns or "", t.pair_ew or "", t.played(), lead, _signed(t.score), dd]
                rows.append((b.label, [*cells, mp, pct]))
        parts.append(_report_html.session(header, rows, "Results"))
        for (section, direction), lines_ in _by_field(report).items():
            rows = [
                (str(p.rank), [p.pair, str(p.boards), _num(p.matchpoints), _num(p.tops), f"{p.percent:.2f}"])
                for p in lines_
            ]
            caption = f"{direction.full_name}{f' section {section}' if section else ''}"
            header = ["rank", "pair", "boards", "matchpoints", "tops", "%"]
            parts.append(_report_html.session(header[1:], rows, caption, kind="pairs"))
    if report.players:
        rows = [
            (
                p.player,
                [
                    str(p.declared),
                    str(p.defended),
                    str(p.led),
                    str(p.lost_declaring),
                    str(p.lost_defending),
                    str(p.lost_on_lead),
                    ", ".join(f"{b} {c} ({n})" for b, c, n in p.worst),
                ],
            )
            for p in report.players
        ]
        header = ["declared", "defended", "led", "lost declaring", "lost defending", "lost on lead", "worst cards"]
        parts.append(_report_html.session(header, rows, "Players: double-dummy tricks lost", kind="players"))
    return parts


def fragment(report: SessionReport) -> str:
    """The report's tables for notebooks (``_repr_html_``): scorecard or results, pairs, players."""
    return "".join(_scorecard_tables(report))


def page(report: SessionReport) -> str:
    """The whole report as one HTML page: the tables, then each board's diagram, auction and play (costly cards
    marked), every table of it."""
    boards = []
    for b in report.boards:
        games = []
        for t in b.tables:
            g = report.games[t.index - 1]
            trace = report.traces.get(t.index - 1)
            heading = " ".join(x for x in (t.room and f"{t.room} room", t.names()) if x)
            games.append((heading, g.to_html(trace, t.costly)))
        boards.append((b.label, f"par {b.par_words}", games))
    return _report_html.page("Match report", _scorecard_tables(report), boards)
