r"""Game records (a deal as it was bid and played): the :class:`GameRecord` model and its PBN text.

No DDS calls here.  The rules of play are :mod:`ddsbind.game`'s; the ZRJ
form of a game record is :mod:`ddsbind.formats.zrjgame`; reading and
writing game records in files (any format that holds them) is
:mod:`ddsbind.formats.games`.

Specification (PBN 2.1, with our reading where noted)
-----------------------------------------------------
* A game is a block of tags separated from the next by an empty line.  A tag
  is ``[Name "value"]`` on its own line; ``%`` lines, ``{...}`` comments (also
  over several lines) and ``;`` to the end of a line are commentary.  A value
  ``"#"`` repeats the previous game's value.  Text is ISO-8859-1 (UTF-8
  after a byte-order mark: :func:`ddsbind.formats.pbn.decode_pbn`).
* Tags read: ``Board`` (a number), ``Dealer`` (N E S W), ``Vulnerable``
  (``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``), ``Deal`` (see
  :mod:`ddsbind.formats.pbn`), ``Contract`` (``Pass``, or level, strain
  ``S H D C NT``, then ``X`` or ``XX``), ``Declarer`` (N E S W), ``Result``
  (tricks won by declarer, 0..13).  Every tag is kept in ``tags``.
* ``[Auction "F"]`` section: the calls from seat F (the dealer), tokens
  ``Pass``, ``X``, ``XX``, ``1C`` .. ``7NT``; ``AP`` stands for the closing
  passes (3 after a bid, 4 when nobody bid); ``*`` ends the auction; NAGs
  ``$n`` are skipped.  ``AP`` adds only the passes still missing (``4H Pass
  AP`` is ``4H Pass Pass Pass``, ``Pass Pass AP`` four passes).  The auction
  is checked by the rules (:func:`auction_fault`): each bid above the last,
  a double only of the opponents' bid, a redouble only of their double,
  nothing after the auction ended (three passes after a bid or double, four
  at the start).  A call may carry ``!``, ``?`` or ``!?`` (PBN's good, bad,
  interesting call; our reading of ZRJ's punctuation bits: mark 1, 2 and 3).
* Commentary: the text of each ``{...}`` (and ``;``) comment of a game is
  kept in ``commentary`` (written anew after the game's sections; LIN's
  ``nt|``).
* Notes: ``=n=`` after a call or a card refers to the game's
  ``[Note "n:text"]`` tag (the one tag that may repeat in a game, written
  after the section it serves).  Kept in ``notes``, ``call_notes`` and
  ``card_notes``; a call with a note is an alerted call (``alerts``; an
  alert without explanation is written as an empty note), which is how
  LIN's alerts (``!`` and ``an|``) travel through PBN.
* ``[Play "L"]`` section: L is the opening leader (declarer's left-hand
  opponent).  Each trick is four tokens **by seat, starting from L** -- not
  in play order -- so a trick's leader is the previous trick's winner and
  its cards are read starting from that seat's column.  A card is suit and
  rank (``SA``, ``HT``, ``D10``); ``-`` is a card not played (the play
  stopped: a claim); ``*`` ends the play.  A card after a ``-`` or ``*``
  (in play order) is an error: a card after the claim.  Cards carry ``!``,
  ``?``, ``!?`` as calls do.
* Writing back: a record read from PBN and not changed is written as it
  was read, byte for byte (its comments, ``{...}`` commentary, blank lines,
  tag order, line ends and games without a deal around it), so PBN to PBN
  loses nothing; if only its tags changed, those lines are set in place.
* Tag values are written with ``"`` and backslash escaped by a backslash
  (PBN 2.1, after PGN: a string is one line of printing characters); a value
  with a line break or another control character is refused
  (``FormatError`` naming the tag).
* Writing a record anew emits ``Event``/``Site``/``Date`` only if read, then ``Board``,
  ``Dealer``, ``Vulnerable``, ``Deal``, every other tag read (with its
  section's lines), ``Declarer``, ``Contract``, ``Result``, the ``Auction``
  section and its notes, then the ``Play`` section (one trick a line, by
  seat from L; ``-`` for cards not played; ``*`` after an unfinished play)
  and its notes.
* ``Result`` must agree with the play: after a complete play it is the tricks
  declarer's side won; after a play cut short (a claim) it lies between the
  tricks declarer's side has won and that plus the tricks not finished.

In memory seats are :class:`~ddsbind.deal.Seat` (DDS order N=0 E=1 S=2 W=3),
the trump a :class:`~ddsbind.deal.Strain` (S=0 H=1 D=2 C=3 NT=4), the
vulnerability a :class:`~ddsbind.game.Vulnerability`, and the play a list of
cards **in play order** from the opening lead.  Each card is checked as
:class:`ddsbind.game.Play` plays it; a fault raises
:class:`~ddsbind.errors.FormatError` naming the game (``index``), the play's
0-based position, its trick and seat and the card.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ddsbind.deal import SEAT_LETTERS, Card, Deal, Seat, Strain
from ddsbind.errors import DDSError, FormatError
from ddsbind.formats import pbn
from ddsbind.game import Play, PlayedTrick, Vulnerability, play_out

__all__ = ["GameRecord", "format_games", "holds_games", "parse_games"]

_MARKS = {"": 0, "!": 1, "?": 2, "!?": 3}
_MARK_TEXT = {v: k for k, v in _MARKS.items()}
_CALL = re.compile(r"^(PASS|XX|X|AP|[1-7](?:NT|[SHDCN]))([!?]*)$", re.IGNORECASE)
_CARD = re.compile(r"^([SHDC](?:10|[2-9TJQKA]))([!?]*)$", re.IGNORECASE)
_CONTRACT = re.compile(r"^([1-7])(NT|N|S|H|D|C)(XX|X)?$", re.IGNORECASE)
#: Tags whose values :class:`GameRecord` holds in its fields (written from them, not from ``tags``).
_OWNED = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play", "Note")
_NOTE_REF = re.compile(r"^=(\d+)=$")
_NOTE = re.compile(r"^(\d+):(.*)$", re.DOTALL)
#: Tags that say a PBN game is a game record (bid or played), not only a deal.
_GAME_TAGS = ("Contract", "Declarer", "Result", "Auction", "Play")


def _play_fault(number: int, exc: DDSError) -> str:
    """``"play 5 (trick 2, 2nd card, E): SA is not held by E (held by W)"`` from a :class:`~ddsbind.game.Play` fault."""
    where, _, what = (exc.reason or "").partition(": ")
    return f"play {number} ({where}): {what}"


def _mark(text: str, what: str) -> int:
    if text not in _MARKS:
        raise FormatError(f"{what}: annotation {text!r} is not !, ? or !?")
    return _MARKS[text]


# --------------------------------------------------------------------------
# The model


class CostlyLike(Protocol):
    """What :meth:`GameRecord.to_html` reads of a costly card (:class:`ddsbind.play.CostlyCard`)."""

    @property
    def index(self) -> int: ...
    @property
    def cost(self) -> int: ...
    @property
    def better(self) -> Sequence[Card]: ...


@dataclass
class GameRecord:
    """One played deal: the PBN game-record tags and sections, decoded.

    Attributes
    ----------
    deal : Deal
        The deal before the opening lead.
    dealer : Seat or None
    vulnerable : Vulnerability
        Who is vulnerable; a PBN name (``"None"``, ``"NS"``, ``"EW"``,
        ``"All"``) or DDS's code 0..3 is read on construction.
    board : int or None
    auction : list of str
        Calls from the dealer: ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``.
    auction_marks : list of int
        Per call 0, 1 (``!``), 2 (``?``) or 3 (``!?``).
    contract : str or None
        ``"Pass"`` (passed out), e.g. ``"4HX"``, or None when unknown.
    declarer : Seat or None
    result : int or None
        Tricks won by declarer.
    play : list of Card
        In play order from the opening lead; may stop early (a claim).
    play_marks : list of int
        Per card, as ``auction_marks``.
    tags : dict
        Every tag read, name -> value (written back for names this module does not own).
    sections : dict
        The section lines (e.g. a table's rows) of tags this module does not
        own, name -> lines, written back after their tag.
    notes : dict
        Note number -> text: PBN's ``[Note "n:text"]`` tags, LIN's ``an|``
        explanations.
    call_notes, card_notes : dict
        Call index (0-based, from the dealer) or card index (0-based, play
        order) -> the numbers of its notes (PBN's ``=n=`` after the token).
    commentary : list of str
        The game's commentary: PBN's ``{...}`` (and ``;``) text, LIN's ``nt|``.
    alerts : set of int
        Indexes of alerted calls (LIN's ``!`` suffix).  In PBN an alert is a
        note on the call (an empty one when the alert has no explanation), so
        every call with a note reads back as alerted.
    """

    deal: Deal
    dealer: Seat | None = None
    vulnerable: Vulnerability = Vulnerability.NONE
    board: int | None = None
    auction: list[str] = field(default_factory=list)
    auction_marks: list[int] = field(default_factory=list)
    contract: str | None = None
    declarer: Seat | None = None
    result: int | None = None
    play: list[Card] = field(default_factory=list)
    play_marks: list[int] = field(default_factory=list)
    tags: dict[str, str] = field(default_factory=dict)
    sections: dict[str, list[str]] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)
    call_notes: dict[int, list[int]] = field(default_factory=dict)
    card_notes: dict[int, list[int]] = field(default_factory=dict)
    alerts: set[int] = field(default_factory=set)
    commentary: list[str] = field(default_factory=list)
    #: The PBN text the record was read from, to write it back unchanged (:func:`format_games`).
    source: _Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        self.vulnerable = Vulnerability.parse(self.vulnerable)

    @property
    def passed_out(self) -> bool:
        """True when the contract is ``Pass``."""
        return (self.contract or "").upper() == "PASS"

    @property
    def level(self) -> int:
        """Contract level 1..7 (0 passed out or unknown)."""
        m = _CONTRACT.match(self.contract or "")
        return int(m.group(1)) if m else 0

    @property
    def trump(self) -> Strain | None:
        """The contract's strain, None when passed out or unknown."""
        m = _CONTRACT.match(self.contract or "")
        return Strain.parse(m.group(2)) if m else None

    @property
    def doubled(self) -> int:
        """0 undoubled, 1 doubled, 2 redoubled."""
        m = _CONTRACT.match(self.contract or "")
        return len(m.group(3) or "") if m else 0

    @property
    def leader(self) -> Seat | None:
        """The opening leader: declarer's left-hand opponent."""
        return None if self.declarer is None else self.declarer.next()

    def tricks(self) -> list[PlayedTrick]:
        """The play as tricks, each card checked by :class:`ddsbind.game.Play`.

        The last trick is unfinished (``winner`` None) if the play stops
        mid-trick.  A fault raises :class:`~ddsbind.errors.FormatError`
        naming the play's 0-based position, its trick, the seat and the card.
        """
        if not self.play:
            return []
        if self.trump is None or self.leader is None:
            raise FormatError("a play needs a contract and a declarer")
        if len(self.play) > 52:
            raise FormatError(f"play 52 ({self.play[52]}): {len(self.play)} cards in the play, at most 52")
        try:
            return play_out(self.deal, self.trump, self.leader, self.play)
        except DDSError as exc:
            raise FormatError(_play_fault(exc.index or 0, exc)) from None

    def diagram(self) -> str:
        """The deal as a text diagram headed by the board, dealer and vulnerability (:meth:`ddsbind.Deal.diagram`)."""
        return self.deal.diagram(self.dealer, self.vulnerable, self.board)

    def score(self) -> int | None:
        """Declarer's score for ``result`` by the Laws (:mod:`ddsbind.scoring`); None when unknown or passed out."""
        from ddsbind.scoring import Contract

        if self.result is None or self.declarer is None or self.trump is None:
            return None
        contract = Contract(self.level, self.trump, self.doubled, self.declarer)
        return contract.score(self.result, vulnerable=self.vulnerable.is_vulnerable(self.declarer))

    def to_html(self, trace: Sequence[int] | None = None, costly: Sequence[CostlyLike] = ()) -> str:
        """The game for notebooks: diagram (board, dealer, vulnerability), auction, result, the play trick by trick.

        ``trace`` (declarer's double-dummy tricks before the lead and after
        each card, :func:`ddsbind.analyse_play`'s answer) adds the double-dummy
        result and a column of declarer's DD tricks after each trick;
        ``costly`` (:func:`ddsbind.costly_cards`'s answer) marks those cards.
        :func:`ddsbind.play.analyse_game` gives both.
        """
        from ddsbind import _html

        head = [f"Board {self.board}"] if self.board is not None else []
        if self.dealer is not None:
            head.append(f"dealer {self.dealer}")
        head.append(f"vulnerable {self.vulnerable}")
        diagram = _html.diagram(_html.hands_of_pbn(self.deal.to_pbn("N")), ", ".join(head))
        auction = _html.auction(self.auction, int(self.dealer)) if self.auction and self.dealer is not None else ""
        rows = []
        index = 0
        for t in self.tricks():
            cards = [(int(t.leader.next(k)), str(c), index + k) for k, c in enumerate(t.cards)]
            index += len(t.cards)
            # DDS's trace stops before the last trick (it is forced): its value then is the last one.
            dd = trace[min(index, len(trace) - 1)] if trace and len(t.cards) == 4 else None
            rows.append((t.number, int(t.leader), cards, None if t.winner is None else int(t.winner), dd))
        marks = {int(c.index): (int(c.cost), [str(b) for b in c.better])
                 for c in costly}  # fmt: skip
        play = _html.play_table(rows, marks, "declarer's DD tricks") if rows else ""
        return _html.game(diagram, auction, play, self._result_words(trace, len(marks)))

    def _result_words(self, trace: Sequence[int] | None, costly: int) -> str:
        if self.passed_out:
            return "Passed out"
        if self.contract is None or self.declarer is None:
            return "Contract unknown"
        words = f"{self.contract} by {self.declarer}"
        if self.result is not None:
            score = self.score()
            words += f": {self.result} tricks" + (f", {score:+d}" if score is not None else "")
        if trace:
            from ddsbind.scoring import Contract

            assert self.trump is not None
            dd = Contract(self.level, self.trump, self.doubled, self.declarer)
            dd_score = dd.score(trace[0], vulnerable=self.vulnerable.is_vulnerable(self.declarer))
            words += f"; double dummy {trace[0]} tricks, {dd_score:+d}"
            words += f"; {costly} costly card{'s' if costly != 1 else ''} marked" if costly else "; no costly card"
        return words

    def _repr_html_(self) -> str:
        return self.to_html()

    def declarer_tricks_played(self) -> int:
        """Tricks declarer's side won among the finished tricks of the play."""
        if self.declarer is None:
            return 0
        side = self.declarer % 2
        return sum(1 for t in self.tricks() if t.winner is not None and t.winner % 2 == side)

    def check_auction(self) -> None:
        """Refuse an auction the rules do not allow (``FormatError`` naming the call, 1-based, and its seat).

        Each bid ranks above the last bid; a double only of the opponents'
        last bid (not yet doubled), a redouble only of the opponents' double;
        nothing after the auction ended (three passes after a bid or double,
        four passes when nobody bid).  An auction may stop early (not finished).
        """
        fault = auction_fault(self.auction, self.dealer)
        if fault is not None:
            raise FormatError(f"auction {fault}")

    def check_result(self) -> None:
        """Refuse a ``result`` the play contradicts (``FormatError``); the play itself is checked too.

        After a complete play (52 cards) the result is the tricks declarer's
        side won.  After a play cut short (a claim) it is at least the tricks
        declarer's side has won and at most that plus the tricks not finished.
        Nothing is checked without a result or without a play.
        """
        if self.result is None or not self.play:
            return
        tricks = self.tricks()
        finished = [t for t in tricks if t.winner is not None]
        assert self.declarer is not None  # tricks() needs one
        won = sum(1 for t in finished if t.winner is not None and t.winner % 2 == self.declarer % 2)
        if len(self.play) == 52:
            if self.result != won:
                raise FormatError(
                    f"Result {self.result} contradicts the play: declarer's side won {won} of the 13 tricks"
                )
            return
        most = won + 13 - len(finished)
        if not won <= self.result <= most:
            raise FormatError(
                f"Result {self.result} contradicts the play: declarer's side won {won} of the {len(finished)} "
                f"tricks played, so the result is {won}..{most}"
            )


# --------------------------------------------------------------------------
# PBN text -> game records


def _normal_call(token: str) -> str:
    t = token.upper()
    if t == "PASS":
        return "Pass"
    if t in ("X", "XX"):
        return t
    return t[0] + ("NT" if t[1:] in ("N", "NT") else t[1:])


def _parse_contract(text: str, g: int) -> str | None:
    t = text.strip()
    if not t:
        return None
    if t.upper() == "PASS":
        return "Pass"
    m = _CONTRACT.match(t)
    if not m:
        raise FormatError(f"PBN: Contract {text!r} is not Pass or e.g. 4H, 3NTX, 6CXX", index=g)
    strain = "NT" if m.group(2).upper() in ("N", "NT") else m.group(2).upper()
    return f"{m.group(1)}{strain}{(m.group(3) or '').upper()}"


def _seat_tag(value: str | None, name: str, g: int) -> Seat | None:
    if value is None or not value.strip() or value.strip() == "?":
        return None
    v = value.strip().upper()
    if len(v) != 1 or v not in SEAT_LETTERS:
        raise FormatError(f"PBN: {name} {value!r} is not N, E, S or W", index=g)
    return Seat(SEAT_LETTERS.index(v))


def _skip(token: str) -> bool:
    return token.startswith("$") or (len(token) > 1 and token.startswith("=") and token.endswith("="))


def closing_passes(calls: Sequence[str]) -> int:
    """How many passes the auction ``calls`` still needs to end: 0 when it has ended.

    Three after the last bid or double; four when nobody has bid.
    """
    trailing = len(calls) - next((k + 1 for k in range(len(calls) - 1, -1, -1) if calls[k] != "Pass"), 0)
    needed = 3 if trailing < len(calls) else 4  # 3 after the last bid or double, 4 when nobody bid
    return max(0, needed - trailing)


_BID_RANK = {"C": 0, "D": 1, "H": 2, "S": 3, "NT": 4}


def auction_fault(calls: Sequence[str], dealer: Seat | int | None = None) -> str | None:
    """What is wrong with the auction ``calls`` by the rules, or None when nothing is.

    ``calls`` are ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"`` from the
    dealer (DDS seat, N=0 E=1 S=2 W=3; only used to name seats).  The message
    names the call by its 1-based position, e.g. ``"call 3 (1C, S): 1C does
    not rank above 1NT"``.
    """
    last_bid: tuple[int, int] | None = None  # (rank, caller parity)
    last_bid_text = ""
    state = ""  # "" undoubled, "X" doubled, "XX" redoubled
    doubler = -1
    for k, call in enumerate(calls):
        seat = "" if dealer is None else f", {Seat((int(dealer) + k) % 4).name}"
        where = f"call {k + 1} ({call}{seat})"
        if k and closing_passes(calls[:k]) == 0:
            return f"{where} comes after the auction ended ({' '.join(calls[max(0, k - 4) : k])})"
        side = k % 2
        if call == "Pass":
            continue
        if call == "X":
            if last_bid is None:
                return f"{where}: a double with no bid to double"
            if last_bid[1] == side:
                return f"{where}: doubles partner's {last_bid_text}"
            if state:
                return f"{where}: {last_bid_text} is already {'doubled' if state == 'X' else 'redoubled'}"
            state, doubler = "X", side
            continue
        if call == "XX":
            if state != "X":
                return f"{where}: a redouble with no double to redouble"
            if doubler == side:
                return f"{where}: redoubles partner's double"
            state = "XX"
            continue
        rank = (int(call[0]) - 1) * 5 + _BID_RANK[call[1:]]
        if last_bid is not None and rank <= last_bid[0]:
            return f"{where}: {call} does not rank above {last_bid_text}"
        last_bid, last_bid_text, state = (rank, side), call, ""
    return None


def _note_refs(tokens: list[str]) -> tuple[list[str], dict[int, list[int]]]:
    """Tokens without ``=n=`` notes and NAGs, and the note numbers after each kept token (by its index)."""
    kept: list[str] = []
    refs: dict[int, list[int]] = {}
    for tok in tokens:
        m = _NOTE_REF.match(tok)
        if m:
            if kept:
                refs.setdefault(len(kept) - 1, []).append(int(m.group(1)))
        elif not _skip(tok):
            kept.append(tok)
    return kept, refs


def _auction(tokens: list[str], g: int) -> tuple[list[str], list[int], dict[int, list[int]]]:
    calls: list[str] = []
    marks: list[int] = []
    notes: dict[int, list[int]] = {}
    kept, refs = _note_refs(tokens)
    for k, tok in enumerate(kept):
        if tok == "*":
            break
        m = _CALL.match(tok)
        if not m:
            raise FormatError(f"PBN: auction token {k} {tok!r} is not a call", index=g)
        call, mark = m.group(1).upper(), _mark(m.group(2), f"PBN: auction token {k}")
        if call == "AP":
            missing = closing_passes(calls)
            calls += ["Pass"] * missing
            marks += [mark] * missing
        else:
            calls.append(_normal_call(call))
            marks.append(mark)
        if k in refs and calls:
            notes.setdefault(len(calls) - 1, []).extend(refs[k])
    return calls, marks, notes


def _play(
    tokens: list[str], deal: Deal, trump: Strain, first: Seat, g: int, refs: dict[int, list[int]] | None = None
) -> tuple[list[Card], list[int], dict[int, list[int]]]:
    """Tokens of a Play section (tricks by seat from ``first``) in play order, checked; notes by play index."""
    toks = list(tokens)
    card_notes: dict[int, list[int]] = {}
    if "*" in toks:
        end = toks.index("*")
        extra = [t for t in toks[end + 1 :] if t != "-"]
        if extra:
            raise FormatError(f"PBN: {extra[0]} comes after the end of the play ('*'), after the claim", index=g)
        toks = toks[:end]
    if len(toks) > 52:
        bad = toks[52]
        raise FormatError(f"PBN: {bad} is play token {52}: {len(toks)} tokens, at most 52 (13 tricks)", index=g)
    table = Play(deal, trump, first)
    plays: list[Card] = []
    marks: list[int] = []
    stopped = None
    for k in range(0, len(toks), 4):
        group = toks[k : k + 4] + ["-"] * (4 - len(toks[k : k + 4]))
        leader = table.leader
        for j in range(4):
            seat = Seat((leader + j) % 4)
            tok = group[(seat - first) % 4]
            if stopped:  # the play stopped: every card from here on comes after the claim
                if tok != "-":
                    raise FormatError(
                        f"PBN: play {k + j} ({seat.name}): {tok} comes after the claim (no card at {stopped})",
                        index=g,
                    )
                continue
            where = f"PBN: play {k + j} ({table.where()})"
            if tok == "-":
                stopped = where.removeprefix("PBN: ")
                continue
            m = _CARD.match(tok)
            if not m:
                raise FormatError(f"{where}: {tok!r} is not a card", index=g)
            card = Card.parse(m.group(1))
            try:
                table.play(card)
            except DDSError as exc:
                raise FormatError(f"PBN: {_play_fault(k + j, exc)}", index=g) from None
            if refs and k + (seat - first) % 4 in refs:
                card_notes[len(plays)] = list(refs[k + (seat - first) % 4])
            plays.append(card)
            marks.append(_mark(m.group(2), where))
    return plays, marks, card_notes


def _tag_values(games: list[pbn.GameText]) -> list[dict[str, str]]:
    """Each game's tag values, ``"#"`` replaced by the previous game's value."""
    out: list[dict[str, str]] = []
    previous: dict[str, str] = {}
    for game in games:
        values = {tag: (previous.get(tag, "") if value == "#" else value) for tag, value, _ in game.tags}
        out.append(values)
        previous = values
    return out


def holds_games(text: str | bytes, *, name: str = "PBN") -> bool:
    """True when PBN text holds a game record: a game with a Contract, Declarer, Result, Auction or Play tag set.

    Only the tags are read (no deal is parsed), so a file of bare deals
    (even partial ones) answers False.
    """
    games = pbn.split_games(pbn.decode_pbn(text, name), name)
    return any(values.get(tag, "").strip() not in ("", "?") for values in _tag_values(games) for tag in _GAME_TAGS)


def _read_game(game: pbn.GameText, values: dict[str, str], g: int) -> GameRecord:
    """One game's record (``values``: its tags, ``#`` resolved), checked; ``FormatError`` naming what is wrong."""
    sections = {tag: " ".join(lines).split() for tag, lines in game.sections.items()}
    try:
        deal = Deal.from_pbn(values["Deal"])
    except (DDSError, ValueError) as exc:
        raise FormatError(f"PBN: bad Deal {values['Deal']!r}: {exc}", index=g) from None
    if not deal.is_full:
        raise FormatError("PBN: a game record needs a full deal (13 cards each)", index=g)
    values.pop("Note", None)
    rec = GameRecord(deal=deal, tags=dict(values))
    rec.sections = {tag: list(lines) for tag, lines in game.sections.items() if tag not in _OWNED and lines}
    rec.commentary = list(game.commentary)
    for text_note in game.notes:
        m = _NOTE.match(text_note)
        if not m:
            raise FormatError(f'PBN: [Note "{text_note[:30]}"] is not "n:text"', index=g)
        rec.notes[int(m.group(1))] = m.group(2)
    board = values.get("Board", "").strip()
    if board:
        if not board.isdigit():
            raise FormatError(f"PBN: Board {board!r} is not a number", index=g)
        rec.board = int(board)
    rec.dealer = _seat_tag(values.get("Dealer"), "Dealer", g)
    try:
        rec.vulnerable = Vulnerability.parse(values.get("Vulnerable", "").strip() or "None")
    except DDSError:
        raise FormatError(f"PBN: Vulnerable {values['Vulnerable']!r} is not None, NS, EW or All", index=g) from None
    rec.contract = _parse_contract(values.get("Contract", ""), g)
    rec.declarer = _seat_tag(values.get("Declarer"), "Declarer", g)
    result = values.get("Result", "").strip()
    if result:
        if not result.isdigit() or int(result) > 13:
            raise FormatError(f"PBN: Result {result!r} is not 0..13 tricks", index=g)
        rec.result = int(result)
    if "Auction" in values:
        opener = _seat_tag(values["Auction"], "Auction", g)
        if rec.dealer is not None and opener is not None and opener != rec.dealer:
            raise FormatError(f"PBN: the auction starts with {opener.name}, the dealer is {rec.dealer.name}", index=g)
        rec.dealer = rec.dealer if rec.dealer is not None else opener
        rec.auction, rec.auction_marks, rec.call_notes = _auction(sections.get("Auction", []), g)
        rec.alerts = set(rec.call_notes)
    tokens, refs = _note_refs(sections.get("Play", []))
    if "Play" in values and tokens and tokens != ["*"]:
        first = _seat_tag(values["Play"], "Play", g)
        trump, declarer, leader = rec.trump, rec.declarer, rec.leader
        if trump is None or declarer is None or leader is None:
            raise FormatError("PBN: a Play section needs a Contract (not Pass) and a Declarer", index=g)
        if first != leader:
            raise FormatError(
                f"PBN: wrong leader: Play starts with {first.name if first is not None else '?'} "
                f"but declarer {declarer.name}'s left-hand opponent {leader.name} leads",
                index=g,
            )
        rec.play, rec.play_marks, rec.card_notes = _play(tokens, deal, trump, leader, g, refs)
    try:
        rec.check_auction()
        rec.check_result()
    except FormatError as exc:
        raise FormatError(f"PBN: {exc}", index=g) from None
    return rec


def parse_games(text: str | bytes, *, name: str = "PBN") -> list[GameRecord]:
    """Parse PBN text into :class:`GameRecord` s (games without a ``Deal`` tag are skipped).

    ``text`` may be a file's bytes (read by :func:`ddsbind.formats.pbn.decode_pbn`);
    ``name`` (a file name) is used in messages about the text's lines.

    Raises
    ------
    FormatError
        A bad tag, call or card, the wrong opening leader, a malformed play
        (a card not held, a revoke, more than 52 cards, a card after the
        claim), a call after the auction ended, or a Result the play
        contradicts, naming the game (``index``), the play's position and the card.
    """
    out: list[GameRecord] = []
    decoded = pbn.decode_pbn(text, name)
    games = pbn.split_games(decoded, name)
    lines = decoded.split("\n")
    chunk_start = 0
    for g, (game, values) in enumerate(zip(games, _tag_values(games), strict=True)):
        if not values.get("Deal"):
            continue
        try:
            rec = _read_game(game, values, g)
        except FormatError as exc:
            board = values.get("Board", "").strip() or "?"
            why = str(exc).removeprefix(f"record {g}: ").removeprefix("PBN: ")
            raise FormatError(f"PBN: {name}: Board {board} (line {game.line}): {why}", index=g) from None
        rec.source = _Source("\n".join(lines[chunk_start : game.end]), game.start - chunk_start, _snapshot(rec))
        chunk_start = game.end
        out.append(rec)
    if out:
        last = out[-1].source
        assert last is not None
        last.tail = "\n".join(lines[chunk_start:])
    return out


# --------------------------------------------------------------------------
# Writing back what was read


@dataclass
class _Source:
    """A record's PBN text: ``text`` runs from the end of the previous record (comments, blank lines and
    games without a deal before it included) to the record's last line; ``lead`` is the number of lines
    before the game's first tag; ``tail`` is the file's text after the last record (on the last one)."""

    text: str
    lead: int
    snapshot: tuple[object, ...]
    tail: str | None = None


def _snapshot(rec: GameRecord) -> tuple[object, ...]:
    """What the record holds, to tell whether it changed since it was read."""
    return (
        rec.deal, rec.dealer, rec.vulnerable, rec.board, list(rec.auction), list(rec.auction_marks),
        rec.contract, rec.declarer, rec.result, list(rec.play), list(rec.play_marks), dict(rec.notes),
        {k: list(v) for k, v in rec.call_notes.items()}, {k: list(v) for k, v in rec.card_notes.items()},
        set(rec.alerts), list(rec.commentary), dict(rec.tags), {k: list(v) for k, v in rec.sections.items()},
    )  # fmt: skip


def _written_back(rec: GameRecord, source: _Source) -> str:
    """The record's source text, with tags set where only tags (or sections) changed; ``""`` if more changed."""
    now = _snapshot(rec)
    if now == source.snapshot:
        return source.text
    if now[:-2] != source.snapshot[:-2]:
        return ""
    old_tags, old_sections = source.snapshot[-2], source.snapshot[-1]
    assert isinstance(old_tags, dict) and isinstance(old_sections, dict)
    update: dict[str, pbn.TagUpdate] = {}
    for tag in {*old_tags, *rec.tags}:
        if tag in _OWNED:
            continue
        if tag not in rec.tags:
            update[tag] = None
        elif old_tags.get(tag) != rec.tags[tag] or old_sections.get(tag, []) != rec.sections.get(tag, []):
            update[tag] = (rec.tags[tag], rec.sections.get(tag, []))
    (game,) = [g for g in pbn.split_games(source.text, "PBN") if g.tags][-1:]
    return pbn.set_tags(source.text, [game], [update])


# --------------------------------------------------------------------------
# Game records -> PBN text


def format_games(games: Sequence[GameRecord]) -> str:
    """PBN text for game records (see the module docstring for what is written).

    A record read by :func:`parse_games` and not changed is written back as
    it was read, byte for byte (its comments, commentary, blank lines, tag
    order and games without a deal around it included); one whose tags only
    changed has those tag lines set in place; any other is written anew.
    So ``format_games(parse_games(text)) == text`` for every PBN text read.

    Raises
    ------
    FormatError
        A tag value that cannot be written in PBN (a line break in it).
    """
    pieces: list[str] = []
    if not games or games[0].source is None:
        pieces.append("% PBN 2.1\n% EXPORT")
    for rec in games:
        source = rec.source
        text = _written_back(rec, source) if source is not None else ""
        if not text:
            old = source.text.split("\n") if source is not None else []
            lead = old[: source.lead] if source is not None else ([""] if pieces else [])
            eol = "\r" if old and old[-1].endswith("\r") else ""  # the file's line ends
            text = "\n".join(lead + [line + eol for line in _game_lines(rec)])
        pieces.append(text)
    tail = games[-1].source.tail if games and games[-1].source is not None else None
    pieces.append("" if tail is None else tail)
    return "\n".join(pieces)


def _note_numbers(rec: GameRecord) -> tuple[dict[int, list[int]], dict[int, str]]:
    """Each call's note numbers and every note's text, an empty note added for an alert that has none."""
    call_notes = {k: list(v) for k, v in rec.call_notes.items()}
    notes = dict(rec.notes)
    for k in sorted(rec.alerts):
        if not call_notes.get(k):
            n = max([*notes, *(x for v in rec.card_notes.values() for x in v)], default=0) + 1
            notes[n] = ""
            call_notes[k] = [n]
    return call_notes, notes


def _note_tags(numbers: list[int], notes: dict[int, str], written: set[int]) -> list[str]:
    out = []
    for n in numbers:
        if n in notes and n not in written:
            written.add(n)
            out.append(f'[Note "{n}:{pbn.quote(notes[n], "Note")}"]')
    return out


def _game_lines(rec: GameRecord) -> list[str]:
    out: list[str] = []
    for name in ("Event", "Site", "Date"):
        if name in rec.tags:
            out.append(f'[{name} "{pbn.quote(rec.tags[name], name)}"]')
            out += rec.sections.get(name, [])
    if rec.board is not None:
        out.append(f'[Board "{rec.board}"]')
    if rec.dealer is not None:
        out.append(f'[Dealer "{rec.dealer.name}"]')
    out.append(f'[Vulnerable "{rec.vulnerable.pbn}"]')
    out.append(f'[Deal "{rec.deal.to_pbn(rec.dealer if rec.dealer is not None else Seat.N)}"]')
    for name, value in rec.tags.items():
        if name not in _OWNED and name not in ("Event", "Site", "Date"):
            out.append(f'[{name} "{pbn.quote(value, name)}"]')
            out += rec.sections.get(name, [])
    out.append(f'[Declarer "{rec.declarer.name if rec.declarer is not None else ""}"]')
    out.append(f'[Contract "{rec.contract or ""}"]')
    out.append(f'[Result "{"" if rec.result is None else rec.result}"]')
    call_notes, notes = _note_numbers(rec)
    written: set[int] = set()
    if rec.auction and rec.dealer is not None:
        out.append(f'[Auction "{rec.dealer.name}"]')
        marks = rec.auction_marks or [0] * len(rec.auction)
        calls = [
            c + _MARK_TEXT[m] + "".join(f" ={n}=" for n in call_notes.get(k, []))
            for k, (c, m) in enumerate(zip(rec.auction, marks, strict=True))
        ]
        out += [" ".join(calls[k : k + 4]) for k in range(0, len(calls), 4)]
        out += _note_tags([n for k in sorted(call_notes) for n in call_notes[k]], notes, written)
    if rec.play:
        out += _play_lines(rec)
        out += _note_tags([n for k in sorted(rec.card_notes) for n in rec.card_notes[k]], notes, written)
    out += _note_tags(sorted(notes), notes, written)  # notes nothing refers to
    for text in rec.commentary:
        if "}" in text:
            raise FormatError(f"PBN: commentary {text[:40]!r} holds a '}}', which would end it early")
        out.append("{" + text + "}")
    return out


def _play_lines(rec: GameRecord) -> list[str]:
    first = rec.leader
    assert first is not None
    marks = rec.play_marks or [0] * len(rec.play)
    lines = [f'[Play "{first.name}"]']
    k = 0
    for t in rec.tricks():
        row = ["-"] * 4
        for j, c in enumerate(t.cards):
            refs = "".join(f" ={n}=" for n in rec.card_notes.get(k, []))
            row[(t.leader + j - first) % 4] = str(c) + _MARK_TEXT[marks[k]] + refs
            k += 1
        lines.append(" ".join(row))
    if len(rec.play) < 52:
        lines.append("*")
    return lines
