"""BBO handviewer addresses, read into :class:`~ddsbind.record.GameRecord` through the LIN reader.

No DDS calls here.  A handviewer address is LIN in another dress: this
module turns it into LIN text and :func:`ddsbind.formats.lin.parse_lin`
reads that, so the meaning of every card, call and claim has one home.

Layout (as BBO's handviewer at ``www.bridgebase.com/tools/handviewer.html`` takes it)
--------------------------------------------------------------------------------------
An address is a full URL (``https://www.bridgebase.com/tools/handviewer.html?...``),
or just its query (``?lin=...`` or ``n=...&s=...``); parameters are
``name=value`` separated by ``&``, percent-encoded (``%7C`` for ``|``,
``%20`` for a space; a ``+`` is a plus, as BBO's page reads it), names
read in any case.  Either:

* ``lin=`` a LIN board (the whole of :mod:`ddsbind.formats.lin`'s layout),
  one board; or
* the board in parameters:

  - ``n=``, ``s=``, ``e=``, ``w=``: a hand each, suit letters (``s h d c``,
    any case, any order) each followed by its ranks (``AKQJT98765432``,
    ``10`` for the ten).  Three hands are enough (the fourth holds the rest).
  - ``d=`` dealer ``n``/``e``/``s``/``w`` (default: the board number's).
  - ``v=`` vulnerability ``-``/``o``/``0`` none, ``n`` NS, ``e`` EW, ``b``
    both (default: the board number's, none without one).
  - ``b=`` board number.
  - ``a=`` the auction from the dealer, calls run together: ``p`` pass,
    ``d`` double, ``r`` redouble, ``1c`` .. ``7n`` (``7nt``); ``!`` after a
    call alerts it, ``(text)`` after a call explains it (LIN's ``an|``),
    ``{text}`` is commentary at that place (LIN's ``nt|``).
  - ``p=`` the play, cards run together (``sah2d10``).
  - ``nn=``, ``sn=``, ``en=``, ``wn=`` the players' names.
  - ``t=`` a title (kept in the tag ``LinTitle`` when no ``b=`` gives one).

  Display settings (``k=``, ``tbt=``, ``bbo=``, ...) do not change the board
  and are left out with one :class:`~ddsbind.errors.DroppedDataWarning`
  naming them.

An address that only points elsewhere cannot be read here, because reading
it needs the network: a shortened link (``tinyurl.com``, ``bit.ly``, ...), or
a handviewer address whose board lives on BBO's server (``linurl=``,
``myhand=``).  Each is refused in one line (:class:`~ddsbind.errors.FormatError`)
saying so.  Bad values are refused naming the parameter and, in the auction
and play, the call or card counted from 1.
"""

from __future__ import annotations

import re
import warnings
from urllib.parse import unquote, urlsplit

from ddsbind.errors import DroppedDataWarning, FormatError
from ddsbind.formats._common import unsaid
from ddsbind.formats.lin import parse_lin
from ddsbind.game import Vulnerability
from ddsbind.record import GameRecord

__all__ = ["handviewer_lin", "is_handviewer", "parse_handviewer"]

#: Hosts that only redirect: their addresses say nothing of the board without asking the host.
_SHORTENERS = (
    "tinyurl.com",
    "bit.ly",
    "goo.gl",
    "t.co",
    "is.gd",
    "ow.ly",
    "tiny.cc",
    "rb.gy",
    "shorturl.at",
    "cutt.ly",
    "bbo.tips",
)
#: Parameters whose board is on BBO's server.
_REMOTE = ("linurl", "myhand")
#: The board's parameters: hands, dealer, vulnerability, board, auction, play, names, title.
_HANDS = {"s": 0, "w": 1, "n": 2, "e": 3}  # LIN's md| order S, W, N, E
_NAMES = ("sn", "wn", "nn", "en")  # in LIN's pn| order S, W, N, E
_BOARD_PARAMS = (*_HANDS, "d", "v", "b", "a", "p", "t", *_NAMES)
_DEALER_DIGIT = {"s": "1", "w": "2", "n": "3", "e": "4"}
_VUL = {"-": "o", "o": "o", "0": "o", "n": "n", "e": "e", "b": "b"}
_VUL_LETTER = {Vulnerability.NONE: "o", Vulnerability.NS: "n", Vulnerability.EW: "e", Vulnerability.BOTH: "b"}
_CALL = re.compile(r"([1-7])(nt|[cdhsn])|([pdr])", re.IGNORECASE)
_CARD = re.compile(r"([shdc])(10|[2-9tjqka])", re.IGNORECASE)


