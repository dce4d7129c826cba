"""LIN written from :class:`~ddsbind.record.GameRecord`: :func:`format_lin`, and what LIN can hold of a record.

The layout written is :mod:`ddsbind.formats.lin`'s docstring (one board a
line); the letters and hands are :mod:`ddsbind.formats.lintext`'s.
:func:`unheld` and :func:`extras` say in words what a conversion to or
from LIN drops.  No DDS calls.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import IO

from ddsbind.deal import Seat
from ddsbind.errors import FormatError
from ddsbind.formats.lintext import (
    LETTER_OF_CALL,
    LETTER_OF_VUL,
    LIN_SEATS,
    MATCH_FIELDS,
    NAME_TAGS,
    lin_hand,
    read_qx,
)
from ddsbind.record import PASSED_OUT, GameRecord, contract_of_auction, contract_text

__all__ = ["extras", "format_lin", "unheld", "write_lin_games"]


def write_lin_games(batches: Iterable[Sequence[GameRecord]], out: IO[bytes]) -> int:
    """Write batches of game records to ``out`` as LIN (UTF-8), :func:`format_lin` of each batch in turn:
    the bytes of :func:`format_lin` of them all, in memory of a batch; returns how many."""
    first = 0
    for games in batches:
        out.write(format_lin(games, first=first).encode("utf-8"))
        first += len(games)
    return first


def format_lin(games: Sequence[GameRecord], *, first: int = 0) -> str:
    """LIN text for game records, one board a line (see the module docstring).

    ``first`` is the place of ``games[0]`` in the file written (for messages
    naming a game, when a file is written a batch at a time).

    Raises
    ------
    FormatError
        A record without a full deal, without a dealer and a board number
        to take it from, or whose contract and declarer are not the ones its
        auction reaches (LIN has no contract but the auction's).
    """
    lines = []
    for k, g in enumerate(games, start=first):
        if not g.deal.is_full:
            raise FormatError("LIN needs a full deal (13 cards each)", index=k, board=g.board)
        dealer = g.dealer
        if dealer is None:
            if g.board is None:
                raise FormatError("LIN needs a dealer (or a board number to take it from)", index=k)
            dealer = Seat.dealer_of_board(g.board)
        said = contract_of_auction(dealer, g.auction)
        held = (g.contract, g.declarer)
        if held[0] is not None and said != held:
            wanted = contract_text(g.contract)
            raise FormatError(
                "LIN takes the contract from the auction, and this auction "
                f"({' '.join(map(str, g.auction)) or 'none'}) gives {said[0] or 'none'} by "
                f"{said[1].name if said[1] is not None else 'nobody'}, not {wanted} by "
                f"{g.declarer.name if g.declarer is not None else 'nobody'}",
                index=k,
                board=g.board,
            )
        out: list[str] = [g.tags.get("LinHeader", "")]
        if k == 0 and "vg|" not in out[0] and _match_line(g):  # the file's event and teams: LIN's vg| holds them
            out.insert(0, _match_line(g))
        qx = g.tags.get("LinQx")
        if qx is None and g.board is not None and g.tags.get("Room") in ("Open", "Closed"):
            qx = f"{g.tags['Room'][0].lower()}{g.board}"
        if qx is not None:
            out.append(f"qx|{qx}|")
        players = _players(g, k)
        if players is not None:
            out.append(f"pn|{players}|")
        digit = LIN_SEATS.index(dealer) + 1
        out.append(f"st||md|{digit}" + ",".join(lin_hand(g.deal, s) for s in LIN_SEATS) + "|rh||")
        out.append(_title(g, qx, k))
        out.append(f"sv|{LETTER_OF_VUL[g.vulnerable]}|")
        actions = len(g.auction) + len(g.play)
        at = [actions + 1 if a is None else a for a in g.commentary_places()]  # None: after the game
        placed = list(zip(g.commentary, at, strict=True))

        def comments(
            place: int, placed: list[tuple[str, int]] = placed, k: int = k, b: int | None = g.board
        ) -> list[str]:
            return [f"nt|{_check_value(t, k, b)}|" for t, a in placed if a == place]

        for i, c in enumerate(g.auction):
            out += comments(i)
            lin = LETTER_OF_CALL.get(c, str(c).removesuffix("T"))
            out.append(f"mb|{lin}{'!' if i in g.alerts else ''}|")
            out += [f"an|{_check_value(g.notes[n], k, g.board)}|" for n in g.call_notes.get(i, []) if g.notes.get(n)]
        if g.auction:
            out.append("pg||")
        for j, card in enumerate(g.play):
            out += comments(len(g.auction) + j)
            out.append(f"pc|{card}|")
        out += comments(actions)
        if g.result is not None and len(g.play) < 52 and g.contract is not PASSED_OUT:
            out.append(f"mc|{g.result}|")
        out += comments(actions + 1)
        out.append(g.tags.get("LinOther", ""))
        out.append(g.tags.get("LinTrailer", ""))
        lines.append("".join(out))
    return "\n".join(lines) + ("\n" if lines else "")


def _match_line(g: GameRecord) -> str:
    """``vg|event,,I,,,home,0,visit,0|`` from a record's Event and teams ('' when it has none, or one LIN cannot hold).

    The board range and carry-over (fields 4-5, 7, 9) are not known from
    one record: left empty and 0; the scoring (field 3) is ``P`` for a
    pairs event (``Scoring`` MP), else ``I``.
    """
    values = {tag: g.tags.get(tag, "") for tag in MATCH_FIELDS}
    if not any(values.values()) or any("," in v or "|" in v or "\n" in v for v in values.values()):
        return ""
    scoring = "P" if g.tags.get("Scoring", "").upper().startswith("MP") else "I"
    return f"vg|{values['Event']},,{scoring},,,{values['HomeTeam']},0,{values['VisitTeam']},0|\n"


def _players(g: GameRecord, k: int) -> str | None:
    """The ``pn|`` value: the names S, W, N, E from the tags (as edited), in the kept eight-name list if any.

    A board of the closed room (``Room`` ``Closed``) with eight names read has
    its names in the last four places; any other, in the first four.  A
    name holding ``,`` or ``|`` cannot be written (LIN has no escape for
    either): ``FormatError`` naming the seat.  None when no name is known.
    """
    for t in NAME_TAGS:
        name = g.tags.get(t, "")
        if "," in name or "|" in name:
            raise FormatError(
                f"{t}'s name {name[:40]!r} holds a {',' if ',' in name else '|'!r}, "
                "which LIN's pn| cannot hold (names are separated by ',' and the value ends at '|')",
                index=k,
                board=g.board,
            )
    names = [g.tags.get(t, "") for t in NAME_TAGS]
    every = g.tags["LinPlayers"].split(",") if "LinPlayers" in g.tags else []
    if len(every) >= 4:
        slot = 4 if len(every) >= 8 and g.tags.get("Room") == "Closed" else 0
        every[slot : slot + 4] = names
        return ",".join(every)
    return ",".join(names) if any(names) else None


def _title(g: GameRecord, qx: str | None, k: int) -> str:
    """The ``ah|`` pair: the title read (renumbered to the record's board), or ``Board N`` unless ``qx|`` says it."""
    title = g.tags.get("LinTitle")
    if title is not None:
        m = re.fullmatch(r"(\s*board\s*)(\d+)(\s*)", title, re.IGNORECASE)
        if m and g.board is not None and int(m.group(2)) != g.board:
            title = f"{m.group(1)}{g.board}{m.group(3)}"
        return f"ah|{_check_value(title, k, g.board)}|"
    _, qx_board = read_qx(qx or "")
    if g.board is None or qx_board == g.board:
        return ""
    return f"ah|Board {g.board}|"


def _check_value(text: str, k: int, board: int | None = None) -> str:
    """A LIN value as written: one with a ``|`` cannot be (it would end the value); ``k`` the record, from 0."""
    if "|" in text:
        raise FormatError(f"LIN: {text[:40]!r} holds a '|', which LIN values cannot", index=k, board=board)
    return text


def extras(games: Iterable[GameRecord]) -> list[str]:
    """What LIN game records hold beyond their deals, in words (for a warning when a conversion drops it).

    One pass, stopping once every word is found (a file is read only as far as it must be).
    """
    numbers = dealt = played = tagged = False
    for g in games:
        dealt = True
        numbers = numbers or g.board is not None
        played = played or bool(g.auction or g.play)
        tagged = tagged or any(t not in _DERIVED for t in g.tags)
        if numbers and played and tagged:
            break
    out = ["board numbers"] if numbers else []
    out += ["dealers", "vulnerability"] if dealt else []
    if played:
        out.append("auctions and play")
    if tagged:
        out.append("player names and other tags")
    return out


#: Tags a LIN record holds in its own pairs (written from the record's fields or kept whole).
_DERIVED = ("Room", "LinQx", "LinTitle", "LinPlayers", "LinHeader", "LinOther", "LinTrailer", *NAME_TAGS)
#: PBN tags whose content LIN holds in its fields (the deal, the auction, ...).
_PBN_FIELDS = ("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction", "Play")


def unheld(games: Sequence[GameRecord]) -> list[str]:
    """What of these game records LIN cannot hold, in words: other tags, notes on cards, PBN's ``!``/``?`` marks.

    Examples
    --------
    >>> from ddsbind.deal import Deal
    >>> deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    >>> unheld([GameRecord(deal, tags={"Site": "x"})])
    ['tags Site']
    """
    out = []
    tags: list[str] = []
    for g in games:
        tags += [t for t in g.tags if t not in _DERIVED and t not in _PBN_FIELDS and t not in tags]
    if games and _match_line(games[0]):  # the first record's event and teams go to vg|: held where all agree
        tags = [t for t in tags if t not in MATCH_FIELDS or any(g.tags.get(t) != games[0].tags.get(t) for g in games)]
    if tags:
        out.append(f"tags {', '.join(tags[:4])}{', ...' if len(tags) > 4 else ''}")
    if any(g.card_notes for g in games):
        out.append("notes on cards")
    if any(any(g.auction_marks) or any(g.play_marks) for g in games):
        out.append("PBN's good/bad-call marks (! ?)")
    if any(g.sections for g in games):
        out.append("tables of other tags")
    return out
