"""Bridge Base Online's LIN hand records, read into and written from :class:`~ddsbind.record.GameRecord`.

No DDS calls here; the rules of play are :mod:`ddsbind.game`'s.

Layout (as BBO writes hand records, sessions, vugraph archives and handviewer links; as Bridge Composer exports)
--------------------------------------------------------------------------------------------------------------
* A LIN text is a sequence of ``tag|value|`` pairs: a tag is two letters
  (read in any case), its value runs to the next ``|``.  Whitespace and line
  breaks between pairs are ignored (a board may run over several lines: BBO's
  vugraph archives and Bridge Composer write one trick a line); the last
  ``|`` of a file may be missing.  Text is UTF-8 (ISO-8859-1 when it is not
  valid UTF-8).
* Boards: a file holds any number, a whole session on one line or one board
  over several.  Once the board being read has its ``md|``, a new board
  starts at a header tag (``qx|``, ``pn|``, ``vg|``, ``mn|``, ``rs|``, ...,
  :data:`HEADER_TAGS`), at the next ``md|``, or at the start of a line that
  holds an ``md|`` with no call, card or claim ahead of it on the line.  So
  headers before a board's deal belong to that board; headers after the
  file's last board (TMPbn2LinVG repeats the ``pn|`` there) belong to no
  board: they are kept verbatim in the last record's tag ``LinTrailer`` and
  written back after it, and change nobody's players.
* ``md|`` the deal: a dealer digit **1=S 2=W 3=N 4=E**, then the hands
  separated by ``,`` in the order **S, W, N, E** (always from South,
  whoever deals).  A hand is suit letters ``S H D C`` each followed by its
  ranks (``AKQJT98765432``, ``10`` read as ``T``); one hand may be empty
  (the fourth, as BBO writes it, also missing): it holds the cards the
  other three do not.
* ``sv|`` vulnerability: ``o`` (also ``0``, ``-``) none, ``n`` NS, ``e``
  EW, ``b`` both; absent, the board number's (as PBN's missing ``Vulnerable``).
* ``qx|o12|`` (BBO) or ``qx|o12,BOARD 12|`` (Bridge Composer): room (``o``
  open, ``c`` closed) and board, read by :func:`read_qx`.  The board number,
  and the tag ``Room`` (``Open``/``Closed``, as PBN names it); the value is
  kept whole in ``LinQx`` and written back.
* ``ah|Board 12|`` the title: it gives the board number (over ``qx|``'s);
  the title is kept whole in ``LinTitle`` and written back (renumbered if the
  record's board changed).  Without ``ah|`` none is written when ``qx|``
  gives the number.
* ``mb|`` one call, in bidding order from the dealer: ``p`` pass, ``d``
  double, ``r`` redouble, ``1c`` .. ``7n`` (``n`` or ``nt`` notrump); a
  trailing ``!`` is an alert (``alerts``).  ``an|text|`` explains the call
  before it: a note (``notes``, ``call_notes``); an empty ``an||`` alerts it.  The auction is checked by
  the rules (bids ascend, a double only of the opponents' bid, a redouble
  only of their double, nothing after the auction ended).
* ``pc|`` one card (``SA``, ``h10``), in play order from the opening lead,
  each checked by :class:`ddsbind.game.Play`.  ``mc|N|`` a claim: declarer's
  side takes N tricks in all (the ``result``); the play stops there.
* ``up|n|`` undo (our reading): the last ``n`` actions (calls, or cards once
  the play began; 1 when ``n`` is empty) are taken back, as if never made.
* The contract and declarer are derived from the auction (the last bid, its
  doubles, the first of declaring side to name the strain); four passes is
  ``Pass``.  The result is the claim, else the tricks of a complete play.
* ``pn|`` player names S, W, N, E (comma separated) go to the tags
  ``South``, ``West``, ``North``, ``East`` and hold for later boards until
  the next ``pn|``; more than four names (both rooms: open S W N E, then
  closed S W N E) are kept whole in ``LinPlayers``, and a closed-room board
  (``qx|c..|``) takes the second four.
* ``nt|`` commentary goes to ``commentary`` (PBN's ``{...}``) and its place,
  the number of calls and cards before it, to ``commentary_at``: written
  back at that place in the auction or play (a comment after a call or card
  an ``up|`` takes back stands after those kept, before the replacement).
  ``rh|``, ``st|`` and ``pg|`` (heading reset, small text, page break) are
  display commands and skipped.  Any other tag (``vg|``, ``mn|``, ``rs|``,
  ``sk|``, ...) is kept verbatim, in order: before the deal in the tag
  ``LinHeader``, after it in ``LinOther``; both are written back where they
  were.  A ``vg|``'s event (field 1) and teams (fields 6 and 8) are also
  the tags ``Event``, ``HomeTeam`` and ``VisitTeam`` of every board after
  it (:func:`match_tags`).

Writing gives one board a line: ``LinHeader`` (the file's first board
without a ``vg|`` in it: ``vg|`` from its ``Event``, ``HomeTeam`` and
``VisitTeam``), ``qx|`` (if kept, or
``qx|o12|`` from a ``Room`` tag), ``pn|`` (if any name: the names as the
record holds them now, in their room's four places of the eight-name list
read; a name with ``,`` or ``|``, which LIN cannot hold, is refused naming
the seat), ``st||md|...|rh||``,
``ah|`` (the kept title, or ``Board N`` when no ``qx|`` gives the number),
``sv|...|``, the calls (``!`` for an alerted call, ``an|`` after each of its
notes with text), ``pg||``, the cards, ``mc|N|`` when the result is known and
the play is not complete, commentary without a place (``nt|``),
``LinOther`` and ``LinTrailer``; commentary with a place stands at it.  All four hands are
written.  LIN has no mark for a good or bad call (PBN's ``!``/``?``), no
notes on cards, and no alert other than on a call: those are left out.

In memory seats are :class:`~ddsbind.deal.Seat` in DDS order (N=0 E=1 S=2
W=3); LIN's hand index i (0=S 1=W 2=N 3=E) and dealer digit i+1 are DDS
seat ``(i + 2) % 4``.  A malformed board raises
:class:`~ddsbind.errors.FormatError` whose fields say where it is:
``path``, ``record`` (the board's place in the file, from 1; ``index``
from 0), ``board`` and ``room`` (as the file numbers it, when it does) and
``line`` (from 1); the message names the tag and what is wrong, and text
that is no ``tag|value|`` pair its character offset.

The module's seams: the text's encoding, its ``tag|value|`` pairs, the
boards they form and LIN's letters are :mod:`ddsbind.formats.lintext`;
reading boards into game records :mod:`ddsbind.formats.linread`; writing
them, and what LIN cannot hold, :mod:`ddsbind.formats.linwrite`.  This
module re-exports their names.
"""

from __future__ import annotations

from ddsbind.formats.linread import iter_lin, parse_lin
from ddsbind.formats.lintext import HEADER_TAGS, lin_encoding, lin_hand, match_tags, read_qx
from ddsbind.formats.linwrite import extras, format_lin, unheld, write_lin_games
from ddsbind.record import contract_of_auction

__all__ = [
    "HEADER_TAGS",
    "contract_of_auction",
    "extras",
    "format_lin",
    "iter_lin",
    "lin_encoding",
    "lin_hand",
    "match_tags",
    "parse_lin",
    "read_qx",
    "unheld",
    "write_lin_games",
]