def _params(text: str) -> tuple[str, dict[str, str]]:
    """The host (lower case, empty for a bare query) and the parameters (names lower case) of an address."""
    t = text.strip()
    host = ""
    if re.match(r"[a-z][a-z0-9+.-]*://", t, re.IGNORECASE) or t.lower().startswith("www."):
        parts = urlsplit(t if "://" in t else "https://" + t)
        host = (parts.hostname or "").lower()
        query = parts.query
    else:
        query = t.split("#", 1)[0]
        query = query[1:] if query.startswith("?") else query
    params: dict[str, str] = {}
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if name.strip():
            # Percent escapes only, as a browser's decodeURIComponent: a '+' stays a '+' (LIN notes hold "2+ clubs").
            params.setdefault(unquote(name).strip().lower(), unquote(value))
    return host, params


def is_handviewer(text: str) -> bool:
    """Whether ``text`` is a web address or a handviewer query (what :func:`parse_handviewer` reads or refuses).

    A file's name is not: a line starting ``http://``, ``https://`` or
    ``www.``, or a query naming ``lin=`` or a hand (``n=`` ...), is.
    """
    t = text.strip()
    if re.match(r"(https?://|www\.)", t, re.IGNORECASE):
        return True
    if "=" not in t or "\n" in t:
        return False
    _, params = _params(t)
    return "lin" in params or any(h in params for h in _HANDS) or any(r in params for r in _REMOTE)


def _needs_network(what: str) -> FormatError:
    return FormatError(
        f"handviewer: {what}: reading it needs the network, which ddsbind does not use; "
        "open it in a browser and give the handviewer address it shows (or save the board as LIN)"
    )


def _check_value(name: str, value: str) -> str:
    if "|" in value:
        raise FormatError(f"handviewer: {name}={value[:40]!r} holds a '|', which no handviewer value can")
    return value


def _auction_lin(text: str) -> str:
    """LIN pairs for an ``a=`` auction: ``mb|`` each call, ``an|`` its explanation, ``nt|`` commentary."""
    out: list[str] = []
    pos, count = 0, 0
    while pos < len(text):
        ch = text[pos]
        if ch.isspace():
            pos += 1
            continue
        if ch in "({":
            close = ")" if ch == "(" else "}"
            end = text.find(close, pos + 1)
            if end < 0:
                raise FormatError(
                    f"handviewer: a={text[:40]!r}: {ch!r} after call {count} is never closed by {close!r}"
                )
            note = _check_value("a", text[pos + 1 : end])
            if ch == "(":
                if not count:
                    raise FormatError(f"handviewer: a=: an explanation ({note[:30]!r}) before the first call")
                out.append(f"an|{note}|")
            else:
                out.append(f"nt|{note}|")
            pos = end + 1
            continue
        m = _CALL.match(text, pos)
        if not m:
            raise FormatError(
                f"handviewer: a=: call {count + 1} ({text[pos : pos + 3]!r}) is not a call "
                "(p, d, r, 1c .. 7n, each may be followed by '!', '(explanation)' or '{comment}')"
            )
        count += 1
        call = f"{m.group(1)}{m.group(2)[0]}" if m.group(1) else m.group(3)
        pos = m.end()
        alert = pos < len(text) and text[pos] == "!"
        pos += alert
        out.append(f"mb|{call.lower()}{'!' if alert else ''}|")
    return "".join(out)


def _play_lin(text: str) -> str:
    """LIN pairs for a ``p=`` play: ``pc|`` each card."""
    out: list[str] = []
    squeezed = re.sub(r"\s+", "", text)
    pos = 0
    while pos < len(squeezed):
        m = _CARD.match(squeezed, pos)
        if not m:
            raise FormatError(
                f"handviewer: p=: card {len(out) + 1} ({squeezed[pos : pos + 3]!r}) is not a card "
                "(a suit letter s h d c, then a rank AKQJT98765432 or 10)"
            )
        out.append(f"pc|{m.group(1).upper()}{m.group(2).upper().replace('10', 'T')}|")
        pos = m.end()
    return "".join(out)


