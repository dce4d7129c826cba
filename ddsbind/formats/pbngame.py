r"""Game records (a deal as it was bid and played) as PBN text.

No DDS calls here.  The model, :class:`~ddsbind.record.GameRecord`, and the
auction's rules are :mod:`ddsbind.record`'s (format-neutral; the name
``GameRecord`` stays importable from here); the rules of play are :mod:`ddsbind.game`'s; the ZRJ
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
  (``None``/``Love``/``-``, ``NS``, ``EW``, ``All``/``Both``; absent: the
  board number's, :func:`ddsbind.formats._common.unsaid`), ``Deal`` (see
  :mod:`ddsbind.formats.pbn`), ``Contract`` (``Pass``, or level, strain
  ``S H D C NT``, then ``X`` or ``XX``), ``Declarer`` (N E S W), ``Result``
  (tricks won by declarer, 0..13).  Every tag is kept in ``tags``.
* ``[Auction "F"]`` section: the calls from seat F (the dealer), tokens
  ``Pass``, ``X``, ``XX``, ``1C`` .. ``7NT``; ``AP`` stands for the closing
  passes (3 after a bid, 4 when nobody bid); ``*`` ends the auction; NAGs
  ``$n`` are skipped.  ``AP`` adds only the passes still missing (``4H Pass
  AP`` is ``4H Pass Pass Pass``, ``Pass Pass AP`` four passes).  The auction
  is checked by the rules (:func:`ddsbind.record.auction_fault`): each bid above the last,
  a double only of the opponents' bid, a redouble only of their double,
  nothing after the auction ended (three passes after a bid or double, four
  at the start).  A call may carry PBN 2.1's suffix annotations ``!``,
  ``?``, ``!?`` (marks 1, 2, 3: our reading of ZRJ's punctuation bits),
  ``!!``, ``??``, ``?!`` (marks 4, 5, 6, which ZRJ cannot hold), attached
  (``1H!?``) or as their own token after it (``1C !``, as BFC writes).
* ``Contract`` and ``Declarer`` missing or ``?`` (PBN's unknown; pbntools
  writes neither) are the ones the ended auction reaches; given, they must
  be those (``FormatError`` naming the board otherwise, as LIN's writer
  already refused).
* Commentary (PBN 2.1 section 3.8; the place is our reading of its rule
  that a commentary concerns the token before it): the text of each
  ``{...}`` (and ``;``) comment of a game is kept in ``commentary``, LIN's
  ``nt|``.  One written among the calls of the Auction section stands after
  the calls before it (after ``AP``, the passes it stands for); one among
  the cards of the Play section after the card whose token comes before it
  (in play order: a row lists a trick by seat, so a comment at the end of a
  row stands after that seat's card, the trick's last only when that seat
  played last), after a ``-``/``*`` at the end of the play, and before a
  section's first token before its first call or card.  That place is
  ``commentary_at`` (:class:`~ddsbind.record.GameRecord`, LIN's too), and a
  record written anew puts each commentary back at it; commentary among the
  tags (or before the game's first tag) is the game's own, written anew
  after the ``Result`` tag.
* Notes: ``=n=`` after a call or a card refers to the game's
  ``[Note "n:text"]`` tag (the one tag that may repeat in a game, written
  after the section it serves; one space after the colon, as BBO Helper
  writes ``"1: Transfer"``, is not part of the text).  Kept in ``notes``, ``call_notes`` and
  ``card_notes``; a call with a note is an alerted call (``alerts``; an
  alert without explanation is written as an empty note), which is how
  LIN's alerts (``!`` and ``an|``) travel through PBN.
* ``[Play "L"]`` section: L is the opening leader (declarer's left-hand
  opponent).  Each trick is four tokens **by seat, starting from L** -- not
  in play order -- so a trick's leader is the previous trick's winner and
  its cards are read starting from that seat's column.  A card is suit and
  rank (``SA``, ``HT``, ``D10``); ``-`` is a card not played (the play
  stopped: a claim); ``*`` ends the play.  A card after a ``-`` or ``*``
  (in play order) is an error: a card after the claim.  Cards carry the
  annotations calls do.
* Writing back: a record read from PBN and not changed is written as it
  was read, byte for byte (its comments, ``{...}`` commentary, blank lines,
  tag order, several tags on a line, line ends, a missing last line break,
  games without a deal around it, and the encoding: :func:`dump_games`),
  so PBN to PBN loses nothing; if only its tags changed, those tags are
  set in place (a tag sharing its line has only its own text replaced).
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

import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import IO

from ddsbind.deal import SEAT_LETTERS, Card, Deal, Seat, Strain
from ddsbind.errors import ContractError, DDSError, FormatError
from ddsbind.formats import _common, pbn
from ddsbind.formats.pbntext import path_of
from ddsbind.game import Play, Vulnerability
from ddsbind.record import (
    PASSED_OUT,
    GameRecord,
    PassedOut,
    auction_fault,
    closing_passes,
    contract_of_auction,
    contract_text,
    play_fault,
    read_call,
    read_contract,
)
from ddsbind.scoring import Call, Contract

__all__ = ["GameRecord", "dump_games", "format_games", "holds_games", "iter_game_records", "parse_games", "write_games"]

#: PBN 2.1's suffix annotations (its section 3.10, after PGN's NAGs 1..6), as marks: the first three as ZRJ's
#: punctuation bits hold them (our reading), the rest after.
_MARKS = {"": 0, "!": 1, "?": 2, "!?": 3, "!!": 4, "??": 5, "?!": 6}
_MARK_TEXT = {v: k for k, v in _MARKS.items()}
#: A token and its annotation (``!``, ``?``, ``!?``): ``"4H!?"`` -> ``"4H"``, ``"!?"``.
_ANNOTATED = re.compile(r"^(.*?)([!?]*)$")
_CARD = re.compile(r"^([SHDC](?:10|[2-9TJQKA]))([!?]*)$", re.IGNORECASE)
#: Tags whose values :class:`GameRecord` holds in its fields (written from them, not from ``tags``).
_OWNED = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play", "Note")
_NOTE_REF = re.compile(r"^=(\d+)=$")
_NOTE = re.compile(r"^(\d+): ?(.*)$", re.DOTALL)
#: Tags that say a PBN game is a game record (bid or played), not only a deal.
_GAME_TAGS = ("Contract", "Declarer", "Result", "Auction", "Play")
#: The largest board number read (a pandas Int64 column and every format's board field hold it); above, set aside.
MAX_BOARD = 2**31 - 1


def _mark(text: str, what: str) -> int:
    if text not in _MARKS:
        raise FormatError(f"{what}: annotation {text!r} is not !, ?, !!, ??, !? or ?!")
    return _MARKS[text]


# --------------------------------------------------------------------------
# PBN text -> game records


def _read_contract(text: str, g: int) -> Contract | PassedOut | None:
    """A Contract tag's value; empty or ``?`` (PBN's unknown) is an unknown contract (None)."""
    if text.strip() in ("", "?"):
        return None
    try:
        return read_contract(text)
    except ContractError as exc:
        raise FormatError(f"Contract: {exc}", index=g) from None


def _seat_tag(value: str | None, name: str, g: int) -> Seat | None:
    if value is None or not value.strip() or value.strip() == "?":
        return None
    v = value.strip().upper()
    if len(v) != 1 or v not in SEAT_LETTERS:
        raise FormatError(f"{name} {value!r} is not N, E, S or W", index=g)
    return Seat(SEAT_LETTERS.index(v))


def _skip(token: str) -> bool:
    return token.startswith("$") or (len(token) > 1 and token.startswith("=") and token.endswith("="))


def _note_refs(tokens: list[str]) -> tuple[list[str], dict[int, list[int]]]:
    """Tokens without ``=n=`` notes and NAGs, and the note numbers after each kept token (by its index)."""
    kept: list[str] = []
    refs: dict[int, list[int]] = {}
    for tok in tokens:
        m = _NOTE_REF.match(tok)
        if m:
            if kept:
                refs.setdefault(len(kept) - 1, []).append(int(m.group(1)))
        elif kept and tok.strip("!?") == "" and kept[-1] not in ("*", "-"):
            kept[-1] += tok  # an annotation written as its own token ("1C !"): the call's or card's before it
        elif not _skip(tok):
            kept.append(tok)
    return kept, refs


def _auction(tokens: list[str], g: int) -> tuple[list[Call], list[int], dict[int, list[int]]]:
    calls: list[Call] = []
    marks: list[int] = []
    notes: dict[int, list[int]] = {}
    kept, refs = _note_refs(tokens)
    for k, tok in enumerate(kept):
        if tok == "*":
            break
        m = _ANNOTATED.match(tok)
        assert m is not None  # every token matches
        call, mark = m.group(1).upper(), _mark(m.group(2), f"auction token {k}")
        if call == "AP":
            missing = closing_passes(calls)
            calls += [Call.PASS] * missing
            marks += [mark] * missing
        else:
            try:
                calls.append(read_call(call))
            except ContractError:
                raise FormatError(f"auction token {k} {tok!r} is not a call", index=g) from None
            marks.append(mark)
        if k in refs and calls:
            notes.setdefault(len(calls) - 1, []).extend(refs[k])
    return calls, marks, notes


def _play(
    tokens: list[str], deal: Deal, strain: Strain, first: Seat, g: int, refs: dict[int, list[int]] | None = None
) -> tuple[list[Card], list[int], dict[int, list[int]]]:
    """Tokens of a Play section (tricks by seat from ``first``) in play order, checked; notes by play index."""
    toks = list(tokens)
    card_notes: dict[int, list[int]] = {}
    if "*" in toks:
        end = toks.index("*")
        extra = [t for t in toks[end + 1 :] if t != "-"]
        if extra:
            raise FormatError(f"{extra[0]} comes after the end of the play ('*'), after the claim", index=g)
        toks = toks[:end]
    if len(toks) > 52:
        bad = toks[52]
        raise FormatError(f"{bad} is play token {52}: {len(toks)} tokens, at most 52 (13 tricks)", index=g)
    table = Play(deal, strain, first)
    plays: list[Card] = []
    marks: list[int] = []
    stopped = None
    for k in range(0, len(toks), 4):
        group = toks[k : k + 4] + ["-"] * (4 - len(toks[k : k + 4]))
        leader = table.leader
        for j in range(4):
            seat = leader.next(j)
            column = seat.steps_from(first)  # the Play section lists each trick by seat from ``first``
            tok = group[column]
            if stopped:  # the play stopped: every card from here on comes after the claim
                if tok != "-":
                    raise FormatError(
                        f"play {k + j + 1} ({seat.name}): {tok} comes after the claim (no card at {stopped})",
                        index=g,
                    )
                continue
            where = f"play {k + j + 1} ({table.where()})"
            if tok == "-":
                stopped = where
                continue
            m = _CARD.match(tok)
            if not m:
                raise FormatError(f"{where}: {tok!r} is not a card", index=g)
            card = Card.parse(m.group(1))
            try:
                table.play(card)
            except DDSError as exc:
                raise FormatError(play_fault(k + j, exc), index=g) from None
            if refs and k + column in refs:
                card_notes[len(plays)] = list(refs[k + column])
            plays.append(card)
            marks.append(_mark(m.group(2), where))
    return plays, marks, card_notes


def holds_games(text: str | bytes | IO[bytes], *, name: str = "PBN") -> bool:
    """True when PBN text holds a game record: a game with a Contract, Declarer, Result, Auction or Play tag set.

    Only the tags are read (no deal is parsed), so a file of bare deals
    (even partial ones) answers False.  An open binary file is read line by
    line (:func:`ddsbind.formats.pbn.pbn_lines`) up to the first game record.
    """
    if isinstance(text, str):
        lines: Iterable[str] = text.removeprefix("\ufeff").split("\n")
    else:
        lines = pbn.pbn_lines(io.BytesIO(text) if isinstance(text, bytes) else text, name)
    every = pbn.with_values(pbn.iter_games(lines, name), name)
    return any(values.get(tag, "").strip() not in ("", "?") for _, values in every for tag in _GAME_TAGS)


def _read_game(game: pbn.GameText, values: dict[str, str], g: int, path: str | None = None) -> GameRecord:
    """One game's record (``values``: its tags, ``#`` resolved; ``path``: the file, for messages), read leniently.

    Only a deal that cannot be read refuses the game (``FormatError``; a
    deal with unknown hands is kept, its play set aside); a tag or section that is garbage or contradicts
    another is kept as written (:attr:`GameRecord.unread`, its section in
    ``sections``), left out of the record's fields and named once
    (:func:`ddsbind.formats._common.set_aside`; refused when reading strictly).
    """
    sections = {tag: " ".join(lines).split() for tag, lines in game.sections.items()}
    lines_of = {tag: lineno for tag, _, lineno in reversed(game.tags)}  # each tag's first line, 1-based
    try:
        deal = pbn.read_deal(values["Deal"])
    except FormatError as exc:
        raise FormatError(exc.message, index=g, line=lines_of.get("Deal")) from None
    values.pop("Note", None)
    rec = GameRecord(deal=deal, tags=dict(values))
    rec.sections = {tag: list(lines) for tag, lines in game.sections.items() if tag not in _OWNED and lines}
    board = values.get("Board", "").strip()

    def aside(tag: str, why: str, value: str | None = None) -> None:
        value = values.get(tag, "") if value is None else value
        _common.set_aside(board or None, tag, value, why, source=path, index=g, line=lines_of.get(tag, game.line))
        rec.unread[tag] = value
        if game.sections.get(tag):
            rec.sections[tag] = list(game.sections[tag])

    for text_note in game.notes:
        m = _NOTE.match(text_note)
        if m:
            rec.notes[int(m.group(1))] = m.group(2)
        else:
            aside("Note", 'a note is "n:text" (its number, a colon, the text)', text_note)
    if board:
        if board.isdigit() and int(board) <= MAX_BOARD:
            rec.board = int(board)
        else:
            aside("Board", f"not a board number 1..{MAX_BOARD}")
    for tag in ("Dealer", "Declarer"):
        try:
            setattr(rec, tag.lower(), _seat_tag(values.get(tag), tag, g))
        except FormatError:
            aside(tag, "not N, E, S or W")
    said = values.get("Vulnerable", "").strip()
    rec.vulnerable = _common.unsaid(rec.board)[1]
    try:
        rec.vulnerable = Vulnerability.parse(said) if said else rec.vulnerable
    except DDSError:
        aside("Vulnerable", "not None, NS, EW or All")
    try:
        rec.contract = _read_contract(values.get("Contract", ""), g)
    except FormatError as exc:
        aside("Contract", exc.message.removeprefix("Contract: "))
    result = values.get("Result", "").strip()
    if result == "?":  # PBN's unknown: nothing to name
        rec.unread["Result"] = values["Result"]
    elif result:
        if result.isdigit() and int(result) <= 13:
            rec.result = int(result)
        else:
            aside("Result", "not 0..13 tricks")
    if rec.contract is PASSED_OUT:  # no declarer, no tricks: BBO Helper writes [Declarer "S"] [Result "0"] then
        rec.declarer = rec.result = None
    if "Auction" in values:
        _read_auction(rec, values, sections, aside)
    tokens, refs = _note_refs(sections.get("Play", []))
    if "Play" in values and tokens and tokens != ["*"] and "Play" not in rec.unread:
        try:
            first = _seat_tag(values["Play"], "Play", g)
            strain, declarer, leader = rec.strain, rec.declarer, rec.leader
            if strain is None or declarer is None or leader is None:
                raise FormatError("a Play section needs a Contract (not Pass) and a Declarer")
            if not deal.is_full:
                raise FormatError("a Play section needs a full deal (13 cards each)")
            if first != leader:
                raise FormatError(
                    f"wrong leader: Play starts with {first.name if first is not None else '?'} "
                    f"but declarer {declarer.name}'s left-hand opponent {leader.name} leads"
                )
            rec.play, rec.play_marks, rec.card_notes = _play(tokens, deal, strain, leader, g, refs)
        except FormatError as exc:
            aside("Play", exc.message)
            rec.play, rec.play_marks, rec.card_notes = [], [], {}
    try:
        rec.check_result()
    except FormatError as exc:
        aside("Result", exc.message)
        rec.result = None
    _place_commentary(rec, game, sections, g)
    return rec


def _read_auction(
    rec: GameRecord, values: dict[str, str], sections: dict[str, list[str]], aside: Callable[[str, str], None]
) -> None:
    """The game's auction into ``rec``, and the contract and declarer it reaches where the tags give none.

    An auction that cannot be read is set aside whole; a Dealer, Contract
    or Declarer tag that contradicts a readable auction is set aside and
    the auction's taken instead.
    """
    try:
        opener = _seat_tag(values["Auction"], "Auction", 0)
        calls, marks, notes = _auction(sections.get("Auction", []), 0)
        fault = auction_fault(calls, opener if opener is not None else rec.dealer)
        if fault is not None:
            raise FormatError(f"auction {fault}")
    except FormatError as exc:
        aside("Auction", exc.message)
        return
    if rec.dealer is not None and opener is not None and opener != rec.dealer:
        if not calls:  # nothing to take from the auction: it is the one set aside
            aside("Auction", f"an auction of no call that starts with {opener.name}, the dealer is {rec.dealer.name}")
            return
        aside("Dealer", f"the auction starts with {opener.name}")
    rec.dealer = opener if opener is not None else rec.dealer
    rec.auction, rec.auction_marks, rec.call_notes = calls, marks, notes
    rec.alerts = set(notes)
    if rec.dealer is None or not calls or closing_passes(calls):
        return
    said, by = contract_of_auction(rec.dealer, calls)
    held = rec.contract
    if held is not None and held != said:
        aside("Contract", f"the auction reaches {said}")
    if (held is None or held == said) and rec.declarer is not None and rec.declarer != by:
        aside("Declarer", f"the auction's declarer is {by.name if by is not None else 'nobody'}")
    elif held is not None and held == said:
        rec.declarer = by
        return
    # a Contract or Declarer tag missing, "?" (pbntools writes neither) or set aside: the ended auction's
    rec.contract, rec.declarer = said, by


def _place_commentary(rec: GameRecord, game: pbn.GameText, sections: dict[str, list[str]], g: int) -> None:
    """The game's commentary into ``rec``: what stands among the calls or cards at its place, the rest after.

    A commentary after a call stands after that call (after ``AP``: after
    the passes it stands for); one after a card's token in the Play section
    stands after that card in play order (the section lists each trick by
    seat, not in play order); one after a ``-`` or ``*`` after the last card
    played; one before the first token of its section before its first call
    or card.  ``commentary`` lists the placed ones first, by place (the
    file's order at one place), then the others, the game's own, which
    stand among the tags (:attr:`GameRecord.commentary_at`).
    """
    where: dict[int, int] = {}  # a card's index among the Play section's tokens -> its index in play order
    if rec.play:
        first = rec.leader
        assert first is not None  # a play was read
        k = 0
        for number, trick in enumerate(rec.tricks()):
            for j in range(len(trick.cards)):
                where[4 * number + trick.leader.next(j).steps_from(first)] = k
                k += 1
    placed: list[tuple[str, int]] = []
    after: list[str] = []
    for text, spot in zip(game.commentary, game.places, strict=True):
        if spot is None:
            after.append(text)
        elif spot[0] == "Auction":
            placed.append((text, len(_auction(sections.get("Auction", [])[: spot[1]], g)[0])))
        else:
            before, _ = _note_refs(sections.get("Play", [])[: spot[1]])
            card = where.get(len(before) - 1) if before else -1
            placed.append((text, len(rec.auction) + (len(rec.play) if card is None else card + 1)))
    placed.sort(key=lambda item: item[1])  # in the order of the actions (a play row lists cards by seat)
    rec.commentary = [text for text, _ in placed] + after
    rec.commentary_at = [at for _, at in placed]


def parse_games(text: str | bytes, *, name: str = "PBN", strict: bool | None = None) -> list[GameRecord]:
    """Parse PBN text into :class:`GameRecord` s (games without a ``Deal`` tag are skipped).

    ``text`` may be a file's bytes (read by :func:`ddsbind.formats.pbn.decode_pbn`);
    ``name`` (a file name) is used in messages about the text's lines.
    A field that cannot be used (a bad tag, call or card, the wrong opening
    leader, a malformed play, a Result the play contradicts, a Declarer the
    auction contradicts) is kept as written and named in a
    :class:`~ddsbind.errors.FieldWarning`; ``strict=True`` refuses it instead.

    Raises
    ------
    FormatError
        Text that is not PBN, a deal that cannot be read, or (``strict``)
        any field set aside: its place in its fields (``path``, ``record``
        from 1 and ``index`` from 0, ``board`` as the file numbers it, the
        tag's ``line`` from 1), rendered once before the message; the
        message names the field, the play's position and the card.
    """
    encoding = None if isinstance(text, str) else pbn.pbn_encoding(text, name)
    with _common.reading(strict):
        return list(_game_records(pbn.decode_pbn(text, name).split("\n"), name, encoding))


def iter_game_records(f: IO[bytes], name: str = "PBN", *, strict: bool | None = None) -> Iterator[GameRecord]:
    """:func:`parse_games` of an open binary file, game by game: memory is a block and a game, not the file.

    The encoding is found by one pass over the bytes
    (:func:`ddsbind.formats.pbn.pbn_encoding`), then the lines are read a
    block at a time (:func:`ddsbind.formats.pbn.pbn_lines`); each record
    keeps the text it was read from, as :func:`parse_games` does, so that
    :func:`format_games` of the records gives the file back.  Errors are
    :func:`parse_games`'s, raised when the reading reaches them.
    """
    encoding = pbn.pbn_encoding(f, name)
    with _common.reading(strict):
        yield from _game_records(pbn.pbn_lines(f, name, encoding), name, encoding)


class _Kept:
    """Lines of a text read once, kept from line ``first`` on (the text of the record being read)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = iter(lines)
        self.first = 0
        self.lines: list[str] = []

    def __iter__(self) -> Iterator[str]:
        for line in self._lines:
            self.lines.append(line)
            yield line

    def take(self, end: int) -> str:
        """The lines from ``first`` to ``end`` joined, and dropped: ``first`` becomes ``end``."""
        text = "\n".join(self.lines[: end - self.first])
        del self.lines[: end - self.first]
        self.first = end
        return text


def _game_records(lines: Iterable[str], name: str, encoding: str | None) -> Iterator[GameRecord]:
    """The game records of PBN text given line by line, each with its source text (:class:`_Source`).

    A record is yielded when the next is read (or the text ends), so that
    the last one gets the text after it (``tail``).
    """
    kept = _Kept(lines)
    held: GameRecord | None = None
    for g, (game, values) in enumerate(pbn.with_values(pbn.iter_games(kept, name), name)):
        if not values.get("Deal"):
            continue
        try:
            rec = _read_game(game, values, g, path_of(name))
        except FormatError as exc:
            if exc.index is None:
                exc.index = g
            board = values.get("Board", "").strip() or None
            raise exc.locate(record=g + 1, board=board, line=game.line, path=path_of(name)) from None
        lead = game.start - kept.first
        rec.source = _Source(kept.take(game.end), lead, _snapshot(rec), encoding=encoding)
        if held is not None:
            yield held
        held = rec
    if held is not None:
        last = _source(held)
        assert last is not None
        last.tail = "\n".join(kept.lines) if kept.lines else None
        last.ends_file = True
        yield held


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
    #: The record was the file's last: ``tail`` None then means the file ended without a line break.
    ends_file: bool = False
    #: The file's encoding (:func:`ddsbind.formats.pbn.pbn_encoding`), None when read from text.
    encoding: str | None = None


def _source(rec: GameRecord) -> _Source | None:
    """The PBN text ``rec`` was read from (None for a record made in memory or read from another format)."""
    return rec.source if isinstance(rec.source, _Source) else None


def _snapshot(rec: GameRecord) -> tuple[object, ...]:
    """What the record holds, to tell whether it changed since it was read."""
    return (
        rec.deal, rec.dealer, rec.vulnerable, rec.board, list(rec.auction), list(rec.auction_marks),
        rec.contract, rec.declarer, rec.result, list(rec.play), list(rec.play_marks), dict(rec.notes),
        {k: list(v) for k, v in rec.call_notes.items()}, {k: list(v) for k, v in rec.card_notes.items()},
        set(rec.alerts), list(rec.commentary), list(rec.commentary_at), dict(rec.tags),
        {k: list(v) for k, v in rec.sections.items()},
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


#: What a PBN file of records made anew starts with.
_HEAD = "% PBN 2.1\n% EXPORT"


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
    return "".join(_text_parts([games]))


def _text_parts(batches: Iterable[Sequence[GameRecord]]) -> Iterator[str]:
    """:func:`format_games` of the records of every batch, a batch's text at a time (joined: the whole text)."""
    pieces_before = 0  # the whole text is these pieces joined by line breaks
    last: GameRecord | None = None
    for games in batches:
        pieces: list[str] = []
        for rec in games:
            if last is None and _source(rec) is None:
                pieces.append(_HEAD)
            last = rec
            pieces.append(_record_text(rec))
        if pieces:
            yield ("\n" if pieces_before else "") + "\n".join(pieces)
            pieces_before += len(pieces)
    end = [_HEAD] if last is None else []
    source = _source(last) if last is not None else None
    if source is None or not source.ends_file:
        end.append("")  # a line break after the last game
    elif source.tail is not None:
        end.append(source.tail)
    if end:
        yield ("\n" if pieces_before else "") + "\n".join(end)


def _record_text(rec: GameRecord) -> str:
    """One record's piece of the text: its source as read (tags set in place if only they changed), or anew."""
    source = _source(rec)
    text = _written_back(rec, source) if source is not None else ""
    if not text:
        old = source.text.split("\n") if source is not None else []
        lead = old[: source.lead] if source is not None else [""]  # anew: a blank line after what comes before
        eol = "\r" if old and old[-1].endswith("\r") else ""  # the file's line ends
        text = "\n".join(lead + [line + eol for line in _game_lines(rec)])
    return text


def dump_games(games: Sequence[GameRecord]) -> bytes:
    """The bytes of :func:`format_games`, in the encoding the first record's file was read in.

    So a file read and written again comes back byte for byte (UTF-8 with or
    without a byte-order mark, a declared charset, ISO-8859-1); records made
    in memory are written as :func:`ddsbind.formats.pbn.encode_pbn` chooses.
    """
    out = io.BytesIO()
    write_games([games], out)
    return out.getvalue()


def write_games(batches: Iterable[Sequence[GameRecord]], out: IO[bytes]) -> int:
    """Write batches of game records to ``out``: :func:`dump_games` of them all, in memory of a batch.

    The encoding, one for the whole file, is chosen as :func:`dump_games`
    chooses it (:func:`ddsbind.formats.pbn.write_text`); returns how many
    records were written.
    """
    it = iter(batches)
    head = next(it, [])
    source = _source(head[0]) if head else None
    count = 0

    def counted() -> Iterator[Sequence[GameRecord]]:
        nonlocal count
        for games in chain([head], it):
            count += len(games)
            yield games

    pbn.write_text(_text_parts(counted()), out, source.encoding if source is not None else None)
    return count


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

    def owned(name: str, value: object) -> None:  # a field, or what the file wrote where it was set aside
        text = rec.unread.get(name, "" if value is None else str(value))
        out.append(f'[{name} "{pbn.quote(text, name)}"]')
        out.extend(rec.sections.get(name, []) if name in rec.unread else [])

    if rec.board is not None or "Board" in rec.unread:
        owned("Board", rec.board)
    if rec.dealer is not None or "Dealer" in rec.unread:
        owned("Dealer", rec.dealer.name if rec.dealer is not None else None)
    owned("Vulnerable", rec.vulnerable.pbn)
    out.append(f'[Deal "{rec.deal.to_pbn(rec.dealer if rec.dealer is not None else Seat.N)}"]')
    for name, value in rec.tags.items():
        if name not in _OWNED and name not in ("Event", "Site", "Date"):
            out.append(f'[{name} "{pbn.quote(value, name)}"]')
            out += rec.sections.get(name, [])
    owned("Declarer", rec.declarer.name if rec.declarer is not None else None)
    owned("Contract", contract_text(rec.contract))
    owned("Result", rec.result)
    if "Note" in rec.unread:
        owned("Note", None)
    if "Auction" in rec.unread:
        owned("Auction", None)
    if "Play" in rec.unread:
        owned("Play", None)
    call_notes, notes = _note_numbers(rec)
    written: set[int] = set()
    spots, unplaced = _commentary_spots(rec)
    out += unplaced  # among the tags, where a commentary reads back as the game's, not a call's or a card's
    if rec.auction and rec.dealer is not None:
        out.append(f'[Auction "{rec.dealer.name}"]')
        marks = rec.auction_marks or [0] * len(rec.auction)
        calls = [
            _before(spots.pop(k, "")) + str(c) + _MARK_TEXT[m] + "".join(f" ={n}=" for n in call_notes.get(k, []))
            for k, (c, m) in enumerate(zip(rec.auction, marks, strict=True))
        ]
        calls[-1] += _after(spots.pop(len(rec.auction), ""))
        out += [" ".join(calls[k : k + 4]) for k in range(0, len(calls), 4)]
        out += _note_tags([n for k in sorted(call_notes) for n in call_notes[k]], notes, written)
    if rec.play:
        out += _play_lines(rec, {at - len(rec.auction): text for at, text in spots.items()})
        out += _note_tags([n for k in sorted(rec.card_notes) for n in rec.card_notes[k]], notes, written)
    out += _note_tags(sorted(notes), notes, written)  # notes nothing refers to
    return out


def _before(text: str) -> str:
    return text + " " if text else ""


def _after(text: str) -> str:
    return " " + text if text else ""


def _commentary_spots(rec: GameRecord) -> tuple[dict[int, str], list[str]]:
    """The record's commentary as PBN text: ``{place: "{c} {d}"}`` for what stands among the calls or cards,
    and the lines of the game's own (no place, or one no section written can hold: no auction, no play)."""
    spots: dict[int, list[str]] = {}
    after: list[str] = []
    auction = bool(rec.auction) and rec.dealer is not None
    for text, at in zip(rec.commentary, rec.commentary_places(), strict=True):
        if "}" in text:
            raise FormatError(f"PBN: commentary {text[:40]!r} holds a '}}', which would end it early")
        in_play = at is not None and bool(rec.play) and at >= len(rec.auction)
        if at is not None and (in_play or (auction and at <= len(rec.auction))):
            spots.setdefault(at, []).append("{" + text + "}")
        else:
            after.append("{" + text + "}")
    return {at: " ".join(texts) for at, texts in spots.items()}, after


def _play_lines(rec: GameRecord, spots: dict[int, str]) -> list[str]:
    """The Play section; ``spots[p]``: commentary after the first p cards in play order (p = 0: before any)."""
    first = rec.leader
    assert first is not None
    marks = rec.play_marks or [0] * len(rec.play)
    lines = [f'[Play "{first.name}"]']
    k = 0
    for t in rec.tricks():
        row = ["-"] * 4
        for j, c in enumerate(t.cards):
            refs = "".join(f" ={n}=" for n in rec.card_notes.get(k, []))
            column = t.leader.next(j).steps_from(first)
            row[column] = str(c) + _MARK_TEXT[marks[k]] + refs + _after(spots.get(k + 1, ""))
            k += 1
        lines.append(_before(spots.get(0, "")) * (t.number == 1) + " ".join(row))
    if len(rec.play) < 52:
        lines.append("*")
    return lines
