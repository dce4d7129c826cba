"""Game records, format-neutral: :class:`GameRecord` (a deal as it was bid and played) and the auction's rules.

No DDS and no file format here: PBN (:mod:`ddsbind.formats.pbngame`), LIN
(:mod:`ddsbind.formats.lin`), ZRJ (:mod:`ddsbind.formats.zrjgame`), pandas
(:mod:`ddsbind.formats.dataframe`) and the command line all read and write
this one model.  The rules of play are :mod:`ddsbind.game`'s, scores and
contracts :mod:`ddsbind.scoring`'s.

The auction's rules (:func:`auction_fault`): each bid ranks above the last;
a double only of the opponents' last bid (not yet doubled), a redouble only
of the opponents' double; the auction ends after three passes following a
bid or double, or four passes when nobody bid (:func:`closing_passes`), and
nothing comes after it.  The contract an auction reaches is its last bid,
doubled or redoubled as the calls after it say, declared by the first of the
bidding side to name its strain (:func:`contract_of_auction`).

Calls are :class:`~ddsbind.scoring.Call` (a bid, :data:`Call.PASS`,
:data:`Call.DOUBLE`, :data:`Call.REDOUBLE`; ``str()`` is PBN's text, ``"Pass"``,
``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``), and bids rank by
:attr:`Call.rank <ddsbind.scoring.Call.rank>`, the one bidding order; seats are
:class:`~ddsbind.deal.Seat` (DDS order N=0 E=1 S=2 W=3), the contract a
:class:`~ddsbind.scoring.Contract` or :data:`PASSED_OUT` (the one value of a
passed-out board, from :mod:`ddsbind.scoring`).

Contract and call text is read in one place: :func:`read_contract` and
:func:`read_call` hand every bid to :meth:`ddsbind.scoring.Contract.parse`
and :meth:`ddsbind.scoring.Call.parse`, the package's readers; the formats
spell their own tokens (LIN's ``d``/``r``, PBN's ``AP`` and ``!?`` marks)
and ask these two.  It is written in one place: ``str()`` of the contract
(``"4HX"``; ``"Pass"`` for :data:`PASSED_OUT`), :func:`contract_text` for a
record's (its declarer held apart).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ddsbind._typing import renamed_attribute
from ddsbind.deal import Card, Deal, Seat, Side, Strain
from ddsbind.errors import ContractError, DDSError, FormatError, InvalidArgumentError
from ddsbind.game import CardPlay, PlayedTrick, Vulnerability, play_out
from ddsbind.scoring import PASSED_OUT, Call, Contract, PassedOut

__all__ = [
    "PASSED_OUT",
    "CostlyLike",
    "GameRecord",
    "PassedOut",
    "auction_fault",
    "closing_passes",
    "contract_of_auction",
    "contract_text",
    "read_call",
    "read_calls",
    "read_contract",
]

# --------------------------------------------------------------------------
# Contract and call text: read by ddsbind.scoring's one reader (Contract.parse_or_pass,
# Call.parse); what a record adds is the rule that a record's contract names no
# declarer (the Declarer tag holds it).


def read_contract(text: str) -> Contract | PassedOut:
    """A record's contract text: ``"Pass"`` (:data:`PASSED_OUT`) or level, strain and ``X``/``XX``, e.g. ``"4HX"``.

    Read by :meth:`ddsbind.scoring.Contract.parse` (``"3N"``, ``"3NT"``, any
    case); a declarer in the text is refused (a record names it apart).

    Raises
    ------
    ContractError
        Anything else, naming the text.
    """
    contract = Contract.parse_or_pass(text.strip())
    if contract is None:
        return PASSED_OUT
    if contract.declarer is not None:
        raise ContractError(f"contract {text!r:.40} names a declarer: a record holds it apart (Declarer)")
    return contract


def contract_text(contract: Contract | PassedOut | None, passed_out: bool | None = None) -> str:
    """A record's contract as PBN spells it: ``"4HX"``, ``"3NT"``, ``"Pass"``; ``""`` unknown.

    ``str()`` of the contract without its declarer (a record holds it apart).
    ``passed_out=True`` (deprecated: pass :data:`PASSED_OUT` as the contract) reads as :data:`PASSED_OUT`.
    """
    if passed_out is not None:
        warnings.warn(
            "contract_text(..., passed_out=) is deprecated: pass PASSED_OUT as the contract",
            DeprecationWarning,
            stacklevel=2,
        )
        contract = PASSED_OUT if passed_out else contract
    if contract is None:
        return ""
    return str(contract if isinstance(contract, PassedOut) else contract.undeclared)


def read_call(text: str | Call) -> Call:
    """One call of an auction (``"Pass"``, ``"X"``, ``"XX"``, ``"1NT"``) as a :class:`~ddsbind.scoring.Call`.

    Read by :meth:`ddsbind.scoring.Call.parse`, the one reader of call text.

    Raises
    ------
    ContractError
        Anything but a call (a bid with a declarer or doubled is none), naming the text.
    """
    return Call.parse(text)


def read_calls(calls: Iterable[str | Call]) -> list[Call]:
    """An auction's calls, text or :class:`~ddsbind.scoring.Call`, as Calls (:func:`read_call` each)."""
    return [read_call(c) for c in calls]


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

    ``passed_out=True`` on construction is deprecated: say ``contract=PASSED_OUT``.

    Attributes
    ----------
    deal : Deal
        The deal before the opening lead.
    dealer : Seat or None
    vulnerable : Vulnerability
        Who is vulnerable; a PBN name (``"None"``, ``"NS"``, ``"EW"``,
        ``"All"``) or DDS's code 0..3 is read on construction.
    board : int or None
    auction : list of Call
        Calls from the dealer (:class:`~ddsbind.scoring.Call`; ``str()`` is
        ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``).  Text is read by
        :func:`read_call` when the auction is set (on construction or later).
    auction_marks : list of int
        Per call 0, 1 (``!``), 2 (``?``), 3 (``!?``), 4 (``!!``), 5 (``??``)
        or 6 (``?!``): PBN 2.1's suffix annotations.
    contract : Contract, PASSED_OUT or None
        Level, strain and doubling (:class:`ddsbind.scoring.Contract`, its
        ``declarer`` unset: the record's is :attr:`declarer`);
        :data:`PASSED_OUT` when the deal was passed out (four passes, PBN's
        ``[Contract "Pass"]``); None only when the contract is not known (a
        record of the deal alone, or a file that does not say).  Text
        (``"4HX"``, ``"Pass"``) is read by :func:`read_contract` when set.
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
    commentary_at : list of int
        Where each commentary stands: ``commentary[i]`` comes after
        ``commentary_at[i]`` actions (calls, then cards in play order,
        counted from the dealer's first call); a commentary past the end of
        this list, or whose place is not ``0 .. len(auction) + len(play)``,
        stands after the game (:meth:`commentary_places`).  LIN's ``nt|``
        keeps its place; so does PBN's ``{...}`` written between the calls
        of its Auction section or the cards of its Play section (PBN's
        commentary among the tags stands after the game).
    alerts : set of int
        Indexes of alerted calls (LIN's ``!`` suffix).  In PBN an alert is a
        note on the call (an empty one when the alert has no explanation), so
        every call with a note reads back as alerted.
    """

    deal: Deal
    dealer: Seat | None = None
    vulnerable: Vulnerability = Vulnerability.NONE
    board: int | None = None
    auction: list[Call] = field(default_factory=list)
    auction_marks: list[int] = field(default_factory=list)
    contract: Contract | PassedOut | None = None
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
    commentary_at: list[int] = field(default_factory=list)
    #: Fields the reader set aside (garbage, unknown, or contradicting another: a
    #: :class:`~ddsbind.errors.FieldWarning` named each), tag -> value as the file wrote it; written back so.
    unread: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    #: What a format keeps of the text the record was read from, to write it back unchanged
    #: (PBN's: :func:`ddsbind.formats.pbngame.format_games`); None for a record made in memory.
    source: object | None = field(default=None, compare=False, repr=False)

    def __setattr__(self, name: str, value: object) -> None:
        # An auction or contract given as text, on construction or later, is held as Calls and a contract.
        if name == "auction":
            value = read_calls(value)  # type: ignore[arg-type]
        elif name == "contract" and isinstance(value, str):
            value = read_contract(value)
        super().__setattr__(name, value)

    def __post_init__(self) -> None:
        self.vulnerable = Vulnerability.parse(self.vulnerable)
        if self.contract is not None and not isinstance(self.contract, Contract | PassedOut):
            raise ContractError(
                f"a game's contract is a Contract, PASSED_OUT, text or None, got {type(self.contract).__name__}"
            )

    @property
    def bid(self) -> Contract | None:
        """The contract when one was bid: None when passed out or unknown."""
        return self.contract if isinstance(self.contract, Contract) else None

    @property
    def level(self) -> int:
        """Contract level 1..7 (0 passed out or unknown)."""
        return 0 if self.bid is None else self.bid.level

    @property
    def strain(self) -> Strain | None:
        """The contract's strain, None when passed out or unknown."""
        return None if self.bid is None else self.bid.strain

    trump = renamed_attribute("trump", "strain")

    @property
    def doubled(self) -> int:
        """0 undoubled, 1 doubled, 2 redoubled."""
        return 0 if self.bid is None else self.bid.doubled

    @property
    def leader(self) -> Seat | None:
        """The opening leader: declarer's left-hand opponent."""
        return None if self.declarer is None else self.declarer.next()

    @property
    def card_play(self) -> CardPlay:
        """The play from the opening lead, as the play analysis takes it (:func:`ddsbind.costly_cards`).

        Raises ``InvalidArgumentError`` for a game without contract and
        declarer (passed out, or unknown), and ``PlayFaultError`` (with
        ``.index``) for a card of the play not held or a revoke.
        """
        if self.strain is None or self.leader is None:
            raise InvalidArgumentError("the game has no contract and declarer to analyse (passed out or unknown)")
        return CardPlay(self.deal, self.strain, self.leader, self.play)

    def commentary_places(self) -> list[int | None]:
        """Where each commentary stands, as every format writes it: after that many actions, or None.

        Actions are the calls, then the cards in play order; a place is
        ``0 .. len(auction) + len(play)``.  None (after the game) for a
        commentary past the end of :attr:`commentary_at` or whose place is
        out of that range.
        """
        actions = len(self.auction) + len(self.play)
        at = self.commentary_at
        return [at[i] if i < len(at) and 0 <= at[i] <= actions else None for i in range(len(self.commentary))]

    def tricks(self) -> list[PlayedTrick]:
        """The play as tricks, each card checked by :class:`ddsbind.game.Play`.

        The last trick is unfinished (``winner`` None) if the play stops
        mid-trick.  A fault raises :class:`~ddsbind.errors.FormatError`
        naming the play's position (from 1), its trick, the seat and the card.
        """
        if not self.play:
            return []
        if self.strain is None or self.leader is None:
            raise FormatError("a play needs a contract and a declarer")
        if len(self.play) > 52:
            raise FormatError(f"play 53 ({self.play[52]}): {len(self.play)} cards in the play, at most 52")
        try:
            return play_out(self.deal, self.strain, self.leader, self.play)
        except DDSError as exc:
            raise FormatError(play_fault(exc.index or 0, exc)) from None

    def diagram(self) -> str:
        """The deal as a text diagram headed by the board, dealer and vulnerability (:meth:`ddsbind.Deal.diagram`)."""
        return self.deal.diagram(self.dealer, self.vulnerable, self.board)

    def score(self) -> int | None:
        """Declarer's score for ``result`` by the Laws (:mod:`ddsbind.scoring`); None when unknown or passed out."""
        if self.result is None or self.declarer is None or self.bid is None:
            return None
        return self.bid.score(self.result, declarer_vulnerable=self.vulnerable.is_vulnerable(self.declarer))

    @property
    def players(self) -> dict[str, str]:
        """The players the record names, seat letter (``"N"``...) -> name, from its North .. West tags."""
        return {seat.name: self.tags[seat.full_name] for seat in Seat if self.tags.get(seat.full_name)}

    def ns_score(self) -> int | None:
        """North-South's score of the game (negative when East-West score): 0 passed out, None when unknown."""
        if self.contract is PASSED_OUT:
            return 0
        declarer_score = self.score()
        if declarer_score is None or self.declarer is None:
            return None
        return declarer_score if self.declarer.side is Seat.N.side else -declarer_score

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
        calls = [str(c) for c in self.auction]
        auction = _html.auction(calls, int(self.dealer)) if calls and self.dealer is not None else ""
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
        contract = self.bid
        if self.contract is PASSED_OUT:
            return "Passed out"
        if contract is None or self.declarer is None:
            return "Contract unknown"
        words = f"{contract} by {self.declarer}"
        if self.result is not None:
            score = self.score()
            words += f": {self.result} tricks" + (f", {score:+d}" if score is not None else "")
        if trace:
            dd_score = contract.score(trace[0], declarer_vulnerable=self.vulnerable.is_vulnerable(self.declarer))
            words += f"; double dummy {trace[0]} tricks, {dd_score:+d}"
            words += f"; {costly} costly card{'s' if costly != 1 else ''} marked" if costly else "; no costly card"
        return words

    def _repr_html_(self) -> str:
        return self.to_html()

    def declarer_tricks_played(self) -> int:
        """Tricks declarer's side won among the finished tricks of the play."""
        if self.declarer is None:
            return 0
        side = self.declarer.side
        return sum(1 for t in self.tricks() if t.winner is not None and t.winner.side is side)

    def check_auction(self) -> None:
        """Refuse an auction the rules do not allow (``FormatError`` naming the call, 1-based, and its seat).

        Each bid ranks above the last bid; a double only of the opponents'
        last bid (not yet doubled), a redouble only of the opponents' double;
        nothing after the auction ended (three passes after a bid or double,
        four passes when nobody bid).  An auction may stop early (not finished).
        After an ended auction, a contract or declarer the record holds must
        be the one the auction reaches (:func:`contract_of_auction`).
        """
        fault = auction_fault(self.auction, self.dealer)
        if fault is not None:
            raise FormatError(f"auction {fault}")
        if self.dealer is None or not self.auction or closing_passes(self.auction):
            return
        said, by = contract_of_auction(self.dealer, self.auction)
        held = self.contract
        if held is None:
            return
        if held != said or (self.declarer is not None and self.declarer != by):
            raise FormatError(
                f"the contract {contract_text(held)}"
                f"{f' by {self.declarer.name}' if self.declarer is not None else ''} contradicts the auction, "
                f"which reaches {said}{f' by {by.name}' if by is not None else ''}"
            )

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
        won = sum(1 for t in finished if t.winner is not None and t.winner.side is self.declarer.side)
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


def play_fault(index: int, exc: DDSError) -> str:
    """``"play 6 (trick 2, 2nd card, E): SA is not held by E (held by W)"`` from a :class:`~ddsbind.game.Play` fault.

    ``index`` is the card's place in the play from 0; the message counts plays from 1, as every message counts.
    """
    where, _, what = (exc.reason or "").partition(": ")
    return f"play {index + 1} ({where}): {what}"


def closing_passes(calls: Sequence[Call | str]) -> int:
    """How many passes the auction ``calls`` still needs to end: 0 when it has ended.

    Three after the last bid or double; four when nobody has bid.
    """
    auction = read_calls(calls)
    trailing = len(auction) - next((k + 1 for k in range(len(auction) - 1, -1, -1) if not auction[k].is_pass), 0)
    needed = 3 if trailing < len(auction) else 4  # 3 after the last bid or double, 4 when nobody bid
    return max(0, needed - trailing)


def auction_fault(calls: Sequence[Call | str], dealer: Seat | int | None = None) -> str | None:
    """What is wrong with the auction ``calls`` by the rules, or None when nothing is.

    ``calls`` are :class:`~ddsbind.scoring.Call` (or their text, ``"Pass"``,
    ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``) from the dealer (DDS seat,
    N=0 E=1 S=2 W=3; only used to name seats).  The message names the call
    by its 1-based position, e.g. ``"call 3 (1C, S): 1C does not rank above 1NT"``.
    """
    auction = read_calls(calls)
    opener = Seat.N if dealer is None else Seat(dealer)  # without a dealer, only which calls share a side matters
    last_bid: Call | None = None
    last_side: Side | None = None  # the side of the last bid's caller
    doubled = 0  # the last bid's: 0 undoubled, 1 doubled, 2 redoubled
    doubler: Side | None = None
    for k, call in enumerate(auction):
        seat = "" if dealer is None else f", {opener.next(k).name}"
        where = f"call {k + 1} ({call}{seat})"
        if k and closing_passes(auction[:k]) == 0:
            return f"{where} comes after the auction ended ({' '.join(auction[max(0, k - 4) : k])})"
        side = opener.next(k).side
        if call.is_pass:
            continue
        if call == Call.DOUBLE:
            if last_bid is None:
                return f"{where}: a double with no bid to double"
            if last_side == side:
                return f"{where}: doubles partner's {last_bid}"
            if doubled:
                return f"{where}: {last_bid} is already {'doubled' if doubled == 1 else 'redoubled'}"
            doubled, doubler = 1, side
            continue
        if call == Call.REDOUBLE:
            if doubled != 1:
                return f"{where}: a redouble with no double to redouble"
            if doubler == side:
                return f"{where}: redoubles partner's double"
            doubled = 2
            continue
        if last_bid is not None and call <= last_bid:
            return f"{where}: {call} does not rank above {last_bid}"
        last_bid, last_side, doubled = call, side, 0
    return None


def contract_of_auction(
    dealer: Seat | int, calls: Sequence[Call | str]
) -> tuple[Contract | PassedOut | None, Seat | None]:
    """The contract and declarer an auction reaches.

    Parameters
    ----------
    dealer : Seat or 0..3
        The seat of the first call (DDS order N=0 E=1 S=2 W=3).
    calls : sequence of Call or str
        :class:`~ddsbind.scoring.Call`, or their text ``"Pass"``, ``"X"``, ``"XX"``, ``"1C"`` .. ``"7NT"``.

    Returns
    -------
    (contract, declarer)
        E.g. ``(Contract(4, Strain.H, 1), Seat.S)``; ``(PASSED_OUT, None)``
        after four passes; ``(None, None)`` when nobody has bid and the
        auction has not ended.  The last bid decides even when the closing
        passes are missing.

    Examples
    --------
    >>> contract, declarer = contract_of_auction(Seat.N, ["1S", "Pass", "4S", "X", "Pass", "Pass", "Pass"])
    >>> str(contract), declarer
    ('4SX', <Seat.N: 0>)
    """
    auction = read_calls(calls)
    last = next((k for k in range(len(auction) - 1, -1, -1) if auction[k].is_bid), None)
    if last is None:
        return (PASSED_OUT, None) if len(auction) >= 4 else (None, None)
    bid = auction[last]
    assert bid.strain is not None  # a bid
    after = auction[last + 1 :]
    doubled = 2 if Call.REDOUBLE in after else (1 if Call.DOUBLE in after else 0)
    dealer = Seat(dealer)
    side = dealer.next(last).side
    first = next(k for k in range(last + 1) if dealer.next(k).side == side and auction[k].strain == bid.strain)
    return Contract(bid.level, bid.strain, doubled), dealer.next(first)


_made_init = GameRecord.__init__


def _init(self: GameRecord, *args: Any, passed_out: bool | None = None, **kwargs: Any) -> None:
    _made_init(self, *args, **kwargs)
    if passed_out is None:
        return
    warnings.warn(
        "GameRecord(passed_out=True) is deprecated: say contract=PASSED_OUT", DeprecationWarning, stacklevel=2
    )
    if passed_out and isinstance(self.contract, Contract):
        raise ContractError(f"a passed-out game has no contract, got {self.contract}")
    if passed_out:
        self.contract = PASSED_OUT


def _passed_out(self: GameRecord) -> bool:
    warnings.warn(
        "GameRecord.passed_out is deprecated: test game.contract is PASSED_OUT", DeprecationWarning, stacklevel=2
    )
    return self.contract is PASSED_OUT


# The old flag, after the dataclass is made: passed_out= is still taken on construction, and read, both deprecated.
GameRecord.__init__ = _init  # type: ignore[method-assign]
GameRecord.passed_out = property(  # type: ignore[attr-defined]
    _passed_out, doc="Deprecated: ``contract is PASSED_OUT``, the deal was passed out (read-only)."
)