def handviewer_lin(text: str) -> str:
    """The LIN text a handviewer address encodes (the layout is the module docstring's).

    Parameters
    ----------
    text : str
        A full handviewer URL, or its query (with or without the ``?``).

    Returns
    -------
    str
        LIN, one board: the ``lin=`` value as given, or the parameters
        written as ``pn|``, ``md|``, ``sv|``, ``ah|``, ``mb|``/``an|``/``nt|``
        and ``pc|`` pairs.

    Raises
    ------
    FormatError
        A shortened link or a board on BBO's server (reading them needs the
        network), an address with no board, or a bad parameter (named).

    Examples
    --------
    >>> handviewer_lin("?s=SAKQJT98765432&w=HAKQJT98765432&n=DAKQJT98765432&d=n&b=1&a=7dppp")
    'md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|sv|o|ah|Board 1|mb|7d|mb|p|mb|p|mb|p|'
    """
    host, params = _params(text)
    if host and (host in _SHORTENERS or host.removeprefix("www.") in _SHORTENERS):
        raise _needs_network(f"{host} is a shortened link")
    for name in _REMOTE:
        if name in params:
            raise _needs_network(f"{name}= names a board kept on BBO's server")
    dropped = sorted(set(params) - set(_BOARD_PARAMS) - {"lin"})
    if dropped:
        warnings.warn(
            f"handviewer: parameters {', '.join(n + '=' for n in dropped)} left out (display settings, no part "
            "of the board)",
            DroppedDataWarning,
            stacklevel=3,
        )
    if "lin" in params:
        extra = sorted(set(params) & set(_BOARD_PARAMS))
        if extra:
            raise FormatError(
                f"handviewer: lin= and board parameters ({', '.join(n + '=' for n in extra)}) together: "
                "give one or the other"
            )
        return params["lin"]
    hands = {k: _check_value(k, params[k]) for k in _HANDS if k in params}
    if len(hands) < 3:
        what = f"a web address of {host}" if host and not params else "an address"
        named = ", ".join(f"{k}=" for k in hands) or "none"
        raise FormatError(
            f"handviewer: {what} with no board: it needs lin=, or three hands of n=, e=, s=, w= (it has {named})"
        )
    for name, value in hands.items():
        if "," in value:
            raise FormatError(f"handviewer: {name}={value[:40]!r} holds a ',', which is no card")
    board = params.get("b", "").strip()
    if board and not (board.isascii() and board.isdigit()):
        raise FormatError(f"handviewer: b={board[:20]!r} is not a board number")
    number = int(board) if board else None
    unsaid_dealer, unsaid_vul = unsaid(number)  # a d= or v= left out: every reader's rule
    dealer = params.get("d", "").strip().lower()
    if dealer:
        if dealer[:1] not in _DEALER_DIGIT:
            raise FormatError(f"handviewer: d={dealer[:20]!r} is not a dealer (n, e, s or w)")
        digit = _DEALER_DIGIT[dealer[:1]]
    elif unsaid_dealer is not None:
        digit = _DEALER_DIGIT[unsaid_dealer.name.lower()]
    else:
        raise FormatError("handviewer: no dealer: it needs d= (n, e, s or w) or a board number b=")
    vul = params.get("v", "").strip().lower()
    if vul:
        if vul not in _VUL:
            raise FormatError(f"handviewer: v={vul[:20]!r} is not a vulnerability (-, n, e or b)")
        sv = _VUL[vul]
    else:
        sv = _VUL_LETTER[unsaid_vul]
    out: list[str] = []
    names = [_check_value(n, params.get(n, "").strip()) for n in _NAMES]
    for seat, name in zip("SWNE", names, strict=True):
        if "," in name:
            raise FormatError(f"handviewer: {seat.lower()}n={name[:40]!r} holds a ',', which LIN's names cannot")
    if any(names):
        out.append(f"pn|{','.join(names)}|")
    md = ",".join(hands.get(k, "") for k in _HANDS)
    out.append(f"md|{digit}{md}|sv|{sv}|")
    if number is not None:
        out.append(f"ah|Board {number}|")
    elif params.get("t", "").strip():
        out.append(f"ah|{_check_value('t', params['t'].strip())}|")
    out.append(_auction_lin(params.get("a", "")))
    out.append(_play_lin(params.get("p", "")))
    return "".join(out)


def parse_handviewer(text: str) -> GameRecord:
    """Read a BBO handviewer address into a game record: :func:`ddsbind.formats.lin.parse_lin` of
    :func:`handviewer_lin` of it.

    Parameters
    ----------
    text : str
        A full handviewer URL, or its query.

    Returns
    -------
    GameRecord
        The board, as the LIN it encodes reads (dealer, vulnerability,
        board, names, auction, play, result from a claim or the whole play).

    Raises
    ------
    FormatError
        What :func:`handviewer_lin` refuses; an address whose ``lin=`` holds
        no board or several; any fault of the LIN (naming the tag).

    Examples
    --------
    >>> rec = parse_handviewer(
    ...     "https://www.bridgebase.com/tools/handviewer.html?s=SAKQJT98765432&w=HAKQJT98765432"
    ...     "&n=DAKQJT98765432&d=n&b=1&a=7dppp"
    ... )
    >>> str(rec.contract), rec.declarer
    ('7D', <Seat.N: 0>)
    """
    records = parse_lin(handviewer_lin(text), name="handviewer")
    if len(records) != 1:
        raise FormatError(f"handviewer: lin= holds {len(records)} boards; a handviewer address shows one")
    return records[0]
